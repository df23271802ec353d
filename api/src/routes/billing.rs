//! Billing: `/api/billing/*`: plans, Checkout, the customer portal, subscription status,
//! and Stripe's webhook (a plain route: its signature covers the raw body).

use leadgen_core::{
    billing::Subscription,
    ids::{UserId, WorkspaceId},
    time::now_unix,
    usage::Tier,
};
use poem::{
    Body, IntoResponse, Request, Response, handler,
    http::StatusCode,
    web::{Data, Json as PoemJson},
};
use poem_openapi::{Enum, Object, OpenApi, payload::Json};
use secrecy::ExposeSecret;

use super::ApiTags;
use crate::{
    auth::{Auth, access},
    billing::{Interval, signature, stripe_api::CheckoutRequest, webhook},
    error::{ApiError, Fails, envelope, status::*},
    state::AppState,
};

/// What a server without Stripe says.
pub const NOT_CONFIGURED: &str = "Billing is not configured on this server.";
/// Pro's features, as the pricing section lists them.
const FEATURES: [&str; 4] = [
    "Unlimited searches (fair usage)",
    "Real-time sync",
    "Premium support",
    "Cancel anytime",
];

/// One way to pay for Pro.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct Plan {
    /// What to send as `interval` to start Checkout.
    pub id: Interval,
    /// Plan name.
    pub name: String,
    /// Price in US dollars per interval.
    pub price: f64,
    /// Currency (ISO code, lower case).
    pub currency: String,
    /// How often it bills.
    pub interval: BillingPeriod,
    /// The price per month, for comparing (yearly: 8.25).
    pub monthly_equivalent: f64,
    /// Saved over paying monthly for a year (yearly: 249); 0 for monthly.
    pub savings: f64,
    /// Searches per month included.
    pub monthly_searches: i64,
    /// What Pro includes.
    pub features: Vec<String>,
    /// Checkout can be started (Stripe is configured).
    pub checkout_available: bool,
}

/// How often a plan bills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum BillingPeriod {
    /// Every month.
    Month,
    /// Every year.
    Year,
}

/// The settings card's word for a subscription (spec: Billing card).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum CardStatus {
    /// Pro, renewing.
    Active,
    /// Ended, or set to end at the period's end.
    Cancelled,
    /// No subscription.
    None,
}

impl CardStatus {
    fn of(subscription: Option<&Subscription>) -> Self {
        match subscription.map(Subscription::card_status) {
            Some("active") => Self::Active,
            Some("cancelled") => Self::Cancelled,
            _ => Self::None,
        }
    }
}

/// `data` of the plans answer.
#[derive(Debug, Object)]
pub struct PlansData {
    /// Monthly and yearly Pro.
    pub plans: Vec<Plan>,
}

/// The plans.
#[derive(Debug, Object)]
pub struct PlansResponse {
    /// Always true.
    pub success: bool,
    /// The plans.
    pub data: PlansData,
}

/// Which plan to check out.
#[derive(Debug, Object)]
pub struct CheckoutSessionRequest {
    /// `monthly` or `yearly`.
    pub interval: Interval,
}

/// A started Checkout.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CheckoutSessionResponse {
    /// Always true.
    pub success: bool,
    /// Stripe's hosted Checkout page: send the browser there.
    pub url: String,
    /// Stripe's session id.
    pub session_id: String,
}

/// An opened customer portal.
#[derive(Debug, Object)]
pub struct PortalSessionResponse {
    /// Always true.
    pub success: bool,
    /// Stripe's portal page: send the browser there.
    pub url: String,
}

/// The subscription part of the billing status.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SubscriptionInfo {
    /// It grants Pro now.
    pub is_active: bool,
    /// Stripe's status (`active`, `past_due`, `canceled`...) or `none`.
    pub status: String,
    /// `monthly`, `yearly`, or `free` without a subscription.
    pub plan: String,
    /// End of the paid period (ISO 8601), when known.
    #[oai(nullable)]
    pub current_period_end: Option<String>,
    /// It ends at the period's end (cancelled in the portal).
    pub cancel_at_period_end: bool,
}

/// Billing flags.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BillingFlags {
    /// A payment method is on file.
    pub has_payment_method: bool,
    /// Checkout and the portal are available on this server.
    pub billing_configured: bool,
}

/// `data` of the billing status.
#[derive(Debug, Object)]
pub struct BillingStatusData {
    /// The subscription.
    pub subscription: SubscriptionInfo,
    /// Flags.
    pub flags: BillingFlags,
    /// The limits that apply.
    pub tier: Tier,
}

/// The billing status.
#[derive(Debug, Object)]
pub struct BillingStatusResponse {
    /// Always true.
    pub success: bool,
    /// Subscription and flags.
    pub data: BillingStatusData,
}

/// The settings card's subscription status.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SubscriptionStatusResponse {
    /// Always true.
    pub success: bool,
    /// Whether the subscription renews, ends, or there is none.
    pub subscription_status: CardStatus,
    /// `monthly`, `yearly`, or `free`.
    pub subscription_plan: String,
}

