//! A search's Text Search request, and which of the places it returns become leads.

use super::{
    leads::{lead_from_place, postal_code_of},
    paging::PAGE_SIZE,
    query::ValidSearch,
    tiling::LatLng,
};
use crate::{lead::Lead, places::SearchTextRequest};

/// A probe or fetch request of `search` before its rectangle is set: the business's label
/// alone (the rectangle says where), its type and Google's `minRating`.
pub(crate) fn base_request(search: &ValidSearch) -> SearchTextRequest {
    let mut request = first_request(search);
    request.text_query = search.business().label.to_owned();
    request.location_restriction = None;
    request
}

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

/// Whether a place lies in the search's area, as far as Google's rectangle does not say
/// so already (a circle, a polygon), or, for a location that is a postal code, carries
/// that code in its address (the code's viewport reaches into its neighbours). A place
/// whose position or address is needed but missing is not known to lie in it, so it does
/// not.
pub(crate) fn in_area(search: &ValidSearch, place: &crate::places::Place) -> bool {
    let inside = match search.area().filter(|a| a.needs_location()) {
        None => true,
        Some(area) => place.location.is_some_and(|at| {
            area.contains(LatLng {
                lat: at.latitude,
                lng: at.longitude,
            })
        }),
    };
    inside
        && search
            .postal_code()
            .is_none_or(|code| code.holds(postal_code_of(place)))
}

/// The lead of a place if it lies in the search's area (see [`in_area`]) and passes the
/// search's filters.
pub(crate) fn accepted_lead(search: &ValidSearch, place: crate::places::Place) -> Option<Lead> {
    if !in_area(search, &place) {
        return None;
    }
    lead_from_place(place).filter(|lead| search.filters().accepts(lead))
}
