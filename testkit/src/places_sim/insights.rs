//! Google's Places Aggregate API, `POST /v1:computeInsights`, over the same world as Text
//! Search (Google's discovery document `areainsights` v1):
//!
//! - `insights`: `["INSIGHT_COUNT"]` answers `{"count": "N"}` (an `int64`, so a string;
//!   `{}` for none, as proto3 JSON leaves defaults out); `["INSIGHT_PLACES"]` answers
//!   `{"placeInsights": [{"place": "places/ID"}]}`, only when 100 or fewer match
//!   (otherwise 400 `INVALID_ARGUMENT`).
//! - `filter.locationFilter`: one of `circle` (`latLng` or `place`, and a `radius` in
//!   metres), `region` (`place`: a city, ZIP code, UK postcode district or full UK
//!   postcode of the world, as Text Search answers it when asked for the location alone;
//!   the region is the businesses of that city or code) or `customArea.polygon` (a closed
//!   counterclockwise ring; points strictly inside).
//!   A circle's `place` must be a city or ZIP code too: its centre is the area's.
//! - `filter.typeFilter`: `includedTypes`/`excludedTypes` match a business's `types`,
//!   `includedPrimaryTypes`/`excludedPrimaryTypes` its `primaryType`; one of the two
//!   included lists is required (a business matching either is counted), Table A types
//!   only, and a type both included and excluded is refused.
//! - `filter.operatingStatus`: `OPERATING_STATUS_OPERATIONAL` (the default when absent),
//!   `..._TEMPORARILY_CLOSED`, `..._PERMANENTLY_CLOSED`. The world already holds a few
//!   closed businesses (see `world.rs`), which Text Search lists as Google does.
//! - `filter.ratingFilter` (`minRating`, `maxRating`, 1.0 to 5.0; unrated places never
//!   match); `filter.priceLevels`: the world's businesses have no price level, so a
//!   price filter matches none of them, as Google leaves out places without one.
//!
//! Each 200 is billed under the "Places Aggregate" SKU.

use serde_json::{Map, Value, json};

use super::{
    catalogue::{self, BusinessType},
    cities::{CITIES, City},
    geo::{LatLng, Viewport},
    locate::{AreaPlace, locate},
    place_types::is_table_a,
    world::{Place, World},
};

/// The most places `INSIGHT_PLACES` lists; beyond it Google refuses the request.
pub const MAX_PLACE_INSIGHTS: usize = 100;
/// Google's largest circle, in metres.
const MAX_RADIUS_M: f64 = 50_000.0;

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Insight {
    /// `INSIGHT_COUNT`.
    Count,
    /// `INSIGHT_PLACES`.
    Places,
}

/// Where to count.
#[derive(Debug, Clone)]
pub(crate) enum Location {
    /// Within `radius` metres of `center`.
    Circle { center: LatLng, radius: f64 },
    /// The businesses of a city, of one of its ZIP codes (UK districts), or of one full
    /// UK postcode.
    Region {
        city: &'static City,
        zip: Option<&'static str>,
        postcode: Option<String>,
    },
    /// Inside a closed ring.
    Polygon(Vec<LatLng>),
}

impl Location {
    /// A rectangle holding the location, to find the cities it touches.
    fn bounds(&self) -> Viewport {
        match self {
            Self::Circle { center, radius } => super::geo::Area::Circle(super::geo::Circle {
                center: *center,
                radius: *radius,
            })
            .bounds(),
            Self::Region { city, .. } => city.viewport,
            Self::Polygon(ring) => {
                let lat = |f: fn(f64, f64) -> f64, init| ring.iter().map(|p| p.latitude).fold(init, f);
                let lng = |f: fn(f64, f64) -> f64, init| ring.iter().map(|p| p.longitude).fold(init, f);
                Viewport::new(
                    LatLng::new(lat(f64::min, f64::INFINITY), lng(f64::min, f64::INFINITY)),
                    LatLng::new(lat(f64::max, f64::NEG_INFINITY), lng(f64::max, f64::NEG_INFINITY)),
                )
            }
        }
    }

