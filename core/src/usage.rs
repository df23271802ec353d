//! Usage: what a user may still do, and the spec's usage report.
//!
//! Two allowances, both configuration: searches per calendar month (the settings copy's
//! "10,000 searches per month") and leads per day (the FAQ's "1,000 leads per day"),
//! counted in UTC. A search reserves one search and up to 60 leads before it is queued;
//! when it finishes, the leads it did not deliver are given back (`Store::settle_search`).

use crate::ids::{SearchId, UserId, WorkspaceId};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::{
    CoreError, CoreResult,
    search::MAX_LEADS,
    store::{SearchRecord, Store},
};

/// Usage is "approaching" the monthly limit from this share on (yellow).
pub const APPROACHING_PERCENT: f64 = 75.0;
/// Usage is "near" the monthly limit from this share on (orange).
pub const NEAR_PERCENT: f64 = 90.0;

/// The allowances are settings (`[usage]`), declared with the configuration.
pub use crate::config::{TierLimits, UsageLimits};

/// A user's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "Tier", rename_all = "snake_case")
)]
pub enum Tier {
    /// No subscription.
    Free,
    /// Active Pro subscription.
    Pro,
}

impl Tier {
    fn name(self) -> &'static str {
        match self {
            Self::Free => "Free",
            Self::Pro => "Pro",
        }
    }
}

/// The calendar periods usage is counted in, for an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periods {
    /// `YYYY-MM`.
    pub month: String,
    /// `YYYY-MM-DD`.
    pub day: String,
    /// First day of next month.
    pub reset_date: NaiveDate,
    /// Whole days until `reset_date`.
    pub days_until_reset: i64,
}

/// The periods containing `now` (UTC).
pub fn periods(now: DateTime<Utc>) -> Periods {
    let today = now.date_naive();
    let (y, m) = if today.month() == 12 {
        (today.year() + 1, 1)
    } else {
        (today.year(), today.month() + 1)
    };
    let reset_date = NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(today);
    Periods {
        month: today.format("%Y-%m").to_string(),
        day: today.format("%Y-%m-%d").to_string(),
        reset_date,
        days_until_reset: (reset_date - today).num_days(),
    }
}

/// Why a search may not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsageDenied {
    /// No searches left this month.
    #[error("You have used all {limit} searches included this month. Your allowance resets on {reset}.")]
    MonthlySearches {
        /// The monthly limit.
        limit: i64,
        /// Reset date.
        reset: NaiveDate,
    },
    /// No leads left today.
    #[error("You have reached today's limit of {limit} leads. It resets at midnight UTC.")]
    DailyLeads {
        /// The daily limit.
        limit: i64,
    },
}

/// A search allowed to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    /// The new search's id.
    pub search_id: SearchId,
    /// Leads it may deliver.
    pub lead_budget: u32,
}

/// The spec's usage stats (`GET /api/leads/usage` data, and `usage` of `complete`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsageStats", rename_all = "camelCase")
)]
pub struct UsageReport {
    /// Monthly searches.
    pub usage: UsageNumbers,
    /// The current period.
    pub period: PeriodInfo,
    /// The Places key.
    pub api_key: ApiKeyInfo,
    /// The plan.
    pub tier: TierInfo,
    /// Warning levels (exclusive: at most one is true).
    pub status: UsageStatus,
    /// Tips for the user.
    pub recommendations: Vec<String>,
}

/// Monthly searches, and leads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsageNumbers", rename_all = "camelCase")
)]
pub struct UsageNumbers {
    /// Searches this month.
    pub current: i64,
    /// Searches allowed per month.
    pub limit: i64,
    /// Searches left this month.
    pub remaining: i64,
    /// `current / limit` in percent, one decimal.
    pub percentage: f64,
    /// Leads delivered this month (the paid card shows these).
    pub leads_this_month: i64,
    /// Leads used today, including those reserved by running searches.
    pub leads_today: i64,
    /// Leads allowed per day; null when uncapped.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub daily_lead_limit: Option<i64>,
}

/// When the monthly allowance resets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsagePeriod", rename_all = "camelCase")
)]
pub struct PeriodInfo {
    /// `YYYY-MM-DD`.
    pub reset_date: String,
    /// Whole days from today.
    pub days_until_reset: i64,
}

/// Whether a key is configured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsageApiKey", rename_all = "camelCase")
)]
pub struct ApiKeyInfo {
    /// A Places key is stored.
    pub configured: bool,
    /// When it was last saved (RFC 3339), if stored.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub last_updated: Option<String>,
}

