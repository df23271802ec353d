//! [`Text`]: a request string that is a JSON string.
//!
//! poem-openapi reads a `String` field from a JSON number or boolean too (`false` becomes
//! `"false"`), while the document says `type: string`: a client's mistake would be stored
//! as a name, or searched for as a place. Request bodies use `Text` for their string
//! fields; it has the same schema and refuses anything but a string.

use std::borrow::Cow;

use poem_openapi::{
    registry::MetaSchemaRef,
    types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type},
};
use serde_json::Value;

/// A string field of a request body (also written back in answers, as a string).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text(pub String);

impl Text {
    /// The string, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl Type for Text {
    const IS_REQUIRED: bool = true;
    type RawValueType = String;
    type RawElementValueType = String;

    fn name() -> Cow<'static, str> {
        String::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        String::schema_ref()
    }

    fn as_raw_value(&self) -> Option<&String> {
        Some(&self.0)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a String> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl ParseFromJSON for Text {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(text) => Ok(Self(text)),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ToJSON for Text {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_json_string_is_text() {
        assert_eq!(
            Text::parse_from_json(Some(Value::from("Bean There"))).ok(),
            Some(Text::from("Bean There"))
        );
        for not_text in [
            Value::from(false),
            Value::from(12),
            Value::Null,
            serde_json::json!(["a"]),
        ] {
            assert!(
                Text::parse_from_json(Some(not_text.clone())).is_err(),
                "{not_text} was read as text"
            );
        }
        assert!(
            String::parse_from_json(Some(Value::from(false))).is_ok(),
            "poem-openapi's String still reads booleans: if this fails, Text may no longer be needed"
        );
    }

    #[test]
    fn it_is_documented_as_a_string() {
        assert_eq!(Text::name(), String::name());
    }
}
