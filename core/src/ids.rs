//! Identifiers as types: a user's id cannot be passed where a search's is expected. Both
//! are UUID text, stored and sent as plain strings (serde and sqlx see the string).

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, sqlx::Type)]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(String);

        impl $name {
            /// A fresh random id (UUID v4 text).
            pub fn random() -> Self {
                Self(uuid::Uuid::new_v4().to_string())
            }

            /// The text form.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl $name {
            /// The id `text` names, if it is one: UUID text as this server writes ids
            /// (hyphenated; upper case is read as lower). What a path, query or body
            /// carries is parsed through this, so a malformed id is refused at the edge.
            pub fn parse(text: &str) -> Option<Self> {
                let trimmed = text.trim();
                (trimmed.len() == 36 && uuid::Uuid::try_parse(trimmed).is_ok()).then(|| Self(trimmed.to_ascii_lowercase()))
            }
        }

        #[cfg(feature = "openapi")]
        impl poem_openapi::types::Type for $name {
            const IS_REQUIRED: bool = true;
            type RawValueType = Self;
            type RawElementValueType = Self;

            fn name() -> std::borrow::Cow<'static, str> {
                "string_uuid".into()
            }

            fn schema_ref() -> poem_openapi::registry::MetaSchemaRef {
                poem_openapi::registry::MetaSchemaRef::Inline(Box::new(
                    poem_openapi::registry::MetaSchema::new_with_format("string", "uuid"),
                ))
            }

            fn as_raw_value(&self) -> Option<&Self::RawValueType> {
                Some(self)
            }

            fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
                Box::new(self.as_raw_value().into_iter())
            }
        }

        #[cfg(feature = "openapi")]
        impl poem_openapi::types::ParseFromParameter for $name {
            fn parse_from_parameter(value: &str) -> poem_openapi::types::ParseResult<Self> {
                Self::parse(value).ok_or_else(|| poem_openapi::types::ParseError::custom("not a uuid"))
            }
        }

        #[cfg(feature = "openapi")]
        impl poem_openapi::types::ParseFromJSON for $name {
            fn parse_from_json(value: Option<serde_json::Value>) -> poem_openapi::types::ParseResult<Self> {
                match value.unwrap_or_default() {
                    serde_json::Value::String(text) => {
                        Self::parse(&text).ok_or_else(|| poem_openapi::types::ParseError::custom("not a uuid"))
                    }
                    other => Err(poem_openapi::types::ParseError::expected_type(other)),
                }
            }
        }

        #[cfg(feature = "openapi")]
        impl poem_openapi::types::ToJSON for $name {
            fn to_json(&self) -> Option<serde_json::Value> {
                Some(serde_json::Value::String(self.0.clone()))
            }
        }
    };
}

id_type!(
    /// A user's id (our own, never the identity provider's subject).
    UserId
);

id_type!(
    /// A search's id: its record, its event channel, its job.
    SearchId
);

id_type!(
    /// A personal API token's id (not the token: its record).
    TokenId
);

id_type!(
    /// A webhook endpoint's id.
    EndpointId
);

id_type!(
    /// A saved search's id.
    SavedSearchId
);

id_type!(
    /// A workspace's id: the tenant every search, key, plan, token and webhook belongs to.
    /// A personal workspace's id equals its user's id (see [`WorkspaceId::personal`]).
    WorkspaceId
);

impl WorkspaceId {
    /// The id of `user`'s personal workspace: the user's own id. One rule, so the
    /// migration's backfill is `workspace_id = user_id` in both stores, and a row an older
    /// release writes with no workspace belongs to its user's personal workspace
    /// (docs/decisions.md, "Workspaces").
    pub fn personal(user: &UserId) -> Self {
        Self(user.as_str().to_owned())
    }
}

impl SearchId {
    /// A fresh id that sorts after every id made before it (UUID v7: milliseconds, then
    /// random), so the history's order is the order searches were asked in, even within
    /// one second.
    pub fn time_ordered() -> Self {
        Self(uuid::Uuid::now_v7().to_string())
    }

    /// When a [`SearchId::time_ordered`] id was made, in milliseconds since the Unix epoch;
    /// `None` for ids of another shape (tests' made-up ids).
    pub fn created_at_ms(&self) -> Option<u64> {
        let id = uuid::Uuid::parse_str(&self.0).ok()?;
        if id.get_version_num() != 7 {
            return None;
        }
        let (secs, nanos) = id.get_timestamp()?.to_unix();
        Some(secs * 1_000 + u64::from(nanos / 1_000_000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_travel_as_plain_strings() {
        let user = UserId::from("u-1");
        assert_eq!(serde_json::to_string(&user).expect("json"), "\"u-1\"");
        assert_eq!(serde_json::from_str::<UserId>("\"u-1\"").expect("read"), user);
        assert_eq!(user.to_string(), "u-1");
        let earlier = SearchId::time_ordered();
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(
            SearchId::time_ordered().as_str() > earlier.as_str(),
            "later ids sort after"
        );
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis() as u64;
        let made = earlier.created_at_ms().expect("a v7 id has a time");
        assert!(made <= now_ms && now_ms - made < 5_000, "{made} vs {now_ms}");
        assert_eq!(SearchId::random().created_at_ms(), None, "v4 ids carry no time");
        assert_eq!(SearchId::from("s1").created_at_ms(), None);
        let (a, b) = (SearchId::random(), SearchId::random());
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 36, "UUID text");
    }

    #[test]
    fn an_id_parses_from_uuid_text_only() {
        let id = SearchId::time_ordered();
        assert_eq!(SearchId::parse(id.as_str()), Some(id.clone()));
        assert_eq!(
            SearchId::parse(&id.as_str().to_uppercase()),
            Some(id),
            "read as lower case"
        );
        for bad in [
            "",
            "s-1",
            "nope",
            "0192d5c18b1c7d2e9a3b4c5d6e7f8091",
            "0192d5c1-8b1c-7d2e-9a3b-4c5d6e7f809g",
            "../etc/passwd",
        ] {
            assert_eq!(TokenId::parse(bad), None, "{bad:?}");
        }
    }
}
