//! `leadgen-api rotate-key` in embedded mode (keys in the data dir's secrets file).

use leadgen_api::commands;
use leadgen_core::{
    config::Config,
    keys::KeyService,
    secrets_file,
    store::Store,
    user::ProviderIdentity,
    vault::{KeySource, Vault},
};
use secrecy::ExposeSecret;
use std::sync::Arc;

#[tokio::test]
async fn rotation_in_embedded_mode_keeps_keys_readable_and_retires_the_old_key() {
    leadgen_core::install_crypto_provider();
    let dir = std::env::temp_dir().join(format!("leadgen-rotate-{}", uuid::Uuid::new_v4().simple()));
    let dir_text = dir.display().to_string();
    let config = Config::from_lookup(|name| (name == "LEADGEN_DATA_DIR").then(|| dir_text.clone())).expect("config");

    let secrets = secrets_file::resolve(&config).expect("secrets");
    let store = Store::connect(&config.store_url()).await.expect("store");
    store.migrate().await.expect("migrate");
    let old_vault = Arc::new(secrets.vault);
    let keys = KeyService::new(store.clone(), old_vault.clone());
    let user = store
        .upsert_user_on_sign_in(&ProviderIdentity {
            issuer: "local".into(),
            subject: "operator".into(),
            email: "o@localhost".into(),
            name: None,
            picture: None,
            email_verified: true,
        })
        .await
        .expect("user");
    let key = "AIzaSyA_rotate_0123456789abcdefghijklmno";
    let workspace = leadgen_core::ids::WorkspaceId::personal(&user.id);
    keys.save(&workspace, key).await.expect("save");
    // A webhook endpoint's signing secret is sealed too, and moves with the rest.
    let hook_secret = leadgen_core::webhooks::generate_secret();
    let sealed = leadgen_core::webhooks::seal_secret(&old_vault, &workspace, &hook_secret).expect("seal");
    let endpoint = store
        .create_webhook(
            &workspace,
            &user.id,
            "https://hooks.example.com/x",
            &[leadgen_core::webhooks::EventType::SearchCompleted],
            &sealed,
        )
        .await
        .expect("endpoint");
    let old_id = old_vault.primary_key_id();

    let summary = commands::rotate_key(&config, false).await.expect("rotate");
    assert!(summary.contains("Re-encrypted 2 secret(s)"), "{summary}");
    // The running server's vault still has only the old key as primary; it finds the new
    // key in the file when it meets a value sealed under it.
    assert_eq!(
        keys.open(&workspace)
            .await
            .expect("open")
            .expect("some")
            .key
            .expose_secret(),
        key
    );
    let new_keys = secrets_file::read_encryption_keys(&secrets_file::path(&config)).expect("keys");
    assert_eq!(new_keys.len(), 2);

    let summary = commands::rotate_key(&config, true).await.expect("retire");
    assert!(summary.contains("Retired 1 previous key"), "{summary}");
    let remaining = secrets_file::read_encryption_keys(&secrets_file::path(&config)).expect("keys");
    assert_eq!(remaining.len(), 1);
    let only_new = KeyService::new(
        store.clone(),
        Arc::new(Vault::new(&remaining[0], &[], KeySource::Fixed)),
    );
    assert_eq!(
        only_new
            .open(&workspace)
            .await
            .expect("open")
            .expect("some")
            .key
            .expose_secret(),
        key
    );
    let new_vault = Vault::new(&remaining[0], &[], KeySource::Fixed);
    let stored = store
        .webhook(&workspace, &endpoint.id)
        .await
        .expect("read")
        .expect("endpoint");
    let opened = leadgen_core::webhooks::open_secret(&new_vault, &workspace, &stored.secret).expect("opens");
    assert_eq!(opened.expose_secret(), hook_secret);
    assert_ne!(leadgen_core::vault::key_id(remaining[0].expose_secret()), old_id);
    store.close().await;
    std::fs::remove_dir_all(dir).ok();
}
