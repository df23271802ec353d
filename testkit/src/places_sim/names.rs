//! Business names that read like real ones ("Miller's Kitchen", "Garcia & Patel Law
//! Group", "Zilker Elementary School"), unique within a (city, type).

use std::collections::HashSet;

use super::{
    catalogue::{BusinessType, Style},
    cities::City,
    rng::Rng,
};

const SURNAMES: &[&str] = &[
    "Miller",
    "Garcia",
    "Nguyen",
    "Patel",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Perez",
    "Thompson",
    "White",
    "Harris",
    "Sanchez",
    "Clark",
    "Ramirez",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Torres",
    "Hill",
    "Flores",
    "Green",
    "Adams",
    "Nelson",
    "Baker",
    "Hall",
    "Rivera",
    "Campbell",
    "Mitchell",
    "Carter",
    "Roberts",
    "Kim",
    "Chen",
    "Walsh",
    "Murphy",
    "Cohen",
    "Shapiro",
    "O'Brien",
    "Kowalski",
    "Rossi",
    "Bennett",
];

const FIRST_NAMES: &[&str] = &[
    "Maria", "James", "Rosa", "Sam", "Lucy", "Tony", "Grace", "Leo", "Nina", "Frank", "Ada", "Hank", "Mia", "Joe",
    "Lily", "Max", "Ruby", "Gus", "Vera", "Ben", "Ivy", "Ray", "Stella", "Otto", "June", "Abe", "Pearl", "Earl",
    "Hazel", "Walt", "Nora", "Eddie", "Rita", "Sal", "Dot", "Mack", "Greta", "Louie", "Flo", "Carmen",
];

const ADJECTIVES: &[&str] = &[
    "Golden",
    "Blue",
    "Green",
    "Red",
    "Silver",
    "Happy",
    "Little",
    "Big",
    "Old",
    "New",
    "Urban",
    "Rustic",
    "Sunny",
    "Lucky",
    "Wild",
    "Bright",
    "Cozy",
    "Royal",
    "Grand",
    "Modern",
    "Classic",
    "Prime",
    "True",
    "Honest",
    "Friendly",
    "Quick",
    "Fresh",
    "Noble",
    "Quiet",
    "Iron",
    "Copper",
    "Sweet",
    "Crimson",
    "Hidden",
    "Evergreen",
    "Lone Star",
    "Northern",
    "Southern",
    "Westside",
    "Eastside",
];

const NOUNS: &[&str] = &[
    "Oak", "River", "Stone", "Bridge", "Lantern", "Harbor", "Maple", "Pine", "Fox", "Bear", "Owl", "Sparrow", "Willow",
    "Cedar", "Summit", "Canyon", "Meadow", "Anchor", "Compass", "Garden", "Orchard", "Market", "Corner", "Square",
    "Avenue", "Spoon", "Kettle", "Barrel", "Hearth", "Mill", "Forge", "Crown", "Star", "Moon", "Field", "Creek",
    "Hill", "Lake", "Magnolia", "Juniper",
];

/// Patterns per style; `{S}`/`{S2}` surnames, `{F}` first name, `{A}` adjective,
/// `{N}`/`{N2}` nouns, `{C}` city, `{H}` neighbourhood, `{K}` the type's kind of business.
fn patterns(style: Style) -> &'static [&'static str] {
    match style {
        Style::Eatery => &[
            "{S}'s {K}",
            "The {A} {N}",
            "{A} {N} {K}",
            "{H} {K}",
            "{F}'s {K}",
            "{N} & {N2}",
            "The {N} {K}",
            "{A} {K}",
        ],
        Style::Shop => &[
            "{A} {N} {K}",
            "{H} {K}",
            "{S}'s {K}",
            "The {A} {K}",
            "{C} {K}",
            "{N} & {N2} {K}",
            "{F}'s {K}",
            "{N} {K}",
        ],
        Style::Professional => &[
            "{S} {K}",
            "{S} & {S2} {K}",
            "{C} {K}",
            "{H} {K}",
            "{F} {S} {K}",
            "{A} {N} {K}",
        ],
        Style::Trade => &[
            "{S} {K}",
            "{S} & Sons {K}",
            "{C} {K}",
            "{A} {K}",
            "{H} {K}",
            "{F}'s {K}",
            "{A} {N} {K}",
            "{N} {K}",
        ],
        Style::Venue => &["{C} {K}", "{H} {K}", "{S} {K}", "{A} {N} {K}", "{N} {K}", "{F} {S} {K}"],
    }
}