/// The user's plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsageTier", rename_all = "camelCase")
)]
pub struct TierInfo {
    /// The plan's id.
    pub current: Tier,
    /// `Free` or `Pro`.
    pub name: String,
}

/// Warning levels for the usage card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "UsageLevel", rename_all = "camelCase")
)]
pub struct UsageStatus {
    /// At or over the monthly limit (red).
    pub is_over_limit: bool,
    /// From 90% (orange).
    pub is_near_limit: bool,
    /// From 75% (yellow).
    pub is_approaching_limit: bool,
}

/// Reserves and reports usage.
#[derive(Debug, Clone)]
pub struct UsageService {
    store: Store,
    limits: UsageLimits,
}

impl UsageService {
    /// A service over this store with these limits.
    pub fn new(store: Store, limits: UsageLimits) -> Self {
        Self { store, limits }
    }

    /// The limits of `tier`.
    pub fn limits(&self, tier: Tier) -> TierLimits {
        match tier {
            Tier::Free => self.limits.free,
            Tier::Pro => self.limits.pro,
        }
    }

    /// Reserves one search and up to 60 leads, and records the search as queued.
    pub async fn reserve(
        &self,
        workspace_id: &WorkspaceId,
        user_id: &UserId,
        tier: Tier,
        business_type: &str,
    ) -> CoreResult<Result<Reservation, UsageDenied>> {
        let limits = self.limits(tier);
        let p = periods(Utc::now());
        if self
            .store
            .grant_usage(workspace_id, &p.month, "searches", 1, limits.monthly_searches)
            .await?
            == 0
        {
            return Ok(Err(UsageDenied::MonthlySearches {
                limit: limits.monthly_searches,
                reset: p.reset_date,
            }));
        }
        let wanted = i64::from(MAX_LEADS);
        let budget = match limits.daily_leads {
            Some(cap) => {
                self.store
                    .grant_usage(workspace_id, &p.day, "leads", wanted, cap)
                    .await?
            }
            None => {
                self.store.add_usage(workspace_id, &p.day, "leads", wanted).await?;
                wanted
            }
        };
        if budget == 0 {
            self.store.release_usage(workspace_id, &p.month, "searches", 1).await?;
            return Ok(Err(UsageDenied::DailyLeads {
                limit: limits.daily_leads.unwrap_or_default(),
            }));
        }
        let search_id = SearchId::time_ordered();
        self.store
            .create_search(&SearchRecord {
                id: search_id.clone(),
                user_id: user_id.to_owned(),
                workspace_id: workspace_id.to_owned(),
                business_type: business_type.to_owned(),
                status: crate::search::SearchStatus::Queued.as_str().into(),
                lead_budget: budget,
                leads_delivered: None,
                day: p.day,
                month: p.month,
            })
            .await?;
        Ok(Ok(Reservation {
            search_id,
            lead_budget: u32::try_from(budget).map_err(|_| CoreError::Internal("lead budget out of range".into()))?,
        }))
    }

    /// Grants running search `search_id` up to `wanted` more leads (a full search counts
    /// its leads as they stream); 0 when the day's allowance is used up.
    pub async fn extend(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        tier: Tier,
        wanted: u32,
    ) -> CoreResult<u32> {
        let granted = self
            .store
            .extend_search_budget(
                workspace_id,
                search_id,
                i64::from(wanted),
                self.limits(tier).daily_leads,
            )
            .await?;
        Ok(u32::try_from(granted).unwrap_or(0))
    }

    /// The message a search that ran out of leads ends with.
    pub fn exhausted_message(&self, tier: Tier) -> String {
        match self.limits(tier).daily_leads {
            Some(limit) => UsageDenied::DailyLeads { limit }.to_string(),
            None => "Your lead allowance is used up for now.".to_owned(),
        }
    }

