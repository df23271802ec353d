//! A postal code typed as the location ("77002", "Austin, TX 78704", "SW1A 1AA"): the
//! search is of that code's area. Google places the code itself (Text Search answers a
//! postal-code query with a `postal_code` place and its viewport, which a full search
//! tiles), but its viewport is a rectangle around the code and its answers to "Dentist in
//! 77002" reach into the neighbouring codes. So a lead is sent only when its own address
//! carries the code (`addressComponents`, already in the lead mask): results strictly
//! inside the code, as for a polygon.

/// A postal code, as compared: upper case, letters and digits only ("SW1A1AA").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostalCode(String);

impl PostalCode {
    /// The postal code `location` names as its finest part: the whole location, or its
    /// last part after a city and region ("Austin, TX 78704"), a country name allowed
    /// after it. `None` for a street address (a house number besides the code), a city,
    /// or anything that is not one of the shapes below.
    pub fn named_by(location: &str) -> Option<Self> {
        let mut parts: Vec<&str> = location.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        while parts.len() > 1 && parts.last().is_some_and(|p| is_country(p)) {
            parts.pop();
        }
        let last = parts.pop()?;
        // The code is the whole last part, or its last one or two words ("TX 78704").
        let words: Vec<&str> = last.split_whitespace().collect();
        let (code, before) = (1..=words.len().min(2))
            .rev()
            .map(|n| (words[words.len() - n..].join(" "), &words[..words.len() - n]))
            .find(|(code, _)| is_postal_code(code))?;
        // Whatever precedes it names places (a city, a region), never a house number.
        let rest_has_digits = parts
            .iter()
            .chain(before.iter())
            .any(|p| p.chars().any(|c| c.is_ascii_digit()));
        (!rest_has_digits).then(|| Self::normalised(&code))
    }

    fn normalised(code: &str) -> Self {
        Self(
            code.chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_uppercase())
                .collect(),
        )
    }

    /// Whether a lead whose address has `postal_code` lies in this code's area. A US
    /// ZIP+4 lies in its five-digit ZIP (either way round); a full UK postcode in its
    /// outward code ("SW1A 1AA" in "SW1A"), a Canadian one in its forward sortation area
    /// ("K1A 0B6" in "K1A"), an Irish Eircode in its routing key ("D02 X285" in "D02");
    /// otherwise the codes are equal. A lead without a postal code is not known to lie
    /// in it.
    pub fn holds(&self, postal_code: &str) -> bool {
        let other = Self::normalised(postal_code);
        let zip = |c: &str| c.len() >= 5 && c.len() <= 9 && c.bytes().all(|b| b.is_ascii_digit());
        if other.0.is_empty() {
            return false;
        }
        if zip(&self.0) && zip(&other.0) {
            return self.0[..5] == other.0[..5];
        }
        if self.0 == other.0 {
            return true;
        }
        // An outward code holds the full codes that are it and one inward part.
        let (mine, rest) = (shape(&self.0), other.0.strip_prefix(self.0.as_str()).map(shape));
        match rest.as_deref() {
            Some("9AA" | "9A9") => OUTWARD.contains(&mine.as_str()),
            Some(r) if r.len() == 4 => mine == "A99",
            _ => false,
        }
    }
}

/// The shapes of a UK outward code (a Canadian forward sortation area is `A9A`, an Irish
/// Eircode's routing key `A99`).
const OUTWARD: [&str; 6] = ["A9", "A99", "AA9", "AA99", "A9A", "AA9A"];

/// `text` with each digit as `9` and each letter as `A`.
fn shape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '0'..='9' => '9',
            'A'..='Z' | 'a'..='z' => 'A',
            other => other,
        })
        .collect()
}

/// Country names that may follow a postal code ("78704, USA").
fn is_country(part: &str) -> bool {
    const COUNTRIES: [&str; 9] = [
        "usa",
        "us",
        "united states",
        "united states of america",
        "uk",
        "united kingdom",
        "gb",
        "great britain",
        "canada",
    ];
    COUNTRIES.contains(&part.to_ascii_lowercase().trim_matches('.'))
}

