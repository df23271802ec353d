//! Leads: `/api/leads/*`: business types, searches (streamed and whole), usage, and the
//! Places API key check.

use futures_util::StreamExt;
use leadgen_core::ids::{SearchId, UserId, WorkspaceId};
use leadgen_core::{
    audit::{self, Action},
    catalogue::{self, BusinessType, GROUPS},
    jobs::SearchJobV1,
    lead::{SearchComplete, SearchEvent, SearchFailed},
    place_types,
    places::PlacesError,
    search::{self, EstimateLimits, InvalidSearch, SearchFailure, Upstream, ValidSearch},
    spend::{ClientLabel, SpendCap},
    store::LookupKind,
};
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};
use secrecy::ExposeSecret;

use super::{
    ApiTags,
    leads_models::{
        BusinessTypeGroupItem, BusinessTypeItem, BusinessTypesResponse, EstimateResponse, GeoPoint, LocateRequest,
        LocatedArea, SearchRequest, SearchResult, UsageResponse,
    },
};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    relay,
    sse::{self, SearchEvents},
    state::AppState,
    text::Text,
};

/// The spec's message for a missing type or location.
pub use leadgen_core::search::MISSING_FIELDS;
/// The spec's message when no key is configured.
pub const NO_KEY: &str = "Please add your Google Places API key in Settings before searching";

/// Result of testing the key against Google.
#[derive(Debug, Object)]
pub struct TestApiKeyResponse {
    /// Always true here: failures answer with an error status and message.
    pub valid: bool,
    /// What happened.
    pub message: String,
}

/// `POST /api/leads/check-api-key` body: a key typed but not saved yet.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CheckApiKeyRequest {
    /// The key to check (trimmed); it is not saved.
    #[oai(validator(max_length = 200))]
    pub api_key: Text,
}

/// Lead operations.
pub struct LeadsApi;

/// A business type as the catalogue answer lists it.
fn type_item(t: &BusinessType) -> BusinessTypeItem {
    BusinessTypeItem {
        value: t.value.to_owned(),
        label: t.label.to_owned(),
        text_only: !t.is_included_type(),
    }
}

#[OpenApi(tag = "ApiTags::Leads", prefix_path = "/leads")]
impl LeadsApi {
    /// The business-type catalogue
    ///
    /// The spec's 13 groups of Google place types, with labels, and every other type of
    /// Google's Table A, which a search accepts too.
    ///
    /// API tokens: any valid token.
    #[oai(path = "/business-types", method = "get", operation_id = "list_business_types")]
    async fn list_business_types(&self, _auth: Auth<access::AnyCredential>) -> Json<BusinessTypesResponse> {
        Json(BusinessTypesResponse {
            groups: GROUPS
                .iter()
                .map(|g| BusinessTypeGroupItem {
                    label: g.label.to_owned(),
                    types: g.types.iter().map(type_item).collect(),
                })
                .collect(),
            google_types: place_types::all()
                .iter()
                .filter_map(|t| catalogue::find(t.value))
                .map(|t| type_item(&t))
                .collect(),
        })
    }

