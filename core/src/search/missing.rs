//! Places Google counts but a full search's pages did not list (#30 item 3). Text Search
//! ranks what it lists, and a place it never ranks into a rectangle's 60 is out of reach
//! of any tiling; the Places Aggregate API lists the ids of an area's places when there
//! are at most 100 (`INSIGHT_PLACES`). So, at the end of a full search whose area the
//! meter counted at 100 or fewer, one more Aggregate call asks for those ids and the ones
//! the search did not fetch are fetched by Place Details, through the same filters,
//! allowance and budget (`LEADGEN_COMPLETENESS_FETCH_MISSING` turns this off).
//!
//! At the end, not alongside: only then is it known which ids the pages missed, and the
//! ids call is skipped when the search already knows as many of the area's places as
//! Google counts.

use super::{completeness, meter::Completeness, query::ValidSearch};
use crate::places::{AggregateArea, AggregateClient, PlacesError};

/// The most places Google's `INSIGHT_PLACES` lists; a larger count is not asked.
pub const MAX_PLACE_IDS: u32 = 100;

/// Whether to ask Google for the ids of the area's places: it counted some, at most
/// [`MAX_PLACE_IDS`], and the search knows of fewer in the area (`known`: places it
/// fetched inside the area, or left out).
pub(crate) fn worth_asking(expected: Option<Completeness>, known: usize) -> bool {
    expected.is_some_and(|c| c.expected > 0 && c.expected <= MAX_PLACE_IDS && (known as u64) < u64::from(c.expected))
}

/// The ids of the places Google counts for `search` in `area` (one billed call); empty
/// for a type that is not Google's.
pub(crate) async fn listed(
    meter: &AggregateClient,
    api_key: &str,
    search: &ValidSearch,
    area: &AggregateArea,
) -> Result<Vec<String>, PlacesError> {
    match completeness::query(search, area.clone()) {
        Some(query) => meter.place_ids(api_key, &query).await,
        None => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::meter::CompletenessSource;

    #[test]
    fn asks_only_for_a_small_count_the_search_falls_short_of() {
        let count = |expected| {
            Some(Completeness {
                expected,
                source: CompletenessSource::GoogleAggregate,
            })
        };
        assert!(worth_asking(count(40), 39), "one short");
        assert!(!worth_asking(count(40), 40), "all known");
        assert!(!worth_asking(count(101), 0), "Google lists at most 100");
        assert!(worth_asking(count(100), 0));
        assert!(!worth_asking(count(0), 0), "nothing counted");
        assert!(!worth_asking(None, 0), "no count");
    }
}
