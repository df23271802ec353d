//! The estimates whose probes go on after they answered, on this process (see
//! `leadgen_core::search::keep_probing`): at most one per workspace. A workspace's next
//! estimate stops the one before, whatever it was of, so that it does not share the key's
//! pace with probes nobody will read.

use std::{collections::HashMap, sync::Mutex, time::Duration};

use leadgen_core::{
    ids::WorkspaceId,
    search::{self, Unfinished, ValidSearch},
};
use tokio::task::AbortHandle;

use crate::state::AppState;

/// The running probes, by workspace.
#[derive(Default)]
pub struct ProbingAfterEstimates {
    running: Mutex<HashMap<WorkspaceId, AbortHandle>>,
}

impl ProbingAfterEstimates {
    /// Stops the workspace's probes, if any run here (an estimate is about to probe).
    pub fn stop(&self, workspace: &WorkspaceId) {
        if let Some(running) = self.lock().remove(workspace) {
            running.abort();
        }
    }

    /// Goes on probing from where `unfinished` stopped, for the workspace's key, for
    /// `for_secs` at most (`LEADGEN_PROBE_AFTER_ESTIMATE_SECS`; 0 does nothing).
    pub fn start(&self, state: &AppState, workspace: &WorkspaceId, search: ValidSearch, unfinished: Unfinished) {
        let for_secs = state.config.places.probe_after_estimate_secs;
        if for_secs == 0 {
            return;
        }
        let until = tokio::time::Instant::now() + Duration::from_secs(u64::from(for_secs));
        let (state, owner) = (state.clone(), workspace.clone());
        // Held until the task is listed, so that one ending at once finds itself there.
        let mut running = self.lock();
        let task = tokio::spawn(async move {
            let kept = probe_on(&state, &owner, &search, unfinished, until).await;
            tracing::debug!(?kept, "an estimate's probes ended");
            // Forget this task, unless a later estimate's took its place meanwhile.
            let mut running = state.probing.lock();
            if running
                .get(&owner)
                .is_some_and(|handle| handle.id() == tokio::task::id())
            {
                running.remove(&owner);
            }
        });
        if let Some(before) = running.insert(workspace.clone(), task.abort_handle()) {
            before.abort();
        }
    }

    /// How many workspaces' probes run here now.
    pub fn running(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<WorkspaceId, AbortHandle>> {
        // A panic while holding it leaves a map of handles, still sound to use.
        self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

async fn probe_on(
    state: &AppState,
    workspace: &WorkspaceId,
    search: &ValidSearch,
    unfinished: Unfinished,
    until: tokio::time::Instant,
) -> Option<search::KeptProbing> {
    // The key as it is now: one removed meanwhile ends the probes.
    let opened = state.keys.open(workspace).await.ok().flatten()?;
    let secret = secrecy::ExposeSecret::expose_secret(&opened.key);
    let key_id = leadgen_core::api_key::fingerprint(secret);
    let upstream = search::Upstream {
        client: &state.places,
        api_key: secret,
        key_id: &key_id,
        gate: &state.gate,
        aggregate: None,
    };
    let memory =
        leadgen_core::store::WorkspacePlans::new(&state.store, workspace, state.config.places.plan_memory_days)?;
    Some(search::keep_probing(&upstream, search, unfinished, &memory, until).await)
}
