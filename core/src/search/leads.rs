//! From Google's place to our lead.

use crate::{
    lead::Lead,
    places::{AddressComponent, Place},
};

/// The lead for a place; `None` for a place without id or name (nothing to contact).
pub fn lead_from_place(place: Place) -> Option<Lead> {
    let name = place.display_name.map(|n| n.text).unwrap_or_default();
    if place.id.is_empty() || name.trim().is_empty() {
        return None;
    }
    let parts = place.address_components.unwrap_or_default();
    let part = |kind: &str, short: bool| {
        address_part(&parts, kind).map(|c| {
            if short {
                c.short_text.clone()
            } else {
                c.long_text.clone()
            }
        })
    };
    let street = match (part("street_number", false), part("route", false)) {
        (Some(number), Some(route)) => format!("{number} {route}"),
        (None, Some(route)) => route,
        _ => String::new(),
    };
    // A city is a locality; where Google has none (some suburbs), the postal town.
    let city = part("locality", false)
        .or_else(|| part("postal_town", false))
        .unwrap_or_default();
    Some(Lead {
        name,
        address: place.formatted_address.unwrap_or_default(),
        phone: place.national_phone_number.unwrap_or_default(),
        website: place.website_uri.unwrap_or_default(),
        place_id: place.id,
        rating: place.rating,
        review_count: place.user_rating_count,
        street,
        city,
        state: part("administrative_area_level_1", true).unwrap_or_default(),
        postal_code: part("postal_code", false).unwrap_or_default(),
        category: place.primary_type_display_name.map(|t| t.text).unwrap_or_default(),
        maps_url: place.google_maps_uri.unwrap_or_default(),
        latitude: place.location.map(|at| at.latitude),
        longitude: place.location.map(|at| at.longitude),
        contacts: None,
    })
}

/// The postal code in a place's address, as its lead carries it ("" when it has none).
pub(crate) fn postal_code_of(place: &Place) -> &str {
    let parts = place.address_components.as_deref().unwrap_or_default();
    address_part(parts, "postal_code").map_or("", |c| c.long_text.as_str())
}

/// The first part of an address of `kind` (`locality`, `postal_code`...).
fn address_part<'a>(parts: &'a [AddressComponent], kind: &str) -> Option<&'a AddressComponent> {
    parts.iter().find(|c| c.types.iter().any(|t| t == kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places::SearchTextResponse;

    #[test]
    fn the_address_in_parts_the_category_and_the_maps_link() {
        let body = r#"{"places":[{"id":"ChIJa","displayName":{"text":"Oak Dental"},
            "formattedAddress":"1204 Oak St, Austin, TX 78704, USA",
            "addressComponents":[
              {"longText":"1204","shortText":"1204","types":["street_number"],"languageCode":"en"},
              {"longText":"Oak Street","shortText":"Oak St","types":["route"],"languageCode":"en"},
              {"longText":"Austin","shortText":"Austin","types":["locality","political"],"languageCode":"en"},
              {"longText":"Travis County","shortText":"Travis County","types":["administrative_area_level_2","political"]},
              {"longText":"Texas","shortText":"TX","types":["administrative_area_level_1","political"],"languageCode":"en"},
              {"longText":"United States","shortText":"US","types":["country","political"],"languageCode":"en"},
              {"longText":"78704","shortText":"78704","types":["postal_code"],"languageCode":"en"}],
            "primaryTypeDisplayName":{"text":"Dentist","languageCode":"en"},
            "googleMapsUri":"https://maps.google.com/?cid=123"}]}"#;
        let page: SearchTextResponse = serde_json::from_str(body).expect("parse");
        let lead = page.places.into_iter().find_map(lead_from_place).expect("a lead");
        assert_eq!(
            (
                lead.street.as_str(),
                lead.city.as_str(),
                lead.state.as_str(),
                lead.postal_code.as_str(),
                lead.category.as_str(),
                lead.maps_url.as_str()
            ),
            (
                "1204 Oak Street",
                "Austin",
                "TX",
                "78704",
                "Dentist",
                "https://maps.google.com/?cid=123"
            )
        );
    }

    #[test]
    fn the_position_comes_from_googles_location_and_is_left_out_when_absent() {
        let body = r#"{"places":[
            {"id":"ChIJa","displayName":{"text":"Oak Dental"},"location":{"latitude":30.2672,"longitude":-97.7431}},
            {"id":"ChIJb","displayName":{"text":"No Pin"}}]}"#;
        let page: SearchTextResponse = serde_json::from_str(body).expect("parse");
        let leads: Vec<Lead> = page.places.into_iter().filter_map(lead_from_place).collect();
        assert_eq!((leads[0].latitude, leads[0].longitude), (Some(30.2672), Some(-97.7431)));
        let json = serde_json::to_value(&leads[0]).expect("json");
        assert_eq!(
            (&json["latitude"], &json["longitude"]),
            (&30.2672.into(), &(-97.7431).into())
        );
        assert_eq!((leads[1].latitude, leads[1].longitude), (None, None));
        let json = serde_json::to_value(&leads[1]).expect("json");
        assert!(
            json.get("latitude").is_none() && json.get("longitude").is_none(),
            "no position: the old shape"
        );
        // A lead stored before positions (a replay, a checkpoint) still reads.
        let old: Lead = serde_json::from_str(
            r#"{"name":"Old","address":"","phone":"","website":"","placeId":"ChIJc","rating":null,"reviewCount":null}"#,
        )
        .expect("an old lead");
        assert_eq!(old.latitude, None);
    }

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
            (
                leads[1].street.as_str(),
                leads[1].city.as_str(),
                leads[1].category.as_str()
            ),
            ("", "", ""),
            "no components: empty parts"
        );
        assert_eq!(
            (leads[1].phone.as_str(), leads[1].website.as_str(), leads[1].rating),
            ("", "", None)
        );
        let empty: SearchTextResponse = serde_json::from_str("{}").expect("google answers {} for no results");
        assert!(empty.places.is_empty() && empty.next_page_token.is_none());
    }
}
