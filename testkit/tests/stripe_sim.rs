//! The Stripe fake, driven by the exact Stripe client Leadgen uses (async-stripe
//! 1.0.0-rc.10): every answer must parse into its types, and every webhook event must parse
//! with async-stripe-webhook after a signature check done here independently.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{
        Arc, Mutex, Once,
        atomic::{AtomicU16, Ordering},
    },
    time::Duration,
};

use hmac::{Hmac, Mac};
use leadgen_testkit::stripe_sim::{DEFAULT_API_VERSION, PageHost, StripeSim, sign};
use poem::{
    Body, EndpointExt, Request, Route, Server, handler,
    http::StatusCode,
    listener::{Acceptor, Listener, TcpListener},
    web::Data,
};
use serde_json::{Value, json};
use sha2::Sha256;
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_billing::{
    billing_portal_session::CreateBillingPortalSession,
    subscription::{ListSubscription, ListSubscriptionStatus, RetrieveSubscription},
};
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, CreateCheckoutSessionSubscriptionData,
    RetrieveCheckoutSession,
};
use stripe_core::customer::{CreateCustomer, RetrieveCustomer, RetrieveCustomerReturned};
use stripe_webhook::{EventObject, Webhook};

const WEBHOOK_SECRET: &str = "whsec_test_stripe_sim_secret";
const ANY_ADDR: &str = "127.0.0.1:0";
const SUCCESS_URL: &str = "http://app.test/billing/success?session_id={CHECKOUT_SESSION_ID}";

fn any_addr() -> SocketAddr {
    ANY_ADDR.parse().expect("valid address")
}

fn install_crypto() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

fn http() -> reqwest::Client {
    install_crypto();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("reqwest client")
}

/// The real client, pointed at the fake.
fn client(sim: &StripeSim) -> Client {
    install_crypto();
    ClientBuilder::new(sim.secret_key())
        .url(&sim.base_url)
        .build()
        .expect("stripe client")
}

/// One webhook request as the receiver saw it.
#[derive(Debug, Clone)]
struct Received {
    raw: String,
    signature: String,
    event: Value,
}

/// A webhook endpoint that checks `Stripe-Signature` itself (HMAC-SHA256 of
/// `"{t}.{body}"`, timestamp within 5 minutes) and answers 400 to a bad one.
#[derive(Default)]
struct Receiver {
    received: Mutex<Vec<Received>>,
    rejected: AtomicU16,
    answer: AtomicU16,
}

impl Receiver {
    fn types(&self) -> Vec<String> {
        self.all()
            .iter()
            .map(|r| r.event["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    fn all(&self) -> Vec<Received> {
        self.received.lock().expect("receiver lock").clone()
    }
}

fn verify(raw: &str, header: &str, secret: &str) -> bool {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", v)) => signatures.push(v.to_owned()),
            _ => {}
        }
    }
    let Some(t) = timestamp else { return false };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs() as i64;
    if (now - t).abs() > 300 {
        return false;
    }
    signatures.iter().any(|sig| {
        let Ok(bytes) = hex::decode(sig) else { return false };
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("hmac key");
        mac.update(format!("{t}.{raw}").as_bytes());
        mac.verify_slice(&bytes).is_ok()
    })
}

#[handler]
async fn receive(req: &Request, body: Body, receiver: Data<&Arc<Receiver>>) -> StatusCode {
    let raw = body.into_string().await.unwrap_or_default();
    let signature = req.header("stripe-signature").unwrap_or_default().to_owned();
    if req.content_type() != Some("application/json; charset=utf-8") || !verify(&raw, &signature, WEBHOOK_SECRET) {
        receiver.rejected.fetch_add(1, Ordering::SeqCst);
        return StatusCode::BAD_REQUEST;
    }
    let event: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
    receiver
        .received
        .lock()
        .expect("receiver lock")
        .push(Received { raw, signature, event });
    StatusCode::from_u16(receiver.answer.load(Ordering::SeqCst)).unwrap_or(StatusCode::OK)
}

/// Starts a receiver; returns it and its URL.
async fn start_receiver() -> (Arc<Receiver>, String) {
    let receiver = Arc::new(Receiver {
        answer: AtomicU16::new(200),
        ..Receiver::default()
    });
    let acceptor = TcpListener::bind(any_addr())
        .into_acceptor()
        .await
        .expect("bind receiver");
    let addr = acceptor.local_addr()[0]
        .as_socket_addr()
        .copied()
        .expect("receiver address");
    let app = Route::new()
        .at("/webhooks/stripe", poem::post(receive))
        .data(receiver.clone());
    tokio::spawn(async move {
        let _ = Server::new_with_acceptor(acceptor).run(app).await;
    });
    (receiver, format!("http://{addr}/webhooks/stripe"))
}

/// A simulator sending webhooks to a fresh receiver.
async fn sim_with_receiver() -> (StripeSim, Arc<Receiver>) {
    let (receiver, url) = start_receiver().await;
    let sim = StripeSim::builder()
        .webhook(&url, WEBHOOK_SECRET)
        .start(any_addr())
        .await
        .expect("start sim");
    (sim, receiver)
}

async fn create_customer(client: &Client, email: &str) -> String {
    let customer = CreateCustomer::new()
        .email(email)
        .name("Ann Example")
        .metadata(HashMap::from([("user_id".to_owned(), "u-42".to_owned())]))
        .send(client)
        .await
        .expect("create customer");
    customer.id.to_string()
}

