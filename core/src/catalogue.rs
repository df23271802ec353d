//! The business-type catalogue of the product spec (section 3): 13 groups of Google
//! place types, each with the label users see and the text searches use.
//!
//! Some values are older, broad types that Places API (New) accepts only in responses
//! (Google's "Table B"): `food`, `health`, `finance`, `general_contractor`. They cannot
//! be sent as `includedType`, so those are searched by text alone (see
//! docs/decisions.md).

use serde::Serialize;

use crate::place_types;

/// One choosable business type; declared with Google's types (every Table A type is one).
pub use crate::place_types::BusinessType;

/// A group of types, as the search form shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BusinessGroup {
    /// Group heading, e.g. "Food & Dining".
    pub label: &'static str,
    /// Types in display order.
    pub types: &'static [BusinessType],
}

macro_rules! types {
    ($($value:literal => $label:literal),* $(,)?) => {
        &[$(BusinessType { value: $value, label: $label }),*]
    };
}

/// The catalogue, in the spec's order.
pub const GROUPS: &[BusinessGroup] = &[
    BusinessGroup {
        label: "Food & Dining",
        types: types!["restaurant" => "Restaurant", "meal_takeaway" => "Meal Takeaway", "meal_delivery" => "Meal Delivery",
            "cafe" => "Cafe", "bakery" => "Bakery", "bar" => "Bar", "night_club" => "Night Club", "food" => "Food"],
    },
    BusinessGroup {
        label: "Health & Medical",
        types: types!["doctor" => "Doctor", "dentist" => "Dentist", "hospital" => "Hospital", "pharmacy" => "Pharmacy",
            "physiotherapist" => "Physiotherapist", "veterinary_care" => "Veterinary Care", "health" => "Health"],
    },
    BusinessGroup {
        label: "Professional Services",
        types: types!["lawyer" => "Lawyer", "accounting" => "Accounting", "real_estate_agency" => "Real Estate Agency",
            "insurance_agency" => "Insurance Agency", "finance" => "Finance", "travel_agency" => "Travel Agency"],
    },
    BusinessGroup {
        label: "Beauty & Wellness",
        types: types!["beauty_salon" => "Beauty Salon", "hair_care" => "Hair Care", "spa" => "Spa", "gym" => "Gym"],
    },
    BusinessGroup {
        label: "Automotive",
        types: types!["car_dealer" => "Car Dealer", "car_rental" => "Car Rental", "car_repair" => "Car Repair",
            "car_wash" => "Car Wash", "gas_station" => "Gas Station"],
    },
    BusinessGroup {
        label: "Shopping & Retail",
        types: types!["clothing_store" => "Clothing Store", "shoe_store" => "Shoe Store", "jewelry_store" => "Jewelry Store",
            "electronics_store" => "Electronics Store", "furniture_store" => "Furniture Store",
            "home_goods_store" => "Home Goods Store", "supermarket" => "Supermarket",
            "convenience_store" => "Convenience Store", "store" => "Store"],
    },
    BusinessGroup {
        label: "Home & Garden",
        types: types!["plumber" => "Plumber", "electrician" => "Electrician", "painter" => "Painter",
            "roofing_contractor" => "Roofing Contractor", "general_contractor" => "General Contractor",
            "locksmith" => "Locksmith", "moving_company" => "Moving Company"],
    },
    BusinessGroup {
        label: "Education",
        types: types!["school" => "School", "university" => "University", "primary_school" => "Primary School",
            "secondary_school" => "Secondary School"],
    },
    BusinessGroup {
        label: "Entertainment",
        types: types!["movie_theater" => "Movie Theater", "amusement_park" => "Amusement Park",
            "bowling_alley" => "Bowling Alley", "casino" => "Casino"],
    },
    BusinessGroup {
        label: "Lodging & Hospitality",
        types: types!["lodging" => "Lodging", "tourist_attraction" => "Tourist Attraction", "rv_park" => "RV Park",
            "campground" => "Campground"],
    },
    BusinessGroup {
        label: "Transportation",
        types: types!["taxi_stand" => "Taxi Stand", "transit_station" => "Transit Station", "airport" => "Airport",
            "bus_station" => "Bus Station", "train_station" => "Train Station"],
    },
    BusinessGroup {
        label: "Technology & IT",
        types: types!["electronics_store" => "Electronics Store", "computer_phone_repair" => "Computer/Phone Repair"],
    },
    BusinessGroup {
        label: "Personal Care",
        types: types!["laundry" => "Laundry", "florist" => "Florist", "pet_store" => "Pet Store",
            "funeral_home" => "Funeral Home"],
    },
];

