//! `stripe-sim --listen 127.0.0.1:8092 --webhook-url URL --webhook-secret whsec_...`: a
//! local stand-in for the Stripe API endpoints Leadgen's billing uses. Point the Stripe
//! client's base URL at the printed URL; session URLs lead to the simulator's own
//! Checkout and portal pages unless `--page-host stripe`.

use clap::Parser;
use leadgen_testkit::stripe_sim::{DEFAULT_SECRET_KEY, PageHost, StripeSim};

/// Command-line options.
#[derive(Parser)]
#[command(about = "Simulator of the Stripe API endpoints Leadgen uses")]
struct Args {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8092")]
    listen: std::net::SocketAddr,
    /// Webhook endpoint events are POSTed to (http only); none records events only.
    #[arg(long)]
    webhook_url: Option<String>,
    /// Signing secret of the webhook endpoint (`whsec_...`).
    #[arg(long, requires = "webhook_url")]
    webhook_secret: Option<String>,
    /// The API key clients must send as `Authorization: Bearer ...`.
    #[arg(long, default_value = DEFAULT_SECRET_KEY)]
    secret_key: String,
    /// Where session URLs point: `sim` (this server's pages), `stripe` (Stripe's hosts),
    /// or a base URL browsers reach this server at.
    #[arg(long, default_value = "sim")]
    page_host: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let page_host = match args.page_host.as_str() {
        "sim" => PageHost::Sim,
        "stripe" => PageHost::Stripe,
        base => PageHost::Base(base.to_owned()),
    };
    let mut builder = StripeSim::builder().secret_key(&args.secret_key).page_host(page_host);
    if let Some(url) = &args.webhook_url {
        let secret = args
            .webhook_secret
            .clone()
            .ok_or_else(|| anyhow::anyhow!("--webhook-url needs --webhook-secret"))?;
        builder = builder.webhook(url, &secret);
    }
    let sim = builder.start(args.listen).await?;
    // Scripts wait for this exact line before pointing clients at the simulator.
    println!("stripe-sim listening on {}", sim.base_url);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
