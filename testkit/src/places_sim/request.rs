//! Reading and checking a `SearchTextRequest` body the way Google's proto3 JSON front end
//! does: camelCase or proto (snake_case) names, unknown fields refused, each field of its
//! proto type, and Text Search's documented limits (page size, regions, rating).

use poem::Response;
use serde_json::{Map, Value};

use super::{
    errors,
    geo::{Area, Circle, LatLng, Viewport},
    pagination::{Fingerprint, fingerprint},
    place_types::is_table_a,
    world::TextSearch,
};

/// Results per page when `pageSize` is 0 or absent, and the most Google returns.
pub const MAX_PAGE_SIZE: usize = 20;

/// Fields of `SearchTextRequest` (lowerCamelCase) and their proto3 JSON kinds.
const FIELDS: &[(&str, Kind)] = &[
    ("textQuery", Kind::String),
    ("languageCode", Kind::String),
    ("regionCode", Kind::String),
    (
        "rankPreference",
        Kind::Enum(&["RANK_PREFERENCE_UNSPECIFIED", "DISTANCE", "RELEVANCE"]),
    ),
    ("includedType", Kind::String),
    ("openNow", Kind::Bool),
    ("minRating", Kind::Double),
    ("maxResultCount", Kind::Int32),
    ("pageSize", Kind::Int32),
    ("pageToken", Kind::String),
    ("priceLevels", Kind::EnumList(PRICE_LEVELS)),
    ("strictTypeFiltering", Kind::Bool),
    ("locationBias", Kind::Message),
    ("locationRestriction", Kind::Message),
    ("evOptions", Kind::Message),
    ("routingParameters", Kind::Message),
    ("searchAlongRouteParameters", Kind::Message),
    ("includePureServiceAreaBusinesses", Kind::Bool),
];

const PRICE_LEVELS: &[&str] = &[
    "PRICE_LEVEL_UNSPECIFIED",
    "PRICE_LEVEL_FREE",
    "PRICE_LEVEL_INEXPENSIVE",
    "PRICE_LEVEL_MODERATE",
    "PRICE_LEVEL_EXPENSIVE",
    "PRICE_LEVEL_VERY_EXPENSIVE",
];

#[derive(Debug, Clone, Copy)]
enum Kind {
    String,
    Bool,
    Int32,
    Double,
    Enum(&'static [&'static str]),
    EnumList(&'static [&'static str]),
    Message,
}

/// Why a request body was refused; [`Rejection::response`] is Google's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// 400 `INVALID_ARGUMENT` with this message.
    InvalidArgument(String),
    /// 400 "Invalid JSON payload received. ..." (bad syntax or a field of the wrong type).
    InvalidJson(String),
    /// 400 for a field the message does not have (`at`: the enclosing field).
    UnknownField { name: String, at: Option<String> },
    /// 400 for an `includedType` outside Table A.
    InvalidIncludedType(String),
}

impl Rejection {
    fn argument(message: impl Into<String>) -> Self {
        Self::InvalidArgument(message.into())
    }

    fn json(detail: impl Into<String>) -> Self {
        Self::InvalidJson(detail.into())
    }

    /// Google's answer.
    pub(crate) fn response(&self) -> Response {
        match self {
            Self::InvalidArgument(message) => errors::invalid_argument(message),
            Self::InvalidJson(detail) => errors::invalid_json(detail),
            Self::UnknownField { name, at } => errors::unknown_body_field(name, at.as_deref()),
            Self::InvalidIncludedType(value) => errors::invalid_included_type(value),
        }
    }
}

/// A checked `searchText` request.
#[derive(Debug, Clone)]
pub(crate) struct SearchRequest {
    pub search: TextSearch,
    /// 1..=20.
    pub page_size: usize,
    pub page_token: Option<String>,
    /// Identity of the search, for page tokens.
    pub fingerprint: Fingerprint,
}

