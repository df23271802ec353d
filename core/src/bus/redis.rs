//! Redis event bus for distributed mode.
//!
//! Per search: a list `{prefix}:search:{id}:events` (the replay buffer; `RPUSH`'s answer
//! numbers each event), a pub/sub channel `{prefix}:search:{id}` for live delivery, a key
//! `{prefix}:search:{id}:cancel`, and the checkpoint `{prefix}:search:{id}:checkpoint`.
//! All expire after the bus's replay TTL ([`REPLAY_TTL`] unless configured). A search
//! whose listener's API process stopped also has `{prefix}:search:{id}:detached` (as long
//! as the others, plus the grace) and, during its grace period, `{prefix}:search:{id}:grace`
//! (expiring when the grace ends, so Redis' clock alone decides, not the pods').
//!
//! Each process holds one pub/sub connection for all its streams and routes messages to
//! local subscribers by channel, so 10,000 open streams cost one Redis connection, not
//! 10,000.

use crate::ids::SearchId;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use futures_util::StreamExt;
use redis::{AsyncCommands, aio::ConnectionManager};
use tokio::sync::broadcast;

use super::envelope::{Envelope, LIVE_CAPACITY, REPLAY_TTL, Subscription};
use crate::{CoreError, CoreResult, lead::SearchEvent};

/// Appends events to a search's replay list and publishes each with its number, in one
/// round trip. KEYS[1]: the list; KEYS[2]: the channel; ARGV[1]: TTL in seconds; ARGV[2..]:
/// event JSON. Returns the number of the last event.
const PUBLISH_ALL: &str = r#"
local id = 0
for i = 2, #ARGV do
  id = redis.call('RPUSH', KEYS[1], ARGV[i])
  redis.call('PUBLISH', KEYS[2], '{"id":' .. id .. ',"event":' .. ARGV[i] .. '}')
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return id
"#;

/// A page's events and the search's new checkpoint in one atomic step. KEYS[1]: the list;
/// KEYS[2]: the channel; KEYS[3]: the checkpoint; ARGV[1]: TTL in seconds; ARGV[2]: the
/// checkpoint; ARGV[3..]: event JSON.
const PUBLISH_PAGE: &str = r#"
for i = 3, #ARGV do
  local id = redis.call('RPUSH', KEYS[1], ARGV[i])
  redis.call('PUBLISH', KEYS[2], '{"id":' .. id .. ',"event":' .. ARGV[i] .. '}')
end
if #ARGV > 2 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[1])
return 1
"#;

/// Pause before the one retry of a command whose connection had dropped.
const RECONNECT_PAUSE: std::time::Duration = std::time::Duration::from_millis(200);

/// Event bus over Redis.
#[derive(Clone)]
pub struct RedisBus {
    client: redis::Client,
    conn: ConnectionManager,
    prefix: String,
    router: Arc<tokio::sync::Mutex<Option<Arc<Router>>>>,
    publish_all: redis::Script,
    publish_page: redis::Script,
    /// Expiry of a search's events, checkpoint and cancel flag after its last event.
    replay_ttl: std::time::Duration,
}

/// The process's pub/sub connection and its local subscribers.
struct Router {
    sink: tokio::sync::Mutex<redis::aio::PubSubSink>,
    routes: Mutex<HashMap<String, broadcast::Sender<Arc<Envelope>>>>,
    alive: std::sync::atomic::AtomicBool,
}

