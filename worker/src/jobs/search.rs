//! `SearchJobV1`: run one search and publish its events.
//!
//! Safe to retry: a re-run resumes from the search's checkpoint, so it asks Google only
//! for the pages the earlier run did not finish and sends only their leads (the API relay
//! also drops any place id it already sent); settling usage happens once per search id.

use leadgen_core::ids::SearchId;
use std::{sync::Arc, time::Instant};

use leadgen_core::telemetry::metrics::{GaugeGuard, metrics};
use leadgen_core::{
    api_key,
    bus::EventBus,
    delivery::DeliveryStatus,
    ids::WorkspaceId,
    jobs::SearchJobV1,
    lead::{BusinessFound, SearchComplete, SearchEvent, SearchFailed, SearchStarted},
    search::{
        self, Checkpoint, Coverage, EventSink, LeadAllowance, Resume, SearchFailure, SearchOutcome, SearchPlan,
        SearchStatus, SearchStopped, StopReason, Upstream,
    },
    spend::{LiveSpendCap, SpendCap},
    store::{SearchOutcomeRecord, SearchRun, WorkspacePlans},
    usage::{Tier, UsageService},
};
use secrecy::ExposeSecret;
use tracing::Instrument;

use super::{Job, JobError};
use crate::WorkerDeps;
use crate::enrichment;

/// The search job kind (see `registry`).
pub struct SearchJob;

impl Job for SearchJob {
    type Payload = SearchJobV1;

    async fn run(payload: SearchJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        let span = tracing::info_span!("search", search_id = %payload.search_id);
        handle(payload, &deps).instrument(span).await;
        // Every outcome, failures on our side included, has been told to the client
        // (an `error` event) and settled: there is nothing left to retry.
        Ok(())
    }
}

type BoxDynError = Box<dyn std::error::Error + Send + Sync>;

/// The spec's message when no key is configured.
pub const NO_KEY: &str = "Please add your Google Places API key in Settings before searching";

/// Publishes a search's events on the bus and counts the leads it sent; in an enriched
/// search, queues each sent lead's website for reading.
struct BusSink<'a> {
    bus: &'a EventBus,
    search_id: &'a SearchId,
    delivered: u32,
    /// Pages of events published by this run (0: Google answered nothing yet).
    pages: u32,
    enrich: Option<enrichment::Dispatch<'a>>,
    /// The workspace's spend cap, when it has one, kept current after each page.
    cap: Option<CapWatch<'a>>,
    /// The workspace whose place memory records each page's sent places (issue #29).
    memory: PlaceMemory<'a>,
}

/// Keeps a running search's share of its workspace's monthly cap current: after each
/// page it records what the search has spent so far (so the workspace's other running
/// searches count it) and takes what the others have spent (so this one counts theirs).
/// Searches running at once may then pass the cap together by at most what each has in
/// flight between two pages, not by everything each could spend.
struct CapWatch<'a> {
    live: LiveSpendCap,
    month: String,
    deps: &'a WorkerDeps,
    job: &'a SearchJobV1,
}

impl CapWatch<'_> {
    async fn after_page(&self, checkpoint: &Checkpoint) {
        let spent = checkpoint.progress().requests.report(&self.deps.prices);
        record_cost(self.deps, self.job, &spent).await;
        match self
            .deps
            .store
            .month_spend_usd(&self.job.workspace(), &self.month, Some(&self.job.search_id))
            .await
        {
            Ok(others) => self.live.update(others),
            // What was left at the last page still holds; the next page reads again.
            Err(e) => tracing::warn!(error = %e, "could not read the workspace's spend; keeping the last figure"),
        }
    }
}

/// Sent places gathered before the place memory is written: a quick search's (at most 60)
/// go in one statement at its end rather than one a page, a full search's every ten pages
/// or so. The memory's upsert was the costliest of a quick search's statements
/// (docs/benchmarks.md, session 17).
const REMEMBER_EVERY: usize = 200;

/// Where a search's sent places are remembered: its workspace's place memory, which the
/// store skips while the workspace has it off. Both modes pass through here (the API's
/// embedded mode runs this same job in-process).
struct PlaceMemory<'a> {
    store: &'a leadgen_core::store::Store,
    workspace: WorkspaceId,
    /// Sent and not written yet. A run that dies before writing them leaves them to its
    /// retry, which starts with every place the earlier runs sent.
    unrecorded: Vec<String>,
}