fn subscription_checkout(customer: &str, price: &str) -> CreateCheckoutSession {
    let mut item = CreateCheckoutSessionLineItems::new();
    item.price = Some(price.to_owned());
    item.quantity = Some(1);
    let mut data = CreateCheckoutSessionSubscriptionData::new();
    data.metadata = Some(HashMap::from([("team_id".to_owned(), "t-7".to_owned())]));
    CreateCheckoutSession::new()
        .mode(stripe_checkout::CheckoutSessionMode::Subscription)
        .customer(customer)
        .line_items(vec![item])
        .success_url(SUCCESS_URL)
        .cancel_url("http://app.test/billing/cancel")
        .client_reference_id("u-42")
        .allow_promotion_codes(true)
        .metadata(HashMap::from([("user_id".to_owned(), "u-42".to_owned())]))
        .subscription_data(data)
}

/// Creates a customer, a session and completes it; returns (customer, session, subscription).
async fn subscribe(sim: &StripeSim, client: &Client, email: &str, price: &str) -> (String, String, String) {
    let customer = create_customer(client, email).await;
    let session = subscription_checkout(&customer, price)
        .send(client)
        .await
        .expect("create session");
    let sub = sim.complete_checkout(&session.id).await.expect("complete checkout");
    (customer, session.id.to_string(), sub)
}

fn stripe_error(result: Result<impl std::fmt::Debug, StripeError>) -> (Box<stripe::ApiErrors>, u16) {
    match result {
        Err(StripeError::Stripe(error, status)) => (error, status),
        other => panic!("expected a Stripe error, got {other:?}"),
    }
}

async fn get_json(url: &str, key: Option<&str>) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut request = http().get(url);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("GET");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, headers, body)
}

async fn post_form(
    url: &str,
    key: &str,
    body: &str,
    idempotency_key: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut request = http()
        .post(url)
        .bearer_auth(key)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.to_owned());
    if let Some(k) = idempotency_key {
        request = request.header("Idempotency-Key", k);
    }
    let response = request.send().await.expect("POST");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, headers, body)
}

#[tokio::test]
async fn customers_round_trip_through_the_real_client() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let created = CreateCustomer::new()
        .email("ann@example.com")
        .name("Ann Example")
        .metadata(HashMap::from([("user_id".to_owned(), "u-42".to_owned())]))
        .send(&client)
        .await
        .expect("create customer");
    assert!(created.id.starts_with("cus_"), "{}", created.id);
    assert_eq!(created.email.as_deref(), Some("ann@example.com"));
    assert_eq!(created.name.as_deref(), Some("Ann Example"));
    assert_eq!(
        created
            .metadata
            .as_ref()
            .and_then(|m| m.get("user_id"))
            .map(String::as_str),
        Some("u-42")
    );
    assert!(!created.livemode);
    assert!(created.created > 1_700_000_000);
    let settings = created.invoice_settings.as_ref().expect("invoice_settings");
    assert!(settings.default_payment_method.is_none());

    let fetched = RetrieveCustomer::new(created.id.clone())
        .send(&client)
        .await
        .expect("retrieve");
    match fetched {
        RetrieveCustomerReturned::Customer(c) => assert_eq!(c.id, created.id),
        RetrieveCustomerReturned::DeletedCustomer(_) => panic!("customer reads as deleted"),
    }

    let requests = sim.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        (requests[0].method.as_str(), requests[0].path.as_str()),
        ("POST", "/v1/customers")
    );
    assert_eq!(requests[0].param("metadata[user_id]"), Some("u-42"));
    assert_eq!(requests[0].param("email"), Some("ann@example.com"));
    // The version async-stripe rc.10 pins, which the simulator renders by default.
    assert_eq!(requests[0].stripe_version.as_deref(), Some(DEFAULT_API_VERSION));
    assert_eq!(requests[1].path, format!("/v1/customers/{}", created.id));
    assert_eq!(sim.customers().len(), 1);
}

#[tokio::test]
async fn checkout_sessions_parse_and_keep_what_was_asked() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let customer = create_customer(&client, "ann@example.com").await;
    let session = subscription_checkout(&customer, "price_pro_monthly")
        .send(&client)
        .await
        .expect("create session");
    assert!(session.id.starts_with("cs_test_"), "{}", session.id);
    assert_eq!(session.mode, stripe_checkout::CheckoutSessionMode::Subscription);
    assert_eq!(session.status, Some(stripe_checkout::CheckoutSessionStatus::Open));
    assert_eq!(
        session.payment_status,
        stripe_checkout::CheckoutSessionPaymentStatus::Unpaid
    );
    assert_eq!(
        session.url.as_deref(),
        Some(format!("https://checkout.stripe.com/c/pay/{}", session.id).as_str())
    );
    assert_eq!(
        session.customer.as_ref().map(|c| c.id().to_string()),
        Some(customer.clone())
    );
    // Stripe keeps the template; it is filled in only on the redirect.
    assert_eq!(session.success_url.as_deref(), Some(SUCCESS_URL));
    assert_eq!(session.cancel_url.as_deref(), Some("http://app.test/billing/cancel"));
    assert_eq!(session.client_reference_id.as_deref(), Some("u-42"));
    assert_eq!(session.allow_promotion_codes, Some(true));
    assert_eq!(session.amount_total, Some(2900));
    assert_eq!(
        session
            .metadata
            .as_ref()
            .and_then(|m| m.get("user_id"))
            .map(String::as_str),
        Some("u-42")
    );
    assert!(session.subscription.is_none());
    assert!(session.line_items.is_none(), "line_items only appear when expanded");

    let fetched = RetrieveCheckoutSession::new(session.id.clone())
        .expand(vec!["line_items".to_owned()])
        .send(&client)
        .await
        .expect("retrieve session");
    let items = fetched.line_items.expect("expanded line_items");
    assert_eq!(items.data.len(), 1);
    assert_eq!(
        items.data[0].price.as_ref().map(|p| p.id.as_str()),
        Some("price_pro_monthly")
    );
    assert_eq!(items.data[0].quantity, Some(1));
    assert_eq!(items.data[0].amount_total, 2900);

    let recorded = &sim.requests()[1];
    assert_eq!(recorded.param("line_items[0][price]"), Some("price_pro_monthly"));
    assert_eq!(recorded.param("subscription_data[metadata][team_id]"), Some("t-7"));
}