    fn contains(&self, place: &Place) -> bool {
        match self {
            Self::Circle { center, radius } => center.distance_m(place.location) <= *radius,
            Self::Region { city, zip, postcode } => {
                place.city == city.name
                    && zip.is_none_or(|z| place.zip == z)
                    && postcode.as_ref().is_none_or(|code| place.postal_code == *code)
            }
            Self::Polygon(ring) => inside_ring(ring, place.location),
        }
    }
}

/// A checked `computeInsights` request.
#[derive(Debug, Clone)]
pub(crate) struct InsightsRequest {
    pub insight: Insight,
    pub location: Location,
    included_types: Vec<String>,
    excluded_types: Vec<String>,
    included_primary_types: Vec<String>,
    excluded_primary_types: Vec<String>,
    /// The world's `businessStatus` values asked for.
    statuses: Vec<&'static str>,
    min_rating: Option<f64>,
    max_rating: Option<f64>,
    price_levels: bool,
}

impl InsightsRequest {
    /// Every business of the world the request matches, uncapped, in generation order.
    pub(crate) fn matches(&self, world: &World) -> Vec<Place> {
        let candidates: Vec<&'static BusinessType> = catalogue::TYPES
            .iter()
            .filter(|t| {
                let types = t.place_types();
                self.included_types.iter().any(|i| types.contains(&i.as_str()))
                    || self.included_primary_types.iter().any(|i| i == t.primary)
            })
            .collect();
        if self.price_levels {
            return Vec::new();
        }
        world.select(&self.location.bounds(), &candidates, |p| self.keeps(p))
    }

    fn keeps(&self, p: &Place) -> bool {
        let included = self.included_types.iter().any(|t| p.types.contains(&t.as_str()))
            || self.included_primary_types.iter().any(|t| t == p.primary_type);
        included
            && !self.excluded_types.iter().any(|t| p.types.contains(&t.as_str()))
            && !self.excluded_primary_types.iter().any(|t| t == p.primary_type)
            && self.statuses.contains(&p.business_status)
            && self.min_rating.is_none_or(|min| p.rating.is_some_and(|r| r >= min))
            && self.max_rating.is_none_or(|max| p.rating.is_some_and(|r| r <= max))
            && self.location.contains(p)
    }

    /// Google's answer body for these matches, or its refusal message when
    /// `INSIGHT_PLACES` would list more than [`MAX_PLACE_INSIGHTS`].
    pub(crate) fn answer(&self, matches: &[Place]) -> Result<Value, String> {
        match self.insight {
            Insight::Count if matches.is_empty() => Ok(json!({})),
            Insight::Count => Ok(json!({ "count": matches.len().to_string() })),
            Insight::Places if matches.len() > MAX_PLACE_INSIGHTS => Err(format!(
                "The number of places in the area ({}) exceeds the maximum of {MAX_PLACE_INSIGHTS} for INSIGHT_PLACES. Narrow the filter, or use INSIGHT_COUNT.",
                matches.len()
            )),
            Insight::Places if matches.is_empty() => Ok(json!({})),
            Insight::Places => Ok(json!({
                "placeInsights": matches.iter().map(|p| json!({ "place": format!("places/{}", p.id) })).collect::<Vec<_>>()
            })),
        }
    }
}

/// Why a body was refused: Google's 400 `INVALID_ARGUMENT` message, or an unknown field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// 400 `INVALID_ARGUMENT` with this message.
    Argument(String),
    /// 400 "Invalid JSON payload received. ..." (syntax, or a field of the wrong kind).
    Json(String),
    /// 400 for a field the message does not have (`at`: the enclosing field).
    UnknownField { name: String, at: Option<String> },
}

impl Refusal {
    fn argument(message: impl Into<String>) -> Self {
        Self::Argument(message.into())
    }

    /// Google's answer.
    pub(crate) fn response(&self) -> poem::Response {
        match self {
            Self::Argument(message) => super::errors::invalid_argument(message),
            Self::Json(detail) => super::errors::invalid_json(detail),
            Self::UnknownField { name, at } => super::errors::unknown_body_field(name, at.as_deref()),
        }
    }
}

