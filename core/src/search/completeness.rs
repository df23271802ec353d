//! The completeness meter's expected count: one Places Aggregate API call for the search's
//! area and type, when the meter is on and the type is one of Google's (Table A). Never
//! fails what asked for it: a failed count is no count, with a log line.

use super::{
    cost::{Requests, Sku},
    meter::{Completeness, CompletenessSource},
    options::Area,
    query::ValidSearch,
    tiling::LatLng,
};
use crate::places::{AggregateArea, AggregateClient, AggregateQuery, LatLngLiteral};

/// The expected count of `search` in `area` (none without a meter, an area, or a Google
/// type; none when the call fails), and the requests it made.
pub async fn expected(
    meter: Option<&AggregateClient>,
    api_key: &str,
    search: &ValidSearch,
    area: Option<Area>,
) -> (Option<Completeness>, Requests) {
    let mut requests = Requests::default();
    let business = search.business();
    let (Some(meter), Some(area)) = (meter, area) else {
        return (None, requests);
    };
    if !business.is_included_type() {
        return (None, requests);
    }
    let query = AggregateQuery {
        place_type: business.value,
        area: AggregateArea::from(&area),
        min_rating: search.filters().google_min_rating(),
    };
    match meter.count(api_key, &query).await {
        Ok(count) => {
            requests.add(Sku::Aggregate, 1);
            let completeness = Completeness {
                expected: u32::try_from(count).unwrap_or(u32::MAX),
                source: CompletenessSource::GoogleAggregate,
            };
            (Some(completeness), requests)
        }
        Err(error) => {
            // Google bills no failed call; the estimate goes on without a count.
            tracing::warn!(%error, place_type = business.value, "completeness count failed; no expected count");
            (None, requests)
        }
    }
}

impl From<&Area> for AggregateArea {
    fn from(area: &Area) -> Self {
        let literal = |p: LatLng| LatLngLiteral {
            latitude: p.lat,
            longitude: p.lng,
        };
        match *area {
            Area::Circle { center, radius_meters } => Self::Circle {
                center: literal(center),
                // The search's own radius is checked to at most 50 km, so it fits; a part
                // of a metre either way moves no business in or out in practice.
                radius_meters: radius_meters.round() as i32,
            },
            Area::Rectangle { low, high } => Self::Rectangle {
                south_west: literal(low),
                north_east: literal(high),
            },
            Area::Polygon { ref ring } => Self::Polygon {
                coordinates: ring.closed_counterclockwise().into_iter().map(literal).collect(),
            },
        }
    }
}
