//! Which SKU a request is billed at. Google prices a Text Search (New) or Place Details
//! (New) request by the highest tier of any field in its field mask ("Text Search (New)
//! FieldMask" at https://developers.google.com/maps/documentation/places/web-service/text-search,
//! "Place Details (New)" and "Place Data Fields (New)"); a wildcard asks for, and is
//! billed for, everything. Place Details has one more tier than Text Search: its
//! Essentials fields (address, location, types, viewport...) are Text Search Pro fields.

use serde::{Serialize, Serializer};

/// A Text Search (New) SKU, cheapest first, then the Places Aggregate SKU, then the
/// Place Details (New) SKUs, cheapest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sku {
    /// "Text Search Essentials (IDs Only)": `places.attributions`, `places.id`,
    /// `places.name`, `nextPageToken`.
    TextSearchEssentialsIdsOnly,
    /// "Text Search Pro": display name, address, location, types, status, Maps links...
    TextSearchPro,
    /// "Text Search Enterprise": phone numbers, website, rating, rating count, hours, price.
    TextSearchEnterprise,
    /// "Text Search Enterprise + Atmosphere": reviews, summaries, amenities, `*`.
    TextSearchEnterpriseAtmosphere,
    /// "Places Aggregate": one Places Aggregate API `computeInsights` call, whatever it
    /// asks (not a Text Search SKU: listed after them).
    PlacesAggregate,
    /// "Place Details Essentials (IDs Only)": `id`, `name`, `attributions`, `photos`.
    PlaceDetailsEssentialsIdsOnly,
    /// "Place Details Essentials": address, location, types, viewport, plus code.
    PlaceDetailsEssentials,
    /// "Place Details Pro": display name, status, Maps links, primary type...
    PlaceDetailsPro,
    /// "Place Details Enterprise": phone numbers, website, rating, rating count, hours.
    PlaceDetailsEnterprise,
    /// "Place Details Enterprise + Atmosphere": reviews, summaries, amenities, `*`.
    PlaceDetailsEnterpriseAtmosphere,
}

impl Sku {
    /// Every SKU, cheapest first.
    pub const ALL: [Sku; 10] = [
        Sku::TextSearchEssentialsIdsOnly,
        Sku::TextSearchPro,
        Sku::TextSearchEnterprise,
        Sku::TextSearchEnterpriseAtmosphere,
        Sku::PlacesAggregate,
        Sku::PlaceDetailsEssentialsIdsOnly,
        Sku::PlaceDetailsEssentials,
        Sku::PlaceDetailsPro,
        Sku::PlaceDetailsEnterprise,
        Sku::PlaceDetailsEnterpriseAtmosphere,
    ];

    /// Google's name for the SKU.
    pub fn display_name(self) -> &'static str {
        match self {
            Self::TextSearchEssentialsIdsOnly => "Text Search Essentials (IDs Only)",
            Self::TextSearchPro => "Text Search Pro",
            Self::TextSearchEnterprise => "Text Search Enterprise",
            Self::TextSearchEnterpriseAtmosphere => "Text Search Enterprise + Atmosphere",
            Self::PlacesAggregate => "Places Aggregate",
            Self::PlaceDetailsEssentialsIdsOnly => "Place Details Essentials (IDs Only)",
            Self::PlaceDetailsEssentials => "Place Details Essentials",
            Self::PlaceDetailsPro => "Place Details Pro",
            Self::PlaceDetailsEnterprise => "Place Details Enterprise",
            Self::PlaceDetailsEnterpriseAtmosphere => "Place Details Enterprise + Atmosphere",
        }
    }

    /// Google's list price per 1,000 billable requests at the first volume tier (before
    /// any free monthly allowance), in whole US dollars: IDs Only is free.
    pub fn list_price_per_1000_usd(self) -> u64 {
        match self {
            Self::TextSearchEssentialsIdsOnly => 0,
            Self::TextSearchPro => 32,
            Self::TextSearchEnterprise => 35,
            Self::TextSearchEnterpriseAtmosphere => 40,
            // About a cent a call.
            Self::PlacesAggregate => 10,
            Self::PlaceDetailsEssentialsIdsOnly => 0,
            Self::PlaceDetailsEssentials => 5,
            Self::PlaceDetailsPro => 17,
            Self::PlaceDetailsEnterprise => 20,
            Self::PlaceDetailsEnterpriseAtmosphere => 25,
        }
    }

    /// What `requests` billable requests cost at list price.
    pub fn cost(self, requests: u64) -> Usd {
        // $N per 1,000 requests is N * 1,000 micro-dollars per request: exact.
        Usd::from_micros(self.list_price_per_1000_usd() * 1_000 * requests)
    }
}