/// Parses a `computeInsights` body, or says why Google would answer 400.
pub(crate) fn parse(body: &[u8]) -> Result<InsightsRequest, Refusal> {
    let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
        Value::Object(Map::new())
    } else {
        serde_json::from_slice(body).map_err(|e| Refusal::Json(format!("Unexpected token: {e}")))?
    };
    let root = object(&value, None, &["insights", "filter"])?;
    let insight = match root
        .get("insights")
        .map(|v| strings(v, "insights"))
        .transpose()?
        .as_deref()
    {
        None | Some([]) => return Err(Refusal::argument("insights is required.")),
        Some([one]) if one == "INSIGHT_COUNT" => Insight::Count,
        Some([one]) if one == "INSIGHT_PLACES" => Insight::Places,
        Some([one]) => return Err(Refusal::Json(format!("Invalid value at 'insights[0]', \"{one}\""))),
        Some(_) => return Err(Refusal::argument("Exactly one insight must be requested.")),
    };
    let Some(filter) = root.get("filter") else {
        return Err(Refusal::argument("filter is required."));
    };
    let filter = object(
        filter,
        Some("filter"),
        &[
            "locationFilter",
            "typeFilter",
            "operatingStatus",
            "priceLevels",
            "ratingFilter",
        ],
    )?;
    let location = match filter.get("locationFilter") {
        Some(v) => location_filter(v)?,
        None => return Err(Refusal::argument("filter.location_filter is required.")),
    };
    let types = match filter.get("typeFilter") {
        Some(v) => object(
            v,
            Some("filter.type_filter"),
            &[
                "includedTypes",
                "excludedTypes",
                "includedPrimaryTypes",
                "excludedPrimaryTypes",
            ],
        )?,
        None => return Err(Refusal::argument("filter.type_filter is required.")),
    };
    let list = |name: &str| -> Result<Vec<String>, Refusal> {
        let values = types
            .get(name)
            .map(|v| strings(v, name))
            .transpose()?
            .unwrap_or_default();
        match values.iter().find(|t| !is_table_a(t)) {
            Some(bad) => Err(Refusal::argument(format!(
                "Invalid type '{bad}' in type_filter. See the supported types at https://developers.google.com/maps/documentation/places/web-service/place-types#table-a"
            ))),
            None => Ok(values),
        }
    };
    let (included_types, excluded_types) = (list("includedTypes")?, list("excludedTypes")?);
    let (included_primary_types, excluded_primary_types) =
        (list("includedPrimaryTypes")?, list("excludedPrimaryTypes")?);
    if included_types.is_empty() && included_primary_types.is_empty() {
        return Err(Refusal::argument(
            "type_filter must set at least one of included_types and included_primary_types.",
        ));
    }
    let conflict = included_types
        .iter()
        .chain(&included_primary_types)
        .find(|t| excluded_types.contains(t) || excluded_primary_types.contains(t));
    if let Some(t) = conflict {
        return Err(Refusal::argument(format!(
            "Type '{t}' cannot be both included and excluded in type_filter."
        )));
    }
    let statuses = operating_statuses(filter.get("operatingStatus"))?;
    let price_levels = !filter
        .get("priceLevels")
        .map(|v| strings(v, "priceLevels"))
        .transpose()?
        .unwrap_or_default()
        .is_empty();
    let (min_rating, max_rating) = match filter.get("ratingFilter") {
        Some(v) => rating_filter(v)?,
        None => (None, None),
    };
    Ok(InsightsRequest {
        insight,
        location,
        included_types,
        excluded_types,
        included_primary_types,
        excluded_primary_types,
        statuses,
        min_rating,
        max_rating,
        price_levels,
    })
}

