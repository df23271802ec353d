//! Billing against the Stripe fake (`leadgen_testkit::stripe_sim`), driven through the
//! real async-stripe client: Checkout with one customer per user, signed webhooks applied
//! once and resolved from Stripe's own state, tiers following the subscription.

use std::net::SocketAddr;

use leadgen_core::time::now_unix;
use leadgen_testkit::stripe_sim::{StripeSim, sign};
use serde_json::{Value, json};

use crate::{
    both_backends,
    support::{Backend, TestApp},
};

const WEBHOOK_SECRET: &str = "whsec_leadgen_test_secret";

struct BillingEnv {
    stripe: StripeSim,
    app: TestApp,
}

impl BillingEnv {
    async fn start(backend: Backend) -> Self {
        let stripe = StripeSim::builder()
            // Events are posted by the tests themselves, signed as each test needs.
            .webhooks_off()
            .webhook("http://127.0.0.1:9/unused", WEBHOOK_SECRET)
            .start(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("stripe fake");
        let app = TestApp::start(
            backend,
            vec![
                ("STRIPE_SECRET_KEY", stripe.secret_key()),
                ("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET.into()),
                ("STRIPE_PRICE_MONTHLY", "price_pro_monthly".into()),
                ("STRIPE_PRICE_YEARLY", "price_pro_yearly".into()),
                ("STRIPE_API_BASE_URL", stripe.base_url.clone()),
                ("LEADGEN_FREE_MONTHLY_SEARCHES", "5".into()),
                ("LEADGEN_PRO_MONTHLY_SEARCHES", "10000".into()),
            ],
        )
        .await;
        Self { stripe, app }
    }

    async fn checkout(&self, token: &str, interval: &str) -> Value {
        let (status, body) = self
            .app
            .post(
                "/api/billing/create-checkout-session",
                Some(token),
                Some(json!({"interval": interval})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// Posts `body` to the webhook with this `Stripe-Signature`.
    async fn post_event(&self, body: &[u8], signature: &str) -> (u16, Value) {
        let resp = self
            .app
            .client
            .post("/api/billing/webhook")
            .header("stripe-signature", signature)
            .content_type("application/json; charset=utf-8")
            .body(body.to_vec())
            .send()
            .await;
        let status = resp.0.status().as_u16();
        let text = resp.0.into_body().into_string().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// Delivers every event the fake produced so far, in order, signed now.
    async fn deliver_all(&self, from: usize) -> usize {
        let events = self.stripe.events();
        for event in &events[from..] {
            let body = serde_json::to_vec(event).expect("json");
            let (status, answer) = self.post_event(&body, &sign(&body, WEBHOOK_SECRET, now_unix())).await;
            assert_eq!(status, 200, "{} answered {answer}", event["type"]);
        }
        events.len()
    }
}

both_backends!(
    subscribing_moves_the_user_to_pro_and_cancelling_back_to_free,
    |backend| async move {
        let env = BillingEnv::start(backend).await;
        let (ava, token) = env.app.sign_in("ava").await;
        let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
        assert_eq!(card["subscriptionStatus"], "none");
        let (_, usage) = env.app.get("/api/leads/usage", Some(&token)).await;
        assert_eq!(usage["data"]["tier"]["current"], "free", "{usage}");
        assert_eq!(usage["data"]["usage"]["limit"], 5);

        let session = env.checkout(&token, "yearly").await;
        let session_id = session["sessionId"].as_str().expect("session id");
        let subscription_id = env.stripe.complete_checkout(session_id).await.expect("paid");
        let seen = env.deliver_all(0).await;

        let (_, status) = env.app.get("/api/billing/status", Some(&token)).await;
        assert_eq!(status["data"]["subscription"]["isActive"], true, "{status}");
        assert_eq!(status["data"]["subscription"]["plan"], "yearly");
        assert_eq!(status["data"]["subscription"]["status"], "active");
        assert_eq!(status["data"]["flags"]["hasPaymentMethod"], true);
        assert_eq!(status["data"]["tier"], "pro");
        let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
        assert_eq!(card["subscriptionStatus"], "active");
        assert_eq!(card["subscriptionPlan"], "yearly");
        let (_, usage) = env.app.get("/api/leads/usage", Some(&token)).await;
        assert_eq!(usage["data"]["tier"]["current"], "pro", "{usage}");
        assert_eq!(usage["data"]["usage"]["limit"], 10000);

        // A second Checkout is refused while subscribed.
        let (status, body) = env
            .app
            .post(
                "/api/billing/create-checkout-session",
                Some(&token),
                Some(json!({"interval": "monthly"})),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"], "already_subscribed");

        // Cancelled now: back to free limits.
        env.stripe
            .cancel_subscription(&subscription_id, false)
            .await
            .expect("cancel");
        let seen = env.deliver_all(seen).await;
        let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
        assert_eq!(card["subscriptionStatus"], "cancelled");
        let (_, usage) = env.app.get("/api/leads/usage", Some(&token)).await;
        assert_eq!(usage["data"]["tier"]["current"], "free", "{usage}");
        assert_eq!(usage["data"]["usage"]["limit"], 5);

        // The audit log: each change of plan, by the billing provider (no actor), newest
        // first.
        let (_, log) = env
            .app
            .get(&format!("/api/workspaces/{ava}/audit-events"), Some(&token))
            .await;
        let changes: Vec<&Value> = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["action"] == "plan_changed")
            .collect();
        assert!(changes.len() >= 2, "{log}");
        assert!(changes.iter().all(|e| e["actor"].is_null()), "{log}");
        assert_eq!(changes[0]["details"]["status"], "canceled", "{log}");
        assert!(
            changes
                .iter()
                .any(|e| e["details"]["status"] == "active" && e["target"] == "yearly"),
            "{log}"
        );

        // A late copy of the old "created" event cannot bring Pro back: the state is read
        // from Stripe, not from the event.
        let created = env
            .stripe
            .events()
            .into_iter()
            .find(|e| e["type"] == "customer.subscription.created")
            .expect("created event");
        let mut late = created.clone();
        late["id"] = json!("evt_late_copy_of_created");
        let body = serde_json::to_vec(&late).expect("json");
        let (status, _) = env.post_event(&body, &sign(&body, WEBHOOK_SECRET, now_unix())).await;
        assert_eq!(status, 200);
        let (_, status) = env.app.get("/api/billing/status", Some(&token)).await;
        assert_eq!(status["data"]["subscription"]["isActive"], false, "{status}");
        assert_eq!(status["data"]["tier"], "free");
        assert_eq!(seen, env.stripe.events().len());
    }
);

#[tokio::test]
async fn checkout_uses_the_chosen_price_and_one_customer_per_user() {
    let env = BillingEnv::start(Backend::Sqlite).await;
    let (user_id, token) = env.app.sign_in("ben").await;
    let first = env.checkout(&token, "monthly").await;
    let second = env.checkout(&token, "yearly").await;
    assert_ne!(first["sessionId"], second["sessionId"]);
    assert!(first["url"].as_str().expect("url").starts_with("http"));

    let customers = env.stripe.customers();
    assert_eq!(customers.len(), 1, "one customer for the user: {customers:?}");
    assert_eq!(customers[0]["email"], "ben@example.com");
    // The plan is the workspace's: the personal one here, whose id is the user's.
    assert_eq!(customers[0]["metadata"]["workspace_id"], user_id.as_str());

    let creates: Vec<_> = env
        .stripe
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/checkout/sessions")
        .collect();
    assert_eq!(creates.len(), 2);
    let prices: Vec<&str> = creates
        .iter()
        .map(|r| r.param("line_items[0][price]").expect("price"))
        .collect();
    assert_eq!(prices, ["price_pro_monthly", "price_pro_yearly"]);
    for create in &creates {
        assert_eq!(create.param("mode"), Some("subscription"));
        assert_eq!(create.param("customer"), customers[0]["id"].as_str());
        assert_eq!(create.param("client_reference_id"), Some(user_id.as_str()));
        assert_eq!(
            create.param("success_url"),
            Some("http://127.0.0.1:8080/billing/success?session_id={CHECKOUT_SESSION_ID}")
        );
        assert_eq!(create.param("cancel_url"), Some("http://127.0.0.1:8080/billing/cancel"));
    }
    for request in env.stripe.requests().iter().filter(|r| r.method == "POST") {
        assert!(
            request.idempotency_key.is_some(),
            "{} without an idempotency key",
            request.path
        );
    }

    // A different user gets a customer of their own; the portal needs one.
    let (_, other) = env.app.sign_in("cat").await;
    let (status, body) = env
        .app
        .post("/api/billing/create-portal-session", Some(&other), None)
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "no_billing_account");
    let (status, body) = env
        .app
        .post("/api/billing/create-portal-session", Some(&token), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["url"].as_str().expect("url").starts_with("http"));
    let (status, body) = env
        .app
        .post(
            "/api/billing/create-checkout-session",
            Some(&token),
            Some(json!({"interval": "weekly"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn webhook_signatures_are_checked_and_events_apply_once() {
    let env = BillingEnv::start(Backend::Sqlite).await;
    let (_, token) = env.app.sign_in("dee").await;
    let session = env.checkout(&token, "monthly").await;
    env.stripe
        .complete_checkout(session["sessionId"].as_str().expect("id"))
        .await
        .expect("paid");
    let event = env
        .stripe
        .events()
        .into_iter()
        .find(|e| e["type"] == "checkout.session.completed")
        .expect("event");
    let body = serde_json::to_vec(&event).expect("json");
    let now = now_unix();

    let wrong_secret = sign(&body, "whsec_someone_else", now);
    assert_eq!(env.post_event(&body, &wrong_secret).await.0, 400);
    let stale = sign(&body, WEBHOOK_SECRET, now - 301);
    let (status, answer) = env.post_event(&body, &stale).await;
    assert_eq!(status, 400);
    assert!(
        answer["message"].as_str().expect("message").contains("timestamp"),
        "{answer}"
    );
    let mut tampered = body.clone();
    let at = tampered.len() / 2;
    tampered[at] = if tampered[at] == b'a' { b'b' } else { b'a' };
    assert_eq!(
        env.post_event(&tampered, &sign(&body, WEBHOOK_SECRET, now)).await.0,
        400
    );
    let (status, _) = env.post_event(&body, "").await;
    assert_eq!(status, 400);
    let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(
        card["subscriptionStatus"], "none",
        "nothing applied from refused events"
    );

    // Several v1 values (a secret being rolled): any one matching is enough.
    let good = sign(&body, WEBHOOK_SECRET, now);
    let old = sign(&body, "whsec_previous", now);
    let v1 = |header: &str| header.split("v1=").nth(1).expect("v1").to_owned();
    let both = format!("t={now},v1={},v1={}", v1(&old), v1(&good));
    let (status, answer) = env.post_event(&body, &both).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["duplicate"], false);
    let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(card["subscriptionStatus"], "active");

    // The same event again (Stripe retries) is acknowledged and not applied twice.
    let (status, answer) = env.post_event(&body, &good).await;
    assert_eq!(status, 200);
    assert_eq!(answer["duplicate"], true);
    let (_, card) = env.app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(card["subscriptionStatus"], "active");
}

#[tokio::test]
async fn without_stripe_plans_show_and_billing_says_it_is_not_configured() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let (status, plans) = app.get("/api/billing/plans", None).await;
    assert_eq!(status, 200, "{plans}");
    let plans = plans["data"]["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), 2);
    assert_eq!(plans[0]["price"], 29.0);
    assert_eq!(plans[0]["interval"], "month");
    assert_eq!(plans[1]["price"], 99.0);
    assert_eq!(plans[1]["interval"], "year");
    assert_eq!(plans[1]["savings"], 249.0);
    assert_eq!(plans[1]["monthlyEquivalent"], 8.25);
    assert!(plans.iter().all(|p| p["checkoutAvailable"] == false));

    let (_, token) = app.sign_in("eve").await;
    let (status, body) = app
        .post(
            "/api/billing/create-checkout-session",
            Some(&token),
            Some(json!({"interval": "monthly"})),
        )
        .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"], "billing_not_configured");
    assert_eq!(body["message"], "Billing is not configured on this server.");
    let (status, _) = app.post("/api/billing/create-portal-session", Some(&token), None).await;
    assert_eq!(status, 503);
    let (status, body) = app.get("/api/billing/status", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["flags"]["billingConfigured"], false);
    let (status, _) = app
        .post("/api/billing/webhook", None, Some(json!({"id": "evt_1"})))
        .await;
    assert_eq!(status, 503);
    let (status, _) = app.get("/api/billing/status", None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_teams_checkout_returns_to_the_team_workspace() {
    let env = BillingEnv::start(Backend::Sqlite).await;
    let (_, token) = env.app.sign_in("ben").await;
    let (status, team) = env
        .app
        .post("/api/workspaces", Some(&token), Some(json!({"name": "Acme"})))
        .await;
    assert_eq!(status, 200, "{team}");
    let team = team["id"].as_str().expect("id").to_owned();
    let resp = env
        .app
        .client
        .post("/api/billing/create-checkout-session")
        .header("authorization", format!("Bearer {token}"))
        .header("leadgen-workspace", team.as_str())
        .body_json(&json!({"interval": "monthly"}))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let create = env
        .stripe
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path == "/v1/checkout/sessions")
        .expect("a Checkout session");
    // Stripe sends the browser back into the workspace that pays, not the personal one.
    assert_eq!(
        create.param("success_url").map(str::to_owned),
        Some(format!(
            "http://127.0.0.1:8080/billing/success?session_id={{CHECKOUT_SESSION_ID}}&ws={team}"
        ))
    );
    assert_eq!(
        create.param("cancel_url").map(str::to_owned),
        Some(format!("http://127.0.0.1:8080/billing/cancel?ws={team}"))
    );
}