/// An amount of US dollars, kept in whole micro-dollars so sums are exact; serialised as
/// a JSON number of dollars (`0.096`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Usd {
    micros: u64,
}

impl Usd {
    /// An amount from micro-dollars.
    pub const fn from_micros(micros: u64) -> Self {
        Self { micros }
    }

    /// The amount in micro-dollars.
    pub const fn micros(self) -> u64 {
        self.micros
    }

    /// The amount in dollars.
    pub fn dollars(self) -> f64 {
        self.micros as f64 / 1e6
    }
}

impl std::ops::Add for Usd {
    type Output = Usd;

    fn add(self, other: Usd) -> Usd {
        Usd::from_micros(self.micros + other.micros)
    }
}

impl std::iter::Sum for Usd {
    fn sum<I: Iterator<Item = Usd>>(iter: I) -> Usd {
        iter.fold(Usd::default(), |a, b| a + b)
    }
}

impl Serialize for Usd {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.dollars())
    }
}

const IDS_ONLY: &[&str] = &["attributions", "id", "name"];

const PRO: &[&str] = &[
    "accessibilityOptions",
    "addressComponents",
    "addressDescriptor",
    "adrFormatAddress",
    "businessStatus",
    "containingPlaces",
    "displayName",
    "formattedAddress",
    "googleMapsLinks",
    "googleMapsUri",
    "iconBackgroundColor",
    "iconMaskBaseUri",
    "location",
    "photos",
    "plusCode",
    "postalAddress",
    "primaryType",
    "primaryTypeDisplayName",
    "pureServiceAreaBusiness",
    "shortFormattedAddress",
    "subDestinations",
    "types",
    "utcOffsetMinutes",
    "viewport",
];

const ENTERPRISE: &[&str] = &[
    "currentOpeningHours",
    "currentSecondaryOpeningHours",
    "internationalPhoneNumber",
    "nationalPhoneNumber",
    "priceLevel",
    "priceRange",
    "rating",
    "regularOpeningHours",
    "regularSecondaryOpeningHours",
    "userRatingCount",
    "websiteUri",
];

const ATMOSPHERE: &[&str] = &[
    "allowsDogs",
    "curbsidePickup",
    "delivery",
    "dineIn",
    "editorialSummary",
    "evChargeAmenitySummary",
    "evChargeOptions",
    "fuelOptions",
    "generativeSummary",
    "goodForChildren",
    "goodForGroups",
    "goodForWatchingSports",
    "liveMusic",
    "menuForChildren",
    "neighborhoodSummary",
    "parkingOptions",
    "paymentOptions",
    "outdoorSeating",
    "reservable",
    "restroom",
    "reviews",
    "reviewSummary",
    "servesBeer",
    "servesBreakfast",
    "servesBrunch",
    "servesCocktails",
    "servesCoffee",
    "servesDessert",
    "servesDinner",
    "servesLunch",
    "servesVegetarianFood",
    "servesWine",
    "takeout",
];

/// Place fields that are plain values (no sub-fields a mask could name).
const SCALARS: &[&str] = &[
    "id",
    "name",
    "adrFormatAddress",
    "businessStatus",
    "formattedAddress",
    "googleMapsUri",
    "iconBackgroundColor",
    "iconMaskBaseUri",
    "primaryType",
    "pureServiceAreaBusiness",
    "shortFormattedAddress",
    "types",
    "utcOffsetMinutes",
    "internationalPhoneNumber",
    "nationalPhoneNumber",
    "priceLevel",
    "rating",
    "userRatingCount",
    "websiteUri",
];

