//! [`SearchEvents`]: a search's `text/event-stream` answer, written frame by frame.
//!
//! poem's SSE response turns its stream into an `AsyncRead` and reads it back through a
//! 4 KiB buffer, which every open stream then holds for the whole search. Here each frame
//! becomes one exactly sized chunk of the body. The wire format is the same: `id: N`, one
//! `data:` line per line of the JSON event, a blank line; a `:` comment line as keep-alive.
//! A frame that is not one of the search's numbered events (`reconnect`) has no `id:`
//! line, so a client's last event number stays the search's.
//!
//! The answer's `X-Search-Id` header names the search before any event: a client whose
//! connection drops while the search still waits in the queue (no `start` yet) can
//! reconnect with it.

use std::{pin::Pin, task::Poll, time::Duration};

use bytes::Bytes;
use futures_util::{Stream, StreamExt, stream::BoxStream};
use poem::{Body, IntoResponse, Response};
use poem_openapi::{
    ApiResponse,
    payload::Payload,
    registry::{MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry},
    types::Type,
};

use leadgen_core::{ids::SearchId, lead::SearchEvent};

use crate::stream_slots::StreamSlot;

/// How often an idle stream sends a keep-alive comment (proxies close silent connections).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The header naming the search a stream carries.
pub const SEARCH_ID_HEADER: &str = "X-Search-Id";

/// The events of search `search_id` as `(event number, JSON)` frames; documented as
/// [`SearchEvent`]s. Holds its user's stream slot until the body is dropped (the stream
/// ended or its connection closed).
pub struct SearchEvents {
    search_id: SearchId,
    frames: BoxStream<'static, (Option<u64>, String)>,
    slot: StreamSlot,
}

impl SearchEvents {
    /// The answer streaming `frames` of `search_id`, holding `slot` while it is open.
    pub fn new(
        search_id: SearchId,
        frames: impl Stream<Item = (Option<u64>, String)> + Send + 'static,
        slot: StreamSlot,
    ) -> Self {
        Self {
            search_id,
            frames: frames.boxed(),
            slot,
        }
    }
}

/// A search event's JSON, the `data:` of its frame.
pub fn event_json(event: &SearchEvent) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| r#"{"type":"error","message":"Stream processing failed"}"#.into())
}

/// One frame as it goes on the wire (without an `id:` line when `id` is `None`).
pub fn encode(id: Option<u64>, data: &str) -> Bytes {
    let mut frame = String::with_capacity(data.len() + 16);
    if let Some(id) = id {
        frame.push_str("id: ");
        frame.push_str(&id.to_string());
        frame.push('\n');
    }
    for line in data.lines() {
        frame.push_str("data: ");
        frame.push_str(line);
        frame.push('\n');
    }
    frame.push('\n');
    Bytes::from(frame)
}

impl Payload for SearchEvents {
    const CONTENT_TYPE: &'static str = "text/event-stream";

    fn schema_ref() -> MetaSchemaRef {
        // As poem-openapi's `EventStream` says it; `openapi_contract` then documents it
        // frame by frame.
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            items: Some(Box::new(SearchEvent::schema_ref())),
            ..MetaSchema::new_with_format("array", "event-stream")
        }))
    }

    fn register(registry: &mut Registry) {
        SearchEvent::register(registry);
    }
}

impl IntoResponse for SearchEvents {
    fn into_response(self) -> Response {
        let slot = self.slot;
        let mut frames = self.frames.map(|(id, data)| encode(id, &data));
        let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let comment = Bytes::from_static(b":\n\n");
        let body = futures_util::stream::poll_fn(move |cx| {
            let _held_while_open = &slot;
            if let Poll::Ready(frame) = Pin::new(&mut frames).poll_next(cx) {
                return Poll::Ready(frame.map(Ok::<_, std::io::Error>));
            }
            keep_alive.poll_tick(cx).map(|_| Some(Ok(comment.clone())))
        });
        Response::builder()
            .content_type(Self::CONTENT_TYPE)
            .header("X-Accel-Buffering", "no")
            .header("Cache-Control", "no-cache")
            .header(SEARCH_ID_HEADER, self.search_id.as_str())
            .body(Body::from_bytes_stream(body))
    }
}

