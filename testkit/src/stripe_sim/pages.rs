//! The stand-ins for Stripe's hosted pages, for browser tests: plain HTML forms with
//! stable element IDs (`#pay`, `#cancel`, `#cancel-plan`, `#return`) and no JavaScript.

use serde_json::Value;

use super::{catalogue, store::Store};

/// `GET /_sim/checkout/{id}`: the order, a Pay button and a Cancel link.
pub(crate) fn checkout_page(store: &Store, session_id: &str) -> Option<String> {
    let record = store.session(session_id)?;
    let json = &record.json;
    let items: String = record
        .line_items
        .iter()
        .map(|li| {
            let (name, amount, interval) = catalogue::price_spec(store, &li.price).map_or_else(
                || (li.price.clone(), 0, String::new()),
                |p| (p.product_name.clone(), p.unit_amount, p.interval.clone()),
            );
            format!(
                "<li>{} × {} — {} / {}</li>",
                li.quantity,
                escape(&name),
                dollars(amount),
                escape(&interval)
            )
        })
        .collect();
    let id = escape(session_id);
    let body = if json["status"] == "open" {
        let cancel = json["cancel_url"]
            .as_str()
            .map(|url| format!(r#"<a id="cancel" href="{}">Cancel</a>"#, escape(url)))
            .unwrap_or_default();
        format!(
            r#"<form method="post" action="/_sim/checkout/{id}/complete">
<button id="pay" type="submit">Pay {total}</button>
</form>
{cancel}"#,
            total = dollars(json["amount_total"].as_i64().unwrap_or(0)),
        )
    } else {
        format!(
            r#"<p id="status">This checkout session is {}.</p>"#,
            escape(json["status"].as_str().unwrap_or(""))
        )
    };
    Some(page(
        "Checkout (stripe-sim)",
        &format!(
            r#"<h1>Checkout</h1>
<p>Session <code id="session-id">{id}</code>{email}</p>
<ul id="items">{items}</ul>
{body}"#,
            email = email_line(json),
        ),
    ))
}

/// `GET /_sim/portal/{id}`: the customer's subscriptions, a Cancel plan button and a
/// Return link.
pub(crate) fn portal_page(store: &Store, portal_id: &str) -> Option<String> {
    let session = store.portal_session(portal_id)?;
    let customer = session["customer"].as_str().unwrap_or_default();
    let subscriptions: Vec<&Value> = store
        .subscriptions
        .iter()
        .filter(|s| s["customer"] == customer)
        .collect();
    let rows: String = subscriptions
        .iter()
        .map(|s| {
            let plan = s["items"]["data"][0]["price"]["id"].as_str().unwrap_or_default();
            let ending = if s["cancel_at_period_end"] == true {
                " (cancels at period end)"
            } else {
                ""
            };
            format!(
                r#"<li class="subscription" data-id="{}">{} — {}{ending}</li>"#,
                escape(s["id"].as_str().unwrap_or_default()),
                escape(plan),
                escape(s["status"].as_str().unwrap_or_default()),
            )
        })
        .collect();
    let id = escape(portal_id);
    let cancellable = subscriptions
        .iter()
        .any(|s| s["status"] != "canceled" && s["cancel_at_period_end"] != true);
    let cancel = if cancellable {
        format!(
            r#"<form method="post" action="/_sim/portal/{id}/cancel">
<button id="cancel-plan" type="submit">Cancel plan</button>
</form>"#
        )
    } else {
        String::new()
    };
    let back = session["return_url"]
        .as_str()
        .map(|url| format!(r#"<a id="return" href="{}">Return</a>"#, escape(url)))
        .unwrap_or_default();
    Some(page(
        "Billing portal (stripe-sim)",
        &format!(
            r#"<h1>Billing portal</h1>
<p>Customer <code id="customer-id">{}</code></p>
<ul id="subscriptions">{rows}</ul>
{cancel}
{back}"#,
            escape(customer),
        ),
    ))
}

/// A small error page.
pub(crate) fn not_found(what: &str) -> String {
    page(
        "Not found (stripe-sim)",
        &format!("<h1>Not found</h1><p>{}</p>", escape(what)),
    )
}

fn email_line(session: &Value) -> String {
    session["customer_email"]
        .as_str()
        .map(|e| format!(" for {}", escape(e)))
        .unwrap_or_default()
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title></head>\n<body>\n{body}\n</body></html>\n",
        escape(title)
    )
}

fn dollars(cents: i64) -> String {
    format!("${}.{:02}", cents / 100, cents.rem_euclid(100))
}

/// Escapes text for HTML element content and double-quoted attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_formats_money() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assert_eq!(dollars(2900), "$29.00");
        assert_eq!(dollars(9905), "$99.05");
    }
}
