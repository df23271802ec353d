//! Client for Google's Places Aggregate API (`areainsights.googleapis.com`,
//! `POST /v1:computeInsights`): how many places of a type an area holds
//! (`INSIGHT_COUNT`), and their ids when there are 100 or fewer (`INSIGHT_PLACES`). The
//! completeness meter's source. Errors come in Google's standard error JSON, the same as
//! Places API (New), so they parse into [`PlacesError`].
//!
//! The filter asks for every operating status (operational, temporarily and permanently
//! closed): Text Search lists closed places too, so only that count is the number a
//! full-coverage search of the area can find.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use url::Url;

use super::{
    error::PlacesError,
    retry::{RetryPolicy, http_client, post_json, with_retries},
    wire::LatLngLiteral,
};

/// `computeInsights`, relative to the base URL (the `./` keeps `v1:` from reading as a
/// URL scheme).
const COMPUTE_INSIGHTS_PATH: &str = "./v1:computeInsights";
/// Upper bound on one call: the meter is a nicety and must not hold an estimate long.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// One retry, soon: an estimate waits for the count (see [`AggregateClient::new`]).
const RETRY: RetryPolicy = RetryPolicy {
    max_retries: 1,
    base_backoff: Duration::from_millis(250),
    max_wait: Duration::from_secs(1),
};
/// Every operating status Google knows (see the module docs for why all of them).
const EVERY_STATUS: [&str; 3] = [
    "OPERATING_STATUS_OPERATIONAL",
    "OPERATING_STATUS_TEMPORARILY_CLOSED",
    "OPERATING_STATUS_PERMANENTLY_CLOSED",
];

/// Where to count, in Google's terms. This module does not know a search's `Area`: the
/// search converts its own (`From<&Area>` in `search::completeness`), so `places` and
/// `search` do not name each other.
#[derive(Debug, Clone, PartialEq)]
pub enum AggregateArea {
    /// A circle: its centre and radius in whole metres (`int32`).
    Circle {
        /// The centre.
        center: LatLngLiteral,
        /// Whole metres.
        radius_meters: i32,
    },
    /// A rectangle, sent as a closed counterclockwise polygon.
    Rectangle {
        /// The south-west corner.
        south_west: LatLngLiteral,
        /// The north-east corner.
        north_east: LatLngLiteral,
    },
    /// A polygon as Google's `customArea.polygon.coordinates` takes it: closed (first
    /// point repeated last) and counterclockwise. The caller orders it so.
    Polygon {
        /// The closed ring.
        coordinates: Vec<LatLngLiteral>,
    },
    /// A region Google knows by its place id (a postal code's, as the locate request
    /// answered it), sent as `region.place: "places/ID"`.
    Region {
        /// The place id, without the `places/` prefix.
        place_id: String,
    },
}

/// What to count: places of one Table A type in an area, optionally rated at least
/// `min_rating`.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateQuery<'a> {
    /// A Google Table A place type, sent as `includedTypes` (places whose `types` list it,
    /// as Text Search's `includedType` matches).
    pub place_type: &'a str,
    /// The search's area: a circle, a polygon, or a rectangle sent as a polygon.
    pub area: AggregateArea,
    /// `ratingFilter.minRating` (Google takes 1.0 to 5.0); none below 1.
    pub min_rating: Option<f64>,
}

/// Talks to the Places Aggregate API with the caller's own API key.
#[derive(Debug, Clone)]
pub struct AggregateClient {
    http: reqwest::Client,
    compute_insights_url: Url,
    retry: RetryPolicy,
}

impl AggregateClient {
    /// A client for `base_url` (Google's, or the simulator's), with a 5 s time-out a call
    /// and one retry: the estimate waits for the count, so a failing Aggregate API costs
    /// it seconds, not the Places client's minute of retries.
    pub fn new(base_url: &Url) -> Result<Self, PlacesError> {
        let mut base = base_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let compute_insights_url = base
            .join(COMPUTE_INSIGHTS_PATH)
            .map_err(|e| PlacesError::Network(format!("bad Places Aggregate base URL: {e}")))?;
        Ok(Self {
            http: http_client(REQUEST_TIMEOUT)?,
            compute_insights_url,
            retry: RETRY,
        })
    }

