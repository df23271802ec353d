//! Spend for agencies (issue #28 item 7): the client a search is run for, what a
//! workspace's searches cost by member and by client in a month, and the monthly cap an
//! owner may set on what they spend on the workspace's Google key.

use chrono::NaiveDate;

use crate::{CoreError, CoreResult};

/// Longest client label, in characters (a workspace name's bound).
pub const MAX_CLIENT_CHARS: usize = 80;

/// Highest monthly spend cap, in US dollars: far above any agency's month, low enough
/// that a typo of extra zeros is refused rather than silently meaning "no cap".
pub const MAX_MONTHLY_CAP_USD: f64 = 100_000.0;

/// A client label: trimmed, 1 to [`MAX_CLIENT_CHARS`] characters, no control characters
/// (a workspace name's rules). `key` is its case-folded form, which filters and groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLabel {
    /// As typed, trimmed.
    pub label: String,
    /// Lower-cased (Unicode): "Acme" and "ACME" are one client.
    pub key: String,
}

impl ClientLabel {
    /// Parses a label, or says what is wrong with it.
    pub fn parse(text: &str) -> CoreResult<Self> {
        let label = text.trim();
        if label.is_empty() {
            return Err(CoreError::Invalid(
                "client cannot be blank: leave it out for a search run for no client.".into(),
            ));
        }
        if label.chars().count() > MAX_CLIENT_CHARS {
            return Err(CoreError::Invalid(format!(
                "client has at most {MAX_CLIENT_CHARS} characters."
            )));
        }
        if label.chars().any(char::is_control) {
            return Err(CoreError::Invalid(
                "client cannot hold control characters (new lines, tabs).".into(),
            ));
        }
        Ok(Self {
            label: label.to_owned(),
            key: fold(label),
        })
    }
}

/// The case-folded form labels are compared by.
pub fn fold(label: &str) -> String {
    label.trim().to_lowercase()
}

/// A monthly spend cap in whole US cents, from dollars: positive, at most
/// [`MAX_MONTHLY_CAP_USD`], and a whole number of cents.
pub fn parse_monthly_cap_usd(usd: f64) -> CoreResult<i64> {
    if !usd.is_finite() || usd <= 0.0 || usd > MAX_MONTHLY_CAP_USD {
        return Err(CoreError::Invalid(format!(
            "monthlySpendCapUsd must be an amount above 0 and at most {} (US dollars); null removes the cap.",
            crate::money::format_usd(MAX_MONTHLY_CAP_USD)
        )));
    }
    let cents = (usd * 100.0).round();
    // Not a whole number of cents, or less than one (5e-324 is above 0 but no amount).
    if (usd * 100.0 - cents).abs() > 1e-6 || cents < 1.0 {
        return Err(CoreError::Invalid(
            "monthlySpendCapUsd is in dollars and cents: at most two decimals.".into(),
        ));
    }
    Ok(cents as i64)
}

/// Whole cents as dollars.
pub fn cents_to_usd(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// A month as the usage counters name it (`YYYY-MM`), checked.
pub fn parse_month(text: &str) -> CoreResult<String> {
    let valid = text.len() == 7 && NaiveDate::parse_from_str(&format!("{text}-01"), "%Y-%m-%d").is_ok();
    if !valid {
        return Err(CoreError::Invalid(format!(
            "month must be a calendar month written YYYY-MM (like 2026-11), not {text:?}."
        )));
    }
    Ok(text.to_owned())
}

/// What a running search may still spend under its workspace's monthly cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpendCap {
    /// The cap, US dollars a month.
    pub cap_usd: f64,
    /// What the month's other searches left of it when this one started (never below 0).
    pub left_usd: f64,
}

impl SpendCap {
    /// The cap in cents and the month's spend so far (dollars).
    pub fn new(cap_cents: i64, spent_usd: f64) -> Self {
        let cap_usd = cents_to_usd(cap_cents);
        Self {
            cap_usd,
            left_usd: (cap_usd - spent_usd).max(0.0),
        }
    }

    /// Whether nothing is left (a new search would be refused).
    pub fn reached(&self) -> bool {
        self.left_usd < 1e-9
    }
}

/// What a running search may still spend under the cap, kept current while it runs:
/// the worker lowers it after each page as the workspace's other running searches record
/// what they have spent so far, so searches running at once share the cap instead of
/// each spending all of what was left when it started. Clones share one value.
#[derive(Debug, Clone)]
pub struct LiveSpendCap {
    cap_usd: f64,
    /// `left_usd`'s bits (an `f64` in an atomic: read by the runner before each request,
    /// written by the sink after each page).
    left_bits: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl LiveSpendCap {
    /// Starts from what the cap left when the search started.
    pub fn new(start: SpendCap) -> Self {
        Self {
            cap_usd: start.cap_usd,
            left_bits: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(start.left_usd.to_bits())),
        }
    }

    /// The cap, US dollars a month.
    pub fn cap_usd(&self) -> f64 {
        self.cap_usd
    }

