//! `DeliveryJobV1`: a finished full search goes where its owner chose (issue #26 item 2):
//! its CSV (the web app's file, byte for byte) mailed to the account's own address, or
//! its leads as a new tab in their spreadsheet. The history says how it went: `pending`
//! when queued, then `sent` (with where) or `failed` (with why, in plain words).
//!
//! The leads come from the search's event buffer: the job carries none. A transient
//! failure (the mail server or Google unreachable, Google's quota) is retried a few
//! times over about five minutes, inside the buffer's ten; then it is `failed`, and the
//! history's "Open" still offers the results while they are held.

use std::{sync::Arc, time::Duration};

use leadgen_core::{
    audit::{self, Action},
    delivery::{self, DeliveryKind, DeliveryStatus, MailFile},
    ids::SearchId,
    jobs::{DeliveryJobV1, SavedSearchDelivery, SearchJobV1},
    lead::{Lead, SearchComplete, SearchEvent, SearchParams},
    saved_search::{Channel, Delivery, EmailTo},
    sheets::{ExportRequest, ExportRow, ExportTarget},
};

use super::{Job, JobError, RetryPolicy, retry_policy};
use crate::WorkerDeps;

/// Tries after the first: with a 20 s first delay doubling, the last ends about five
/// minutes in, well within the results' ten minutes in the buffer.
const RETRIES: usize = 4;

/// The delivery job kind (see `registry`).
pub struct DeliveryJob;

impl Job for DeliveryJob {
    type Payload = DeliveryJobV1;

    async fn run(job: DeliveryJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        let span = tracing::info_span!("deliver", search_id = %job.search_id, kind = job.kind.as_str());
        tracing::Instrument::instrument(deliver(&job, &deps), span).await
    }

    fn retry(_deps: &WorkerDeps) -> RetryPolicy {
        retry_policy(RETRIES, Duration::from_secs(20), Duration::from_secs(160))
    }
}

/// Why a delivery did not happen.
enum Undelivered {
    /// Worth another try (the last try records it as failed).
    Transient(String),
    /// Will not work as things are; recorded as failed at once.
    Final(String),
}

async fn deliver(job: &DeliveryJobV1, deps: &WorkerDeps) -> Result<(), JobError> {
    let (outcome, place_ids) = match finished_search(deps, &job.search_id).await {
        Ok((leads, params)) => {
            let sent = match job.kind {
                DeliveryKind::Email => by_email(job, deps, &leads, &params).await,
                DeliveryKind::Sheets => to_sheets(job, deps, &leads, &params).await,
            };
            (sent, leads.iter().map(|lead| lead.place_id.clone()).collect::<Vec<_>>())
        }
        Err(why) => (Err(why), Vec::new()),
    };
    let (status, detail) = match outcome {
        Ok(detail) => (DeliveryStatus::Sent, detail),
        Err(Undelivered::Transient(why)) => {
            // The queue tries again; the history (or the saved search) says so meanwhile.
            record(deps, job, DeliveryStatus::Pending, Some(&why)).await;
            return Err(JobError::Retry(why));
        }
        Err(Undelivered::Final(why)) => (DeliveryStatus::Failed, why),
    };
    tracing::info!(status = status.as_str(), "delivery done");
    record(deps, job, status, Some(&detail)).await;
    if status == DeliveryStatus::Sent {
        audit_export(job, deps, place_ids.len()).await;
        // What left the product is marked exported (issue #29, `exclude: exported`).
        if let Err(e) = deps.store.mark_exported(&job.workspace(), &place_ids).await {
            tracing::warn!(error = %e, "could not mark the delivered places in the place memory");
        }
    }
    Ok(())
}

