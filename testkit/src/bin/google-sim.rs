//! `google-sim --listen 127.0.0.1:8091`: a local stand-in for Google's OAuth token
//! endpoint, Sheets API v4 and Drive API v3. Point the token URL at `{url}/token` and the
//! Sheets and Drive base URLs at the printed URL.

use std::time::Duration;

use clap::Parser;
use leadgen_testkit::google_sim::{DEFAULT_ACCESS_TOKEN_LIFETIME, GoogleSim, GoogleSimConfig, OAuthClient};

/// Command-line options.
#[derive(Parser)]
#[command(about = "Fake of Google's OAuth token endpoint, Sheets API v4 and Drive API v3")]
struct Args {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8091")]
    listen: std::net::SocketAddr,
    /// The only OAuth client id the token endpoint accepts (any, when not given).
    #[arg(long, requires = "client_secret")]
    client_id: Option<String>,
    /// The secret of `--client-id`.
    #[arg(long, requires = "client_id")]
    client_secret: Option<String>,
    /// Turn unknown refresh tokens into new grants instead of `invalid_grant` (for
    /// refresh tokens issued by another fake provider).
    #[arg(long)]
    accept_unknown_refresh_tokens: bool,
    /// Sheets write requests allowed per identity per minute (0 disables the quota).
    #[arg(long, default_value_t = 0)]
    write_quota_per_minute: u32,
    /// Lifetime of access tokens, in seconds.
    #[arg(long, default_value_t = DEFAULT_ACCESS_TOKEN_LIFETIME.as_secs())]
    access_token_lifetime_secs: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let client = match (args.client_id, args.client_secret) {
        (Some(id), Some(secret)) => Some(OAuthClient { id, secret }),
        _ => None,
    };
    let config = GoogleSimConfig {
        client,
        access_token_lifetime: Duration::from_secs(args.access_token_lifetime_secs),
        write_quota_per_minute: args.write_quota_per_minute,
        accept_unknown_refresh_tokens: args.accept_unknown_refresh_tokens,
    };
    let sim = GoogleSim::builder().config(config).start(args.listen).await?;
    // Scripts wait for this exact line before pointing clients at the fake.
    println!("google-sim listening on {}", sim.base_url);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
