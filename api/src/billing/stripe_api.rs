//! The Stripe calls Leadgen makes, through async-stripe: customers, Checkout sessions,
//! portal sessions, and reading a subscription's current state.

use leadgen_core::ids::WorkspaceId;
use std::{collections::HashMap, time::Duration};

use leadgen_core::{billing::Subscription, config::BillingConfig};
use secrecy::ExposeSecret;
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_billing::{billing_portal_session::CreateBillingPortalSession, subscription::RetrieveSubscription};
use stripe_checkout::CheckoutSessionMode;
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, CreateCheckoutSessionSubscriptionData,
};
use stripe_core::customer::CreateCustomer;

use super::{Interval, plan_for_price};

/// Attempts for one create, all with the same idempotency key.
const ATTEMPTS: u32 = 3;
/// Upper bound on one Stripe call.
const TIMEOUT: Duration = Duration::from_secs(20);

/// A Stripe failure, reduced to what the API needs to tell apart.
#[derive(Debug, thiserror::Error)]
pub enum StripeFailure {
    /// Stripe answered with an error (4xx/5xx); the text is Stripe's message.
    #[error("Stripe refused the request ({status}): {message}")]
    Refused {
        /// HTTP status.
        status: u16,
        /// Stripe's message.
        message: String,
    },
    /// Stripe could not be reached, timed out, or answered something unreadable.
    #[error("Stripe is unavailable: {0}")]
    Unavailable(String),
}

impl From<StripeError> for StripeFailure {
    fn from(error: StripeError) -> Self {
        match error {
            StripeError::Stripe(errors, status) => Self::Refused {
                status,
                message: errors.message.clone().unwrap_or_else(|| "no message".to_owned()),
            },
            other => Self::Unavailable(other.to_string()),
        }
    }
}

impl StripeFailure {
    fn is_transient(&self) -> bool {
        match self {
            Self::Unavailable(_) => true,
            Self::Refused { status, .. } => *status == 429 || *status >= 500,
        }
    }
}

/// A subscription as Stripe holds it, with whom it belongs to.
#[derive(Debug, Clone)]
pub struct StripeSubscription {
    /// The Stripe customer it bills.
    pub customer_id: String,
    /// `metadata.workspace_id` (`metadata.user_id` before workspaces: the user's id, which
    /// is their personal workspace's), which our Checkout sessions set.
    pub workspace_id: Option<String>,
    /// Its state, reduced to what we keep.
    pub subscription: Subscription,
}

/// What Checkout needs from us.
#[derive(Debug, Clone)]
pub struct CheckoutRequest<'a> {
    /// The workspace subscribing (client_reference_id and metadata, so webhooks can find
    /// it).
    pub workspace_id: &'a WorkspaceId,
    /// The user's Stripe customer.
    pub customer_id: &'a str,
    /// Monthly or yearly.
    pub interval: Interval,
    /// Where Stripe sends the browser after paying; `{CHECKOUT_SESSION_ID}` is filled in.
    pub success_url: String,
    /// Where Stripe sends the browser when the user backs out.
    pub cancel_url: String,
}

/// A Stripe client for the configured account.
#[derive(Clone)]
pub struct StripeApi {
    client: Client,
    config: BillingConfig,
}

