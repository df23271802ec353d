//! Rules that core's parsers enforce on request fields, written into the spec poem-openapi
//! generates (issue #12: "request constraints in the schema, so that schema-valid input
//! is accepted and invalid input gets a 400 with the spec's message").
//!
//! The handlers keep parsing these fields with core's own types (`Scopes::parse`,
//! `catalogue::find`, `webhooks::parse_events`...), whose refusals carry the product's
//! messages; a poem-openapi validator would refuse first, with its own wording. So the
//! rules are stated here, from the same constants the parsers use, and schemathesis
//! (frontend/e2e/contract-fuzz.spec.ts) checks in both directions that the server and the
//! document agree.

use leadgen_core::{
    api_key,
    personal_tokens::{MAX_EXPIRY_DAYS, MAX_NAME_LEN, Scope},
    search::{MAX_COST_USD, MAX_MIN_REVIEWS, MAX_POLYGON_POINTS, MAX_RADIUS_METERS, SearchStatus},
    sheets::MAX_EXPORT_ROWS,
    webhooks::EventType,
};
use openapiv3::{
    ArrayType, IntegerType, NumberType, OpenAPI, ParameterSchemaOrContent, ReferenceOr, Schema, SchemaData, SchemaKind,
    StringType, Type, VariantOrUnknownOrEmpty,
};

use serde_json::json;

use crate::{
    openapi_document::{SchemaNode, component_schema_mut, item_mut, operation_mut, parameter_data_mut},
    routes::sheets::MAX_CELL_CHARS,
};

/// At least one character that is not white space (names are trimmed before checks).
const NOT_BLANK: &str = r"\S";
/// Not blank, and no control character (`char::is_control`: U+0000-U+001F, U+007F-U+009F).
const NOT_BLANK_NO_CONTROL: &str = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$";

/// What core requires of a field, written into its schema. `false` when the schema is
/// not of the kind the rule is for: poem-openapi changed it, and the rule would be lost.
type Rule = Box<dyn Fn(&mut Schema) -> bool>;

/// `doc` with every rule below written into the schema it belongs to.
pub fn with_request_rules(doc: &mut OpenAPI) {
    // A rule that finds no field is caught by the tests below, never at run time.
    let _lost = apply(doc);
}

/// Applies every rule; returns where the ones that found no field of their kind belong.
fn apply(doc: &mut OpenAPI) -> Vec<String> {
    let mut lost = Vec::new();
    for (schema, property, rule) in property_rules() {
        let target = component_schema_mut(doc, schema).and_then(|s| match &mut s.schema_kind {
            SchemaKind::Type(Type::Object(object)) => object.properties.get_mut(property),
            _ => None,
        });
        if !target.and_then(item_mut).is_some_and(|t| rule(t.schema_mut())) {
            lost.push(format!("{schema}.{property}"));
        }
    }
    for (operation, parameter, rule) in parameter_rules() {
        if !parameter_schema(doc, operation, parameter).is_some_and(rule) {
            lost.push(format!("{operation}({parameter})"));
        }
    }
    lost
}

fn integer(edit: impl Fn(&mut IntegerType) + 'static) -> Rule {
    Box::new(move |schema| match &mut schema.schema_kind {
        SchemaKind::Type(Type::Integer(integer)) => {
            edit(integer);
            true
        }
        _ => false,
    })
}

fn number(edit: impl Fn(&mut NumberType) + 'static) -> Rule {
    Box::new(move |schema| match &mut schema.schema_kind {
        SchemaKind::Type(Type::Number(number)) => {
            edit(number);
            true
        }
        _ => false,
    })
}

fn string(edit: impl Fn(&mut StringType) + 'static) -> Rule {
    Box::new(move |schema| match &mut schema.schema_kind {
        SchemaKind::Type(Type::String(string)) => {
            edit(string);
            true
        }
        _ => false,
    })
}

fn array(edit: impl Fn(&mut ArrayType) + 'static) -> Rule {
    Box::new(move |schema| match &mut schema.schema_kind {
        SchemaKind::Type(Type::Array(array)) => {
            edit(array);
            true
        }
        _ => false,
    })
}