impl PlaceMemory<'_> {
    /// Notes the places of one emitted page's `business_found` events, by id only, and
    /// writes what has gathered once it is [`REMEMBER_EVERY`].
    async fn note(&mut self, events: &[SearchEvent]) {
        self.unrecorded.extend(events.iter().filter_map(|e| match e {
            SearchEvent::BusinessFound(found) => Some(found.lead.place_id.clone()),
            _ => None,
        }));
        if self.unrecorded.len() >= REMEMBER_EVERY {
            self.record().await;
        }
    }

    /// Writes what was noted and not written yet. A failure is logged, never the search's:
    /// the leads went out already.
    async fn record(&mut self) {
        if self.unrecorded.is_empty() {
            return;
        }
        let ids = std::mem::take(&mut self.unrecorded);
        if let Err(e) = self.store.remember_places(&self.workspace, &ids).await {
            tracing::warn!(error = %e, places = ids.len(), "could not record the search's places in the place memory");
        }
    }
}

impl EventSink for BusSink<'_> {
    async fn emit(&mut self, events: Vec<SearchEvent>, checkpoint: &Checkpoint) -> Result<(), SearchStopped> {
        let leads = events
            .iter()
            .filter(|e| matches!(e, SearchEvent::BusinessFound(BusinessFound { .. })))
            .count();
        self.bus
            .publish_page(self.search_id, &events, &checkpoint.encode())
            .await
            .map_err(|e| SearchStopped(format!("event bus: {e}")))?;
        if self.delivered == 0 && leads > 0 {
            observe_first_lead(self.search_id);
        }
        self.memory.note(&events).await;
        self.delivered += leads as u32;
        self.pages += 1;
        if let Some(cap) = &self.cap {
            cap.after_page(checkpoint).await;
        }
        if let Some(enrich) = self.enrich.as_mut() {
            enrich.queue_leads(&events).await;
        }
        Ok(())
    }

    async fn cancelled(&mut self) -> bool {
        self.bus.is_cancelled(self.search_id).await.unwrap_or(false)
    }
}

/// Records how long the search's first lead took from its creation (the first-lead SLO,
/// docs/operations.md). Ids that carry no time (tests') are not counted.
fn observe_first_lead(search_id: &SearchId) {
    let Some(created) = search_id.created_at_ms() else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(created);
    metrics()
        .search_first_lead
        .observe(now.saturating_sub(created) as f64 / 1_000.0);
}

/// Counts what a finished search asked of Google, by SKU, and what it cost.
fn count_spend(requests: &search::Requests, prices: &search::PriceTable) {
    use leadgen_core::search::Sku;
    for (sku, label, n) in [
        (Sku::IdsOnly, "ids_only", requests.ids_only),
        (Sku::Pro, "pro", requests.pro),
        (Sku::Enterprise, "enterprise", requests.enterprise),
        (Sku::Details, "details", requests.details),
    ] {
        metrics().places_spend(label, n, f64::from(n) * prices.per_request(sku));
    }
}

/// Grants a full search more leads from the user's daily allowance as they stream.
struct UsageAllowance<'a> {
    usage: &'a UsageService,
    workspace: &'a WorkspaceId,
    search_id: &'a SearchId,
    tier: Tier,
}

impl LeadAllowance for UsageAllowance<'_> {
    async fn grant(&self, wanted: u32) -> u32 {
        self.usage
            .extend(self.workspace, self.search_id, self.tier, wanted)
            .await
            .inspect_err(|e| tracing::warn!(error = %e, "could not extend the lead allowance"))
            .unwrap_or(0)
    }
}

/// What a listener is told when the search was cancelled.
pub const CANCELLED: &str = "This search was cancelled. The leads it found so far are above.";

/// What a search stopped by its workspace's monthly spend cap says (`spend_cap`).
pub fn spend_cap_notice(cap_usd: f64) -> String {
    format!(
        "Stopped at this workspace's monthly spend cap of {} on its Google key: the next request would have passed it. An owner can raise the cap in Settings.",
        leadgen_core::money::format_usd(cap_usd)
    )
}

/// What the client is told when the job fails on our side (the cause is logged).
pub const JOB_FAILED: &str = "Search failed on our side. Please try again.";

