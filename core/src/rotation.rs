//! Master-key rotation: re-seal every stored secret under the vault's primary key.
//!
//! Runs beside live servers: each value is replaced only if it is still the one read
//! (a user saving a new key meanwhile wins), and servers holding both keys read old and
//! new values alike during the move.

use crate::{CoreResult, store::Store, vault::Vault};

/// What a rotation did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RotationReport {
    /// Values moved to the primary key.
    pub resealed: usize,
    /// Values changed by their owner during the rotation (already under a live key).
    pub skipped_changed: usize,
}

/// Re-seals every secret not yet under `vault`'s primary key.
pub async fn rotate_secrets(store: &Store, vault: &Vault) -> CoreResult<RotationReport> {
    let primary = vault.primary_key_id();
    let mut report = RotationReport::default();
    for (owner, kind, old) in store.secrets_not_under_key_for_rotation(&primary).await? {
        let context = owner.context(kind);
        let plain = vault.open(&old, &context)?;
        let new = vault.seal(secrecy::ExposeSecret::expose_secret(&plain), &context)?;
        if store.reseal_secret(&owner, kind, &old, &new).await? {
            report.resealed += 1;
        } else {
            report.skipped_changed += 1;
        }
    }
    // Webhook signing secrets (issue #15) are sealed the same way, one per endpoint.
    for (workspace, endpoint_id, old) in store.webhook_secrets_not_under_key_for_rotation(&primary).await? {
        let context = crate::webhooks::secret_context(&workspace);
        let plain = vault.open(&old, &context)?;
        let new = vault.seal(secrecy::ExposeSecret::expose_secret(&plain), &context)?;
        if store
            .reseal_webhook_secret(&workspace, &endpoint_id, &old, &new)
            .await?
        {
            report.resealed += 1;
        } else {
            report.skipped_changed += 1;
        }
    }
    Ok(report)
}