fn location_filter(value: &Value) -> Result<Location, Refusal> {
    let map = object(
        value,
        Some("filter.location_filter"),
        &["circle", "region", "customArea"],
    )?;
    if map.len() != 1 {
        return Err(Refusal::argument(
            "location_filter must set exactly one of circle, region and custom_area.",
        ));
    }
    if let Some(circle) = map.get("circle") {
        let circle = object(
            circle,
            Some("filter.location_filter.circle"),
            &["latLng", "place", "radius"],
        )?;
        let center = match (circle.get("latLng"), circle.get("place")) {
            (Some(p), None) => lat_lng(p, "circle.lat_lng")?,
            (None, Some(place)) => area_place(place)?.0.location,
            _ => {
                return Err(Refusal::argument("circle must set exactly one of lat_lng and place."));
            }
        };
        let radius = match circle.get("radius") {
            Some(Value::Number(n)) if n.is_i64() => n.as_f64().unwrap_or(0.0),
            Some(other) => {
                return Err(Refusal::Json(format!(
                    "Invalid value at 'filter.location_filter.circle.radius' (TYPE_INT32), {other}"
                )));
            }
            None => 0.0,
        };
        if !(radius > 0.0 && radius <= MAX_RADIUS_M) {
            return Err(Refusal::argument(format!(
                "circle.radius must be greater than 0 and at most {MAX_RADIUS_M} meters."
            )));
        }
        return Ok(Location::Circle { center, radius });
    }
    if let Some(region) = map.get("region") {
        let region = object(region, Some("filter.location_filter.region"), &["place"])?;
        let Some(place) = region.get("place") else {
            return Err(Refusal::argument("region.place is required."));
        };
        let (_, city, zip, postcode) = area_place(place)?;
        return Ok(Location::Region { city, zip, postcode });
    }
    let custom = object(
        map.get("customArea").unwrap_or(&Value::Null),
        Some("filter.location_filter.custom_area"),
        &["polygon"],
    )?;
    let polygon = object(
        custom.get("polygon").unwrap_or(&Value::Null),
        Some("filter.location_filter.custom_area.polygon"),
        &["coordinates"],
    )?;
    let ring = match polygon.get("coordinates") {
        Some(Value::Array(points)) => points
            .iter()
            .map(|p| lat_lng(p, "polygon.coordinates"))
            .collect::<Result<Vec<_>, _>>()?,
        _ => Vec::new(),
    };
    check_ring(&ring)?;
    Ok(Location::Polygon(ring))
}

/// Google's rules for a custom area: at least a triangle, closed, counterclockwise.
fn check_ring(ring: &[LatLng]) -> Result<(), Refusal> {
    if ring.len() < 4 {
        return Err(Refusal::argument(
            "custom_area.polygon must have at least 4 coordinates (a closed ring of 3 or more points).",
        ));
    }
    if ring.first() != ring.last() {
        return Err(Refusal::argument(
            "custom_area.polygon must be closed: its first and last coordinates must be the same.",
        ));
    }
    if signed_area(ring) <= 0.0 {
        return Err(Refusal::argument(
            "custom_area.polygon must be in counterclockwise order and enclose an area.",
        ));
    }
    Ok(())
}

/// Twice the ring's area in the longitude-latitude plane: positive when counterclockwise.
fn signed_area(ring: &[LatLng]) -> f64 {
    ring.windows(2)
        .map(|w| w[0].longitude * w[1].latitude - w[1].longitude * w[0].latitude)
        .sum()
}

/// Whether `p` is strictly inside the closed `ring` (even-odd rule, longitude as x): a
/// place on an edge or a corner (within about a millimetre) is not in the area.
fn inside_ring(ring: &[LatLng], p: LatLng) -> bool {
    const ON_EDGE: f64 = 1e-8;
    let on_edge = ring.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b.longitude - a.longitude, b.latitude - a.latitude);
        let length = (dx * dx + dy * dy).sqrt();
        let cross = dx * (p.latitude - a.latitude) - dy * (p.longitude - a.longitude);
        let within = |v: f64, lo: f64, hi: f64| v >= lo.min(hi) - ON_EDGE && v <= lo.max(hi) + ON_EDGE;
        length > 0.0
            && (cross / length).abs() <= ON_EDGE
            && within(p.longitude, a.longitude, b.longitude)
            && within(p.latitude, a.latitude, b.latitude)
    });
    if on_edge {
        return false;
    }
    let mut inside = false;
    for w in ring.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.latitude > p.latitude) != (b.latitude > p.latitude) {
            let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude);
            if p.longitude < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// A city, one of its ZIP codes, or one of its full UK postcodes.