/// The audit log's "export made" for a delivery the worker made on the member's behalf
/// (issue #28 item 6: an export is an export, whoever pressed the button): the member who
/// ran the search is the actor, `automatic` says nobody pressed one.
async fn audit_export(job: &DeliveryJobV1, deps: &WorkerDeps, rows: usize) {
    let (to, target) = match job.kind {
        DeliveryKind::Email => ("email", "email".to_owned()),
        DeliveryKind::Sheets => ("google_sheets", job.spreadsheet_id.clone().unwrap_or_default()),
    };
    audit::record(
        &deps.store,
        &job.workspace(),
        Some(&job.user_id),
        Action::ExportMade,
        target,
        serde_json::json!({"to": to, "rows": rows, "searchId": job.search_id, "automatic": true}),
    )
    .await;
}

/// Records how the delivery went: on the saved search for a saved search's run
/// (`lastDelivery`), in the search's history otherwise.
async fn record(deps: &WorkerDeps, job: &DeliveryJobV1, status: DeliveryStatus, detail: Option<&str>) {
    let workspace = job.workspace();
    let recorded = match &job.saved_search {
        Some(saved) => {
            deps.store
                .record_saved_delivery(
                    &workspace,
                    &saved.id,
                    Some(&job.search_id),
                    channel(job.kind),
                    status,
                    detail,
                )
                .await
        }
        None => {
            deps.store
                .record_search_delivery(&workspace, &job.search_id, job.kind, status, detail)
                .await
        }
    };
    if let Err(e) = recorded {
        tracing::warn!(error = %e, "could not record the delivery's outcome");
    }
}

/// The saved search's channel a delivery kind is.
fn channel(kind: DeliveryKind) -> Channel {
    match kind {
        DeliveryKind::Email => Channel::Email,
        DeliveryKind::Sheets => Channel::Sheet,
    }
}

/// Queues the deliveries a saved search's run asks for (issue #29 item 5), once the run
/// has completed: its new leads (the run's results: an `onlyNew` run finds only what the
/// workspace had not seen) to the workspace's webhooks, by email and to a spreadsheet
/// tab. A run with nothing new sends nothing unless the saved search says
/// `notifyWhenEmpty`. Each channel's outcome is recorded on the saved search; nothing
/// here fails the search.
pub async fn queue_saved_run(deps: &WorkerDeps, job: &SearchJobV1, leads: &[Lead]) {
    if job.saved_run == Some(false) {
        // Queued as no saved search's run: nothing to look up.
        return;
    }
    let workspace = job.workspace();
    let saved = match deps.store.saved_search_of_run(&workspace, &job.search_id).await {
        Ok(Some(saved)) => saved,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the run's saved search");
            return;
        }
    };
    let choices: Delivery = match serde_json::from_str(&saved.delivery) {
        Ok(choices) => choices,
        Err(e) => {
            tracing::error!(error = %e, saved_search = %saved.id.as_str(), "a saved search's delivery does not read");
            return;
        }
    };
    if leads.is_empty() && !choices.notify_when_empty {
        tracing::info!(saved_search = %saved.id.as_str(), "the run found nothing new: nothing delivered");
        return;
    }
    if choices.webhook {
        super::webhook::emit_new_places(deps, &workspace, &job.user_id, &saved, &job.search_id, leads).await;
    }
    let record = |channel: Channel, status: DeliveryStatus, detail: &'static str| {
        let (workspace, saved_id) = (workspace.clone(), saved.id.clone());
        async move {
            if let Err(e) = deps
                .store
                .record_saved_delivery(
                    &workspace,
                    &saved_id,
                    Some(&job.search_id),
                    channel,
                    status,
                    Some(detail),
                )
                .await
            {
                tracing::warn!(error = %e, "could not record the delivery on the saved search");
            }
        }
    };
    let mut jobs = Vec::new();
    if let Some(to) = &choices.email {
        let address = match to {
            EmailTo::Address(address) => Some(address.clone()),
            EmailTo::Creator(_) => match &saved.created_by {
                Some(creator) => match deps.store.user(creator).await {
                    Ok(user) => user.map(|u| u.email),
                    Err(e) => {
                        tracing::warn!(error = %e, "could not read the saved search's creator");
                        None
                    }
                },
                None => None,
            },
        };
        match address {
            Some(address) => jobs.push(DeliveryJobV1 {
                user_id: job.user_id.clone(),
                workspace_id: Some(workspace.clone()),
                search_id: job.search_id.clone(),
                kind: DeliveryKind::Email,
                spreadsheet_id: None,
                saved_search: Some(SavedSearchDelivery {
                    id: saved.id.clone(),
                    name: saved.name.clone(),
                    email_to: Some(address),
                    tab: None,
                }),
            }),
            None => {
                let why = "not sent: the saved search's creator's address could not be read";
                record(Channel::Email, DeliveryStatus::Failed, why).await;
            }
        }
    }
    if let Some(sheet) = &choices.sheet {
        // Written through the creator's Google account (whoever pressed "Run now").
        match &saved.created_by {
            Some(creator) => jobs.push(DeliveryJobV1 {
                user_id: creator.clone(),
                workspace_id: Some(workspace.clone()),
                search_id: job.search_id.clone(),
                kind: DeliveryKind::Sheets,
                spreadsheet_id: Some(sheet.spreadsheet_id.clone()),
                saved_search: Some(SavedSearchDelivery {
                    id: saved.id.clone(),
                    name: saved.name.clone(),
                    email_to: None,
                    tab: Some(sheet.tab.clone()),
                }),
            }),
            None => {
                let why = "not added: the saved search's creator, whose Google account writes it, no longer exists";
                record(Channel::Sheet, DeliveryStatus::Failed, why).await;
            }
        }
    }
    for delivery in jobs {
        let channel = channel(delivery.kind);
        match deps.deliveries.push(delivery).await {
            Ok(()) => record(channel, DeliveryStatus::Pending, "queued").await,
            Err(e) => {
                tracing::warn!(error = %e, "could not queue a saved search's delivery");
                record(channel, DeliveryStatus::Failed, "the delivery could not be queued").await;
            }
        }
    }
}

