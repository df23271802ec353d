//! Saved searches (issue #29 item 3): `/api/leads/saved-searches`, in the workspace the
//! `Leadgen-Workspace` header names. A saved search is a name, the same body a search
//! takes, an optional schedule (five-field cron in an IANA zone), `onlyNew` and where its
//! runs' new leads go. Running one queues a search like any other (its events stream on
//! `GET /api/leads/searches/{id}/events`, it appears in the history).
//!
//! Roles: any member may create saved searches and run any of the workspace's; a member
//! may change or delete the saved searches they made, an admin or owner any of them (a
//! schedule spends the workspace's key and allowance: the people who manage the key can
//! stop anyone's). See docs/decisions.md.

use std::borrow::Cow;

use leadgen_core::{
    audit::{self, Action},
    delivery::DeliveryStatus,
    ids::{SavedSearchId, SearchId, UserId, WorkspaceId},
    saved_search::{self, Delivery, EmailTo, Schedule, SheetTarget},
    store::{SavedDeliveryRecord, SavedSearchFields, SavedSearchRecord},
    time::now_unix,
    workspace::Role,
};
use leadgen_worker::jobs::schedule::{RunDeps, RunRefused, start_run};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::Path,
    payload::Json,
    registry::{MetaSchema, MetaSchemaRef},
    types::{Example, ParseError, ParseFromJSON, ParseResult, ToJSON, Type},
};
use serde_json::json;

use super::{
    ApiTags,
    leads::{NO_KEY, spend_cap_reached},
    leads_models::SearchRequest,
    searches::rfc3339,
};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    state::AppState,
    text::Text,
};

/// When a saved search runs by itself.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ScheduleSpec {
    /// Five fields: minute, hour, day of month, month, day of week (`0 9 * * 1`: Mondays
    /// at 09:00). Two consecutive runs must be at least the server's minimum interval
    /// apart (`LEADGEN_MONITOR_MIN_INTERVAL_MINUTES`, 60 minutes by default).
    #[oai(validator(max_length = 200))]
    pub cron: Text,
    /// The IANA time zone the expression is read in, e.g. `Europe/Paris` or `UTC`.
    #[oai(validator(max_length = 64))]
    pub time_zone: Text,
}

/// Who a run's email goes to: `true` for the saved search's creator (`false`: no email),
/// or one address of a member of the workspace. In the contract a boolean or a string
/// (`oneOf`); a custom type because poem-openapi's untagged `Union` documents itself as an
/// object.
#[derive(Debug, Clone)]
pub enum EmailChoice {
    /// `true`: the creator's own address; `false`: no email.
    Flag(bool),
    /// A member's address.
    Address(Text),
}

impl Type for EmailChoice {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "EmailChoice".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        let mut schema = MetaSchema::new("");
        schema.one_of = vec![bool::schema_ref(), String::schema_ref()];
        schema.description = Some(
            "`true`: to the saved search's creator; `false`: no email; or the address of a member of this workspace.",
        );
        MetaSchemaRef::Inline(Box::new(schema))
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl ParseFromJSON for EmailChoice {
    fn parse_from_json(value: Option<serde_json::Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            serde_json::Value::Bool(flag) => Ok(Self::Flag(flag)),
            serde_json::Value::String(address) => Ok(Self::Address(Text(address))),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ToJSON for EmailChoice {
    fn to_json(&self) -> Option<serde_json::Value> {
        Some(match self {
            Self::Flag(flag) => serde_json::Value::Bool(*flag),
            Self::Address(address) => serde_json::Value::String(address.0.clone()),
        })
    }
}

/// A spreadsheet tab a run's new leads are appended to.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct SheetChoice {
    /// The spreadsheet's id, or its link.
    #[oai(validator(max_length = 2000))]
    pub spreadsheet_id: Text,
    /// The tab's title (1 to 100 characters); absent: the saved search's name.
    #[oai(validator(max_length = 400))]
    pub tab: Option<Text>,
}

/// Where a run's new leads go: with `onlyNew`, the places the workspace had not seen;
/// without it, everything the run found.
#[derive(Debug, Clone, Default, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct DeliveryChoices {
    /// To the workspace's webhooks, as a `saved_search.new_places` event.
    pub webhook: Option<bool>,
    /// By email (see `EmailChoice`).
    pub email: Option<EmailChoice>,
    /// Appended to a spreadsheet's tab.
    pub sheet: Option<SheetChoice>,
    /// Deliver a run that found nothing new too (an email with an empty CSV, a webhook
    /// event with no leads; nothing is appended to a sheet). Default false: such a run
    /// sends nothing.
    pub notify_when_empty: Option<bool>,
}

/// How a saved search's last delivery by one channel went.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct DeliveryOutcome {
    /// `pending` (queued, or retrying: the detail says why), `sent` or `failed`.
    pub status: DeliveryStatus,
    /// Where it went, or why not, in words for the user.
    #[oai(nullable)]
    pub detail: Option<String>,
    /// The run it delivered.
    #[oai(nullable)]
    pub search_id: Option<SearchId>,
    /// When this was recorded (RFC 3339).
    pub at: String,
}

