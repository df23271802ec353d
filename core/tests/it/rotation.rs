use std::sync::Arc;

use leadgen_core::{
    ids::WorkspaceId,
    keys::KeyService,
    rotation::rotate_secrets,
    store::{SecretKind, Store},
    vault::{KeySource, Vault, generate_key, key_id},
};
use secrecy::ExposeSecret;

use crate::{both_backends, keys::KEY_A, store::identity};

both_backends!(rotation_moves_every_secret_to_the_new_key, |store: Store| async move {
    let old = generate_key();
    let new = generate_key();
    let old_vault = Arc::new(Vault::new(&old, &[], KeySource::Fixed));
    let old_keys = KeyService::new(store.clone(), old_vault);
    let mut users = Vec::new();
    for i in 0..5 {
        let id = WorkspaceId::personal(
            &store
                .upsert_user_on_sign_in(&identity(&format!("u{i}")))
                .await
                .expect("user")
                .id,
        );
        old_keys
            .save(&id, &KEY_A.replace("alice", &format!("user{i}")))
            .await
            .expect("save");
        users.push(id);
    }

    let both = Vault::new(
        &new,
        &[secrecy::SecretBox::new(Box::new(*old.expose_secret()))],
        KeySource::Fixed,
    );
    let report = rotate_secrets(&store, &both).await.expect("rotate");
    assert_eq!(report.resealed, 5);
    assert_eq!(
        rotate_secrets(&store, &both).await.expect("again").resealed,
        0,
        "idempotent"
    );

    let only_new = KeyService::new(store.clone(), Arc::new(Vault::new(&new, &[], KeySource::Fixed)));
    let only_old = KeyService::new(store.clone(), Arc::new(Vault::new(&old, &[], KeySource::Fixed)));
    for (i, id) in users.iter().enumerate() {
        let opened = only_new.open(id).await.expect("open under new").expect("some");
        assert_eq!(opened.key.expose_secret(), &KEY_A.replace("alice", &format!("user{i}")));
        assert!(only_old.open(id).await.is_err(), "no secret opens under the old key");
        let row = store
            .secret(
                &leadgen_core::store::SecretOwner::Workspace(id.clone()),
                SecretKind::PlacesApiKey,
            )
            .await
            .expect("row")
            .expect("some");
        assert_eq!(row.sealed.key_id, key_id(new.expose_secret()));
    }
});