type AreaOfPlace = (AreaPlace, &'static City, Option<&'static str>, Option<String>);

/// The city, ZIP code or full UK postcode a `places/ID` names.
fn area_place(value: &Value) -> Result<AreaOfPlace, Refusal> {
    let Some(name) = value.as_str() else {
        return Err(Refusal::Json("Invalid value at 'place' (TYPE_STRING).".to_owned()));
    };
    let Some(id) = name.strip_prefix("places/") else {
        return Err(Refusal::argument(format!(
            "Invalid place '{name}': it must be of the form places/PLACE_ID."
        )));
    };
    for city in CITIES.iter() {
        let named = locate(&format!("{}, {}", city.name, city.region)).filter(|a| a.id == id);
        if let Some(area) = named {
            return Ok((area, city, None, None));
        }
        for zip in city.zip_codes.iter() {
            if let Some(area) = locate(zip).filter(|a| a.id == id) {
                return Ok((area, city, Some(zip), None));
            }
            for code in city.unit_codes(zip) {
                if let Some(area) = locate(&code).filter(|a| a.id == id) {
                    return Ok((area, city, Some(zip), Some(code)));
                }
            }
        }
    }
    Err(Refusal::argument(format!(
        "Place '{name}' was not found, or is not a region the API supports."
    )))
}

fn operating_statuses(value: Option<&Value>) -> Result<Vec<&'static str>, Refusal> {
    let Some(value) = value else {
        return Ok(vec!["OPERATIONAL"]);
    };
    let names = strings(value, "operatingStatus")?;
    if names.is_empty() {
        return Ok(vec!["OPERATIONAL"]);
    }
    names
        .iter()
        .map(|name| match name.as_str() {
            "OPERATING_STATUS_OPERATIONAL" => Ok("OPERATIONAL"),
            "OPERATING_STATUS_TEMPORARILY_CLOSED" => Ok("CLOSED_TEMPORARILY"),
            "OPERATING_STATUS_PERMANENTLY_CLOSED" => Ok("CLOSED_PERMANENTLY"),
            other => Err(Refusal::Json(format!(
                "Invalid value at 'filter.operating_status', \"{other}\""
            ))),
        })
        .collect()
}

fn rating_filter(value: &Value) -> Result<(Option<f64>, Option<f64>), Refusal> {
    let map = object(value, Some("filter.rating_filter"), &["minRating", "maxRating"])?;
    let read = |name: &str| -> Result<Option<f64>, Refusal> {
        match map.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(r) if (1.0..=5.0).contains(&r) => Ok(Some(r)),
                _ => Err(Refusal::argument(format!(
                    "rating_filter.{name} must be between 1.0 and 5.0."
                ))),
            },
            Some(other) => Err(Refusal::Json(format!(
                "Invalid value at 'filter.rating_filter.{name}' (TYPE_FLOAT), {other}"
            ))),
        }
    };
    let (min, max) = (read("minRating")?, read("maxRating")?);
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(Refusal::argument(
            "rating_filter.min_rating must not exceed max_rating.",
        ));
    }
    Ok((min, max))
}

/// A JSON object whose fields (camelCase, or proto snake_case, as Google accepts) are
/// among `known`; keys come back in camelCase.
fn object(value: &Value, at: Option<&str>, known: &[&str]) -> Result<Map<String, Value>, Refusal> {
    let Value::Object(raw) = value else {
        let at = at.unwrap_or("the request");
        return Err(Refusal::Json(format!("Invalid value at '{at}': expected an object.")));
    };
    let mut fields = Map::new();
    for (name, v) in raw {
        let camel = camel_case(name);
        if !known.contains(&camel.as_str()) {
            return Err(Refusal::UnknownField {
                name: name.clone(),
                at: at.map(str::to_owned),
            });
        }
        fields.insert(camel, v.clone());
    }
    Ok(fields)
}

