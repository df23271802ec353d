//! Operator commands besides `serve`: `migrate`, `rotate-key` and `probe`.

use anyhow::Context;
use leadgen_core::{
    config::Config,
    rotation::{RotationReport, rotate_secrets},
    secrets_file::{self, SecretsFile},
    store::Store,
    vault::{self, KeySource, Vault},
};
use secrecy::ExposeSecret;

/// Applies pending migrations.
pub async fn migrate(config: &Config) -> anyhow::Result<()> {
    let store = Store::connect(&config.store_url())
        .await
        .context("connecting to the store")?;
    store.migrate().await.context("applying migrations")?;
    store.close().await;
    Ok(())
}

/// Re-encrypts every stored secret under a new master key, while servers keep running.
///
/// Distributed mode (`LEADGEN_ENCRYPTION_KEY` set): the new key is
/// `LEADGEN_ENCRYPTION_KEY` and the old ones are in `LEADGEN_PREVIOUS_ENCRYPTION_KEYS`;
/// roll out servers with both first, then run this, then drop the old keys.
/// Embedded mode: a new key is generated into the secrets file ahead of the old one,
/// which running servers pick up on their own; `retire_previous` then removes old keys
/// once no secret uses them.
pub async fn rotate_key(config: &Config, retire_previous: bool) -> anyhow::Result<String> {
    let store = Store::connect(&config.store_url())
        .await
        .context("connecting to the store")?;
    store.migrate().await.context("applying migrations")?;
    let summary = if config.secrets.encryption_key.is_some() {
        let secrets = secrets_file::resolve(config)?;
        let report = rotate_secrets(&store, &secrets.vault).await?;
        format!(
            "{}\nEvery secret is now under key {}. Remove LEADGEN_PREVIOUS_ENCRYPTION_KEYS once every process runs with the new key.",
            describe(&report),
            secrets.vault.primary_key_id()
        )
    } else {
        rotate_file_key(config, &store, retire_previous).await?
    };
    store.close().await;
    Ok(summary)
}

async fn rotate_file_key(config: &Config, store: &Store, retire_previous: bool) -> anyhow::Result<String> {
    let path = secrets_file::path(config);
    let mut file: SecretsFile = secrets_file::load_or_create(&config.server.data_dir)?;
    if !retire_previous {
        file.encryption_keys
            .insert(0, vault::encode_key(&vault::generate_key()));
        secrets_file::write(&path, &file)?;
    }
    let keys = secrets_file::read_encryption_keys(&path)?;
    let (primary, previous) = keys.split_first().context("the secrets file holds no key")?;
    let vault = Vault::new(primary, previous, KeySource::File(path.clone()));
    let report = rotate_secrets(store, &vault).await?;
    let mut summary = format!("{}\nPrimary key is now {}.", describe(&report), vault.primary_key_id());
    if retire_previous {
        let primary_id = vault.primary_key_id();
        let left = store.secrets_not_under_key_for_rotation(&primary_id).await?.len()
            + store
                .webhook_secrets_not_under_key_for_rotation(&primary_id)
                .await?
                .len();
        anyhow::ensure!(left == 0, "{left} secrets still use an old key; run rotate-key again");
        file.encryption_keys.truncate(1);
        secrets_file::write(&path, &file)?;
        summary.push_str(&format!("\nRetired {} previous key(s).", previous.len()));
    } else if !previous.is_empty() {
        summary.push_str(&format!(
            "\n{} previous key(s) kept for processes still running with them; restart them, then run `rotate-key --retire-previous`.",
            previous.len()
        ));
    }
    let _ = primary.expose_secret();
    Ok(summary)
}

/// Asks each of `urls` once (GET, 10 s) and says what answered; `Ok(true)` when every one
/// answered 2xx. The chart's `helm test` runs it from the image itself, which has no shell
/// or HTTP client of its own.
pub async fn probe(urls: &[String]) -> anyhow::Result<bool> {
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .context("building the HTTP client")?;
    let mut all = true;
    for url in urls {
        match client.get(url).send().await {
            Ok(response) => {
                let status = response.status();
                let body = response.text().await.unwrap_or_default();
                let shown: String = body.chars().take(300).collect();
                println!("{url}: {status} {shown}");
                all &= status.is_success();
            }
            Err(e) => {
                println!("{url}: no answer: {e}");
                all = false;
            }
        }
    }
    Ok(all)
}

fn describe(report: &RotationReport) -> String {
    format!(
        "Re-encrypted {} secret(s); {} changed by their owner meanwhile and were left as written.",
        report.resealed, report.skipped_changed
    )
}