    /// The same client with another retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// How many places match `query` (`INSIGHT_COUNT`): one billed call.
    pub async fn count(&self, api_key: &str, query: &AggregateQuery<'_>) -> Result<u64, PlacesError> {
        let response = self.compute(api_key, "INSIGHT_COUNT", query).await?;
        Ok(response.count.map_or(0, |c| c.0))
    }

    /// The ids of the places that match `query` (`INSIGHT_PLACES`), without the `places/`
    /// prefix, as Text Search gives them. Google answers only when there are 100 or fewer:
    /// more is its `INVALID_ARGUMENT` (an `Upstream` 400).
    pub async fn place_ids(&self, api_key: &str, query: &AggregateQuery<'_>) -> Result<Vec<String>, PlacesError> {
        let response = self.compute(api_key, "INSIGHT_PLACES", query).await?;
        Ok(response
            .place_insights
            .into_iter()
            .map(|p| p.place.strip_prefix("places/").unwrap_or(&p.place).to_owned())
            .filter(|id| !id.is_empty())
            .collect())
    }

    async fn compute(
        &self,
        api_key: &str,
        insight: &'static str,
        query: &AggregateQuery<'_>,
    ) -> Result<ComputeInsightsResponse, PlacesError> {
        let body = ComputeInsightsRequest::new(insight, query);
        with_retries(
            &self.retry,
            "computeInsights",
            |outcome| crate::telemetry::metrics::metrics().aggregate_call(outcome),
            || post_json(&self.http, &self.compute_insights_url, api_key, &[], &body),
        )
        .await
    }
}

/// `computeInsights` body (the fields we send).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ComputeInsightsRequest<'a> {
    insights: [&'static str; 1],
    filter: Filter<'a>,
}

impl<'a> ComputeInsightsRequest<'a> {
    fn new(insight: &'static str, query: &AggregateQuery<'a>) -> Self {
        Self {
            insights: [insight],
            filter: Filter {
                location_filter: LocationFilter::of(&query.area),
                type_filter: TypeFilter {
                    included_types: [query.place_type],
                },
                operating_status: EVERY_STATUS,
                rating_filter: query
                    .min_rating
                    .filter(|r| *r >= 1.0)
                    .map(|min_rating| RatingFilter { min_rating }),
            },
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Filter<'a> {
    location_filter: LocationFilter,
    type_filter: TypeFilter<'a>,
    operating_status: [&'static str; 3],
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_filter: Option<RatingFilter>,
}

/// One of Google's location filters.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
enum LocationFilter {
    Circle {
        #[serde(rename = "latLng")]
        lat_lng: LatLngLiteral,
        /// Whole metres (`int32`).
        radius: i32,
    },
    CustomArea {
        polygon: Polygon,
    },
    Region {
        /// `places/PLACE_ID`.
        place: String,
    },
}

impl LocationFilter {
    fn of(area: &AggregateArea) -> Self {
        match *area {
            AggregateArea::Circle { center, radius_meters } => Self::Circle {
                lat_lng: center,
                radius: radius_meters,
            },
            AggregateArea::Polygon { ref coordinates } => Self::CustomArea {
                polygon: Polygon {
                    coordinates: coordinates.clone(),
                },
            },
            AggregateArea::Region { ref place_id } => Self::Region {
                place: format!("places/{place_id}"),
            },
            // Google wants a closed ring, counterclockwise: SW, SE, NE, NW, SW.
            AggregateArea::Rectangle {
                south_west: sw,
                north_east: ne,
            } => Self::CustomArea {
                polygon: Polygon {
                    coordinates: vec![
                        sw,
                        LatLngLiteral {
                            latitude: sw.latitude,
                            longitude: ne.longitude,
                        },
                        ne,
                        LatLngLiteral {
                            latitude: ne.latitude,
                            longitude: sw.longitude,
                        },
                        sw,
                    ],
                },
            },
        }
    }
}

#[derive(Debug, Serialize)]
struct Polygon {
    coordinates: Vec<LatLngLiteral>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TypeFilter<'a> {
    included_types: [&'a str; 1],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RatingFilter {
    min_rating: f64,
}

/// `computeInsights` answer: `count` for `INSIGHT_COUNT` (absent when 0, as proto3 JSON
/// leaves out defaults), `placeInsights` for `INSIGHT_PLACES`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ComputeInsightsResponse {
    #[serde(default)]
    count: Option<Count>,
    #[serde(default)]
    place_insights: Vec<PlaceInsight>,
}

/// An `int64`: proto JSON writes it as a string ("1234"); a number is accepted too.
#[derive(Debug)]
struct Count(u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(n) => Ok(Self(n)),
            Raw::Text(text) => text
                .trim()
                .parse()
                .map(Self)
                .map_err(|_| serde::de::Error::custom(format!("count is not a whole number: {text:?}"))),
        }
    }
}

#[derive(Debug, Deserialize)]
struct PlaceInsight {
    #[serde(default)]
    place: String,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn p(lat: f64, lng: f64) -> LatLngLiteral {
        LatLngLiteral {
            latitude: lat,
            longitude: lng,
        }
    }

