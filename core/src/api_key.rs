//! Rules for Google Places API keys as users type them: format and the masked preview.

use crate::{CoreError, CoreResult};

/// The spec's message for a value that cannot be a Google API key.
pub const INVALID_FORMAT: &str =
    "Invalid API key format. Google Places API keys typically start with \"AIza\" and are around 39 characters long.";

/// Google API keys start with this prefix.
pub const PREFIX: &str = "AIza";
/// The spec accepts keys of at least this many characters (typical length is 39).
pub const MIN_LEN: usize = 35;
/// Anything longer is certainly not a key; bounding it keeps junk out of the vault.
pub const MAX_LEN: usize = 64;

/// Checks that `key` (already trimmed) can be a Google API key.
pub fn validate_format(key: &str) -> CoreResult<()> {
    let plausible = key.starts_with(PREFIX)
        && (MIN_LEN..=MAX_LEN).contains(&key.len())
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plausible {
        Ok(())
    } else {
        Err(CoreError::Invalid(INVALID_FORMAT.to_owned()))
    }
}

/// A stable, non-secret name for a key (16 hex digits of its SHA-256), for rate limits
/// and logs: two users sharing one key share its limit, and the key never appears.
pub fn fingerprint(key: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(b"leadgen-places-key:")
        .chain_update(key.as_bytes())
        .finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The only form in which a stored key is ever shown: first 4 and last 4 characters.
pub fn mask(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        return "•".repeat(chars.len());
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}{}{tail}", "•".repeat(chars.len() - 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "AIzaSyA1234567890abcdefghijklmnopqrstuv";

    #[test]
    fn accepts_a_typical_key() {
        assert_eq!(GOOD.len(), 39);
        assert!(validate_format(GOOD).is_ok());
    }

    #[test]
    fn rejects_wrong_prefix_short_long_and_odd_characters() {
        for bad in [
            "BIzaSyA1234567890abcdefghijklmnopqrstu",
            "AIzaShort",
            &format!("AIza{}", "x".repeat(61)),
            "AIzaSyA1234567890abcdefghijklmnop rstu",
            "AIzaSyA1234567890abcdefghijklmnop\"rstu",
        ] {
            let err = validate_format(bad).expect_err(bad);
            assert_eq!(err.to_string(), INVALID_FORMAT);
        }
    }

    #[test]
    fn mask_shows_only_first_and_last_four() {
        let masked = mask(GOOD);
        assert!(masked.starts_with("AIza"));
        assert!(masked.ends_with("stuv"));
        assert_eq!(masked.chars().count(), GOOD.chars().count());
        assert!(!masked.contains("1234567890"));
        assert_eq!(mask("short"), "•••••");
    }
}
