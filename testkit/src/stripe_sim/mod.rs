//! A fake of the Stripe API endpoints Leadgen's billing uses, speaking Stripe's wire format
//! as of API version [`DEFAULT_API_VERSION`] (the one async-stripe 1.0.0-rc.10 sends).
//!
//! Endpoints (form-encoded requests with Stripe's bracket notation, JSON answers,
//! `Authorization: Bearer <secret key>` or 401):
//! - `POST /v1/customers`, `GET /v1/customers[/{id}]`
//! - `POST /v1/checkout/sessions` (subscription mode, configured prices),
//!   `GET /v1/checkout/sessions/{id}[/line_items]`
//! - `POST /v1/billing_portal/sessions`
//! - `GET /v1/subscriptions/{id}`, `GET /v1/subscriptions?customer=&status=&limit=`
//! - `GET /v1/prices/{id}`, `/v1/products/{id}`, `/v1/invoices/{id}`,
//!   `/v1/payment_methods/{id}`, `/v1/events/{id}`
//! - `expand[]` on any of them; Stripe's error envelope (`resource_missing`,
//!   `parameter_missing`, `parameter_unknown`, `idempotency_error`, ...);
//!   `Idempotency-Key` replays with `Idempotent-Replayed: true` for 24 hours.
//!
//! What customers do on Stripe's pages is driven from tests ([`StripeSim::complete_checkout`],
//! [`StripeSim::cancel_subscription`], [`StripeSim::fail_payment`]) or from a browser on the
//! simulator's own pages (`/_sim/checkout/{id}`, `/_sim/portal/{id}`, used as session URLs
//! with [`PageHost::Sim`]). Each change records Stripe's events and POSTs them, signed
//! ([`sign`]), to the configured webhook endpoint, in order. `/_sim/*` also serves what
//! happened: `requests`, `events`, `deliveries`, `customers`, `subscriptions`, ...

mod api;
mod catalogue;
mod checkout;
mod clock;
mod config;
mod customer;
mod errors;
mod event;
mod expand;
mod form;
mod idempotency;
mod ids;
mod invoice;
mod join;
mod lifecycle;
mod list;
mod pages;
mod portal;
mod server;
mod store;
mod subscription;
mod webhook;

pub use checkout::SESSION_ID_TEMPLATE;
pub use config::{
    DEFAULT_API_VERSION, DEFAULT_SECRET_KEY, PageHost, PriceSpec, STRIPE_BILLING_HOST, STRIPE_CHECKOUT_HOST, SimConfig,
    StripeSimBuilder, default_prices,
};
pub use idempotency::IDEMPOTENCY_TTL;
pub use list::{DEFAULT_LIMIT, MAX_LIMIT};
pub use server::StripeSim;
pub use store::RecordedRequest;
pub use subscription::STATUSES as SUBSCRIPTION_STATUSES;
pub use webhook::{DELIVERY_TIMEOUT, sign};
