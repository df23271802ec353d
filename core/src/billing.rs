//! Subscriptions as the app sees them: what Stripe last said, reduced to what decides a
//! user's tier and what the billing screens show. Stripe itself is the API's business
//! (`leadgen-api`'s `billing` module); nothing here knows its types.

use crate::usage::Tier;

/// A user's current subscription, as Stripe last described it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// Stripe's `sub_...` id.
    pub subscription_id: String,
    /// Stripe's status: `active`, `trialing`, `past_due`, `canceled`, `unpaid`,
    /// `incomplete`, `incomplete_expired` or `paused`.
    pub status: String,
    /// `monthly`, `yearly`, or the price id when it is neither configured price.
    pub plan: String,
    /// End of the paid period (Unix seconds), when known.
    pub current_period_end: Option<i64>,
    /// The subscription ends at the period's end (cancelled in the portal).
    pub cancel_at_period_end: bool,
    /// A default payment method is on file.
    pub has_payment_method: bool,
}

impl Subscription {
    /// Whether it grants Pro. `past_due` still does: Stripe is retrying the payment, and
    /// access ends when it gives up (`unpaid` or `canceled`).
    pub fn is_active(&self) -> bool {
        matches!(self.status.as_str(), "active" | "trialing" | "past_due")
    }

    /// The tier it gives.
    pub fn tier(&self) -> Tier {
        if self.is_active() { Tier::Pro } else { Tier::Free }
    }

    /// The settings card's `subscriptionStatus`: `active`, `cancelled`, or `none`.
    pub fn card_status(&self) -> &'static str {
        match self.status.as_str() {
            _ if self.is_active() && !self.cancel_at_period_end => "active",
            // Cancelled in the portal: still Pro until the period ends, but the card says
            // it is cancelled, as the user asked.
            _ if self.is_active() => "cancelled",
            "canceled" | "unpaid" | "incomplete_expired" => "cancelled",
            _ => "none",
        }
    }
}

/// The tier of a user with this subscription (or none).
pub fn tier_of(subscription: Option<&Subscription>) -> Tier {
    subscription.map_or(Tier::Free, Subscription::tier)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(status: &str, cancel_at_period_end: bool) -> Subscription {
        Subscription {
            subscription_id: "sub_1".into(),
            status: status.into(),
            plan: "monthly".into(),
            current_period_end: None,
            cancel_at_period_end,
            has_payment_method: true,
        }
    }

    #[test]
    fn live_statuses_give_pro_and_ended_ones_free() {
        for status in ["active", "trialing", "past_due"] {
            assert_eq!(with(status, false).tier(), Tier::Pro, "{status}");
        }
        for status in ["canceled", "unpaid", "incomplete", "incomplete_expired", "paused"] {
            assert_eq!(with(status, false).tier(), Tier::Free, "{status}");
        }
        assert_eq!(tier_of(None), Tier::Free);
    }

    #[test]
    fn card_status_reads_as_the_spec_names_it() {
        assert_eq!(with("active", false).card_status(), "active");
        assert_eq!(with("active", true).card_status(), "cancelled");
        assert_eq!(with("canceled", false).card_status(), "cancelled");
        assert_eq!(with("incomplete", false).card_status(), "none");
    }
}