impl RedisBus {
    /// Connects to `url`; every key starts with `prefix` (tests use their own).
    pub async fn connect(url: &str, prefix: &str) -> CoreResult<Self> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client.clone()).await?;
        Ok(Self {
            client,
            conn,
            prefix: prefix.to_owned(),
            router: Arc::new(tokio::sync::Mutex::new(None)),
            publish_all: redis::Script::new(PUBLISH_ALL),
            publish_page: redis::Script::new(PUBLISH_PAGE),
            replay_ttl: REPLAY_TTL,
        })
    }

    /// See [`super::EventBus::with_replay_ttl`].
    pub fn with_replay_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.replay_ttl = ttl;
        self
    }

    /// See [`super::EventBus::replay_ttl`].
    pub fn replay_ttl(&self) -> std::time::Duration {
        self.replay_ttl
    }

    fn events_key(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}:events", self.prefix)
    }

    fn channel(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}", self.prefix)
    }

    fn checkpoint_key(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}:checkpoint", self.prefix)
    }

    fn cancel_key(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}:cancel", self.prefix)
    }

    fn detached_key(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}:detached", self.prefix)
    }

    fn grace_key(&self, search_id: &SearchId) -> String {
        format!("{}:search:{search_id}:grace", self.prefix)
    }

    /// See [`super::EventBus::publish`].
    pub async fn publish(&self, search_id: &SearchId, event: &SearchEvent) -> CoreResult<u64> {
        self.publish_all(search_id, std::slice::from_ref(event)).await
    }

    /// See [`super::EventBus::publish_all`].
    pub async fn publish_all(&self, search_id: &SearchId, events: &[SearchEvent]) -> CoreResult<u64> {
        let mut invocation = self.publish_all.key(self.events_key(search_id));
        invocation.key(self.channel(search_id)).arg(self.replay_ttl.as_secs());
        for event in events {
            invocation.arg(serde_json::to_string(event).map_err(|e| CoreError::Internal(e.to_string()))?);
        }
        // Retried like a page (see `publish_page`).
        Ok(self
            .retry_once_if_dropped(|mut conn| {
                let invocation = &invocation;
                async move { invocation.invoke_async(&mut conn).await }
            })
            .await?)
    }

    /// See [`super::EventBus::publish_page`].
    pub async fn publish_page(&self, search_id: &SearchId, events: &[SearchEvent], checkpoint: &str) -> CoreResult<()> {
        let mut invocation = self.publish_page.key(self.events_key(search_id));
        invocation
            .key(self.channel(search_id))
            .key(self.checkpoint_key(search_id))
            .arg(self.replay_ttl.as_secs())
            .arg(checkpoint);
        for event in events {
            invocation.arg(serde_json::to_string(event).map_err(|e| CoreError::Internal(e.to_string()))?);
        }
        // Retried once if the connection had dropped (Redis restarted): the write almost
        // always failed before Redis ran it; if Redis did run it, the page's events are in
        // the buffer twice, and the relay drops repeated leads, so none shows twice.
        let _: i64 = self
            .retry_once_if_dropped(|mut conn| {
                let invocation = &invocation;
                async move { invocation.invoke_async(&mut conn).await }
            })
            .await?;
        Ok(())
    }

    /// See [`super::EventBus::checkpoint`].
    pub async fn checkpoint(&self, search_id: &SearchId) -> CoreResult<Option<String>> {
        let key = self.checkpoint_key(search_id);
        Ok(self
            .retry_once_if_dropped(|mut conn| {
                let key = key.clone();
                async move { conn.get(key).await }
            })
            .await?)
    }

    /// Runs a command, once more if the connection had dropped: the connection manager
    /// reconnects by itself, but the first command after Redis restarted fails. Meant for
    /// commands that are idempotent, or whose repetition the readers tolerate.
    async fn retry_once_if_dropped<T, F, Fut>(&self, command: F) -> redis::RedisResult<T>
    where
        F: Fn(ConnectionManager) -> Fut,
        Fut: std::future::Future<Output = redis::RedisResult<T>>,
    {
        match command(self.conn.clone()).await {
            Err(e) if e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal() => {
                tokio::time::sleep(RECONNECT_PAUSE).await;
                command(self.conn.clone()).await
            }
            other => other,
        }
    }

    /// The replay buffer's events numbered above `after`.
    async fn read_events(&self, search_id: &SearchId, after: u64) -> CoreResult<Vec<Envelope>> {
        let key = self.events_key(search_id);
        let raw: Vec<String> = self
            .retry_once_if_dropped(|mut conn| {
                let key = key.clone();
                async move { conn.lrange(key, after as isize, -1).await }
            })
            .await?;
        raw.iter()
            .enumerate()
            .map(|(i, json)| {
                serde_json::from_str::<SearchEvent>(json)
                    .map(|event| Envelope {
                        id: after + i as u64 + 1,
                        event,
                    })
                    .map_err(|e| CoreError::Internal(format!("bad event in replay buffer: {e}")))
            })
            .collect()
    }

    /// See [`super::EventBus::replay`].
    pub async fn replay(&self, search_id: &SearchId, after: u64) -> CoreResult<Vec<Envelope>> {
        self.read_events(search_id, after).await
    }

    /// See [`super::EventBus::subscribe`]: joins the live channel first, then reads the
    /// replay buffer, so an event is in one or the other (or both), never neither.
    pub async fn subscribe(&self, search_id: &SearchId, after: u64) -> CoreResult<Subscription> {
        let router = self.router().await?;
        let live = router.route(&self.channel(search_id)).await?;
        let replay = self.read_events(search_id, after).await?;
        Ok(Subscription { replay, live })
    }

    /// See [`super::EventBus::cancel`].
    pub async fn cancel(&self, search_id: &SearchId) -> CoreResult<()> {
        let (key, ttl) = (self.cancel_key(search_id), self.replay_ttl.as_secs());
        self.retry_once_if_dropped(|mut conn| {
            let key = key.clone();
            async move { conn.set_ex::<_, _, ()>(key, 1, ttl).await }
        })
        .await?;
        Ok(())
    }

    /// See [`super::EventBus::detach`]: the grace key first, in the same transaction, so
    /// no reader sees `detached` without it.
    pub async fn detach(&self, search_id: &SearchId, grace: std::time::Duration) -> CoreResult<()> {
        let (detached, grace_key) = (self.detached_key(search_id), self.grace_key(search_id));
        let ttl = self.replay_ttl.as_secs() + grace.as_secs() + 1;
        let grace_ms = grace.as_millis() as u64;
        self.retry_once_if_dropped(|mut conn| {
            let mut pipe = redis::pipe();
            pipe.atomic();
            if grace_ms > 0 {
                pipe.pset_ex(&grace_key, 1, grace_ms).ignore();
            }
            pipe.set_ex(&detached, 1, ttl).ignore();
            async move { pipe.query_async::<()>(&mut conn).await }
        })
        .await?;
        Ok(())
    }

    /// See [`super::EventBus::attach`].
    pub async fn attach(&self, search_id: &SearchId) -> CoreResult<()> {
        let keys = [self.detached_key(search_id), self.grace_key(search_id)];
        self.retry_once_if_dropped(|mut conn| {
            let keys = keys.clone();
            async move { conn.del::<_, ()>(&keys).await }
        })
        .await?;
        Ok(())
    }

    /// See [`super::EventBus::is_cancelled`]: the cancel flag, or detached with the grace
    /// over (its key expired), read in one round trip.
    pub async fn is_cancelled(&self, search_id: &SearchId) -> CoreResult<bool> {
        let keys = [
            self.cancel_key(search_id),
            self.detached_key(search_id),
            self.grace_key(search_id),
        ];
        let found: Vec<Option<String>> = self
            .retry_once_if_dropped(|mut conn| {
                let keys = keys.clone();
                async move { conn.mget(&keys).await }
            })
            .await?;
        let set = |i: usize| found.get(i).is_some_and(Option::is_some);
        Ok(set(0) || (set(1) && !set(2)))
    }

    /// Drops the local route when its last subscriber is gone.
    pub async fn release(&self, search_id: &SearchId) {
        let router = self.router.lock().await.clone();
        if let Some(router) = router {
            router.unroute(&self.channel(search_id)).await;
        }
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> bool {
        let mut conn = self.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut conn).await.is_ok()
    }

    /// The live router, (re)connecting it if needed.
    async fn router(&self) -> CoreResult<Arc<Router>> {
        let mut slot = self.router.lock().await;
        if let Some(router) = slot.as_ref()
            && router.alive.load(std::sync::atomic::Ordering::Acquire)
        {
            return Ok(router.clone());
        }
        let (sink, mut stream) = self.client.get_async_pubsub().await?.split();
        let router = Arc::new(Router {
            sink: tokio::sync::Mutex::new(sink),
            routes: Mutex::new(HashMap::new()),
            alive: std::sync::atomic::AtomicBool::new(true),
        });
        let reader = router.clone();
        tokio::spawn(async move {
            while let Some(msg) = stream.next().await {
                let channel = msg.get_channel_name().to_owned();
                let Ok(payload) = msg.get_payload::<String>() else {
                    continue;
                };
                let Ok(envelope) = serde_json::from_str::<Envelope>(&payload) else {
                    tracing::warn!(%channel, "undecodable event on the bus");
                    continue;
                };
                if let Some(sender) = reader.routes().get(&channel) {
                    let _ = sender.send(Arc::new(envelope));
                }
            }
            tracing::warn!("Redis pub/sub connection closed; the next subscription reconnects");
            reader.alive.store(false, std::sync::atomic::Ordering::Release);
            // Wake subscribers so they notice (their receivers close).
            reader.routes().clear();
        });
        *slot = Some(router.clone());
        Ok(router)
    }
}

