//! Simulator settings and the builder that starts a simulator with them.

use std::net::SocketAddr;

use super::{ids, server::StripeSim};

/// The secret key the simulator accepts when none is given; fixed so scripts can use it
/// without reading it back.
pub const DEFAULT_SECRET_KEY: &str = "sk_test_stripe_sim_0000000000000000000000";
/// The API version the simulator renders objects and events in: the one async-stripe
/// 1.0.0-rc.10 sends as `Stripe-Version`, so webhook events match what the client parses.
pub const DEFAULT_API_VERSION: &str = "2026-09-30.endive";
/// Where Stripe hosts Checkout pages.
pub const STRIPE_CHECKOUT_HOST: &str = "https://checkout.stripe.com";
/// Where Stripe hosts the customer portal.
pub const STRIPE_BILLING_HOST: &str = "https://billing.stripe.com";

/// A recurring price the simulator knows, as configured in a Stripe dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceSpec {
    /// The price ID clients pass as `line_items[0][price]`, e.g. `price_pro_monthly`.
    pub id: String,
    /// Amount per period in cents (USD).
    pub unit_amount: i64,
    /// Billing interval: `day`, `week`, `month` or `year`.
    pub interval: String,
    /// Name of the product the price belongs to; prices with the same name share a product.
    pub product_name: String,
}

impl PriceSpec {
    /// A price; `interval` is `"month"` or `"year"` (or `"day"`, `"week"`).
    pub fn new(id: &str, unit_amount: i64, interval: &str, product_name: &str) -> Self {
        Self {
            id: id.to_owned(),
            unit_amount,
            interval: interval.to_owned(),
            product_name: product_name.to_owned(),
        }
    }

    /// The product ID, derived from the product name so that it is stable across runs.
    pub fn product_id(&self) -> String {
        let slug: String = self
            .product_name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        format!("prod_{slug}")
    }
}

/// The prices a simulator starts with: Leadgen Pro, monthly and yearly.
pub fn default_prices() -> Vec<PriceSpec> {
    vec![
        PriceSpec::new("price_pro_monthly", 2900, "month", "Leadgen Pro"),
        PriceSpec::new("price_pro_yearly", 9900, "year", "Leadgen Pro"),
    ]
}

/// Where the `url` of Checkout and portal sessions points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PageHost {
    /// Stripe's own hosts (`https://checkout.stripe.com/c/pay/cs_test_...`), as Stripe answers.
    #[default]
    Stripe,
    /// The simulator's own pages (`{base_url}/_sim/checkout/{id}`), so a browser test can pay.
    Sim,
    /// The simulator's pages under another base URL, for a simulator behind a proxy or in a
    /// container whose listening address is not the one browsers reach.
    Base(String),
}

/// How a simulator behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    /// The only API key accepted as `Authorization: Bearer ...`. Default [`DEFAULT_SECRET_KEY`].
    pub secret_key: String,
    /// Webhook endpoint events are POSTed to; `None` records events without sending them.
    pub webhook_url: Option<String>,
    /// Signing secret of the webhook endpoint (`whsec_...`). Default: a random one.
    pub webhook_secret: String,
    /// Whether events are sent as they happen. Default true (when a URL is set).
    pub webhooks_enabled: bool,
    /// The prices clients may buy. Default [`default_prices`].
    pub prices: Vec<PriceSpec>,
    /// Where session URLs point. Default [`PageHost::Stripe`].
    pub page_host: PageHost,
    /// API version objects and events are rendered in. Default [`DEFAULT_API_VERSION`].
    pub api_version: String,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            secret_key: DEFAULT_SECRET_KEY.to_owned(),
            webhook_url: None,
            webhook_secret: ids::webhook_secret(),
            webhooks_enabled: true,
            prices: default_prices(),
            page_host: PageHost::Stripe,
            api_version: DEFAULT_API_VERSION.to_owned(),
        }
    }
}

/// Builds a simulator:
/// `StripeSim::builder().webhook(url, "whsec_x").price("price_team", 9900, "month", "Team").start(addr).await`.
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct StripeSimBuilder {
    config: SimConfig,
}

impl StripeSimBuilder {
    /// The API key clients must send.
    pub fn secret_key(mut self, key: &str) -> Self {
        self.config.secret_key = key.to_owned();
        self
    }

    /// The webhook endpoint and its signing secret (`whsec_...`).
    pub fn webhook(mut self, url: &str, secret: &str) -> Self {
        self.config.webhook_url = Some(url.to_owned());
        self.config.webhook_secret = secret.to_owned();
        self
    }

    /// Records events without sending them, so a test can post them itself (see
    /// [`StripeSim::set_webhooks_enabled`]).
    pub fn webhooks_off(mut self) -> Self {
        self.config.webhooks_enabled = false;
        self
    }

    /// Adds a price, or replaces the one with the same ID (the defaults included).
    pub fn price(mut self, id: &str, unit_amount_cents: i64, interval: &str, product_name: &str) -> Self {
        self.config.prices.retain(|p| p.id != id);
        self.config
            .prices
            .push(PriceSpec::new(id, unit_amount_cents, interval, product_name));
        self
    }

    /// Forgets the default prices, so only the ones added with [`Self::price`] exist.
    pub fn no_default_prices(mut self) -> Self {
        self.config.prices.clear();
        self
    }

    /// Where session URLs point.
    pub fn page_host(mut self, host: PageHost) -> Self {
        self.config.page_host = host;
        self
    }

    /// The API version objects and events are rendered in.
    pub fn api_version(mut self, version: &str) -> Self {
        self.config.api_version = version.to_owned();
        self
    }

    /// All settings at once.
    pub fn config(mut self, config: SimConfig) -> Self {
        self.config = config;
        self
    }

    /// Starts the simulator on `addr` (port 0 picks a free one).
    pub async fn start(self, addr: SocketAddr) -> std::io::Result<StripeSim> {
        StripeSim::start_with(addr, self.config).await
    }
}
