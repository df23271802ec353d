//! "The cheaper of" (#29 item 2): with an `exclude`, the free IDs-only probes say which
//! of a rectangle's places are new before anything is paid for. A rectangle holding
//! nothing new is not fetched at all; one holding only a few new places is fetched the
//! cheaper way: its pages with the lead mask (Text Search Enterprise, one request for
//! up to 20 places), or those places one by one with the same fields (Place Details
//! Enterprise, one request a place). At list prices ($35 and $20 per 1,000) details win
//! for 1 new place of a one-page rectangle, up to 3 of two pages and up to 5 of three.
//! The search and its estimate both choose here, so the forecast is the search's.

use super::cost::{PriceTable, Sku};

/// How to fetch one planned rectangle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TileFetch {
    /// Nothing in it is wanted: done without a request.
    Skip,
    /// These places by id (Place Details), one request each.
    Details(Vec<String>),
    /// Its pages with the lead mask: this many requests.
    Pages(u32),
}

impl TileFetch {
    /// The cheaper way to fetch a rectangle whose probe listed `ids` and whose pages take
    /// `pages` requests, when only the ids `wanted` accepts are wanted (the others are
    /// left out, or were fetched already). A probe that listed nothing gives nothing to
    /// choose by: its pages are fetched, as without an `exclude`.
    pub(crate) fn choose<'a>(
        ids: impl IntoIterator<Item = &'a String>,
        pages: u32,
        wanted: impl Fn(&str) -> bool,
        prices: &PriceTable,
    ) -> Self {
        let mut listed = false;
        let mut new: Vec<String> = Vec::new();
        for id in ids {
            listed = true;
            if wanted(id) {
                new.push(id.clone());
            }
        }
        if !listed {
            return Self::Pages(pages);
        }
        new.sort_unstable();
        new.dedup();
        if new.is_empty() {
            return Self::Skip;
        }
        let by_id = new.len() as f64 * prices.per_request(Sku::Details);
        let by_pages = f64::from(pages) * prices.per_request(Sku::Enterprise);
        // Equal costs go to the pages: one request for the lot, not several.
        if by_id < by_pages {
            Self::Details(new)
        } else {
            Self::Pages(pages)
        }
    }

    /// The requests it makes, by SKU: `(Enterprise pages, Place Details calls)`.
    pub(crate) fn requests(&self) -> (u32, u32) {
        match self {
            Self::Skip => (0, 0),
            Self::Details(ids) => (0, ids.len() as u32),
            Self::Pages(pages) => (*pages, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("P{i}")).collect()
    }

    #[test]
    fn details_win_only_while_fewer_places_cost_less_than_the_pages() {
        let prices = PriceTable::default();
        let known = |id: &str| id != "P0" && id != "P1" && id != "P2";
        // 3 new of 40 (two pages): 3 x $0.020 < 2 x $0.035.
        assert_eq!(
            TileFetch::choose(&ids(40), 2, |id| !known(id), &prices),
            TileFetch::Details(vec!["P0".into(), "P1".into(), "P2".into()])
        );
        // The same 3 new of 15 (one page): $0.060 > $0.035.
        assert_eq!(
            TileFetch::choose(&ids(15), 1, |id| !known(id), &prices),
            TileFetch::Pages(1)
        );
        // One new of a page: $0.020 < $0.035.
        assert_eq!(
            TileFetch::choose(&ids(15), 1, |id| id == "P7", &prices),
            TileFetch::Details(vec!["P7".into()])
        );
        // Nothing new: no request at all.
        assert_eq!(TileFetch::choose(&ids(15), 1, |_| false, &prices), TileFetch::Skip);
        // An empty probe: its page, as ever.
        assert_eq!(TileFetch::choose(&ids(0), 1, |_| true, &prices), TileFetch::Pages(1));
        // Prices are settings: details dearer than a page never win.
        let dear = PriceTable {
            details: 40.0,
            ..prices
        };
        assert_eq!(
            TileFetch::choose(&ids(15), 1, |id| id == "P7", &dear),
            TileFetch::Pages(1)
        );
        // A tie goes to the pages (5 x $0.020 = $0.100 < 3 x $0.035 = $0.105; 6 do not).
        let five = |id: &str| ["P0", "P1", "P2", "P3", "P4"].contains(&id);
        assert!(matches!(TileFetch::choose(&ids(45), 3, five, &prices), TileFetch::Details(v) if v.len() == 5));
        let tie = PriceTable {
            details: 21.0,
            ..prices
        };
        assert_eq!(TileFetch::choose(&ids(45), 3, five, &tie), TileFetch::Pages(3));
        assert_eq!(TileFetch::Details(ids(2)).requests(), (0, 2));
        assert_eq!(TileFetch::Pages(3).requests(), (3, 0));
    }
}