/// Parses a request body, or says why Google would answer 400.
pub(crate) fn parse(body: &[u8]) -> Result<SearchRequest, Rejection> {
    let text = if body.iter().all(u8::is_ascii_whitespace) {
        // An empty body is an empty message, as for any proto3 JSON endpoint.
        Value::Object(Map::new())
    } else {
        serde_json::from_slice::<Value>(body).map_err(|e| Rejection::json(format!("Unexpected token: {e}")))?
    };
    let Value::Object(raw) = text else {
        return Err(Rejection::json("Expected a JSON object."));
    };
    let mut fields = Map::new();
    for (name, value) in raw {
        let camel = camel_case(&name);
        let Some((_, kind)) = FIELDS.iter().find(|(f, _)| *f == camel) else {
            return Err(Rejection::UnknownField { name, at: None });
        };
        check_kind(&camel, *kind, &value)?;
        fields.insert(camel, value);
    }
    let body = Value::Object(fields);

    let text_query = string(&body, "textQuery");
    if text_query.trim().is_empty() {
        return Err(Rejection::argument("Empty text_query."));
    }
    let included_type = Some(string(&body, "includedType")).filter(|t| !t.is_empty());
    if let Some(t) = &included_type
        && !is_table_a(t)
    {
        return Err(Rejection::InvalidIncludedType(t.clone()));
    }
    let page_size = page_size(&body)?;
    let min_rating = body.get("minRating").and_then(number);
    if min_rating.is_some_and(|r| !(0.0..=5.0).contains(&r)) {
        return Err(Rejection::argument(
            "min_rating must be between 0.0 and 5.0, inclusive.",
        ));
    }
    let location_bias = body.get("locationBias").map(location_bias).transpose()?.flatten();
    let location_restriction = body
        .get("locationRestriction")
        .map(location_restriction)
        .transpose()?
        .flatten();
    if location_bias.is_some() && location_restriction.is_some() {
        return Err(Rejection::argument(
            "location_bias and location_restriction cannot both be set.",
        ));
    }
    Ok(SearchRequest {
        search: TextSearch {
            text_query,
            included_type,
            location_bias,
            location_restriction,
            min_rating,
        },
        page_size,
        page_token: Some(string(&body, "pageToken")).filter(|t| !t.is_empty()),
        fingerprint: fingerprint(&body),
    })
}

/// `pageSize`, falling back to the deprecated `maxResultCount`: 0 or absent means 20,
/// above 20 means 20, negative is refused.
fn page_size(body: &Value) -> Result<usize, Rejection> {
    let read = |field: &str| body.get(field).and_then(number).map(|n| n as i64).unwrap_or(0);
    let (size, field) = match read("pageSize") {
        0 => (read("maxResultCount"), "max_result_count"),
        n => (n, "page_size"),
    };
    if size < 0 {
        return Err(Rejection::argument(format!("{field} must not be negative.")));
    }
    Ok(match usize::try_from(size).unwrap_or(0) {
        0 => MAX_PAGE_SIZE,
        n => n.min(MAX_PAGE_SIZE),
    })
}

fn location_bias(value: &Value) -> Result<Option<Area>, Rejection> {
    let map = one_of(value, "location_bias", &["rectangle", "circle"])?;
    if let Some(rect) = map.get("rectangle") {
        return Ok(Some(Area::Rectangle(viewport(rect, "location_bias.rectangle")?)));
    }
    match map.get("circle") {
        Some(circle) => Ok(Some(Area::Circle(parse_circle(circle)?))),
        None => Ok(None),
    }
}

/// Text Search takes only a rectangle as a restriction; a circle is an unknown field.
fn location_restriction(value: &Value) -> Result<Option<Viewport>, Rejection> {
    let map = one_of(value, "location_restriction", &["rectangle"])?;
    map.get("rectangle")
        .map(|rect| viewport(rect, "location_restriction.rectangle"))
        .transpose()
}