/// Runs one search job. Failures on our side (database, bus) end the client's stream with
/// an error event rather than leaving it waiting; they are not retried, since the client
/// has already been told.
async fn handle(job: SearchJobV1, deps: &WorkerDeps) {
    let metrics = metrics();
    let _running = GaugeGuard::new(&metrics.jobs_running);
    let started = Instant::now();
    let mut resume = Resume::fresh();
    match deps.store.start_search(&job.workspace(), &job.search_id).await {
        Ok(SearchRun::First) => {}
        Ok(SearchRun::Retry) => {
            metrics.job_finished("retried");
            resume = resume_point(&job.search_id, &deps.bus).await;
            tracing::info!(
                delivered = resume.delivered.len(),
                checkpoint = ?resume.checkpoint,
                "search job is a retry; resuming"
            );
        }
        Ok(SearchRun::AlreadyFinished) => {
            // A copy re-queued while its first run was still finishing (a stopping
            // worker's heartbeat ends before its last jobs do): nothing to do, and no
            // second bill from Google.
            tracing::info!("search already finished; skipping the re-queued copy");
            return;
        }
        Err(e) => tracing::warn!(error = %e, "could not mark the search running"),
    }
    let result = run_job(&job, deps, resume).await;
    metrics.job_duration.observe(started.elapsed().as_secs_f64());
    metrics.job_finished(if result.is_ok() { "succeeded" } else { "failed" });
    if let Err(e) = result {
        tracing::error!(search_id = %job.search_id, error = %e, "search job failed");
        let _ = deps
            .bus
            .publish(
                &job.search_id,
                &SearchEvent::Error(SearchFailed {
                    message: JOB_FAILED.into(),
                }),
            )
            .await;
        let _ = deps
            .store
            .settle_search(&job.workspace(), &job.search_id, SearchStatus::Failed, 0)
            .await;
        let _ = deps
            .store
            .record_search_error(&job.workspace(), &job.search_id, JOB_FAILED)
            .await;
        let failed = SearchEvent::Error(SearchFailed {
            message: JOB_FAILED.into(),
        });
        super::webhook::emit_search_end(deps, &job.workspace(), &job.user_id, &job.search_id, &failed).await;
    }
}

/// Where an interrupted run of `search_id` stopped: its checkpoint and the leads it sent
/// (read back from the replay buffer). Unreadable state means starting over, which costs
/// Google requests again but loses nothing (the relay drops repeated leads).
async fn resume_point(search_id: &SearchId, bus: &EventBus) -> Resume {
    let checkpoint = match bus.checkpoint(search_id).await {
        Ok(stored) => stored.as_deref().and_then(Checkpoint::decode),
        Err(e) => {
            tracing::warn!(error = %e, "could not read the search's checkpoint; starting over");
            return Resume::fresh();
        }
    };
    if checkpoint.is_none() {
        return Resume::fresh();
    }
    match bus.replay(search_id, 0).await {
        Ok(envelopes) => Resume {
            checkpoint,
            delivered: Resume::delivered_from(envelopes.iter().map(|e| &e.event)),
        },
        Err(e) => {
            tracing::warn!(error = %e, "could not read the search's events; starting over");
            Resume::fresh()
        }
    }
}

