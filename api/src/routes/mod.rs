//! The API's operations, one module per OpenAPI tag.

pub mod audit;
pub mod auth;
pub mod billing;
pub mod delivery;
pub mod health;
pub mod invitations;
pub mod leads;
pub mod leads_models;
pub mod saved_searches;
pub mod search_export;
pub mod searches;
pub mod sheets;
pub mod site;
pub mod spend;
pub mod tokens;
pub mod user;
pub mod webhooks;
pub mod workspaces;

use poem_openapi::Tags;

/// OpenAPI tags, one per domain.
#[derive(Tags)]
pub enum ApiTags {
    /// Sign-in, session tokens and the current user.
    Auth,
    /// The user's account: onboarding and their Places API key.
    User,
    /// Lead searches and the Places API key check.
    Leads,
    /// Personal API tokens and webhooks, for integrations.
    Integrations,
    /// Export to Google Sheets.
    Sheets,
    /// Plans, Checkout, the billing portal and subscription status.
    Billing,
    /// Workspaces (the tenant: one key, plan and history shared by its members) and
    /// their members.
    Workspaces,
    /// What the public pages say of the operator.
    Site,
    /// Liveness and readiness.
    Health,
    /// Server-sent event streams (left out of the generated client, which cannot type
    /// them; read them with fetch and an SSE parser).
    Stream,
}

/// Every group of operations.
pub type Apis = (
    auth::AuthApi,
    user::UserApi,
    delivery::DeliveryApi,
    tokens::TokensApi,
    webhooks::WebhooksApi,
    leads::LeadsApi,
    searches::SearchesApi,
    saved_searches::SavedSearchesApi,
    spend::SpendApi,
    sheets::SheetsApi,
    billing::BillingApi,
    workspaces::WorkspacesApi,
    invitations::InvitationsApi,
    audit::AuditApi,
    site::SiteApi,
    health::HealthApi,
);

/// Every operation, composed.
pub fn api() -> Apis {
    (
        auth::AuthApi,
        user::UserApi,
        delivery::DeliveryApi,
        tokens::TokensApi,
        webhooks::WebhooksApi,
        leads::LeadsApi,
        searches::SearchesApi,
        saved_searches::SavedSearchesApi,
        spend::SpendApi,
        sheets::SheetsApi,
        billing::BillingApi,
        workspaces::WorkspacesApi,
        invitations::InvitationsApi,
        audit::AuditApi,
        site::SiteApi,
        health::HealthApi,
    )
}