    /// Search, streaming results as they arrive
    ///
    /// Answers `text/event-stream`: frames of `id:` and `data:` (a JSON event: `start`,
    /// then one `business_found` per business, then `complete` or `error`), with
    /// keep-alive comments. The `X-Search-Id` header names the search before any event.
    /// Closing the connection cancels the search (unless `background`). Validation and
    /// usage failures answer before the stream starts, as JSON errors.
    ///
    /// When the API process serving the stream stops (a deploy), the stream ends with
    /// `reconnect` instead (a frame without `id:`): the search goes on, and its events
    /// continue at `GET /api/leads/searches/{id}/events` with the last event number seen
    /// as `Last-Event-ID`. A search that does not run in the background is cancelled if
    /// no client reconnects within the grace period (30 s by default). In embedded mode
    /// (one process) the search stops with the process and the stream ends with `error`.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(
        path = "/search-stream",
        method = "post",
        operation_id = "search_leads_stream",
        tag = "ApiTags::Stream"
    )]
    async fn search_leads_stream(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        body: Json<SearchRequest>,
    ) -> Result<SearchEvents, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | TOO_MANY_REQUESTS | UNAVAILABLE }>> {
        // Before anything is reserved: a user at the cap spends nothing.
        let slot = state.streams.acquire(&auth.0.user.id)?;
        let (search_id, events) =
            start_search(&state, auth.workspace(), &auth.0.user.id, body.0, state.on_stop()).await?;
        let frames = events.map(|(id, event)| (id, sse::event_json(&event)));
        Ok(SearchEvents::new(search_id, frames, slot))
    }

    /// Search, answering when done
    ///
    /// Runs the same search as the stream and returns every lead at once.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/search", method = "post", operation_id = "search_leads")]
    async fn search_leads(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        body: Json<SearchRequest>,
    ) -> Result<
        Json<SearchResult>,
        Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | TOO_MANY_REQUESTS | BAD_GATEWAY | UNAVAILABLE }>,
    > {
        // Nobody could reconnect to this answer: a stopping server ends its search.
        let (_, events) = start_search(
            &state,
            auth.workspace(),
            &auth.0.user.id,
            body.0,
            relay::OnStop::EndSearch,
        )
        .await?;
        let mut events = Box::pin(events);
        while let Some((_, event)) = events.next().await {
            match event {
                SearchEvent::Complete(SearchComplete {
                    results,
                    search,
                    usage,
                    cost,
                    stop_reason,
                    notice,
                    completeness,
                    found_count,
                    new_count,
                }) => {
                    return Ok(Json(SearchResult {
                        success: true,
                        results,
                        search,
                        usage,
                        cost,
                        stop_reason,
                        notice,
                        completeness,
                        found_count,
                        new_count,
                    }));
                }
                SearchEvent::Error(SearchFailed { message }) => {
                    return Err(ApiError::bad_gateway("search_failed", message).into());
                }
                _ => {}
            }
        }
        Err(ApiError::bad_gateway("search_failed", "Search failed").into())
    }

    /// Estimate a search before running it
    ///
    /// What the search would find, cost on your Google key and take, from Google's free
    /// IDs-only probes (and, for a full search of a named location, one request to
    /// locate it, cached afterwards). Counts toward no allowance. A full search of a
    /// large metro is probed up to a bound (about 8 seconds at 10 requests a second, about
    /// 2 when Google's count of the area answers too); past it the figures are
    /// extrapolated and `exact` is false. Where the workspace keeps place ids, those
    /// probes then go on for a while after the answer (free, at the key's pace,
    /// `LEADGEN_PROBE_AFTER_ESTIMATE_SECS`), so the search that follows has less to probe.
    ///
    /// When the business type is one of Google's place types and the area is known (a
    /// full search, or an explicit area), `completeness.expected` is how many places of
    /// the type Google's Places Aggregate API counts in it (one call, about a cent, in
    /// `spent`); null when the meter is off, the type is not Google's, the area is a
    /// named location searched quickly, or the count failed (the estimate still answers).
    ///
    /// What the estimate spent (`spent`) counts toward the workspace's month and its
    /// spend cap, under the request's `client` if it names one; so does what Google
    /// billed an estimate that then failed (locating a place it does not know). A
    /// workspace at its cap is estimated without the count, and a full search of a
    /// location not located before is refused (403 `spend_cap_reached`): Google would
    /// bill both.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/estimate", method = "post", operation_id = "estimate_search")]
    async fn estimate_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        body: Json<SearchRequest>,
    ) -> Result<Json<EstimateResponse>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>>
    {
        let client = body.0.client.as_deref().map(ClientLabel::parse).transpose()?;
        let search = validate(body.0)?;
        let cap = spend_cap_left(&state, auth.workspace()).await?;
        let reached = cap.filter(SpendCap::reached);
        // At the cap, only what Google does not bill: a location that must be located
        // first is refused (as `locate_area` refuses it), and the meter's count is left out.
        if let Some(cap) = reached
            && let (search::Coverage::Full, None) = (search.coverage(), search.area())
            && search::cached(&state.store, search.location()).await.is_none()
        {
            return Err(spend_cap_reached(cap).into());
        }
        let key = PlacesKey::open(&state, auth.workspace()).await?;
        // The workspace's earlier estimate stops probing: this one has the key's pace.
        state.probing.stop(auth.workspace());
        let upstream = key.upstream(&state, state.aggregate.as_ref().filter(|_| reached.is_none()));
        let limits = EstimateLimits {
            rps: f64::from(state.config.places.rps),
            ..EstimateLimits::default()
        };
        let prices = state.config.places.prices;
        let usage = current_usage(&state, auth.workspace()).await?.usage;
        let leads_left_today = usage.daily_lead_limit.map(|limit| (limit - usage.leads_today).max(0));
        let excluded = state.store.excluded_places(auth.workspace(), search.exclude()).await?;
        let plan_memory = leadgen_core::store::WorkspacePlans::new(
            &state.store,
            auth.workspace(),
            state.config.places.plan_memory_days,
        );
        let memory = plan_memory.as_ref().map(|m| m as &dyn search::PlanMemory);
        // An estimate's probes are left for its search only where the workspace keeps
        // place ids at all (its place memory is on).
        let keeps_place_ids = plan_memory.is_some() && state.store.place_memory_enabled(auth.workspace()).await?;
        let mut spent = search::Requests::default();
        let estimate = search::estimate(
            &upstream,
            &search,
            &prices,
            &state.store,
            limits,
            search::WorkspaceKnows {
                excluded: &excluded,
                memory,
                keeps_place_ids,
            },
            &mut spent,
        )
        .await;
        // A failed estimate too: what Google billed it counts in the month.
        let caller = (auth.workspace(), &auth.0.user.id);
        let cost_usd = spent.report(&prices).cost_usd;
        record_lookup(&state, caller, LookupKind::Estimate, client.as_ref(), cost_usd).await?;
        match estimate {
            Ok(mut e) => {
                if let Some(unfinished) = e.unfinished.take() {
                    // Its probes go on while the user reads it (issue #30).
                    state
                        .probing
                        .start(&state, auth.workspace(), search.clone(), unfinished);
                }
                Ok(Json(EstimateResponse {
                    leads_left_today,
                    allowance_warning: leadgen_core::usage::allowance_warning(
                        // Left-out places use no allowance.
                        u64::from(e.new_places.unwrap_or(e.estimated_leads)),
                        leads_left_today,
                    ),
                    spend_cap_left_usd: cap.map(|cap| leadgen_core::money::round_cents(cap.left_usd)),
                    spend_cap_warning: cap.and_then(|cap| spend_cap_warning(cap, e.estimated_cost_usd)),
                    estimated_leads: e.estimated_leads,
                    estimated_cost_usd: e.estimated_cost_usd,
                    estimated_seconds: e.estimated_seconds,
                    requests: e.requests,
                    billable_requests: e.requests.billable(&prices),
                    exact: e.exact,
                    spent: e.spent,
                    completeness: e.completeness,
                    new_places: e.new_places,
                }))
            }
            Err(SearchFailure::Refused(message)) => Err(ApiError::bad_request("invalid_location", message).into()),
            Err(SearchFailure::Upstream(e)) => Err(upstream_error(e).into()),
            Err(SearchFailure::Stopped(_)) => {
                Err(ApiError::unavailable("unavailable", "The estimate was stopped.").into())
            }
        }
    }

    /// Locate a location, to show it on the map
    ///
    /// The rectangle Google frames a typed location with (its viewport), which the web
    /// app's map shows before an area is drawn. It is the area a full search of the
    /// location tiles, and shares its cache: a location located before (by anyone, within
    /// 30 days; geography, no lead data) costs nothing; otherwise one Text Search Pro
    /// request on your Google key (list price $32 per 1,000), after which the full
    /// search or estimate of the same location pays nothing to locate it. Counts toward
    /// no allowance. Unlike a full search, an area of any size is answered (a state
    /// too). A location Google cannot place answers 400 `invalid_location`; without a
    /// cached answer, a workspace at its monthly spend cap is refused (403). What it
    /// spent counts toward the workspace's month and its spend cap.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/locate", method = "post", operation_id = "locate_area")]
    async fn locate_area(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        body: Json<LocateRequest>,
    ) -> Result<Json<LocatedArea>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>> {
        let location = body.0.location.trim().to_owned();
        if location.is_empty() {
            return Err(ApiError::bad_request("invalid_request", "Enter a location to show on the map.").into());
        }
        if location.chars().count() > search::MAX_LOCATION {
            return Err(ApiError::bad_request("invalid_request", InvalidSearch::LocationTooLong.to_string()).into());
        }
        let cached = search::cached(&state.store, &location).await.map(|l| l.area);
        let prices = state.config.places.prices;
        let (area, requests) = match cached {
            Some(area) => (area, search::Requests::default()),
            None => {
                // Only a request Google bills is refused at the cap.
                if let Some(cap) = spend_cap_left(&state, auth.workspace())
                    .await?
                    .filter(SpendCap::reached)
                {
                    return Err(spend_cap_reached(cap).into());
                }
                let key = PlacesKey::open(&state, auth.workspace()).await?;
                let upstream = key.upstream(&state, None);
                let mut requests = search::Requests::default();
                let located = search::area_of(&upstream, &location, &state.store, &mut requests).await;
                // Google bills the request whether or not it placed the location.
                let spent = requests.report(&prices).cost_usd;
                record_lookup(
                    &state,
                    (auth.workspace(), &auth.0.user.id),
                    LookupKind::Locate,
                    None,
                    spent,
                )
                .await?;
                match located {
                    Ok(located) => (located.area, requests),
                    Err(SearchFailure::Refused(message)) => {
                        return Err(ApiError::bad_request("invalid_location", message).into());
                    }
                    Err(SearchFailure::Upstream(e)) => return Err(upstream_error(e).into()),
                    Err(SearchFailure::Stopped(_)) => {
                        return Err(ApiError::unavailable("unavailable", "Locating was stopped.").into());
                    }
                }
            }
        };
        let point = |p: search::tiling::LatLng| GeoPoint {
            latitude: p.lat,
            longitude: p.lng,
        };
        Ok(Json(LocatedArea {
            location,
            low: point(area.low),
            high: point(area.high),
            spent: requests.report(&prices),
        }))
    }

    /// Usage this month
    ///
    /// API tokens: need the `usage:read` scope.
    #[oai(path = "/usage", method = "get", operation_id = "get_usage")]
    async fn get_usage(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::UsageRead>,
    ) -> Result<Json<UsageResponse>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let report = current_usage(&state, auth.workspace()).await?;
        Ok(Json(UsageResponse {
            success: true,
            data: report,
        }))
    }

    /// Check a key before saving it
    ///
    /// Makes the same free Places API (New) call as `test_api_key` (Text Search, ids only,
    /// one result, which Google does not bill) with the key in the body, which is neither
    /// saved nor recorded: onboarding and Settings check what the user typed before they
    /// save it. A key Google refuses answers 400 with Google's reason in plain words; a
    /// key that cannot be one answers 400 `invalid_api_key`.
    ///
    /// API tokens: need the `keys:write` scope.
    #[oai(path = "/check-api-key", method = "post", operation_id = "check_api_key")]
    async fn check_api_key(
        &self,
        state: Data<&AppState>,
        _auth: Auth<access::KeysWrite>,
        body: Json<CheckApiKeyRequest>,
    ) -> Result<Json<TestApiKeyResponse>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>>
    {
        let typed = body.0.api_key.0.trim().to_owned();
        leadgen_core::api_key::validate_format(&typed)
            .map_err(|_| ApiError::bad_request("invalid_api_key", leadgen_core::api_key::INVALID_FORMAT))?;
        match state.places.check_key(&typed).await {
            Ok(()) => Ok(Json(TestApiKeyResponse {
                valid: true,
                message: "API key is valid and working".into(),
            })),
            Err(e) => Err(upstream_error(e).into()),
        }
    }

    /// Test the stored Places API key
    ///
    /// Makes the cheapest real Places API (New) call (Text Search, ids only, one result)
    /// with the stored key and records whether it worked. A key Google refuses answers
    /// 400 with Google's reason in plain words; a passing upstream fault answers 502 or
    /// 503 and leaves the recorded status unchanged.
    ///
    /// API tokens: need the `keys:write` scope.
    #[oai(path = "/test-api-key", method = "post", operation_id = "test_api_key")]
    async fn test_api_key(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::KeysWrite>,
    ) -> Result<Json<TestApiKeyResponse>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>>
    {
        let workspace = auth.workspace();
        let Some(opened) = state.keys.open(workspace).await? else {
            return Err(ApiError::bad_request(
                "no_api_key",
                "Please add your Google Places API key in Settings before testing it",
            )
            .into());
        };
        match state.places.check_key(opened.key.expose_secret()).await {
            Ok(()) => {
                state.keys.record_check(workspace, &opened, true).await?;
                Ok(Json(TestApiKeyResponse {
                    valid: true,
                    message: "API key is valid and working".into(),
                }))
            }
            Err(e) => {
                if e.is_key_problem() {
                    state.keys.record_check(workspace, &opened, false).await?;
                }
                Err(upstream_error(e).into())
            }
        }
    }
}