/// How the last delivery of a run's new leads went, by channel; a channel is absent until
/// a run delivered by it (a run with nothing new sends nothing).
#[derive(Debug, Clone, Default, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct LastDeliveries {
    /// The `saved_search.new_places` webhook event (the last endpoint's attempt).
    pub webhook: Option<DeliveryOutcome>,
    /// The email.
    pub email: Option<DeliveryOutcome>,
    /// The spreadsheet tab.
    pub sheet: Option<DeliveryOutcome>,
}

impl LastDeliveries {
    /// The records of saved search `id` among `records`.
    fn of(id: &SavedSearchId, records: &[SavedDeliveryRecord]) -> Self {
        let mut last = Self::default();
        for r in records.iter().filter(|r| &r.saved_search_id == id) {
            let status = match r.status.as_str() {
                "sent" => DeliveryStatus::Sent,
                "failed" => DeliveryStatus::Failed,
                _ => DeliveryStatus::Pending,
            };
            let outcome = Some(DeliveryOutcome {
                status,
                detail: r.detail.clone(),
                search_id: r.search_id.clone(),
                at: rfc3339(r.at),
            });
            match r.channel.as_str() {
                "webhook" => last.webhook = outcome,
                "email" => last.email = outcome,
                _ => last.sheet = outcome,
            }
        }
        last
    }
}

/// A saved search to create, or what replaces one.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct SavedSearchRequest {
    /// Its name: 1 to 100 characters.
    #[oai(validator(max_length = 400))]
    pub name: Text,
    /// The search, exactly as `search_leads` takes it (`background` is ignored: a run
    /// always keeps going).
    pub search: SearchRequest,
    /// When it runs by itself; absent or null: only when asked.
    pub schedule: Option<ScheduleSpec>,
    /// Report only businesses this workspace has not seen before (default false).
    pub only_new: Option<bool>,
    /// Where each run's new leads go (default nowhere).
    pub delivery: Option<DeliveryChoices>,
    /// True: the schedule does not run (default false). Running it by hand still works.
    pub paused: Option<bool>,
}

impl Example for SavedSearchRequest {
    fn example() -> Self {
        Self {
            name: "Dentists in Houston, weekly".into(),
            search: SearchRequest {
                business_type: Some("dentist".into()),
                location: Some("Houston, TX".into()),
                coverage: Some(leadgen_core::search::Coverage::Full),
                ..SearchRequest::default()
            },
            schedule: Some(ScheduleSpec {
                cron: "0 9 * * 1".into(),
                time_zone: "America/Chicago".into(),
            }),
            only_new: Some(true),
            delivery: Some(DeliveryChoices {
                webhook: Some(true),
                email: Some(EmailChoice::Flag(true)),
                sheet: None,
                notify_when_empty: None,
            }),
            paused: None,
        }
    }
}