#[tokio::test]
async fn checkout_validation_answers_stripe_errors() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let customer = create_customer(&client, "ann@example.com").await;

    let (error, status) = stripe_error(subscription_checkout(&customer, "price_nope").send(&client).await);
    assert_eq!(status, 400);
    assert_eq!(error.type_, stripe::ApiErrorsType::InvalidRequestError);
    assert_eq!(error.code, Some(stripe::ApiErrorsCode::ResourceMissing));
    assert_eq!(error.message.as_deref(), Some("No such price: 'price_nope'"));
    assert_eq!(error.param.as_deref(), Some("line_items[0][price]"));

    let mut item = CreateCheckoutSessionLineItems::new();
    item.price = Some("price_pro_monthly".to_owned());
    item.quantity = Some(1);
    let (error, status) = stripe_error(
        CreateCheckoutSession::new()
            .line_items(vec![item])
            .success_url(SUCCESS_URL)
            .send(&client)
            .await,
    );
    assert_eq!(status, 400);
    assert_eq!(error.code, Some(stripe::ApiErrorsCode::ParameterMissing));
    assert_eq!(error.param.as_deref(), Some("mode"));

    let (error, _) = stripe_error(
        subscription_checkout("cus_missing", "price_pro_monthly")
            .send(&client)
            .await,
    );
    assert_eq!(error.code, Some(stripe::ApiErrorsCode::ResourceMissing));
    assert_eq!(error.message.as_deref(), Some("No such customer: 'cus_missing'"));
    assert_eq!(error.param.as_deref(), Some("customer"));

    assert!(sim.checkout_sessions().is_empty());
}

#[tokio::test]
async fn portal_sessions_parse_and_check_the_customer() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let customer = create_customer(&client, "ann@example.com").await;
    let portal = CreateBillingPortalSession::new()
        .customer(customer.clone())
        .return_url("http://app.test/settings/billing")
        .send(&client)
        .await
        .expect("create portal session");
    assert!(portal.id.starts_with("bps_"), "{}", portal.id);
    assert_eq!(portal.customer, customer);
    assert_eq!(portal.return_url.as_deref(), Some("http://app.test/settings/billing"));
    assert!(
        portal.url.starts_with("https://billing.stripe.com/p/session/test_"),
        "{}",
        portal.url
    );
    assert!(portal.configuration.id().starts_with("bpc_"));

    let (error, status) = stripe_error(
        CreateBillingPortalSession::new()
            .customer("cus_missing")
            .return_url("http://app.test/")
            .send(&client)
            .await,
    );
    assert_eq!(status, 400);
    assert_eq!(error.code, Some(stripe::ApiErrorsCode::ResourceMissing));
    assert_eq!(error.message.as_deref(), Some("No such customer: 'cus_missing'"));
}

