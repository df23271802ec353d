//! Workspaces' Places API keys: validated, sealed by the vault, stored with a masked preview,
//! opened only to call Google.

use crate::ids::WorkspaceId;
use std::sync::Arc;

use secrecy::{ExposeSecret, SecretString};

use crate::{
    CoreError, CoreResult, api_key,
    store::{SecretKind, SecretOwner, Store},
    vault::Vault,
};

/// What the settings screen shows about a user's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyStatus {
    /// A key is stored.
    pub has_key: bool,
    /// First 4 and last 4 characters, when stored.
    pub key_preview: Option<String>,
    /// Result of the last test: `None` until tested.
    pub is_valid: Option<bool>,
    /// When the key was last saved (Unix seconds).
    pub updated_at: Option<i64>,
}

/// An opened key together with the sealed value it came from (to record test results
/// against exactly that value).
pub struct OpenedKey {
    /// The plaintext key; never logged.
    pub key: SecretString,
    sealed: crate::vault::Sealed,
    /// The last check recorded for this value said it works.
    known_valid: bool,
    /// When the key was last saved (Unix seconds): what [`KeyStatus::updated_at`] says,
    /// so a search that opened the key need not read its status again.
    pub updated_at: i64,
}

/// Saves, reads and deletes users' keys.
#[derive(Debug, Clone)]
pub struct KeyService {
    store: Store,
    vault: Arc<Vault>,
}

impl KeyService {
    /// A service over this store and vault.
    pub fn new(store: Store, vault: Arc<Vault>) -> Self {
        Self { store, vault }
    }

    /// Validates and stores `raw` (trimmed) as the workspace's key. Returns the new status.
    pub async fn save(&self, workspace: &WorkspaceId, raw: &str) -> CoreResult<KeyStatus> {
        let key = raw.trim();
        api_key::validate_format(key)?;
        let (kind, owner) = (SecretKind::PlacesApiKey, SecretOwner::Workspace(workspace.clone()));
        let sealed = self.vault.seal(key.as_bytes(), &owner.context(kind))?;
        self.store
            .put_secret(&owner, kind, &sealed, &api_key::mask(key))
            .await?;
        self.status(workspace).await
    }

    /// Deletes the workspace's key. Returns whether one existed.
    pub async fn delete(&self, workspace: &WorkspaceId) -> CoreResult<bool> {
        self.store
            .delete_secret(&SecretOwner::Workspace(workspace.clone()), SecretKind::PlacesApiKey)
            .await
    }

    /// What may be shown about the workspace's key.
    pub async fn status(&self, workspace: &WorkspaceId) -> CoreResult<KeyStatus> {
        let stored = self
            .store
            .secret(&SecretOwner::Workspace(workspace.clone()), SecretKind::PlacesApiKey)
            .await?;
        Ok(match stored {
            Some(s) => KeyStatus {
                has_key: true,
                key_preview: Some(s.preview),
                is_valid: s.is_valid,
                updated_at: Some(s.updated_at),
            },
            None => KeyStatus {
                has_key: false,
                key_preview: None,
                is_valid: None,
                updated_at: None,
            },
        })
    }

    /// The user's key in plaintext, to call Google with; `None` if not configured.
    pub async fn open(&self, workspace: &WorkspaceId) -> CoreResult<Option<OpenedKey>> {
        let (kind, owner) = (SecretKind::PlacesApiKey, SecretOwner::Workspace(workspace.clone()));
        let Some(stored) = self.store.secret(&owner, kind).await? else {
            return Ok(None);
        };
        let plain = self.vault.open(&stored.sealed, &owner.context(kind))?;
        let text = String::from_utf8(plain.expose_secret().clone())
            .map_err(|_| CoreError::Crypto("stored key is not text".into()))?;
        Ok(Some(OpenedKey {
            key: SecretString::from(text),
            sealed: stored.sealed,
            known_valid: stored.is_valid == Some(true),
            updated_at: stored.updated_at,
        }))
    }

    /// Records whether the opened key worked, unless it was replaced meanwhile. A key
    /// already known to work that worked again is not written: every search ends with
    /// this, and the row's state does not change (only its check time, which nothing
    /// reads), so the write was a Postgres transaction a search for nothing.
    pub async fn record_check(&self, workspace: &WorkspaceId, opened: &OpenedKey, valid: bool) -> CoreResult<()> {
        if valid && opened.known_valid {
            return Ok(());
        }
        self.store
            .record_secret_check(
                &SecretOwner::Workspace(workspace.clone()),
                SecretKind::PlacesApiKey,
                &opened.sealed,
                valid,
            )
            .await?;
        Ok(())
    }
}