/// The SKU of one `Place` field (`rating`), `None` if Google has no such field.
pub fn place_field_sku(field: &str) -> Option<Sku> {
    [
        (IDS_ONLY, Sku::TextSearchEssentialsIdsOnly),
        (PRO, Sku::TextSearchPro),
        (ENTERPRISE, Sku::TextSearchEnterprise),
        (ATMOSPHERE, Sku::TextSearchEnterpriseAtmosphere),
    ]
    .into_iter()
    .find_map(|(fields, sku)| fields.contains(&field).then_some(sku))
    .or_else(|| {
        // The boolean "serves"/"good for" family is open-ended; Google bills all of it
        // as Atmosphere.
        (field.starts_with("serves") || field.starts_with("goodFor")).then_some(Sku::TextSearchEnterpriseAtmosphere)
    })
}

/// Place fields that Place Details bills as Essentials (Text Search bills them as Pro).
const DETAILS_ESSENTIALS: &[&str] = &[
    "addressComponents",
    "addressDescriptor",
    "adrFormatAddress",
    "formattedAddress",
    "location",
    "photos",
    "plusCode",
    "postalAddress",
    "shortFormattedAddress",
    "types",
    "viewport",
];

/// The SKU a Place Details (New) field mask is billed at (its paths name the place's
/// own fields, `id,displayName.text`, with no `places.` prefix), or the first path
/// Google would refuse.
pub fn details_mask_sku(mask: &str) -> Result<Sku, String> {
    let mut highest = Sku::PlaceDetailsEssentialsIdsOnly;
    for path in mask.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let sku = if path == "*" {
            Sku::PlaceDetailsEnterpriseAtmosphere
        } else {
            // The same fields and sub-paths as a Text Search place's, one tier table over.
            let field = path.split('.').next().unwrap_or_default();
            match path_sku(&format!("places.{path}")).filter(|_| field != "places") {
                Some(Sku::TextSearchEssentialsIdsOnly) => Sku::PlaceDetailsEssentialsIdsOnly,
                Some(_) if DETAILS_ESSENTIALS.contains(&field) => Sku::PlaceDetailsEssentials,
                Some(Sku::TextSearchPro) => Sku::PlaceDetailsPro,
                Some(Sku::TextSearchEnterprise) => Sku::PlaceDetailsEnterprise,
                Some(_) => Sku::PlaceDetailsEnterpriseAtmosphere,
                None => return Err(path.to_owned()),
            }
        };
        highest = highest.max(sku);
    }
    Ok(highest)
}

/// The SKU a field mask is billed at, or the first path Google would refuse.
pub fn mask_sku(mask: &str) -> Result<Sku, String> {
    let mut highest = Sku::TextSearchEssentialsIdsOnly;
    for path in mask.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        highest = highest.max(path_sku(path).ok_or_else(|| path.to_owned())?);
    }
    Ok(highest)
}

