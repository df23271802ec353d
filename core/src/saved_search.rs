//! Saved searches (issue #29 items 3 and 4): a workspace's search kept under a name, run
//! on demand or on a schedule (a five-field cron expression in an IANA time zone). This
//! module holds what both the API and the scheduler need: the schedule parsed once into a
//! [`Schedule`] that cannot be invalid, when it runs next, the delivery choices, and
//! [`run_options`], the one place a run's search is derived from the saved search.

use std::str::FromStr;

use croner::{Cron, parser::CronParser};
use jiff::{Timestamp, Zoned, tz::TimeZone};
use serde::{Deserialize, Serialize};

use crate::{CoreError, CoreResult, search::ValidSearch};

/// Longest name.
pub const MAX_NAME_CHARS: usize = 100;
/// Saved searches a workspace may hold.
pub const MAX_PER_WORKSPACE: i64 = 200;
/// Longest sheet tab title (Google's own limit is 100).
pub const MAX_TAB_CHARS: usize = 100;
/// How many consecutive runs [`Schedule::parse`] looks at for the shortest interval: a
/// year of hourly runs, and at least a full year of anything rarer (a daily schedule is
/// 365), so daylight-saving changes are seen.
const INTERVAL_SAMPLES: usize = 9_000;

/// A schedule that parsed, in a zone that exists, and runs no more often than allowed.
#[derive(Debug, Clone)]
pub struct Schedule {
    cron: Cron,
    zone: TimeZone,
    expression: String,
    zone_name: String,
}

impl Schedule {
    /// Parses `expression` (five fields: minute, hour, day of month, month, day of week)
    /// in `zone` (an IANA name such as `Europe/Paris`), refusing one whose two consecutive
    /// runs can come less than `min_interval_minutes` apart. Errors are messages for the
    /// user ([`CoreError::Invalid`]).
    pub fn parse(expression: &str, zone: &str, min_interval_minutes: u32) -> CoreResult<Self> {
        let expression = expression.trim();
        let fields = expression.split_whitespace().count();
        if fields != 5 {
            return Err(CoreError::Invalid(format!(
                "The schedule must be a cron expression of five fields (minute hour day-of-month month day-of-week), such as \"0 9 * * 1\"; this one has {fields}."
            )));
        }
        let cron = CronParser::builder().build().parse(expression).map_err(|e| {
            CoreError::Invalid(format!(
                "The schedule \"{expression}\" is not a valid cron expression: {e}."
            ))
        })?;
        let zone_name = zone.trim();
        let tz = TimeZone::get(zone_name).map_err(|_| {
            CoreError::Invalid(format!(
                "The time zone \"{zone_name}\" is not an IANA time zone name, such as \"Europe/Paris\" or \"UTC\"."
            ))
        })?;
        let schedule = Self {
            cron,
            zone: tz,
            expression: expression.to_owned(),
            zone_name: zone_name.to_owned(),
        };
        let shortest = schedule
            .shortest_interval_secs()
            .ok_or_else(|| CoreError::Invalid(format!("The schedule \"{expression}\" never runs.")))?;
        if shortest < i64::from(min_interval_minutes) * 60 {
            return Err(CoreError::Invalid(format!(
                "The schedule \"{expression}\" runs every {} at times; scheduled runs must be at least {} apart.",
                minutes_words(shortest / 60),
                minutes_words(i64::from(min_interval_minutes)),
            )));
        }
        Ok(schedule)
    }

    /// The expression as given (trimmed).
    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// The zone's IANA name.
    pub fn zone_name(&self) -> &str {
        &self.zone_name
    }

    /// The first run strictly after `unix` (Unix seconds), if the expression ever runs
    /// again.
    pub fn next_after(&self, unix: i64) -> Option<i64> {
        let at = Timestamp::from_second(unix).ok()?.to_zoned(self.zone.clone());
        self.cron
            .find_next_occurrence(&at, false)
            .ok()
            .map(|next| next.timestamp().as_second())
    }

    /// The shortest gap between two consecutive runs over [`INTERVAL_SAMPLES`] runs from
    /// the start of 2026 (seconds); `None` when it runs fewer than twice.
    fn shortest_interval_secs(&self) -> Option<i64> {
        let start: Zoned = Timestamp::from_second(1_767_225_600).ok()?.to_zoned(self.zone.clone());
        let mut runs = self
            .cron
            .iter_after(start)
            .take(INTERVAL_SAMPLES)
            .map(|z| z.timestamp().as_second());
        let mut previous = runs.next()?;
        let mut shortest: Option<i64> = None;
        for run in runs {
            let gap = run - previous;
            shortest = Some(shortest.map_or(gap, |s| s.min(gap)));
            previous = run;
        }
        shortest
    }
}

impl FromStr for Schedule {
    type Err = CoreError;

