//! The simulated world's cities: real US cities with approximate viewports, real ZIP codes
//! and neighbourhood names, so demo searches look familiar, and London with real postcode
//! districts ("SW1A") and full postcodes ("SW1A 1AA"). Viewports are far apart, so a
//! rectangle never catches two cities by accident.

use serde::Serialize;

use super::geo::{LatLng, Viewport};

/// The country a city lies in: how its addresses, postal codes and phone numbers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Country {
    /// ZIP codes ("78704"), "(512) 555-0143", addresses ending "TX 78704, USA".
    UnitedStates,
    /// Postcodes ("SW1A 1AA": the district, then a unit within it), "020 7946 0143",
    /// addresses ending "London SW1A 1AA, UK".
    UnitedKingdom,
}

impl Country {
    /// `country` of `addressComponents`: long and short text.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Self::UnitedStates => ("United States", "US"),
            Self::UnitedKingdom => ("United Kingdom", "GB"),
        }
    }

    /// How a formatted address ends: "USA" or "UK".
    pub fn in_address(self) -> &'static str {
        match self {
            Self::UnitedStates => "USA",
            Self::UnitedKingdom => "UK",
        }
    }

    /// Words that may follow a city and region without changing the place.
    pub fn qualifiers(self) -> &'static [&'static str] {
        match self {
            Self::UnitedStates => &[
                "usa",
                "us",
                "u.s.",
                "u.s.a.",
                "united states",
                "united states of america",
            ],
            Self::UnitedKingdom => &["uk", "u.k.", "gb", "united kingdom", "great britain"],
        }
    }
}

/// Letters of a UK postcode's unit after its first letter `A`, by column of the unit grid
/// (UK inward codes never use C, I, K, M, O or V).
const UNIT_LETTERS: [char; 4] = ['A', 'B', 'D', 'E'];
/// A UK postcode district is split into this many units a side ("1AA" south-west).
const UNIT_GRID: usize = 4;

/// A city of the simulated world.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct City {
    /// Name as written in a text query, e.g. "Austin".
    pub name: &'static str,
    /// Two-letter region (state) code, e.g. "TX".
    pub region: &'static str,
    /// Region name, e.g. "Texas".
    pub region_name: &'static str,
    /// The city's extent; every business lies inside it.
    pub viewport: Viewport,
    /// ZIP codes (in the UK, postcode districts such as "SW1A"), laid out as a 4 x 2 grid
    /// over the viewport (west to east, south row first).
    pub zip_codes: &'static [&'static str; 8],
    /// Its country.
    pub country: Country,
    /// Telephone area code.
    pub area_code: &'static str,
    /// Neighbourhood names, used in business names.
    pub neighborhoods: &'static [&'static str],
}

/// Columns of the ZIP grid (rows = 8 / columns).
const ZIP_COLUMNS: usize = 4;

