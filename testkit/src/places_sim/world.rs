//! The deterministic synthetic world: for a seed, every (city, business type) holds the
//! same businesses on every run. Businesses are generated lazily, per (city, type), the
//! first time a search needs them, so start-up is instant and memory follows use. The
//! dense metro's dense types (`metro.rs`) are generated the same way, only more of them.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};

use super::{
    catalogue::{self, BusinessType},
    cities::{CITIES, City, Country},
    geo::{Area, LatLng, Viewport},
    locate::{AreaPlace, locate},
    metro::{self, MetroDensity},
    names, query,
    rng::{Rng, hash_parts},
};

/// Google returns at most this many places for one query, over all pages.
pub const MAX_RESULTS: usize = 60;

/// Share of businesses without a phone number, website, or rating.
const NO_PHONE: f64 = 0.15;
const NO_WEBSITE: f64 = 0.25;
const NO_RATING: f64 = 0.10;

/// Half the side of a business's viewport, in degrees (about 150 m): Google gives every
/// place a viewport, a small box around a business.
const BUSINESS_VIEWPORT_HALF: f64 = 0.00135;

const STREETS: &[&str] = &[
    "Main St",
    "Oak St",
    "Elm St",
    "Maple Ave",
    "Park Ave",
    "Washington St",
    "Lake St",
    "Hill St",
    "Cedar St",
    "Pine St",
    "2nd St",
    "3rd St",
    "5th Ave",
    "Broadway",
    "Market St",
    "Church St",
    "Spring St",
    "Center St",
    "Highland Ave",
    "Lincoln Ave",
    "Jefferson St",
    "Madison Ave",
    "Franklin St",
    "River Rd",
    "Sunset Blvd",
    "Grand Ave",
    "Union St",
    "Chestnut St",
    "Walnut St",
    "Mill Rd",
    "College Ave",
    "Railroad Ave",
];

/// London's streets, as a UK address writes them.
const UK_STREETS: &[&str] = &[
    "High St",
    "Church Rd",
    "Station Rd",
    "Baker St",
    "King's Rd",
    "Victoria St",
    "Park Ln",
    "Mill Ln",
    "Queen's Rd",
    "The Broadway",
    "Kingsland Rd",
    "Essex Rd",
];

/// One business, with every field the simulator can return.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// Place id, `ChIJ` followed by 23 URL-safe base64 characters, like Google's.
    pub id: String,
    /// `displayName.text`.
    pub display_name: String,
    /// `formattedAddress`, e.g. "1204 Oak St, Austin, TX 78704, USA".
    pub formatted_address: String,
    /// The city the business lies in.
    pub city: &'static str,
    /// Its ZIP code (in the UK, its postcode district, "SW1A").
    pub zip: &'static str,
    /// Its full postal code, in the address: the ZIP code in the US, the full postcode
    /// in the UK ("SW1A 1AA").
    pub postal_code: String,
    /// Its country.
    pub country: Country,
    /// The street line of the address ("1204 Oak St"): `street_number` and `route`.
    pub street_number: u64,
    /// The street's name, `route` of `addressComponents`.
    pub route: &'static str,
    /// The state's code and name (`administrative_area_level_1`).
    pub region: (&'static str, &'static str),
    /// `primaryTypeDisplayName.text`, e.g. "Dentist".
    pub primary_type_display_name: &'static str,
    /// `nationalPhoneNumber`, e.g. "(512) 555-0143"; absent for about 15%.
    pub national_phone_number: Option<String>,
    /// `internationalPhoneNumber`, e.g. "+1 512-555-0143"; absent with the national one.
    pub international_phone_number: Option<String>,
    /// `websiteUri`; absent for about 25%.
    pub website_uri: Option<String>,
    /// `rating` (1.0..=5.0); absent, with `user_rating_count`, for about 10%.
    pub rating: Option<f64>,
    /// `userRatingCount`.
    pub user_rating_count: Option<u32>,
    /// `location`.
    pub location: LatLng,
    /// `viewport`: a box about 300 m across centred on `location`.
    pub viewport: Viewport,
    /// `types`: the primary type, its broader types, `point_of_interest`, `establishment`.
    pub types: Vec<&'static str>,
    /// `primaryType`.
    pub primary_type: &'static str,
    /// `businessStatus`: `OPERATIONAL`, `CLOSED_TEMPORARILY` or `CLOSED_PERMANENTLY`.
    pub business_status: &'static str,
    /// `googleMapsUri`.
    pub google_maps_uri: String,
    /// How prominent the business is; results are ranked by it.
    pub prominence: f64,
}

impl Place {
    /// The place as Google's `Place` JSON, with every field it has (absent fields are
    /// omitted, as Google omits them).
    pub fn to_json(&self) -> Value {
        let mut place = json!({
            "id": self.id,
            "name": format!("places/{}", self.id),
            "displayName": { "text": self.display_name, "languageCode": "en" },
            "formattedAddress": self.formatted_address,
            "location": self.location,
            "viewport": self.viewport,
            "types": self.types,
            "primaryType": self.primary_type,
            "businessStatus": self.business_status,
            "googleMapsUri": self.google_maps_uri,
            "primaryTypeDisplayName": { "text": self.primary_type_display_name, "languageCode": "en" },
            "addressComponents": self.address_components(),
        });
        let optional = [
            (
                "nationalPhoneNumber",
                self.national_phone_number.as_ref().map(|v| json!(v)),
            ),
            (
                "internationalPhoneNumber",
                self.international_phone_number.as_ref().map(|v| json!(v)),
            ),
            ("websiteUri", self.website_uri.as_ref().map(|v| json!(v))),
            ("rating", self.rating.map(|v| json!(v))),
            ("userRatingCount", self.user_rating_count.map(|v| json!(v))),
        ];
        for (field, value) in optional {
            if let Some(value) = value {
                place[field] = value;
            }
        }
        place
    }
}

