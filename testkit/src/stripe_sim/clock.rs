//! Unix timestamps and billing periods. Stripe bills monthly and yearly prices on the
//! calendar (Jan 31 + 1 month = Feb 28/29), so periods are computed on civil dates rather
//! than as fixed numbers of seconds.

use std::time::{SystemTime, UNIX_EPOCH};

const DAY: i64 = 86_400;

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The end of the billing period that starts at `start` for `interval` (`day`, `week`,
/// `month`, `year`); an unknown interval counts as a month.
pub(crate) fn period_end(start: i64, interval: &str) -> i64 {
    match interval {
        "day" => start + DAY,
        "week" => start + 7 * DAY,
        "year" => add_months(start, 12),
        _ => add_months(start, 1),
    }
}

/// `ts` moved by `months` calendar months, clamping the day to the target month's length.
pub(crate) fn add_months(ts: i64, months: i64) -> i64 {
    let days = ts.div_euclid(DAY);
    let secs = ts.rem_euclid(DAY);
    let (y, m, d) = civil_from_days(days);
    let total = y * 12 + (m - 1) + months;
    let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    let nd = d.min(days_in_month(ny, nm));
    days_from_civil(ny, nm, nd) * DAY + secs
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Howard Hinnant's `days_from_civil`: days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(y: i64, m: i64, d: i64) -> i64 {
        days_from_civil(y, m, d) * DAY
    }

    #[test]
    fn civil_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        assert_eq!(ts(2000, 3, 1), 951_868_800);
    }

    #[test]
    fn months_follow_the_calendar() {
        assert_eq!(add_months(ts(2025, 1, 31) + 3600, 1), ts(2025, 2, 28) + 3600);
        assert_eq!(add_months(ts(2024, 1, 31), 1), ts(2024, 2, 29));
        assert_eq!(add_months(ts(2025, 12, 15), 1), ts(2026, 1, 15));
        assert_eq!(period_end(ts(2024, 2, 29), "year"), ts(2025, 2, 28));
        assert_eq!(period_end(ts(2025, 5, 1), "week"), ts(2025, 5, 8));
    }
}
