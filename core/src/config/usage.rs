//! `[usage]`: the allowances of each tier.

use serde::Deserialize;

use super::de;

/// Allowances of one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierLimits {
    /// Searches per calendar month.
    pub monthly_searches: i64,
    /// Leads per day; `None` for no daily cap.
    pub daily_leads: Option<i64>,
}

/// Allowances of every tier, read from the `[usage]` section's four settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(from = "UsageSection")]
pub struct UsageLimits {
    /// Without a subscription.
    pub free: TierLimits,
    /// With an active Pro subscription.
    pub pro: TierLimits,
}

impl Default for UsageLimits {
    fn default() -> Self {
        UsageSection::default().into()
    }
}

/// `[usage]` as written: one key a tier and allowance, so each has its own variable.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct UsageSection {
    /// `LEADGEN_FREE_MONTHLY_SEARCHES`: searches a month without a subscription. Default 100.
    #[serde(deserialize_with = "de::whole")]
    free_monthly_searches: i64,
    /// `LEADGEN_FREE_DAILY_LEADS`: leads a day without a subscription (0: no cap). Default 1000.
    #[serde(deserialize_with = "de::whole_or_none")]
    free_daily_leads: Option<i64>,
    /// `LEADGEN_PRO_MONTHLY_SEARCHES`: searches a month with Pro. Default 10000.
    #[serde(deserialize_with = "de::whole")]
    pro_monthly_searches: i64,
    /// `LEADGEN_PRO_DAILY_LEADS`: leads a day with Pro (0: no cap). Default 0.
    #[serde(deserialize_with = "de::whole_or_none")]
    pro_daily_leads: Option<i64>,
}

impl Default for UsageSection {
    fn default() -> Self {
        Self {
            free_monthly_searches: 100,
            free_daily_leads: Some(1_000),
            pro_monthly_searches: 10_000,
            pro_daily_leads: None,
        }
    }
}

impl From<UsageSection> for UsageLimits {
    fn from(s: UsageSection) -> Self {
        Self {
            free: TierLimits {
                monthly_searches: s.free_monthly_searches,
                daily_leads: s.free_daily_leads,
            },
            pro: TierLimits {
                monthly_searches: s.pro_monthly_searches,
                daily_leads: s.pro_daily_leads,
            },
        }
    }
}