/// Attempts before falling back to a numbered name (only reached in very dense types).
const ATTEMPTS: usize = 60;

/// A fresh name for a business of `ty` in `city`, not yet in `taken` (which it joins).
pub(crate) fn unique_name(rng: &mut Rng, ty: &BusinessType, city: &City, taken: &mut HashSet<String>) -> String {
    for _ in 0..ATTEMPTS {
        let pattern: &&str = rng.pick(patterns(ty.style));
        let name = fill(pattern, rng, ty, city);
        if taken.insert(name.clone()) {
            return name;
        }
    }
    // Real cities have "Joe's Pizza II" too.
    let pattern: &&str = rng.pick(patterns(ty.style));
    let base = fill(pattern, rng, ty, city);
    let name = (2..)
        .map(|n| format!("{base} {}", roman(n)))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or(base);
    taken.insert(name.clone());
    name
}

fn fill(pattern: &str, rng: &mut Rng, ty: &BusinessType, city: &City) -> String {
    let surname = *rng.pick(SURNAMES);
    let noun = *rng.pick(NOUNS);
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('}') else { break };
        let word = match &rest[start + 1..start + len] {
            "S" => surname,
            "S2" => other_than(rng, SURNAMES, surname),
            "F" => *rng.pick(FIRST_NAMES),
            "A" => *rng.pick(ADJECTIVES),
            "N" => noun,
            "N2" => other_than(rng, NOUNS, noun),
            "C" => city.name,
            "H" => *rng.pick(city.neighborhoods),
            _ => *rng.pick(ty.kinds),
        };
        out.push_str(word);
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

fn other_than(rng: &mut Rng, words: &'static [&'static str], not: &str) -> &'static str {
    let word = *rng.pick(words);
    if word == not {
        words.iter().find(|w| **w != not).copied().unwrap_or(word)
    } else {
        word
    }
}

fn roman(n: usize) -> String {
    const NUMERALS: [&str; 9] = ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
    NUMERALS
        .get(n.saturating_sub(2))
        .map_or_else(|| n.to_string(), |s| (*s).to_owned())
}

/// A domain label from a name: "Miller's Kitchen & Bar" -> "millers-kitchen-bar".
pub(crate) fn slug(name: &str) -> String {
    name.replace('\'', "")
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places_sim::{catalogue, cities::CITIES};

    #[test]
    fn names_are_unique_filled_and_deterministic() {
        let ty = catalogue::find("restaurant").expect("restaurant");
        let make = || {
            let mut rng = Rng::new(5);
            let mut taken = HashSet::new();
            (0..300)
                .map(|_| unique_name(&mut rng, ty, &CITIES[0], &mut taken))
                .collect::<Vec<_>>()
        };
        let names = make();
        assert_eq!(names, make());
        let distinct: HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(
            names
                .iter()
                .all(|n| !n.contains('{') && !n.contains('}') && !n.is_empty())
        );
    }

    #[test]
    fn slugs_are_domain_labels() {
        assert_eq!(slug("Miller's Kitchen & Bar"), "millers-kitchen-bar");
        assert_eq!(slug("O'Brien Law Group"), "obrien-law-group");
        assert_eq!(roman(2), "II");
        assert_eq!(roman(12), "12");
    }
}
