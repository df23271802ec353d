//! Secrets for embedded mode: generated on first start into `{data dir}/secrets.json`,
//! readable by the owner only. Environment variables, when set, take precedence; in
//! distributed mode they are required (see `config`).

pub(crate) mod file;

use std::path::{Path, PathBuf};

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use secrecy::{ExposeSecret, SecretBox};

use self::file::decode_keys;
pub use self::file::{FILE_NAME, SecretsFile, load_or_create, read_encryption_keys, write};
use crate::{
    CoreError, CoreResult,
    config::Config,
    master_key::{self, MasterKey},
    vault::{KeySource, Vault},
};

/// The secrets a process runs with.
pub struct ResolvedSecrets {
    /// Seals and opens stored secrets.
    pub vault: Vault,
    /// HMAC key for session tokens.
    pub jwt_secret: SecretBox<Vec<u8>>,
    /// Set when the keys live in the data dir's secrets file.
    pub file: Option<PathBuf>,
}

/// Path of the secrets file for `config`.
pub fn path(config: &Config) -> PathBuf {
    config.server.data_dir.join(FILE_NAME)
}

/// Builds the vault and session secret from the environment, or from the data dir's
/// secrets file (created on first use) when the environment gives none.
pub fn resolve(config: &Config) -> CoreResult<ResolvedSecrets> {
    let previous = config
        .secrets
        .previous_encryption_keys
        .iter()
        .map(|k| master_key::decode_key(k.expose_secret(), "LEADGEN_PREVIOUS_ENCRYPTION_KEYS"))
        .collect::<CoreResult<Vec<_>>>()?;
    let needs_file = config.secrets.encryption_key.is_none() || config.secrets.jwt_secret.is_none();
    let file = if needs_file {
        Some(load_or_create(&config.server.data_dir)?)
    } else {
        None
    };
    let file_path = needs_file.then(|| path(config));

    let (vault, vault_from_file) = match &config.secrets.encryption_key {
        Some(key) => {
            let primary = master_key::decode_key(key.expose_secret(), "LEADGEN_ENCRYPTION_KEY")?;
            (Vault::new(&primary, &previous, KeySource::Fixed), false)
        }
        None => {
            let keys = decode_keys(file.as_ref().map(|f| f.encryption_keys.as_slice()).unwrap_or_default())?;
            let (primary, older) = split_keys(&keys, &path(config))?;
            let mut all_previous: Vec<MasterKey> = clone_keys(older);
            all_previous.extend(clone_keys(&previous));
            (Vault::new(primary, &all_previous, KeySource::File(path(config))), true)
        }
    };
    let jwt_secret = match (&config.secrets.jwt_secret, &file) {
        (Some(secret), _) => SecretBox::new(Box::new(secret.expose_secret().as_bytes().to_vec())),
        (None, Some(file)) => {
            SecretBox::new(Box::new(BASE64.decode(&file.jwt_secret).map_err(|_| {
                CoreError::Internal(format!("{}: jwt_secret is not base64", path(config).display()))
            })?))
        }
        (None, None) => return Err(CoreError::Internal("no session secret".into())),
    };
    Ok(ResolvedSecrets {
        vault,
        jwt_secret,
        file: if vault_from_file { file_path } else { None },
    })
}

fn split_keys<'a>(keys: &'a [MasterKey], path: &Path) -> CoreResult<(&'a MasterKey, &'a [MasterKey])> {
    keys.split_first()
        .ok_or_else(|| CoreError::Internal(format!("{} holds no encryption key", path.display())))
}

fn clone_keys(keys: &[MasterKey]) -> Vec<MasterKey> {
    keys.iter()
        .map(|k| SecretBox::new(Box::new(*k.expose_secret())))
        .collect()
}
