//! The key vault: AES-256-GCM encryption of secrets at rest (Places API keys, Google
//! refresh tokens).
//!
//! Each value gets a fresh random 96-bit nonce and is bound to its owner and purpose
//! through the associated data, so a ciphertext copied onto another user's row does not
//! open. The id of the master key is stored beside the ciphertext, so several master keys
//! can be live at once and `leadgen-api rotate-key` can move every value to a new one.

use std::{collections::HashMap, path::PathBuf, sync::RwLock};

use aes_gcm::{
    Aes256Gcm, Nonce,
    aead::{Aead, Generate, KeyInit, Payload},
};
use secrecy::{ExposeSecret, SecretBox};

/// The master keys' codec, declared apart so the secrets file reads keys without the vault.
pub use crate::master_key::{KEY_LEN, MasterKey, decode_key, encode_key, generate_key, key_id};
use crate::{CoreError, CoreResult};

/// An encrypted value as stored: which master key, the nonce and the ciphertext (with tag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// Id of the master key that sealed it (see [`key_id`]).
    pub key_id: String,
    /// The 96-bit nonce used once for this value.
    pub nonce: Vec<u8>,
    /// Ciphertext followed by the GCM tag.
    pub ciphertext: Vec<u8>,
}

/// Where the vault's keys came from: fixed at start (environment), or a file that
/// `rotate-key` may rewrite while the server runs (embedded mode).
#[derive(Debug, Clone)]
pub enum KeySource {
    /// Keys given once; they never change during the process.
    Fixed,
    /// Keys read from this secrets file; re-read when a value names an unknown key id.
    File(PathBuf),
}

struct KeyRing {
    primary_id: String,
    ciphers: HashMap<String, Aes256Gcm>,
}

/// Seals and opens secrets with the current master key; opens with older ones too.
pub struct Vault {
    ring: RwLock<KeyRing>,
    source: KeySource,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vault")
            .field("primary_key_id", &self.primary_key_id())
            .finish_non_exhaustive()
    }
}

impl Vault {
    /// A vault sealing with `primary` and opening with it and `previous`.
    pub fn new(primary: &MasterKey, previous: &[MasterKey], source: KeySource) -> Self {
        Self {
            ring: RwLock::new(KeyRing::new(primary, previous)),
            source,
        }
    }

    /// Id of the key new values are sealed with.
    pub fn primary_key_id(&self) -> String {
        self.read_ring().primary_id.clone()
    }

    /// Encrypts `plaintext`, bound to `context` (for example `"{user id}:places_api_key"`).
    pub fn seal(&self, plaintext: &[u8], context: &str) -> CoreResult<Sealed> {
        let ring = self.read_ring();
        let cipher = &ring.ciphers[&ring.primary_id];
        let nonce = Nonce::generate();
        let ciphertext = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| CoreError::Crypto("encryption failed".into()))?;
        Ok(Sealed {
            key_id: ring.primary_id.clone(),
            nonce: nonce.to_vec(),
            ciphertext,
        })
    }

    /// Decrypts a sealed value that was bound to `context`.
    pub fn open(&self, sealed: &Sealed, context: &str) -> CoreResult<SecretBox<Vec<u8>>> {
        if !self.read_ring().ciphers.contains_key(&sealed.key_id) {
            self.reload()?;
        }
        let ring = self.read_ring();
        let cipher = ring
            .ciphers
            .get(&sealed.key_id)
            .ok_or_else(|| CoreError::Crypto(format!("master key {} is not configured", sealed.key_id)))?;
        let nonce =
            Nonce::try_from(sealed.nonce.as_slice()).map_err(|_| CoreError::Crypto("bad nonce length".into()))?;
        let plaintext = cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &sealed.ciphertext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| CoreError::Crypto(format!("value does not open under key {}", sealed.key_id)))?;
        Ok(SecretBox::new(Box::new(plaintext)))
    }

    /// Re-reads a file key source (a rotation may have added a key). No-op for fixed keys.
    fn reload(&self) -> CoreResult<()> {
        if let KeySource::File(path) = &self.source {
            let keys = crate::secrets_file::file::read_encryption_keys(path)?;
            let (primary, previous) = keys
                .split_first()
                .ok_or_else(|| CoreError::Crypto(format!("{} holds no encryption key", path.display())))?;
            *self.ring.write().unwrap_or_else(|e| e.into_inner()) = KeyRing::new(primary, previous);
        }
        Ok(())
    }

    fn read_ring(&self) -> std::sync::RwLockReadGuard<'_, KeyRing> {
        // A panic while holding the lock cannot leave the ring half-written: writers
        // replace it whole. So a poisoned lock is still safe to read.
        self.ring.read().unwrap_or_else(|e| e.into_inner())
    }
}

impl KeyRing {
    fn new(primary: &MasterKey, previous: &[MasterKey]) -> Self {
        let cipher = |key: &MasterKey| {
            #[expect(clippy::expect_used, reason = "a 32-byte array is always a valid AES-256 key")]
            Aes256Gcm::new_from_slice(key.expose_secret()).expect("32-byte key")
        };
        let primary_id = key_id(primary.expose_secret());
        let mut ciphers: HashMap<String, Aes256Gcm> = previous
            .iter()
            .map(|k| (key_id(k.expose_secret()), cipher(k)))
            .collect();
        ciphers.insert(primary_id.clone(), cipher(primary));
        Self { primary_id, ciphers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault(primary: &MasterKey, previous: &[MasterKey]) -> Vault {
        Vault::new(primary, previous, KeySource::Fixed)
    }

    #[test]
    fn round_trips_and_never_repeats_a_nonce() {
        let v = vault(&generate_key(), &[]);
        let a = v.seal(b"AIza-secret", "u1:places_api_key").expect("seal");
        let b = v.seal(b"AIza-secret", "u1:places_api_key").expect("seal");
        assert_eq!(a.nonce.len(), 12);
        assert_ne!(a.nonce, b.nonce);
        assert_ne!(a.ciphertext, b.ciphertext);
        assert!(!a.ciphertext.windows(11).any(|w| w == b"AIza-secret"));
        let opened = v.open(&a, "u1:places_api_key").expect("open");
        assert_eq!(opened.expose_secret().as_slice(), b"AIza-secret");
    }

    #[test]
    fn refuses_another_context_a_tampered_value_and_an_unknown_key() {
        let key = generate_key();
        let v = vault(&key, &[]);
        let sealed = v.seal(b"secret", "u1:places_api_key").expect("seal");
        assert!(v.open(&sealed, "u2:places_api_key").is_err());
        let mut tampered = sealed.clone();
        tampered.ciphertext[0] ^= 1;
        assert!(v.open(&tampered, "u1:places_api_key").is_err());
        let other = vault(&generate_key(), &[]);
        assert!(other.open(&sealed, "u1:places_api_key").is_err());
    }

    #[test]
    fn previous_keys_open_but_the_primary_seals() {
        let old = generate_key();
        let new = generate_key();
        let sealed_old = vault(&old, &[]).seal(b"x", "c").expect("seal");
        let both = vault(&new, &[decode_key(&encode_key(&old), "old").expect("decode")]);
        assert_eq!(
            both.open(&sealed_old, "c").expect("open").expose_secret().as_slice(),
            b"x"
        );
        assert_eq!(both.seal(b"y", "c").expect("seal").key_id, key_id(new.expose_secret()));
    }
}
