//! The simulator's HTTP server: the `/v1/*` endpoints as Stripe serves them, the hosted
//! page stand-ins, and `/_sim/*` routes for tests and demos to drive and inspect it.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use anyhow::Context;
use base64::Engine;
use poem::{
    Body, EndpointExt, IntoResponse, Request, Response, Route, handler,
    http::{Method, StatusCode, header},
    web::{Data, Html, Json, Path},
};
use serde_json::{Value, json};

use super::{
    api, clock,
    config::{SimConfig, StripeSimBuilder},
    errors::ApiError,
    form::Params,
    idempotency::Lookup,
    ids, lifecycle, pages,
    store::{RecordedRequest, Store},
    webhook,
};
use crate::sim::server::{Bound, SimServer};

/// State the handlers and the [`StripeSim`] handle share.
#[derive(Debug)]
struct Shared {
    store: Mutex<Store>,
    /// Held while events are being sent, so deliveries never interleave and a receiver
    /// sees events in the order they happened.
    delivery: tokio::sync::Mutex<()>,
}

impl Shared {
    /// The store. A panic while it was held cannot leave it half-updated in a way that
    /// matters to a test double, so a poisoned lock is used anyway.
    fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends one recorded event to the webhook endpoint, signed now, and records the
    /// outcome (status 0 when the endpoint could not be reached).
    async fn send(&self, event_id: &str) -> anyhow::Result<u16> {
        let (url, secret, payload) = {
            let store = self.lock();
            let url = store
                .config
                .webhook_url
                .clone()
                .context("stripe-sim has no webhook URL configured")?;
            let event = store
                .event(event_id)
                .with_context(|| format!("no such event: {event_id}"))?;
            (
                url,
                store.config.webhook_secret.clone(),
                serde_json::to_string_pretty(event)?,
            )
        };
        let signature = webhook::sign(payload.as_bytes(), &secret, clock::now());
        let result = webhook::post(&url, &payload, &signature).await;
        let status = result.as_ref().map_or(0, |s| *s);
        self.lock().deliveries.push((event_id.to_owned(), status));
        result
    }

    /// Sends one event on request (even with automatic delivery off).
    async fn deliver(&self, event_id: &str) -> anyhow::Result<u16> {
        let _order = self.delivery.lock().await;
        self.send(event_id).await
    }

    /// Sends new events in order, if delivery is on. Failures are recorded, not returned:
    /// Stripe does not roll back a payment because an endpoint was down.
    async fn deliver_new(&self, event_ids: &[String]) {
        if !self.lock().delivering() {
            return;
        }
        let _order = self.delivery.lock().await;
        for id in event_ids {
            if let Err(error) = self.send(id).await {
                tracing::warn!(event = %id, %error, "stripe-sim webhook delivery failed");
            }
        }
    }
}

/// A running simulator; stops when dropped.
pub struct StripeSim {
    /// Base URL to give the Stripe client, e.g. `http://127.0.0.1:41234`.
    pub base_url: String,
    shared: Arc<Shared>,
    server: SimServer,
}

impl StripeSim {
    /// Starts a simulator with default settings on `addr` (port 0 picks a free one).
    pub async fn start(addr: SocketAddr) -> std::io::Result<Self> {
        Self::start_with(addr, SimConfig::default()).await
    }

    /// A builder for non-default settings.
    pub fn builder() -> StripeSimBuilder {
        StripeSimBuilder::default()
    }

