//! What a search may ask for beyond a business type and a location: how much of the area
//! to cover, an explicit area, a budget on the user's key, and filters on the leads.
//!
//! Each is parsed once, where the request enters, into a type that cannot be invalid;
//! `Display` of [`InvalidOption`] is the message the user reads.

use serde::{Deserialize, Serialize};

use super::{
    polygon::{InvalidRing, Ring},
    tiling::{LatLng, Rect},
};
use crate::lead::Lead;

/// Widest side of an explicit area, in degrees (about 550 km): beyond that a search is a
/// country, not an area, and its cost would surprise.
pub const MAX_AREA_DEGREES: f64 = 5.0;
/// Google's largest circle (`locationBias.circle.radius`), in metres.
pub const MAX_RADIUS_METERS: f64 = 50_000.0;
/// Highest budget a search may set, in US dollars.
pub const MAX_COST_USD: f64 = 10_000.0;
/// Highest `minReviews` accepted.
pub const MAX_MIN_REVIEWS: u32 = 1_000_000;

/// How much of the area a search covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "Coverage", rename_all = "snake_case")
)]
pub enum Coverage {
    /// One query, at most 3 pages of 20 places (the default).
    #[default]
    Quick,
    /// Every match in the area, past Google's 60-result cap (`search::full`).
    Full,
}

impl Coverage {
    /// Parses the request's value; absent means quick.
    pub fn parse(value: Option<&str>) -> Result<Self, InvalidOption> {
        match value.map(str::trim) {
            None | Some("") | Some("quick") => Ok(Self::Quick),
            Some("full") => Ok(Self::Full),
            Some(_) => Err(InvalidOption::Coverage),
        }
    }

    /// The request's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Full => "full",
        }
    }

    fn is_quick(&self) -> bool {
        *self == Self::Quick
    }
}

/// Which places a search leaves out, from its workspace's place memory (issue #29).
/// Left-out places are not sent and do not count toward the lead budget or allowance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "Exclude", rename_all = "snake_case")
)]
pub enum Exclude {
    /// Send every match (the default).
    #[default]
    None,
    /// Leave out every place the workspace's searches sent before.
    Seen,
    /// Leave out the places the workspace exported before.
    Exported,
}

impl Exclude {
    /// Parses the request's value; absent means none.
    pub fn parse(value: Option<&str>) -> Result<Self, InvalidOption> {
        match value.map(str::trim) {
            None | Some("") | Some("none") => Ok(Self::None),
            Some("seen") => Ok(Self::Seen),
            Some("exported") => Ok(Self::Exported),
            Some(_) => Err(InvalidOption::Exclude),
        }
    }

    /// The request's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Seen => "seen",
            Self::Exported => "exported",
        }
    }

    /// For serde: `none` is left out of the queue's JSON, which so stays as it was.
    pub(crate) fn skip(value: &Self) -> bool {
        *value == Self::None
    }
}

/// Whether leads must have a website.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WebsiteFilter {
    /// No condition.
    #[default]
    Any,
    /// Only businesses with a website.
    With,
    /// Only businesses without one (agencies selling websites want these).
    Without,
}

/// Whether leads must have a phone number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhoneFilter {
    /// No condition.
    #[default]
    Any,
    /// Only businesses with a phone number.
    With,
}

/// Conditions a lead must meet to be sent (and counted toward usage).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LeadFilters {
    /// Lowest average rating (sent to Google as `minRating`, and checked exactly here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<f64>,
    /// Fewest ratings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_reviews: Option<u32>,
    /// Website condition.
    pub website: WebsiteFilter,
    /// Phone condition.
    pub phone: PhoneFilter,
}

impl LeadFilters {
    /// Whether no condition is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Whether `lead` meets every condition.
    pub fn accepts(&self, lead: &Lead) -> bool {
        let rating_ok = self
            .min_rating
            .is_none_or(|min| lead.rating.is_some_and(|r| r + 1e-9 >= min));
        let reviews_ok = self
            .min_reviews
            .is_none_or(|min| min == 0 || lead.review_count.is_some_and(|n| n >= min));
        let website_ok = match self.website {
            WebsiteFilter::Any => true,
            WebsiteFilter::With => !lead.website.trim().is_empty(),
            WebsiteFilter::Without => lead.website.trim().is_empty(),
        };
        let phone_ok = match self.phone {
            PhoneFilter::Any => true,
            PhoneFilter::With => !lead.phone.trim().is_empty(),
        };
        rating_ok && reviews_ok && website_ok && phone_ok
    }