impl Place {
    /// `addressComponents` as Google lists them for a street address: most specific
    /// first, each with `longText`, `shortText`, `types` and `languageCode`. A UK one
    /// names the city as `postal_town` too, and Greater London as its county.
    pub fn address_components(&self) -> Value {
        let part = |long: &str, short: &str, types: &[&str]| json!({ "longText": long, "shortText": short, "types": types, "languageCode": "en" });
        let number = self.street_number.to_string();
        let (country, code) = self.country.names();
        let mut parts = vec![
            part(&number, &number, &["street_number"]),
            part(self.route, self.route, &["route"]),
            part(self.city, self.city, &["locality", "political"]),
        ];
        if self.country == Country::UnitedKingdom {
            parts.push(part(self.city, self.city, &["postal_town"]));
            parts.push(part(
                "Greater London",
                "Greater London",
                &["administrative_area_level_2", "political"],
            ));
        }
        parts.extend([
            part(
                self.region.1,
                self.region.0,
                &["administrative_area_level_1", "political"],
            ),
            part(country, code, &["country", "political"]),
            part(&self.postal_code, &self.postal_code, &["postal_code"]),
        ]);
        Value::Array(parts)
    }
}

/// A Text Search, as the world understands it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextSearch {
    /// `textQuery`, read as "<what> in <location>".
    pub text_query: String,
    /// `includedType` (a Table A type), if any.
    pub included_type: Option<String>,
    /// `locationBias`: results inside come first; others may follow.
    pub location_bias: Option<Area>,
    /// `locationRestriction`: nothing outside is returned.
    pub location_restriction: Option<Viewport>,
    /// `minRating`: places rated lower, or unrated, are left out.
    pub min_rating: Option<f64>,
}

impl TextSearch {
    /// A search for `text_query`, optionally with `includedType`.
    pub fn new(text_query: &str, included_type: Option<&str>) -> Self {
        Self {
            text_query: text_query.to_owned(),
            included_type: included_type.map(str::to_owned),
            ..Self::default()
        }
    }
}

/// Businesses generated so far, by (city index, type index).
type Generated = HashMap<(usize, usize), Arc<Vec<Place>>>;

/// The synthetic world of one seed.
#[derive(Debug)]
pub struct World {
    seed: u64,
    metro_density: MetroDensity,
    generated: Mutex<Generated>,
    /// Places Text Search never lists (see [`World::with_unlisted`]), until
    /// [`World::list`] opens them.
    unlisted: Mutex<HashSet<String>>,
}

impl World {
    /// The world of `seed`, with the default dense metro; nothing is generated until
    /// asked for.
    pub fn new(seed: u64) -> Self {
        Self::with_metro_density(seed, metro::default_density())
    }

    /// The world of `seed` whose metro ([`METRO_CITY`](super::METRO_CITY)) holds exactly
    /// `density[value]` businesses of each listed catalogue type (other types, and
    /// values outside the catalogue, keep the normal density).
    pub fn with_metro_density(seed: u64, metro_density: MetroDensity) -> Self {
        Self {
            seed,
            metro_density,
            generated: Mutex::new(HashMap::new()),
            unlisted: Mutex::new(HashSet::new()),
        }
    }

    /// The same world, where Text Search never lists the places `ids` name (whatever
    /// the query): they exist all the same, so the Places Aggregate API counts and lists
    /// them, Place Details answers them and [`World::truth`] holds them. What a place
    /// Google ranks out of every query looks like to a full search.
    #[must_use]
    pub fn with_unlisted(self, ids: impl IntoIterator<Item = String>) -> Self {
        self.unlisted.lock().unwrap_or_else(|e| e.into_inner()).extend(ids);
        self
    }

    /// Text Search lists the unlisted place `id` from now on, as if it had just opened
    /// (tests of what changed between two searches); answers whether it was unlisted.
    pub fn list(&self, id: &str) -> bool {
        self.unlisted.lock().unwrap_or_else(|e| e.into_inner()).remove(id)
    }

    /// The business with place id `id`, wherever it is (Place Details' answer); `None`
    /// for an id the world does not hold.
    pub fn place(&self, id: &str) -> Option<Place> {
        let known: Vec<Arc<Vec<Place>>> = {
            let cache = self.generated.lock().unwrap_or_else(|e| e.into_inner());
            cache.values().cloned().collect()
        };
        if let Some(place) = known.iter().flat_map(|places| places.iter()).find(|p| p.id == id) {
            return Some(place.clone());
        }
        // Not generated yet: every city and type is, one after another, without keeping
        // them (an id no search listed is rare: a test's, or a stale one).
        for (c, city) in CITIES.iter().enumerate() {
            for (t, ty) in catalogue::TYPES.iter().enumerate() {
                let cached = self
                    .generated
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .contains_key(&(c, t));
                if cached {
                    continue;
                }
                let places = generate(
                    self.seed,
                    city,
                    ty,
                    metro::dense_count(&self.metro_density, city, ty.value),
                );
                if let Some(place) = places.into_iter().find(|p| p.id == id) {
                    return Some(place);
                }
            }
        }
        None
    }

    /// The seed it was made from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many businesses the metro's dense types hold.
    pub fn metro_density(&self) -> &MetroDensity {
        &self.metro_density
    }

