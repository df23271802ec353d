//! A fake web: the websites of the places simulator's businesses, for contact enrichment.
//!
//! Every site lives under one host, at `/sites/{slug}/` (or `/members/{slug}/`, which the
//! fake web's robots.txt closes to `LeadgenBot`), and is drawn from its slug alone, so
//! places-sim (started with the fake web's base URL) and the fake web agree without
//! sharing state. Kinds of site, in fixed shares ([`Kind`]): the address in a `mailto:`
//! link, in text, in JSON-LD, obfuscated on a linked contact page, protected by
//! Cloudflare, as HTML entities on an imprint page, on an unlinked `contact-us` page, on
//! two pages; sites with no address; slow, stalled, huge, down, disallowed and
//! redirecting-to-a-private-address sites; and template junk around a real address.
//!
//! `GET /_web/truth?site={slug}` (repeatable; without it, every site visited so far)
//! says what each site publishes in a supported form and within sane limits, so tests
//! and benchmarks measure recall and junk. `GET /_web/stats` counts requests, and the
//! requests that reached the trap that redirecting sites point at by a loopback name:
//! it stays 0 behind a guarded client.

mod pages;
mod server;
mod sites;

pub use server::{DEFAULT_SLOW_DELAY, DEFAULT_STALL_DELAY, FakeWeb, FakeWebBuilder, WebStats};
pub use sites::{Kind, MEMBERS_PREFIX, SITES_PREFIX, Site, Socials, Truth};

/// The URL of the site of `slug` on the fake web at `base_url`.
pub fn site_url(base_url: &str, slug: &str) -> String {
    format!("{}{}", base_url.trim_end_matches('/'), Site::of(slug).path())
}

#[cfg(test)]
mod tests;