    /// The `minRating` to send Google. Google rounds a value up to the next half star
    /// (4.2 becomes 4.5, dropping a 4.3), so we send it rounded *down* to a half star and
    /// check the exact value ourselves: Google narrows the results, never too far.
    pub fn google_min_rating(&self) -> Option<f64> {
        self.min_rating.map(|r| (r * 2.0).floor() / 2.0).filter(|r| *r > 0.0)
    }

    /// Parses the request's values.
    pub fn parse(
        min_rating: Option<f64>,
        min_reviews: Option<i64>,
        website: Option<&str>,
        phone: Option<&str>,
    ) -> Result<Self, InvalidOption> {
        let min_rating = match min_rating {
            None => None,
            Some(r) if r.is_finite() && (0.0..=5.0).contains(&r) => Some(r).filter(|r| *r > 0.0),
            Some(_) => return Err(InvalidOption::MinRating),
        };
        let min_reviews = match min_reviews {
            None => None,
            Some(n) if (0..=i64::from(MAX_MIN_REVIEWS)).contains(&n) => Some(n as u32).filter(|n| *n > 0),
            Some(_) => return Err(InvalidOption::MinReviews),
        };
        let website = match website.map(str::trim) {
            None | Some("") | Some("any") => WebsiteFilter::Any,
            Some("with") => WebsiteFilter::With,
            Some("without") => WebsiteFilter::Without,
            Some(_) => return Err(InvalidOption::Website),
        };
        let phone = match phone.map(str::trim) {
            None | Some("") | Some("any") => PhoneFilter::Any,
            Some("with") => PhoneFilter::With,
            Some(_) => return Err(InvalidOption::Phone),
        };
        Ok(Self {
            min_rating,
            min_reviews,
            website,
            phone,
        })
    }
}

/// An explicit area, as integrators give it instead of a location name.
///
/// A shape this release does not know (a polygon, to a worker of the release before) is
/// an unknown `shape` variant: such a queued job fails to read, loudly, rather than run
/// as some other area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "shape")]
pub enum Area {
    /// A rectangle: south-west `low`, north-east `high` (Google's `Viewport`).
    Rectangle {
        /// South-west corner.
        low: LatLng,
        /// North-east corner.
        high: LatLng,
    },
    /// A circle.
    #[serde(rename_all = "camelCase")]
    Circle {
        /// Centre.
        center: LatLng,
        /// Radius in metres.
        radius_meters: f64,
    },
    /// A polygon: one ring, checked again when read; places strictly inside.
    Polygon {
        /// The ring's points, open, in the order given.
        ring: Ring,
    },
}

/// Metres in a degree of latitude (mean).
const METERS_PER_DEGREE: f64 = 111_320.0;

impl Area {
    /// A checked rectangle.
    pub fn rectangle(low: LatLng, high: LatLng) -> Result<Self, InvalidOption> {
        for p in [low, high] {
            check_point(p)?;
        }
        if low.lat >= high.lat || low.lng >= high.lng {
            return Err(InvalidOption::AreaCorners);
        }
        if high.lat - low.lat > MAX_AREA_DEGREES || high.lng - low.lng > MAX_AREA_DEGREES {
            return Err(InvalidOption::AreaTooLarge);
        }
        Ok(Self::Rectangle { low, high })
    }

    /// A checked circle.
    pub fn circle(center: LatLng, radius_meters: f64) -> Result<Self, InvalidOption> {
        check_point(center)?;
        if !(radius_meters.is_finite() && radius_meters > 0.0 && radius_meters <= MAX_RADIUS_METERS) {
            return Err(InvalidOption::Radius);
        }
        if center.lat.abs() + radius_meters / METERS_PER_DEGREE >= 89.0 {
            return Err(InvalidOption::AreaTooLarge);
        }
        Ok(Self::Circle { center, radius_meters })
    }

