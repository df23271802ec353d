//! Reading a `textQuery` the way the product writes it: "<what> in <location>", where the
//! location is a city ("Austin", "Austin, TX", "austin, texas, usa") or one of its ZIP
//! codes ("78704", "Austin, TX 78704").

use super::{
    catalogue::normalized_words,
    cities::{CITIES, City},
};

/// A text query split into what is wanted and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// The words before the location ("Restaurant").
    pub what: String,
    /// The location phrase, if the query names one.
    pub location: Option<String>,
}

/// A location phrase resolved to a city of the world.
#[derive(Debug, Clone)]
pub(crate) struct Location {
    pub city: &'static City,
    /// Set when the phrase names a ZIP code (in the UK, a postcode district): only that
    /// part of the city.
    pub zip: Option<&'static str>,
    /// Set when the phrase names a full UK postcode: its unit ("1AA" of "SW1A 1AA").
    pub unit: Option<String>,
}

impl Location {
    /// The full postal code the phrase names, as places carry it ("SW1A 1AA"), or its
    /// district or ZIP code.
    pub fn postal_code(&self) -> Option<String> {
        let zip = self.zip?;
        Some(match &self.unit {
            Some(unit) => format!("{zip} {unit}"),
            None => zip.to_owned(),
        })
    }
}

/// Splits at the last " in " or " near "; without either, looks for a city name or ZIP
/// code anywhere ("Austin restaurants").
pub(crate) fn parse(text: &str) -> Parsed {
    // ASCII lower-casing keeps byte offsets valid for slicing `text`.
    let lower = text.to_ascii_lowercase();
    let split = [" in ", " near "]
        .iter()
        .filter_map(|sep| lower.rfind(sep).map(|at| (at, sep.len())))
        .max_by_key(|(at, _)| *at);
    if let Some((at, len)) = split {
        let location = text[at + len..].trim();
        if !location.is_empty() {
            return Parsed {
                what: text[..at].trim().to_owned(),
                location: Some(location.to_owned()),
            };
        }
    }
    Parsed {
        what: text.trim().to_owned(),
        location: location_anywhere(text),
    }
}

fn location_anywhere(text: &str) -> Option<String> {
    let words = normalized_words(text);
    let mut by_length: Vec<&City> = CITIES.iter().collect();
    by_length.sort_by_key(|c| std::cmp::Reverse(c.name.len()));
    by_length
        .into_iter()
        .find(|c| {
            let name = normalized_words(c.name);
            words.windows(name.len()).any(|w| w == name.as_slice())
        })
        .map(|c| c.name.to_owned())
        .or_else(|| {
            words
                .iter()
                .find(|w| CITIES.iter().any(|c| c.zip_codes.contains(&w.as_str())))
                .cloned()
        })
}

/// A postal code in a location phrase: a US ZIP code ("78704"), a UK postcode district
/// ("SW1A") or a full UK postcode ("SW1A 1AA", "sw1a1aa"), as its code, its unit (a full
/// postcode's last three characters) and the words it spans (upper case).
fn postal_in(text: &str) -> Option<(String, Option<String>, Vec<String>)> {
    let is_zip = |w: &str| w.len() == 5 && w.bytes().all(|b| b.is_ascii_digit());
    let shape = |w: &str| -> String { w.chars().map(|c| if c.is_ascii_digit() { '9' } else { 'A' }).collect() };
    let outward = |w: &str| ["A9", "A99", "AA9", "AA99", "A9A", "AA9A"].contains(&shape(w).as_str());
    let inward = |w: &str| shape(w) == "9AA";
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect();
    for (i, word) in words.iter().enumerate() {
        if is_zip(word) {
            return Some((word.clone(), None, vec![word.clone()]));
        }
        if outward(word) {
            return Some(match words.get(i + 1).filter(|next| inward(next)) {
                Some(unit) => (word.clone(), Some(unit.clone()), vec![word.clone(), unit.clone()]),
                None => (word.clone(), None, vec![word.clone()]),
            });
        }
        let split = word.len().saturating_sub(3);
        if word.len() > 3 && outward(&word[..split]) && inward(&word[split..]) {
            return Some((
                word[..split].to_owned(),
                Some(word[split..].to_owned()),
                vec![word.clone()],
            ));
        }
    }
    None
}