/// The search's leads and what was searched, from its `complete` event.
async fn finished_search(deps: &WorkerDeps, search_id: &SearchId) -> Result<(Vec<Lead>, SearchParams), Undelivered> {
    let events = deps
        .bus
        .replay(search_id, 0)
        .await
        .map_err(|e| Undelivered::Transient(format!("the results could not be read ({e})")))?;
    events
        .into_iter()
        .rev()
        .find_map(|envelope| match envelope.event {
            SearchEvent::Complete(SearchComplete { results, search, .. }) => Some((results, search)),
            _ => None,
        })
        .ok_or_else(|| Undelivered::Final("its results were no longer held when the delivery ran".into()))
}

fn enriched(leads: &[Lead]) -> bool {
    leads.iter().any(|lead| lead.contacts.is_some())
}

async fn by_email(
    job: &DeliveryJobV1,
    deps: &WorkerDeps,
    leads: &[Lead],
    params: &SearchParams,
) -> Result<String, Undelivered> {
    let Some(mailer) = &deps.mailer else {
        return Err(Undelivered::Final("email is not set up on this server".into()));
    };
    if let Some(saved) = &job.saved_search {
        return saved_by_email(saved, mailer, leads, params).await;
    }
    let user = deps
        .store
        .user(&job.user_id)
        .await
        .map_err(|e| Undelivered::Transient(format!("the account could not be read ({e})")))?
        .ok_or_else(|| Undelivered::Final("the account no longer exists".into()))?;
    let label = business_label(&params.business_type);
    let subject = format!(
        "Your Leadgen search: {label} in {} ({} leads)",
        params.location,
        leads.len()
    );
    let file = MailFile {
        name: delivery::file_name(&params.business_type, &params.location, chrono::Utc::now()),
        content_type: "text/csv; charset=utf-8",
        bytes: delivery::leads_csv(leads, enriched(leads)),
    };
    let text = format!(
        "Your search for {label} in {} has finished: {} leads, in the attached CSV file.\n\n\
         You chose to receive full searches by email in Leadgen's settings; change that there at any time.\n",
        params.location,
        leads.len(),
    );
    match mailer.send(&user.email, &subject, &text, Some(file)).await {
        Ok(()) => Ok(format!("emailed to {}", user.email)),
        Err(e) if e.is_transient() => Err(Undelivered::Transient(format!("email not sent: {e}"))),
        Err(e) => Err(Undelivered::Final(format!("email not sent: {e}"))),
    }
}