fn path_sku(path: &str) -> Option<Sku> {
    let segments: Vec<&str> = path.split('.').collect();
    match segments.as_slice() {
        ["*"] | ["places"] => Some(Sku::TextSearchEnterpriseAtmosphere),
        ["nextPageToken"] => Some(Sku::TextSearchEssentialsIdsOnly),
        ["routingSummaries", ..] => Some(Sku::TextSearchEnterpriseAtmosphere),
        ["places", field] => place_field_sku(field),
        ["places", field, sub @ ..] => {
            let sku = place_field_sku(field)?;
            let valid_sub = match *field {
                "displayName" | "primaryTypeDisplayName" => matches!(sub, ["text"] | ["languageCode"]),
                "location" => matches!(sub, ["latitude"] | ["longitude"]),
                // Other messages: their inner shape is not modelled, so any sub-path is taken.
                f => !SCALARS.contains(&f) && sub.iter().all(|s| !s.is_empty()),
            };
            valid_sub.then_some(sku)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_field_sets_the_price() {
        assert_eq!(mask_sku("places.id"), Ok(Sku::TextSearchEssentialsIdsOnly));
        assert_eq!(
            mask_sku("places.id,places.name,nextPageToken"),
            Ok(Sku::TextSearchEssentialsIdsOnly)
        );
        assert_eq!(mask_sku("places.id,places.displayName"), Ok(Sku::TextSearchPro));
        assert_eq!(
            mask_sku("places.displayName.text,places.location.latitude"),
            Ok(Sku::TextSearchPro)
        );
        assert_eq!(
            mask_sku("places.id,places.formattedAddress,places.websiteUri,nextPageToken"),
            Ok(Sku::TextSearchEnterprise)
        );
        assert_eq!(
            mask_sku("places.rating,places.reviews"),
            Ok(Sku::TextSearchEnterpriseAtmosphere)
        );
        assert_eq!(mask_sku("*"), Ok(Sku::TextSearchEnterpriseAtmosphere));
        assert_eq!(mask_sku("places"), Ok(Sku::TextSearchEnterpriseAtmosphere));
        assert_eq!(mask_sku("places.servesBrunch"), Ok(Sku::TextSearchEnterpriseAtmosphere));
    }

    #[test]
    fn list_prices_follow_googles_table_and_sum_exactly() {
        assert_eq!(Sku::TextSearchEssentialsIdsOnly.cost(1_000_000), Usd::default());
        assert_eq!(Sku::TextSearchPro.cost(1_000).dollars(), 32.0);
        assert_eq!(Sku::TextSearchEnterprise.cost(1_000).dollars(), 35.0);
        assert_eq!(Sku::TextSearchEnterpriseAtmosphere.cost(1_000).dollars(), 40.0);
        assert_eq!(Sku::TextSearchPro.cost(3).micros(), 96_000);
        let total: Usd = [Sku::TextSearchPro.cost(1), Sku::TextSearchEnterprise.cost(2)]
            .into_iter()
            .sum();
        assert_eq!(total.micros(), 102_000);
        assert_eq!(serde_json::to_string(&total).ok().as_deref(), Some("0.102"));
    }

    #[test]
    fn the_locate_mask_is_pro_and_ids_only_is_essentials() {
        assert_eq!(
            mask_sku("places.id,places.displayName,places.formattedAddress,places.viewport,places.location"),
            Ok(Sku::TextSearchPro)
        );
        assert_eq!(mask_sku("places.viewport"), Ok(Sku::TextSearchPro));
        assert_eq!(mask_sku("places.viewport.low.latitude"), Ok(Sku::TextSearchPro));
        assert_eq!(
            mask_sku("places.id,nextPageToken"),
            Ok(Sku::TextSearchEssentialsIdsOnly)
        );
    }

    #[test]
    fn place_details_masks_have_no_prefix_and_their_own_tiers() {
        let lead = "id,displayName,formattedAddress,nationalPhoneNumber,websiteUri,rating,userRatingCount,\
addressComponents,primaryTypeDisplayName,googleMapsUri";
        assert_eq!(details_mask_sku(lead), Ok(Sku::PlaceDetailsEnterprise));
        assert_eq!(details_mask_sku("id,name"), Ok(Sku::PlaceDetailsEssentialsIdsOnly));
        assert_eq!(
            details_mask_sku("id,formattedAddress,location.latitude"),
            Ok(Sku::PlaceDetailsEssentials)
        );
        assert_eq!(details_mask_sku("displayName.text"), Ok(Sku::PlaceDetailsPro));
        assert_eq!(details_mask_sku("reviews"), Ok(Sku::PlaceDetailsEnterpriseAtmosphere));
        assert_eq!(details_mask_sku("*"), Ok(Sku::PlaceDetailsEnterpriseAtmosphere));
        assert_eq!(details_mask_sku("places.id"), Err("places.id".to_owned()), "no prefix");
        assert_eq!(details_mask_sku("id,nextPageToken"), Err("nextPageToken".to_owned()));
        assert_eq!(details_mask_sku("places"), Err("places".to_owned()));
        assert_eq!(Sku::PlaceDetailsEnterprise.cost(1_000).dollars(), 20.0);
    }

    #[test]
    fn unknown_paths_are_named() {
        assert_eq!(mask_sku("places.id,places.phone"), Err("places.phone".to_owned()));
        assert_eq!(
            mask_sku("id"),
            Err("id".to_owned()),
            "Text Search needs the places. prefix"
        );
        assert_eq!(mask_sku("places.rating.value"), Err("places.rating.value".to_owned()));
        assert_eq!(
            mask_sku("places.displayName.foo"),
            Err("places.displayName.foo".to_owned())
        );
        assert_eq!(
            mask_sku("places.regularOpeningHours.weekdayDescriptions"),
            Ok(Sku::TextSearchEnterprise)
        );
    }
}