/// Items that are one of `words`.
fn one_of(words: &[&'static str]) -> ReferenceOr<Box<Schema>> {
    ReferenceOr::boxed_item(Schema {
        schema_data: SchemaData::default(),
        schema_kind: SchemaKind::Type(Type::String(StringType {
            enumeration: words.iter().map(|w| Some((*w).to_owned())).collect(),
            ..StringType::default()
        })),
    })
}

/// Google's key shape, from core's constants; `optional`: or empty.
fn key_pattern(optional: bool) -> String {
    let key = format!(
        "{}[A-Za-z0-9_-]{{{},{}}}",
        api_key::PREFIX,
        api_key::MIN_LEN - api_key::PREFIX.len(),
        api_key::MAX_LEN - api_key::PREFIX.len()
    );
    // Trimmed, then (if optional) empty, which deletes the key.
    if optional {
        format!(r"^\s*({key})?\s*$")
    } else {
        format!(r"^\s*{key}\s*$")
    }
}

/// A whole number from `min` to `max`.
fn integer_in(min: i64, max: i64) -> Rule {
    integer(move |i| (i.minimum, i.maximum) = (Some(min), Some(max)))
}

/// A number from `min` to `max`; above `min` when `exclusive`.
fn number_in(min: f64, exclusive: bool, max: f64) -> Rule {
    number(move |n| (n.minimum, n.exclusive_minimum, n.maximum) = (Some(min), exclusive, Some(max)))
}

/// Text of at most `max` characters.
fn at_most(max: usize) -> Rule {
    string(move |s| s.max_length = Some(max))
}

/// Text matching `pattern`.
fn matching(pattern: String) -> Rule {
    string(move |s| s.pattern = Some(pattern.clone()))
}

/// A name: not blank, at most `max` characters.
fn name(max: usize) -> Rule {
    string(move |s| (s.min_length, s.max_length, s.pattern) = (Some(1), Some(max), Some(NOT_BLANK.into())))
}

/// A client label: 1 to 80 characters, not blank, no control character.
fn client_label() -> Rule {
    string(|s| {
        (s.min_length, s.max_length, s.pattern) = (
            Some(1),
            Some(leadgen_core::spend::MAX_CLIENT_CHARS),
            Some(NOT_BLANK_NO_CONTROL.into()),
        );
    })
}

/// A list of at least one of `words`.
fn some_of(words: Vec<&'static str>) -> Rule {
    array(move |a| (a.min_items, a.items) = (Some(1), Some(one_of(&words))))
}

/// One of `words`.
fn word_of(words: Vec<&'static str>) -> Rule {
    string(move |s| s.enumeration = words.iter().map(|w| Some((*w).to_owned())).collect())
}

/// (component schema, property, what core requires of it).
fn property_rules() -> Vec<(&'static str, &'static str, Rule)> {
    let scopes = Scope::ALL.iter().map(|s| s.as_str()).collect();
    let events = EventType::SUBSCRIBABLE.iter().map(|e| e.as_str()).collect();
    vec![
        ("SaveApiKeyRequest", "api_key", matching(key_pattern(true))),
        // A key to check: Google's shape, not empty.
        ("CheckApiKeyRequest", "apiKey", matching(key_pattern(false))),
        ("SearchRequest", "minReviews", integer_in(0, i64::from(MAX_MIN_REVIEWS))),
        ("SearchRequest", "minRating", number_in(0.0, false, 5.0)),
        ("SearchRequest", "maxCostUsd", number_in(0.0, true, MAX_COST_USD)),
        ("GeoPoint", "latitude", number_in(-90.0, false, 90.0)),
        ("GeoPoint", "longitude", number_in(-180.0, false, 180.0)),
        ("SearchArea", "radiusMeters", number_in(0.0, true, MAX_RADIUS_METERS)),
        // A closed ring repeats its first point: one item more than the points allowed.
        (
            "SearchArea",
            "polygon",
            array(|a| (a.min_items, a.max_items) = (Some(3), Some(MAX_POLYGON_POINTS + 1))),
        ),
        ("CreateTokenRequest", "name", name(MAX_NAME_LEN)),
        (
            "WorkspaceNameRequest",
            "name",
            string(|s| {
                (s.min_length, s.max_length, s.pattern) = (
                    Some(1),
                    Some(leadgen_core::workspace::MAX_NAME_CHARS),
                    Some(NOT_BLANK_NO_CONTROL.into()),
                );
            }),
        ),
        (
            "UpdateWorkspaceRequest",
            "name",
            string(|s| {
                (s.min_length, s.max_length, s.pattern) = (
                    Some(1),
                    Some(leadgen_core::workspace::MAX_NAME_CHARS),
                    Some(NOT_BLANK_NO_CONTROL.into()),
                );
            }),
        ),
        (
            "UpdateWorkspaceRequest",
            "monthlySpendCapUsd",
            // Dollars and cents: above 0, bounded, a whole number of cents.
            number(|n| {
                (n.minimum, n.exclusive_minimum, n.maximum, n.multiple_of) = (
                    Some(0.0),
                    true,
                    Some(leadgen_core::spend::MAX_MONTHLY_CAP_USD),
                    Some(0.01),
                );
            }),
        ),
        ("SearchRequest", "client", client_label()),
        (
            "CreateInvitationRequest",
            "email",
            string(|s| {
                (s.max_length, s.pattern) = (
                    Some(leadgen_core::invitations::MAX_EMAIL_LEN),
                    Some(leadgen_core::invitations::EMAIL_PATTERN.into()),
                );
            }),
        ),
        ("CreateTokenRequest", "scopes", some_of(scopes)),
        (
            "CreateTokenRequest",
            "expiresInDays",
            integer_in(1, i64::from(MAX_EXPIRY_DAYS)),
        ),
        ("CreateWebhookRequest", "events", some_of(events)),
        ("CreateWebhookRequest", "url", matching("^https?://[^/?#@]+".into())),
        (
            "ExportToSheetsRequest",
            "leads",
            array(|a| (a.min_items, a.max_items) = (Some(1), Some(MAX_EXPORT_ROWS))),
        ),
        ("ExportToSheetsRequest", "businessType", at_most(200)),
        ("ExportToSheetsRequest", "location", at_most(200)),
        ("ExportLead", "name", name(MAX_CELL_CHARS)),
        ("ExportLead", "address", at_most(MAX_CELL_CHARS)),
        ("ExportLead", "phone", at_most(MAX_CELL_CHARS)),
        ("ExportLead", "website", at_most(MAX_CELL_CHARS)),
    ]
}

/// (operation id, parameter, what the handler requires of it).
fn parameter_rules() -> Vec<(&'static str, &'static str, Rule)> {
    vec![
        ("start_sign_in", "feature", word_of(vec!["sheets"])),
        (
            "list_searches",
            "status",
            word_of(SearchStatus::ALL.iter().map(|s| s.as_str()).collect()),
        ),
        ("list_searches", "limit", integer_in(1, 100)),
        // `{created_at}.{id}` of a page's last entry, as `nextCursor` gave it.
        ("list_searches", "cursor", matching(r"^-?[0-9]{1,18}\..+$".into())),
        ("stream_search_events", "Last-Event-ID", Box::new(whole_u64)),
        ("list_searches", "client", client_label()),
        (
            "get_usage_breakdown",
            "month",
            matching(r"^[0-9]{4}-(0[1-9]|1[0-2])$".into()),
        ),
    ]
}

/// A whole number the handler reads as a `u64`. poem-openapi says `integer`, format
/// `uint64`, which readers need not take as a range, so the range is stated. openapiv3
/// holds an integer's bounds as `i64`, too small for `u64::MAX`; its extension map, which
/// it writes flattened into the schema, carries the exact bound. (A float bound such as
/// "below 2^64" would be exact too, but schemathesis' generator then rounds it and sends
/// 2^64 as valid.)
fn whole_u64(schema: &mut Schema) -> bool {
    let SchemaKind::Type(Type::Integer(integer)) = &mut schema.schema_kind else {
        return false;
    };
    if integer.format != VariantOrUnknownOrEmpty::Unknown("uint64".into()) {
        return false;
    }
    integer.minimum = Some(0);
    integer.maximum = None;
    schema.schema_data.extensions.insert("maximum".into(), json!(u64::MAX));
    true
}

fn parameter_schema<'a>(doc: &'a mut OpenAPI, operation: &str, parameter: &str) -> Option<&'a mut Schema> {
    let data = operation_mut(doc, operation)?
        .parameters
        .iter_mut()
        .filter_map(item_mut)
        .map(parameter_data_mut)
        .find(|data| data.name == parameter)?;
    match &mut data.format {
        ParameterSchemaOrContent::Schema(schema) => item_mut(schema),
        ParameterSchemaOrContent::Content(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    fn poem_openapi_spec() -> OpenAPI {
        serde_json::from_str(&crate::app::openapi_service().spec()).expect("spec")
    }

    #[test]
    fn every_rule_finds_a_field_of_its_kind_in_the_generated_spec() {
        let mut doc = poem_openapi_spec();
        crate::openapi_contract::with_common_responses(&mut doc);
        let lost = apply(&mut doc);
        assert!(
            lost.is_empty(),
            "rules that would be lost (no such field, or not of their kind): {lost:?}"
        );
    }

    #[test]
    fn rules_come_from_core_and_keep_what_the_field_had() {
        let mut doc = poem_openapi_spec();
        with_request_rules(&mut doc);
        let out: Value = serde_json::from_str(&crate::openapi_document::to_json(&doc)).expect("json");
        let scopes = &out["components"]["schemas"]["CreateTokenRequest"]["properties"]["scopes"];
        assert_eq!(scopes["type"], "array", "poem-openapi's own keywords stay");
        assert_eq!(scopes["minItems"], 1);
        assert_eq!(scopes["items"]["enum"].as_array().map(Vec::len), Some(Scope::ALL.len()));
    }

    #[test]
    fn the_last_event_id_admits_exactly_the_u64_range() {
        let mut doc = poem_openapi_spec();
        with_request_rules(&mut doc);
        let out: Value = serde_json::from_str(&crate::openapi_document::to_json(&doc)).expect("json");
        let header = out["paths"]["/api/leads/searches/{id}/events"]["get"]["parameters"]
            .as_array()
            .and_then(|p| p.iter().find(|p| p["name"] == "Last-Event-ID"))
            .expect("the header");
        let schema = &header["schema"];
        assert_eq!(schema["type"], "integer");
        assert_eq!(schema["minimum"].as_i64(), Some(0));
        assert_eq!(
            schema["maximum"].as_u64(),
            Some(u64::MAX),
            "exact, not a rounded float: {schema}"
        );
    }
}
