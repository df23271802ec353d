//! Master keys: their length, a stable id for each, and their base64 form in configuration
//! and in the secrets file. A leaf: the vault seals with them, the secrets file stores them.

use aes_gcm::{Aes256Gcm, aead::Generate};
use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use secrecy::{ExposeSecret, SecretBox};
use sha2::{Digest, Sha256};

use crate::{CoreError, CoreResult};

/// Length of a master key in bytes (AES-256).
pub const KEY_LEN: usize = 32;

/// A master key in raw form. Zeroed on drop by `secrecy`.
pub type MasterKey = SecretBox<[u8; KEY_LEN]>;

/// A stable, non-secret identifier of a master key: 16 hex digits of a hash of it.
pub fn key_id(key: &[u8; KEY_LEN]) -> String {
    let digest = Sha256::new()
        .chain_update(b"leadgen-master-key-id:")
        .chain_update(key)
        .finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// A new random master key.
pub fn generate_key() -> MasterKey {
    let key = aes_gcm::Key::<Aes256Gcm>::generate();
    let mut raw = [0u8; KEY_LEN];
    raw.copy_from_slice(key.as_slice());
    SecretBox::new(Box::new(raw))
}

/// Base64 text of a master key, as written to configuration.
pub fn encode_key(key: &MasterKey) -> String {
    BASE64.encode(key.expose_secret())
}

/// Parses a base64 master key; `what` names its source in the error.
pub fn decode_key(text: &str, what: &str) -> CoreResult<MasterKey> {
    let bytes = BASE64
        .decode(text.trim())
        .map_err(|_| CoreError::Invalid(format!("{what} is not valid base64")))?;
    let raw: [u8; KEY_LEN] = bytes.as_slice().try_into().map_err(|_| {
        CoreError::Invalid(format!(
            "{what} must be base64 of exactly 32 bytes, not {}",
            bytes.len()
        ))
    })?;
    Ok(SecretBox::new(Box::new(raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_key_names_the_problem() {
        assert!(decode_key("not base64!", "LEADGEN_ENCRYPTION_KEY").is_err());
        let short = decode_key("c2hvcnQ=", "LEADGEN_ENCRYPTION_KEY").expect_err("short");
        assert!(short.to_string().contains("exactly 32 bytes"));
    }
}
