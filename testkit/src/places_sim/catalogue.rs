//! The business types the simulated world holds: every value of the product's catalogue
//! (spec section 3), with what the generator needs (name style, density) and what text
//! matching needs (label and common synonyms).
//!
//! This is the simulator's own copy, on purpose: the testkit stands in for Google and must
//! not share code with the client it checks.

use super::place_types::is_table_a;

/// How names of this kind of business are built (see `names.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Restaurants, cafes, bars: "The Golden Fox", "Miller's Kitchen".
    Eatery,
    /// Shops and salons: "Cedar Lane Boutique", "Hyde Park Florist".
    Shop,
    /// Offices: "Garcia & Patel Law Group", "Nguyen Family Dentistry".
    Professional,
    /// Trades and car services: "Walsh & Sons Plumbing", "Austin Auto Repair".
    Trade,
    /// Institutions and places: "Zilker Elementary School", "Austin Regional Airport".
    Venue,
}

/// How many businesses of a type a city holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Density {
    /// 60..=120: enough to fill three pages in every city.
    Dense,
    /// 40..=100.
    Common,
    /// 25..=80.
    Normal,
    /// 25..=45.
    Rare,
}

impl Density {
    pub(crate) fn range(self) -> (u64, u64) {
        match self {
            Self::Dense => (60, 120),
            Self::Common => (40, 100),
            Self::Normal => (25, 80),
            Self::Rare => (25, 45),
        }
    }
}

/// One business type of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BusinessType {
    /// The product's catalogue value, e.g. `restaurant`; usually a Google place type.
    pub value: &'static str,
    /// The `primaryType` Google gives its businesses: the value itself, except for
    /// catalogue values that are not Google types (`computer_phone_repair` businesses are
    /// `electronics_store`s to Google).
    pub primary: &'static str,
    /// The product's label, e.g. "Restaurant".
    pub label: &'static str,
    /// Broader types Google also lists in `types` (e.g. `food` for a restaurant).
    pub(crate) parents: &'static [&'static str],
    /// Other phrases a text query may use for this type.
    pub(crate) synonyms: &'static [&'static str],
    pub(crate) style: Style,
    /// Business-name endings, e.g. "Kitchen", "Law Group".
    pub(crate) kinds: &'static [&'static str],
    pub(crate) density: Density,
}

impl BusinessType {
    /// Whether Google accepts the value as `includedType` (Table A).
    pub fn is_included_type(&self) -> bool {
        is_table_a(self.value)
    }

    /// The `types` array of a business of this type, as Google lists them.
    pub fn place_types(&self) -> Vec<&'static str> {
        let mut types = vec![self.primary];
        types.extend(self.parents.iter().copied());
        types.extend(["point_of_interest", "establishment"]);
        types
    }
}

/// The first of its literals: an entry's `as "google_type"` when it has one, else its value.
macro_rules! first_of {
    ($first:literal $(, $rest:literal)*) => {
        $first
    };
}

macro_rules! types {
    ($($value:literal $(as $primary:literal)? $label:literal $style:ident $density:ident [$($parent:literal),*] [$($syn:literal),*] [$($kind:literal),+];)*) => {
        &[$(BusinessType {
            value: $value,
            primary: first_of!($($primary,)? $value),
            label: $label,
            parents: &[$($parent),*],
            synonyms: &[$($syn),*],
            style: Style::$style,
            kinds: &[$($kind),+],
            density: Density::$density,
        }),*]
    };
}

