//! The completeness meter's expected count: one Places Aggregate API call for the search's
//! area and type, when the meter is on and the type is one of Google's (Table A). Never
//! fails what asked for it: a failed count is no count, with a log line.
//!
//! What it counts ([`counted_area`]) is what the search sends: the search's own area, the
//! located viewport of a city, or, for a location that is a postal code, the code's own
//! region (its viewport reaches into the codes around it, whose places the search does
//! not send).

use super::{
    cost::{Requests, Sku},
    locate::Located,
    meter::{Completeness, CompletenessSource},
    options::Area,
    query::ValidSearch,
    tiling::LatLng,
};
use crate::places::{AggregateArea, AggregateClient, AggregateQuery, LatLngLiteral};

/// What the meter counts for `search`, located at `located` (none for a full search of a
/// named location not located, or a quick one): its explicit area; a postal code's region
/// by the place id Google matched (none when Google matched no postal code, as the
/// viewport's count would hold places the search does not send); else the viewport.
pub fn counted_area(search: &ValidSearch, located: Option<&Located>) -> Option<AggregateArea> {
    if let Some(area) = search.area() {
        return Some(AggregateArea::from(area));
    }
    let located = located?;
    if search.postal_code().is_some() {
        return located.matched.postal_code_place().map(|id| AggregateArea::Region {
            place_id: id.to_owned(),
        });
    }
    Some(AggregateArea::from(&Area::Rectangle {
        low: located.area.low,
        high: located.area.high,
    }))
}

/// The expected count of `search` in `area` (none without a meter, an area, or a Google
/// type; none when the call fails), and the requests it made.
pub async fn expected(
    meter: Option<&AggregateClient>,
    api_key: &str,
    search: &ValidSearch,
    area: Option<AggregateArea>,
) -> (Option<Completeness>, Requests) {
    let mut requests = Requests::default();
    let business = search.business();
    let (Some(meter), Some(area)) = (meter, area) else {
        return (None, requests);
    };
    let Some(query) = query(search, area) else {
        return (None, requests);
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

/// What the meter asks Google about `search` in `area`: its type (a Google type only,
/// none otherwise), the area and Google's `minRating`. The count and the ids of missed
/// places ask the same, so they count the same places.
pub(crate) fn query(search: &ValidSearch, area: AggregateArea) -> Option<AggregateQuery<'static>> {
    let business = search.business();
    business.is_included_type().then(|| AggregateQuery {
        place_type: business.value,
        area,
        min_rating: search.filters().google_min_rating(),
    })
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