    /// Every city, with its viewport and ZIP codes.
    pub fn cities(&self) -> &'static [City] {
        &CITIES
    }

    /// The city with this name (case-insensitive).
    pub fn city(&self, name: &str) -> Option<&'static City> {
        CITIES.iter().find(|c| c.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Every business of `place_type` (its primary type) in `city`, in generation order;
    /// empty for an unknown city or a type outside the catalogue.
    pub fn places_for(&self, city: &str, place_type: &str) -> Vec<Place> {
        let city_index = CITIES.iter().position(|c| c.name.eq_ignore_ascii_case(city.trim()));
        let type_index = catalogue::TYPES.iter().position(|t| t.value == place_type);
        match (city_index, type_index) {
            (Some(c), Some(t)) => self.generated(c, t).as_ref().clone(),
            _ => Vec::new(),
        }
    }

    /// What the simulator answers, over all pages, for a text query and optional
    /// `includedType`: Google's `Place` JSON with every field, best first, at most 60.
    pub fn expected_places(&self, text_query: &str, included_type: Option<&str>) -> Vec<Value> {
        self.answer(&TextSearch::new(text_query, included_type))
    }

    /// The places a `searchText` request gets over all its pages, as Google's `Place`
    /// JSON with every field: the area itself when the query names only a location
    /// ([`World::locate`]), otherwise the businesses of [`World::search`].
    pub fn answer(&self, search: &TextSearch) -> Vec<Value> {
        match self.located(search) {
            Some(area) => vec![area.to_json()],
            None => self.search(search).iter().map(Place::to_json).collect(),
        }
    }

    /// The city or ZIP code a text query names when it names nothing else ("Austin, TX",
    /// "78704", "Austin, TX 78704"), as Text Search answers such a geocode-like query.
    pub fn locate(&self, text_query: &str) -> Option<AreaPlace> {
        locate(text_query)
    }

    /// The area a search answers with, if it is a geocode: no `includedType`, a query
    /// naming only a location, and no filter that leaves the area out (an area has no
    /// rating; a restriction must hold its centre).
    fn located(&self, search: &TextSearch) -> Option<AreaPlace> {
        if search.included_type.as_deref().is_some_and(|t| !t.is_empty()) || rating_floor(search.min_rating).is_some() {
            return None;
        }
        self.locate(&search.text_query)
            .filter(|area| search.location_restriction.is_none_or(|r| r.contains(area.location)))
    }

    /// Every business a search for `place_type` (a catalogue value) could ever find in
    /// `area`, uncapped and in generation order: the ground truth a full-coverage search
    /// is measured against. For a Google type searched with `includedType` (Table A), the
    /// businesses of that primary type; for a value searched by text alone (`food`,
    /// `health`, `computer_phone_repair`...), whatever the text matches, by the same rules
    /// as [`World::search`]. `min_rating` filters as it does there. Empty for a value
    /// outside the catalogue.
    pub fn truth(&self, place_type: &str, area: &Viewport, min_rating: Option<f64>) -> Vec<Place> {
        let Some(ty) = catalogue::find(place_type) else {
            return Vec::new();
        };
        let types: Vec<&'static BusinessType> = if ty.is_included_type() {
            catalogue::TYPES.iter().filter(|t| t.primary == ty.value).collect()
        } else {
            catalogue::types_carrying(ty.value)
        };
        let cities: Vec<usize> = (0..CITIES.len())
            .filter(|i| CITIES[*i].viewport.intersects(area))
            .collect();
        let floor = rating_floor(min_rating);
        self.matching(&cities, &types, |p| area.contains(p.location) && meets(p, floor))
    }

    /// Runs a search: every page's places, best first, at most [`MAX_RESULTS`].
    pub fn search(&self, search: &TextSearch) -> Vec<Place> {
        let parsed = query::parse(&search.text_query);
        // An explicit location Google cannot place finds nothing; no location at all
        // falls back to where the caller is (IP bias), which here is the first city.
        let (named_city, zip, postal_code) = match &parsed.location {
            Some(text) => match query::resolve_location(text) {
                Some(location) => (Some(location.city), location.zip, location.postal_code()),
                None => return Vec::new(),
            },
            None => (None, None, None),
        };
        // A full UK postcode names its unit; a district or a ZIP code, its cell.
        let unit = postal_code.filter(|code| zip.is_some_and(|z| z != code.as_str()));
        let wanted = match search.included_type.as_deref().filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => match catalogue::type_named_in(&parsed.what) {
                Some(ty) => ty.value,
                None => return Vec::new(),
            },
        };
        // An explicit location in the text overrides a bias, as Google documents.
        let bias = if named_city.is_some() {
            None
        } else {
            search.location_bias
        };
        let scope = self.scope(named_city, search.location_restriction.as_ref(), bias.as_ref());
        let floor = rating_floor(search.min_rating);
        let unlisted = self.unlisted.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut hits = self.matching(&scope, &catalogue::types_carrying(wanted), |p| {
            !unlisted.contains(&p.id)
                && zip.is_none_or(|z| p.zip == z)
                && unit.as_ref().is_none_or(|code| &p.postal_code == code)
                && search.location_restriction.is_none_or(|r| r.contains(p.location))
                && meets(p, floor)
        });
        hits.sort_by(|a, b| {
            let inside = |p: &Place| bias.is_some_and(|area| area.contains(p.location));
            let distance = |p: &Place| bias.map_or(0.0, |area| area.center().distance_m(p.location));
            inside(b)
                .cmp(&inside(a))
                .then_with(|| {
                    // Outside a bias, nearer first.
                    if inside(a) || bias.is_none() {
                        std::cmp::Ordering::Equal
                    } else {
                        distance(a).total_cmp(&distance(b))
                    }
                })
                .then_with(|| (b.primary_type == wanted).cmp(&(a.primary_type == wanted)))
                .then_with(|| b.prominence.total_cmp(&a.prominence))
                .then_with(|| a.id.cmp(&b.id))
        });
        hits.truncate(MAX_RESULTS);
        hits
    }

    /// The businesses of `types` in the cities that touch `bounds` that `keep` accepts,
    /// uncapped and in generation order (what the Places Aggregate API counts).
    pub(crate) fn select(
        &self,
        bounds: &Viewport,
        types: &[&BusinessType],
        keep: impl Fn(&Place) -> bool,
    ) -> Vec<Place> {
        let cities: Vec<usize> = (0..CITIES.len())
            .filter(|i| CITIES[*i].viewport.intersects(bounds))
            .collect();
        self.matching(&cities, types, keep)
    }

    /// The businesses of `types` in `cities` that `keep` accepts, in generation order.
    fn matching(&self, cities: &[usize], types: &[&BusinessType], keep: impl Fn(&Place) -> bool) -> Vec<Place> {
        let mut hits = Vec::new();
        for city_index in cities {
            for ty in types {
                let Some(type_index) = catalogue::TYPES.iter().position(|t| t.value == ty.value) else {
                    continue;
                };
                hits.extend(
                    self.generated(*city_index, type_index)
                        .iter()
                        .filter(|p| keep(p))
                        .cloned(),
                );
            }
        }
        hits
    }

    /// Indexes of the cities a search covers.
    fn scope(&self, named: Option<&City>, restriction: Option<&Viewport>, bias: Option<&Area>) -> Vec<usize> {
        let index_of = |city: &City| CITIES.iter().position(|c| c.name == city.name);
        if let Some(city) = named {
            return index_of(city).into_iter().collect();
        }
        if let Some(rect) = restriction {
            return (0..CITIES.len())
                .filter(|i| CITIES[*i].viewport.intersects(rect))
                .collect();
        }
        if let Some(area) = bias {
            let bounds = area.bounds();
            let touched: Vec<usize> = (0..CITIES.len())
                .filter(|i| CITIES[*i].viewport.intersects(&bounds))
                .collect();
            if !touched.is_empty() {
                return touched;
            }
            let center = area.center();
            return (0..CITIES.len())
                .min_by(|a, b| {
                    let d = |i: usize| CITIES[i].viewport.center().distance_m(center);
                    d(*a).total_cmp(&d(*b))
                })
                .into_iter()
                .collect();
        }
        vec![0]
    }

    fn generated(&self, city: usize, ty: usize) -> Arc<Vec<Place>> {
        // A poisoned lock only means another thread panicked mid-insert of an Arc: the
        // map is still consistent, so keep using it.
        let mut cache = self.generated.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry((city, ty))
            .or_insert_with(|| {
                let (city, ty) = (&CITIES[city], &catalogue::TYPES[ty]);
                Arc::new(generate(
                    self.seed,
                    city,
                    ty,
                    metro::dense_count(&self.metro_density, city, ty.value),
                ))
            })
            .clone()
    }
}