#[tokio::test]
async fn completed_checkout_creates_a_subscription_the_client_reads() {
    let sim = StripeSim::builder()
        .price("price_team_yearly", 49_900, "year", "Leadgen Team")
        .start(any_addr())
        .await
        .expect("start");
    let client = client(&sim);
    let (customer, session_id, sub_id) = subscribe(&sim, &client, "ann@example.com", "price_pro_monthly").await;
    assert!(sub_id.starts_with("sub_"), "{sub_id}");

    let sub = RetrieveSubscription::new(sub_id.clone())
        .send(&client)
        .await
        .expect("retrieve subscription");
    assert_eq!(sub.status, stripe_billing::SubscriptionStatus::Active);
    assert_eq!(sub.customer.id().as_str(), customer);
    assert!(!sub.cancel_at_period_end);
    assert_eq!(sub.metadata.get("team_id").map(String::as_str), Some("t-7"));
    let pm = sub
        .default_payment_method
        .as_ref()
        .map(|p| p.id().to_string())
        .expect("payment method");
    assert!(pm.starts_with("pm_"), "{pm}");
    let item = &sub.items.data[0];
    assert_eq!(item.price.id.as_str(), "price_pro_monthly");
    assert_eq!(item.price.unit_amount, Some(2900));
    assert_eq!(
        item.price.recurring.as_ref().map(|r| r.interval.as_str()),
        Some("month")
    );
    let days = (item.current_period_end - item.current_period_start) / 86_400;
    assert!(
        (28..=31).contains(&days),
        "a monthly period lasts a calendar month, not {days} days"
    );

    let RetrieveCustomerReturned::Customer(c) = RetrieveCustomer::new(customer.clone())
        .send(&client)
        .await
        .expect("customer")
    else {
        panic!("customer deleted");
    };
    let default_pm = c
        .invoice_settings
        .and_then(|s| s.default_payment_method)
        .map(|p| p.id().to_string());
    assert_eq!(default_pm, Some(pm));

    let session = RetrieveCheckoutSession::new(session_id)
        .send(&client)
        .await
        .expect("session");
    assert_eq!(session.status, Some(stripe_checkout::CheckoutSessionStatus::Complete));
    assert_eq!(
        session.payment_status,
        stripe_checkout::CheckoutSessionPaymentStatus::Paid
    );
    assert_eq!(session.subscription.map(|s| s.id().to_string()), Some(sub_id.clone()));

    let listed = ListSubscription::new()
        .customer(customer.clone())
        .status(ListSubscriptionStatus::All)
        .limit(10)
        .send(&client)
        .await
        .expect("list subscriptions");
    assert_eq!(listed.data.len(), 1);
    assert_eq!(listed.data[0].id.as_str(), sub_id);
    assert!(!listed.has_more);
    assert_eq!(listed.url, "/v1/subscriptions");

    // A yearly price from the builder bills for a calendar year.
    let (_, _, yearly) = subscribe(&sim, &client, "bob@example.com", "price_team_yearly").await;
    let sub = RetrieveSubscription::new(yearly).send(&client).await.expect("yearly");
    let item = &sub.items.data[0];
    assert_eq!(item.price.unit_amount, Some(49_900));
    assert!((365..=366).contains(&((item.current_period_end - item.current_period_start) / 86_400)));
    assert!(sim.complete_checkout("cs_test_missing").await.is_err());
}

#[tokio::test]
async fn subscription_lists_filter_by_status_and_paginate() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let customer = create_customer(&client, "ann@example.com").await;
    let mut subs = Vec::new();
    for _ in 0..3 {
        let session = subscription_checkout(&customer, "price_pro_monthly")
            .send(&client)
            .await
            .expect("session");
        subs.push(sim.complete_checkout(&session.id).await.expect("complete"));
    }
    sim.cancel_subscription(&subs[0], false).await.expect("cancel");
    let (_, _, other) = subscribe(&sim, &client, "bob@example.com", "price_pro_yearly").await;

    let default = ListSubscription::new()
        .customer(customer.clone())
        .send(&client)
        .await
        .expect("list");
    let ids: Vec<String> = default.data.iter().map(|s| s.id.to_string()).collect();
    assert_eq!(
        ids,
        vec![subs[2].clone(), subs[1].clone()],
        "newest first, canceled left out"
    );

    let all = ListSubscription::new()
        .customer(customer.clone())
        .status(ListSubscriptionStatus::All)
        .send(&client)
        .await
        .expect("list all");
    assert_eq!(all.data.len(), 3);
    assert!(!all.data.iter().any(|s| s.id.as_str() == other));

    let first = ListSubscription::new()
        .customer(customer.clone())
        .status(ListSubscriptionStatus::All)
        .limit(2)
        .send(&client)
        .await
        .expect("page 1");
    assert!(first.has_more);
    let second = ListSubscription::new()
        .customer(customer.clone())
        .status(ListSubscriptionStatus::All)
        .limit(2)
        .starting_after(first.data[1].id.to_string())
        .send(&client)
        .await
        .expect("page 2");
    assert!(!second.has_more);
    assert_eq!(
        second.data.iter().map(|s| s.id.to_string()).collect::<Vec<_>>(),
        vec![subs[0].clone()]
    );
    assert_eq!(second.data[0].status, stripe_billing::SubscriptionStatus::Canceled);
}

#[tokio::test]
async fn idempotent_requests_replay_the_first_answer() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let key = IdempotencyKey::new("signup-u-42").expect("key");
    let create = CreateCustomer::new().email("ann@example.com");
    let first = create
        .customize()
        .request_strategy(RequestStrategy::Idempotent(key.clone()))
        .send(&client)
        .await
        .expect("first");
    let again = create
        .customize()
        .request_strategy(RequestStrategy::Idempotent(key.clone()))
        .send(&client)
        .await
        .expect("replay");
    assert_eq!(first.id, again.id);
    assert_eq!(sim.customers().len(), 1, "a replay creates nothing");
    let requests = sim.requests();
    assert_eq!(requests[0].idempotency_key.as_deref(), Some("signup-u-42"));
    assert!(!requests[0].replayed);
    assert!(requests[1].replayed);

    let url = format!("{}/v1/customers", sim.base_url);
    let (status, headers, body) =
        post_form(&url, &sim.secret_key(), "email=ann%40example.com", Some("signup-u-42")).await;
    assert_eq!(status, 200);
    assert_eq!(body["id"], first.id.as_str());
    assert_eq!(
        headers.get("idempotent-replayed").and_then(|v| v.to_str().ok()),
        Some("true")
    );
    assert!(headers.get("original-request").is_some());

    let (error, status) = stripe_error(
        CreateCustomer::new()
            .email("someone-else@example.com")
            .customize()
            .request_strategy(RequestStrategy::Idempotent(key))
            .send(&client)
            .await,
    );
    assert_eq!(status, 400);
    assert_eq!(error.type_, stripe::ApiErrorsType::IdempotencyError);
    let message = error.message.unwrap_or_default();
    assert!(
        message.starts_with(
            "Keys for idempotent requests can only be used with the same parameters they were first used with."
        ),
        "{message}"
    );
    assert_eq!(sim.customers().len(), 1);

    // A request rejected before the endpoint ran is not saved: the key still works.
    let (status, _, _) = post_form(&url, &sim.secret_key(), "bogus=1", Some("fresh-key")).await;
    assert_eq!(status, 400);
    let (status, headers, _) = post_form(&url, &sim.secret_key(), "email=b%40example.com", Some("fresh-key")).await;
    assert_eq!(status, 200);
    assert!(headers.get("idempotent-replayed").is_none());
}