async fn run_job(job: &SearchJobV1, deps: &WorkerDeps, resume: Resume) -> Result<(), BoxDynError> {
    let retry = resume.checkpoint.is_some();
    let mut sink = BusSink {
        bus: &deps.bus,
        search_id: &job.search_id,
        delivered: resume.delivered.len() as u32,
        pages: 0,
        enrich: job
            .search
            .enrich()
            .then(|| enrichment::Dispatch::new(&deps.enrich_queue, &deps.bus, &job.search_id)),
        cap: None,
        memory: PlaceMemory {
            store: &deps.store,
            workspace: job.workspace(),
            unrecorded: resume.delivered.iter().map(|lead| lead.place_id.clone()).collect(),
        },
    };
    let params = job.search.params();
    if resume.checkpoint.is_none() {
        sink.bus
            .publish(
                &job.search_id,
                &SearchEvent::Start(SearchStarted {
                    business_type: params.business_type.clone(),
                    location: params.location.clone(),
                    search_id: Some(job.search_id.clone()),
                }),
            )
            .await?;
    }

    let workspace = job.workspace();
    let tier = deps.store.tier(&workspace).await?;
    let resumed = resume.checkpoint.is_some();
    // Never run past a cap that could not be read: the job fails before any request.
    sink.cap = spend_cap(job, deps).await?;
    let spend_cap = sink.cap.as_ref().map(|cap| cap.live.clone());
    let outcome = run(job, deps, tier, spend_cap.clone(), &mut sink, resume).await;
    // Whatever the outcome, before anyone hears it: a search that has ended is in the
    // memory (an `exclude` search right after it leaves its places out).
    sink.memory.record().await;
    // Nothing came back from Google, in this run or an earlier one (a refused key).
    let unanswered = !resumed && sink.pages == 0;
    let delivered = i64::from(sink.delivered);
    let (status, terminal) = match outcome {
        Ok((mut outcome, key_saved_at)) => {
            if let Some(dispatch) = sink.enrich.take() {
                // `complete` carries the enriched leads: wait for their sites (or time out).
                let found = dispatch.collect(&outcome.leads, retry).await;
                enrichment::attach(&mut outcome.leads, found);
            }
            deps.store
                .settle_search(&job.workspace(), &job.search_id, SearchStatus::Complete, delivered)
                .await?;
            let cost = outcome.requests.report(&deps.prices);
            count_spend(&outcome.requests, &deps.prices);
            record_cost(deps, job, &cost).await;
            // The key this search opened: read once, at its start.
            let usage = deps.usage.report(&job.workspace(), tier, Some(key_saved_at)).await?;
            let notice = notice(&outcome, job, spend_cap.as_ref(), &deps.usage, tier);
            let excluding = job.search.exclude() != search::Exclude::None;
            let new_count = outcome.leads.len() as u32;
            let found_count = excluding.then_some(new_count + outcome.excluded);
            let new_count = excluding.then_some(new_count);
            if outcome.stop.is_some() || excluding {
                // The history shows why it ended early and, for a monitor's run, how many
                // of the places it found were new.
                let record = SearchOutcomeRecord {
                    stop_reason: outcome.stop.map(|reason| reason.as_str()),
                    found_count,
                    new_count,
                };
                deps.store
                    .record_search_outcome(&job.workspace(), &job.search_id, &record)
                    .await?;
            }
            (
                SearchStatus::Complete,
                Some(SearchEvent::Complete(SearchComplete {
                    results: outcome.leads,
                    search: params,
                    usage,
                    cost: Some(cost),
                    stop_reason: outcome.stop,
                    notice,
                    completeness: outcome.completeness,
                    found_count,
                    new_count,
                })),
            )
        }
        Err(Failure::Stopped(reason)) => {
            tracing::info!(%reason, "search stopped");
            deps.store
                .settle_search(&job.workspace(), &job.search_id, SearchStatus::Cancelled, delivered)
                .await?;
            record_cost_so_far(deps, job).await;
            // Whoever still listens (a reconnected or re-opened background search) learns
            // that it ended; a quick search's own stream is gone already.
            (
                SearchStatus::Cancelled,
                Some(SearchEvent::Error(SearchFailed {
                    message: CANCELLED.to_owned(),
                })),
            )
        }
        Err(Failure::Message(message)) => {
            deps.store
                .settle_search(&job.workspace(), &job.search_id, SearchStatus::Failed, delivered)
                .await?;
            record_cost_so_far(deps, job).await;
            deps.store
                .record_search_error(&job.workspace(), &job.search_id, &message)
                .await?;
            if unanswered
                && deps
                    .store
                    .refund_unanswered_search(&job.workspace(), &job.search_id)
                    .await?
            {
                tracing::info!("the search failed before Google answered: its monthly search is given back");
            }
            (SearchStatus::Failed, Some(SearchEvent::Error(SearchFailed { message })))
        }
    };
    if let Some(event) = terminal {
        deps.bus.publish(&job.search_id, &event).await?;
        if status != SearchStatus::Cancelled {
            super::webhook::emit_search_end(deps, &job.workspace(), &job.user_id, &job.search_id, &event).await;
        }
        if status == SearchStatus::Complete && delivered > 0 && job.search.coverage() == Coverage::Full {
            queue_delivery(deps, job).await;
        }
        if let SearchEvent::Complete(complete) = &event {
            // A saved search's run: its new leads go where the saved search says.
            super::delivery::queue_saved_run(deps, job, &complete.results).await;
        }
    }
    tracing::info!(search_id = %job.search_id, status = %status, delivered, "search finished");
    Ok(())
}