    /// A stored schedule: `expression` and zone separated by `@` (no minimum interval:
    /// it was checked when saved).
    fn from_str(s: &str) -> CoreResult<Self> {
        let (expression, zone) = s
            .rsplit_once('@')
            .ok_or_else(|| CoreError::Invalid(format!("not a stored schedule: {s}")))?;
        Self::parse(expression, zone, 0)
    }
}

fn minutes_words(minutes: i64) -> String {
    match minutes {
        1 => "1 minute".to_owned(),
        m if m % 60 == 0 && m >= 60 => match m / 60 {
            1 => "1 hour".to_owned(),
            h => format!("{h} hours"),
        },
        m => format!("{m} minutes"),
    }
}

/// Where a run's new leads go (issue #29 item 5; stored and validated here, delivered by
/// the delivery work that follows).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    /// To the workspace's webhooks, as a `saved_search.new_places` event.
    #[serde(default)]
    pub webhook: bool,
    /// By email: to the saved search's creator, or to a member's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<EmailTo>,
    /// Appended to a spreadsheet's tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetTarget>,
    /// Deliver even a run that found nothing new (an empty CSV, no rows appended, a
    /// webhook event with no leads), so silence can be told from a broken monitor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub notify_when_empty: bool,
}

/// A way a run's new leads are delivered (the saved search's `lastDelivery` has one entry
/// for each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// The workspace's webhooks.
    Webhook,
    /// Email with a CSV.
    Email,
    /// A spreadsheet's tab.
    Sheet,
}

impl Channel {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Webhook => "webhook",
            Self::Email => "email",
            Self::Sheet => "sheet",
        }
    }
}

/// Who a run's email goes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EmailTo {
    /// `true`: the saved search's creator's own address (`false` is stored as no email).
    Creator(bool),
    /// One address, which must be a member's of the workspace (so a saved search cannot
    /// make the server mail strangers).
    Address(String),
}

/// A spreadsheet tab.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SheetTarget {
    /// The spreadsheet's id (a link is reduced to its id).
    pub spreadsheet_id: String,
    /// The tab's title.
    pub tab: String,
}

impl Delivery {
    /// This delivery with its email and sheet checked: an address must be one of
    /// `member_emails` (compared without case), a sheet's id must look like one (a link
    /// is reduced to it) and its tab must be 1 to 100 characters once trimmed.
    pub fn validated(mut self, member_emails: &[String]) -> CoreResult<Self> {
        self.email = match self.email {
            None | Some(EmailTo::Creator(false)) => None,
            Some(EmailTo::Creator(true)) => Some(EmailTo::Creator(true)),
            Some(EmailTo::Address(address)) => {
                let address = address.trim().to_owned();
                if !member_emails.iter().any(|m| m.eq_ignore_ascii_case(&address)) {
                    return Err(CoreError::Invalid(
                        "delivery.email must be true (the creator's address) or the address of a member of this workspace."
                            .into(),
                    ));
                }
                Some(EmailTo::Address(address))
            }
        };
        if let Some(sheet) = self.sheet.take() {
            let id = crate::sheets::a1::spreadsheet_id(&sheet.spreadsheet_id).ok_or_else(|| {
                CoreError::Invalid("delivery.sheet.spreadsheetId must be a Google spreadsheet's id or link.".into())
            })?;
            let tab = sheet.tab.trim().to_owned();
            if tab.is_empty() || tab.chars().count() > MAX_TAB_CHARS || tab.chars().any(char::is_control) {
                return Err(CoreError::Invalid(format!(
                    "delivery.sheet.tab must be 1 to {MAX_TAB_CHARS} characters, without control characters."
                )));
            }
            self.sheet = Some(SheetTarget {
                spreadsheet_id: id,
                tab,
            });
        }
        Ok(self)
    }
}

/// A saved search's name, trimmed: 1 to [`MAX_NAME_CHARS`] characters, no control
/// characters.
pub fn valid_name(name: &str) -> CoreResult<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(CoreError::Invalid(format!(
            "The name must be 1 to {MAX_NAME_CHARS} characters, without control characters."
        )));
    }
    Ok(name.to_owned())
}

