//! The secrets file itself: its on-disk form, and reading, writing and creating it (owner
//! only). It knows master keys, not the vault, so the vault can re-read it.

use std::{fs, io::Write, path::Path};

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::{
    CoreError, CoreResult,
    master_key::{self, MasterKey},
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
        encryption_keys: vec![master_key::encode_key(&master_key::generate_key())],
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

pub(super) fn decode_keys(texts: &[String]) -> CoreResult<Vec<MasterKey>> {
    texts
        .iter()
        .map(|t| master_key::decode_key(t, "secrets file encryption key"))
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
