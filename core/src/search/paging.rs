//! Google's paging of Text Search: what one query can return, and so one search.

/// Google serves at most 3 pages of 20 per query.
pub const MAX_PAGES: usize = 3;
/// Results per page (Google's maximum).
pub const PAGE_SIZE: u32 = 20;
/// Most leads one search can produce.
pub const MAX_LEADS: u32 = MAX_PAGES as u32 * PAGE_SIZE;