/// Queues the finished full search's automatic delivery, if its owner chose one (#26).
/// A failure to queue it is recorded in the history, never fails the search.
async fn queue_delivery(deps: &WorkerDeps, job: &SearchJobV1) {
    let preference = match deps.store.delivery_preference(&job.workspace()).await {
        Ok(Some(preference)) => preference,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the delivery preference");
            return;
        }
    };
    let delivery = leadgen_core::jobs::DeliveryJobV1 {
        user_id: job.user_id.clone(),
        workspace_id: Some(job.workspace()),
        search_id: job.search_id.clone(),
        kind: preference.kind,
        spreadsheet_id: preference.spreadsheet_id,
        saved_search: None,
    };
    let (status, detail) = match deps.deliveries.push(delivery).await {
        Ok(()) => (DeliveryStatus::Pending, None),
        Err(e) => {
            tracing::warn!(error = %e, "could not queue the delivery");
            (DeliveryStatus::Failed, Some("the delivery could not be queued"))
        }
    };
    if let Err(e) = deps
        .store
        .record_search_delivery(&job.workspace(), &job.search_id, preference.kind, status, detail)
        .await
    {
        tracing::warn!(error = %e, "could not record the delivery");
    }
}

/// Records what the search cost (metadata for the user's history); a failure to record
/// it does not fail the search.
async fn record_cost(deps: &WorkerDeps, job: &SearchJobV1, cost: &search::SearchCost) {
    if let Err(e) = deps
        .store
        .record_search_cost(
            &job.workspace(),
            &job.search_id,
            job.search.coverage().as_str(),
            i64::from(cost.billable_requests),
            cost.cost_usd,
        )
        .await
    {
        tracing::warn!(error = %e, "could not record the search's cost");
    }
}

/// Records what a search that did not complete (cancelled, or failed part-way) spent
/// before it ended, from its last checkpoint: Google bills those requests, so the month's
/// spend and the spend cap count them. Nothing checkpointed: nothing to record.
async fn record_cost_so_far(deps: &WorkerDeps, job: &SearchJobV1) {
    let checkpoint = match deps.bus.checkpoint(&job.search_id).await {
        Ok(stored) => stored.as_deref().and_then(Checkpoint::decode),
        Err(e) => {
            tracing::warn!(error = %e, "could not read the search's checkpoint to record its cost");
            None
        }
    };
    if let Some(checkpoint) = checkpoint {
        let requests = checkpoint.progress().requests;
        record_cost(deps, job, &requests.report(&deps.prices)).await;
    }
}

/// What the workspace's monthly spend cap leaves this search, if it has a cap: the cap
/// less what the workspace's other searches of the search's month cost, running ones'
/// spend so far included (this search's own requests, an earlier run's included, are
/// counted as it runs). [`CapWatch`] keeps it current while the search runs.
async fn spend_cap<'a>(job: &'a SearchJobV1, deps: &'a WorkerDeps) -> leadgen_core::CoreResult<Option<CapWatch<'a>>> {
    let workspace = job.workspace();
    let Some(cap_cents) = deps.store.spend_cap_cents(&workspace).await? else {
        return Ok(None);
    };
    let month = match deps.store.search_record(&workspace, &job.search_id).await? {
        Some(record) => record.month,
        None => leadgen_core::usage::periods(chrono::Utc::now()).month,
    };
    let spent = deps
        .store
        .month_spend_usd(&workspace, &month, Some(&job.search_id))
        .await?;
    Ok(Some(CapWatch {
        live: LiveSpendCap::new(SpendCap::new(cap_cents, spent)),
        month,
        deps,
        job,
    }))
}