/// A saved search.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct SavedSearchInfo {
    /// Its id.
    pub id: SavedSearchId,
    /// Its name.
    pub name: String,
    /// The search, as saved.
    pub search: SearchRequest,
    /// When it runs by itself; null: only when asked.
    #[oai(nullable)]
    pub schedule: Option<ScheduleSpec>,
    /// Runs report only businesses this workspace has not seen before.
    pub only_new: bool,
    /// Where each run's new leads go.
    pub delivery: DeliveryChoices,
    /// How the last delivery by each channel went (failed ones are retried first, like
    /// webhooks; this says where that stands).
    pub last_delivery: LastDeliveries,
    /// The schedule is paused.
    pub paused: bool,
    /// When the schedule runs it next (RFC 3339); null when unscheduled or paused.
    #[oai(nullable)]
    pub next_run_at: Option<String>,
    /// When it last ran (RFC 3339).
    #[oai(nullable)]
    pub last_run_at: Option<String>,
    /// The last run's search: its history entry and, while held, its results.
    #[oai(nullable)]
    pub last_search_id: Option<SearchId>,
    /// Who made it; null once their account is gone.
    #[oai(nullable)]
    pub created_by: Option<UserId>,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// When it was last changed (RFC 3339).
    pub updated_at: String,
}

impl Example for SavedSearchInfo {
    fn example() -> Self {
        let request = SavedSearchRequest::example();
        Self {
            id: "0193a1d2-4b5c-7d6e-8f90-a1b2c3d4e5f6".into(),
            name: request.name.into_string(),
            search: request.search,
            schedule: request.schedule,
            only_new: true,
            delivery: request.delivery.unwrap_or_default(),
            last_delivery: LastDeliveries {
                webhook: Some(DeliveryOutcome {
                    status: DeliveryStatus::Sent,
                    detail: Some("delivered to hooks.example.com".into()),
                    search_id: Some("0193a1d2-9f00-7abc-8def-0123456789ab".into()),
                    at: "2026-11-23T15:04:10+00:00".into(),
                }),
                email: Some(DeliveryOutcome {
                    status: DeliveryStatus::Sent,
                    detail: Some("emailed to jane@agency.example".into()),
                    search_id: Some("0193a1d2-9f00-7abc-8def-0123456789ab".into()),
                    at: "2026-11-23T15:04:11+00:00".into(),
                }),
                sheet: None,
            },
            paused: false,
            next_run_at: Some("2026-11-30T15:00:00+00:00".into()),
            last_run_at: Some("2026-11-23T15:00:02+00:00".into()),
            last_search_id: Some("0193a1d2-9f00-7abc-8def-0123456789ab".into()),
            created_by: Some("6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f".into()),
            created_at: "2026-11-20T10:00:00+00:00".into(),
            updated_at: "2026-11-20T10:00:00+00:00".into(),
        }
    }
}

impl SavedSearchInfo {
    /// The answer for `s`, its last deliveries taken from `deliveries` (the workspace's).
    fn of(s: SavedSearchRecord, deliveries: &[SavedDeliveryRecord]) -> Result<Self, ApiError> {
        let last_delivery = LastDeliveries::of(&s.id, deliveries);
        let request: serde_json::Value = serde_json::from_str(&s.request).map_err(|e| ApiError::internal(&e))?;
        let search =
            SearchRequest::parse_from_json(Some(request)).map_err(|e| ApiError::internal(&e.into_message()))?;
        let delivery: Delivery = serde_json::from_str(&s.delivery).map_err(|e| ApiError::internal(&e))?;
        Ok(Self {
            id: s.id,
            name: s.name,
            search,
            schedule: match (s.cron, s.time_zone) {
                (Some(cron), Some(zone)) => Some(ScheduleSpec {
                    cron: Text(cron),
                    time_zone: Text(zone),
                }),
                _ => None,
            },
            only_new: s.only_new == 1,
            delivery: DeliveryChoices {
                webhook: Some(delivery.webhook),
                email: delivery.email.map(|e| match e {
                    EmailTo::Creator(flag) => EmailChoice::Flag(flag),
                    EmailTo::Address(address) => EmailChoice::Address(Text(address)),
                }),
                sheet: delivery.sheet.map(|s| SheetChoice {
                    spreadsheet_id: Text(s.spreadsheet_id),
                    tab: Some(Text(s.tab)),
                }),
                notify_when_empty: Some(delivery.notify_when_empty),
            },
            last_delivery,
            paused: s.paused == 1,
            next_run_at: s.next_run_at.map(rfc3339),
            last_run_at: s.last_run_at.map(rfc3339),
            last_search_id: s.last_search_id,
            created_by: s.created_by,
            created_at: rfc3339(s.created_at),
            updated_at: rfc3339(s.updated_at),
        })
    }
}

