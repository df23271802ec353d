//! The deterministic synthetic world: for a seed, every (city, business type) holds the
//! same businesses on every run. Businesses are generated lazily, per (city, type), the
//! first time a search needs them, so start-up is instant and memory follows use.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};

use super::{
    catalogue::{self, BusinessType},
    cities::{CITIES, City},
    geo::{Area, LatLng, Viewport},
    names,
    query::{self, Location},
    rng::{Rng, hash_parts},
};

/// Google returns at most this many places for one query, over all pages.
pub const MAX_RESULTS: usize = 60;

/// Share of businesses without a phone number, website, or rating.
const NO_PHONE: f64 = 0.15;
const NO_WEBSITE: f64 = 0.25;
const NO_RATING: f64 = 0.10;

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
    /// Its ZIP code (also in the address).
    pub zip: &'static str,
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
            "types": self.types,
            "primaryType": self.primary_type,
            "businessStatus": self.business_status,
            "googleMapsUri": self.google_maps_uri,
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
    generated: Mutex<Generated>,
}

impl World {
    /// The world of `seed`; nothing is generated until asked for.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            generated: Mutex::new(HashMap::new()),
        }
    }

    /// The seed it was made from.
    pub fn seed(&self) -> u64 {
        self.seed
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
        self.search(&TextSearch::new(text_query, included_type))
            .iter()
            .map(Place::to_json)
            .collect()
    }

    /// Runs a search: every page's places, best first, at most [`MAX_RESULTS`].
    pub fn search(&self, search: &TextSearch) -> Vec<Place> {
        let parsed = query::parse(&search.text_query);
        // An explicit location Google cannot place finds nothing; no location at all
        // falls back to where the caller is (IP bias), which here is the first city.
        let (named_city, zip) = match &parsed.location {
            Some(text) => match query::resolve_location(text) {
                Some(Location { city, zip }) => (Some(city), zip),
                None => return Vec::new(),
            },
            None => (None, None),
        };
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
        let min_rating = search.min_rating.filter(|r| *r > 0.0).map(|r| (r * 2.0).ceil() / 2.0);

        let mut hits: Vec<Place> = Vec::new();
        for city_index in scope {
            for ty in catalogue::types_carrying(wanted) {
                let Some(type_index) = catalogue::TYPES.iter().position(|t| t.value == ty.value) else {
                    continue;
                };
                hits.extend(
                    self.generated(city_index, type_index)
                        .iter()
                        .filter(|p| zip.is_none_or(|z| p.zip == z))
                        .filter(|p| search.location_restriction.is_none_or(|r| r.contains(p.location)))
                        .filter(|p| min_rating.is_none_or(|min| p.rating.is_some_and(|r| r >= min)))
                        .cloned(),
                );
            }
        }
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
            .or_insert_with(|| Arc::new(generate(self.seed, &CITIES[city], &catalogue::TYPES[ty])))
            .clone()
    }
}

/// All businesses of one type in one city.
fn generate(seed: u64, city: &City, ty: &BusinessType) -> Vec<Place> {
    let seed_bytes = seed.to_be_bytes();
    let mut rng = Rng::from_parts(&[
        b"places-sim/world",
        &seed_bytes,
        city.name.as_bytes(),
        ty.value.as_bytes(),
    ]);
    let (lo, hi) = ty.density.range();
    let count = rng.between(lo, hi);
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

            // Businesses cluster toward the centre: the mean of two uniform draws.
            let v = &city.viewport;
            let lat = v.low.latitude + (v.high.latitude - v.low.latitude) * (rng.unit() + rng.unit()) / 2.0;
            let lng = v.low.longitude + (v.high.longitude - v.low.longitude) * (rng.unit() + rng.unit()) / 2.0;
            let location = LatLng::new(round_to(lat, 7), round_to(lng, 7));
            let zip = city.zip_at(location);
            let street_number = rng.between(100, 9899);
            let street = rng.pick(STREETS);
            let formatted_address = format!("{street_number} {street}, {}, {} {zip}, USA", city.name, city.region);

            let line = rng.between(0, 9999);
            let (national, international) = if rng.chance(NO_PHONE) {
                (None, None)
            } else {
                (
                    Some(format!("({}) 555-{line:04}", city.area_code)),
                    Some(format!("+1 {}-555-{line:04}", city.area_code)),
                )
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
                national_phone_number: national,
                international_phone_number: international,
                website_uri,
                rating,
                user_rating_count,
                location,
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
    use super::*;
    use crate::places_sim::geo::Circle;

    #[test]
    fn every_city_holds_25_to_120_businesses_of_every_type_with_unique_names() {
        let world = World::new(42);
        let mut total = 0;
        for city in world.cities() {
            for ty in catalogue::TYPES {
                let places = world.places_for(city.name, ty.value);
                assert!(
                    (25..=120).contains(&places.len()),
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
}
