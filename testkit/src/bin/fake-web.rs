//! `fake-web --listen 127.0.0.1:8091`: the websites of the places simulator's businesses
//! for contact enrichment. Start places-sim with `--fake-web-url` set to the printed URL,
//! and exempt the printed host:port in `LEADGEN_OUTBOUND_ALLOWED_HOSTS`.

use std::time::Duration;

use clap::Parser;
use leadgen_testkit::fake_web::{DEFAULT_SLOW_DELAY, DEFAULT_STALL_DELAY, FakeWeb};

/// Command-line options.
#[derive(Parser)]
#[command(about = "A fake web of the places simulator's business websites")]
struct Args {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8091")]
    listen: std::net::SocketAddr,
    /// How long a slow site's home page takes, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_SLOW_DELAY.as_millis() as u64)]
    slow_ms: u64,
    /// How long a stalled site's home page takes, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_STALL_DELAY.as_millis() as u64)]
    stall_ms: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let web = FakeWeb::builder()
        .slow_delay(Duration::from_millis(args.slow_ms))
        .stall_delay(Duration::from_millis(args.stall_ms))
        .start(args.listen)
        .await?;
    // Scripts wait for this exact line before pointing places-sim at the fake web.
    println!("fake-web listening on {}", web.base_url);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
