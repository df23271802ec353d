//! Search resources (issue #13): the caller's history, one search, its events again after
//! a dropped connection (`Last-Event-ID`), and cancelling it. Metadata only: a history
//! entry holds what was asked and how it went, never a lead; leads come back only from
//! the short-lived replay buffer while it lasts.

use futures_util::StreamExt;
use leadgen_core::{
    audit::{self, Action},
    delivery::{DeliveryKind, DeliveryStatus},
    ids::{SavedSearchId, SearchId, UserId, WorkspaceId},
    lead::SearchEvent,
    search::{Checkpoint, Coverage, SearchStatus, StopReason},
    spend::ClientLabel,
    store::{HistoryQuery, SearchSummary},
    workspace::Role,
};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Header, Path, Query},
    payload::Json,
};

use super::{
    ApiTags,
    search_export::{ExportFormat, SearchExport},
};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    relay,
    sse::{self, SearchEvents},
    state::AppState,
};

/// Most entries one page lists.
const MAX_PAGE: i64 = 100;
/// Entries a page lists by default.
const DEFAULT_PAGE: i64 = 20;

/// One search in the history. Figures a search does not have yet are left out, not null.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct SearchItem {
    /// Its id.
    pub id: SearchId,
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed (or an explicit area's label).
    pub location: String,
    /// How much of the area it covers.
    pub coverage: Coverage,
    /// The options it was run with (filters, budget, area), as sent.
    pub options: serde_json::Value,
    /// Whether it keeps running without a listener.
    pub background: bool,
    /// Where it stands.
    pub status: SearchStatus,
    /// How far it has got (while running, once it fetched something).
    pub progress: Option<HistoryProgress>,
    /// Leads sent (once finished).
    pub leads: Option<i64>,
    /// Requests Google billed (once finished).
    pub billable_requests: Option<i64>,
    /// US dollars at list prices (once finished).
    pub cost_usd: Option<f64>,
    /// Why it failed.
    pub error_message: Option<String>,
    /// Why a complete search stopped before covering everything: `allowance` (the daily
    /// lead allowance ran out), `max_cost` (the next request would have passed
    /// `maxCostUsd`) or `spend_cap` (it would have passed the workspace's monthly spend
    /// cap). Absent when it covered everything.
    pub stop_reason: Option<StopReason>,
    /// Its automatic delivery (a full search, when its owner chose one).
    pub delivery: Option<SearchDelivery>,
    /// When it was asked for (RFC 3339).
    pub started_at: String,
    /// When it finished (RFC 3339).
    pub finished_at: Option<String>,
    /// Whether its results can still be read again (`GET .../events`): for
    /// `replayMinutes` minutes after it finished, from memory.
    pub results_available: bool,
    /// The client it was run for (absent: none).
    pub client: Option<String>,
    /// The member who started it (a saved search's creator for a scheduled run).
    pub started_by: StartedBy,
    /// The saved search it was a run of (absent: none).
    pub saved_search_id: Option<SavedSearchId>,
    /// For a finished search with an `exclude` (a monitor's run, say): the matching places
    /// it found, those left out included.
    pub found_count: Option<i64>,
    /// For a finished search with an `exclude`: how many of them were new to the
    /// workspace's place memory (the leads it sent).
    pub new_count: Option<i64>,
}

/// Who started a search.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct StartedBy {
    /// Their user id.
    pub user_id: UserId,
    /// Their sign-in email.
    pub email: Option<String>,
}

/// How a search's automatic delivery went.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct SearchDelivery {
    /// Where it goes.
    pub kind: DeliveryKind,
    /// `pending` (queued, or trying again), `sent` or `failed`.
    pub status: DeliveryStatus,
    /// Where it went ("emailed to jane@agency.example"), or why not.
    pub detail: Option<String>,
}

/// A running search's progress, from its checkpoint.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct HistoryProgress {
    /// Leads sent so far (after filters and de-duplication), as the progress card counts.
    pub found: u32,
    /// Requests Google billed so far.
    pub billable_requests: u32,
    /// US dollars so far, at list prices.
    pub cost_usd: f64,
}

/// A page of the history.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct SearchHistory {
    /// Newest first.
    pub searches: Vec<SearchItem>,
    /// Pass as `cursor` for the next page; absent on the last one.
    pub next_cursor: Option<String>,
    /// How long results stay in memory after a search finishes, minutes.
    pub replay_minutes: u64,
}