impl ApiResponse for SearchEvents {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "",
                status: Some(200),
                status_range: None,
                content: vec![MetaMediaType {
                    content_type: Self::CONTENT_TYPE,
                    schema: Self::schema_ref(),
                }],
                headers: vec![MetaHeader {
                    name: SEARCH_ID_HEADER.to_owned(),
                    description: Some(
                        "The search's id, before any event: where to reconnect (`GET /api/leads/searches/{id}/events`) if the stream ends without `complete` or `error`, even while the search still waits in the queue."
                            .to_owned(),
                    ),
                    required: true,
                    deprecated: false,
                    schema: SearchId::schema_ref(),
                }],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        SearchEvent::register(registry);
        SearchId::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_what_poems_sse_wrote() {
        let data = r#"{"type":"start","location":"Austin, TX"}"#;
        let ours = encode(Some(7), data);
        let poems = poem::web::sse::Event::message(data).id("7").to_string();
        assert_eq!(ours, Bytes::from(poems));
        assert_eq!(
            encode(Some(1), "a\nb"),
            Bytes::from_static(b"id: 1\ndata: a\ndata: b\n\n")
        );
        // Not one of the search's events: the client's last event number stays.
        assert_eq!(encode(None, "{}"), Bytes::from_static(b"data: {}\n\n"));
    }

    #[tokio::test]
    async fn the_body_is_the_frames_in_order_with_the_stream_headers() {
        let frames = futures_util::stream::iter([(Some(1), "{\"a\":1}".to_owned()), (Some(2), "{\"b\":2}".to_owned())]);
        let slots = crate::stream_slots::StreamSlots::new(1);
        let user = leadgen_core::ids::UserId::from("u-1");
        let slot = slots.acquire(&user).expect("a slot");
        let response = SearchEvents::new("s-1".into(), frames, slot).into_response();
        assert_eq!(slots.open_for(&user), 1, "the open body holds the slot");
        assert_eq!(response.content_type(), Some("text/event-stream"));
        assert_eq!(response.headers()["cache-control"], "no-cache");
        assert_eq!(response.headers()["x-accel-buffering"], "no");
        assert_eq!(
            response.headers()["x-search-id"],
            "s-1",
            "the search's id comes before any event"
        );
        let body = response.into_body().into_string().await.expect("body");
        assert_eq!(body, "id: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"b\":2}\n\n");
        assert_eq!(slots.open_for(&user), 0, "the finished body gave its slot back");
    }
}

/// The event's two writers agree: serde (what the server sends, from core) and
/// poem-openapi (what the contract, and so the web app's generated types, say).
#[cfg(test)]
mod event_contract {
    use leadgen_core::{
        enrich::{Contacts, NotRead, Socials},
        lead::{Lead, SearchComplete, SearchEvent, SearchParams, SearchProgress, SearchStarted},
        search::{CompletenessSource, Requests, SearchCompleteness, SearchCost, StopReason},
        usage::{ApiKeyInfo, PeriodInfo, Tier, TierInfo, UsageNumbers, UsageReport, UsageStatus},
    };
    use poem_openapi::types::{ParseFromJSON, ToJSON};

    fn lead(enriched: bool) -> Lead {
        Lead {
            name: "Blue \"Cup\"".into(),
            address: "1 Main St, Austin, TX".into(),
            phone: String::new(),
            website: "https://bluecup.example".into(),
            place_id: "ChIJ1".into(),
            rating: None,
            review_count: Some(12),
            city: "Austin".into(),
            maps_url: "https://maps.google.com/?cid=1".into(),
            contacts: enriched.then(|| {
                Contacts {
                    emails: vec!["hi@bluecup.example".into()],
                    socials: Socials {
                        x: Some("https://x.com/bluecup".into()),
                        ..Socials::default()
                    },
                    ..Contacts::default()
                }
                .read()
            }),
            ..Lead::default()
        }
    }