/// A Places failure as the API answers it: a key Google refuses is the user's to fix
/// (400), a quota is a wait (503), anything else is Google's (502).
fn upstream_error(e: PlacesError) -> ApiError {
    match e {
        e if e.is_key_problem() => ApiError::bad_request("invalid_api_key", e.to_string()),
        e @ PlacesError::QuotaExhausted { .. } => ApiError::unavailable("quota_exhausted", e.to_string()),
        e => ApiError::bad_gateway("upstream_error", e.to_string()),
    }
}

/// The workspace's Google key, opened for a request the API itself makes to Google (an
/// estimate, locating a place); a search's requests are the worker's.
struct PlacesKey {
    opened: leadgen_core::keys::OpenedKey,
    /// The key's fingerprint, for the rate gate (never the key).
    id: String,
}

impl PlacesKey {
    /// The workspace's key, or the spec's 400 when none is saved.
    async fn open(state: &AppState, workspace: &WorkspaceId) -> Result<Self, ApiError> {
        let Some(opened) = state.keys.open(workspace).await? else {
            return Err(ApiError::bad_request("no_api_key", NO_KEY));
        };
        let id = leadgen_core::api_key::fingerprint(opened.key.expose_secret());
        Ok(Self { opened, id })
    }

    /// Google through this key, paced by the key's gate shared with the workers; with the
    /// completeness meter when `aggregate` is given.
    fn upstream<'a>(
        &'a self,
        state: &'a AppState,
        aggregate: Option<&'a leadgen_core::places::AggregateClient>,
    ) -> Upstream<'a, leadgen_worker::KeyRateGate> {
        Upstream {
            client: &state.places,
            api_key: self.opened.key.expose_secret(),
            key_id: &self.id,
            gate: &state.gate,
            aggregate,
        }
    }
}