/// The catalogue, in the spec's order (each value once).
#[rustfmt::skip]
pub const TYPES: &[BusinessType] = types![
    // Food & Dining
    "restaurant" "Restaurant" Eatery Dense ["food"] ["eatery", "dining"]
        ["Kitchen", "Grill", "Bistro", "Eatery", "Table", "Tavern", "Cantina", "Trattoria", "Taqueria", "Smokehouse", "Brasserie", "Steakhouse", "Noodle House"];
    "meal_takeaway" "Meal Takeaway" Eatery Normal ["food"] ["takeaway", "takeout", "take out", "to go"]
        ["Takeout", "To Go", "Express", "Wok", "Pizza", "Burrito Co.", "Chicken Shack", "Subs"];
    "meal_delivery" "Meal Delivery" Eatery Normal ["food"] ["food delivery", "delivery"]
        ["Delivery", "Meal Prep", "Dumplings", "Pizza Delivery", "Kitchen Delivery"];
    "cafe" "Cafe" Eatery Common ["food"] ["café", "coffee shop", "coffee"]
        ["Coffee", "Cafe", "Coffee House", "Espresso Bar", "Coffee Roasters", "Tea & Coffee"];
    "bakery" "Bakery" Eatery Normal ["food"] ["bakeshop", "patisserie", "pastry shop"]
        ["Bakery", "Bakehouse", "Bread Co.", "Pastry Shop", "Patisserie", "Donuts", "Bagels"];
    "bar" "Bar" Eatery Common [] ["pub", "cocktail bar", "taproom"]
        ["Bar", "Tap Room", "Saloon", "Pub", "Lounge", "Cocktail Bar", "Ale House"];
    "night_club" "Night Club" Eatery Normal ["bar"] ["nightclub", "dance club", "club"]
        ["Nightclub", "Club", "Social Club", "Discotheque"];
    "food" "Food" Shop Rare [] ["food truck", "food hall"]
        ["Food Truck", "Food Co-op", "Food Hall", "Provisions", "Tamales", "Catering"];
    // Health & Medical
    "doctor" "Doctor" Professional Common ["health"] ["physician", "medical clinic", "family doctor", "clinic"]
        ["Family Medicine", "Medical Group", "Internal Medicine", "Primary Care", "Pediatrics", "Medical Clinic", "Family Practice"];
    "dentist" "Dentist" Professional Common ["health"] ["dental", "dental clinic", "orthodontist"]
        ["Dental", "Family Dentistry", "Dental Care", "Smiles", "Dental Group", "Orthodontics", "Dental Studio"];
    "hospital" "Hospital" Venue Rare ["health"] ["medical center", "emergency room"]
        ["Medical Center", "Hospital", "Regional Hospital", "Memorial Hospital", "Children's Hospital", "General Hospital"];
    "pharmacy" "Pharmacy" Shop Normal ["health", "store"] ["drugstore", "drug store", "chemist"]
        ["Pharmacy", "Drug", "Apothecary", "Drugs", "Rx"];
    "physiotherapist" "Physiotherapist" Professional Normal ["health"] ["physical therapy", "physical therapist", "physio"]
        ["Physical Therapy", "Physiotherapy", "Sports Rehab", "PT & Wellness", "Rehabilitation"];
    "veterinary_care" "Veterinary Care" Professional Normal [] ["vet", "veterinarian", "animal hospital", "veterinary"]
        ["Animal Hospital", "Veterinary Clinic", "Pet Clinic", "Vet Care", "Veterinary Hospital"];
    "health" "Health" Venue Rare [] ["wellness", "health clinic", "health center"]
        ["Health Center", "Wellness Center", "Community Health", "Integrative Health", "Health Collective"];
    // Professional Services
    "lawyer" "Lawyer" Professional Common [] ["attorney", "law firm", "legal"]
        ["Law Group", "Law Office", "Legal", "Law Firm", "Attorneys at Law", "Injury Lawyers"];
    "accounting" "Accounting" Professional Normal ["finance"] ["accountant", "cpa", "bookkeeping", "tax preparation"]
        ["CPA", "Accounting", "Tax Services", "Bookkeeping", "Tax & Accounting"];
    "real_estate_agency" "Real Estate Agency" Professional Common [] ["realtor", "realty", "real estate", "real estate agent"]
        ["Realty", "Real Estate", "Properties", "Realty Group", "Homes", "Real Estate Co."];
    "insurance_agency" "Insurance Agency" Professional Normal ["finance"] ["insurance", "insurance agent"]
        ["Insurance", "Insurance Agency", "Insurance Group", "Insurance Services"];
    "finance" "Finance" Professional Rare [] ["financial advisor", "financial services", "wealth management"]
        ["Financial", "Wealth Management", "Financial Advisors", "Capital", "Financial Group", "Credit Union"];
    "travel_agency" "Travel Agency" Shop Normal [] ["travel agent"]
        ["Travel", "Travel Co.", "Journeys", "Tours & Travel", "Getaways"];
    // Beauty & Wellness
    "beauty_salon" "Beauty Salon" Shop Common [] ["salon", "beauty"]
        ["Beauty Salon", "Beauty Bar", "Salon", "Beauty Lounge", "Beauty Studio"];
    "hair_care" "Hair Care" Shop Common [] ["hair salon", "hairdresser", "barber", "barbershop"]
        ["Hair Studio", "Barbershop", "Hair Salon", "Hair Co.", "Cuts", "Hair Lounge"];
    "spa" "Spa" Shop Normal [] ["day spa", "massage"]
        ["Spa", "Day Spa", "Wellness Spa", "Massage & Spa", "Retreat"];
    "gym" "Gym" Shop Common ["health"] ["fitness", "fitness center", "health club", "crossfit"]
        ["Fitness", "Gym", "Athletic Club", "CrossFit", "Strength", "Boxing Gym", "Fitness Studio"];
    // Automotive
    "car_dealer" "Car Dealer" Trade Normal [] ["car dealership", "dealership", "auto dealer", "used cars"]
        ["Motors", "Auto Sales", "Automotive", "Cars", "Auto Group", "Pre-Owned"];
    "car_rental" "Car Rental" Trade Normal [] ["rental car", "car hire", "rent a car"]
        ["Car Rental", "Rent-A-Car", "Auto Rentals", "Car Hire"];
    "car_repair" "Car Repair" Trade Common [] ["auto repair", "mechanic", "auto shop", "auto service"]
        ["Auto Repair", "Automotive", "Auto Care", "Garage", "Motor Works", "Car Care", "Transmission"];
    "car_wash" "Car Wash" Trade Normal [] ["auto wash", "car detailing", "detailing"]
        ["Car Wash", "Auto Spa", "Express Wash", "Auto Detailing", "Wash & Lube"];
    "gas_station" "Gas Station" Trade Normal [] ["petrol station", "filling station", "fuel"]
        ["Fuel", "Gas", "Gas & Go", "Fuel Stop", "Petroleum"];
    // Shopping & Retail
    "clothing_store" "Clothing Store" Shop Common ["store"] ["clothes", "clothing", "boutique", "apparel", "fashion"]
        ["Boutique", "Apparel", "Clothing Co.", "Outfitters", "Threads", "Wardrobe"];
    "shoe_store" "Shoe Store" Shop Normal ["store"] ["shoes", "shoe shop", "footwear", "sneakers"]
        ["Shoes", "Footwear", "Shoe Co.", "Sneakers", "Boot Shop"];
    "jewelry_store" "Jewelry Store" Shop Normal ["store"] ["jewelry", "jeweler", "jewellery", "jeweller"]
        ["Jewelers", "Jewelry", "Fine Jewelry", "Diamonds", "Goldsmiths"];
    "electronics_store" "Electronics Store" Shop Normal ["store"] ["electronics", "computer store", "tech store"]
        ["Electronics", "Tech", "Audio & Video", "Computers", "Gadgets"];
    "furniture_store" "Furniture Store" Shop Normal ["store"] ["furniture", "mattress store"]
        ["Furniture", "Home Furnishings", "Furniture Co.", "Interiors", "Mattress"];
    "home_goods_store" "Home Goods Store" Shop Normal ["store"] ["home goods", "home decor", "housewares"]
        ["Home", "Home Goods", "Living", "Home & Kitchen", "Decor"];
    "supermarket" "Supermarket" Shop Normal ["grocery_store", "food", "store"] ["grocery", "grocery store", "groceries"]
        ["Market", "Grocery", "Foods", "Supermarket", "Fresh Market", "Grocers"];
    "convenience_store" "Convenience Store" Shop Normal ["food", "store"] ["corner store", "mini mart", "bodega"]
        ["Mart", "Mini Mart", "Corner Store", "Quick Stop", "Food Mart"];
    // Store's kinds keep their repair shops, so the world of every seed stays as it was;
    // the repair phrases now name `computer_phone_repair`.
    "store" "Store" Shop Normal [] ["shop", "retail"]
        ["General Store", "Tech Repair", "Phone Repair", "Computer Repair", "Trading Co.", "Goods", "Supply", "Emporium"];
    // Not a Google type: searched by text alone; Google files these shops as electronics stores.
    "computer_phone_repair" as "electronics_store" "Computer/Phone Repair" Trade Normal ["store"]
        ["computer repair", "phone repair", "computer phone repair", "cell phone repair", "laptop repair", "tech repair", "device repair"]
        ["Computer Repair", "Phone Repair", "Tech Repair", "Device Repair", "PC Repair", "Cell Phone Repair", "iPhone Repair"];
    // Home & Garden
    "plumber" "Plumber" Trade Common ["general_contractor"] ["plumbing"]
        ["Plumbing", "Plumbing & Drain", "Rooter", "Plumbing Co.", "Plumbing Services"];
    "electrician" "Electrician" Trade Common ["general_contractor"] ["electrical contractor", "electrical", "electric"]
        ["Electric", "Electrical", "Electrical Services", "Electric Co.", "Wiring"];
    "painter" "Painter" Trade Normal ["general_contractor"] ["painting", "house painter", "painting contractor"]
        ["Painting", "Painters", "Painting Co.", "Coatings", "Paint Pros"];
    "roofing_contractor" "Roofing Contractor" Trade Normal ["general_contractor"] ["roofer", "roofing", "roof repair"]
        ["Roofing", "Roofing Co.", "Roofing & Exteriors", "Roof Pros", "Roofing Solutions"];
    "general_contractor" "General Contractor" Trade Rare [] ["contractor", "builder", "construction", "remodeling"]
        ["Construction", "Builders", "Remodeling", "Contracting", "Homes & Remodeling", "Build Co."];
    "locksmith" "Locksmith" Trade Normal [] ["lock and key", "lockout service"]
        ["Locksmith", "Lock & Key", "Lock Service", "Security & Locks"];
    "moving_company" "Moving Company" Trade Normal [] ["movers", "moving", "moving and storage"]
        ["Moving", "Movers", "Moving & Storage", "Relocation", "Moving Co."];
    // Education
    "school" "School" Venue Normal [] ["academy"]
        ["Academy", "School", "Montessori School", "Charter School", "Learning Center", "Preparatory Academy"];
    "university" "University" Venue Rare [] ["college", "campus"]
        ["University", "College", "Community College", "Institute of Technology", "State University"];
    "primary_school" "Primary School" Venue Normal ["school"] ["elementary school", "elementary", "grade school"]
        ["Elementary School", "Elementary", "Primary School"];
    "secondary_school" "Secondary School" Venue Normal ["school"] ["high school", "middle school"]
        ["High School", "Middle School", "Preparatory School", "Secondary School"];
    // Entertainment
    "movie_theater" "Movie Theater" Venue Normal [] ["cinema", "movie theatre", "movies"]
        ["Cinema", "Theater", "Cinemas", "Picture House", "Movie House", "Drive-In"];
    "amusement_park" "Amusement Park" Venue Rare ["tourist_attraction"] ["theme park", "fun park"]
        ["Fun Park", "Adventure Park", "Amusement Park", "Family Fun Center", "Thrill Park"];
    "bowling_alley" "Bowling Alley" Venue Rare [] ["bowling"]
        ["Lanes", "Bowl", "Bowling", "Bowling Center", "Strikes"];
    "casino" "Casino" Venue Rare [] ["gaming"]
        ["Casino", "Casino & Resort", "Gaming Hall", "Card Room"];
    // Lodging & Hospitality
    "lodging" "Lodging" Venue Common [] ["hotel", "motel", "inn", "accommodation", "bed and breakfast", "hostel"]
        ["Hotel", "Inn", "Suites", "Lodge", "Motel", "Guesthouse", "Boutique Hotel"];
    "tourist_attraction" "Tourist Attraction" Venue Normal [] ["attraction", "sightseeing", "landmark", "things to do"]
        ["Observatory", "Gardens", "Historic Site", "Overlook", "Heritage Center", "Sculpture Park", "Lighthouse"];
    "rv_park" "RV Park" Venue Rare ["lodging"] ["rv resort", "trailer park", "caravan park"]
        ["RV Park", "RV Resort", "RV Campground", "Trailer Park"];
    "campground" "Campground" Venue Rare ["lodging"] ["camping", "campsite"]
        ["Campground", "Campsite", "Camp", "Family Campground"];
    // Transportation
    "taxi_stand" "Taxi Stand" Venue Rare [] ["taxi", "cab", "taxi rank", "cab stand"]
        ["Taxi Stand", "Cab Stand", "Taxi", "Cab Co."];
    "transit_station" "Transit Station" Venue Rare [] ["transit center", "metro station", "subway station"]
        ["Transit Center", "Station", "Transit Station", "Metro Station"];
    "airport" "Airport" Venue Rare [] ["airfield"]
        ["Airport", "Regional Airport", "Municipal Airport", "Executive Airport", "Airfield"];
    "bus_station" "Bus Station" Venue Rare ["transit_station"] ["bus terminal", "bus depot"]
        ["Bus Station", "Bus Terminal", "Transit Depot", "Coach Station"];
    "train_station" "Train Station" Venue Rare ["transit_station"] ["railway station", "rail station"]
        ["Station", "Train Station", "Depot", "Rail Station", "Union Station"];
    // Personal Care
    "laundry" "Laundry" Shop Normal [] ["laundromat", "dry cleaner", "dry cleaning"]
        ["Laundromat", "Laundry", "Cleaners", "Wash & Fold", "Dry Cleaning"];
    "florist" "Florist" Shop Normal ["store"] ["flowers", "flower shop"]
        ["Florist", "Flowers", "Floral", "Blooms", "Floral Design"];
    "pet_store" "Pet Store" Shop Normal ["store"] ["pet shop", "pet supply", "pet supplies"]
        ["Pet Supply", "Pets", "Pet Shop", "Pet Co.", "Pet Market"];
    "funeral_home" "Funeral Home" Professional Rare [] ["funeral", "mortuary", "funeral parlor"]
        ["Funeral Home", "Funeral Chapel", "Memorial Chapel", "Mortuary", "Funeral Services"];
];