    pub(crate) async fn start_with(addr: SocketAddr, config: SimConfig) -> std::io::Result<Self> {
        let bound = Bound::bind(addr).await?;
        let base_url = bound.base_url();
        let shared = Arc::new(Shared {
            store: Mutex::new(Store::new(config, base_url.clone())),
            delivery: tokio::sync::Mutex::new(()),
        });
        let app = Route::new()
            .at("/v1/*path", v1)
            .at("/_sim/checkout/:id", poem::get(checkout_page))
            .at("/_sim/checkout/:id/complete", poem::post(checkout_complete))
            .at("/_sim/portal/:id", poem::get(portal_page))
            .at("/_sim/portal/:id/cancel", poem::post(portal_cancel))
            .at("/_sim/subscriptions/:id/cancel", poem::post(subscription_cancel))
            .at("/_sim/subscriptions/:id/fail_payment", poem::post(subscription_fail))
            .at("/_sim/subscriptions/:id/status", poem::post(subscription_status))
            .at("/_sim/events/:id/deliver", poem::post(event_deliver))
            .at("/_sim/webhooks", poem::post(webhooks_switch))
            .at("/_sim/customers", poem::get(list_customers))
            .at("/_sim/checkout_sessions", poem::get(list_sessions))
            .at("/_sim/subscriptions", poem::get(list_subscriptions))
            .at("/_sim/invoices", poem::get(list_invoices))
            .at("/_sim/events", poem::get(list_events))
            .at("/_sim/deliveries", poem::get(list_deliveries))
            .at("/_sim/requests", poem::get(list_requests))
            .data(shared.clone());
        Ok(Self {
            base_url,
            shared,
            server: bound.serve(app),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// The API key it accepts.
    pub fn secret_key(&self) -> String {
        self.shared.lock().config.secret_key.clone()
    }

    /// The webhook signing secret events are signed with.
    pub fn webhook_secret(&self) -> String {
        self.shared.lock().config.webhook_secret.clone()
    }

    /// Switches automatic webhook delivery on or off; [`Self::deliver`] works either way.
    pub fn set_webhooks_enabled(&self, enabled: bool) {
        self.shared.lock().config.webhooks_enabled = enabled;
    }

    /// All customers, oldest first.
    pub fn customers(&self) -> Vec<Value> {
        self.shared.lock().customers.clone()
    }

    /// All Checkout Sessions, oldest first.
    pub fn checkout_sessions(&self) -> Vec<Value> {
        self.shared
            .lock()
            .checkout_sessions
            .iter()
            .map(|r| r.json.clone())
            .collect()
    }

    /// All customer portal sessions, oldest first.
    pub fn portal_sessions(&self) -> Vec<Value> {
        self.shared.lock().portal_sessions.clone()
    }

    /// All subscriptions, oldest first.
    pub fn subscriptions(&self) -> Vec<Value> {
        self.shared.lock().subscriptions.clone()
    }

    /// All invoices, oldest first.
    pub fn invoices(&self) -> Vec<Value> {
        self.shared.lock().invoices.clone()
    }

    /// Every `/v1/*` request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// Every event generated so far, in order (sent or not).
    pub fn events(&self) -> Vec<Value> {
        self.shared.lock().events.clone()
    }

    /// Every delivery attempt so far: event ID and the endpoint's status (0 when it could
    /// not be reached).
    pub fn deliveries(&self) -> Vec<(String, u16)> {
        self.shared.lock().deliveries.clone()
    }

    /// The customer pays on the Checkout page: completes the session, creates the active
    /// subscription (whose ID is returned), and sends `checkout.session.completed`,
    /// `customer.subscription.created`, `invoice.paid`.
    pub async fn complete_checkout(&self, session_id: &str) -> anyhow::Result<String> {
        let completed = lifecycle::complete_checkout(&mut self.shared.lock(), session_id)?;
        self.shared.deliver_new(&completed.events).await;
        Ok(completed.subscription)
    }

    /// The customer cancels in the portal: at the period end
    /// (`customer.subscription.updated`) or at once (`customer.subscription.deleted`).
    pub async fn cancel_subscription(&self, sub_id: &str, at_period_end: bool) -> anyhow::Result<()> {
        let events = lifecycle::cancel_subscription(&mut self.shared.lock(), sub_id, at_period_end)?;
        self.shared.deliver_new(&events).await;
        Ok(())
    }

    /// A renewal charge is declined: `invoice.payment_failed`, then
    /// `customer.subscription.updated` with status `past_due`.
    pub async fn fail_payment(&self, sub_id: &str) -> anyhow::Result<()> {
        let events = lifecycle::fail_payment(&mut self.shared.lock(), sub_id)?;
        self.shared.deliver_new(&events).await;
        Ok(())
    }

    /// Puts a subscription in any documented status (`unpaid`, `paused`, ...), with the
    /// matching `customer.subscription.updated` (or `.deleted` for `canceled`).
    pub async fn set_subscription_status(&self, sub_id: &str, status: &str) -> anyhow::Result<()> {
        let events = lifecycle::set_subscription_status(&mut self.shared.lock(), sub_id, status)?;
        self.shared.deliver_new(&events).await;
        Ok(())
    }

    /// Sends a recorded event again (a replay, or a delivery a test held back) and returns
    /// the endpoint's status; an unreachable endpoint is an error (and recorded as 0).
    pub async fn deliver(&self, event_id: &str) -> anyhow::Result<u16> {
        self.shared.deliver(event_id).await
    }
}

/// The answer to one `/v1/*` request.
struct Reply {
    status: StatusCode,
    body: Value,
    /// `Request-Id` of the first request when this is an idempotent replay.
    original_request: Option<String>,
}

impl Reply {
    fn ok(body: Value) -> Self {
        Self {
            status: StatusCode::OK,
            body,
            original_request: None,
        }
    }

    /// An error; `request_id` adds a request log URL, which Stripe leaves out of
    /// authentication errors.
    fn error(error: &ApiError, request_id: Option<&str>) -> Self {
        Self {
            status: error.status,
            body: error.body(request_id),
            original_request: None,
        }
    }
}

/// Every `/v1/*` request: authentication, idempotency, the endpoint, and the record.
#[handler]
async fn v1(req: &Request, body: Body, shared: Data<&Arc<Shared>>) -> Response {
    let raw = body.into_vec().await.unwrap_or_default();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let params = if method == Method::POST {
        Params::parse(&raw)
    } else {
        Params::parse(req.uri().query().unwrap_or_default().as_bytes())
    };
    let header_value = |name: &str| req.header(name).map(str::to_owned);
    let idempotency_key = header_value("idempotency-key").filter(|_| method == Method::POST);
    let stripe_version = header_value("stripe-version");
    let request_id = ids::request();

    let mut store = shared.lock();
    let reply = answer(
        &mut store,
        &method,
        &path,
        &params,
        req.header("authorization"),
        idempotency_key.as_deref(),
        &request_id,
    );
    store.requests.push(RecordedRequest {
        method: method.to_string(),
        path: path.clone(),
        idempotency_key: idempotency_key.clone(),
        stripe_version: stripe_version.clone(),
        params: params.pairs.clone(),
        status: reply.status.as_u16(),
        replayed: reply.original_request.is_some(),
    });
    let version = stripe_version.unwrap_or_else(|| store.config.api_version.clone());
    drop(store);

    let mut response = Response::builder()
        .status(reply.status)
        .content_type("application/json")
        .header("Request-Id", request_id.as_str())
        .header("Stripe-Version", version.as_str());
    if let Some(key) = &idempotency_key {
        response = response.header("Idempotency-Key", key.as_str());
    }
    if let Some(original) = &reply.original_request {
        response = response
            .header("Idempotent-Replayed", "true")
            .header("Original-Request", original.as_str());
    }
    if reply.status == StatusCode::UNAUTHORIZED {
        response = response.header(header::WWW_AUTHENTICATE, "Basic realm=\"Stripe\"");
    }
    response.body(serde_json::to_string_pretty(&reply.body).unwrap_or_default())
}

fn answer(
    store: &mut Store,
    method: &Method,
    path: &str,
    params: &Params,
    authorization: Option<&str>,
    idempotency_key: Option<&str>,
    request_id: &str,
) -> Reply {
    if let Err(error) = authenticate(store, authorization) {
        return Reply::error(&error, None);
    }
    if let Some(key) = idempotency_key {
        match store.idempotency.check(key, path, &params.tree) {
            Lookup::Fresh => {}
            Lookup::Replay(saved) => {
                return Reply {
                    status: StatusCode::from_u16(saved.status).unwrap_or(StatusCode::OK),
                    body: saved.body,
                    original_request: Some(saved.request_id),
                };
            }
            Lookup::Conflict(error) => return Reply::error(&error, Some(request_id)),
        }
    }
    match api::dispatch(store, method, path, params) {
        Ok(body) => {
            if let Some(key) = idempotency_key {
                store
                    .idempotency
                    .save(key, path, params.tree.clone(), 200, body.clone(), request_id);
            }
            Reply::ok(body)
        }
        Err(error) => Reply::error(&error, Some(request_id)),
    }
}

/// Bearer auth, or Basic auth with the key as user name (`curl -u sk_test_...:`).
fn authenticate(store: &Store, authorization: Option<&str>) -> Result<(), ApiError> {
    let header = authorization.map(str::trim).unwrap_or_default();
    let key = if let Some(token) = header.strip_prefix("Bearer ") {
        token.trim().to_owned()
    } else if let Some(encoded) = header.strip_prefix("Basic ") {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default();
        decoded.split(':').next().unwrap_or_default().to_owned()
    } else {
        header.to_owned()
    };
    if key.is_empty() {
        return Err(ApiError::no_api_key());
    }
    if key != store.config.secret_key {
        return Err(ApiError::invalid_api_key(&key));
    }
    Ok(())
}

/// Reads `/_sim/*` action parameters from the query and the form body alike.
async fn action_params(req: &Request, body: Body) -> Params {
    let mut raw = req.uri().query().unwrap_or_default().as_bytes().to_vec();
    let form = body.into_vec().await.unwrap_or_default();
    if !form.is_empty() {
        if !raw.is_empty() {
            raw.push(b'&');
        }
        raw.extend_from_slice(&form);
    }
    Params::parse(&raw)
}

fn see_other(location: &str) -> Response {
    Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header(header::LOCATION, location)
        .finish()
}

fn sim_error(status: StatusCode, error: &anyhow::Error) -> Response {
    (status, Json(json!({ "error": format!("{error:#}") }))).into_response()
}

/// `GET /_sim/checkout/{id}`: the Checkout page stand-in.
#[handler]
fn checkout_page(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    match pages::checkout_page(&shared.lock(), &id) {
        Some(html) => Html(html).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Html(pages::not_found(&format!("No such checkout session: {id}"))),
        )
            .into_response(),
    }
}

/// `POST /_sim/checkout/{id}/complete`: the Pay button. Completes the session, sends the
/// events, then redirects (303) to `success_url` with `{CHECKOUT_SESSION_ID}` filled in.
/// Paying a session that is already complete just redirects again, as a reload would.
#[handler]
async fn checkout_complete(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    let outcome = lifecycle::complete_checkout(&mut shared.lock(), &id);
    match outcome {
        Ok(completed) => shared.deliver_new(&completed.events).await,
        Err(error) => {
            let complete = shared
                .lock()
                .session(&id)
                .is_some_and(|r| r.json["status"] == "complete");
            if !complete {
                return sim_error(StatusCode::BAD_REQUEST, &error);
            }
        }
    }
    let target = lifecycle::success_redirect(&shared.lock(), &id).unwrap_or_else(|| format!("/_sim/checkout/{id}"));
    see_other(&target)
}

/// `GET /_sim/portal/{id}`: the customer portal stand-in.
#[handler]
fn portal_page(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    match pages::portal_page(&shared.lock(), &id) {
        Some(html) => Html(html).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Html(pages::not_found(&format!("No such portal session: {id}"))),
        )
            .into_response(),
    }
}

/// `POST /_sim/portal/{id}/cancel`: the Cancel plan button. Cancels the customer's
/// subscriptions at the period end (the portal's default), then shows the portal again.
#[handler]
async fn portal_cancel(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    let events = {
        let mut store = shared.lock();
        let Some(customer) = store.portal_session(&id).map(|s| s["customer"].clone()) else {
            return sim_error(StatusCode::NOT_FOUND, &anyhow::anyhow!("no such portal session: {id}"));
        };
        let targets: Vec<String> = store
            .subscriptions
            .iter()
            .filter(|s| s["customer"] == customer && s["status"] != "canceled" && s["cancel_at_period_end"] != true)
            .filter_map(|s| s["id"].as_str().map(str::to_owned))
            .collect();
        let mut events = Vec::new();
        for sub in targets {
            match lifecycle::cancel_subscription(&mut store, &sub, true) {
                Ok(mut more) => events.append(&mut more),
                Err(error) => return sim_error(StatusCode::BAD_REQUEST, &error),
            }
        }
        events
    };
    shared.deliver_new(&events).await;
    see_other(&format!("/_sim/portal/{id}"))
}

/// Runs a lifecycle change on a subscription, delivers its events and answers with the
/// subscription.
async fn subscription_action(
    shared: &Shared,
    id: &str,
    change: impl FnOnce(&mut Store) -> anyhow::Result<Vec<String>>,
) -> Response {
    let outcome = change(&mut shared.lock());
    match outcome {
        Ok(events) => {
            shared.deliver_new(&events).await;
            let sub = shared.lock().subscription(id).cloned().unwrap_or(Value::Null);
            Json(sub).into_response()
        }
        Err(error) => sim_error(StatusCode::BAD_REQUEST, &error),
    }
}

/// `POST /_sim/subscriptions/{id}/cancel[?at_period_end=true]`: cancels at once unless
/// `at_period_end=true`.
#[handler]
async fn subscription_cancel(
    req: &Request,
    body: Body,
    Path(id): Path<String>,
    shared: Data<&Arc<Shared>>,
) -> Response {
    let at_period_end = action_params(req, body).await.str(&["at_period_end"]) == Some("true");
    subscription_action(&shared, &id, |store| {
        lifecycle::cancel_subscription(store, &id, at_period_end)
    })
    .await
}

/// `POST /_sim/subscriptions/{id}/fail_payment`.
#[handler]
async fn subscription_fail(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    subscription_action(&shared, &id, |store| lifecycle::fail_payment(store, &id)).await
}

/// `POST /_sim/subscriptions/{id}/status` with `status=unpaid` (query or form).
#[handler]
async fn subscription_status(
    req: &Request,
    body: Body,
    Path(id): Path<String>,
    shared: Data<&Arc<Shared>>,
) -> Response {
    let params = action_params(req, body).await;
    let Some(status) = params.str(&["status"]).map(str::to_owned) else {
        return sim_error(StatusCode::BAD_REQUEST, &anyhow::anyhow!("missing parameter: status"));
    };
    subscription_action(&shared, &id, |store| {
        lifecycle::set_subscription_status(store, &id, &status)
    })
    .await
}

/// `POST /_sim/events/{id}/deliver`: sends the event again; answers `{"status": 200}`.
#[handler]
async fn event_deliver(Path(id): Path<String>, shared: Data<&Arc<Shared>>) -> Response {
    match shared.deliver(&id).await {
        Ok(status) => Json(json!({ "status": status })).into_response(),
        Err(error) => sim_error(StatusCode::BAD_GATEWAY, &error),
    }
}

/// `POST /_sim/webhooks` with `enabled=true|false`: switches automatic delivery.
#[handler]
async fn webhooks_switch(req: &Request, body: Body, shared: Data<&Arc<Shared>>) -> Response {
    let params = action_params(req, body).await;
    let mut store = shared.lock();
    if let Some(enabled) = params.str(&["enabled"]) {
        store.config.webhooks_enabled = enabled == "true";
    }
    Json(json!({ "enabled": store.config.webhooks_enabled, "url": store.config.webhook_url })).into_response()
}

#[handler]
fn list_customers(shared: Data<&Arc<Shared>>) -> Json<Vec<Value>> {
    Json(shared.lock().customers.clone())
}

#[handler]
fn list_sessions(shared: Data<&Arc<Shared>>) -> Json<Vec<Value>> {
    Json(shared.lock().checkout_sessions.iter().map(|r| r.json.clone()).collect())
}

#[handler]
fn list_subscriptions(shared: Data<&Arc<Shared>>) -> Json<Vec<Value>> {
    Json(shared.lock().subscriptions.clone())
}

#[handler]
fn list_invoices(shared: Data<&Arc<Shared>>) -> Json<Vec<Value>> {
    Json(shared.lock().invoices.clone())
}

#[handler]
fn list_events(shared: Data<&Arc<Shared>>) -> Json<Vec<Value>> {
    Json(shared.lock().events.clone())
}

#[handler]
fn list_deliveries(shared: Data<&Arc<Shared>>) -> Json<Value> {
    let deliveries: Vec<Value> = shared
        .lock()
        .deliveries
        .iter()
        .map(|(id, status)| json!({ "event": id, "status": status }))
        .collect();
    Json(json!(deliveries))
}

#[handler]
fn list_requests(shared: Data<&Arc<Shared>>) -> Json<Vec<RecordedRequest>> {
    Json(shared.lock().requests.clone())
}
