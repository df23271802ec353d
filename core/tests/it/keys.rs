use std::sync::Arc;

use leadgen_core::{
    api_key::INVALID_FORMAT,
    ids::WorkspaceId,
    keys::KeyService,
    store::Store,
    vault::{KeySource, Vault, generate_key},
};
use secrecy::ExposeSecret;

use crate::{both_backends, store::identity};

pub const KEY_A: &str = "AIzaSyA_alice_0123456789abcdefghijklmno";
pub const KEY_B: &str = "AIzaSyB_bobby_0123456789abcdefghijklmno";

pub fn vault() -> Arc<Vault> {
    Arc::new(Vault::new(&generate_key(), &[], KeySource::Fixed))
}

both_backends!(
    keys_are_saved_masked_and_scoped_to_their_owner,
    |store: Store| async move {
        let keys = KeyService::new(store.clone(), vault());
        let a = WorkspaceId::personal(&store.upsert_user_on_sign_in(&identity("a")).await.expect("a").id);
        let b = WorkspaceId::personal(&store.upsert_user_on_sign_in(&identity("b")).await.expect("b").id);

        let status = keys.save(&a, &format!("  {KEY_A}\n")).await.expect("save trimmed");
        assert!(status.has_key);
        assert_eq!(
            status.key_preview.as_deref(),
            Some("AIza•••••••••••••••••••••••••••••••lmno")
        );
        assert_eq!(status.is_valid, None);

        assert!(
            !keys.status(&b).await.expect("b status").has_key,
            "b sees nothing of a's key"
        );
        assert!(keys.open(&b).await.expect("b open").is_none());
        assert!(!keys.delete(&b).await.expect("b delete"), "b cannot delete a's key");
        keys.save(&b, KEY_B).await.expect("b saves its own");

        let opened = keys.open(&a).await.expect("open").expect("some");
        assert_eq!(opened.key.expose_secret(), KEY_A);
        assert_eq!(
            keys.open(&b).await.expect("open b").expect("b").key.expose_secret(),
            KEY_B
        );

        keys.record_check(&a, &opened, true).await.expect("record");
        assert_eq!(keys.status(&a).await.expect("status").is_valid, Some(true));
        // Known to work: working again writes nothing, failing is recorded at once.
        let known = keys.open(&a).await.expect("open").expect("some");
        keys.record_check(&a, &known, true).await.expect("again");
        assert_eq!(keys.status(&a).await.expect("status").is_valid, Some(true));
        keys.record_check(&a, &known, false).await.expect("refused now");
        assert_eq!(
            keys.status(&a).await.expect("status").is_valid,
            Some(false),
            "a key known to work that fails is recorded as failing"
        );
        keys.save(&a, KEY_A).await.expect("save again");
        assert_eq!(
            keys.status(&a).await.expect("status").is_valid,
            None,
            "a new value is untested"
        );
        keys.record_check(&a, &opened, true).await.expect("stale record");
        assert_eq!(
            keys.status(&a).await.expect("status").is_valid,
            None,
            "a check of the old value does not count"
        );

        assert!(keys.delete(&a).await.expect("delete"));
        assert!(!keys.status(&a).await.expect("status").has_key);
        assert!(keys.status(&b).await.expect("b").has_key, "deleting a's key leaves b's");
    }
);

both_backends!(
    malformed_keys_are_refused_and_nothing_is_stored,
    |store: Store| async move {
        let keys = KeyService::new(store.clone(), vault());
        let a = WorkspaceId::personal(&store.upsert_user_on_sign_in(&identity("a")).await.expect("a").id);
        for bad in ["", "   ", "hello", "AIza short", &format!("AIza{}", "x".repeat(80))] {
            let err = keys.save(&a, bad).await.expect_err(bad);
            assert_eq!(err.to_string(), INVALID_FORMAT);
        }
        assert!(!keys.status(&a).await.expect("status").has_key);
    }
);

both_backends!(raw_rows_hold_no_plaintext_key, |store: Store| async move {
    let keys = KeyService::new(store.clone(), vault());
    let a = WorkspaceId::personal(&store.upsert_user_on_sign_in(&identity("a")).await.expect("a").id);
    keys.save(&a, KEY_A).await.expect("save");
    let stored = store
        .secret(
            &leadgen_core::store::SecretOwner::Workspace(a.clone()),
            leadgen_core::store::SecretKind::PlacesApiKey,
        )
        .await
        .expect("row")
        .expect("some");
    let middle = &KEY_A[4..KEY_A.len() - 4];
    assert!(!String::from_utf8_lossy(&stored.sealed.ciphertext).contains(middle));
    assert!(
        !stored
            .sealed
            .ciphertext
            .windows(KEY_A.len())
            .any(|w| w == KEY_A.as_bytes())
    );
    assert!(!stored.preview.contains(middle), "the preview hides the middle");
});