/// A saved search run's email: a short summary and the new leads as a CSV.
async fn saved_by_email(
    saved: &SavedSearchDelivery,
    mailer: &delivery::Mailer,
    leads: &[Lead],
    params: &SearchParams,
) -> Result<String, Undelivered> {
    let Some(to) = &saved.email_to else {
        return Err(Undelivered::Final("no address was chosen".into()));
    };
    let label = business_label(&params.business_type);
    let count = leads.len();
    let places = if count == 1 { "place" } else { "places" };
    let subject = format!("Leadgen monitor \"{}\": {count} new {places}", saved.name);
    let file = MailFile {
        name: delivery::file_name(&params.business_type, &params.location, chrono::Utc::now()),
        content_type: "text/csv; charset=utf-8",
        bytes: delivery::leads_csv(leads, enriched(leads)),
    };
    let found = if count == 0 {
        "found nothing new since the last run; the attached CSV has no rows".to_owned()
    } else {
        format!(
            "found {count} new {places} ({label} in {}), in the attached CSV file",
            params.location
        )
    };
    let text = format!(
        "Your saved search \"{}\" {found}.\n\n\
         Places it found before are left out. Change where its results go on Leadgen's Monitors page.\n",
        saved.name,
    );
    match mailer.send(to, &subject, &text, Some(file)).await {
        Ok(()) => Ok(format!("emailed to {to}")),
        Err(e) if e.is_transient() => Err(Undelivered::Transient(format!("email not sent: {e}"))),
        Err(e) => Err(Undelivered::Final(format!("email not sent: {e}"))),
    }
}

async fn to_sheets(
    job: &DeliveryJobV1,
    deps: &WorkerDeps,
    leads: &[Lead],
    params: &SearchParams,
) -> Result<String, Undelivered> {
    let Some(spreadsheet_id) = job.spreadsheet_id.clone() else {
        return Err(Undelivered::Final("no spreadsheet was chosen".into()));
    };
    let tab = match job.saved_search.as_ref().and_then(|saved| saved.tab.clone()) {
        // A saved search's tab: appended to, run after run.
        Some(tab) => tab,
        None => format!(
            "{} {} {}",
            business_label(&params.business_type),
            params.location,
            chrono::Utc::now().format("%Y-%m-%d %H:%M")
        ),
    };
    if leads.is_empty() {
        // `notifyWhenEmpty`: no rows to append, which the spreadsheet would refuse.
        return Ok(format!("nothing new to add to tab \"{tab}\""));
    }
    let request = ExportRequest {
        rows: leads
            .iter()
            .map(|lead| ExportRow {
                name: lead.name.clone(),
                address: lead.address.clone(),
                phone: lead.phone.clone(),
                website: lead.website.clone(),
                contacts: lead.contacts.clone().unwrap_or_default(),
            })
            .collect(),
        enriched: enriched(leads),
        target: ExportTarget::Existing { spreadsheet_id },
        worksheet: Some(tab.chars().take(100).collect()),
        business_type: params.business_type.clone(),
        location: params.location.clone(),
    };
    match deps.sheets.export(&job.user_id, request).await {
        Ok(outcome) => Ok(format!(
            "added to \"{}\", tab \"{}\"",
            outcome.spreadsheet_name, outcome.worksheet
        )),
        Err(e) if e.is_transient() => Err(Undelivered::Transient(format!("not added to the spreadsheet: {e}"))),
        Err(e) => Err(Undelivered::Final(format!("not added to the spreadsheet: {e}"))),
    }
}

/// The words users see for a business type ("real_estate_agency" -> "Real Estate Agency").
fn business_label(value: &str) -> String {
    leadgen_core::catalogue::find(value)
        .map(|business| business.label.to_owned())
        .unwrap_or_else(|| leadgen_core::place_types::label_of(value))
}