#[tokio::test]
async fn bad_or_missing_keys_get_401() {
    let sim = StripeSim::builder()
        .secret_key("sk_test_right_key_1234")
        .start(any_addr())
        .await
        .expect("start");
    install_crypto();
    let wrong = ClientBuilder::new("sk_test_wrong_key_9876")
        .url(&sim.base_url)
        .build()
        .expect("client");
    let (error, status) = stripe_error(CreateCustomer::new().email("a@example.com").send(&wrong).await);
    assert_eq!(status, 401);
    assert_eq!(error.type_, stripe::ApiErrorsType::InvalidRequestError);
    let message = error.message.unwrap_or_default();
    assert!(message.starts_with("Invalid API Key provided: sk_test_"), "{message}");
    assert!(
        message.ends_with("9876") && !message.contains("wrong_key"),
        "key must be masked: {message}"
    );
    assert!(sim.customers().is_empty());

    let (status, headers, body) = get_json(&format!("{}/v1/customers", sim.base_url), None).await;
    assert_eq!(status, 401);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("You did not provide an API key.")
    );
    assert!(headers.get("www-authenticate").is_some());

    let (status, _, _) = get_json(
        &format!("{}/v1/customers", sim.base_url),
        Some("sk_test_right_key_1234"),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn missing_objects_are_404s_in_stripe_shape() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let key = sim.secret_key();
    let (status, headers, body) = get_json(&format!("{}/v1/customers/cus_x", sim.base_url), Some(&key)).await;
    assert_eq!(status, 404);
    let error = &body["error"];
    assert_eq!(error["type"], "invalid_request_error");
    assert_eq!(error["code"], "resource_missing");
    assert_eq!(error["message"], "No such customer: 'cus_x'");
    assert_eq!(error["param"], "id");
    assert!(
        headers
            .get("request-id")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("req_"))
    );

    let client = client(&sim);
    let (error, status) = stripe_error(RetrieveSubscription::new("sub_x").send(&client).await);
    assert_eq!(status, 404);
    assert_eq!(error.code, Some(stripe::ApiErrorsCode::ResourceMissing));
    assert_eq!(error.message.as_deref(), Some("No such subscription: 'sub_x'"));

    let (status, _, body) = get_json(&format!("{}/v1/checkout/sessions/cs_test_x", sim.base_url), Some(&key)).await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["message"], "No such checkout.session: 'cs_test_x'");

    let (status, _, body) = get_json(&format!("{}/v1/nothing_here", sim.base_url), Some(&key)).await;
    assert_eq!(status, 404);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Unrecognized request URL (GET: /v1/nothing_here)")
    );

    let (status, _, body) = post_form(
        &format!("{}/v1/customers", sim.base_url),
        &key,
        "emial=typo%40x.com",
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "parameter_unknown");
    assert_eq!(body["error"]["message"], "Received unknown parameter: emial");
}