/// The search a run of `saved` queues: the saved search as validated, with what
/// `only_new` asks for: `onlyNew: true` leaves out every place the workspace has seen
/// (`exclude: seen`, issue #29 item 2); false keeps the saved body's own `exclude`.
pub fn run_options(search: ValidSearch, only_new: bool) -> ValidSearch {
    if only_new {
        search.excluding(crate::search::Exclude::Seen)
    } else {
        search
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONDAY_9: &str = "0 9 * * 1";

    #[test]
    fn only_new_runs_leave_out_what_the_workspace_has_seen() {
        let saved = ValidSearch::try_from(crate::search::RawSearch {
            business_type: "dentist".into(),
            location: "Austin, TX".into(),
            ..Default::default()
        })
        .expect("valid");
        assert_eq!(run_options(saved.clone(), true).exclude(), crate::search::Exclude::Seen);
        assert_eq!(run_options(saved, false).exclude(), crate::search::Exclude::None);
    }

    #[test]
    fn a_weekly_schedule_runs_next_monday_at_nine_in_its_zone() {
        let s = Schedule::parse(MONDAY_9, "Europe/Paris", 60).expect("valid");
        // Tuesday 2025-11-25 12:00 UTC -> Monday 2025-12-01 09:00 Paris = 08:00 UTC.
        let tuesday = 1_764_072_000;
        assert_eq!(s.next_after(tuesday), Some(1_764_576_000));
        // Strictly after: at the run itself, the next is a week later.
        assert_eq!(s.next_after(1_764_576_000), Some(1_764_576_000 + 7 * 86_400));
    }

    #[test]
    fn schedules_are_refused_with_a_message_saying_why() {
        let message = |cron: &str, zone: &str, min: u32| match Schedule::parse(cron, zone, min) {
            Err(CoreError::Invalid(m)) => m,
            other => panic!("{cron} {zone}: {other:?}"),
        };
        assert!(message("0 9 * *", "UTC", 60).contains("five fields"));
        assert!(message("0 0 9 * * 1", "UTC", 60).contains("this one has 6"));
        assert!(message("61 9 * * 1", "UTC", 60).contains("not a valid cron expression"));
        assert!(message(MONDAY_9, "Mars/Olympus", 60).contains("not an IANA time zone"));
        let every_minute = message("* * * * *", "UTC", 60);
        assert!(every_minute.contains("every 1 minute"), "{every_minute}");
        assert!(every_minute.contains("at least 1 hour apart"), "{every_minute}");
        // Twice an hour is refused at 60; hourly passes.
        assert!(message("0,30 * * * *", "UTC", 60).contains("every 30 minutes"));
        Schedule::parse("0 * * * *", "UTC", 60).expect("hourly");
        // A lowered minimum lets an every-minute schedule through.
        Schedule::parse("* * * * *", "UTC", 1).expect("every minute at 1");
    }

    #[test]
    fn a_gap_that_only_daylight_saving_makes_short_is_seen() {
        let s = Schedule::parse("30 1 * * *", "Europe/Paris", 60).expect("daily");
        assert_eq!(s.zone_name(), "Europe/Paris");
        // "0 1,3 * * *": 2 hours apart in winter, 1 hour on the spring-forward night.
        match Schedule::parse("0 1,3 * * *", "Europe/Paris", 90) {
            Err(CoreError::Invalid(m)) => assert!(m.contains("every 1 hour"), "{m}"),
            other => panic!("{other:?}"),
        }
        Schedule::parse("0 1,3 * * *", "UTC", 90).expect("2 hours apart in UTC every day");
    }

    #[test]
    fn a_stored_schedule_reads_back() {
        let s: Schedule = "0 9 * * 1@America/New_York".parse().expect("stored");
        assert_eq!((s.expression(), s.zone_name()), (MONDAY_9, "America/New_York"));
    }

    #[test]
    fn delivery_is_checked_and_normalised() {
        let members = vec!["jane@agency.example".to_owned()];
        let d: Delivery = serde_json::from_value(serde_json::json!({
            "webhook": true,
            "email": "JANE@agency.example",
            "sheet": {"spreadsheetId": "https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit", "tab": " Weekly "}
        }))
        .expect("shape");
        let d = d.validated(&members).expect("valid");
        assert_eq!(
            serde_json::to_value(&d).expect("json"),
            serde_json::json!({
                "webhook": true,
                "email": "JANE@agency.example",
                "sheet": {"spreadsheetId": "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", "tab": "Weekly"}
            })
        );
        let stranger = Delivery {
            email: Some(EmailTo::Address("someone@else.example".into())),
            ..Delivery::default()
        };
        assert!(matches!(stranger.validated(&members), Err(CoreError::Invalid(m)) if m.contains("member")));
        let creator: Delivery = serde_json::from_value(serde_json::json!({"email": true})).expect("shape");
        assert_eq!(
            creator.validated(&members).expect("ok").email,
            Some(EmailTo::Creator(true))
        );
        let off: Delivery = serde_json::from_value(serde_json::json!({"email": false})).expect("shape");
        assert_eq!(off.validated(&members).expect("ok").email, None);
        let bad_tab = Delivery {
            sheet: Some(SheetTarget {
                spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms".into(),
                tab: "  ".into(),
            }),
            ..Delivery::default()
        };
        assert!(matches!(bad_tab.validated(&members), Err(CoreError::Invalid(m)) if m.contains("tab")));
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(valid_name("  Dentists, Houston ").expect("ok"), "Dentists, Houston");
        assert!(valid_name(" ").is_err());
        assert!(valid_name(&"x".repeat(101)).is_err());
        assert!(valid_name("a\u{7}b").is_err());
    }
}