/// Billing operations.
pub struct BillingApi;

#[OpenApi(tag = "ApiTags::Billing", prefix_path = "/billing")]
impl BillingApi {
    /// The plans
    ///
    /// Public. Pro monthly ($29) and yearly ($99), with features and whether Checkout
    /// can be started on this server.
    #[oai(path = "/plans", method = "get", operation_id = "list_plans")]
    async fn list_plans(&self, state: Data<&AppState>) -> Json<PlansResponse> {
        let available = state.stripe.is_some();
        let monthly_searches = state.usage.limits(leadgen_core::usage::Tier::Pro).monthly_searches;
        let plan = |id: Interval, price: f64, interval: BillingPeriod, months: f64| Plan {
            id,
            name: "Pro".to_owned(),
            price,
            currency: "usd".to_owned(),
            interval,
            monthly_equivalent: (price / months * 100.0).round() / 100.0,
            savings: (29.0 * months - price).max(0.0),
            monthly_searches,
            features: FEATURES.iter().map(|f| (*f).to_owned()).collect(),
            checkout_available: available,
        };
        Json(PlansResponse {
            success: true,
            data: PlansData {
                plans: vec![
                    plan(Interval::Monthly, 29.0, BillingPeriod::Month, 1.0),
                    plan(Interval::Yearly, 99.0, BillingPeriod::Year, 12.0),
                ],
            },
        })
    }

    /// Start Checkout
    ///
    /// Creates a Stripe Checkout session for Pro, billed monthly or yearly, for the
    /// user's Stripe customer (created on first use). Answers the URL to send the browser
    /// to; Stripe comes back to `/billing/success?session_id=...` or `/billing/cancel`.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/create-checkout-session",
        method = "post",
        operation_id = "create_checkout_session"
    )]
    async fn create_checkout_session(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Billing>,
        body: Json<CheckoutSessionRequest>,
    ) -> Result<
        Json<CheckoutSessionResponse>,
        Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>,
    > {
        let stripe = state.stripe.as_ref().ok_or_else(not_configured)?;
        let interval = body.0.interval;
        let (user, workspace) = (&auth.0.user, auth.workspace());
        if state
            .store
            .subscription(workspace)
            .await?
            .is_some_and(|s| s.is_active())
        {
            return Err(ApiError::bad_request(
                "already_subscribed",
                "You already have an active subscription. Manage it from Settings, Billing.",
            )
            .into());
        }
        let customer_id = match state.store.billing_customer(workspace).await? {
            Some(id) => id,
            None => {
                let created = stripe
                    .create_customer(workspace, &user.email)
                    .await
                    .map_err(stripe_error)?;
                state.store.save_billing_customer(workspace, &created).await?
            }
        };
        let base = state.config.server.public_url.as_str().trim_end_matches('/');
        let ws = workspace_query(workspace, &user.id, '&');
        let (session_id, url) = stripe
            .create_checkout_session(CheckoutRequest {
                workspace_id: workspace,
                customer_id: &customer_id,
                interval,
                success_url: format!("{base}/billing/success?session_id={{CHECKOUT_SESSION_ID}}{ws}"),
                cancel_url: format!("{base}/billing/cancel{}", workspace_query(workspace, &user.id, '?')),
            })
            .await
            .map_err(stripe_error)?;
        Ok(Json(CheckoutSessionResponse {
            success: true,
            url,
            session_id,
        }))
    }

    /// Open the billing portal
    ///
    /// A Stripe customer-portal session for the user (change plan, payment method,
    /// cancel), returning to Settings, Billing.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/create-portal-session",
        method = "post",
        operation_id = "create_portal_session"
    )]
    async fn create_portal_session(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Billing>,
    ) -> Result<
        Json<PortalSessionResponse>,
        Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>,
    > {
        let stripe = state.stripe.as_ref().ok_or_else(not_configured)?;
        let customer_id = state.store.billing_customer(auth.workspace()).await?.ok_or_else(|| {
            ApiError::bad_request(
                "no_billing_account",
                "You have no billing account yet: subscribe first.",
            )
        })?;
        let return_url = format!(
            "{}/settings?tab=billing{}",
            state.config.server.public_url.as_str().trim_end_matches('/'),
            workspace_query(auth.workspace(), &auth.0.user.id, '&')
        );
        let url = stripe
            .create_portal_session(&customer_id, &return_url)
            .await
            .map_err(stripe_error)?;
        Ok(Json(PortalSessionResponse { success: true, url }))
    }

    /// Billing status
    ///
    /// The user's subscription as Stripe last reported it, and whether a payment method
    /// is on file.
    ///
    /// API tokens: need the `usage:read` scope.
    #[oai(path = "/status", method = "get", operation_id = "get_billing_status")]
    async fn get_billing_status(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::UsageRead>,
    ) -> Result<Json<BillingStatusResponse>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let subscription = state.store.subscription(auth.workspace()).await?;
        let tier = leadgen_core::billing::tier_of(subscription.as_ref());
        let info = subscription_info(subscription.as_ref());
        Ok(Json(BillingStatusResponse {
            success: true,
            data: BillingStatusData {
                flags: BillingFlags {
                    has_payment_method: subscription.as_ref().is_some_and(|s| s.has_payment_method),
                    billing_configured: state.stripe.is_some(),
                },
                subscription: info,
                tier,
            },
        }))
    }

    /// Subscription status for the settings card
    ///
    /// `subscriptionStatus` is `active`, `cancelled` (ended, or set to end at the
    /// period's end), or `none`.
    ///
    /// API tokens: need the `usage:read` scope.
    #[oai(path = "/subscription", method = "get", operation_id = "get_subscription_status")]
    async fn get_subscription_status(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::UsageRead>,
    ) -> Result<Json<SubscriptionStatusResponse>, Fails<{ UNAUTHORIZED | FORBIDDEN | BAD_GATEWAY | UNAVAILABLE }>> {
        let subscription = state.store.subscription(auth.workspace()).await?;
        Ok(Json(SubscriptionStatusResponse {
            success: true,
            subscription_status: CardStatus::of(subscription.as_ref()),
            subscription_plan: subscription.map_or_else(|| "free".to_owned(), |s| s.plan),
        }))
    }
}