fn strings(value: &Value, name: &str) -> Result<Vec<String>, Refusal> {
    let refuse = || Refusal::Json(format!("Invalid value at '{name}': expected a list of strings."));
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(refuse))
            .collect(),
        _ => Err(refuse()),
    }
}

fn lat_lng(value: &Value, name: &str) -> Result<LatLng, Refusal> {
    let map = object(value, Some(name), &["latitude", "longitude"])?;
    let read = |field: &str| map.get(field).and_then(Value::as_f64).unwrap_or(0.0);
    let (lat, lng) = (read("latitude"), read("longitude"));
    if !((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng)) {
        return Err(Refusal::argument(format!(
            "{name}: latitude must be between -90 and 90 and longitude between -180 and 180."
        )));
    }
    Ok(LatLng::new(lat, lng))
}

fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(filter: Value) -> Vec<u8> {
        json!({ "insights": ["INSIGHT_COUNT"], "filter": filter })
            .to_string()
            .into_bytes()
    }

    fn ring(points: &[(f64, f64)]) -> Value {
        json!({"customArea": {"polygon": {"coordinates": points.iter().map(|(lat, lng)| json!({"latitude": lat, "longitude": lng})).collect::<Vec<_>>()}}})
    }

    fn refusal(filter: Value) -> String {
        match parse(&body(filter)) {
            Err(Refusal::Argument(message)) => message,
            other => panic!("expected INVALID_ARGUMENT, got {other:?}"),
        }
    }

    fn world() -> World {
        World::new(super::super::DEFAULT_SEED)
    }

    const SQUARE: [(f64, f64); 5] = [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)];

    #[test]
    fn a_polygon_holds_what_is_inside_its_ring_and_must_be_closed_and_counterclockwise() {
        let square: Vec<LatLng> = SQUARE.iter().map(|(lat, lng)| LatLng::new(*lat, *lng)).collect();
        assert!(signed_area(&square) > 0.0, "SW, SE, NE, NW is counterclockwise");
        assert!(inside_ring(&square, LatLng::new(0.5, 0.5)));
        assert!(!inside_ring(&square, LatLng::new(1.5, 0.5)));
        // A triangle: the square's south-west half.
        let triangle = [
            LatLng::new(0.0, 0.0),
            LatLng::new(0.0, 1.0),
            LatLng::new(1.0, 0.0),
            LatLng::new(0.0, 0.0),
        ];
        assert!(inside_ring(&triangle, LatLng::new(0.2, 0.2)));
        assert!(!inside_ring(&triangle, LatLng::new(0.8, 0.8)), "beyond the diagonal");
        // Strictly inside: the border is not.
        for border in [(0.5, 0.5), (0.0, 0.5), (0.5, 0.0), (0.0, 0.0), (1.0, 0.0)] {
            assert!(!inside_ring(&triangle, LatLng::new(border.0, border.1)), "{border:?}");
        }
        assert!(!inside_ring(&square, LatLng::new(1.0, 0.5)), "the square's north edge");

        let dentist = json!({"includedTypes": ["dentist"]});
        let clockwise: Vec<(f64, f64)> = SQUARE.iter().rev().copied().collect();
        assert!(
            refusal(json!({"locationFilter": ring(&clockwise), "typeFilter": dentist})).contains("counterclockwise")
        );
        assert!(refusal(json!({"locationFilter": ring(&SQUARE[..4]), "typeFilter": dentist})).contains("closed"));
        assert!(refusal(json!({"locationFilter": ring(&SQUARE[..3]), "typeFilter": dentist})).contains("at least 4"));
        assert!(parse(&body(json!({"locationFilter": ring(&SQUARE), "typeFilter": dentist}))).is_ok());
    }

    #[test]
    fn bad_requests_are_refused_as_google_does() {
        assert!(matches!(
            parse(br#"{"insights": ["INSIGHT_COUNT"]}"#),
            Err(Refusal::Argument(m)) if m.contains("filter is required")
        ));
        assert!(matches!(
            parse(br#"{"insights": ["INSIGHT_SOMETHING"], "filter": {}}"#),
            Err(Refusal::Json(_))
        ));
        assert!(matches!(
            parse(br#"{"insight": []}"#),
            Err(Refusal::UnknownField { .. })
        ));
        let circle = json!({"circle": {"latLng": {"latitude": 29.76, "longitude": -95.37}, "radius": 1000}});
        assert!(refusal(json!({"locationFilter": circle})).contains("type_filter is required"));
        assert!(
            refusal(json!({"locationFilter": circle, "typeFilter": {"excludedTypes": ["cafe"]}}))
                .contains("at least one of included_types")
        );
        assert!(
            refusal(json!({"locationFilter": circle, "typeFilter": {"includedTypes": ["cafe"], "excludedPrimaryTypes": ["cafe"]}}))
                .contains("both included and excluded")
        );
        assert!(
            refusal(json!({"locationFilter": circle, "typeFilter": {"includedTypes": ["spaceport"]}}))
                .contains("spaceport")
        );
        let huge = json!({"circle": {"latLng": {"latitude": 29.76, "longitude": -95.37}, "radius": 60000}});
        assert!(refusal(json!({"locationFilter": huge, "typeFilter": {"includedTypes": ["cafe"]}})).contains("radius"));
        assert!(refusal(json!({"locationFilter": {"region": {"place": "places/nowhere"}}, "typeFilter": {"includedTypes": ["cafe"]}})).contains("not found"));
    }

    #[test]
    fn a_postal_codes_region_is_the_businesses_with_that_code() {
        let world = world();
        let every_status = json!([
            "OPERATING_STATUS_OPERATIONAL",
            "OPERATING_STATUS_TEMPORARILY_CLOSED",
            "OPERATING_STATUS_PERMANENTLY_CLOSED"
        ]);
        let count = |location: &str, city: &str| {
            let place = locate(location).expect("the code locates");
            let filter = json!({
                "locationFilter": {"region": {"place": format!("places/{}", place.id)}},
                "typeFilter": {"includedTypes": ["restaurant"]},
                "operatingStatus": every_status,
            });
            let mut ids: Vec<String> = parse(&body(filter))
                .expect("valid")
                .matches(&world)
                .into_iter()
                .map(|p| p.id)
                .collect();
            ids.sort();
            let mut truth: Vec<String> = world
                .places_for(city, "restaurant")
                .into_iter()
                .filter(|p| p.postal_code == location || p.zip == location)
                .map(|p| p.id)
                .collect();
            truth.sort();
            assert!(!truth.is_empty(), "{location} has restaurants");
            assert_eq!(ids, truth, "{location}");
            ids.len()
        };
        count("78704", "Austin");
        let district = count("SW1A", "London");
        let london = world.places_for("London", "restaurant");
        let unit = london
            .iter()
            .find(|p| p.zip == "SW1A")
            .map(|p| p.postal_code.clone())
            .expect("a restaurant in SW1A");
        assert!(
            count(&unit, "London") < district,
            "a full postcode is one unit of its district"
        );
    }

    #[test]
    fn circle_region_types_and_status_filter_the_world() {
        let world = world();
        let city = &CITIES[0];
        let area = locate(&format!("{}, {}", city.name, city.region)).expect("the city locates");
        let all_in_city = world.places_for(city.name, "dentist");
        assert!(all_in_city.len() > 10);
        let count = |filter: Value| -> Vec<Place> { parse(&body(filter)).expect("valid").matches(&world) };
        let every_status = json!([
            "OPERATING_STATUS_OPERATIONAL",
            "OPERATING_STATUS_TEMPORARILY_CLOSED",
            "OPERATING_STATUS_PERMANENTLY_CLOSED"
        ]);
        let region = json!({"region": {"place": format!("places/{}", area.id)}});
        let everything = count(
            json!({"locationFilter": region, "typeFilter": {"includedTypes": ["dentist"]}, "operatingStatus": every_status}),
        );
        assert_eq!(
            everything.len(),
            all_in_city.len(),
            "the region is the city's businesses"
        );
        let open = count(json!({"locationFilter": region, "typeFilter": {"includedTypes": ["dentist"]}}));
        let operational = all_in_city
            .iter()
            .filter(|p| p.business_status == "OPERATIONAL")
            .count();
        assert_eq!(open.len(), operational, "operational only by default");

        // A circle by place: the city's centre; by latLng: the same centre.
        let by_place = count(
            json!({"locationFilter": {"circle": {"place": format!("places/{}", area.id), "radius": 3000}}, "typeFilter": {"includedTypes": ["dentist"]}, "operatingStatus": every_status}),
        );
        let by_point = count(
            json!({"locationFilter": {"circle": {"latLng": {"latitude": area.location.latitude, "longitude": area.location.longitude}, "radius": 3000}}, "typeFilter": {"includedTypes": ["dentist"]}, "operatingStatus": every_status}),
        );
        assert_eq!(by_place, by_point);
        let near = all_in_city
            .iter()
            .filter(|p| p.location.distance_m(area.location) <= 3000.0)
            .count();
        assert_eq!(by_point.len(), near);
        assert!(near < all_in_city.len(), "the circle is smaller than the city");

        // Types: `store` covers its narrower types by `types`, not by primary type.
        let stores = count(
            json!({"locationFilter": region, "typeFilter": {"includedTypes": ["store"]}, "operatingStatus": every_status}),
        );
        let primary = count(
            json!({"locationFilter": region, "typeFilter": {"includedPrimaryTypes": ["store"]}, "operatingStatus": every_status}),
        );
        assert!(primary.iter().all(|p| p.primary_type == "store"));
        assert!(
            stores.iter().any(|p| p.primary_type == "shoe_store"),
            "narrower types carry `store`"
        );
        assert!(stores.len() > primary.len());
        let no_shoes = count(
            json!({"locationFilter": region, "typeFilter": {"includedTypes": ["store"], "excludedPrimaryTypes": ["shoe_store"]}, "operatingStatus": every_status}),
        );
        assert!(no_shoes.iter().all(|p| p.primary_type != "shoe_store"));
        assert!(no_shoes.len() < stores.len());
        let rated = count(
            json!({"locationFilter": region, "typeFilter": {"includedTypes": ["dentist"]}, "operatingStatus": every_status, "ratingFilter": {"minRating": 4.5}}),
        );
        assert!(rated.len() < everything.len() && rated.iter().all(|p| p.rating.is_some_and(|r| r >= 4.5)));
        let priced = count(
            json!({"locationFilter": region, "typeFilter": {"includedTypes": ["dentist"]}, "priceLevels": ["PRICE_LEVEL_MODERATE"]}),
        );
        assert!(priced.is_empty(), "no business of the world has a price level");
    }

    #[test]
    fn place_ids_only_up_to_a_hundred() {
        let request = |insight: &str| {
            parse(
                json!({"insights": [insight], "filter": {"locationFilter": ring(&SQUARE), "typeFilter": {"includedTypes": ["cafe"]}}})
                    .to_string()
                    .as_bytes(),
            )
            .expect("valid")
        };
        let place = |id: &str| {
            let mut p = world().places_for(CITIES[0].name, "cafe").remove(0);
            p.id = id.to_owned();
            p
        };
        let few: Vec<Place> = (0..3).map(|i| place(&format!("P{i}"))).collect();
        assert_eq!(
            request("INSIGHT_PLACES").answer(&few).expect("few"),
            json!({"placeInsights": [{"place": "places/P0"}, {"place": "places/P1"}, {"place": "places/P2"}]})
        );
        assert_eq!(
            request("INSIGHT_COUNT").answer(&few).expect("count"),
            json!({"count": "3"})
        );
        assert_eq!(request("INSIGHT_COUNT").answer(&[]).expect("none"), json!({}));
        let many: Vec<Place> = (0..101).map(|i| place(&format!("P{i}"))).collect();
        assert!(
            request("INSIGHT_PLACES")
                .answer(&many)
                .expect_err("too many")
                .contains("101")
        );
        assert_eq!(
            request("INSIGHT_COUNT").answer(&many).expect("count"),
            json!({"count": "101"})
        );
    }
}