impl Router {
    fn routes(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<Envelope>>>> {
        self.routes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver of `channel`'s events, subscribing to it in Redis for the first one.
    ///
    /// Both this and [`Self::unroute`] decide and send their command under the sink's
    /// lock. Deciding outside it let a stream that ended (its route now unused) and a
    /// stream of the same search starting on the same process (a browser reconnecting)
    /// send UNSUBSCRIBE after the new route's SUBSCRIBE: Redis then delivered nothing to
    /// the new stream, which timed out silent. Under the lock, a receiver is also handed
    /// out only once Redis delivers to its channel.
    async fn route(&self, channel: &str) -> CoreResult<broadcast::Receiver<Arc<Envelope>>> {
        let mut sink = self.sink.lock().await;
        let (receiver, is_new) = {
            let mut routes = self.routes();
            match routes.get(channel) {
                Some(sender) => (sender.subscribe(), false),
                None => {
                    let (sender, receiver) = broadcast::channel(LIVE_CAPACITY);
                    routes.insert(channel.to_owned(), sender);
                    (receiver, true)
                }
            }
        };
        if is_new && let Err(e) = sink.subscribe(channel).await {
            // Not subscribed: the next subscriber tries again.
            self.routes().remove(channel);
            return Err(e.into());
        }
        Ok(receiver)
    }

    /// Drops `channel`'s route and its Redis subscription when no receiver is left (see
    /// [`Self::route`] for why under the sink's lock).
    async fn unroute(&self, channel: &str) {
        let mut sink = self.sink.lock().await;
        let unused = {
            let mut routes = self.routes();
            let unused = routes.get(channel).is_some_and(|s| s.receiver_count() == 0);
            if unused {
                routes.remove(channel);
            }
            unused
        };
        if unused && let Err(e) = sink.unsubscribe(channel).await {
            tracing::warn!(error = %e, "could not unsubscribe");
        }
    }
}
