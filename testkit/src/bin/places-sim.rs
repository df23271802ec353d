//! `places-sim --listen 127.0.0.1:8090`: a local stand-in for Google Places API (New).

use clap::Parser;

/// Command-line options.
#[derive(Parser)]
#[command(about = "Simulator of Google Places API (New) Text Search")]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8090")]
    listen: std::net::SocketAddr,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let sim = leadgen_testkit::places_sim::PlacesSim::start(args.listen).await?;
    println!("places-sim listening on {}", sim.base_url);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