/// The workspace's saved searches.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SavedSearchList {
    /// Newest first.
    pub saved_searches: Vec<SavedSearchInfo>,
}

/// A run, queued.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct SavedSearchRun {
    /// The run's search: stream it on `GET /api/leads/searches/{id}/events`.
    pub search_id: SearchId,
}

impl Example for SavedSearchRun {
    fn example() -> Self {
        Self {
            search_id: "0193a1d2-9f00-7abc-8def-0123456789ab".into(),
        }
    }
}

/// Deleting a saved search.
#[derive(Debug, ApiResponse)]
pub enum DeleteSavedSearchResponse {
    /// Deleted; its runs stay in the history.
    #[oai(status = 204)]
    Deleted,
}

/// Running a saved search.
#[derive(Debug, ApiResponse)]
pub enum RunSavedSearchResponse {
    /// Queued: the run's search id.
    #[oai(status = 202)]
    Queued(Json<SavedSearchRun>),
}

/// A request, validated, as the store takes it.
struct Valid {
    name: String,
    request: String,
    search: String,
    client: Option<String>,
    schedule: Option<Schedule>,
    only_new: bool,
    delivery: String,
    paused: bool,
}

impl Valid {
    fn fields(&self, now: i64) -> SavedSearchFields<'_> {
        SavedSearchFields {
            name: &self.name,
            request: &self.request,
            search: &self.search,
            client: self.client.as_deref(),
            schedule: self.schedule.as_ref().map(|s| (s.expression(), s.zone_name())),
            only_new: self.only_new,
            delivery: &self.delivery,
            paused: self.paused,
            next_run_at: if self.paused {
                None
            } else {
                self.schedule.as_ref().and_then(|s| s.next_after(now))
            },
        }
    }
}

/// Checks `body` (400 with what is wrong).
async fn validate(state: &AppState, workspace: &WorkspaceId, body: SavedSearchRequest) -> Result<Valid, ApiError> {
    let name = saved_search::valid_name(&body.name)?;
    let mut search_request = body.search;
    search_request.background = None;
    let request = search_request
        .to_json()
        .ok_or_else(|| ApiError::internal(&"the search did not serialize"))?
        .to_string();
    let client = search_request
        .client
        .as_deref()
        .map(leadgen_core::spend::ClientLabel::parse)
        .transpose()?
        .map(|c| c.label);
    let search = super::leads::validate(search_request)?;
    let search = serde_json::to_string(&search).map_err(|e| ApiError::internal(&e))?;
    let schedule = body
        .schedule
        .map(|s| Schedule::parse(&s.cron, &s.time_zone, state.config.worker.monitor_min_interval_minutes))
        .transpose()?;
    let choices = body.delivery.unwrap_or_default();
    let delivery = Delivery {
        webhook: choices.webhook.unwrap_or(false),
        email: choices.email.map(|e| match e {
            EmailChoice::Flag(flag) => EmailTo::Creator(flag),
            EmailChoice::Address(address) => EmailTo::Address(address.into_string()),
        }),
        sheet: choices.sheet.map(|s| SheetTarget {
            spreadsheet_id: s.spreadsheet_id.into_string(),
            tab: s
                .tab
                .map(Text::into_string)
                .unwrap_or_else(|| name.chars().take(saved_search::MAX_TAB_CHARS).collect()),
        }),
        notify_when_empty: choices.notify_when_empty.unwrap_or(false),
    };
    let members: Vec<String> = match &delivery.email {
        Some(EmailTo::Address(_)) => state
            .store
            .list_members(workspace)
            .await?
            .into_iter()
            .map(|m| m.email)
            .collect(),
        _ => Vec::new(),
    };
    let delivery = serde_json::to_string(&delivery.validated(&members)?).map_err(|e| ApiError::internal(&e))?;
    Ok(Valid {
        name,
        request,
        search,
        client,
        schedule,
        only_new: body.only_new.unwrap_or(false),
        delivery,
        paused: body.paused.unwrap_or(false),
    })
}