/// Unix seconds as RFC 3339 text.
pub(crate) fn rfc3339(secs: i64) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp(secs, 0)
        .map(|t| t.to_rfc3339())
        .unwrap_or_default()
}

/// A history entry for `s`; a running search gets its progress from its checkpoint.
async fn item(state: &AppState, s: SearchSummary) -> Result<SearchItem, ApiError> {
    let now = leadgen_core::time::now_unix();
    let replay_secs = state.bus.replay_ttl().as_secs() as i64;
    let results_available = s.finished_at.is_none_or(|f| now - f < replay_secs);
    let status: SearchStatus = ApiError::stored("searches.status", &s.status)?;
    let progress = if status == SearchStatus::Running {
        progress_of(state, &s.id).await
    } else {
        None
    };
    let delivery = match s.delivery_kind {
        Some(kind) => Some(SearchDelivery {
            kind: ApiError::stored("searches.delivery_kind", &kind)?,
            status: match s.delivery_status {
                Some(word) => ApiError::stored("searches.delivery_status", &word)?,
                None => DeliveryStatus::Pending,
            },
            detail: s.delivery_detail,
        }),
        None => None,
    };
    Ok(SearchItem {
        id: s.id.clone(),
        business_type: s.business_type,
        location: s.location,
        coverage: ApiError::stored("searches.coverage", &s.coverage)?,
        options: serde_json::from_str(&s.options).unwrap_or_else(|_| serde_json::json!({})),
        background: s.background != 0,
        status,
        progress,
        leads: s.leads_delivered,
        billable_requests: s.billable_requests,
        cost_usd: s.cost_usd,
        error_message: s.error_message,
        stop_reason: s
            .stop_reason
            .map(|word| ApiError::stored("searches.stop_reason", &word))
            .transpose()?,
        delivery,
        started_at: rfc3339(s.created_at),
        finished_at: s.finished_at.map(rfc3339),
        results_available,
        client: s.client,
        started_by: StartedBy {
            user_id: UserId::from(s.started_by),
            email: s.started_by_email,
        },
        saved_search_id: s.saved_search_id,
        found_count: s.found_count,
        new_count: s.new_count,
    })
}

/// How far a running search has got: its checkpoint's counts (no lead data), if it has
/// fetched anything yet. A bus that does not answer leaves it out rather than failing the
/// history.
async fn progress_of(state: &AppState, id: &SearchId) -> Option<HistoryProgress> {
    let stored = state.bus.checkpoint(id).await.ok().flatten()?;
    let progress = Checkpoint::decode(&stored)?.progress();
    let prices = state.config.places.prices;
    Some(HistoryProgress {
        found: progress.found,
        billable_requests: progress.requests.billable(&prices),
        cost_usd: leadgen_core::search::round_cents(progress.requests.cost_usd(&prices)),
    })
}

/// The caller's search `id`, or 404.
async fn owned(state: &AppState, workspace: &WorkspaceId, id: &SearchId) -> Result<SearchSummary, ApiError> {
    state
        .store
        .search_summary(workspace, id)
        .await?
        .ok_or_else(|| ApiError::not_found("No search of yours has that id."))
}

/// The spec's statuses, for the `status` filter (text in the contract, with the product's
/// message for a word it does not know).
fn parse_status(value: &str) -> Result<SearchStatus, ApiError> {
    leadgen_core::words::parse(value).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_request",
            "status must be one of queued, running, complete, failed, cancelled.",
        )
    })
}

/// `{created_at}.{id}` of a page's last entry.
fn parse_cursor(cursor: &str) -> Result<(i64, String), ApiError> {
    cursor
        .split_once('.')
        .and_then(|(at, id)| Some((at.parse().ok()?, id.to_owned())))
        .filter(|(_, id)| !id.is_empty())
        .ok_or_else(|| ApiError::bad_request("invalid_request", "cursor is not one this API gave."))
}

/// Search history and search resources.
pub struct SearchesApi;

