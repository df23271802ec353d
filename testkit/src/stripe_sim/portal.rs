//! Customer portal sessions: `POST /v1/billing_portal/sessions`.

use poem::http::StatusCode;
use serde_json::{Value, json};

use super::{
    clock,
    config::{PageHost, STRIPE_BILLING_HOST},
    customer,
    errors::ApiError,
    form::Params,
    ids,
    store::Store,
};

/// Parameters `POST /v1/billing_portal/sessions` takes.
const CREATE_PARAMS: &[&str] = &[
    "configuration",
    "customer",
    "customer_account",
    "expand",
    "flow_data",
    "locale",
    "on_behalf_of",
    "return_url",
];

/// `POST /v1/billing_portal/sessions`.
pub(crate) fn create(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    if let Some(key) = params.unknown_key(CREATE_PARAMS) {
        return Err(ApiError::unknown_param(key));
    }
    let customer_id = params
        .str(&["customer"])
        .ok_or_else(|| ApiError::missing_param("customer"))?;
    customer::require(store, customer_id, StatusCode::BAD_REQUEST, "customer")?;
    let id = ids::portal_session();
    let url = match &store.config.page_host {
        PageHost::Stripe => format!("{STRIPE_BILLING_HOST}/p/session/test_{}", ids::portal_token()),
        PageHost::Sim => format!("{}/_sim/portal/{id}", store.base_url),
        PageHost::Base(base) => format!("{}/_sim/portal/{id}", base.trim_end_matches('/')),
    };
    let session = json!({
        "id": id,
        "object": "billing_portal.session",
        "configuration": params.str(&["configuration"]).unwrap_or(&store.portal_configuration),
        "created": clock::now(),
        "customer": customer_id,
        "customer_account": null,
        "flow": null,
        "livemode": false,
        "locale": params.str(&["locale"]),
        "on_behalf_of": params.str(&["on_behalf_of"]),
        "return_url": params.str(&["return_url"]),
        "url": url
    });
    store.portal_sessions.push(session.clone());
    Ok(session)
}