/// Adds what a lookup outside a search spent on the workspace's key to its month (the
/// spend cap and the breakdown count it).
async fn record_lookup(
    state: &AppState,
    (workspace, user): (&WorkspaceId, &UserId),
    kind: LookupKind,
    client: Option<&ClientLabel>,
    cost_usd: f64,
) -> Result<(), ApiError> {
    let month = leadgen_core::usage::periods(chrono::Utc::now()).month;
    state
        .store
        .record_lookup_cost(workspace, user, &month, kind, client, cost_usd)
        .await?;
    Ok(())
}

/// What the workspace's monthly spend cap leaves this month, if it has one.
async fn spend_cap_left(state: &AppState, workspace: &WorkspaceId) -> Result<Option<SpendCap>, ApiError> {
    let Some(cap_cents) = state.store.spend_cap_cents(workspace).await? else {
        return Ok(None);
    };
    let month = leadgen_core::usage::periods(chrono::Utc::now()).month;
    let spent = state.store.month_spend_usd(workspace, &month, None).await?;
    Ok(Some(SpendCap::new(cap_cents, spent)))
}

/// 403: the workspace's monthly spend cap is reached (a refusal, like a role's: the same
/// request succeeds once an owner raises the cap, or next month).
pub fn spend_cap_reached(cap: SpendCap) -> ApiError {
    ApiError::forbidden(
        "spend_cap_reached",
        format!(
            "This workspace has reached its monthly spend cap of {} on its Google key. An owner can raise it in Settings; it resets on the 1st (UTC).",
            leadgen_core::money::format_usd(cap.cap_usd)
        ),
    )
}