/// `minRating` as Google applies it: rounded up to the nearest half star; 0 means none.
fn rating_floor(min_rating: Option<f64>) -> Option<f64> {
    min_rating.filter(|r| *r > 0.0).map(|r| (r * 2.0).ceil() / 2.0)
}

/// Whether a place passes a rating floor (unrated places never do).
fn meets(place: &Place, floor: Option<f64>) -> bool {
    floor.is_none_or(|min| place.rating.is_some_and(|r| r >= min))
}

/// All businesses of one type in one city: `dense` of them laid out in the metro's
/// clusters when the type is dense there, otherwise the type's normal count, gathered
/// toward the centre.
fn generate(seed: u64, city: &City, ty: &BusinessType, dense: Option<u32>) -> Vec<Place> {
    let seed_bytes = seed.to_be_bytes();
    let mut rng = Rng::from_parts(&[
        b"places-sim/world",
        &seed_bytes,
        city.name.as_bytes(),
        ty.value.as_bytes(),
    ]);
    let count = match dense {
        Some(count) => u64::from(count),
        None => {
            let (lo, hi) = ty.density.range();
            rng.between(lo, hi)
        }
    };
    let mut taken = HashSet::new();
    (0..count)
        .map(|index| {
            let display_name = names::unique_name(&mut rng, ty, city, &mut taken);
            let digest = hash_parts(&[
                b"places-sim/id",
                &seed_bytes,
                city.name.as_bytes(),
                ty.value.as_bytes(),
                &index.to_be_bytes(),
            ]);
            let id = format!("ChIJ{}", URL_SAFE_NO_PAD.encode(&digest[..17]));
            let mut cid = [0u8; 8];
            cid.copy_from_slice(&digest[17..25]);

            let v = &city.viewport;
            let (lat, lng) = if dense.is_some() {
                let point = metro::place_point(&mut rng, v);
                (point.latitude, point.longitude)
            } else {
                // Businesses gather toward the centre: the mean of two uniform draws.
                (
                    v.low.latitude + (v.high.latitude - v.low.latitude) * (rng.unit() + rng.unit()) / 2.0,
                    v.low.longitude + (v.high.longitude - v.low.longitude) * (rng.unit() + rng.unit()) / 2.0,
                )
            };
            // Rounded inside the viewport, so a business never drifts out of its city.
            let location = LatLng::new(
                round_to(lat, 7).clamp(v.low.latitude, v.high.latitude),
                round_to(lng, 7).clamp(v.low.longitude, v.high.longitude),
            );
            let viewport = Viewport::new(
                LatLng::new(
                    round_to(location.latitude - BUSINESS_VIEWPORT_HALF, 7),
                    round_to(location.longitude - BUSINESS_VIEWPORT_HALF, 7),
                ),
                LatLng::new(
                    round_to(location.latitude + BUSINESS_VIEWPORT_HALF, 7),
                    round_to(location.longitude + BUSINESS_VIEWPORT_HALF, 7),
                ),
            );
            let zip = city.zip_at(location);
            let postal_code = city.postal_code_at(location);
            let street_number = rng.between(100, 9899);
            let (street, formatted_address) = match city.country {
                Country::UnitedStates => {
                    let street = rng.pick(STREETS);
                    let address = format!("{street_number} {street}, {}, {} {zip}, USA", city.name, city.region);
                    (*street, address)
                }
                Country::UnitedKingdom => {
                    let street = rng.pick(UK_STREETS);
                    (
                        *street,
                        format!("{street_number} {street}, {} {postal_code}, UK", city.name),
                    )
                }
            };

            let line = rng.between(0, 9999);
            let (national, international) = if rng.chance(NO_PHONE) {
                (None, None)
            } else {
                match city.country {
                    Country::UnitedStates => (
                        Some(format!("({}) 555-{line:04}", city.area_code)),
                        Some(format!("+1 {}-555-{line:04}", city.area_code)),
                    ),
                    // Ofcom's numbers for drama: 020 7946 0000 to 0999.
                    Country::UnitedKingdom => (
                        Some(format!("0{} 7946 0{:03}", city.area_code, line % 1000)),
                        Some(format!("+44 {} 7946 0{:03}", city.area_code, line % 1000)),
                    ),
                }
            };
            // Reserved example domain: a demo click or a crawler never reaches a real site.
            let website_uri =
                (!rng.chance(NO_WEBSITE)).then(|| format!("https://{}.example.com/", names::slug(&display_name)));
            let (rating, user_rating_count) = if rng.chance(NO_RATING) {
                (None, None)
            } else {
                // Mostly between 3.5 and 4.9, as real ratings are.
                let tenths = (35.0 + 14.0 * (rng.unit() + rng.unit() + rng.unit()) / 3.0 + 10.0 * (rng.unit() - 0.8))
                    .round()
                    .clamp(10.0, 50.0);
                let count = (rng.unit() * 8.0).exp().floor().max(1.0) as u32;
                (Some(tenths / 10.0), Some(count))
            };
            let status = rng.unit();
            let business_status = if status < 0.02 {
                "CLOSED_PERMANENTLY"
            } else if status < 0.06 {
                "CLOSED_TEMPORARILY"
            } else {
                "OPERATIONAL"
            };
            let prominence = rating.unwrap_or(2.5) * f64::from(user_rating_count.unwrap_or(0)).ln_1p() + rng.unit();

            Place {
                id,
                display_name,
                formatted_address,
                city: city.name,
                zip,
                postal_code,
                country: city.country,
                street_number,
                route: street,
                region: (city.region, city.region_name),
                primary_type_display_name: super::catalogue::find(ty.primary).map_or(ty.label, |t| t.label),
                national_phone_number: national,
                international_phone_number: international,
                website_uri,
                rating,
                user_rating_count,
                location,
                viewport,
                types: ty.place_types(),
                primary_type: ty.primary,
                business_status,
                google_maps_uri: format!("https://maps.google.com/?cid={}", u64::from_be_bytes(cid)),
                prominence,
            }
        })
        .collect()
}