/// Catalogue values that Places API (New) does not accept as `includedType` (Table B).
/// `computer_phone_repair` is our own value: the spec gave "Computer/Phone Repair" the
/// value `store`, which Shopping's "Store" already has, so choosing it searched for stores
/// (see docs/decisions.md); Google has no such type, so it is searched by its label.
const TEXT_ONLY: &[&str] = &[
    "food",
    "health",
    "finance",
    "general_contractor",
    "computer_phone_repair",
];

/// The message for a value neither in the catalogue nor in Google's Table A.
pub fn unknown_type_message(value: &str) -> String {
    format!("Business type '{value}' is not a Google place type. Choose one listed by GET /api/leads/business-types.")
}

/// The type for `value`: a catalogue entry (a value listed in two groups, like
/// `electronics_store`, has the same label in both), else any type of Google's Table A
/// with a label made from it (issue #26 item 9).
pub fn find(value: &str) -> Option<BusinessType> {
    GROUPS
        .iter()
        .flat_map(|g| g.types.iter())
        .find(|t| t.value == value)
        .copied()
        .or_else(|| place_types::find(value))
}

impl BusinessType {
    /// Whether Google accepts this value as `includedType`.
    pub fn is_included_type(&self) -> bool {
        !TEXT_ONLY.contains(&self.value)
    }

    /// The Text Search query: "{label} in {location}".
    pub fn text_query(&self, location: &str) -> String {
        format!("{} in {}", self.label, location)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_the_specs_thirteen_groups_and_values() {
        assert_eq!(GROUPS.len(), 13);
        let values: Vec<&str> = GROUPS.iter().flat_map(|g| g.types.iter().map(|t| t.value)).collect();
        assert_eq!(values.len(), 69);
        for v in [
            "restaurant",
            "veterinary_care",
            "real_estate_agency",
            "roofing_contractor",
            "funeral_home",
        ] {
            assert!(find(v).is_some(), "{v}");
        }
        assert!(find("spaceship").is_none());
    }

    #[test]
    fn takes_any_google_table_a_type_and_sends_it_as_included_type() {
        let indian = find("indian_restaurant").expect("Table A");
        assert_eq!(indian.label, "Indian Restaurant");
        assert!(indian.is_included_type());
        assert_eq!(indian.text_query("Leeds"), "Indian Restaurant in Leeds");
        // A catalogue value keeps the catalogue's label.
        assert_eq!(find("rv_park").map(|t| t.label), Some("RV Park"));
        assert_eq!(
            unknown_type_message("spaceport"),
            "Business type 'spaceport' is not a Google place type. Choose one listed by GET /api/leads/business-types."
        );
    }

    #[test]
    fn every_value_has_one_label_and_table_b_is_text_only() {
        assert_eq!(find("store").map(|t| t.label), Some("Store"));
        let repair = find("computer_phone_repair").expect("its own value");
        assert_eq!(repair.label, "Computer/Phone Repair");
        assert!(!repair.is_included_type(), "no Google type: searched by text");
        let mut labels = std::collections::HashMap::new();
        for t in GROUPS.iter().flat_map(|g| g.types.iter()) {
            let first = labels.entry(t.value).or_insert(t.label);
            assert_eq!(
                *first, t.label,
                "{} has two labels, so one of them cannot be chosen",
                t.value
            );
        }
        let food = find("food").expect("food");
        assert!(!food.is_included_type());
        assert!(find("restaurant").expect("restaurant").is_included_type());
        assert_eq!(food.text_query("Austin, TX"), "Food in Austin, TX");
    }
}