/// Whether `text` has the shape of a postal code: a US ZIP ("77002", "77002-1234"), a UK
/// postcode ("SW1A 1AA", "M1 1AE") or its outward code alone ("SW1A", "M1": a postal
/// district, as Londoners name areas), a Canadian one ("K1A 0B6") or its forward sortation
/// area ("K1A"), or a code of four to six digits (Germany, France, Australia, India...),
/// with a Dutch "1234 AB" too.
fn is_postal_code(text: &str) -> bool {
    let t = text.trim().to_ascii_uppercase();
    if !t.is_ascii() {
        return false;
    }
    let shape = shape(&t);
    let digits = |n: usize| "9".repeat(n);
    let us = shape == digits(5) || shape == format!("{}-{}", digits(5), digits(4));
    let numeric = (4..=6).any(|n| shape == digits(n));
    let dutch = shape == "9999 AA" || shape == "9999AA";
    let canadian = shape == "A9A 9A9" || shape == "A9A9A9";
    // UK: an outward code (A9, A99, AA9, AA99, A9A, AA9A), alone or with a space and 9AA.
    let outward = OUTWARD.contains(&shape.as_str());
    let uk = shape
        .split_once(' ')
        .or_else(|| (shape.len() > 3).then(|| shape.split_at(shape.len() - 3)))
        .is_some_and(|(outward, inward)| OUTWARD.contains(&outward) && inward == "9AA");
    us || numeric || dutch || canadian || uk || outward
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(location: &str) -> Option<String> {
        PostalCode::named_by(location).map(|c| c.0)
    }

    #[test]
    fn a_location_that_is_a_postal_code_is_known_as_one() {
        assert_eq!(code("77002"), Some("77002".into()));
        assert_eq!(code(" 77002-1234 "), Some("770021234".into()));
        assert_eq!(code("Austin, TX 78704"), Some("78704".into()));
        assert_eq!(code("78704, USA"), Some("78704".into()));
        assert_eq!(code("SW1A 1AA"), Some("SW1A1AA".into()));
        assert_eq!(code("sw1a 1aa"), Some("SW1A1AA".into()));
        assert_eq!(code("London SW1A 1AA, UK"), Some("SW1A1AA".into()));
        assert_eq!(code("M1 1AE"), Some("M11AE".into()));
        assert_eq!(code("K1A 0B1"), Some("K1A0B1".into()));
        assert_eq!(code("Ottawa, ON K1A 0B6"), Some("K1A0B6".into()));
        assert_eq!(code("SW1A"), Some("SW1A".into()), "a UK outward code alone");
        assert_eq!(code("London SW1A, UK"), Some("SW1A".into()));
        assert_eq!(code("london, ec1a"), Some("EC1A".into()));
        assert_eq!(code("M1"), Some("M1".into()));
        assert_eq!(code("K1A"), Some("K1A".into()), "a Canadian forward sortation area");
        assert_eq!(code("10115"), Some("10115".into()));
        assert_eq!(code("1012 AB"), Some("1012AB".into()));
    }

    #[test]
    fn cities_and_street_addresses_are_not_postal_codes() {
        for location in [
            "Austin, TX",
            "Houston",
            "123 Main St, Austin, TX 78704",
            "1600 Amphitheatre Pkwy, 94043",
            "Route 66",
            "",
            "12",
            "1234567",
            "SW1A 1A",
            "SW1A1",
            "London",
            "Austin TX",
            "Terminal 5",
            "Zürich 8001 é",
            "ééééé",
        ] {
            assert_eq!(code(location), None, "{location}");
        }
    }

    #[test]
    fn a_lead_is_in_the_code_only_if_its_address_says_so() {
        let zip = PostalCode::named_by("77002").expect("zip");
        assert!(zip.holds("77002"));
        assert!(zip.holds("77002-4321"), "a ZIP+4 lies in its ZIP");
        assert!(!zip.holds("77003"));
        assert!(!zip.holds(""), "no postal code: not known to be inside");
        let plus4 = PostalCode::named_by("77002-1234").expect("zip+4");
        assert!(
            plus4.holds("77002"),
            "Google gives five digits; the typed extension narrows no further"
        );
        let uk = PostalCode::named_by("SW1A 1AA").expect("postcode");
        assert!(uk.holds("SW1A 1AA") && uk.holds("sw1a1aa"));
        assert!(!uk.holds("SW1A 2AA"));
        assert!(!uk.holds("SW1A"), "a full postcode is narrower than its district");
        let district = PostalCode::named_by("London SW1A").expect("outward code");
        assert!(district.holds("SW1A 1AA") && district.holds("SW1A 2AA") && district.holds("sw1a"));
        assert!(!district.holds("SW1 1AA"), "another district's postcode");
        assert!(!district.holds("SW1A 1AAX"));
        let sw1 = PostalCode::named_by("SW1").expect("outward code");
        assert!(!sw1.holds("SW1A 1AA"), "SW1 is not SW1A");
        assert!(sw1.holds("SW1 1AA"));
        let fsa = PostalCode::named_by("K1A").expect("forward sortation area");
        assert!(fsa.holds("K1A 0B6") && !fsa.holds("K1B 0B6"));
        let eircode = PostalCode::named_by("D02").expect("routing key");
        assert!(eircode.holds("D02 X285") && !eircode.holds("D03 X285"));
    }
}
