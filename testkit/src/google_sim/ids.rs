//! Identifiers shaped like Google's, and the clock behind `modifiedTime`.

use std::{
    sync::Mutex,
    time::{SystemTime, UNIX_EPOCH},
};

use rand::Rng;

/// The characters of Google's ids and tokens (URL-safe base64).
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `prefix` followed by `len` random URL-safe characters.
pub(crate) fn token(prefix: &str, len: usize) -> String {
    let mut rng = rand::rng();
    let mut out = String::with_capacity(prefix.len() + len);
    out.push_str(prefix);
    out.extend((0..len).map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())])));
    out
}

/// A spreadsheet id: 44 characters, starting with `1` as Google's do.
pub(crate) fn spreadsheet_id() -> String {
    token("1", 43)
}

/// A refresh token in Google's shape (`1//0...`).
pub(crate) fn refresh_token() -> String {
    token("1//0", 99)
}

/// An access token in Google's shape (`ya29....`).
pub(crate) fn access_token() -> String {
    token("ya29.a0", 150)
}

/// A sheet id for an added tab: a positive 31-bit number, as Google picks them.
pub(crate) fn sheet_id() -> i64 {
    rand::rng().random_range(1..=i64::from(i32::MAX))
}

/// Milliseconds since the epoch, strictly increasing across calls, so that files created
/// or modified in the same millisecond still have a definite `modifiedTime` order.
#[derive(Debug, Default)]
pub(crate) struct Clock {
    last: Mutex<u64>,
}

impl Clock {
    pub(crate) fn tick(&self) -> u64 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        *last = now.max(*last + 1);
        *last
    }
}

/// RFC 3339 in UTC with milliseconds, as Drive writes times: `2024-05-01T09:30:00.000Z`.
pub(crate) fn rfc3339_millis(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_times_like_drive() {
        assert_eq!(rfc3339_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_millis(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(rfc3339_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn ids_have_googles_shape() {
        let id = spreadsheet_id();
        assert_eq!(id.len(), 44);
        assert!(id.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(id, spreadsheet_id());
    }

    #[test]
    fn the_clock_never_repeats() {
        let clock = Clock::default();
        let (a, b) = (clock.tick(), clock.tick());
        assert!(b > a);
    }
}
