//! Stripe's webhook signature: header `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>...]`
//! where each `v1` is HMAC-SHA256 of `"{t}.{raw body}"` under the endpoint's secret. Any
//! one matching `v1` is enough (Stripe sends two while a secret is being rolled); the
//! timestamp must be within the tolerance of now, so a captured request cannot be
//! replayed later.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Stripe's default tolerance, in seconds.
pub const TOLERANCE_SECS: i64 = 300;

/// Why a signature was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// No `Stripe-Signature` header.
    #[error("missing Stripe-Signature header")]
    Missing,
    /// The header has no `t=` or no `v1=`.
    #[error("malformed Stripe-Signature header")]
    Malformed,
    /// The timestamp is outside the tolerance.
    #[error("timestamp outside the tolerance")]
    Stale,
    /// No `v1` matches the body under our secret.
    #[error("no signature matches")]
    Mismatch,
}

/// Checks `header` for `body` under `secret` at time `now` (Unix seconds).
pub fn verify(header: Option<&str>, body: &[u8], secret: &str, now: i64) -> Result<(), SignatureError> {
    let header = header.ok_or(SignatureError::Missing)?;
    let mut timestamp: Option<i64> = None;
    let mut signatures: Vec<Vec<u8>> = Vec::new();
    for part in header.split(',') {
        let Some((key, value)) = part.trim().split_once('=') else {
            continue;
        };
        match key {
            "t" => timestamp = value.parse().ok(),
            // A v1 that is not hex cannot match; ignore it rather than refuse the others.
            "v1" => signatures.extend(hex::decode(value).ok()),
            _ => {} // v0 (test-mode legacy) and future schemes are not trusted.
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - timestamp).abs() > TOLERANCE_SECS {
        return Err(SignatureError::Stale);
    }
    let matches = signatures.iter().any(|candidate| {
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
            return false;
        };
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        // Constant-time comparison.
        mac.verify_slice(candidate).is_ok()
    });
    if matches { Ok(()) } else { Err(SignatureError::Mismatch) }
}

/// The header Stripe would send for `body` at `timestamp` (tests and tools).
pub fn sign(body: &[u8], secret: &str, timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body);
    format!("t={timestamp},v1={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";
    const BODY: &[u8] = br#"{"id":"evt_1","type":"customer.subscription.updated"}"#;
    const NOW: i64 = 1_800_000_000;

    #[test]
    fn accepts_a_valid_signature() {
        assert_eq!(verify(Some(&sign(BODY, SECRET, NOW)), BODY, SECRET, NOW + 10), Ok(()));
    }

    #[test]
    fn refuses_wrong_secret_stale_time_and_tampered_body() {
        let header = sign(BODY, SECRET, NOW);
        assert_eq!(
            verify(Some(&header), BODY, "whsec_other", NOW),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(Some(&header), BODY, SECRET, NOW + TOLERANCE_SECS + 1),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify(Some(&header), BODY, SECRET, NOW - TOLERANCE_SECS - 1),
            Err(SignatureError::Stale)
        );
        let tampered = br#"{"id":"evt_1","type":"customer.subscription.deleted"}"#;
        assert_eq!(
            verify(Some(&header), tampered, SECRET, NOW),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn any_one_of_several_v1_values_is_enough() {
        let good = sign(BODY, SECRET, NOW);
        let good_v1 = good.split("v1=").nth(1).expect("v1");
        let bad_v1 = sign(BODY, "whsec_old", NOW).split("v1=").nth(1).expect("v1").to_owned();
        let header = format!("t={NOW},v1={bad_v1},v1={good_v1},v0=abcd");
        assert_eq!(verify(Some(&header), BODY, SECRET, NOW), Ok(()));
        let only_bad = format!("t={NOW},v1={bad_v1},v1=nothex");
        assert_eq!(
            verify(Some(&only_bad), BODY, SECRET, NOW),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn refuses_missing_and_malformed_headers() {
        assert_eq!(verify(None, BODY, SECRET, NOW), Err(SignatureError::Missing));
        assert_eq!(
            verify(Some("v1=abcd"), BODY, SECRET, NOW),
            Err(SignatureError::Malformed)
        );
        assert_eq!(
            verify(Some(&format!("t={NOW}")), BODY, SECRET, NOW),
            Err(SignatureError::Malformed)
        );
        assert_eq!(
            verify(Some("garbage"), BODY, SECRET, NOW),
            Err(SignatureError::Malformed)
        );
    }
}
