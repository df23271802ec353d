//! [`SearchEvents`]: a search's `text/event-stream` answer, written frame by frame.
//!
//! poem's SSE response turns its stream into an `AsyncRead` and reads it back through a
//! 4 KiB buffer, which every open stream then holds for the whole search. Here each frame
//! becomes one exactly sized chunk of the body. The wire format is the same: `id: N`, one
//! `data:` line per line of the JSON event, a blank line; a `:` comment line as keep-alive.

use std::{pin::Pin, task::Poll, time::Duration};

use bytes::Bytes;
use futures_util::{Stream, StreamExt, stream::BoxStream};
use poem::{Body, IntoResponse, Response};
use poem_openapi::{
    ApiResponse,
    payload::Payload,
    registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry},
    types::Type,
};

use crate::{routes::leads_models::StreamEvent, stream_slots::StreamSlot};

/// How often an idle stream sends a keep-alive comment (proxies close silent connections).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The events of a search as `(event number, JSON)` frames; documented as [`StreamEvent`]s.
/// Holds its user's stream slot until the body is dropped (the stream ended or its
/// connection closed).
pub struct SearchEvents(BoxStream<'static, (u64, String)>, StreamSlot);

impl SearchEvents {
    /// The answer streaming `frames`, holding `slot` while it is open.
    pub fn new(frames: impl Stream<Item = (u64, String)> + Send + 'static, slot: StreamSlot) -> Self {
        Self(frames.boxed(), slot)
    }
}

/// A search event's JSON, the `data:` of its frame.
pub fn event_json(event: &leadgen_core::lead::SearchEvent) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| r#"{"type":"error","message":"Stream processing failed"}"#.into())
}

/// One frame as it goes on the wire.
pub fn encode(id: u64, data: &str) -> Bytes {
    let mut frame = String::with_capacity(data.len() + 16);
    frame.push_str("id: ");
    frame.push_str(&id.to_string());
    frame.push('\n');
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
            items: Some(Box::new(StreamEvent::schema_ref())),
            ..MetaSchema::new_with_format("array", "event-stream")
        }))
    }

    fn register(registry: &mut Registry) {
        StreamEvent::register(registry);
    }
}

impl IntoResponse for SearchEvents {
    fn into_response(self) -> Response {
        let slot = self.1;
        let mut frames = self.0.map(|(id, data)| encode(id, &data));
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
                headers: vec![],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        StreamEvent::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_what_poems_sse_wrote() {
        let data = r#"{"type":"start","location":"Austin, TX"}"#;
        let ours = encode(7, data);
        let poems = poem::web::sse::Event::message(data).id("7").to_string();
        assert_eq!(ours, Bytes::from(poems));
        assert_eq!(encode(1, "a\nb"), Bytes::from_static(b"id: 1\ndata: a\ndata: b\n\n"));
    }

    #[tokio::test]
    async fn the_body_is_the_frames_in_order_with_the_stream_headers() {
        let frames = futures_util::stream::iter([(1, "{\"a\":1}".to_owned()), (2, "{\"b\":2}".to_owned())]);
        let slots = crate::stream_slots::StreamSlots::new(1);
        let user = leadgen_core::ids::UserId::from("u-1");
        let slot = slots.acquire(&user).expect("a slot");
        let response = SearchEvents::new(frames, slot).into_response();
        assert_eq!(slots.open_for(&user), 1, "the open body holds the slot");
        assert_eq!(response.content_type(), Some("text/event-stream"));
        assert_eq!(response.headers()["cache-control"], "no-cache");
        assert_eq!(response.headers()["x-accel-buffering"], "no");
        let body = response.into_body().into_string().await.expect("body");
        assert_eq!(body, "id: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"b\":2}\n\n");
        assert_eq!(slots.open_for(&user), 0, "the finished body gave its slot back");
    }
}