/// The catalogue type with this value.
pub fn find(value: &str) -> Option<&'static BusinessType> {
    TYPES.iter().find(|t| t.value == value)
}

/// Types whose businesses carry `place_type` in their `types` array (a type itself, and
/// the narrower types that list it as a parent: `store` covers shoe shops too), or, for a
/// catalogue value that is no Google type, that type itself.
pub(crate) fn types_carrying(place_type: &str) -> Vec<&'static BusinessType> {
    TYPES
        .iter()
        .filter(|t| t.value == place_type || t.primary == place_type || t.parents.contains(&place_type))
        .collect()
}

/// The type a text query names, if any: the longest label, value or synonym found as
/// whole words (singular or plural) in `text`, so "Shoe Store" beats "Store" and
/// "Primary School" beats "School". Ties go to the earlier type in the catalogue.
pub fn type_named_in(text: &str) -> Option<&'static BusinessType> {
    let words = normalized_words(text);
    let mut best: Option<(usize, &'static BusinessType)> = None;
    for ty in TYPES {
        let value_words = ty.value.replace('_', " ");
        let phrases = [ty.label, value_words.as_str()]
            .into_iter()
            .chain(ty.synonyms.iter().copied());
        for phrase in phrases {
            let phrase_words = normalized_words(phrase);
            if !phrase_words.is_empty()
                && contains_run(&words, &phrase_words)
                && best.is_none_or(|(len, _)| phrase_words.len() > len)
            {
                best = Some((phrase_words.len(), ty));
            }
        }
    }
    best.map(|(_, ty)| ty)
}