impl City {
    /// The ZIP code of the grid cell holding `p` (points outside clamp to the border cell).
    pub fn zip_at(&self, p: LatLng) -> &'static str {
        let (row, col) = self.cell_of(p);
        self.zip_codes[row * ZIP_COLUMNS + col]
    }

    /// The rectangle a ZIP code covers in this city.
    pub fn zip_viewport(&self, zip: &str) -> Option<Viewport> {
        let index = self.zip_codes.iter().position(|z| *z == zip)?;
        let (row, col) = (index / ZIP_COLUMNS, index % ZIP_COLUMNS);
        let (lat_step, lng_step) = self.cell_size();
        let low = LatLng::new(
            self.viewport.low.latitude + lat_step * row as f64,
            self.viewport.low.longitude + lng_step * col as f64,
        );
        Some(Viewport::new(
            low,
            LatLng::new(low.latitude + lat_step, low.longitude + lng_step),
        ))
    }

    /// The full postal code of a place at `p`: its ZIP code in the US; in the UK, its
    /// district and the unit of the district's 4 x 4 grid holding it ("SW1A 1AA" the
    /// south-west unit, rows numbered 1 to 4 northward, columns lettered A, B, D, E
    /// eastward).
    pub fn postal_code_at(&self, p: LatLng) -> String {
        let zip = self.zip_at(p);
        match self.country {
            Country::UnitedStates => zip.to_owned(),
            Country::UnitedKingdom => {
                let cell = self.zip_viewport(zip).unwrap_or(self.viewport);
                let step = |lo: f64, hi: f64, v: f64| {
                    let at = ((v - lo) / ((hi - lo) / UNIT_GRID as f64)).floor();
                    (at.max(0.0) as usize).min(UNIT_GRID - 1)
                };
                let row = step(cell.low.latitude, cell.high.latitude, p.latitude);
                let col = step(cell.low.longitude, cell.high.longitude, p.longitude);
                format!("{zip} {}A{}", row + 1, UNIT_LETTERS[col])
            }
        }
    }

    /// The rectangle of a UK postcode's unit ("1AA" of "SW1A"); `None` for a district this
    /// city does not have, a unit outside the grid, or a US city.
    pub fn unit_viewport(&self, zip: &str, inward: &str) -> Option<Viewport> {
        if self.country != Country::UnitedKingdom {
            return None;
        }
        let cell = self.zip_viewport(zip)?;
        let chars: Vec<char> = inward.to_ascii_uppercase().chars().collect();
        let [digit, 'A', letter] = chars[..] else {
            return None;
        };
        let row = digit.to_digit(10)?.checked_sub(1)? as usize;
        let col = UNIT_LETTERS.iter().position(|l| *l == letter)?;
        if row >= UNIT_GRID {
            return None;
        }
        let lat = (cell.high.latitude - cell.low.latitude) / UNIT_GRID as f64;
        let lng = (cell.high.longitude - cell.low.longitude) / UNIT_GRID as f64;
        let low = LatLng::new(
            cell.low.latitude + lat * row as f64,
            cell.low.longitude + lng * col as f64,
        );
        Some(Viewport::new(low, LatLng::new(low.latitude + lat, low.longitude + lng)))
    }

    /// The full postcodes of a UK district ("SW1A 1AA" ... "SW1A 4AE"); none in the US.
    pub fn unit_codes(&self, zip: &str) -> Vec<String> {
        if self.country != Country::UnitedKingdom {
            return Vec::new();
        }
        (1..=UNIT_GRID)
            .flat_map(|row| UNIT_LETTERS.iter().map(move |letter| format!("{zip} {row}A{letter}")))
            .collect()
    }

    fn rows() -> usize {
        8 / ZIP_COLUMNS
    }

    fn cell_size(&self) -> (f64, f64) {
        let v = &self.viewport;
        (
            (v.high.latitude - v.low.latitude) / Self::rows() as f64,
            (v.high.longitude - v.low.longitude) / ZIP_COLUMNS as f64,
        )
    }

    fn cell_of(&self, p: LatLng) -> (usize, usize) {
        let (lat_step, lng_step) = self.cell_size();
        let row = ((p.latitude - self.viewport.low.latitude) / lat_step).floor();
        let col = ((p.longitude - self.viewport.low.longitude) / lng_step).floor();
        (
            (row.max(0.0) as usize).min(Self::rows() - 1),
            (col.max(0.0) as usize).min(ZIP_COLUMNS - 1),
        )
    }
}

macro_rules! city {
    ($name:literal, $region:literal, $region_name:literal, ($lo_lat:expr, $lo_lng:expr), ($hi_lat:expr, $hi_lng:expr),
     $area:literal, [$($zip:literal),*], [$($hood:literal),*]) => {
        city!($name, $region, $region_name, ($lo_lat, $lo_lng), ($hi_lat, $hi_lng), $area, [$($zip),*],
              [$($hood),*], Country::UnitedStates)
    };
    ($name:literal, $region:literal, $region_name:literal, ($lo_lat:expr, $lo_lng:expr), ($hi_lat:expr, $hi_lng:expr),
     $area:literal, [$($zip:literal),*], [$($hood:literal),*], $country:expr) => {
        City {
            name: $name,
            region: $region,
            region_name: $region_name,
            viewport: Viewport::new(LatLng::new($lo_lat, $lo_lng), LatLng::new($hi_lat, $hi_lng)),
            zip_codes: &[$($zip),*],
            country: $country,
            area_code: $area,
            neighborhoods: &[$($hood),*],
        }
    };
}

