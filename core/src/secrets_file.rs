//! Secrets for embedded mode: generated on first start into `{data dir}/secrets.json`,
//! readable by the owner only. Environment variables, when set, take precedence; in
//! distributed mode they are required (see `config`).

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use rand::RngCore;
use secrecy::{ExposeSecret, SecretBox};
use serde::{Deserialize, Serialize};

use crate::{
    CoreError, CoreResult,
    config::Config,
    vault::{self, KeySource, MasterKey, Vault},
};

/// File name of the generated secrets inside the data dir.
pub const FILE_NAME: &str = "secrets.json";

/// The on-disk form. The first encryption key is the primary; later ones only decrypt.
#[derive(Serialize, Deserialize)]
pub struct SecretsFile {
    /// Base64 master keys, primary first.
    pub encryption_keys: Vec<String>,
    /// Base64 HMAC secret for session tokens.
    pub jwt_secret: String,
}

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
        .map(|k| vault::decode_key(k.expose_secret(), "LEADGEN_PREVIOUS_ENCRYPTION_KEYS"))
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
            let primary = vault::decode_key(key.expose_secret(), "LEADGEN_ENCRYPTION_KEY")?;
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

/// Reads just the encryption keys of a secrets file, primary first.
pub fn read_encryption_keys(path: &Path) -> CoreResult<Vec<MasterKey>> {
    decode_keys(&read(path)?.encryption_keys)
}

/// Loads the secrets file from `data_dir`, creating the dir (0700) and the file (0600)
/// with fresh random secrets when absent.
pub fn load_or_create(data_dir: &Path) -> CoreResult<SecretsFile> {
    let path = data_dir.join(FILE_NAME);
    if path.exists() {
        return read(&path);
    }
    create_private_dir(data_dir)?;
    let mut jwt = [0u8; 48];
    rand::rng().fill_bytes(&mut jwt);
    let file = SecretsFile {
        encryption_keys: vec![vault::encode_key(&vault::generate_key())],
        jwt_secret: BASE64.encode(jwt),
    };
    write(&path, &file)?;
    tracing::info!(path = %path.display(), "generated new secrets for embedded mode");
    Ok(file)
}

/// Writes the secrets file atomically with owner-only permissions.
pub fn write(path: &Path, file: &SecretsFile) -> CoreResult<()> {
    let io = |e: std::io::Error| CoreError::Internal(format!("{}: {e}", path.display()));
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_vec_pretty(file).map_err(|e| CoreError::Internal(e.to_string()))?;
    {
        let mut options = fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut out = options.open(&tmp).map_err(io)?;
        out.write_all(&text).map_err(io)?;
        out.sync_all().map_err(io)?;
    }
    fs::rename(&tmp, path).map_err(io)
}

fn read(path: &Path) -> CoreResult<SecretsFile> {
    let text = fs::read(path).map_err(|e| CoreError::Internal(format!("{}: {e}", path.display())))?;
    serde_json::from_slice(&text).map_err(|e| CoreError::Internal(format!("{}: {e}", path.display())))
}

fn create_private_dir(dir: &Path) -> CoreResult<()> {
    let io = |e: std::io::Error| CoreError::Internal(format!("{}: {e}", dir.display()));
    fs::create_dir_all(dir).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    Ok(())
}

fn decode_keys(texts: &[String]) -> CoreResult<Vec<MasterKey>> {
    texts
        .iter()
        .map(|t| vault::decode_key(t, "secrets file encryption key"))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_start_generates_private_secrets_and_later_starts_reuse_them() {
        let dir = std::env::temp_dir().join(format!("leadgen-secrets-{}", uuid::Uuid::new_v4()));
        let first = load_or_create(&dir).expect("create");
        let again = load_or_create(&dir).expect("reload");
        assert_eq!(first.encryption_keys, again.encryption_keys);
        assert_eq!(first.jwt_secret, again.jwt_secret);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let file_mode = fs::metadata(dir.join(FILE_NAME)).expect("meta").permissions().mode();
            let dir_mode = fs::metadata(&dir).expect("meta").permissions().mode();
            assert_eq!(file_mode & 0o777, 0o600);
            assert_eq!(dir_mode & 0o777, 0o700);
        }
        fs::remove_dir_all(dir).ok();
    }
}