/// The city (and ZIP code or postcode) a location phrase names; `None` when it names no
/// place of the world, a code the world does not have, or a region that is not the
/// city's ("Portland, ME").
pub(crate) fn resolve_location(text: &str) -> Option<Location> {
    let postal = postal_in(text);
    let (zip_city, zip, unit) = match &postal {
        Some((code, unit, _)) => {
            let city = CITIES.iter().find(|c| c.zip_codes.contains(&code.as_str()))?;
            let zip = city.zip_codes.iter().find(|z| **z == code.as_str()).copied();
            if let Some(unit) = unit
                && city.unit_viewport(code, unit).is_none()
            {
                return None;
            }
            (Some(city), zip, unit.clone())
        }
        None => (None, None, None),
    };
    let taken: &[String] = postal.as_ref().map_or(&[], |(_, _, words)| words);
    let parts: Vec<String> = text
        .split(',')
        .map(|part| {
            part.split_whitespace()
                .filter(|w| {
                    !taken.contains(
                        &w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                            .to_ascii_uppercase(),
                    )
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|part| !part.is_empty())
        .collect();
    let Some(first) = parts.first() else {
        return zip_city.map(|city| Location { city, zip, unit });
    };
    let first_lower = first.to_lowercase();
    let mut candidates: Vec<&'static City> = CITIES.iter().collect();
    candidates.sort_by_key(|c| std::cmp::Reverse(c.name.len()));
    let city = candidates.into_iter().find(|c| {
        let name = c.name.to_lowercase();
        first_lower == name || first_lower.starts_with(&format!("{name} "))
    })?;
    let remainder = first.get(city.name.len()..).unwrap_or_default().trim();
    let qualifiers = std::iter::once(remainder).chain(parts[1..].iter().map(String::as_str));
    for qualifier in qualifiers.filter(|q| !q.is_empty()) {
        let q = qualifier.to_lowercase();
        let fits = q == city.region.to_lowercase()
            || q == city.region_name.to_lowercase()
            || city.country.qualifiers().contains(&q.as_str());
        if !fits {
            return None;
        }
    }
    if zip_city.is_some_and(|z| z.name != city.name) {
        return None;
    }
    Some(Location { city, zip, unit })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(text: &str) -> Option<(&'static str, Option<&'static str>)> {
        resolve_location(text).map(|l| (l.city.name, l.zip))
    }

    #[test]
    fn splits_at_the_last_in() {
        let p = parse("Drive in theaters in Austin, TX");
        assert_eq!(p.what, "Drive in theaters");
        assert_eq!(p.location.as_deref(), Some("Austin, TX"));
        assert_eq!(parse("cafes near Seattle").location.as_deref(), Some("Seattle"));
        assert_eq!(
            parse("Salt Lake City bakeries").location.as_deref(),
            Some("Salt Lake City")
        );
        assert_eq!(parse("bakeries 78704").location.as_deref(), Some("78704"));
        assert_eq!(parse("bakeries").location, None);
    }

    #[test]
    fn resolves_cities_regions_and_zip_codes() {
        assert_eq!(place("Austin"), Some(("Austin", None)));
        assert_eq!(place("austin, tx"), Some(("Austin", None)));
        assert_eq!(place("Austin TX"), Some(("Austin", None)));
        assert_eq!(place("Austin, Texas, USA"), Some(("Austin", None)));
        assert_eq!(place("salt lake city, ut"), Some(("Salt Lake City", None)));
        assert_eq!(place("78704"), Some(("Austin", Some("78704"))));
        assert_eq!(place("Austin, TX 78704"), Some(("Austin", Some("78704"))));
        assert_eq!(place("Portland, ME"), None);
        assert_eq!(place("Denver, TX"), None);
        assert_eq!(place("Denver 78704"), None, "the ZIP is in another city");
        assert_eq!(place("99999"), None);
        assert_eq!(place("Atlantis"), None);
    }

    #[test]
    fn resolves_london_its_postcode_districts_and_full_postcodes() {
        let full = |text: &str| resolve_location(text).map(|l| (l.city.name, l.postal_code()));
        assert_eq!(place("London"), Some(("London", None)));
        assert_eq!(place("London, UK"), Some(("London", None)));
        assert_eq!(place("london, england, united kingdom"), Some(("London", None)));
        assert_eq!(full("SW1A"), Some(("London", Some("SW1A".into()))));
        assert_eq!(full("London SW1A, UK"), Some(("London", Some("SW1A".into()))));
        assert_eq!(full("SW1A 1AA"), Some(("London", Some("SW1A 1AA".into()))));
        assert_eq!(full("sw1a1aa"), Some(("London", Some("SW1A 1AA".into()))));
        assert_eq!(full("London SW1A 1AA, UK"), Some(("London", Some("SW1A 1AA".into()))));
        assert_eq!(full("E1 4AE"), Some(("London", Some("E1 4AE".into()))));
        assert_eq!(place("SW1A 9ZZ"), None, "a unit the district does not have");
        assert_eq!(place("SW2 1AA"), None, "a district the world does not have");
        assert_eq!(place("Austin SW1A"), None, "the district is in another city");
        assert_eq!(place("London, TX"), None);
        assert_eq!(place("Austin, UK"), None);
    }
}