/// Every city, in a fixed order. The first is where a query without any location lands
/// (Google biases such queries to the caller's IP address).
pub static CITIES: [City; 16] = [
    city!(
        "Austin",
        "TX",
        "Texas",
        (30.10, -97.94),
        (30.52, -97.56),
        "512",
        ["78745", "78704", "78741", "78702", "78703", "78705", "78751", "78701"],
        [
            "Zilker",
            "Hyde Park",
            "Mueller",
            "Travis Heights",
            "Clarksville",
            "Bouldin Creek",
            "Crestview",
            "Tarrytown"
        ]
    ),
    city!(
        "Denver",
        "CO",
        "Colorado",
        (39.61, -105.11),
        (39.82, -104.86),
        "303",
        ["80209", "80210", "80204", "80203", "80211", "80202", "80205", "80206"],
        [
            "LoDo",
            "Capitol Hill",
            "Highlands",
            "RiNo",
            "Cherry Creek",
            "Baker",
            "Wash Park",
            "Five Points"
        ]
    ),
    city!(
        "Seattle",
        "WA",
        "Washington",
        (47.49, -122.44),
        (47.73, -122.24),
        "206",
        ["98106", "98108", "98144", "98122", "98107", "98103", "98105", "98115"],
        [
            "Ballard",
            "Fremont",
            "Queen Anne",
            "Wallingford",
            "Belltown",
            "Georgetown",
            "Columbia City",
            "Ravenna"
        ]
    ),
    city!(
        "Portland",
        "OR",
        "Oregon",
        (45.43, -122.84),
        (45.65, -122.47),
        "503",
        ["97219", "97239", "97202", "97206", "97229", "97210", "97212", "97211"],
        [
            "Pearl District",
            "Alberta Arts",
            "Hawthorne",
            "Sellwood",
            "Nob Hill",
            "Mississippi",
            "Division",
            "St. Johns"
        ]
    ),
    city!(
        "Boston",
        "MA",
        "Massachusetts",
        (42.23, -71.19),
        (42.40, -70.99),
        "617",
        ["02132", "02131", "02130", "02124", "02135", "02115", "02116", "02129"],
        [
            "Back Bay",
            "Beacon Hill",
            "South End",
            "North End",
            "Jamaica Plain",
            "Fenway",
            "Dorchester",
            "Charlestown"
        ]
    ),
    city!(
        "Chicago",
        "IL",
        "Illinois",
        (41.64, -87.94),
        (42.02, -87.52),
        "312",
        ["60638", "60632", "60609", "60615", "60634", "60647", "60614", "60611"],
        [
            "Lincoln Park",
            "Wicker Park",
            "Logan Square",
            "Pilsen",
            "Lakeview",
            "River North",
            "Hyde Park",
            "Andersonville"
        ]
    ),
    city!(
        "Miami",
        "FL",
        "Florida",
        (25.71, -80.32),
        (25.86, -80.14),
        "305",
        ["33144", "33135", "33129", "33131", "33126", "33125", "33127", "33137"],
        [
            "Wynwood",
            "Brickell",
            "Little Havana",
            "Coconut Grove",
            "Edgewater",
            "Little Haiti",
            "Overtown",
            "Design District"
        ]
    ),
    city!(
        "Atlanta",
        "GA",
        "Georgia",
        (33.65, -84.55),
        (33.89, -84.29),
        "404",
        ["30331", "30310", "30315", "30316", "30318", "30309", "30306", "30307"],
        [
            "Midtown",
            "Buckhead",
            "Inman Park",
            "Old Fourth Ward",
            "Virginia-Highland",
            "Grant Park",
            "West End",
            "Little Five Points"
        ]
    ),
    city!(
        "Phoenix",
        "AZ",
        "Arizona",
        (33.29, -112.32),
        (33.70, -111.93),
        "602",
        ["85339", "85041", "85040", "85044", "85035", "85015", "85016", "85018"],
        [
            "Arcadia",
            "Roosevelt Row",
            "Encanto",
            "Ahwatukee",
            "Biltmore",
            "Maryvale",
            "Sunnyslope",
            "Melrose"
        ]
    ),
    city!(
        "Nashville",
        "TN",
        "Tennessee",
        (36.05, -86.95),
        (36.27, -86.63),
        "615",
        ["37221", "37211", "37210", "37013", "37209", "37203", "37206", "37216"],
        [
            "The Gulch",
            "East Nashville",
            "12 South",
            "Germantown",
            "Midtown",
            "Sylvan Park",
            "Green Hills",
            "Music Row"
        ]
    ),
    city!(
        "San Diego",
        "CA",
        "California",
        (32.62, -117.28),
        (32.86, -117.00),
        "619",
        ["92106", "92113", "92102", "92105", "92109", "92103", "92104", "92115"],
        [
            "Gaslamp Quarter",
            "North Park",
            "Hillcrest",
            "Little Italy",
            "Ocean Beach",
            "Pacific Beach",
            "La Jolla",
            "Normal Heights"
        ]
    ),
    city!(
        "Minneapolis",
        "MN",
        "Minnesota",
        (44.89, -93.33),
        (45.05, -93.19),
        "612",
        ["55410", "55409", "55407", "55406", "55405", "55401", "55413", "55418"],
        [
            "North Loop",
            "Uptown",
            "Northeast",
            "Longfellow",
            "Powderhorn",
            "Dinkytown",
            "Linden Hills",
            "Whittier"
        ]
    ),
    city!(
        "Philadelphia",
        "PA",
        "Pennsylvania",
        (39.87, -75.28),
        (40.14, -74.96),
        "215",
        ["19143", "19146", "19147", "19148", "19131", "19121", "19122", "19125"],
        [
            "Fishtown",
            "Old City",
            "Rittenhouse",
            "Northern Liberties",
            "Society Hill",
            "University City",
            "Passyunk",
            "Manayunk"
        ]
    ),
    city!(
        "Salt Lake City",
        "UT",
        "Utah",
        (40.70, -112.10),
        (40.85, -111.74),
        "801",
        ["84104", "84119", "84115", "84106", "84116", "84101", "84102", "84108"],
        [
            "Sugar House",
            "The Avenues",
            "Marmalade",
            "9th and 9th",
            "Capitol Hill",
            "Liberty Wells",
            "Rose Park",
            "Glendale"
        ]
    ),
    // The dense metro (see `metro.rs`); last, so tests and demos that pick the first city
    // with enough of a type keep picking the same one.
    city!(
        "Houston",
        "TX",
        "Texas",
        (29.52, -95.70),
        (30.02, -95.10),
        "713",
        ["77072", "77096", "77002", "77017", "77041", "77008", "77009", "77044"],
        [
            "Montrose",
            "The Heights",
            "Midtown",
            "EaDo",
            "River Oaks",
            "Third Ward",
            "Museum District",
            "Memorial"
        ]
    ),
    // Central London, with real postcode districts where they lie (Kensington SW7,
    // Westminster SW1A, Southwark SE1, Whitechapel E1; Maida Vale W9, Camden NW1,
    // Islington N1, Bethnal Green E2), each a 0.04-degree cell. Last, after the metro, so
    // every test and demo that picks the first city of a kind keeps its US city.
    city!(
        "London",
        "England",
        "England",
        (51.48, -0.20),
        (51.56, -0.04),
        "20",
        ["SW7", "SW1A", "SE1", "E1", "W9", "NW1", "N1", "E2"],
        [
            "Soho",
            "Camden",
            "Shoreditch",
            "Islington",
            "Brixton",
            "Clerkenwell",
            "Marylebone",
            "Southwark"
        ],
        Country::UnitedKingdom
    ),
];

