//! From Google's place to our lead.

use crate::{lead::Lead, places::Place};

/// The lead for a place; `None` for a place without id or name (nothing to contact).
pub fn lead_from_place(place: Place) -> Option<Lead> {
    let name = place.display_name.map(|n| n.text).unwrap_or_default();
    if place.id.is_empty() || name.trim().is_empty() {
        return None;
    }
    Some(Lead {
        name,
        address: place.formatted_address.unwrap_or_default(),
        phone: place.national_phone_number.unwrap_or_default(),
        website: place.website_uri.unwrap_or_default(),
        place_id: place.id,
        rating: place.rating,
        review_count: place.user_rating_count,
        contacts: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places::SearchTextResponse;

    #[test]
    fn maps_googles_fields_and_empty_values() {
        let body = r#"{"places":[
            {"id":"ChIJa","displayName":{"text":"Blue Cup","languageCode":"en"},"formattedAddress":"1 Main St",
             "nationalPhoneNumber":"(512) 555-0100","websiteUri":"https://bluecup.example","rating":4.6,"userRatingCount":87},
            {"id":"ChIJb","displayName":{"text":"No Frills"},"formattedAddress":"2 Main St"},
            {"id":"","displayName":{"text":"Ghost"}}
        ],"nextPageToken":"tok"}"#;
        let page: SearchTextResponse = serde_json::from_str(body).expect("parse");
        assert_eq!(page.next_page_token.as_deref(), Some("tok"));
        let leads: Vec<Lead> = page.places.into_iter().filter_map(lead_from_place).collect();
        assert_eq!(leads.len(), 2, "a place without id is dropped");
        assert_eq!(leads[0].phone, "(512) 555-0100");
        assert_eq!(leads[0].review_count, Some(87));
        assert_eq!(
            (leads[1].phone.as_str(), leads[1].website.as_str(), leads[1].rating),
            ("", "", None)
        );
        let empty: SearchTextResponse = serde_json::from_str("{}").expect("google answers {} for no results");
        assert!(empty.places.is_empty() && empty.next_page_token.is_none());
    }
}
