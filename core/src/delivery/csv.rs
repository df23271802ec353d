//! A search's leads as the CSV file the web app downloads (`frontend/src/lib/csv.ts`),
//! built on the server for a delivery by email. The same columns, quoting, formula
//! guard and file name, byte for byte: `testkit/fixtures/csv/` holds leads and the file
//! both sides must make of them, and a test on each side reads it.

use std::borrow::Cow;

use chrono::{DateTime, Utc};
use unicode_normalization::UnicodeNormalization;

use crate::{
    enrich::{Contacts, NotRead, ReadStatus},
    lead::Lead,
};

/// The spec's columns (section 5).
pub const CSV_COLUMNS: [&str; 6] = ["Name", "Address", "Phone", "Website", "Rating", "Reviews"];
/// What an enriched search adds after them.
pub const CONTACT_COLUMNS: [&str; 8] = [
    "Email",
    "Facebook",
    "Instagram",
    "LinkedIn",
    "X",
    "YouTube",
    "TikTok",
    "Website read",
];
/// The place's own columns, last, so older files stay a prefix of today's.
pub const PLACE_COLUMNS: [&str; 6] = ["Category", "Street", "City", "State", "Postal Code", "Place ID"];

/// The columns of a file of leads: the spec's, the contact columns when `enriched`, the
/// place's own. The CSV and the XLSX file share them.
pub(super) fn header(enriched: bool) -> Vec<&'static str> {
    let mut header: Vec<&str> = CSV_COLUMNS.to_vec();
    if enriched {
        header.extend(CONTACT_COLUMNS);
    }
    header.extend(PLACE_COLUMNS);
    header
}

/// One cell of a lead's row: its text (the CSV's), and its number when the column is a
/// figure (rating, reviews), for a file format that types cells.
pub(super) struct Cell<'a> {
    /// As the CSV writes it (before the formula guard).
    pub text: Cow<'a, str>,
    /// The figure, in a numeric column with a value.
    pub number: Option<f64>,
}

impl<'a> Cell<'a> {
    fn text(text: impl Into<Cow<'a, str>>) -> Self {
        Self {
            text: text.into(),
            number: None,
        }
    }
}

/// A lead's cells, in [`header`]'s order.
pub(super) fn row(lead: &Lead, enriched: bool) -> Vec<Cell<'_>> {
    let mut row = vec![
        Cell::text(lead.name.as_str()),
        Cell::text(lead.address.as_str()),
        Cell::text(lead.phone.as_str()),
        Cell::text(lead.website.as_str()),
        Cell {
            text: lead.rating.map_or(Cow::Borrowed(""), |r| Cow::Owned(r.to_string())),
            number: lead.rating,
        },
        Cell {
            text: lead
                .review_count
                .map_or(Cow::Borrowed(""), |n| Cow::Owned(n.to_string())),
            number: lead.review_count.map(f64::from),
        },
    ];
    if enriched {
        row.extend(contact_cells(lead.contacts.as_ref()).into_iter().map(Cell::text));
    }
    row.extend(
        [
            &lead.category,
            &lead.street,
            &lead.city,
            &lead.state,
            &lead.postal_code,
            &lead.place_id,
        ]
        .map(|s| Cell::text(s.as_str())),
    );
    row
}

/// The CSV file of `leads`: a UTF-8 byte-order mark (spreadsheet programs then read
/// accented names right), a header row, one row per lead; every value quoted, rows
/// separated by CRLF (RFC 4180), no line break after the last.
pub fn leads_csv(leads: &[Lead], enriched: bool) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::from("\u{feff}".as_bytes()));
    write_row(&mut writer, header(enriched).into_iter().map(Cow::Borrowed));
    for lead in leads {
        write_row(&mut writer, row(lead, enriched).into_iter().map(|cell| cell.text));
    }
    let mut bytes = writer
        .into_inner()
        .unwrap_or_else(|_| unreachable!("writing to memory cannot fail"));
    if bytes.ends_with(b"\r\n") {
        bytes.truncate(bytes.len() - 2);
    }
    bytes
}

fn write_row<'a>(writer: &mut csv::Writer<Vec<u8>>, cells: impl Iterator<Item = Cow<'a, str>>) {
    let cells: Vec<Cow<'_, str>> = cells.map(|cell| spreadsheet_cell(&cell).into_owned().into()).collect();
    writer
        .write_record(cells.iter().map(|c| c.as_bytes()))
        .unwrap_or_else(|_| unreachable!("writing to memory cannot fail"));
}

/// The cells of [`CONTACT_COLUMNS`]: the Sheets export's contact cells (emails, one
/// profile per network), then how reading the website went.
fn contact_cells(contacts: Option<&Contacts>) -> Vec<String> {
    let Some(contacts) = contacts else {
        return vec![String::new(); CONTACT_COLUMNS.len()];
    };
    let mut cells = crate::sheets::enriched_cells(contacts).to_vec();
    cells.push(read_status_words(contacts));
    cells
}

