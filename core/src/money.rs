//! Money, one rule everywhere (issue #26 item 8). Dollar figures travel rounded to a
//! tenth of a cent ([`round_cents`]: a request costs 3.2 or 3.5 cents, and sums read as
//! Google's invoice does); text shows them to the cent, half up from those tenths
//! ([`format_usd`]). The web app's `frontend/src/lib/money.ts` applies the same rule to
//! the same figures, and both test the same table, so no screen can say $0.11 where
//! another says $0.10.

use crate::usage::thousands;

/// Rounds to a tenth of a cent (what every dollar figure of the API carries).
pub fn round_cents(usd: f64) -> f64 {
    (usd * 1_000.0).round() / 1_000.0
}

/// `usd` in whole cents, half up from its tenths of a cent (0.105 → 11; `{:.2}` would
/// say 0.10, the binary double being a hair under 0.105).
pub fn to_cents(usd: f64) -> i64 {
    if !usd.is_finite() {
        return 0;
    }
    let mills = (usd.abs() * 1_000.0).round() as i64;
    let cents = (mills + 5) / 10;
    if usd < 0.0 { -cents } else { cents }
}

/// "$1,234.50": dollars to the cent with thousands separators.
pub fn format_usd(usd: f64) -> String {
    let cents = to_cents(usd);
    let abs = cents.unsigned_abs();
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}${}.{:02}", thousands(abs / 100), abs % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same table as `frontend/src/lib/money.test.ts`.
    const SHARED: &[(f64, &str)] = &[
        (0.0, "$0.00"),
        (0.004, "$0.00"),
        (0.005, "$0.01"),
        (0.105, "$0.11"),
        (1.005, "$1.01"),
        (2.832, "$2.83"),
        (2.835, "$2.84"),
        (1234.5, "$1,234.50"),
        (1_000_000.0, "$1,000,000.00"),
    ];

    #[test]
    fn formats_the_shared_table_half_up_from_tenths_of_a_cent() {
        for (usd, text) in SHARED {
            assert_eq!(format_usd(*usd), *text, "{usd}");
        }
        assert_eq!(format!("{:.2}", 0.105), "0.10", "what the rule replaces");
        assert_eq!(format_usd(-0.105), "-$0.11");
        assert_eq!(format_usd(f64::NAN), "$0.00");
    }

    #[test]
    fn rounds_sums_to_tenths_of_a_cent() {
        assert_eq!(round_cents(0.032 + 80.0 * 0.035), 2.832);
        assert_eq!(round_cents(0.10449), 0.104);
        assert_eq!(to_cents(round_cents(0.10451)), 11);
    }
}