/// What an estimate says when the search would stop at the cap.
fn spend_cap_warning(cap: SpendCap, estimated_usd: f64) -> Option<String> {
    (estimated_usd > cap.left_usd + 1e-9).then(|| {
        format!(
            "This workspace's monthly spend cap leaves {} on its Google key: this search would stop there, short of the about {} it would cost.",
            leadgen_core::money::format_usd(cap.left_usd),
            leadgen_core::money::format_usd(estimated_usd)
        )
    })
}

/// The search a request asks for, or a 400 saying what is wrong with it.
pub(crate) fn validate(request: SearchRequest) -> Result<ValidSearch, ApiError> {
    if let Some(client) = &request.client {
        ClientLabel::parse(client)?;
    }
    request.validate().map_err(|e| {
        let code = match e {
            InvalidSearch::UnknownBusinessType(_) => "unknown_business_type",
            InvalidSearch::MissingFields | InvalidSearch::LocationTooLong | InvalidSearch::Option(_) => {
                "invalid_request"
            }
        };
        ApiError::bad_request(code, e.to_string())
    })
}

async fn current_usage(
    state: &AppState,
    workspace: &WorkspaceId,
) -> Result<leadgen_core::usage::UsageReport, ApiError> {
    let key = state.keys.status(workspace).await?;
    Ok(state
        .usage
        .report(workspace, state.store.tier(workspace).await?, key.updated_at)
        .await?)
}