    /// The report for the usage card.
    pub async fn report(
        &self,
        workspace_id: &WorkspaceId,
        tier: Tier,
        key_updated_at: Option<i64>,
    ) -> CoreResult<UsageReport> {
        let limits = self.limits(tier);
        let p = periods(Utc::now());
        let counters = [(p.month.as_str(), "searches"), (&p.month, "leads"), (&p.day, "leads")];
        let (current, leads_this_month, leads_today) = match self.store.usage_counters(workspace_id, &counters).await?[..]
        {
            [searches, month_leads, day_leads] => (searches, month_leads, day_leads),
            _ => return Err(CoreError::Internal("usage counters missing".into())),
        };
        let limit = limits.monthly_searches.max(1);
        let percentage = ((current as f64 / limit as f64) * 1000.0).round() / 10.0;
        let status = UsageStatus {
            is_over_limit: percentage >= 100.0,
            is_near_limit: (NEAR_PERCENT..100.0).contains(&percentage),
            is_approaching_limit: (APPROACHING_PERCENT..NEAR_PERCENT).contains(&percentage),
        };
        let mut recommendations = Vec::new();
        if key_updated_at.is_none() {
            recommendations.push("Add your Google Places API key in Settings to start searching.".to_owned());
        }
        if status.is_over_limit {
            recommendations.push(format!(
                "You have used this month's searches; they reset on {}.",
                p.reset_date
            ));
        } else if status.is_near_limit || status.is_approaching_limit {
            recommendations
                .push("Narrow your searches (a city district or ZIP code) to make each one count.".to_owned());
        }
        if tier == Tier::Free && (status.is_near_limit || status.is_over_limit) {
            recommendations.push("Upgrade to Pro for more room each month.".to_owned());
        }
        recommendations
            .push("Set a daily quota on your key in the Google Cloud console to keep costs predictable.".to_owned());
        Ok(UsageReport {
            usage: UsageNumbers {
                current,
                limit: limits.monthly_searches,
                remaining: (limits.monthly_searches - current).max(0),
                percentage,
                leads_this_month,
                leads_today,
                daily_lead_limit: limits.daily_leads,
            },
            period: PeriodInfo {
                reset_date: p.reset_date.to_string(),
                days_until_reset: p.days_until_reset,
            },
            api_key: ApiKeyInfo {
                configured: key_updated_at.is_some(),
                last_updated: key_updated_at
                    .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0))
                    .map(|t| t.to_rfc3339()),
            },
            tier: TierInfo {
                current: tier,
                name: tier.name().into(),
            },
            status,
            recommendations,
        })
    }
}

/// A count as people read it: `1733` as `1,733`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// What to tell a user about to run a search expected to find `expected` leads when
/// today's allowance leaves `left` (`None`: no daily cap): nothing when it fits.
pub fn allowance_warning(expected: u64, left: Option<i64>) -> Option<String> {
    let left = u64::try_from(left?).unwrap_or(0);
    if expected <= left {
        return None;
    }
    if left == 0 {
        return Some("Today's lead allowance is used up; it resets at midnight UTC.".to_owned());
    }
    Some(format!(
        "Today's allowance leaves {} leads: this search would stop at {} of about {}. It resets at midnight UTC.",
        thousands(left),
        thousands(left),
        thousands(expected)
    ))
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn periods_roll_over_months_and_years() {
        let p = periods(Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 0).single().expect("date"));
        assert_eq!((p.month.as_str(), p.day.as_str()), ("2026-12", "2026-12-31"));
        assert_eq!(p.reset_date.to_string(), "2027-01-01");
        assert_eq!(p.days_until_reset, 1);
        let p = periods(Utc.with_ymd_and_hms(2026, 11, 21, 0, 0, 0).single().expect("date"));
        assert_eq!(
            (p.reset_date.to_string().as_str(), p.days_until_reset),
            ("2026-12-01", 10)
        );
    }

    #[test]
    fn denial_messages_say_what_and_when() {
        let m = UsageDenied::MonthlySearches {
            limit: 10_000,
            reset: NaiveDate::from_ymd_opt(2026, 12, 1).expect("d"),
        };
        assert!(m.to_string().contains("10000 searches") && m.to_string().contains("2026-12-01"));
        assert!(
            UsageDenied::DailyLeads { limit: 1000 }
                .to_string()
                .contains("1000 leads")
        );
    }

    #[test]
    fn counts_read_with_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(880), "880");
        assert_eq!(thousands(1733), "1,733");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn a_search_past_the_allowance_is_announced() {
        assert_eq!(allowance_warning(1733, None), None, "no daily cap");
        assert_eq!(allowance_warning(60, Some(1000)), None, "it fits");
        assert_eq!(
            allowance_warning(1733, Some(880)).as_deref(),
            Some(
                "Today's allowance leaves 880 leads: this search would stop at 880 of about 1,733. It resets at midnight UTC."
            )
        );
        assert!(allowance_warning(5, Some(0)).expect("warned").contains("used up"));
    }
}
