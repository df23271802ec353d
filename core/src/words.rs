//! The words of status-like enums (`queued`, `max_cost`, `sheets`), declared once by each
//! enum's serde `rename_all`: the API sends, and the store keeps, the same word.

use serde::de::{DeserializeOwned, IntoDeserializer, value::Error};

/// The value `word` names, if it names one.
pub fn parse<T: DeserializeOwned>(word: &str) -> Option<T> {
    T::deserialize(IntoDeserializer::<Error>::into_deserializer(word)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Coverage, SearchStatus, StopReason};

    #[test]
    fn a_word_names_its_value_and_nothing_else_does() {
        assert_eq!(parse("max_cost"), Some(StopReason::MaxCost));
        assert_eq!(parse("cancelled"), Some(SearchStatus::Cancelled));
        assert_eq!(parse("full"), Some(Coverage::Full));
        assert_eq!(parse::<StopReason>("MaxCost"), None, "the wire word only");
        assert_eq!(parse::<SearchStatus>(""), None);
        for status in SearchStatus::ALL {
            assert_eq!(parse(status.as_str()), Some(status), "serde and the stored text agree");
        }
    }
}
