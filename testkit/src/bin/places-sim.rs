//! `places-sim --listen 127.0.0.1:8090 --seed 42`: a local stand-in for Google Places API
//! (New) Text Search and the Places Aggregate API. Point `LEADGEN_PLACES_BASE_URL` (and
//! `LEADGEN_AGGREGATE_BASE_URL`) at the printed URL.

use std::time::Duration;

use clap::Parser;
use leadgen_testkit::places_sim::{DEFAULT_RPM_QUOTA, DEFAULT_SEED, PlacesSim, SimConfig};

/// Command-line options.
#[derive(Parser)]
#[command(about = "Simulator of Google Places API (New) Text Search")]
struct Args {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8090")]
    listen: std::net::SocketAddr,
    /// Seed of the synthetic world; the same seed gives the same businesses.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Fixed delay before every searchText answer, in milliseconds.
    #[arg(long, default_value_t = 0)]
    latency_ms: u64,
    /// Extra random delay, up to this many milliseconds.
    #[arg(long, default_value_t = 0)]
    jitter_ms: u64,
    /// Share of searchText requests answered 503 UNAVAILABLE (0.0 to 1.0).
    #[arg(long, default_value_t = 0.0, value_parser = parse_rate)]
    fault_rate: f64,
    /// Requests per minute allowed per API key (0 disables the quota).
    #[arg(long, default_value_t = DEFAULT_RPM_QUOTA)]
    rpm: u32,
    /// How long a key containing SLOW waits before its answer, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    slow_ms: u64,
    /// Businesses of a type in the dense metro (Houston), as TYPE=COUNT, e.g.
    /// `dentist=5000`; repeatable. Defaults: dentist=1500, restaurant=3000.
    #[arg(long, value_parser = parse_density)]
    metro_density: Vec<(String, u32)>,
    /// Base URL of a running fake-web (e.g. http://127.0.0.1:8091): websiteUri then
    /// points at each business's site there instead of https://{slug}.example.com/.
    #[arg(long, env = "PLACES_SIM_FAKE_WEB_URL")]
    fake_web_url: Option<String>,
}

fn parse_density(text: &str) -> Result<(String, u32), String> {
    let (place_type, count) = text.split_once('=').ok_or("expected TYPE=COUNT")?;
    let count = count.trim().parse().map_err(|e| format!("not a count: {e}"))?;
    Ok((place_type.trim().to_owned(), count))
}

fn parse_rate(text: &str) -> Result<f64, String> {
    let rate: f64 = text.parse().map_err(|e| format!("not a number: {e}"))?;
    if (0.0..=1.0).contains(&rate) {
        Ok(rate)
    } else {
        Err("must be between 0.0 and 1.0".to_owned())
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let config = SimConfig {
        seed: args.seed,
        latency: Duration::from_millis(args.latency_ms),
        jitter: Duration::from_millis(args.jitter_ms),
        fault_rate: args.fault_rate,
        rpm_quota: args.rpm,
        slow_delay: Duration::from_millis(args.slow_ms),
        fake_web_url: args.fake_web_url.filter(|u| !u.trim().is_empty()),
        ..SimConfig::default()
    };
    let config = args
        .metro_density
        .into_iter()
        .fold(config, |mut config, (place_type, count)| {
            config.metro_density.insert(place_type, count);
            config
        });
    let sim = PlacesSim::builder().config(config).start(args.listen).await?;
    // Scripts wait for this exact line before pointing clients at the simulator.
    println!("places-sim listening on {}", sim.base_url);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