impl std::fmt::Debug for StripeApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeApi")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl StripeApi {
    /// A client for `config` (its base URL lets tests use a fake).
    pub fn new(config: BillingConfig) -> anyhow::Result<Self> {
        let client = ClientBuilder::new(config.secret_key.expose_secret())
            .url(config.api_base_url.as_str())
            .timeout(TIMEOUT)
            .app_info("leadgen", Some(env!("CARGO_PKG_VERSION").to_owned()), None)
            .build()?;
        Ok(Self { client, config })
    }

    /// The configuration it was built with.
    pub fn config(&self) -> &BillingConfig {
        &self.config
    }

    /// Creates the workspace's Stripe customer (billed to `email`, the owner's). The
    /// idempotency key is derived from the workspace, so two racing first checkouts create
    /// one customer, not two.
    pub async fn create_customer(&self, workspace_id: &WorkspaceId, email: &str) -> Result<String, StripeFailure> {
        let key = format!("leadgen-customer-{workspace_id}");
        self.with_key(&key, |strategy| async move {
            let customer = CreateCustomer::new()
                .email(email)
                .metadata(HashMap::from([("workspace_id".to_owned(), workspace_id.to_string())]))
                .customize()
                .request_strategy(strategy)
                .send(&self.client)
                .await?;
            Ok(customer.id.to_string())
        })
        .await
    }

    /// Starts a hosted Checkout for Pro; answers the session's id and URL.
    pub async fn create_checkout_session(
        &self,
        request: CheckoutRequest<'_>,
    ) -> Result<(String, String), StripeFailure> {
        let key = format!("leadgen-checkout-{}", uuid::Uuid::new_v4());
        let price = request.interval.price_id(&self.config).to_owned();
        let metadata = HashMap::from([("workspace_id".to_owned(), request.workspace_id.to_string())]);
        self.with_key(&key, |strategy| {
            let (price, metadata, request) = (price.clone(), metadata.clone(), request.clone());
            async move {
                let mut line = CreateCheckoutSessionLineItems::new();
                line.price = Some(price);
                line.quantity = Some(1);
                let mut subscription_data = CreateCheckoutSessionSubscriptionData::new();
                subscription_data.metadata = Some(metadata.clone());
                let session = CreateCheckoutSession::new()
                    .mode(CheckoutSessionMode::Subscription)
                    .customer(request.customer_id)
                    .client_reference_id(request.workspace_id.as_str())
                    .line_items(vec![line])
                    .subscription_data(subscription_data)
                    .metadata(metadata)
                    .allow_promotion_codes(true)
                    .success_url(request.success_url)
                    .cancel_url(request.cancel_url)
                    .customize()
                    .request_strategy(strategy)
                    .send(&self.client)
                    .await?;
                let url = session
                    .url
                    .ok_or_else(|| StripeFailure::Unavailable("Checkout session without a URL".into()))?;
                Ok((session.id.to_string(), url))
            }
        })
        .await
    }

    /// Opens the customer portal for the user's customer; answers its URL.
    pub async fn create_portal_session(&self, customer_id: &str, return_url: &str) -> Result<String, StripeFailure> {
        let key = format!("leadgen-portal-{}", uuid::Uuid::new_v4());
        self.with_key(&key, |strategy| async move {
            let session = CreateBillingPortalSession::new()
                .customer(customer_id)
                .return_url(return_url)
                .customize()
                .request_strategy(strategy)
                .send(&self.client)
                .await?;
            Ok(session.url)
        })
        .await
    }

    /// The subscription as Stripe holds it now, with the customer it belongs to.
    pub async fn subscription(&self, subscription_id: &str) -> Result<StripeSubscription, StripeFailure> {
        let mut attempt = 0;
        loop {
            let result = RetrieveSubscription::new(subscription_id)
                .send(&self.client)
                .await
                .map_err(StripeFailure::from);
            match result {
                Ok(sub) => {
                    let price_id = sub
                        .items
                        .data
                        .first()
                        .map(|item| item.price.id.to_string())
                        .unwrap_or_default();
                    let period_end = sub.items.data.iter().map(|item| item.current_period_end).max();
                    let subscription = Subscription {
                        subscription_id: sub.id.to_string(),
                        status: sub.status.as_str().to_owned(),
                        plan: plan_for_price(&self.config, &price_id),
                        current_period_end: period_end,
                        cancel_at_period_end: sub.cancel_at_period_end,
                        has_payment_method: sub.default_payment_method.is_some() || sub.default_source.is_some(),
                    };
                    return Ok(StripeSubscription {
                        customer_id: sub.customer.id().to_string(),
                        workspace_id: sub
                            .metadata
                            .get("workspace_id")
                            .or_else(|| sub.metadata.get("user_id"))
                            .cloned(),
                        subscription,
                    });
                }
                Err(e) if e.is_transient() && attempt + 1 < ATTEMPTS => {
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(250 * 2u64.pow(attempt))).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Runs a create up to [`ATTEMPTS`] times with the same idempotency key, so a retry
    /// after a lost answer returns the first result instead of creating a second object.
    async fn with_key<T, F, Fut>(&self, key: &str, create: F) -> Result<T, StripeFailure>
    where
        F: Fn(RequestStrategy) -> Fut,
        Fut: Future<Output = Result<T, StripeFailure>>,
    {
        let key = IdempotencyKey::new(key).map_err(|e| StripeFailure::Unavailable(e.to_string()))?;
        let mut attempt = 0;
        loop {
            match create(RequestStrategy::Idempotent(key.clone())).await {
                Err(e) if e.is_transient() && attempt + 1 < ATTEMPTS => {
                    attempt += 1;
                    tracing::debug!(error = %e, attempt, "retrying Stripe create");
                    tokio::time::sleep(Duration::from_millis(250 * 2u64.pow(attempt))).await;
                }
                other => return other,
            }
        }
    }
}