fn subscription_info(subscription: Option<&Subscription>) -> SubscriptionInfo {
    match subscription {
        Some(s) => SubscriptionInfo {
            is_active: s.is_active(),
            status: s.status.clone(),
            plan: s.plan.clone(),
            current_period_end: s
                .current_period_end
                .and_then(|t| chrono::DateTime::from_timestamp(t, 0))
                .map(|t| t.to_rfc3339()),
            cancel_at_period_end: s.cancel_at_period_end,
        },
        None => SubscriptionInfo {
            is_active: false,
            status: "none".to_owned(),
            plan: "free".to_owned(),
            current_period_end: None,
            cancel_at_period_end: false,
        },
    }
}

fn not_configured() -> ApiError {
    ApiError::unavailable("billing_not_configured", NOT_CONFIGURED)
}

fn stripe_error(error: crate::billing::stripe_api::StripeFailure) -> ApiError {
    tracing::warn!(error = %error, "Stripe call failed");
    ApiError::bad_gateway(
        "billing_error",
        "The payment provider could not be reached. Please try again in a moment.",
    )
}

/// `POST /api/billing/webhook`: Stripe's events, signature-checked over the raw body.
/// 2xx tells Stripe to stop; 4xx for what will never verify; 5xx makes Stripe deliver
/// again later (our store or Stripe itself failed).
#[handler]
pub async fn stripe_webhook(state: Data<&AppState>, req: &Request, body: Body) -> Response {
    let Some(stripe) = state.stripe.as_ref() else {
        return envelope(
            StatusCode::SERVICE_UNAVAILABLE,
            "billing_not_configured",
            NOT_CONFIGURED,
        );
    };
    let Ok(bytes) = body.into_bytes_limit(crate::body_limit::STRIPE_EVENT_LIMIT).await else {
        return envelope(
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_request",
            "Event body too large or unreadable",
        );
    };
    let header = req.headers().get("stripe-signature").and_then(|v| v.to_str().ok());
    let secret = stripe.config().webhook_secret.expose_secret().to_owned();
    if let Err(e) = signature::verify(header, &bytes, &secret, now_unix()) {
        tracing::warn!(error = %e, "webhook signature refused");
        return envelope(
            StatusCode::BAD_REQUEST,
            "invalid_signature",
            &format!("Webhook signature verification failed: {e}"),
        );
    }
    match webhook::handle(&state.store, stripe, &bytes).await {
        Ok(handled) => {
            tracing::info!(?handled, "webhook event");
            let duplicate = handled == webhook::Handled::Duplicate;
            PoemJson(serde_json::json!({ "received": true, "duplicate": duplicate })).into_response()
        }
        Err(webhook::WebhookError::Malformed(message)) => envelope(
            StatusCode::BAD_REQUEST,
            "invalid_event",
            &format!("Not a Stripe event: {message}"),
        ),
        Err(e) => {
            tracing::error!(error = %e, "webhook event not applied; Stripe will retry");
            envelope(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "The event could not be applied now; deliver it again later.",
            )
        }
    }
}

/// The web app's `ws` parameter for pages Stripe sends the browser back to, so they open in
/// the workspace that paid (`lead` is `?` or `&`); nothing for the personal workspace,
/// which an address without `ws` means.
fn workspace_query(workspace: &WorkspaceId, user: &UserId, lead: char) -> String {
    if *workspace == WorkspaceId::personal(user) {
        String::new()
    } else {
        format!("{lead}ws={workspace}")
    }
}
