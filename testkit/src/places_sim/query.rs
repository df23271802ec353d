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
#[derive(Debug, Clone, Copy)]
pub(crate) struct Location {
    pub city: &'static City,
    /// Set when the phrase names a ZIP code: only that part of the city.
    pub zip: Option<&'static str>,
}

/// Words that may follow a city and region without changing the place.
const COUNTRY: &[&str] = &[
    "usa",
    "us",
    "u.s.",
    "u.s.a.",
    "united states",
    "united states of america",
];

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

/// The city (and ZIP) a location phrase names; `None` when it names no place of the
/// world, or names a region that is not the city's ("Portland, ME").
pub(crate) fn resolve_location(text: &str) -> Option<Location> {
    let is_zip = |w: &str| w.len() == 5 && w.bytes().all(|b| b.is_ascii_digit());
    let zip = text.split(|c: char| !c.is_ascii_alphanumeric()).find(|w| is_zip(w));
    let zip_city = match zip {
        Some(z) => Some(CITIES.iter().find(|c| c.zip_codes.contains(&z))?),
        None => None,
    };
    let parts: Vec<String> = text
        .split(',')
        .map(|part| {
            part.split_whitespace()
                .filter(|w| !is_zip(w))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|part| !part.is_empty())
        .collect();
    let Some(first) = parts.first() else {
        return zip_city.map(|city| Location {
            city,
            zip: zip.and_then(|z| city.zip_codes.iter().find(|c| **c == z).copied()),
        });
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
        let fits =
            q == city.region.to_lowercase() || q == city.region_name.to_lowercase() || COUNTRY.contains(&q.as_str());
        if !fits {
            return None;
        }
    }
    if zip_city.is_some_and(|z| z.name != city.name) {
        return None;
    }
    Some(Location {
        city,
        zip: zip.and_then(|z| city.zip_codes.iter().find(|c| **c == z).copied()),
    })
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
}