/// The object of a `oneof` message: only the named fields, at most one of them.
fn one_of<'a>(value: &'a Value, at: &str, allowed: &[&str]) -> Result<&'a Map<String, Value>, Rejection> {
    let map = value
        .as_object()
        .ok_or_else(|| Rejection::json(format!("Expected an object at '{at}'.")))?;
    if let Some(unknown) = map.keys().find(|k| !allowed.contains(&camel_case(k).as_str())) {
        return Err(Rejection::UnknownField {
            name: unknown.clone(),
            at: Some(at.to_owned()),
        });
    }
    if map.len() > 1 {
        return Err(Rejection::argument(format!(
            "Only one of {} may be set in {at}.",
            allowed.join(", ")
        )));
    }
    Ok(map)
}

fn viewport(value: &Value, at: &str) -> Result<Viewport, Rejection> {
    let (Some(low), Some(high)) = (value.get("low"), value.get("high")) else {
        return Err(Rejection::argument(format!(
            "Invalid {at}: both low and high must be populated."
        )));
    };
    let viewport = Viewport::new(lat_lng(low, at)?, lat_lng(high, at)?);
    if viewport.is_empty() {
        return Err(Rejection::argument(format!("Invalid {at}: the viewport is empty.")));
    }
    Ok(viewport)
}

fn parse_circle(value: &Value) -> Result<Circle, Rejection> {
    let center = lat_lng(
        value.get("center").unwrap_or(&Value::Null),
        "location_bias.circle.center",
    )?;
    let radius = value.get("radius").and_then(number).unwrap_or(0.0);
    if !(0.0..=50_000.0).contains(&radius) {
        return Err(Rejection::argument(
            "Invalid location_bias.circle.radius: must be between 0.0 and 50000.0, inclusive.",
        ));
    }
    Ok(Circle { center, radius })
}

fn lat_lng(value: &Value, at: &str) -> Result<LatLng, Rejection> {
    let coordinate = |field: &str| value.get(field).and_then(number).unwrap_or(0.0);
    let point = LatLng::new(coordinate("latitude"), coordinate("longitude"));
    if !(-90.0..=90.0).contains(&point.latitude) || !(-180.0..=180.0).contains(&point.longitude) {
        return Err(Rejection::argument(format!(
            "Invalid {at}: latitude must be within [-90, 90] and longitude within [-180, 180]."
        )));
    }
    Ok(point)
}

fn check_kind(field: &str, kind: Kind, value: &Value) -> Result<(), Rejection> {
    let ok = match (kind, value) {
        (_, Value::Null) => true,
        (Kind::String, v) => v.is_string(),
        (Kind::Bool, v) => v.is_boolean(),
        (Kind::Int32, v) => number(v).is_some_and(|n| n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX)),
        (Kind::Double, v) => number(v).is_some(),
        (Kind::Enum(values), v) => v.as_str().is_some_and(|s| values.contains(&s)),
        (Kind::EnumList(values), Value::Array(items)) => {
            items.iter().all(|i| i.as_str().is_some_and(|s| values.contains(&s)))
        }
        (Kind::EnumList(_), _) => false,
        (Kind::Message, v) => v.is_object(),
    };
    if ok {
        Ok(())
    } else {
        Err(Rejection::json(format!(
            "Invalid value at '{}' ({}), {value}",
            snake_case(field),
            match kind {
                Kind::String => "TYPE_STRING",
                Kind::Bool => "TYPE_BOOL",
                Kind::Int32 => "TYPE_INT32",
                Kind::Double => "TYPE_DOUBLE",
                Kind::Enum(_) | Kind::EnumList(_) => "TYPE_ENUM",
                Kind::Message => "TYPE_MESSAGE",
            }
        )))
    }
}

