//! Locating a place. A Text Search whose query names only a location ("Austin, TX",
//! "78704", "Austin, TX 78704", "London SW1A", "SW1A 1AA") and no kind of business is a
//! geocode: Google answers with the place itself, a city (`locality`), a ZIP code or full
//! UK postcode (`postal_code`) or a UK postcode district (`postal_code_prefix`), with its
//! centre as `location` and its extent as `viewport`. Leadgen sends one to learn the area
//! a user typed before it tiles it.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};

use super::{
    cities::{City, Country},
    geo::{LatLng, Viewport},
    query::{self, Location},
    rng::hash_parts,
};

/// A place that is an area: a city or a ZIP code of the world.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaPlace {
    /// Place id, `ChIJ` and 23 URL-safe base64 characters; the same in every seed's world
    /// (cities do not move).
    pub id: String,
    /// `displayName.text`: the city's name, or the ZIP code.
    pub display_name: String,
    /// `formattedAddress`: "Austin, TX, USA" or "Austin, TX 78704, USA".
    pub formatted_address: String,
    /// `types`: `["locality", "political"]`, `["postal_code"]`, or a UK district's
    /// `["postal_code_prefix", "postal_code"]`.
    pub types: Vec<&'static str>,
    /// `primaryType`: `locality`, `postal_code` or `postal_code_prefix`.
    pub primary_type: &'static str,
    /// `location`: the middle of the viewport.
    pub location: LatLng,
    /// `viewport`: the city's extent, or its ZIP code's cell.
    pub viewport: Viewport,
    /// `googleMapsUri`.
    pub google_maps_uri: String,
}

impl AreaPlace {
    /// The place as Google's `Place` JSON, with every field it has.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "name": format!("places/{}", self.id),
            "displayName": { "text": self.display_name, "languageCode": "en" },
            "formattedAddress": self.formatted_address,
            "location": self.location,
            "viewport": self.viewport,
            "types": self.types,
            "primaryType": self.primary_type,
            "googleMapsUri": self.google_maps_uri,
        })
    }
}