#[OpenApi(tag = "ApiTags::Leads", prefix_path = "/leads/searches")]
impl SearchesApi {
    /// Your searches, newest first
    ///
    /// Metadata only: what was asked, how it went, what it cost. No lead is ever stored;
    /// a search's results can be read again from memory for a few minutes after it
    /// finishes (`resultsAvailable`).
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/", method = "get", operation_id = "list_searches")]
    #[expect(
        clippy::too_many_arguments,
        reason = "poem-openapi takes each query parameter as an argument"
    )]
    async fn list_searches(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        /// Only searches with this status.
        status: Query<Option<String>>,
        /// Only searches of this business type.
        #[oai(name = "businessType", validator(max_length = 64))]
        business_type: Query<Option<String>>,
        /// Entries per page, 1 to 100 (default 20).
        limit: Query<Option<i64>>,
        /// `nextCursor` of the previous page.
        #[oai(validator(max_length = 200))]
        cursor: Query<Option<String>>,
        /// Only searches run for this client (the same label in any case; see
        /// `list_clients`).
        #[oai(validator(max_length = 400))]
        client: Query<Option<String>>,
    ) -> Result<Json<SearchHistory>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let limit = limit.0.unwrap_or(DEFAULT_PAGE);
        if !(1..=MAX_PAGE).contains(&limit) {
            return Err(ApiError::bad_request("invalid_request", "limit must be from 1 to 100.").into());
        }
        let query = HistoryQuery {
            status: status.0.map(|s| parse_status(&s)).transpose()?,
            business_type: business_type.0.filter(|t| !t.is_empty()),
            client_key: client
                .0
                .map(|c| ClientLabel::parse(&c).map(|label| label.key))
                .transpose()?,
            before: cursor.0.map(|c| parse_cursor(&c)).transpose()?,
            limit: limit + 1,
        };
        // Text holding NUL matches no stored search, and Postgres refuses it in a query
        // parameter (a 500 schemathesis found): such a filter answers an empty page.
        let has_nul = query.business_type.as_deref().is_some_and(|t| t.contains('\0'))
            || query.before.as_ref().is_some_and(|(_, id)| id.contains('\0'));
        let mut rows = if has_nul {
            Vec::new()
        } else {
            state.store.search_history(auth.workspace(), &query).await?
        };
        let more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        let next_cursor = more
            .then(|| rows.last().map(|r| format!("{}.{}", r.created_at, r.id)))
            .flatten();
        let mut searches = Vec::with_capacity(rows.len());
        for row in rows {
            searches.push(item(&state, row).await?);
        }
        Ok(Json(SearchHistory {
            searches,
            next_cursor,
            replay_minutes: state.bus.replay_ttl().as_secs() / 60,
        }))
    }

    /// One of your searches
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id", method = "get", operation_id = "get_search")]
    async fn get_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SearchId>,
    ) -> Result<Json<SearchItem>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let summary = owned(&state, auth.workspace(), &id.0).await?;
        Ok(Json(item(&state, summary).await?))
    }

    /// A search's events again (reconnect)
    ///
    /// The same `text/event-stream` as the search itself, from the start or after
    /// `Last-Event-ID`: each event once, numbered as before, then the live ones until
    /// `complete` or `error`. Events are kept in memory for 10 minutes after a search's
    /// last one (never on disk of ours); after that this answers 410. Closing this stream
    /// cancels a search that does not run in the background.
    ///
    /// This is where a client goes when its stream ended with `reconnect` (its API
    /// process stopped) or dropped: a search that does not run in the background and was
    /// waiting for its client (the grace period) is followed again from here. Like the
    /// search's own stream, this one ends with `reconnect` when its process stops.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(
        path = "/:id/events",
        method = "get",
        operation_id = "stream_search_events",
        tag = "ApiTags::Stream"
    )]
    async fn stream_search_events(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SearchId>,
        /// The last event number received (a whole number; anything else answers 400).
        #[oai(name = "Last-Event-ID")]
        last_event_id: Header<Option<u64>>,
    ) -> Result<SearchEvents, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | GONE | TOO_MANY_REQUESTS }>>
    {
        let summary = owned(&state, auth.workspace(), &id.0).await?;
        let slot = state.streams.acquire(&auth.0.user.id)?;
        let search_id = summary.id.clone();
        let background = summary.background != 0;
        let subscription = state.bus.subscribe(&search_id, 0).await?;
        if subscription.replay.is_empty() && summary.finished_at.is_some() {
            return Err(ApiError::gone(
                "results_gone",
                "This search's results are gone: we keep them in memory for 10 minutes only and never store lead data. Run it again.",
            )
            .into());
        }
        if !background && summary.finished_at.is_none() {
            // Someone follows it again: a stopped server's grace period no longer runs.
            state.bus.attach(&search_id).await?;
        }
        let events = relay::relay(
            state.bus.clone(),
            search_id.clone(),
            subscription,
            state.shutdown.subscribe(),
            relay::RelayMode {
                background,
                after: last_event_id.0.unwrap_or(0),
                on_stop: state.on_stop(),
            },
        );
        let frames = events.map(|(id, event)| (id, sse::event_json(&event)));
        Ok(SearchEvents::new(search_id, frames, slot))
    }

    /// Export a search's leads as a file
    ///
    /// The leads of a finished search as CSV (the web app's file, byte for byte), XLSX
    /// (the same columns, ratings and review counts as numbers, the header row frozen)
    /// or JSON (`ExportedLeads`), with `Content-Disposition: attachment` and the web
    /// app's file name. Any text a spreadsheet would run as a formula is kept as text.
    ///
    /// Leads are never stored: a search's results are held in memory for `replayMinutes`
    /// (10 by default) after it finishes (`resultsAvailable` in the history); after that
    /// this answers 410 `results_gone`. A search still running answers 409
    /// `search_running`; one that ended without results (it failed) 409 `no_results`.
    /// Any member of the workspace may export; the audit log records it.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id/export", method = "get", operation_id = "export_search")]
    async fn export_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SearchId>,
        /// `csv` (the default), `xlsx` or `json`.
        format: Query<Option<ExportFormat>>,
    ) -> Result<SearchExport, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | CONFLICT | GONE }>> {
        let format = format.0.unwrap_or_default();
        let summary = owned(&state, auth.workspace(), &id.0).await?;
        let events = state.bus.replay(&summary.id, 0).await?;
        let complete = events.iter().rev().find_map(|envelope| match &envelope.event {
            SearchEvent::Complete(complete) => Some(complete),
            _ => None,
        });
        let Some(complete) = complete else {
            return Err(if summary.finished_at.is_none() {
                ApiError::conflict(
                    "search_running",
                    "This search is still running: export it once it has finished.",
                )
            } else if events.is_empty() {
                ApiError::gone(
                    "results_gone",
                    format!(
                        "This search's results are gone: we keep them in memory for {} minutes only and never store lead data. Run it again.",
                        state.bus.replay_ttl().as_secs() / 60
                    ),
                )
            } else {
                ApiError::conflict("no_results", "This search ended without results: there is nothing to export.")
            }
            .into());
        };
        let file = SearchExport::build(format, &summary.id, &complete.search, &complete.results)?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::ExportMade,
            summary.id.as_str(),
            serde_json::json!({"to": "file", "format": format.extension(), "rows": complete.results.len()}),
        )
        .await;
        // The place memory marks what left the product (issue #29: `exclude: exported`);
        // a failure to mark is logged, never the export's.
        let ids: Vec<String> = complete.results.iter().map(|lead| lead.place_id.clone()).collect();
        if let Err(e) = state.store.mark_exported(auth.workspace(), &ids).await {
            tracing::warn!(error = %e, "could not mark the exported places in the place memory");
        }
        tracing::info!(
            rows = complete.results.len(),
            format = format.extension(),
            file = file.file_name(),
            "search exported"
        );
        Ok(file)
    }

    /// Cancel a search
    ///
    /// Stops a queued or running search (its worker stops between requests; leads it
    /// sent stay counted, the rest of its reservation is given back). A search already
    /// finished is left as it is. Answers the search as it stands. A member cancels the
    /// searches they started; another member's needs an admin (403 `role_required`).
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id/cancel", method = "post", operation_id = "cancel_search")]
    async fn cancel_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SearchId>,
    ) -> Result<Json<SearchItem>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let summary = owned(&state, auth.workspace(), &id.0).await?;
        let caller = auth.caller_workspace();
        if summary.started_by != auth.0.user.id.as_str() && !caller.role.allows(Role::Admin) {
            return Err(ApiError::forbidden(
                "role_required",
                "Cancelling another member's search needs the admin role in this workspace; you are a member.",
            )
            .into());
        }
        if summary.finished_at.is_none() {
            state.bus.cancel(&summary.id).await?;
        }
        Ok(Json(item(&state, summary).await?))
    }
}