fn round_to(value: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (value * factor).round() / factor
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::places_sim::{METRO_CITY, geo::Circle};

    /// The simulator's default seed.
    const DEFAULT_SEED_FOR_TESTS: u64 = crate::places_sim::DEFAULT_SEED;

    fn rect(low: (f64, f64), high: (f64, f64)) -> Viewport {
        Viewport::new(LatLng::new(low.0, low.1), LatLng::new(high.0, high.1))
    }

    fn id_set(places: &[Place]) -> HashSet<String> {
        places.iter().map(|p| p.id.clone()).collect()
    }

    #[test]
    fn every_city_holds_25_to_120_businesses_of_every_type_with_unique_names() {
        let world = World::new(42);
        let mut total = 0;
        for city in world.cities() {
            for ty in catalogue::TYPES {
                let places = world.places_for(city.name, ty.value);
                // The metro's dense types are the one exception, and hold exactly their count.
                let expected = match (city.name, ty.value) {
                    (METRO_CITY, "dentist") => 1_500..=1_500,
                    (METRO_CITY, "restaurant") => 3_000..=3_000,
                    _ => 25..=120,
                };
                assert!(
                    expected.contains(&places.len()),
                    "{} {}: {}",
                    city.name,
                    ty.value,
                    places.len()
                );
                let names: HashSet<&str> = places.iter().map(|p| p.display_name.as_str()).collect();
                assert_eq!(names.len(), places.len(), "{} {}", city.name, ty.value);
                assert!(places.iter().all(|p| city.viewport.contains(p.location)));
                total += places.len();
            }
            assert!(world.places_for(city.name, "restaurant").len() >= MAX_RESULTS);
        }
        assert!(total > 10_000, "{total}");
    }

    #[test]
    fn about_the_documented_share_lacks_phone_website_and_rating() {
        let world = &World::new(7);
        let all: Vec<Place> = ["Austin", "Denver", "Boston"]
            .into_iter()
            .flat_map(|c| catalogue::TYPES.iter().flat_map(move |t| world.places_for(c, t.value)))
            .collect();
        let share = |f: &dyn Fn(&Place) -> bool| all.iter().filter(|p| f(p)).count() as f64 / all.len() as f64;
        assert!((0.12..0.18).contains(&share(&|p| p.national_phone_number.is_none())));
        assert!((0.22..0.28).contains(&share(&|p| p.website_uri.is_none())));
        assert!((0.08..0.12).contains(&share(&|p| p.rating.is_none())));
        assert!(all.iter().all(|p| p.rating.is_some() == p.user_rating_count.is_some()));
        assert!(all.iter().all(|p| p.id.starts_with("ChIJ") && p.id.len() == 27));
        let ids: HashSet<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), all.len());
        assert_eq!(world.seed(), 7);
    }

    #[test]
    fn the_same_seed_makes_the_same_world_and_another_seed_another() {
        let a = World::new(1).places_for("Seattle", "dentist");
        assert_eq!(a, World::new(1).places_for("Seattle", "dentist"));
        assert_ne!(a, World::new(2).places_for("Seattle", "dentist"));
        assert!(World::new(1).places_for("Atlantis", "dentist").is_empty());
        assert!(World::new(1).places_for("Seattle", "museum").is_empty());
    }

    #[test]
    fn search_reads_the_location_and_type_from_the_text() {
        let world = World::new(3);
        let results = world.search(&TextSearch::new("Restaurant in Austin, TX", None));
        assert_eq!(results.len(), MAX_RESULTS);
        assert!(
            results
                .iter()
                .all(|p| p.city == "Austin" && p.primary_type == "restaurant")
        );
        // Best first.
        assert!(results.windows(2).all(|w| w[0].prominence >= w[1].prominence));
        let by_zip = world.search(&TextSearch::new("plumbers in 78704", None));
        assert!(!by_zip.is_empty() && by_zip.iter().all(|p| p.zip == "78704" && p.city == "Austin"));
        assert!(
            world
                .search(&TextSearch::new("restaurants in Atlantis", None))
                .is_empty()
        );
        assert!(
            world
                .search(&TextSearch::new("Restaurant in Portland, ME", None))
                .is_empty()
        );
        assert!(world.search(&TextSearch::new("pizza in Austin", None)).is_empty());
        // Without any location, Google biases to the caller; here, the first city.
        let anywhere = world.search(&TextSearch::new("restaurant", None));
        assert!(!anywhere.is_empty() && anywhere.iter().all(|p| p.city == CITIES[0].name));
    }

    #[test]
    fn london_places_have_uk_addresses_and_a_postcode_search_stays_in_its_code() {
        let world = World::new(3);
        let london = world.city("London").expect("London");
        let dentists = world.places_for("London", "dentist");
        assert!(!dentists.is_empty());
        for p in &dentists {
            assert!(p.postal_code.starts_with(&format!("{} ", p.zip)), "{}", p.postal_code);
            assert_eq!(london.postal_code_at(p.location), p.postal_code);
            assert!(
                p.formatted_address
                    .ends_with(&format!(", London {}, UK", p.postal_code)),
                "{}",
                p.formatted_address
            );
            let json = p.to_json();
            let part = |kind: &str| {
                json["addressComponents"]
                    .as_array()
                    .and_then(|parts| {
                        parts
                            .iter()
                            .find(|c| c["types"].as_array().is_some_and(|t| t.contains(&json!(kind))))
                    })
                    .map(|c| c["longText"].clone())
            };
            assert_eq!(part("postal_code"), Some(json!(p.postal_code)));
            assert_eq!(part("postal_town"), Some(json!("London")));
            assert_eq!(part("country"), Some(json!("United Kingdom")));
            if let Some(phone) = &p.national_phone_number {
                assert!(phone.starts_with("020 7946 0"), "{phone}");
            }
        }
        let district = world.search(&TextSearch::new("dentists in SW1A", None));
        let in_district = dentists.iter().filter(|p| p.zip == "SW1A").count();
        assert_eq!(district.len(), in_district.min(MAX_RESULTS));
        assert!(!district.is_empty() && district.iter().all(|p| p.zip == "SW1A"));
        let code = district[0].postal_code.clone();
        let unit = world.search(&TextSearch::new(&format!("dentists in London {code}, UK"), None));
        assert_eq!(unit.len(), dentists.iter().filter(|p| p.postal_code == code).count());
        assert!(!unit.is_empty() && unit.iter().all(|p| p.postal_code == code), "{code}");
        assert!(world.search(&TextSearch::new("dentists in SW1A 9ZZ", None)).is_empty());
        // The US keeps its ZIP codes as the postal code.
        let austin = world.places_for("Austin", "dentist");
        assert!(
            austin
                .iter()
                .all(|p| p.postal_code == p.zip && p.country == Country::UnitedStates)
        );
    }

    #[test]
    fn table_b_text_finds_the_narrower_types_too_and_included_type_filters_on_types() {
        let world = World::new(3);
        let food = world.search(&TextSearch::new("Food in Denver", None));
        assert_eq!(food.len(), MAX_RESULTS);
        assert!(food.iter().all(|p| p.types.contains(&"food")));
        assert_eq!(food[0].primary_type, "food", "the type itself ranks first");
        let stores = world.search(&TextSearch::new("anything in Denver", Some("store")));
        assert!(stores.iter().all(|p| p.types.contains(&"store")));
        let bakeries = world.search(&TextSearch::new("Restaurant in Denver", Some("bakery")));
        assert!(!bakeries.is_empty() && bakeries.iter().all(|p| p.primary_type == "bakery"));
    }

    #[test]
    fn restriction_filters_and_bias_ranks() {
        let world = World::new(3);
        let austin = world.city("austin").expect("Austin");
        let west_half = Viewport::new(austin.viewport.low, LatLng::new(austin.viewport.high.latitude, -97.75));
        let restricted = world.search(&TextSearch {
            text_query: "restaurant".into(),
            location_restriction: Some(west_half),
            ..TextSearch::default()
        });
        assert!(!restricted.is_empty() && restricted.iter().all(|p| west_half.contains(p.location)));

        let small = Viewport::new(LatLng::new(30.25, -97.78), LatLng::new(30.30, -97.72));
        let biased = world.search(&TextSearch {
            text_query: "restaurant".into(),
            location_bias: Some(Area::Rectangle(small)),
            ..TextSearch::default()
        });
        let first_outside = biased
            .iter()
            .position(|p| !small.contains(p.location))
            .unwrap_or(biased.len());
        assert!(first_outside > 0, "some results lie inside the bias");
        assert!(
            biased[first_outside..].iter().all(|p| !small.contains(p.location)),
            "inside first"
        );
        assert!(first_outside < biased.len(), "a bias does not exclude");

        let circle = Area::Circle(Circle {
            center: LatLng::new(39.74, -104.99),
            radius: 3000.0,
        });
        let denver = world.search(&TextSearch {
            text_query: "cafe".into(),
            location_bias: Some(circle),
            ..TextSearch::default()
        });
        assert!(denver.iter().all(|p| p.city == "Denver"));
        assert!(circle.contains(denver[0].location));
    }

    #[test]
    fn min_rating_leaves_out_lower_and_unrated_places() {
        let world = World::new(3);
        let results = world.search(&TextSearch {
            text_query: "bars in Chicago".into(),
            min_rating: Some(4.2),
            ..TextSearch::default()
        });
        assert!(!results.is_empty());
        assert!(
            results.iter().all(|p| p.rating.is_some_and(|r| r >= 4.5)),
            "rounded up to 4.5"
        );
    }

    #[test]
    fn the_metro_is_dense_clustered_deterministic_and_quick_to_generate() {
        let world = World::new(DEFAULT_SEED_FOR_TESTS);
        let started = Instant::now();
        let restaurants = world.places_for(METRO_CITY, "restaurant");
        let elapsed = started.elapsed();
        // Debug builds on a busy machine included; a release build takes a few ms.
        assert!(elapsed.as_secs_f64() < 1.0, "3,000 places took {elapsed:?}");
        let dentists = world.places_for(METRO_CITY, "dentist");
        assert_eq!((dentists.len(), restaurants.len()), (1_500, 3_000));
        assert!(
            (25..=100).contains(&world.places_for(METRO_CITY, "plumber").len()),
            "other types are normal"
        );

        let houston = world.city(METRO_CITY).expect("the metro");
        assert!(
            dentists
                .iter()
                .all(|p| houston.viewport.contains(p.location) && p.city == METRO_CITY)
        );
        assert!(
            dentists
                .iter()
                .all(|p| p.formatted_address.ends_with(&format!("Houston, TX {}, USA", p.zip)))
        );
        assert!(
            dentists
                .iter()
                .filter_map(|p| p.national_phone_number.as_deref())
                .all(|n| n.starts_with("(713) "))
        );
        assert_eq!(id_set(&dentists).len(), 1_500, "unique ids");
        let names: HashSet<&str> = restaurants.iter().map(|p| p.display_name.as_str()).collect();
        assert_eq!(names.len(), 3_000, "unique names");

        // Clustered: a 4 km box downtown (0.5% of the viewport's area) holds far more
        // than its share, and the scattered third still reaches the far north-west.
        let downtown = rect((29.737, -95.386), (29.773, -95.344));
        let in_downtown = dentists.iter().filter(|p| downtown.contains(p.location)).count();
        assert!(in_downtown > 150, "{in_downtown} of 1,500 downtown");
        let north_west = rect((29.90, -95.70), (30.02, -95.55));
        let far = dentists.iter().filter(|p| north_west.contains(p.location)).count();
        assert!((10..120).contains(&far), "{far} in the north-west corner");

        assert_eq!(
            dentists,
            World::new(DEFAULT_SEED_FOR_TESTS).places_for(METRO_CITY, "dentist")
        );
        let other = World::new(DEFAULT_SEED_FOR_TESTS + 1).places_for(METRO_CITY, "dentist");
        assert_eq!(other.len(), 1_500);
        assert_ne!(id_set(&other), id_set(&dentists), "another seed, another world");
    }

    #[test]
    fn metro_density_can_be_changed_per_type() {
        let density: MetroDensity = [("plumber".to_owned(), 400), ("dentist".to_owned(), 2_000)].into();
        let world = World::with_metro_density(5, density.clone());
        assert_eq!(world.metro_density(), &density);
        assert_eq!(world.places_for(METRO_CITY, "plumber").len(), 400);
        assert_eq!(world.places_for(METRO_CITY, "dentist").len(), 2_000);
        let restaurants = world.places_for(METRO_CITY, "restaurant").len();
        assert!(
            (60..=120).contains(&restaurants),
            "not listed: normal density, {restaurants}"
        );
        assert!(
            (25..=100).contains(&world.places_for("Austin", "plumber").len()),
            "only the metro"
        );
    }

    #[test]
    fn an_unlisted_place_is_never_searched_yet_found_by_id_and_in_the_truth() {
        let plain = World::new(DEFAULT_SEED_FOR_TESTS);
        let city = &CITIES[0];
        let dentists = plain.places_for(city.name, "dentist");
        let hidden = dentists[3].clone();
        let world = World::new(DEFAULT_SEED_FOR_TESTS).with_unlisted([hidden.id.clone()]);
        let mut search = TextSearch::new("dentist", Some("dentist"));
        search.location_restriction = Some(hidden.viewport);
        assert!(
            id_set(&plain.search(&search)).contains(&hidden.id),
            "listed in the plain world"
        );
        assert!(!id_set(&world.search(&search)).contains(&hidden.id), "never listed");
        assert!(id_set(&world.truth("dentist", &hidden.viewport, None)).contains(&hidden.id));
        assert_eq!(
            world.place(&hidden.id),
            Some(hidden.clone()),
            "by id, before anything was generated"
        );
        assert_eq!(plain.place(&hidden.id), Some(hidden), "and once generated");
        assert_eq!(world.place("ChIJnotAPlaceOfThisWorld00"), None);
    }

    #[test]
    fn truth_is_every_match_in_the_rectangle_uncapped() {
        let world = World::new(DEFAULT_SEED_FOR_TESTS);
        let houston = world.city(METRO_CITY).expect("the metro").viewport;
        let all = world.truth("dentist", &houston, None);
        assert_eq!(all.len(), 1_500);

        let part = rect((29.70, -95.50), (29.80, -95.30));
        let inside = world.truth("dentist", &part, None);
        let expected: HashSet<String> = world
            .places_for(METRO_CITY, "dentist")
            .into_iter()
            .filter(|p| part.contains(p.location))
            .map(|p| p.id)
            .collect();
        assert!(expected.len() > MAX_RESULTS, "{}", expected.len());
        assert_eq!(id_set(&inside), expected);

        let rated = world.truth("dentist", &part, Some(4.3));
        assert!(!rated.is_empty() && rated.len() < inside.len());
        assert!(
            rated.iter().all(|p| p.rating.is_some_and(|r| r >= 4.5)),
            "rounded up to 4.5"
        );
        assert_eq!(
            rated.len(),
            inside.iter().filter(|p| p.rating.is_some_and(|r| r >= 4.5)).count()
        );

        // A rectangle over two cities holds both cities' matches.
        let both = rect((29.5, -98.0), (30.6, -95.0));
        let austin = world.places_for("Austin", "dentist").len();
        assert_eq!(world.truth("dentist", &both, None).len(), austin + 1_500);

        // A value searched by text covers what the text matches: `food` is restaurants,
        // cafes, bakeries... as well as `food` itself.
        let food = world.truth("food", &houston, None);
        let food_types: HashSet<&str> = food.iter().map(|p| p.primary_type).collect();
        assert!(food_types.contains("food") && food_types.contains("restaurant") && food_types.contains("cafe"));
        assert!(food.iter().all(|p| p.types.contains(&"food")));
        // A Google type is its primary type only: no night clubs among the bars.
        let bars = world.truth("bar", &houston, None);
        assert!(!bars.is_empty() && bars.iter().all(|p| p.primary_type == "bar"));
        assert!(world.truth("museum", &houston, None).is_empty());
        assert!(
            world
                .truth("dentist", &rect((10.0, 10.0), (11.0, 11.0)), None)
                .is_empty()
        );
    }

    #[test]
    fn truth_matches_an_uncapped_search_of_the_same_rectangle() {
        let world = World::new(DEFAULT_SEED_FOR_TESTS);
        // Fewer than 60 in the rectangle: the search returns exactly the truth.
        let small = rect((29.60, -95.70), (29.65, -95.66));
        let truth = world.truth("dentist", &small, None);
        assert!(!truth.is_empty() && truth.len() < MAX_RESULTS, "{}", truth.len());
        let found = world.search(&TextSearch {
            text_query: "Dentist".into(),
            included_type: Some("dentist".into()),
            location_restriction: Some(small),
            ..TextSearch::default()
        });
        assert_eq!(id_set(&found), id_set(&truth));
        // By text alone too, for a type searched by text.
        let repair_truth = world.truth(
            "computer_phone_repair",
            &world.city("Denver").expect("Denver").viewport,
            None,
        );
        let repair = world.search(&TextSearch::new("Computer/Phone Repair in Denver", None));
        assert_eq!(repair.len(), repair_truth.len().min(MAX_RESULTS));
        assert!(id_set(&repair).is_subset(&id_set(&repair_truth)));
    }

    #[test]
    fn computer_phone_repair_is_found_by_text_and_looks_like_an_electronics_store() {
        let world = World::new(DEFAULT_SEED_FOR_TESTS);
        for query in [
            "Computer/Phone Repair in Austin",
            "computer repair in Austin",
            "phone repair",
            "Cell phone repair in Austin, TX",
        ] {
            let found = world.search(&TextSearch::new(query, None));
            assert!(!found.is_empty(), "{query}");
            assert!(
                found.iter().all(|p| p.city == "Austin"
                    && p.primary_type == "electronics_store"
                    && p.types == ["electronics_store", "store", "point_of_interest", "establishment"]),
                "{query}"
            );
            let kinds = [
                "Computer Repair",
                "Phone Repair",
                "Tech Repair",
                "Device Repair",
                "PC Repair",
            ];
            assert!(
                found
                    .iter()
                    .filter(|p| kinds.iter().any(|k| p.display_name.contains(k)))
                    .count()
                    * 2
                    > found.len(),
                "{query}: names read like repair shops"
            );
        }
        let repair = id_set(&world.places_for("Austin", "computer_phone_repair"));
        // The shops are electronics stores to Google, so `includedType` finds them as such.
        let electronics = world.search(&TextSearch::new("Electronics in Austin", Some("electronics_store")));
        assert!(electronics.iter().any(|p| repair.contains(&p.id)));
        // `Store` by text is still the general stores first.
        let stores = world.search(&TextSearch::new("Store in Austin", None));
        assert_eq!(stores[0].primary_type, "store");
        assert!(stores.iter().all(|p| p.types.contains(&"store")));
    }

    #[test]
    fn a_query_naming_only_a_location_answers_the_area() {
        let world = World::new(DEFAULT_SEED_FOR_TESTS);
        let houston = world.expected_places("Houston, TX", None);
        assert_eq!(houston.len(), 1);
        assert_eq!(houston[0]["types"], json!(["locality", "political"]));
        assert_eq!(
            houston[0]["viewport"],
            json!(world.city("Houston").expect("Houston").viewport)
        );
        let zip = world.expected_places("Austin, TX 78704", None);
        assert_eq!(zip.len(), 1);
        assert_eq!(zip[0]["primaryType"], "postal_code");
        // A business type, an includedType, a rating floor or a restriction elsewhere make
        // it a business search again.
        assert!(world.expected_places("Dentist in Houston, TX", None).len() > 1);
        assert_eq!(world.expected_places("Houston", Some("dentist")).len(), MAX_RESULTS);
        assert!(
            world
                .answer(&TextSearch {
                    min_rating: Some(4.0),
                    ..TextSearch::new("Houston", None)
                })
                .is_empty()
        );
        let austin = world.city("Austin").expect("Austin").viewport;
        let elsewhere = TextSearch {
            location_restriction: Some(austin),
            ..TextSearch::new("Houston", None)
        };
        assert!(world.answer(&elsewhere).is_empty());
        assert!(world.expected_places("Atlantis", None).is_empty());
        // Businesses carry a small viewport around their location.
        let place = &world.places_for("Austin", "dentist")[0];
        assert!(place.viewport.contains(place.location));
        assert!(place.viewport.high.latitude - place.viewport.low.latitude < 0.005);
        assert_eq!(place.to_json()["viewport"], json!(place.viewport));
    }
}