#[tokio::test]
async fn prices_products_and_expansions() {
    let sim = StripeSim::start(any_addr()).await.expect("start");
    let client = client(&sim);
    let key = sim.secret_key();
    let (_, _, sub_id) = subscribe(&sim, &client, "ann@example.com", "price_pro_yearly").await;

    let (status, _, price) = get_json(&format!("{}/v1/prices/price_pro_yearly", sim.base_url), Some(&key)).await;
    assert_eq!(status, 200);
    assert_eq!(price["unit_amount"], 9900);
    assert_eq!(price["recurring"]["interval"], "year");
    // The price endpoint and the subscription item show the same object.
    let (_, _, sub) = get_json(&format!("{}/v1/subscriptions/{sub_id}", sim.base_url), Some(&key)).await;
    assert_eq!(sub["items"]["data"][0]["price"], price);

    let (status, _, product) = get_json(
        &format!(
            "{}/v1/products/{}",
            sim.base_url,
            price["product"].as_str().unwrap_or_default()
        ),
        Some(&key),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(product["name"], "Leadgen Pro");

    let expanded = RetrieveSubscription::new(sub_id.clone())
        .expand(vec!["customer".to_owned(), "latest_invoice".to_owned()])
        .send(&client)
        .await
        .expect("expanded subscription");
    let customer = expanded.customer.as_object().expect("customer object");
    assert_eq!(customer.email.as_deref(), Some("ann@example.com"));
    let invoice = expanded
        .latest_invoice
        .as_ref()
        .and_then(|i| i.as_object())
        .expect("invoice object");
    assert_eq!(invoice.amount_paid, 9900);
    assert_eq!(invoice.status, Some(stripe_billing::InvoiceStatus::Paid));

    let (status, _, body) = get_json(
        &format!("{}/v1/subscriptions/{sub_id}?expand[]=nonsense", sim.base_url),
        Some(&key),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["message"], "This property cannot be expanded (nonsense).");
}

/// The events of a checkout: order, signatures, payloads, and the webhook crate's parse.
#[tokio::test]
async fn checkout_sends_signed_events_in_order() {
    let (sim, receiver) = sim_with_receiver().await;
    assert_eq!(sim.webhook_secret(), WEBHOOK_SECRET);
    let client = client(&sim);
    let (customer, session_id, sub_id) = subscribe(&sim, &client, "ann@example.com", "price_pro_monthly").await;

    assert_eq!(
        receiver.types(),
        vec![
            "checkout.session.completed",
            "customer.subscription.created",
            "invoice.paid"
        ]
    );
    assert_eq!(receiver.rejected.load(Ordering::SeqCst), 0, "every signature verified");
    let received = receiver.all();
    for r in &received {
        let event = &r.event;
        assert!(event["id"].as_str().unwrap_or_default().starts_with("evt_"));
        assert_eq!(event["object"], "event");
        assert_eq!(event["api_version"], DEFAULT_API_VERSION);
        assert_eq!(event["livemode"], false);
        assert_eq!(event["pending_webhooks"], 1);
        assert_eq!(event["request"], json!({"id": null, "idempotency_key": null}));
        // The webhook crate checks the signature again and parses the object by type.
        let parsed = Webhook::construct_event(&r.raw, &r.signature, WEBHOOK_SECRET).expect("stripe_webhook parses");
        assert_eq!(parsed.id.as_str(), event["id"].as_str().unwrap_or_default());
    }
    match Webhook::construct_event(&received[0].raw, &received[0].signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::CheckoutSessionCompleted(session) => {
            assert_eq!(session.id.as_str(), session_id);
            assert_eq!(
                session.payment_status,
                stripe_checkout::CheckoutSessionPaymentStatus::Paid
            );
            assert_eq!(session.client_reference_id.as_deref(), Some("u-42"));
            assert_eq!(session.subscription.map(|s| s.id().to_string()), Some(sub_id.clone()));
            assert_eq!(session.customer.map(|c| c.id().to_string()), Some(customer.clone()));
        }
        other => panic!("expected checkout.session.completed, got {other:?}"),
    }
    match Webhook::construct_event(&received[1].raw, &received[1].signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::CustomerSubscriptionCreated(sub) => {
            assert_eq!(sub.id.as_str(), sub_id);
            assert_eq!(sub.status, stripe_billing::SubscriptionStatus::Active);
            assert_eq!(sub.metadata.get("team_id").map(String::as_str), Some("t-7"));
        }
        other => panic!("expected customer.subscription.created, got {other:?}"),
    }
    match Webhook::construct_event(&received[2].raw, &received[2].signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::InvoicePaid(invoice) => {
            assert_eq!(invoice.amount_paid, 2900);
            assert_eq!(invoice.customer.map(|c| c.id().to_string()), Some(customer));
            let parent_sub = invoice
                .parent
                .and_then(|p| p.subscription_details)
                .map(|d| d.subscription.id().to_string());
            assert_eq!(parent_sub, Some(sub_id));
        }
        other => panic!("expected invoice.paid, got {other:?}"),
    }
    let events = sim.events();
    assert_eq!(events.len(), 3);
    assert_eq!(
        sim.deliveries().iter().map(|(_, s)| *s).collect::<Vec<_>>(),
        vec![200, 200, 200]
    );
    assert_eq!(sim.deliveries()[0].0, events[0]["id"].as_str().unwrap_or_default());
}

#[tokio::test]
async fn cancel_and_failed_payment_events_carry_previous_attributes() {
    let (sim, receiver) = sim_with_receiver().await;
    let client = client(&sim);
    let (_, _, sub_id) = subscribe(&sim, &client, "ann@example.com", "price_pro_monthly").await;

    sim.cancel_subscription(&sub_id, true)
        .await
        .expect("cancel at period end");
    let last = receiver.all().pop().expect("an event");
    assert_eq!(last.event["type"], "customer.subscription.updated");
    assert_eq!(last.event["data"]["object"]["cancel_at_period_end"], true);
    assert_eq!(last.event["data"]["previous_attributes"]["cancel_at_period_end"], false);
    match Webhook::construct_event(&last.raw, &last.signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::CustomerSubscriptionUpdated(sub) => {
            assert!(sub.cancel_at_period_end);
            assert_eq!(sub.cancel_at, Some(sub.items.data[0].current_period_end));
            assert_eq!(sub.status, stripe_billing::SubscriptionStatus::Active);
        }
        other => panic!("expected customer.subscription.updated, got {other:?}"),
    }

    sim.fail_payment(&sub_id).await.expect("fail payment");
    let types = receiver.types();
    assert_eq!(
        types[types.len() - 2..],
        ["invoice.payment_failed", "customer.subscription.updated"]
    );
    let received = receiver.all();
    let failed = &received[received.len() - 2];
    match Webhook::construct_event(&failed.raw, &failed.signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::InvoicePaymentFailed(invoice) => {
            assert_eq!(invoice.status, Some(stripe_billing::InvoiceStatus::Open));
            assert_eq!(invoice.amount_remaining, 2900);
            assert_eq!(invoice.amount_paid, 0);
        }
        other => panic!("expected invoice.payment_failed, got {other:?}"),
    }
    let updated = &received[received.len() - 1].event;
    assert_eq!(updated["data"]["object"]["status"], "past_due");
    assert_eq!(updated["data"]["previous_attributes"]["status"], "active");
    let sub = RetrieveSubscription::new(sub_id.clone())
        .send(&client)
        .await
        .expect("retrieve");
    assert_eq!(sub.status, stripe_billing::SubscriptionStatus::PastDue);

    sim.set_subscription_status(&sub_id, "unpaid").await.expect("unpaid");
    assert!(sim.set_subscription_status(&sub_id, "weird").await.is_err());
    sim.cancel_subscription(&sub_id, false).await.expect("cancel now");
    let last = receiver.all().pop().expect("an event");
    assert_eq!(last.event["type"], "customer.subscription.deleted");
    match Webhook::construct_event(&last.raw, &last.signature, WEBHOOK_SECRET)
        .expect("parse")
        .data
        .object
    {
        EventObject::CustomerSubscriptionDeleted(sub) => {
            assert_eq!(sub.status, stripe_billing::SubscriptionStatus::Canceled);
            assert!(sub.ended_at.is_some());
        }
        other => panic!("expected customer.subscription.deleted, got {other:?}"),
    }
    assert!(
        sim.cancel_subscription(&sub_id, false).await.is_err(),
        "a canceled subscription cannot be canceled"
    );
    assert_eq!(receiver.rejected.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn held_back_events_can_be_delivered_in_any_order_and_failures_are_recorded() {
    let (receiver, url) = start_receiver().await;
    let sim = StripeSim::builder()
        .webhook(&url, WEBHOOK_SECRET)
        .webhooks_off()
        .start(any_addr())
        .await
        .expect("start");
    let client = client(&sim);
    subscribe(&sim, &client, "ann@example.com", "price_pro_monthly").await;
    assert!(receiver.all().is_empty(), "delivery is off");
    assert!(sim.deliveries().is_empty());
    let events = sim.events();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0]["pending_webhooks"], 0);
    let id = |i: usize| events[i]["id"].as_str().unwrap_or_default().to_owned();

    assert_eq!(sim.deliver(&id(2)).await.expect("deliver"), 200);
    assert_eq!(sim.deliver(&id(0)).await.expect("deliver"), 200);
    assert_eq!(sim.deliver(&id(0)).await.expect("replay"), 200);
    assert_eq!(
        receiver.types(),
        vec![
            "invoice.paid",
            "checkout.session.completed",
            "checkout.session.completed"
        ]
    );
    let received = receiver.all();
    assert_eq!(received[1].raw, received[2].raw, "a replay sends the same event");

    receiver.answer.store(500, Ordering::SeqCst);
    assert_eq!(sim.deliver(&id(1)).await.expect("deliver"), 500);
    assert_eq!(sim.deliveries().last().cloned(), Some((id(1), 500)));
    assert!(sim.deliver("evt_missing").await.is_err());

    sim.set_webhooks_enabled(true);
    receiver.answer.store(200, Ordering::SeqCst);
    let (_, _, sub) = subscribe(&sim, &client, "bob@example.com", "price_pro_monthly").await;
    assert_eq!(receiver.all().len(), 7, "delivery back on");
    assert!(!sub.is_empty());

    // An endpoint that is down: recorded as 0, not fatal to the change that caused it.
    let down = StripeSim::builder()
        .webhook("http://127.0.0.1:9/webhooks/stripe", WEBHOOK_SECRET)
        .start(any_addr())
        .await
        .expect("start");
    let down_client = self::client(&down);
    subscribe(&down, &down_client, "carol@example.com", "price_pro_monthly").await;
    assert_eq!(
        down.deliveries().iter().map(|(_, s)| *s).collect::<Vec<_>>(),
        vec![0, 0, 0]
    );
    assert!(
        down.deliver(down.events()[0]["id"].as_str().unwrap_or_default())
            .await
            .is_err()
    );
}

#[test]
fn sign_matches_an_independent_hmac_and_the_webhook_crate() {
    let payload = br#"{"id":"evt_1","object":"event"}"#;
    let header = sign(payload, "whsec_abc", 1_700_000_000);
    let mut mac = Hmac::<Sha256>::new_from_slice(b"whsec_abc").expect("key");
    mac.update(b"1700000000.");
    mac.update(payload);
    let expected = hex::encode(mac.finalize().into_bytes());
    assert_eq!(header, format!("t=1700000000,v1={expected}"));
    assert_eq!(
        header,
        Webhook::generate_test_header(
            std::str::from_utf8(payload).expect("utf8"),
            "whsec_abc",
            Some(1_700_000_000)
        )
    );
}

#[tokio::test]
async fn browser_pages_pay_redirect_and_cancel() {
    let (receiver, url) = start_receiver().await;
    let sim = StripeSim::builder()
        .webhook(&url, WEBHOOK_SECRET)
        .page_host(PageHost::Sim)
        .start(any_addr())
        .await
        .expect("start");
    let client = client(&sim);
    let customer = create_customer(&client, "ann@example.com").await;
    let session = subscription_checkout(&customer, "price_pro_monthly")
        .send(&client)
        .await
        .expect("session");
    let page_url = session.url.clone().expect("url");
    assert_eq!(page_url, format!("{}/_sim/checkout/{}", sim.base_url, session.id));

    let page = http()
        .get(&page_url)
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert!(page.contains(r#"id="pay""#), "{page}");
    assert!(page.contains(&format!(r#"action="/_sim/checkout/{}/complete""#, session.id)));
    assert!(page.contains(r#"href="http://app.test/billing/cancel""#));

    let paid = http().post(format!("{page_url}/complete")).send().await.expect("pay");
    assert_eq!(paid.status().as_u16(), 303);
    let location = paid
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert_eq!(
        location,
        format!("http://app.test/billing/success?session_id={}", session.id)
    );
    assert_eq!(
        receiver.types(),
        vec![
            "checkout.session.completed",
            "customer.subscription.created",
            "invoice.paid"
        ],
        "the redirect comes after the events were delivered"
    );
    let sub_id = sim.subscriptions()[0]["id"].as_str().unwrap_or_default().to_owned();

    let portal = CreateBillingPortalSession::new()
        .customer(customer.clone())
        .return_url("http://app.test/settings/billing")
        .send(&client)
        .await
        .expect("portal");
    assert_eq!(portal.url, format!("{}/_sim/portal/{}", sim.base_url, portal.id));
    let page = http()
        .get(&portal.url)
        .send()
        .await
        .expect("portal page")
        .text()
        .await
        .expect("html");
    assert!(page.contains("Cancel plan") && page.contains(&sub_id));
    assert!(page.contains(r#"id="return" href="http://app.test/settings/billing""#));

    let canceled = http()
        .post(format!("{}/cancel", portal.url))
        .send()
        .await
        .expect("cancel");
    assert_eq!(canceled.status().as_u16(), 303);
    let sub = RetrieveSubscription::new(sub_id)
        .send(&client)
        .await
        .expect("subscription");
    assert!(sub.cancel_at_period_end);
    assert_eq!(
        receiver.types().last().map(String::as_str),
        Some("customer.subscription.updated")
    );

    let missing = http()
        .get(format!("{}/_sim/checkout/cs_test_nope", sim.base_url))
        .send()
        .await
        .expect("404");
    assert_eq!(missing.status().as_u16(), 404);
}

#[tokio::test]
async fn sim_routes_drive_and_inspect() {
    let (sim, receiver) = sim_with_receiver().await;
    let client = client(&sim);
    let (_, _, sub_id) = subscribe(&sim, &client, "ann@example.com", "price_pro_monthly").await;
    let base = &sim.base_url;

    let failed = http()
        .post(format!("{base}/_sim/subscriptions/{sub_id}/fail_payment"))
        .send()
        .await
        .expect("fail");
    assert_eq!(failed.status().as_u16(), 200);
    let sub: Value = failed.json().await.expect("json");
    assert_eq!(sub["status"], "past_due");

    let events: Value = http()
        .get(format!("{base}/_sim/events"))
        .send()
        .await
        .expect("events")
        .json()
        .await
        .expect("json");
    assert_eq!(events.as_array().map(Vec::len), Some(5));
    let first = events[0]["id"].as_str().unwrap_or_default();
    let resent: Value = http()
        .post(format!("{base}/_sim/events/{first}/deliver"))
        .send()
        .await
        .expect("deliver")
        .json()
        .await
        .expect("json");
    assert_eq!(resent["status"], 200);
    assert_eq!(receiver.types().len(), 6);

    let requests: Value = http()
        .get(format!("{base}/_sim/requests"))
        .send()
        .await
        .expect("requests")
        .json()
        .await
        .expect("json");
    assert_eq!(requests[0]["path"], "/v1/customers");
    let switched: Value = http()
        .post(format!("{base}/_sim/webhooks?enabled=false"))
        .send()
        .await
        .expect("switch")
        .json()
        .await
        .expect("json");
    assert_eq!(switched["enabled"], false);
    let canceled = http()
        .post(format!("{base}/_sim/subscriptions/{sub_id}/cancel"))
        .send()
        .await
        .expect("cancel");
    let sub: Value = canceled.json().await.expect("json");
    assert_eq!(sub["status"], "canceled");
    assert_eq!(receiver.types().len(), 6, "delivery was switched off");
    assert_eq!(sim.events().len(), 6);
}

#[tokio::test]
async fn binary_prints_its_url_and_serves() {
    use tokio::io::AsyncBufReadExt;

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_stripe-sim"))
        .args(["--listen", ANY_ADDR, "--secret-key", "sk_test_from_cli_0000"])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn stripe-sim");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    tokio::time::timeout(
        Duration::from_secs(30),
        tokio::io::BufReader::new(stdout).read_line(&mut line),
    )
    .await
    .expect("printed in time")
    .expect("read line");
    let base = line
        .trim()
        .strip_prefix("stripe-sim listening on ")
        .expect("the exact announcement")
        .to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    let (status, _, price) = get_json(
        &format!("{base}/v1/prices/price_pro_monthly"),
        Some("sk_test_from_cli_0000"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(price["unit_amount"], 2900);
    child.kill().await.expect("stop stripe-sim");
}