/// Lower-case words of `text`, punctuation dropped, each reduced to a rough singular.
pub(crate) fn normalized_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| singular(&w.to_lowercase()))
        .collect()
}

/// A rough English singular, applied to queries and phrases alike, so both sides agree
/// ("agencies" -> "agency", "stores" -> "store", "churches" -> "church"; "bus" and
/// "glass" stay).
fn singular(word: &str) -> String {
    if word.len() <= 3 || word.ends_with("ss") || word.ends_with("us") {
        return word.to_owned();
    }
    if word == "buses" {
        return "bus".to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["ches", "shes", "xes", "sses"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_owned()
}

fn contains_run(haystack: &[String], needle: &[String]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_holds_every_spec_value_once() {
        assert_eq!(TYPES.len(), 68);
        let mut values: Vec<&str> = TYPES.iter().map(|t| t.value).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), TYPES.len());
        let not_table_a: Vec<&str> = TYPES
            .iter()
            .filter(|t| !t.is_included_type())
            .map(|t| t.value)
            .collect();
        assert_eq!(
            not_table_a,
            [
                "food",
                "health",
                "finance",
                "computer_phone_repair",
                "general_contractor"
            ]
        );
        assert!(
            TYPES
                .iter()
                .all(|t| t.primary == t.value || t.value == "computer_phone_repair"),
            "only the repair shops borrow a Google type"
        );
    }

    #[test]
    fn text_names_the_most_specific_type() {
        let named = |q: &str| type_named_in(q).map(|t| t.value);
        assert_eq!(named("Restaurant in Austin, TX"), Some("restaurant"));
        assert_eq!(named("restaurants in austin"), Some("restaurant"));
        assert_eq!(named("Shoe Stores in Denver"), Some("shoe_store"));
        assert_eq!(named("Store in Denver"), Some("store"));
        assert_eq!(named("Primary School in Boston"), Some("primary_school"));
        assert_eq!(named("Real Estate Agencies in Miami"), Some("real_estate_agency"));
        assert_eq!(named("Computer/Phone Repair in Miami"), Some("computer_phone_repair"));
        assert_eq!(named("computer repair in Austin"), Some("computer_phone_repair"));
        assert_eq!(named("phone repair"), Some("computer_phone_repair"));
        assert_eq!(named("Cell Phone Repair near Denver"), Some("computer_phone_repair"));
        assert_eq!(named("Electronics Store in Miami"), Some("electronics_store"));
        assert_eq!(named("Food in Austin"), Some("food"));
        assert_eq!(named("General Contractor in Austin"), Some("general_contractor"));
        assert_eq!(named("Bus Stations in Seattle"), Some("bus_station"));
        assert_eq!(named("RV Park in Phoenix"), Some("rv_park"));
        assert_eq!(named("pizza in Austin"), None);
    }

    #[test]
    fn narrower_types_carry_their_parents() {
        let store: Vec<&str> = types_carrying("store").iter().map(|t| t.value).collect();
        assert!(store.contains(&"store") && store.contains(&"shoe_store") && store.contains(&"florist"));
        assert!(!store.contains(&"restaurant"));
        let contractor: Vec<&str> = types_carrying("general_contractor").iter().map(|t| t.value).collect();
        assert_eq!(
            contractor,
            [
                "plumber",
                "electrician",
                "painter",
                "roofing_contractor",
                "general_contractor"
            ]
        );
        assert_eq!(
            find("restaurant").map(|t| t.place_types()),
            Some(vec!["restaurant", "food", "point_of_interest", "establishment"])
        );
        assert!(types_carrying("museum").is_empty());
        let repair = find("computer_phone_repair").expect("repair shops");
        assert_eq!(
            repair.place_types(),
            ["electronics_store", "store", "point_of_interest", "establishment"]
        );
        assert!(!repair.is_included_type(), "searched by text alone");
        let electronics: Vec<&str> = types_carrying("electronics_store").iter().map(|t| t.value).collect();
        assert_eq!(electronics, ["electronics_store", "computer_phone_repair"]);
        let by_value: Vec<&str> = types_carrying("computer_phone_repair")
            .iter()
            .map(|t| t.value)
            .collect();
        assert_eq!(by_value, ["computer_phone_repair"]);
    }
}