/// "Found", "None found", "No website", "Not read: timed out" (the web app's words).
fn read_status_words(contacts: &Contacts) -> String {
    match contacts.status {
        ReadStatus::Found => "Found".into(),
        ReadStatus::None => "None found".into(),
        ReadStatus::NoWebsite => "No website".into(),
        ReadStatus::NotRead => {
            let why = match contacts.reason {
                Some(NotRead::TimedOut) => "timed out",
                Some(NotRead::RobotsTxt) => "its robots.txt does not allow it",
                Some(NotRead::RefusedAddress) => "its address is not allowed",
                Some(NotRead::SiteDown) => "site down",
                Some(NotRead::NotAWebAddress) => "not a web address",
                Some(NotRead::NotReachedInTime) => "not reached in time",
                None => "unknown reason",
            };
            format!("Not read: {why}")
        }
    }
}

/// The text a spreadsheet cell holds for `text`: the text itself or, when a spreadsheet
/// would run it as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a carriage
/// return: OWASP's CSV injection), the text after a single quote. Plain numbers and
/// phone numbers are left alone: they cannot call a function.
pub fn spreadsheet_cell(text: &str) -> Cow<'_, str> {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if !formula || is_plain_number(text) || is_phone_number(text) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("'{text}"))
    }
}

/// `-3` or `4.5`.
fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = match digits.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (digits, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    all_digits(whole) && fraction.is_none_or(all_digits)
}

/// An optional leading `+`, then digits, spaces, `( ) . -`, at least 7 digits, not
/// starting with `-`.
fn is_phone_number(text: &str) -> bool {
    let rest = text.strip_prefix('+').unwrap_or(text);
    !text.is_empty()
        && !text.starts_with('-')
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace() || matches!(c, '(' | ')' | '.' | '-'))
        && text.chars().filter(char::is_ascii_digit).count() >= 7
}

/// Lower-case ASCII words joined by hyphens, for a file name (`Houston, TX` ->
/// `houston-tx`, `Café Zürich` -> `cafe-zurich`), at most 60 characters.
pub fn file_slug(text: &str) -> String {
    let plain: String = text
        .nfkd()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .collect::<String>()
        .to_lowercase();
    let mut slug = String::new();
    for c in plain.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches('-');
    let cut: String = slug.chars().take(60).collect();
    cut.trim_end_matches('-').to_owned()
}

/// `leads-{businessType}-{location}-{timestamp}.csv`, as the web app names a download.
pub fn file_name(business_type: &str, location: &str, at: DateTime<Utc>) -> String {
    file_name_with(business_type, location, at, "csv")
}

/// [`file_name`] with another extension (`xlsx`, `json`): a server export is named like
/// the web app's download of the same search.
pub fn file_name_with(business_type: &str, location: &str, at: DateTime<Utc>, extension: &str) -> String {
    let timestamp = at.format("%Y-%m-%dT%H-%M-%S").to_string();
    let parts = [
        "leads".to_owned(),
        file_slug(business_type),
        file_slug(location),
        timestamp,
    ];
    let parts: Vec<&str> = parts.iter().map(String::as_str).filter(|p| !p.is_empty()).collect();
    format!("{}.{extension}", parts.join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/fixtures/csv");

    fn fixture_leads() -> Vec<Lead> {
        let text = std::fs::read_to_string(format!("{FIXTURES}/leads.json")).expect("fixture leads");
        serde_json::from_str(&text).expect("fixture leads parse as the API's leads")
    }

    #[test]
    fn the_file_is_the_web_apps_byte_for_byte() {
        let leads = fixture_leads();
        for (enriched, name) in [(false, "leads.csv"), (true, "leads-enriched.csv")] {
            let expected = std::fs::read(format!("{FIXTURES}/{name}")).expect("fixture csv");
            let made = leads_csv(&leads, enriched);
            assert_eq!(
                String::from_utf8_lossy(&made),
                String::from_utf8_lossy(&expected),
                "{name} differs from the web app's"
            );
        }
    }

    #[test]
    fn formulas_become_text_and_numbers_and_phones_do_not() {
        assert_eq!(spreadsheet_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(spreadsheet_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(spreadsheet_cell("-2+3"), "'-2+3");
        assert_eq!(spreadsheet_cell("+1+1"), "'+1+1");
        assert_eq!(spreadsheet_cell("-3"), "-3");
        assert_eq!(spreadsheet_cell("+1 512-555-0100"), "+1 512-555-0100");
        assert_eq!(spreadsheet_cell("Joe's"), "Joe's");
    }

    #[test]
    fn file_names_say_the_type_the_place_and_the_time() {
        let at = DateTime::parse_from_rfc3339("2026-11-26T13:45:00Z")
            .expect("time")
            .with_timezone(&Utc);
        assert_eq!(
            file_name("real_estate_agency", "Café Zürich", at),
            "leads-real-estate-agency-cafe-zurich-2026-11-26T13-45-00.csv"
        );
        assert_eq!(file_name("dentist", "", at), "leads-dentist-2026-11-26T13-45-00.csv");
    }
}