/// The area a text query names when it names only a location; `None` when it names a
/// kind of business too, or a location the world does not have.
pub(crate) fn locate(text_query: &str) -> Option<AreaPlace> {
    let location = query::resolve_location(text_query.trim())?;
    let Location { city, zip, unit } = &location;
    let country = city.country.in_address();
    let code = location.postal_code();
    match (zip, unit, code) {
        (Some(zip), Some(unit), Some(code)) => Some(area(
            city,
            Some(&code),
            code.clone(),
            format!("{} {code}, {country}", city.name),
            &["postal_code"],
            framed(city.unit_viewport(zip, unit)?),
        )),
        (Some(zip), None, _) => {
            let viewport = framed(city.zip_viewport(zip)?);
            let (address, types): (String, &[&'static str]) = match city.country {
                Country::UnitedStates => (
                    format!("{}, {} {zip}, {country}", city.name, city.region),
                    &["postal_code"],
                ),
                Country::UnitedKingdom => (
                    format!("{} {zip}, {country}", city.name),
                    &["postal_code_prefix", "postal_code"],
                ),
            };
            Some(area(city, Some(zip), (*zip).to_owned(), address, types, viewport))
        }
        _ => Some(area(
            city,
            None,
            city.name.to_owned(),
            match city.country {
                Country::UnitedStates => format!("{}, {}, {country}", city.name, city.region),
                Country::UnitedKingdom => format!("{}, {country}", city.name),
            },
            &["locality", "political"],
            city.viewport,
        )),
    }
}

/// A ZIP code's viewport: its cell with a tenth of the cell's size around it. Google's
/// viewport frames a place for display, and a ZIP code's reaches past the code into its
/// neighbours (real codes are not rectangles), so a search of the viewport finds places
/// of other codes too; the cell itself is still what the code's businesses fill.
fn framed(cell: Viewport) -> Viewport {
    let dlat = (cell.high.latitude - cell.low.latitude) / 10.0;
    let dlng = (cell.high.longitude - cell.low.longitude) / 10.0;
    Viewport::new(
        LatLng::new(cell.low.latitude - dlat, cell.low.longitude - dlng),
        LatLng::new(cell.high.latitude + dlat, cell.high.longitude + dlng),
    )
}

fn area(
    city: &City,
    zip: Option<&str>,
    display_name: String,
    formatted_address: String,
    types: &[&'static str],
    viewport: Viewport,
) -> AreaPlace {
    let digest = hash_parts(&[
        b"places-sim/area",
        city.name.as_bytes(),
        zip.unwrap_or_default().as_bytes(),
    ]);
    let id = format!("ChIJ{}", URL_SAFE_NO_PAD.encode(&digest[..17]));
    let mut cid = [0u8; 8];
    cid.copy_from_slice(&digest[17..25]);
    let viewport = Viewport::new(rounded(viewport.low), rounded(viewport.high));
    AreaPlace {
        id,
        display_name,
        formatted_address,
        types: types.to_vec(),
        primary_type: types[0],
        location: rounded(viewport.center()),
        viewport,
        google_maps_uri: format!("https://maps.google.com/?cid={}", u64::from_be_bytes(cid)),
    }
}

/// To 7 decimals (about 1 cm), as Google writes coordinates: a ZIP cell's corners and
/// centres come out of divisions as `30.310000000000002`, which a JSON parser without
/// exact float parsing may read back a bit off.
fn rounded(p: LatLng) -> LatLng {
    let round = |v: f64| (v * 1e7).round() / 1e7;
    LatLng::new(round(p.latitude), round(p.longitude))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_city_is_a_locality_with_its_viewport() {
        let austin = locate("Austin, TX").expect("Austin");
        assert_eq!(austin.display_name, "Austin");
        assert_eq!(austin.formatted_address, "Austin, TX, USA");
        assert_eq!(austin.types, ["locality", "political"]);
        assert_eq!(austin.primary_type, "locality");
        assert_eq!(
            austin.viewport,
            Viewport::new(LatLng::new(30.10, -97.94), LatLng::new(30.52, -97.56))
        );
        assert_eq!(austin.location, LatLng::new(30.31, -97.75));
        assert!(austin.id.starts_with("ChIJ") && austin.id.len() == 27, "{}", austin.id);
        assert_eq!(locate("austin").map(|a| a.id), Some(austin.id.clone()));
        assert_eq!(
            locate("Houston, Texas, USA").map(|a| a.formatted_address),
            Some("Houston, TX, USA".to_owned())
        );
    }

    #[test]
    fn a_zip_code_is_a_postal_code_with_its_cell() {
        for text in ["78704", "Austin, TX 78704"] {
            let zip = locate(text).expect(text);
            assert_eq!(zip.display_name, "78704");
            assert_eq!(zip.formatted_address, "Austin, TX 78704, USA");
            assert_eq!(zip.types, ["postal_code"]);
            assert_eq!(zip.primary_type, "postal_code");
            let austin = locate("Austin").expect("Austin");
            assert!(
                zip.viewport.high.latitude - zip.viewport.low.latitude
                    < austin.viewport.high.latitude - austin.viewport.low.latitude
            );
            // 78704 is the second cell of the south row of Austin's 4 x 2 ZIP grid
            // (30.10..30.31, -97.845..-97.75), framed by a tenth of it each side.
            assert_eq!(
                zip.viewport,
                Viewport::new(LatLng::new(30.079, -97.8545), LatLng::new(30.331, -97.7405))
            );
            assert_eq!(zip.location, LatLng::new(30.205, -97.7975));
            assert_ne!(zip.id, austin.id);
        }
    }

    #[test]
    fn a_uk_postcode_district_and_a_full_postcode_are_located_inside_london() {
        let london = locate("London, UK").expect("London");
        assert_eq!(london.formatted_address, "London, UK");
        let district = locate("London SW1A").expect("SW1A");
        assert_eq!(district.display_name, "SW1A");
        assert_eq!(district.formatted_address, "London SW1A, UK");
        assert_eq!(district.types, ["postal_code_prefix", "postal_code"]);
        // Westminster: the second cell of London's south row (51.48..51.52,
        // -0.16..-0.12), framed by a tenth of it each side.
        assert_eq!(
            district.viewport,
            Viewport::new(LatLng::new(51.476, -0.164), LatLng::new(51.524, -0.116))
        );
        for text in ["SW1A 1AA", "sw1a1aa", "London SW1A 1AA, UK"] {
            let unit = locate(text).expect(text);
            assert_eq!(unit.display_name, "SW1A 1AA");
            assert_eq!(unit.formatted_address, "London SW1A 1AA, UK");
            assert_eq!(unit.types, ["postal_code"]);
            // The district's south-west unit (a quarter of it each way), framed.
            assert_eq!(
                unit.viewport,
                Viewport::new(LatLng::new(51.479, -0.161), LatLng::new(51.491, -0.149))
            );
            assert!(district.viewport.contains(unit.location));
            assert_ne!(unit.id, district.id);
        }
        assert_ne!(locate("SW1A 2AA").map(|a| a.id), locate("SW1A 1AA").map(|a| a.id));
        assert_eq!(locate("SW1A 9ZZ"), None);
    }

    #[test]
    fn a_business_or_an_unknown_place_is_not_located() {
        for text in [
            "Dentist in Austin",
            "Austin restaurants",
            "dentist",
            "Atlantis",
            "Portland, ME",
            "99999",
            "Denver 78704",
        ] {
            assert_eq!(locate(text), None, "{text}");
        }
    }
}
