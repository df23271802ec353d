//! A search's Text Search request, and which of the places it returns become leads.

use super::{leads::lead_from_place, paging::PAGE_SIZE, query::ValidSearch, tiling::LatLng};
use crate::{lead::Lead, places::SearchTextRequest};

/// The Text Search request of a search's first page: "{label} in {location}", or the
/// label alone restricted to an explicit area's bounds.
pub fn first_request(search: &ValidSearch) -> SearchTextRequest {
    let business = search.business();
    let (text_query, location_restriction) = match search.area() {
        Some(area) => (business.label.to_owned(), Some(area.bounds().into())),
        None => (business.text_query(search.location()), None),
    };
    SearchTextRequest {
        text_query,
        included_type: business.is_included_type().then(|| business.value.to_owned()),
        page_size: PAGE_SIZE,
        page_token: None,
        location_restriction,
        min_rating: search.filters().google_min_rating(),
    }
}

/// The lead field mask, with the place's location when the area must be checked (a
/// circle). Location is a Pro field, so the Enterprise price does not change.
pub(crate) fn lead_mask(search: &ValidSearch) -> String {
    match search.area() {
        Some(area) if area.needs_location() => format!("{},places.location", crate::places::LEAD_FIELD_MASK),
        _ => crate::places::LEAD_FIELD_MASK.to_owned(),
    }
}

/// The lead of a place if it passes the search's filters and lies in its area.
pub(crate) fn accepted_lead(search: &ValidSearch, place: crate::places::Place) -> Option<Lead> {
    if let (Some(area), Some(at)) = (search.area(), place.location)
        && area.needs_location()
        && !area.contains(LatLng {
            lat: at.latitude,
            lng: at.longitude,
        })
    {
        return None;
    }
    lead_from_place(place).filter(|lead| search.filters().accepts(lead))
}