/// A proto3 JSON number: a JSON number or a numeric string.
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn string(body: &Value, field: &str) -> String {
    body.get(field).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// `text_query` -> `textQuery` (proto3 JSON accepts both spellings).
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

/// `textQuery` -> `text_query`, as Google names fields in its messages.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parsed(body: Value) -> Result<SearchRequest, u16> {
        parse(body.to_string().as_bytes()).map_err(|r| r.response().status().as_u16())
    }

    #[test]
    fn page_size_follows_googles_rules() {
        let size = |extra: Value| {
            let mut body = json!({"textQuery": "x"});
            body.as_object_mut()
                .expect("object")
                .extend(extra.as_object().cloned().unwrap_or_default());
            parsed(body).map(|r| r.page_size)
        };
        assert_eq!(size(json!({})), Ok(20));
        assert_eq!(size(json!({"pageSize": 0})), Ok(20));
        assert_eq!(size(json!({"pageSize": 5})), Ok(5));
        assert_eq!(
            size(json!({"pageSize": "7"})),
            Ok(7),
            "proto3 JSON accepts numeric strings"
        );
        assert_eq!(size(json!({"pageSize": 50})), Ok(20));
        assert_eq!(size(json!({"pageSize": -1})), Err(400));
        assert_eq!(size(json!({"maxResultCount": 3})), Ok(3));
        assert_eq!(
            size(json!({"maxResultCount": 3, "pageSize": 9})),
            Ok(9),
            "max_result_count is ignored"
        );
        assert_eq!(size(json!({"pageSize": "many"})), Err(400));
    }

    #[test]
    fn accepts_both_spellings_and_refuses_unknown_fields() {
        let r = parsed(json!({"text_query": "Restaurant in Austin", "included_type": "restaurant"})).expect("ok");
        assert_eq!(r.search.text_query, "Restaurant in Austin");
        assert_eq!(r.search.included_type.as_deref(), Some("restaurant"));
        assert_eq!(
            parsed(json!({"textQuery": "x", "includedTypes": ["cafe"]})).err(),
            Some(400)
        );
        assert_eq!(parsed(json!({"textQuery": ""})).err(), Some(400));
        assert_eq!(
            parsed(json!({"textQuery": "x", "includedType": "food"})).err(),
            Some(400)
        );
        assert_eq!(
            parsed(json!({"textQuery": "x", "rankPreference": "BEST"})).err(),
            Some(400)
        );
        assert!(parse(b"{not json").is_err());
    }

    #[test]
    fn regions_are_checked() {
        let rect =
            json!({"low": {"latitude": 30.1, "longitude": -97.9}, "high": {"latitude": 30.5, "longitude": -97.5}});
        let ok = parsed(json!({"textQuery": "x", "locationRestriction": {"rectangle": rect}})).expect("ok");
        assert!(ok.search.location_restriction.is_some());
        let circle = json!({"center": {"latitude": 30.2, "longitude": -97.7}, "radius": 1000.0});
        assert!(parsed(json!({"textQuery": "x", "locationBias": {"circle": circle}})).is_ok());
        let too_big = json!({"center": {"latitude": 30.2, "longitude": -97.7}, "radius": 60000.0});
        assert_eq!(
            parsed(json!({"textQuery": "x", "locationBias": {"circle": too_big}})).err(),
            Some(400)
        );
        assert_eq!(
            parsed(json!({"textQuery": "x", "locationRestriction": {"circle": circle}})).err(),
            Some(400),
            "restriction is rectangle-only"
        );
        assert_eq!(
            parsed(json!({"textQuery": "x", "locationBias": {"rectangle": rect}, "locationRestriction": {"rectangle": rect}}))
                .err(),
            Some(400)
        );
        let empty =
            json!({"low": {"latitude": 31.0, "longitude": -97.9}, "high": {"latitude": 30.0, "longitude": -97.5}});
        assert_eq!(
            parsed(json!({"textQuery": "x", "locationBias": {"rectangle": empty}})).err(),
            Some(400)
        );
        assert_eq!(parsed(json!({"textQuery": "x", "minRating": 7})).err(), Some(400));
    }
}
