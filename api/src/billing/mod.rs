//! Billing with Stripe: hosted Checkout for the Pro plan, the customer portal, and signed
//! webhooks that keep each user's subscription (and so their tier) in step with Stripe.
//!
//! - [`stripe_api`]: the calls we make, through async-stripe (one customer per user,
//!   idempotency keys on every create).
//! - [`signature`]: the `Stripe-Signature` scheme.
//! - [`webhook`]: events applied once, resolved from the subscription's own state.

pub mod signature;
pub mod stripe_api;
pub mod webhook;

use leadgen_core::config::BillingConfig;

/// The two ways to pay for Pro: `monthly` or `yearly` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
pub enum Interval {
    /// $29 a month.
    Monthly,
    /// $99 a year.
    Yearly,
}

impl Interval {
    /// The configured Stripe price for this interval.
    pub fn price_id(self, config: &BillingConfig) -> &str {
        match self {
            Self::Monthly => &config.price_monthly,
            Self::Yearly => &config.price_yearly,
        }
    }
}

/// The plan name we store for a price: `monthly`, `yearly`, or the price id itself.
pub fn plan_for_price(config: &BillingConfig, price_id: &str) -> String {
    if price_id == config.price_monthly {
        "monthly".to_owned()
    } else if price_id == config.price_yearly {
        "yearly".to_owned()
    } else {
        price_id.to_owned()
    }
}