    /// A checked polygon: a valid ring no wider than a rectangle may be.
    pub fn polygon(points: &[LatLng]) -> Result<Self, InvalidOption> {
        let ring = Ring::new(points)?;
        let b = ring.bounds();
        if b.high.lat - b.low.lat > MAX_AREA_DEGREES || b.high.lng - b.low.lng > MAX_AREA_DEGREES {
            return Err(InvalidOption::PolygonTooLarge);
        }
        Ok(Self::Polygon { ring })
    }

    /// The same area checked again (what the queue carries is only trusted once checked).
    pub fn checked(self) -> Result<Self, InvalidOption> {
        match self {
            Self::Rectangle { low, high } => Self::rectangle(low, high),
            Self::Circle { center, radius_meters } => Self::circle(center, radius_meters),
            Self::Polygon { ring } => Self::polygon(ring.points()),
        }
    }

    /// The smallest rectangle holding the area (what tiles and `locationRestriction` use).
    pub fn bounds(&self) -> Rect {
        match *self {
            Self::Polygon { ref ring } => ring.bounds(),
            Self::Rectangle { low, high } => Rect { low, high },
            Self::Circle { center, radius_meters } => {
                let dlat = radius_meters / METERS_PER_DEGREE;
                let dlng = radius_meters / (METERS_PER_DEGREE * center.lat.to_radians().cos());
                Rect {
                    low: LatLng {
                        lat: center.lat - dlat,
                        lng: center.lng - dlng,
                    },
                    high: LatLng {
                        lat: center.lat + dlat,
                        lng: center.lng + dlng,
                    },
                }
            }
        }
    }

    /// Whether a place at `p` is in the area (a rectangle's edges included; a polygon's
    /// excluded: strictly inside).
    pub fn contains(&self, p: LatLng) -> bool {
        match *self {
            Self::Rectangle { low, high } => Rect { low, high }.contains(p),
            Self::Circle { center, radius_meters } => distance_m(center, p) <= radius_meters,
            Self::Polygon { ref ring } => ring.contains(p),
        }
    }

    /// Whether `rect` may hold places of the area: false only for a tile of a polygon's
    /// bounding box that lies wholly outside the ring (it need not be probed or fetched).
    pub fn may_hold(&self, rect: Rect) -> bool {
        match self {
            Self::Polygon { ring } => ring.overlaps(rect),
            Self::Rectangle { .. } | Self::Circle { .. } => true,
        }
    }

    /// The share of `rect` inside the area, for estimates: a polygon's clipped share; 1
    /// for the other shapes (as estimates have always counted them).
    pub fn share_of(&self, rect: Rect) -> f64 {
        match self {
            Self::Polygon { ring } => ring.share_of(rect),
            Self::Rectangle { .. } | Self::Circle { .. } => 1.0,
        }
    }

    /// Whether leads need their location checked after fetching (a circle or a polygon:
    /// the bounding rectangle Google is asked about holds places outside them).
    pub fn needs_location(&self) -> bool {
        matches!(self, Self::Circle { .. } | Self::Polygon { .. })
    }

    /// A short label for a search given by area (what `start` echoes as its location).
    pub fn label(&self) -> String {
        match *self {
            Self::Rectangle { low, high } => {
                format!("area {:.4},{:.4} to {:.4},{:.4}", low.lat, low.lng, high.lat, high.lng)
            }
            Self::Circle { center, radius_meters } => {
                format!("within {:.0} m of {:.4},{:.4}", radius_meters, center.lat, center.lng)
            }
            Self::Polygon { ref ring } => {
                let b = ring.bounds();
                format!(
                    "polygon of {} points within {:.4},{:.4} to {:.4},{:.4}",
                    ring.points().len(),
                    b.low.lat,
                    b.low.lng,
                    b.high.lat,
                    b.high.lng
                )
            }
        }
    }
}

fn check_point(p: LatLng) -> Result<(), InvalidOption> {
    if p.is_on_earth() {
        Ok(())
    } else {
        Err(InvalidOption::Coordinates)
    }
}

