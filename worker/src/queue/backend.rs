//! Our queue behind apalis' own `Backend` trait: apalis runs the worker (concurrency,
//! the retry layer, the handler's arguments), and this backend decides where jobs come
//! from and what becomes of them, with the store's rules ([`super::store`]) for either
//! store. Its middleware ([`Settle`]) settles each job once the worker's layers are done
//! with it: acknowledged, retried later, or given up.

use std::{
    marker::PhantomData,
    sync::Arc,
    task::{Context, Poll},
};

use apalis::prelude::{BoxDynError, Task, TaskBuilder};
use apalis_core::{
    backend::{Backend, BackendConfig, finalize::Ephemeral},
    error::AbortError,
    layers::{Layer, Service},
    task::task_id::TaskId,
    worker::context::WorkerContext,
};
use futures_util::{FutureExt, future::BoxFuture};
use leadgen_core::jobs::JobPayload;

use super::store::{Claimed, QueueError, Retried, Store};

/// A worker's consumer of one job kind's queue.
pub struct QueueBackend<P> {
    store: Store,
    worker: Arc<str>,
    /// The claim in flight.
    claim: Option<BoxFuture<'static, Result<Option<Claimed>, QueueError>>>,
    /// A claim failed: the consumer ends (apalis stops the worker; the registry's
    /// supervisor starts a new one once the store answers).
    failed: bool,
    payload: PhantomData<fn() -> P>,
}

impl<P: JobPayload> QueueBackend<P> {
    /// `worker`'s consumer of `store`.
    pub fn new(store: Store, worker: &str) -> Self {
        Self {
            store,
            worker: worker.into(),
            claim: None,
            failed: false,
            payload: PhantomData,
        }
    }

    /// The task apalis runs for `claimed`, or `None` (and the job given up) when its
    /// payload is not this kind's: running it again could not help.
    fn task(&self, claimed: Claimed) -> Option<Task<P>> {
        match serde_json::from_slice::<P>(&claimed.payload) {
            Ok(payload) => Some(
                TaskBuilder::new(payload)
                    .task_id(TaskId::from_string(claimed.id))
                    // Runs before this claim (apalis counts this one when it starts it).
                    .attempt(usize::try_from(claimed.attempts.saturating_sub(1)).unwrap_or(usize::MAX))
                    .build(),
            ),
            Err(error) => {
                tracing::error!(%error, queue = self.store.name(), id = %claimed.id, "unreadable job payload; dropped");
                let (store, worker) = (self.store.clone(), self.worker.clone());
                tokio::spawn(async move {
                    if let Err(error) = store.ack(&worker, &claimed.id).await {
                        tracing::warn!(%error, "could not drop an unreadable job");
                    }
                });
                None
            }
        }
    }
}

impl<P: JobPayload> Backend for QueueBackend<P> {
    type Task = Task<P>;
    type Error = QueueError;

    fn poll_ready(&mut self, _cx: &mut Context<'_>, _worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    /// Claims one job per call: a worker holds only what it is about to run, so idle
    /// workers (and new ones the autoscaler adds) share the queue, and a stopping worker
    /// holds no claimed-but-unstarted jobs. An empty answer returns `Pending` without
    /// waking anyone: [`super::gate::Gated`] decides when to ask again.
    fn poll_next(
        &mut self,
        cx: &mut Context<'_>,
        _worker: &WorkerContext,
    ) -> Poll<Option<Result<Self::Task, Self::Error>>> {
        if self.failed {
            return Poll::Ready(None);
        }
        loop {
            let claim = self.claim.get_or_insert_with(|| {
                let (store, worker) = (self.store.clone(), self.worker.clone());
                async move { store.claim(&worker).await }.boxed()
            });
            let answer = match claim.poll_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(answer) => answer,
            };
            self.claim = None;
            match answer {
                Ok(Some(claimed)) => {
                    if let Some(task) = self.task(claimed) {
                        return Poll::Ready(Some(Ok(task)));
                    }
                }
                Ok(None) => return Poll::Pending,
                Err(error) => {
                    self.failed = true;
                    return Poll::Ready(Some(Err(error)));
                }
            }
        }
    }

    fn poll_close(&mut self, _cx: &mut Context<'_>, _worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        // What the worker still holds is handed back by `Fleet::leave`, after the drain.
        Poll::Ready(Ok(()))
    }
}

impl<P: JobPayload> BackendConfig for QueueBackend<P> {
    type Args = P;
    type Id = ulid::Ulid;
    type Kind = Ephemeral;
    type Config = ();
    type Layer = Settle;

    fn config(&self) -> &Self::Config {
        &()
    }

    fn middleware(&mut self, _worker: &mut WorkerContext) -> Self::Layer {
        Settle {
            store: self.store.clone(),
            worker: self.worker.clone(),
        }
    }
}

/// Settles each job after the worker's own layers (the retry layer among them) are done
/// with it: done or a permanent failure (apalis' `AbortError`) is acknowledged, another
/// failure goes back to the queue for later ([`Store::retry`]). A job whose worker dies
/// first is never settled here: the fleet hands it back.
#[derive(Clone)]
pub struct Settle {
    store: Store,
    worker: Arc<str>,
}

impl<S> Layer<S> for Settle {
    type Service = Settled<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Settled {
            inner,
            store: self.store.clone(),
            worker: self.worker.clone(),
        }
    }
}

/// The service [`Settle`] wraps around a worker's handler.
#[derive(Clone)]
pub struct Settled<S> {
    inner: S,
    store: Store,
    worker: Arc<str>,
}

impl<S, P> Service<Task<P>> for Settled<S>
where
    S: Service<Task<P>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxDynError>,
    S::Response: Send + 'static,
    P: Send + 'static,
{
    type Response = S::Response;
    type Error = BoxDynError;
    type Future = BoxFuture<'static, Result<S::Response, BoxDynError>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, task: Task<P>) -> Self::Future {
        let id = task.ctx().task_id().map(ToString::to_string);
        let run = self.inner.call(task);
        let (store, worker) = (self.store.clone(), self.worker.clone());
        async move {
            let result = run.await.map_err(Into::into);
            if let Some(id) = id {
                let settled = match &result {
                    Err(error) if error.downcast_ref::<AbortError>().is_none() => {
                        store.retry(&worker, &id).await.map(|retried| {
                            if retried == Retried::GaveUp {
                                tracing::warn!(queue = store.name(), %id, "job failed too often; given up");
                            }
                        })
                    }
                    _ => store.ack(&worker, &id).await,
                };
                if let Err(error) = settled {
                    // The job stays held: if this worker stops, it is handed back and
                    // runs again (jobs are idempotent).
                    tracing::warn!(%error, queue = store.name(), %id, "could not settle a job");
                }
            }
            result
        }
        .boxed()
    }
}