/// All cities of the simulated world.
pub fn cities() -> &'static [City] {
    &CITIES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cities_are_distinct_apart_and_their_zip_grid_round_trips() {
        let all = cities();
        assert!(all.len() >= 12);
        for (i, a) in all.iter().enumerate() {
            assert!(!a.viewport.is_empty(), "{}", a.name);
            for b in &all[i + 1..] {
                assert_ne!(a.name, b.name);
                assert!(!a.viewport.intersects(&b.viewport), "{} overlaps {}", a.name, b.name);
                assert!(
                    a.zip_codes.iter().all(|z| !b.zip_codes.contains(z)),
                    "{} shares a ZIP",
                    a.name
                );
            }
            for zip in a.zip_codes {
                let cell = a.zip_viewport(zip).expect("zip cell");
                assert_eq!(a.zip_at(cell.center()), *zip, "{} {zip}", a.name);
                assert!(a.viewport.contains(cell.center()));
            }
        }
    }

    #[test]
    fn london_has_postcode_districts_and_units_that_round_trip() {
        let london = cities().iter().find(|c| c.name == "London").expect("London");
        assert_eq!(london.country, Country::UnitedKingdom);
        // Westminster's district holds Westminster (51.50, -0.135).
        assert_eq!(london.zip_at(LatLng::new(51.50, -0.135)), "SW1A");
        let unit = london.unit_viewport("SW1A", "1AA").expect("SW1A 1AA");
        let district = london.zip_viewport("SW1A").expect("SW1A");
        assert_eq!(unit.low, district.low, "1AA is the district's south-west unit");
        assert!(district.contains(unit.center()));
        assert_eq!(london.postal_code_at(unit.center()), "SW1A 1AA");
        let north_east = london.unit_viewport("SW1A", "4AE").expect("SW1A 4AE");
        assert_eq!(london.postal_code_at(north_east.center()), "SW1A 4AE");
        for (zip, inward) in [("SW1A", "5AA"), ("SW1A", "1AC"), ("SW1A", "1BA"), ("SW2", "1AA")] {
            assert_eq!(london.unit_viewport(zip, inward), None, "{zip} {inward}");
        }
        let austin = &cities()[0];
        assert_eq!(
            austin.postal_code_at(austin.viewport.center()),
            austin.zip_at(austin.viewport.center())
        );
        assert_eq!(austin.unit_viewport("78704", "1AA"), None);
    }
}
