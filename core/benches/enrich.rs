//! Contact enrichment against the fake web, with the production limits (release build):
//!
//!     cargo bench -p leadgen-core --bench enrich
//!
//! Sites are the places simulator's businesses (their websites, as places-sim serves them
//! when pointed at the fake web), so kinds of site come in the fake web's shares: slow,
//! stalled, huge, down, disallowed and redirecting sites included. Prints a Markdown
//! report (copied into docs/benchmarks.md):
//! - sites read per second, all sites handed over at once;
//! - recall: the share of sites publishing an address (per the fake web's truth) whose
//!   addresses were all found, addresses missed, and addresses found that the site does
//!   not publish (junk);
//! - requests that reached a refused address (the fake web's trap);
//! - one search's worth (the businesses with a website among the 60 of one query): time
//!   until every site of it was read, all started at once, which bounds the time
//!   enrichment adds after a search's last lead.
//!
//! On the fake web every site shares one host, so the default per-host limit (4 requests
//! at a time) throttles a run as if all its businesses shared one website; each run is
//! shown both that way and "one host per business" (the per-host limit raised to the
//! global one), which is what the real web looks like.

use std::{
    collections::BTreeSet,
    net::SocketAddr,
    time::{Duration, Instant},
};

use leadgen_core::{
    enrich::{CrawlLimits, Crawler, website_fetch_limits},
    outbound::{GuardedClient, OutboundPolicy},
};
use leadgen_testkit::{
    fake_web::{FakeWeb, Site, site_url},
    places_sim::{World, catalogue, cities},
};

/// The slug of a simulator website (`https://{slug}.example.com/`).
fn slug_of(website: &str) -> Option<String> {
    website
        .strip_prefix("https://")?
        .strip_suffix(".example.com/")
        .map(str::to_owned)
}

/// The sites of `count` distinct businesses of the simulator's world.
fn world_slugs(count: usize) -> Vec<String> {
    let world = World::new(42);
    let mut slugs = BTreeSet::new();
    for city in cities() {
        for ty in catalogue::TYPES {
            for place in world.places_for(city.name, ty.value) {
                if let Some(slug) = place.website_uri.as_deref().and_then(slug_of) {
                    slugs.insert(slug);
                }
                if slugs.len() == count {
                    return slugs.into_iter().collect();
                }
            }
        }
    }
    slugs.into_iter().collect()
}

/// One search's businesses with a website: the 60 of "dentist in Houston".
fn search_slugs() -> Vec<String> {
    World::new(42)
        .expected_places("dentist in Houston", Some("dentist"))
        .iter()
        .filter_map(|p| p["websiteUri"].as_str().and_then(slug_of))
        .collect()
}

/// What one run measured.
struct Run {
    sites: usize,
    elapsed: Duration,
    with_email: usize,
    all_found: usize,
    missed: usize,
    junk: usize,
}

async fn crawl(web: &FakeWeb, slugs: &[String], per_host: usize) -> Run {
    let client = GuardedClient::new(OutboundPolicy::new(vec![web.host_port()]), website_fetch_limits());
    let crawler = Crawler::new(
        client,
        CrawlLimits {
            per_host_concurrency: per_host,
            ..CrawlLimits::default()
        },
    );
    let started = Instant::now();
    let tasks: Vec<_> = slugs
        .iter()
        .map(|slug| {
            let crawler = crawler.clone();
            let url = site_url(&web.base_url, slug);
            tokio::spawn(async move { crawler.read_site(&url).await.unwrap_or_default() })
        })
        .collect();
    let mut found = Vec::with_capacity(tasks.len());
    for task in tasks {
        found.push(task.await.unwrap_or_default());
    }
    let mut run = Run {
        sites: slugs.len(),
        elapsed: started.elapsed(),
        with_email: 0,
        all_found: 0,
        missed: 0,
        junk: 0,
    };
    for (slug, contacts) in slugs.iter().zip(found) {
        let truth = Site::of(slug).truth();
        if !truth.emails.is_empty() {
            run.with_email += 1;
            if truth.emails.iter().all(|e| contacts.emails.contains(e)) {
                run.all_found += 1;
            }
        }
        run.missed += truth.emails.iter().filter(|e| !contacts.emails.contains(e)).count();
        run.junk += contacts.emails.iter().filter(|e| !truth.emails.contains(e)).count();
    }
    run
}

fn row(label: &str, run: &Run) {
    println!(
        "| {label} | {} | {:.2} s | {:.0} | {}/{} ({:.1}%) | {} | {} |",
        run.sites,
        run.elapsed.as_secs_f64(),
        run.sites as f64 / run.elapsed.as_secs_f64(),
        run.all_found,
        run.with_email,
        100.0 * run.all_found as f64 / run.with_email.max(1) as f64,
        run.missed,
        run.junk,
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    leadgen_core::install_crypto_provider();
    let web = FakeWeb::start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("fake web");
    let defaults = CrawlLimits::default();
    let (global, per_host) = (defaults.global_concurrency, defaults.per_host_concurrency);
    println!("| run | sites | time | sites/s | sites with all their addresses found | missed | junk |");
    println!("|---|---|---|---|---|---|---|");
    let many = world_slugs(3000);
    row(
        &format!("3,000 businesses, one host each ({global} sites at a time)"),
        &crawl(&web, &many, global).await,
    );
    let some = &many[..600];
    row(
        &format!("600 businesses, all on one host ({per_host} requests at a time)"),
        &crawl(&web, some, per_host).await,
    );
    let search = search_slugs();
    row(
        "one search (dentist in Houston: its businesses with a website), one host each",
        &crawl(&web, &search, global).await,
    );
    row(
        &format!("the same search, all on one host ({per_host} requests at a time)"),
        &crawl(&web, &search, per_host).await,
    );
    println!();
    println!(
        "Requests that reached a refused address (the fake web's trap): {}",
        web.stats().trap_hits
    );
}
