//! Object IDs in Stripe's shapes (`cus_` + 14 characters, `sub_1` + 23, ...). Random, so
//! two simulators never hand out the same ID and a test cannot depend on a value.

use rand::{Rng, distr::Alphanumeric};

fn random(len: usize) -> String {
    rand::rng()
        .sample_iter(&Alphanumeric)
        .take(len)
        .map(char::from)
        .collect()
}

/// `prefix` followed by `len` random letters and digits.
pub(crate) fn new_id(prefix: &str, len: usize) -> String {
    format!("{prefix}{}", random(len))
}

pub(crate) fn customer() -> String {
    new_id("cus_", 14)
}

pub(crate) fn checkout_session() -> String {
    new_id("cs_test_a1", 56)
}

pub(crate) fn checkout_line_item() -> String {
    new_id("li_1", 23)
}

pub(crate) fn portal_session() -> String {
    new_id("bps_1", 23)
}

pub(crate) fn portal_configuration() -> String {
    new_id("bpc_1", 23)
}

pub(crate) fn subscription() -> String {
    new_id("sub_1", 23)
}

pub(crate) fn subscription_item() -> String {
    new_id("si_", 14)
}

pub(crate) fn payment_method() -> String {
    new_id("pm_1", 23)
}

pub(crate) fn invoice() -> String {
    new_id("in_1", 23)
}

pub(crate) fn invoice_line() -> String {
    new_id("il_1", 23)
}

pub(crate) fn event() -> String {
    new_id("evt_1", 23)
}

pub(crate) fn request() -> String {
    new_id("req_", 14)
}

/// The random part of a portal URL (`https://billing.stripe.com/p/session/test_...`).
pub(crate) fn portal_token() -> String {
    random(48)
}

/// Stripe's invoice number prefix: eight upper-case letters and digits.
pub(crate) fn invoice_prefix() -> String {
    random(8).to_ascii_uppercase()
}

/// A signing secret in Stripe's format, for a simulator configured without one.
pub(crate) fn webhook_secret() -> String {
    new_id("whsec_", 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_stripe_prefixes_and_lengths() {
        let cus = customer();
        assert!(cus.starts_with("cus_"));
        assert_eq!(cus.len(), 18);
        assert!(checkout_session().starts_with("cs_test_"));
        assert_ne!(subscription(), subscription());
        assert!(invoice_prefix().chars().all(|c| !c.is_ascii_lowercase()));
    }
}
