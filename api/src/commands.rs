//! Operator commands besides `serve`: `migrate`, `rotate-key`, `probe` and
//! `queue-check`.

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

/// The account `queue-check` searches as (its own, so its searches and usage are nobody
/// else's).
const CHECK_ISSUER: &str = "leadgen-queue-check";
/// A key of the right shape that Google refuses: the check needs a worker to take the
/// search, not Google to answer it (which would cost someone).
const CHECK_PLACES_KEY: &str = "AIzaLeadgenQueueCheckNotARealKey0000000";

/// Queues a search through the API at `api` and waits (up to `limit`) until a worker has
/// taken it: the chart's `helm test` proof that a fresh release can queue and run a
/// search. It signs in its own account straight in the database (it runs with the
/// release's `DATABASE_URL` and `LEADGEN_JWT_SECRET`, as the migrate Job does), saves a
/// well-formed key Google refuses, and searches: the stream must start and end with an
/// event from a worker (Google's refusal, or whatever Google or the network answered),
/// and the search's history entry must have left `queued`. No Google call is billed.
pub async fn queue_check(config: &Config, api: &str, limit: std::time::Duration) -> anyhow::Result<String> {
    use leadgen_core::{session::SessionKeys, user::ProviderIdentity};

    let store = Store::connect(&config.store_url())
        .await
        .context("connecting to the store")?;
    let user = store
        .upsert_user_on_sign_in(&ProviderIdentity {
            issuer: CHECK_ISSUER.to_owned(),
            subject: "helm-test".to_owned(),
            email: "helm-test@leadgen.invalid".to_owned(),
            name: Some("helm test".to_owned()),
            picture: None,
            email_verified: false,
        })
        .await
        .context("creating the check's account")?;
    let secrets = secrets_file::resolve(config)?;
    let (token, claims) = SessionKeys::new(&secrets.jwt_secret, std::time::Duration::from_secs(600)).issue(&user.id)?;
    store.create_session(&claims).await.context("starting a session")?;
    store.close().await;

    let api = api.trim_end_matches('/');
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .context("building the HTTP client")?;
    let saved = http
        .post(format!("{api}/api/user/api-key"))
        .bearer_auth(&token)
        .json(&serde_json::json!({"api_key": CHECK_PLACES_KEY}))
        .send()
        .await
        .context("saving the check's Places key")?;
    anyhow::ensure!(
        saved.status().is_success(),
        "saving a Places key answered {}",
        saved.status()
    );
    let mut stream = http
        .post(format!("{api}/api/leads/search-stream"))
        .bearer_auth(&token)
        .json(&serde_json::json!({"businessType": "restaurant", "location": "Springfield, IL"}))
        .send()
        .await
        .context("starting a search")?;
    anyhow::ensure!(
        stream.status().is_success(),
        "starting a search answered {}: {}",
        stream.status(),
        stream.text().await.unwrap_or_default()
    );
    let read = async {
        let mut buffer = String::new();
        let mut search_id = None;
        while let Some(chunk) = stream.chunk().await.context("reading the search's events")? {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let frame: String = buffer.drain(..end + 2).collect();
                let data: String = frame
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if data.is_empty() {
                    continue;
                }
                let event: serde_json::Value = serde_json::from_str(&data).context("an event that is not JSON")?;
                match event["type"].as_str() {
                    Some("start") => search_id = event["searchId"].as_str().map(str::to_owned),
                    // The API it asked is stopping (a roll): no answer of a worker's.
                    Some("reconnect") => anyhow::bail!("the API stopped during the check; run it again"),
                    Some("complete") => return Ok((search_id, "complete".to_owned())),
                    Some("error") => {
                        let message = event["message"].as_str().unwrap_or_default().to_owned();
                        // These two come from the API, not a worker.
                        anyhow::ensure!(
                            message != crate::relay::SERVER_STOPPING && message != crate::relay::TIMED_OUT,
                            "no worker answered: {message}"
                        );
                        return Ok((search_id, format!("error: {message}")));
                    }
                    _ => {}
                }
            }
        }
        anyhow::bail!("the search's stream ended without a last event")
    };
    let (search_id, outcome) = tokio::time::timeout(limit, read)
        .await
        .map_err(|_| anyhow::anyhow!("no worker took the search within {limit:?} (are workers running?)"))??;
    let search_id = search_id.context("the stream never said the search's id")?;
    let entry: serde_json::Value = http
        .get(format!("{api}/api/leads/searches/{search_id}"))
        .bearer_auth(&token)
        .send()
        .await
        .context("reading the search's history entry")?
        .json()
        .await
        .context("the history entry is not JSON")?;
    let status = entry["status"].as_str().unwrap_or_default();
    anyhow::ensure!(
        status != "queued" && status != "running",
        "the search ended but its history says {status}"
    );
    Ok(format!(
        "search {search_id} was queued and a worker ran it ({status}; {outcome})"
    ))
}

fn describe(report: &RotationReport) -> String {
    format!(
        "Re-encrypted {} secret(s); {} changed by their owner meanwhile and were left as written.",
        report.resealed, report.skipped_changed
    )
}