    #[test]
    fn a_rectangle_is_a_closed_counterclockwise_polygon_and_every_status_is_asked() {
        let area = AggregateArea::Rectangle {
            south_west: p(29.0, -96.0),
            north_east: p(30.0, -95.0),
        };
        let query = AggregateQuery {
            place_type: "dentist",
            area,
            min_rating: None,
        };
        let body = serde_json::to_value(ComputeInsightsRequest::new("INSIGHT_COUNT", &query)).expect("json");
        let ring = |lat: f64, lng: f64| json!({"latitude": lat, "longitude": lng});
        assert_eq!(
            body,
            json!({
                "insights": ["INSIGHT_COUNT"],
                "filter": {
                    "locationFilter": {"customArea": {"polygon": {"coordinates": [
                        ring(29.0, -96.0), ring(29.0, -95.0), ring(30.0, -95.0), ring(30.0, -96.0), ring(29.0, -96.0)
                    ]}}},
                    "typeFilter": {"includedTypes": ["dentist"]},
                    "operatingStatus": EVERY_STATUS,
                }
            })
        );
    }

    #[test]
    fn a_circle_has_whole_metres_and_a_rating_floor_is_sent_from_one_star() {
        let area = AggregateArea::Circle {
            center: p(30.0, -97.0),
            radius_meters: 1235,
        };
        let mut query = AggregateQuery {
            place_type: "cafe",
            area,
            min_rating: Some(4.0),
        };
        let body = serde_json::to_value(ComputeInsightsRequest::new("INSIGHT_PLACES", &query)).expect("json");
        assert_eq!(
            body["filter"]["locationFilter"],
            json!({"circle": {"latLng": {"latitude": 30.0, "longitude": -97.0}, "radius": 1235}})
        );
        assert_eq!(body["filter"]["ratingFilter"], json!({"minRating": 4.0}));
        assert_eq!(body["insights"], json!(["INSIGHT_PLACES"]));
        query.min_rating = Some(0.5);
        let body = serde_json::to_value(ComputeInsightsRequest::new("INSIGHT_COUNT", &query)).expect("json");
        assert!(body["filter"].get("ratingFilter").is_none(), "Google takes 1.0 to 5.0");
    }

    #[test]
    fn a_postal_code_is_counted_as_its_region_by_place_name() {
        let query = AggregateQuery {
            place_type: "restaurant",
            area: AggregateArea::Region {
                place_id: "ChIJ7zip".into(),
            },
            min_rating: None,
        };
        let body = serde_json::to_value(ComputeInsightsRequest::new("INSIGHT_COUNT", &query)).expect("json");
        assert_eq!(
            body["filter"]["locationFilter"],
            json!({"region": {"place": "places/ChIJ7zip"}})
        );
    }

    #[test]
    fn counts_read_as_strings_numbers_or_absent() {
        let read = |text: &str| serde_json::from_str::<ComputeInsightsResponse>(text).map(|r| r.count.map(|c| c.0));
        assert_eq!(read(r#"{"count": "1234"}"#).expect("string"), Some(1234));
        assert_eq!(read(r#"{"count": 56}"#).expect("number"), Some(56));
        assert_eq!(read("{}").expect("absent"), None);
        assert!(read(r#"{"count": "many"}"#).is_err());
    }
}