const NOT_FOUND_MESSAGE: &str = "No saved search of this workspace has that id.";

/// The workspace's saved search `id`, or 404.
async fn owned(state: &AppState, workspace: &WorkspaceId, id: &SavedSearchId) -> Result<SavedSearchRecord, ApiError> {
    state
        .store
        .saved_search(workspace, id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND_MESSAGE))
}

/// 403 unless the caller made `saved` or is an admin or owner.
fn may_change(auth: &Auth<access::SearchesRun>, saved: &SavedSearchRecord) -> Result<(), ApiError> {
    let mine = saved.created_by.as_ref() == Some(&auth.0.user.id);
    if mine || auth.caller_workspace().role >= Role::Admin {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "not_creator",
        "Only the member who made this saved search, or an admin, can change or delete it.",
    ))
}

/// What the audit log records of a saved search.
fn audit_details(valid: &Valid) -> serde_json::Value {
    json!({
        "name": valid.name,
        "schedule": valid.schedule.as_ref().map(|s| format!("{} ({})", s.expression(), s.zone_name())),
        "paused": valid.paused,
        "onlyNew": valid.only_new,
    })
}

/// Saved search operations.
pub struct SavedSearchesApi;

#[OpenApi(tag = "ApiTags::Leads", prefix_path = "/leads/saved-searches")]
impl SavedSearchesApi {
    /// Save a search
    ///
    /// A name, the same body as a search, an optional `schedule` (five-field cron and an
    /// IANA time zone; two consecutive runs at least `LEADGEN_MONITOR_MIN_INTERVAL_MINUTES`
    /// apart, 60 by default), `onlyNew` and where runs deliver. 400 `invalid_request` says
    /// what is wrong. At most 200 a workspace.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/", method = "post", operation_id = "create_saved_search")]
    async fn create_saved_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        body: Json<SavedSearchRequest>,
    ) -> Result<Json<SavedSearchInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let valid = validate(&state, auth.workspace(), body.0).await?;
        let record = state
            .store
            .create_saved_search(auth.workspace(), &auth.0.user.id, &valid.fields(now_unix()))
            .await?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::SavedSearchCreated,
            record.id.as_str(),
            audit_details(&valid),
        )
        .await;
        // A new saved search has delivered nothing yet.
        Ok(Json(SavedSearchInfo::of(record, &[])?))
    }

    /// The workspace's saved searches
    ///
    /// Newest first, with each one's next and last run.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/", method = "get", operation_id = "list_saved_searches")]
    async fn list_saved_searches(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
    ) -> Result<Json<SavedSearchList>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let list = state.store.list_saved_searches(auth.workspace()).await?;
        let deliveries = state.store.saved_deliveries(auth.workspace()).await?;
        Ok(Json(SavedSearchList {
            saved_searches: list
                .into_iter()
                .map(|s| SavedSearchInfo::of(s, &deliveries))
                .collect::<Result<_, _>>()?,
        }))
    }

    /// A saved search
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id", method = "get", operation_id = "get_saved_search")]
    async fn get_saved_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SavedSearchId>,
    ) -> Result<Json<SavedSearchInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let saved = owned(&state, auth.workspace(), &id.0).await?;
        let deliveries = state.store.saved_deliveries(auth.workspace()).await?;
        Ok(Json(SavedSearchInfo::of(saved, &deliveries)?))
    }

    /// Change a saved search
    ///
    /// Replaces it with the body (the same as `create_saved_search`); its run history
    /// stays. The next scheduled run is computed again from now. Its creator or an admin
    /// only: 403 `not_creator` for another member.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id", method = "put", operation_id = "update_saved_search")]
    async fn update_saved_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SavedSearchId>,
        body: Json<SavedSearchRequest>,
    ) -> Result<Json<SavedSearchInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let saved = owned(&state, auth.workspace(), &id.0).await?;
        may_change(&auth, &saved)?;
        let valid = validate(&state, auth.workspace(), body.0).await?;
        let record = state
            .store
            .update_saved_search(auth.workspace(), &id.0, &valid.fields(now_unix()))
            .await?
            .ok_or_else(|| ApiError::not_found(NOT_FOUND_MESSAGE))?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::SavedSearchUpdated,
            record.id.as_str(),
            audit_details(&valid),
        )
        .await;
        let deliveries = state.store.saved_deliveries(auth.workspace()).await?;
        Ok(Json(SavedSearchInfo::of(record, &deliveries)?))
    }

    /// Delete a saved search
    ///
    /// Its runs stay in the history. Its creator or an admin only: 403 `not_creator` for
    /// another member.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id", method = "delete", operation_id = "delete_saved_search")]
    async fn delete_saved_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SavedSearchId>,
    ) -> Result<DeleteSavedSearchResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let saved = owned(&state, auth.workspace(), &id.0).await?;
        may_change(&auth, &saved)?;
        if !state.store.delete_saved_search(auth.workspace(), &id.0).await? {
            return Err(ApiError::not_found(NOT_FOUND_MESSAGE).into());
        }
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::SavedSearchDeleted,
            id.0.as_str(),
            json!({"name": saved.name}),
        )
        .await;
        Ok(DeleteSavedSearchResponse::Deleted)
    }

    /// Run a saved search now
    ///
    /// Queues it as the caller, like a background search: answers its `searchId`, whose
    /// events stream on `GET /api/leads/searches/{id}/events`; it appears in the history
    /// and as the saved search's last run. Counts toward the allowance like any search;
    /// refused as a search would be (400 `no_api_key`, 403 `spend_cap_reached`, 429
    /// `usage_limit`). Works whether or not it is scheduled or paused.
    ///
    /// API tokens: need the `searches:run` scope.
    #[oai(path = "/:id/run", method = "post", operation_id = "run_saved_search")]
    async fn run_saved_search(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::SearchesRun>,
        id: Path<SavedSearchId>,
    ) -> Result<RunSavedSearchResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND | TOO_MANY_REQUESTS }>>
    {
        let saved = owned(&state, auth.workspace(), &id.0).await?;
        let deps = RunDeps {
            store: &state.store,
            keys: &state.keys,
            usage: &state.usage,
            searches: &state.queues.search,
        };
        let search_id = start_run(&deps, &saved, Some(&auth.0.user.id))
            .await
            .map_err(|refused| match refused {
                RunRefused::NoKey => ApiError::bad_request("no_api_key", NO_KEY),
                RunRefused::SpendCap(cap) => spend_cap_reached(cap),
                RunRefused::Usage(message) => ApiError::too_many("usage_limit", message),
                RunRefused::NoCreator => ApiError::internal(&"a run by hand has its caller"),
                RunRefused::Core(e) => e.into(),
            })?;
        Ok(RunSavedSearchResponse::Queued(Json(SavedSearchRun { search_id })))
    }
}