    /// What this search may spend in all (its own spend so far included).
    pub fn left_usd(&self) -> f64 {
        f64::from_bits(self.left_bits.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Takes what the workspace's other searches now leave: `others_spent_usd` is the
    /// month's spend of every search but this one, running ones' spend so far included.
    pub fn update(&self, others_spent_usd: f64) {
        let left = SpendCap::new((self.cap_usd * 100.0).round() as i64, others_spent_usd).left_usd;
        self.left_bits
            .store(left.to_bits(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// Searches, leads and Google cost of one member or one client in a month.
#[derive(Debug, Clone, PartialEq)]
pub struct SpendTotals {
    /// Searches started (those given back after failing before Google answered are not
    /// counted, as the monthly allowance does not count them).
    pub searches: i64,
    /// Leads delivered.
    pub leads: i64,
    /// US dollars at Google's list prices (finished searches, and lookups).
    pub cost_usd: f64,
    /// Of `cost_usd`, what lookups outside searches cost: places located for the map and
    /// searches estimated.
    pub lookups_usd: f64,
}

/// One member's share of a month.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberSpend {
    /// Who started the searches.
    pub user_id: crate::ids::UserId,
    /// Their sign-in email.
    pub email: String,
    /// Their figures.
    pub totals: SpendTotals,
}

/// One client's share of a month (`client` None: searches run for no client).
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSpend {
    /// The label, as first typed (labels differing only in case are one client).
    pub client: Option<String>,
    /// Its figures.
    pub totals: SpendTotals,
}

/// A month's spend by member and by client.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpendBreakdown {
    /// By member, most expensive first.
    pub members: Vec<MemberSpend>,
    /// By client, most expensive first; "no client" among them.
    pub clients: Vec<ClientSpend>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_label_is_trimmed_bounded_and_folded() {
        let label = ClientLabel::parse("  Acme Dental ").expect("ok");
        assert_eq!(label.label, "Acme Dental");
        assert_eq!(label.key, "acme dental");
        assert_eq!(ClientLabel::parse("ÉCOLE").expect("ok").key, "école", "beyond ASCII");
        assert!(ClientLabel::parse("  ").is_err());
        assert!(ClientLabel::parse(&"x".repeat(MAX_CLIENT_CHARS + 1)).is_err());
        assert!(
            ClientLabel::parse(&"é".repeat(MAX_CLIENT_CHARS)).is_ok(),
            "characters, not bytes"
        );
        assert!(ClientLabel::parse("a\tb").is_err());
    }

    #[test]
    fn a_cap_is_positive_bounded_and_in_cents() {
        assert_eq!(parse_monthly_cap_usd(250.0).expect("ok"), 25_000);
        assert_eq!(parse_monthly_cap_usd(0.07).expect("ok"), 7);
        assert_eq!(parse_monthly_cap_usd(19.99).expect("ok"), 1_999);
        assert!(parse_monthly_cap_usd(0.0).is_err());
        assert!(parse_monthly_cap_usd(-5.0).is_err());
        assert!(parse_monthly_cap_usd(0.001).is_err());
        assert!(parse_monthly_cap_usd(10.005).is_err());
        assert!(parse_monthly_cap_usd(MAX_MONTHLY_CAP_USD + 0.01).is_err());
        assert!(parse_monthly_cap_usd(f64::NAN).is_err());
        assert_eq!(parse_monthly_cap_usd(MAX_MONTHLY_CAP_USD).expect("ok"), 10_000_000);
    }

    #[test]
    fn a_month_is_yyyy_mm() {
        assert_eq!(parse_month("2026-11").expect("ok"), "2026-11");
        for bad in ["2026-13", "2026-1", "26-11", "2026-11-01", "november", ""] {
            assert!(parse_month(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_live_cap_shrinks_as_other_searches_spend_and_its_clones_see_it() {
        let live = LiveSpendCap::new(SpendCap::new(1_000, 4.0));
        let runner_view = live.clone();
        assert!((runner_view.left_usd() - 6.0).abs() < 1e-9);
        // Another search of the workspace spent 2.50 more while this one ran.
        live.update(6.5);
        assert!((runner_view.left_usd() - 3.5).abs() < 1e-9);
        // Past the cap, nothing is left (never a negative budget).
        live.update(12.0);
        assert_eq!(runner_view.left_usd(), 0.0);
        assert!((runner_view.cap_usd() - 10.0).abs() < 1e-9);
    }

    #[test]
    fn what_a_cap_leaves() {
        let cap = SpendCap::new(1_000, 4.5);
        assert_eq!(cap.cap_usd, 10.0);
        assert!((cap.left_usd - 5.5).abs() < 1e-9);
        assert!(!cap.reached());
        assert!(SpendCap::new(1_000, 12.0).reached(), "over the cap leaves nothing");
        assert_eq!(SpendCap::new(1_000, 12.0).left_usd, 0.0);
    }
}
