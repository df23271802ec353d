//! Where a search stands, as its `searches` row records it.

use serde::{Deserialize, Serialize};

/// A search's state: `queued` until a worker takes it, `running` while one has it, then
/// one of the three ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "SearchStatus", rename_all = "snake_case")
)]
pub enum SearchStatus {
    /// Waiting for a worker.
    Queued,
    /// A worker runs it (or ran it and died: a retry resumes it).
    Running,
    /// Finished; its leads were delivered.
    Complete,
    /// Ended with an error the client was told.
    Failed,
    /// Its client went away, or the server stopped it.
    Cancelled,
}

impl SearchStatus {
    /// Every status.
    pub const ALL: [Self; 5] = [
        Self::Queued,
        Self::Running,
        Self::Complete,
        Self::Failed,
        Self::Cancelled,
    ];

    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Complete => "complete",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    /// Whether the search is over.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Complete | Self::Failed | Self::Cancelled)
    }
}

impl std::fmt::Display for SearchStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SearchStatus {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| format!("unknown search status '{text}'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_text_round_trips_and_matches_serde() {
        for status in SearchStatus::ALL {
            assert_eq!(status.as_str().parse::<SearchStatus>(), Ok(status));
            assert_eq!(
                serde_json::to_string(&status).expect("json"),
                format!("\"{}\"", status.as_str())
            );
        }
        assert!("done".parse::<SearchStatus>().is_err());
        assert!(!SearchStatus::Running.is_final() && SearchStatus::Cancelled.is_final());
    }
}