/// Great-circle distance in metres.
pub fn distance_m(a: LatLng, b: LatLng) -> f64 {
    const EARTH_RADIUS_M: f64 = 6_371_008.8;
    let (lat1, lat2) = (a.lat.to_radians(), b.lat.to_radians());
    let dlat = lat2 - lat1;
    let dlng = (b.lng - a.lng).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().asin()
}

/// A budget on the user's Google key, in US dollars.
pub fn parse_max_cost(value: Option<f64>) -> Result<Option<f64>, InvalidOption> {
    match value {
        None => Ok(None),
        Some(v) if v.is_finite() && v > 0.0 && v <= MAX_COST_USD => Ok(Some(v)),
        Some(_) => Err(InvalidOption::MaxCost),
    }
}

/// Why an option was refused; `Display` is the message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidOption {
    /// Not `quick` or `full`.
    #[error("coverage must be \"quick\" or \"full\".")]
    Coverage,
    /// Not `none`, `seen` or `exported`.
    #[error("exclude must be \"none\", \"seen\" or \"exported\".")]
    Exclude,
    /// Out of range or not a number.
    #[error("maxCostUsd must be an amount in US dollars above 0 and at most {MAX_COST_USD}.")]
    MaxCost,
    /// Out of 0..=5.
    #[error("minRating must be between 0 and 5.")]
    MinRating,
    /// Negative or absurd.
    #[error("minReviews must be a whole number from 0 to {MAX_MIN_REVIEWS}.")]
    MinReviews,
    /// Not `any`, `with` or `without`.
    #[error("website must be \"any\", \"with\" or \"without\".")]
    Website,
    /// Not `any` or `with`.
    #[error("phone must be \"any\" or \"with\".")]
    Phone,
    /// Latitude or longitude out of range.
    #[error("Area coordinates must have a latitude from -90 to 90 and a longitude from -180 to 180.")]
    Coordinates,
    /// `low` is not south-west of `high`.
    #[error(
        "The area's low corner must be south-west of its high corner (areas across the 180th meridian are not supported)."
    )]
    AreaCorners,
    /// Wider than [`MAX_AREA_DEGREES`].
    #[error("The area is too large: use at most {MAX_AREA_DEGREES} degrees of latitude and of longitude.")]
    AreaTooLarge,
    /// Radius out of range.
    #[error("radiusMeters must be above 0 and at most {MAX_RADIUS_METERS}.")]
    Radius,
    /// Several shapes, or none, or half of one.
    #[error(
        "area must be a rectangle {{low, high}}, a circle {{center, radiusMeters}} or a polygon {{polygon: [{{latitude, longitude}}, ...]}}."
    )]
    AreaShape,
    /// A polygon's ring is not valid.
    #[error(transparent)]
    Polygon(#[from] InvalidRing),
    /// A polygon wider than [`MAX_AREA_DEGREES`].
    #[error(
        "area.polygon is too large: its points must lie within {MAX_AREA_DEGREES} degrees of latitude and of longitude."
    )]
    PolygonTooLarge,
}