/// What the user should know about a finished search's results, if anything.
fn notice(
    outcome: &SearchOutcome,
    job: &SearchJobV1,
    spend_cap: Option<&LiveSpendCap>,
    usage: &UsageService,
    tier: Tier,
) -> Option<String> {
    match outcome.stop {
        Some(StopReason::SpendCap) => Some(spend_cap_notice(spend_cap.map_or(0.0, LiveSpendCap::cap_usd))),
        Some(StopReason::MaxCost) => Some(format!(
            "Stopped at your budget of {}: the next request would have cost more. Raise the budget to find the rest.",
            leadgen_core::money::format_usd(job.search.max_cost_usd().unwrap_or_default())
        )),
        Some(StopReason::Allowance) => {
            let found = outcome.leads.len() as u64;
            let of_about = outcome
                .expected_places
                .map(u64::from)
                .filter(|expected| *expected > found)
                .map(|expected| format!(" of about {}", leadgen_core::usage::thousands(expected)))
                .unwrap_or_default();
            Some(format!(
                "Stopped: daily limit reached ({}{of_about}). {}",
                leadgen_core::usage::thousands(found),
                usage.exhausted_message(tier)
            ))
        }
        None if outcome.truncated => Some(
            "Some spots hold more businesses than Google lists for one place, so a few there may be missing.".into(),
        ),
        None => None,
    }
}

enum Failure {
    Stopped(String),
    Message(String),
}

/// Runs the search with the workspace's key; answers its outcome and when the key it
/// ran with was saved (the usage report's "add your key" advice reads it).
async fn run(
    job: &SearchJobV1,
    deps: &WorkerDeps,
    tier: Tier,
    spend_cap: Option<LiveSpendCap>,
    sink: &mut BusSink<'_>,
    resume: Resume,
) -> Result<(SearchOutcome, i64), Failure> {
    let opened = match deps.keys.open(&job.workspace()).await {
        Ok(Some(opened)) => opened,
        Ok(None) => return Err(Failure::Message(NO_KEY.to_owned())),
        Err(e) => {
            tracing::error!(error = %e, "could not open the user's key");
            return Err(Failure::Message(
                "Your API key could not be read. Please save it again in Settings.".into(),
            ));
        }
    };
    let key = opened.key.expose_secret();
    let key_id = api_key::fingerprint(key);
    let upstream = Upstream {
        client: &deps.places,
        api_key: key,
        key_id: &key_id,
        gate: &deps.gate,
        aggregate: deps.aggregate.as_ref(),
    };
    // Read once, before the search asks Google for anything.
    let excluded = match deps.store.excluded_places(&job.workspace(), job.search.exclude()).await {
        Ok(mut excluded) => {
            // A retry's memory holds what the earlier run sent: those are this search's
            // own leads, not places to leave out.
            for lead in &resume.delivered {
                excluded.remove(&lead.place_id);
            }
            excluded
        }
        Err(e) => {
            tracing::error!(error = %e, "could not read the place memory");
            return Err(Failure::Message(
                "This workspace's place memory could not be read, so places to leave out are unknown. Please try again."
                    .into(),
            ));
        }
    };
    let workspace = job.workspace();
    let plan_memory = WorkspacePlans::new(&deps.store, &workspace, deps.plan_memory_days);
    let plan = SearchPlan {
        search: &job.search,
        lead_budget: job.lead_budget,
        prices: deps.prices,
        concurrency: search::FULL_CONCURRENCY,
        spend_cap,
        excluded,
        fetch_missing: deps.fetch_missing,
        plan_memory: plan_memory.as_ref().map(|m| m as &dyn search::PlanMemory),
    };
    let allowance = UsageAllowance {
        usage: &deps.usage,
        workspace: &job.workspace(),
        search_id: &job.search_id,
        tier,
    };
    let result = match job.search.coverage() {
        Coverage::Quick => {
            search::run(
                &upstream,
                &plan,
                sink,
                &search::NoMoreLeads,
                &search::NoAreaCache,
                resume,
            )
            .await
        }
        Coverage::Full => search::run(&upstream, &plan, sink, &allowance, &deps.store, resume).await,
    };
    match result {
        Ok(outcome) => {
            // The key worked: the settings screen can say so.
            let _ = deps.keys.record_check(&job.workspace(), &opened, true).await;
            Ok((outcome, opened.updated_at))
        }
        Err(SearchFailure::Stopped(SearchStopped(reason))) => Err(Failure::Stopped(reason)),
        Err(SearchFailure::Refused(message)) => Err(Failure::Message(message)),
        Err(SearchFailure::Upstream(e)) => {
            if e.is_key_problem() {
                let _ = deps.keys.record_check(&job.workspace(), &opened, false).await;
            }
            tracing::warn!(error = %e, "search failed upstream");
            Err(Failure::Message(e.to_string()))
        }
    }
}