    fn complete(finished_early: bool) -> SearchEvent {
        SearchEvent::Complete(SearchComplete {
            results: vec![lead(false), lead(true)],
            search: SearchParams {
                business_type: "cafe".into(),
                location: "Austin, TX".into(),
            },
            usage: UsageReport {
                usage: UsageNumbers {
                    current: 3,
                    limit: 100,
                    remaining: 97,
                    percentage: 3.0,
                    leads_this_month: 120,
                    leads_today: 60,
                    daily_lead_limit: finished_early.then_some(1000),
                },
                period: PeriodInfo {
                    reset_date: "2026-12-01".into(),
                    days_until_reset: 5,
                },
                api_key: ApiKeyInfo {
                    configured: true,
                    last_updated: None,
                },
                tier: TierInfo {
                    current: Tier::Free,
                    name: "Free".into(),
                },
                status: UsageStatus {
                    is_over_limit: false,
                    is_near_limit: false,
                    is_approaching_limit: false,
                },
                recommendations: vec!["Upgrade".into()],
            },
            cost: finished_early.then_some(SearchCost {
                requests: Requests {
                    ids_only: 30,
                    pro: 1,
                    enterprise: 4,
                    aggregate: 0,
                    details: 0,
                },
                billable_requests: 5,
                cost_usd: 0.18,
            }),
            stop_reason: finished_early.then_some(StopReason::MaxCost),
            notice: finished_early.then(|| "Stopped at your budget.".into()),
            completeness: finished_early.then_some(SearchCompleteness {
                found: 1487,
                expected: 1500,
                source: CompletenessSource::GoogleAggregate,
            }),
            found_count: finished_early.then_some(12),
            new_count: finished_early.then_some(2),
        })
    }

    /// One event of every kind, with its optional fields set and unset.
    fn every_kind() -> Vec<SearchEvent> {
        vec![
            SearchEvent::Start(SearchStarted {
                business_type: "cafe".into(),
                location: "Austin".into(),
                search_id: None,
            }),
            SearchEvent::Start(SearchStarted {
                business_type: "cafe".into(),
                location: "Austin".into(),
                search_id: leadgen_core::ids::SearchId::parse("0192d5c1-8b1c-7d2e-9a3b-4c5d6e7f8091"),
            }),
            SearchEvent::business_found(lead(false), 1, 20),
            SearchEvent::business_found(lead(true), 2, 20),
            SearchEvent::lead_enriched("ChIJ1", lead(true).contacts.unwrap_or_default()),
            SearchEvent::lead_enriched("ChIJ2", Contacts::not_read(NotRead::RobotsTxt)),
            SearchEvent::Progress(SearchProgress {
                areas_probed: 30,
                areas_fetched: 4,
                areas_planned: 10,
                leads: 80,
                places_found: 300,
                billable_requests: 5,
                cost_usd: 0.18,
                estimated_cost_usd: 2.7,
                estimated_places: 1500,
                completeness: Some(SearchCompleteness {
                    found: 80,
                    expected: 1500,
                    source: CompletenessSource::GoogleAggregate,
                }),
            }),
            complete(false),
            complete(true),
            SearchEvent::error("Quota exhausted"),
            SearchEvent::Reconnect(leadgen_core::lead::SearchReconnect {
                search_id: "0192d5c1-8b1c-7d2e-9a3b-4c5d6e7f8091".into(),
                message: crate::relay::RECONNECT.into(),
            }),
        ]
    }

    #[test]
    fn the_contract_writes_and_reads_every_event_as_the_server_sends_it() {
        for event in every_kind() {
            let sent = serde_json::to_value(&event).expect("serde");
            assert_eq!(ToJSON::to_json(&event), Some(sent.clone()), "contract's JSON of {sent}");
            let read =
                SearchEvent::parse_from_json(Some(sent.clone())).unwrap_or_else(|e| panic!("{sent}: {}", e.message()));
            assert_eq!(read, event, "contract reads back {sent}");
        }
    }

    #[test]
    fn the_contract_names_each_kind_the_server_sends_and_no_other() {
        let spec: serde_json::Value = serde_json::from_str(&crate::app::openapi_json()).expect("spec");
        let mapping = spec["components"]["schemas"]["SearchEvent"]["discriminator"]["mapping"]
            .as_object()
            .expect("a discriminated union");
        let declared: std::collections::BTreeSet<&str> = mapping.keys().map(String::as_str).collect();
        let sent: std::collections::BTreeSet<String> = every_kind()
            .iter()
            .map(|e| {
                serde_json::to_value(e).expect("serde")["type"]
                    .as_str()
                    .expect("type")
                    .to_owned()
            })
            .collect();
        assert_eq!(declared, sent.iter().map(String::as_str).collect());
        assert_eq!(
            declared,
            [
                "business_found",
                "complete",
                "error",
                "lead_enriched",
                "progress",
                "reconnect",
                "start"
            ]
            .into()
        );
    }
}