impl Coverage {
    /// For serde: quick is left out of the queue's JSON, which so stays as it was.
    pub(crate) fn skip(value: &Self) -> bool {
        value.is_quick()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead(website: &str, phone: &str, rating: Option<f64>, reviews: Option<u32>) -> Lead {
        Lead {
            name: "n".into(),
            address: String::new(),
            phone: phone.into(),
            website: website.into(),
            place_id: "p".into(),
            rating,
            review_count: reviews,
            contacts: None,
            ..Default::default()
        }
    }

    #[test]
    fn coverage_and_filters_parse_with_specific_errors() {
        assert_eq!(Coverage::parse(None), Ok(Coverage::Quick));
        assert_eq!(Coverage::parse(Some("full")), Ok(Coverage::Full));
        assert_eq!(Coverage::parse(Some("everything")), Err(InvalidOption::Coverage));
        assert_eq!(
            LeadFilters::parse(Some(5.5), None, None, None),
            Err(InvalidOption::MinRating)
        );
        assert_eq!(
            LeadFilters::parse(Some(f64::NAN), None, None, None),
            Err(InvalidOption::MinRating)
        );
        assert_eq!(
            LeadFilters::parse(None, Some(-1), None, None),
            Err(InvalidOption::MinReviews)
        );
        assert_eq!(
            LeadFilters::parse(None, None, Some("maybe"), None),
            Err(InvalidOption::Website)
        );
        assert_eq!(
            LeadFilters::parse(None, None, None, Some("without")),
            Err(InvalidOption::Phone)
        );
        assert!(
            LeadFilters::parse(Some(0.0), Some(0), Some("any"), Some("any"))
                .expect("neutral values")
                .is_empty()
        );
        assert_eq!(parse_max_cost(Some(0.0)), Err(InvalidOption::MaxCost));
        assert_eq!(parse_max_cost(Some(2.5)), Ok(Some(2.5)));
    }

    #[test]
    fn filters_check_each_condition_exactly() {
        let f = LeadFilters::parse(Some(4.2), Some(10), Some("without"), Some("with")).expect("valid");
        assert!(f.accepts(&lead("", "(512) 555-0100", Some(4.3), Some(10))));
        assert!(!f.accepts(&lead("https://x.example", "(512) 555-0100", Some(4.3), Some(10))));
        assert!(!f.accepts(&lead("", "", Some(4.3), Some(10))), "no phone");
        assert!(!f.accepts(&lead("", "1", Some(4.1), Some(10))), "rated lower");
        assert!(!f.accepts(&lead("", "1", None, None)), "unrated");
        assert!(!f.accepts(&lead("", "1", Some(4.5), Some(9))), "too few reviews");
        // Google rounds minRating up to a half star; we send it rounded down.
        assert_eq!(f.google_min_rating(), Some(4.0));
        let with_site = LeadFilters::parse(None, None, Some("with"), None).expect("valid");
        assert!(with_site.accepts(&lead("https://x.example", "", None, None)));
        assert!(!with_site.accepts(&lead(" ", "", None, None)));
    }

    #[test]
    fn exclude_is_parsed_once_and_none_stays_out_of_the_queue_json() {
        assert_eq!(Exclude::parse(None), Ok(Exclude::None));
        assert_eq!(Exclude::parse(Some(" seen ")), Ok(Exclude::Seen));
        assert_eq!(Exclude::parse(Some("exported")), Ok(Exclude::Exported));
        assert_eq!(Exclude::parse(Some("new")), Err(InvalidOption::Exclude));
        for e in [Exclude::None, Exclude::Seen, Exclude::Exported] {
            assert_eq!(Exclude::parse(Some(e.as_str())), Ok(e));
        }
        let raw = |exclude| crate::search::RawSearch {
            business_type: "cafe".into(),
            location: "Austin, TX".into(),
            exclude,
            ..crate::search::RawSearch::default()
        };
        let plain = serde_json::to_value(raw(Exclude::None)).expect("json");
        assert!(
            plain.get("exclude").is_none(),
            "a queued job without exclude reads as before"
        );
        let seen = serde_json::to_value(raw(Exclude::Seen)).expect("json");
        assert_eq!(seen["exclude"], "seen");
        let back: crate::search::ValidSearch = serde_json::from_value(seen).expect("valid");
        assert_eq!(back.exclude(), Exclude::Seen);
        assert!(
            back.options_json().contains(r#""exclude":"seen""#),
            "the history records it"
        );
    }

    #[test]
    fn areas_are_checked_and_a_circle_is_bounded() {
        let p = |lat, lng| LatLng { lat, lng };
        assert_eq!(
            Area::rectangle(p(30.0, -97.0), p(29.0, -96.0)),
            Err(InvalidOption::AreaCorners)
        );
        assert_eq!(
            Area::rectangle(p(30.0, -97.0), p(36.0, -96.0)),
            Err(InvalidOption::AreaTooLarge)
        );
        assert_eq!(
            Area::rectangle(p(95.0, -97.0), p(96.0, -96.0)),
            Err(InvalidOption::Coordinates)
        );
        assert_eq!(Area::circle(p(30.0, -97.0), 0.0), Err(InvalidOption::Radius));
        assert_eq!(Area::circle(p(30.0, -97.0), 60_000.0), Err(InvalidOption::Radius));
        let circle = Area::circle(p(30.0, -97.0), 1_000.0).expect("valid");
        let b = circle.bounds();
        assert!((b.high.lat - b.low.lat - 2.0 * 1_000.0 / METERS_PER_DEGREE).abs() < 1e-9);
        assert!(
            b.high.lng - b.low.lng > b.high.lat - b.low.lat,
            "longitude degrees are shorter"
        );
        assert!(circle.contains(p(30.005, -97.0)), "about 556 m north");
        assert!(
            !circle.contains(b.high),
            "a corner of the bounds lies outside the circle"
        );
        assert!(circle.needs_location());
    }

    #[test]
    fn a_polygon_is_checked_bounded_and_kept_through_the_queue() {
        let p = |lat, lng| LatLng { lat, lng };
        let triangle = [p(30.0, -97.0), p(30.0, -96.0), p(31.0, -96.5)];
        let area = Area::polygon(&triangle).expect("valid");
        assert_eq!(
            area.bounds(),
            Rect {
                low: p(30.0, -97.0),
                high: p(31.0, -96.0)
            }
        );
        assert!(area.needs_location());
        assert!(area.contains(p(30.2, -96.5)));
        assert!(!area.contains(p(30.9, -96.9)), "in the bounding box, outside the ring");
        assert!(!area.may_hold(Rect {
            low: p(30.8, -97.0),
            high: p(31.0, -96.9)
        }));
        assert!(area.label().starts_with("polygon of 3 points"), "{}", area.label());
        assert_eq!(
            Area::polygon(&[p(30.0, -97.0), p(30.0, -91.0), p(31.0, -94.0)]),
            Err(InvalidOption::PolygonTooLarge)
        );
        assert_eq!(
            Area::polygon(&[p(30.0, -97.0), p(30.0, -96.0)]),
            Err(InvalidOption::Polygon(InvalidRing::TooFewPoints))
        );
        assert!(
            InvalidOption::PolygonTooLarge
                .to_string()
                .starts_with("area.polygon is too large"),
            "the message names the field"
        );
        // The queue's JSON: the shape and the ring as given, read back the same.
        let search = crate::search::ValidSearch::try_from(crate::search::RawSearch {
            business_type: "dentist".into(),
            area: Some(area.clone()),
            ..crate::search::RawSearch::default()
        })
        .expect("valid");
        let json = serde_json::to_value(&search).expect("json");
        assert_eq!(json["area"]["shape"], "polygon");
        assert_eq!(json["area"]["ring"].as_array().map(Vec::len), Some(3));
        let back: crate::search::ValidSearch = serde_json::from_value(json.clone()).expect("read back");
        assert_eq!(back.area(), Some(&area));
        assert!(
            search.options_json().contains(r#""shape":"polygon""#),
            "the history keeps it"
        );
        // What the queue carries is checked again: a forged ring does not read.
        let mut forged = json.clone();
        forged["area"]["ring"] = serde_json::json!([{"lat": 0.0, "lng": 0.0}, {"lat": 1.0, "lng": 1.0}]);
        assert!(serde_json::from_value::<crate::search::ValidSearch>(forged).is_err());
    }

    /// A worker of the release before polygons reads `area` as this; a polygon must make
    /// its job unreadable (dropped with an error), never a search of something else.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase", tag = "shape")]
    #[allow(dead_code)]
    enum AreaBeforePolygons {
        Rectangle {
            low: LatLng,
            high: LatLng,
        },
        #[serde(rename_all = "camelCase")]
        Circle {
            center: LatLng,
            radius_meters: f64,
        },
    }

    #[test]
    fn a_worker_of_the_release_before_refuses_a_polygon_rather_than_guess() {
        let p = |lat, lng| LatLng { lat, lng };
        let polygon = Area::polygon(&[p(30.0, -97.0), p(30.0, -96.0), p(31.0, -96.5)]).expect("valid");
        let error = serde_json::from_value::<AreaBeforePolygons>(serde_json::to_value(&polygon).expect("json"))
            .expect_err("unknown shape");
        assert!(error.to_string().contains("unknown variant `polygon`"), "{error}");
        // Shapes it knows still read as they did.
        let circle = Area::circle(p(30.0, -97.0), 500.0).expect("valid");
        serde_json::from_value::<AreaBeforePolygons>(serde_json::to_value(&circle).expect("json")).expect("read");
    }
}