/// Validates, reserves usage, subscribes to the search's events, then queues it (in that
/// order, so no event is missed). Answers the search's id and its events.
async fn start_search(
    state: &AppState,
    workspace: &WorkspaceId,
    user_id: &UserId,
    request: SearchRequest,
    on_stop: relay::OnStop,
) -> Result<
    (
        SearchId,
        impl futures_util::Stream<Item = (Option<u64>, SearchEvent)> + Send + 'static,
    ),
    ApiError,
> {
    let background = request.background;
    let client = request.client.as_deref().map(ClientLabel::parse).transpose()?;
    let search = validate(request)?;
    let background = background.unwrap_or(search.coverage() == search::Coverage::Full);
    if !state.keys.status(workspace).await?.has_key {
        return Err(ApiError::bad_request("no_api_key", NO_KEY));
    }
    // Refused before anything is reserved or asked of Google. A search that starts under
    // the cap stops at it (the worker reads what is left when it runs).
    if let Some(cap) = spend_cap_left(state, workspace).await?.filter(SpendCap::reached) {
        return Err(spend_cap_reached(cap));
    }
    let reservation = match state
        .usage
        .reserve(
            workspace,
            user_id,
            state.store.tier(workspace).await?,
            search.business().value,
        )
        .await?
    {
        Ok(r) => r,
        Err(denied) => return Err(ApiError::too_many("usage_limit", denied.to_string())),
    };
    let search_id = reservation.search_id;
    state
        .store
        .describe_search(workspace, &search_id, &search, background, client.as_ref())
        .await?;
    // What was asked for and what it may cost; no estimate is made here (that is
    // `estimate_search`, which costs Google probes): the budget stands for it.
    let details = serde_json::json!({
        "type": search.business().value,
        "location": search.location(),
        "coverage": search.coverage().as_str(),
        "maxCostUsd": search.max_cost_usd(),
        "leadBudget": reservation.lead_budget,
        "enrich": search.enrich(),
        "client": client.as_ref().map(|c| &c.label),
    });
    let subscription = state.bus.subscribe(&search_id, 0).await?;
    state
        .queues
        .search
        .push(SearchJobV1 {
            search_id: search_id.clone(),
            user_id: user_id.to_owned(),
            workspace_id: Some(workspace.to_owned()),
            search,
            lead_budget: reservation.lead_budget,
            saved_run: Some(false),
        })
        .await?;
    tracing::info!(%search_id, "search queued");
    audit::record(
        &state.store,
        workspace,
        Some(user_id),
        Action::SearchStarted,
        search_id.as_str(),
        details,
    )
    .await;
    let events = relay::relay(
        state.bus.clone(),
        search_id.clone(),
        subscription,
        state.shutdown.subscribe(),
        relay::RelayMode {
            background,
            after: 0,
            on_stop,
        },
    );
    Ok((search_id, events))
}
