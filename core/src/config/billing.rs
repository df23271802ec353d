//! `[stripe]`: billing, on when `STRIPE_SECRET_KEY` is set.

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer};
use url::Url;

use super::de::{self, field_error};

/// Stripe's API base URL.
pub const STRIPE_API_BASE_URL: &str = "https://api.stripe.com/";

/// Stripe billing; configured when `STRIPE_SECRET_KEY` is set.
#[derive(Clone)]
pub struct BillingConfig {
    /// `STRIPE_SECRET_KEY`: the secret API key (`sk_live_...` / `sk_test_...`).
    pub secret_key: SecretString,
    /// `STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_...`).
    pub webhook_secret: SecretString,
    /// `STRIPE_PRICE_MONTHLY`: price id of Pro billed monthly.
    pub price_monthly: String,
    /// `STRIPE_PRICE_YEARLY`: price id of Pro billed yearly.
    pub price_yearly: String,
    /// `STRIPE_API_BASE_URL`: Stripe's API (default `https://api.stripe.com/`); tests
    /// point it at a fake.
    pub api_base_url: Url,
}

impl std::fmt::Debug for BillingConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BillingConfig")
            .field("price_monthly", &self.price_monthly)
            .field("price_yearly", &self.price_yearly)
            .field("api_base_url", &self.api_base_url.as_str())
            .finish_non_exhaustive()
    }
}

/// `[stripe]` as written: every other key is required once the secret key is set.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct StripeSection {
    #[serde(deserialize_with = "de::optional_secret")]
    secret_key: Option<SecretString>,
    #[serde(deserialize_with = "de::optional_secret")]
    webhook_secret: Option<SecretString>,
    #[serde(deserialize_with = "de::optional_text")]
    price_monthly: Option<String>,
    #[serde(deserialize_with = "de::optional_text")]
    price_yearly: Option<String>,
    #[serde(deserialize_with = "de::http_url")]
    api_base_url: Url,
}

impl Default for StripeSection {
    fn default() -> Self {
        Self {
            secret_key: None,
            webhook_secret: None,
            price_monthly: None,
            price_yearly: None,
            api_base_url: Url::parse(STRIPE_API_BASE_URL).expect("Stripe's URL parses"),
        }
    }
}

/// `[stripe]`: `None` (plans shown, no checkout) without a secret key.
pub(super) fn billing<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BillingConfig>, D::Error> {
    let s = StripeSection::deserialize(d)?;
    let Some(secret_key) = s.secret_key else {
        return Ok(None);
    };
    let required = |field: &str, value: Option<String>| {
        value.ok_or_else(|| field_error::<D::Error>(field, "is required when STRIPE_SECRET_KEY is set"))
    };
    let webhook_secret = s
        .webhook_secret
        .ok_or_else(|| field_error::<D::Error>("webhook_secret", "is required when STRIPE_SECRET_KEY is set"))?;
    if !webhook_secret.expose_secret().starts_with("whsec_") {
        return Err(field_error(
            "webhook_secret",
            "must be the endpoint's signing secret (whsec_...)",
        ));
    }
    Ok(Some(BillingConfig {
        secret_key,
        webhook_secret,
        price_monthly: required("price_monthly", s.price_monthly)?,
        price_yearly: required("price_yearly", s.price_yearly)?,
        api_base_url: s.api_base_url,
    }))
}
