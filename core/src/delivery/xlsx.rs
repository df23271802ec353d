//! A search's leads as an Excel workbook (issue #29 item 6): the CSV's columns
//! ([`super::csv`]), with figures as numbers, a bold header row that stays in view
//! (frozen pane, filter buttons), and columns wide enough to read.
//!
//! Formula guard: every text cell is written as a string cell, never a formula, so no
//! spreadsheet evaluates it on opening. Text that would run as a formula if typed (the
//! CSV's rule, [`spreadsheet_cell`]) also gets the "quote prefix" style: Excel's own
//! mark for text typed after a `'`, so editing the cell later keeps it text. The text
//! itself is kept exactly: a leading `'` would show in the cell, unlike in a CSV.

use rust_xlsxwriter::{Format, Workbook, XlsxError};

use super::csv::{header, row, spreadsheet_cell};
use crate::lead::Lead;

/// The sheet's name.
const SHEET: &str = "Leads";
/// Narrowest and widest column, in characters.
const WIDTH: (usize, usize) = (8, 60);

/// The workbook of `leads` (the bytes of an `.xlsx` file).
pub fn leads_xlsx(leads: &[Lead], enriched: bool) -> Result<Vec<u8>, XlsxError> {
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name(SHEET)?;
    let bold = Format::new().set_bold();
    let as_text = Format::new().set_quote_prefix();
    let columns = header(enriched);
    let mut widths: Vec<usize> = columns.iter().map(|c| c.chars().count() + 2).collect();
    for (col, name) in columns.iter().enumerate() {
        sheet.write_string_with_format(0, col as u16, *name, &bold)?;
    }
    for (index, lead) in leads.iter().enumerate() {
        let line = index as u32 + 1;
        for (col, cell) in row(lead, enriched).into_iter().enumerate() {
            let col16 = col as u16;
            if let Some(number) = cell.number {
                sheet.write_number(line, col16, number)?;
            } else if cell.text.is_empty() {
                continue;
            } else if spreadsheet_cell(&cell.text) != cell.text {
                sheet.write_string_with_format(line, col16, cell.text.as_ref(), &as_text)?;
            } else {
                sheet.write_string(line, col16, cell.text.as_ref())?;
            }
            widths[col] = widths[col].max(cell.text.chars().count() + 1);
        }
    }
    for (col, width) in widths.into_iter().enumerate() {
        sheet.set_column_width(col as u16, width.clamp(WIDTH.0, WIDTH.1) as f64)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    let last_col = columns.len().saturating_sub(1) as u16;
    sheet.autofilter(0, 0, leads.len() as u32, last_col)?;
    workbook.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn lead(name: &str, rating: Option<f64>, reviews: Option<u32>) -> Lead {
        Lead {
            name: name.into(),
            address: "1204 Oak St, Austin, TX 78701".into(),
            phone: "+1 512-555-0100".into(),
            website: "https://example.com".into(),
            place_id: "ChIJ-test".into(),
            rating,
            review_count: reviews,
            street: "1204 Oak St".into(),
            city: "Austin".into(),
            state: "TX".into(),
            postal_code: "78701".into(),
            category: "Cafe".into(),
            maps_url: String::new(),
            latitude: None,
            longitude: None,
            contacts: None,
        }
    }

    /// The text of one part of the workbook (it is a zip of XML parts).
    fn part(bytes: &[u8], name: &str) -> String {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("an xlsx is a zip");
        let mut text = String::new();
        archive
            .by_name(name)
            .unwrap_or_else(|_| panic!("{name} in the workbook"))
            .read_to_string(&mut text)
            .expect("utf-8 xml");
        text
    }

    /// The `<c r="B2" ...>...</c>` element of cell `at` in the sheet's XML.
    fn cell<'a>(sheet: &'a str, at: &str) -> &'a str {
        let start = sheet
            .find(&format!("<c r=\"{at}\""))
            .unwrap_or_else(|| panic!("cell {at} in {sheet}"));
        let rest = &sheet[start..];
        let end = rest
            .find("</c>")
            .map(|e| e + 4)
            .or_else(|| rest.find("/>").map(|e| e + 2))
            .expect("cell end");
        &rest[..end]
    }

    fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
        let key = format!(" {name}=\"");
        let start = element.find(&key)? + key.len();
        Some(&element[start..start + element[start..].find('"')?])
    }

    /// The shared string at `index`.
    fn shared_string(strings: &str, index: usize) -> String {
        strings
            .split("<si>")
            .skip(1)
            .nth(index)
            .and_then(|si| {
                let t = si.find("<t")?;
                let open = si[t..].find('>')? + t + 1;
                let close = si.find("</t>")?;
                Some(si[open..close].to_owned())
            })
            .expect("a shared string")
    }

    #[test]
    fn figures_are_numbers_text_is_strings_and_the_header_stays_in_view() {
        let leads = vec![
            lead("=HYPERLINK(\"http://evil.example\",\"x\")", Some(4.5), Some(120)),
            lead("Plain Cafe", None, None),
        ];
        let bytes = leads_xlsx(&leads, false).expect("a workbook");
        let sheet = part(&bytes, "xl/worksheets/sheet1.xml");
        let strings = part(&bytes, "xl/sharedStrings.xml");
        let styles = part(&bytes, "xl/styles.xml");

        // Rating (E) and Reviews (F) are numbers: no t="s", the value itself.
        let rating = cell(&sheet, "E2");
        assert_eq!(attribute(rating, "t"), None, "{rating}");
        assert!(rating.contains("<v>4.5</v>"), "{rating}");
        let reviews = cell(&sheet, "F2");
        assert_eq!(attribute(reviews, "t"), None, "{reviews}");
        assert!(reviews.contains("<v>120</v>"), "{reviews}");
        // A lead without a rating has no rating cell at all (not a 0, not text).
        assert!(!sheet.contains("<c r=\"E3\""), "{sheet}");

        // The formula-looking name is a string cell holding the exact text, never a
        // formula, and styled with the quote prefix.
        let name = cell(&sheet, "A2");
        assert_eq!(attribute(name, "t"), Some("s"), "{name}");
        assert!(!sheet.contains("<f>"), "no formula anywhere: {sheet}");
        let index: usize = name
            .split("<v>")
            .nth(1)
            .and_then(|v| v.split('<').next())
            .and_then(|v| v.parse().ok())
            .expect("a shared string index");
        assert_eq!(
            shared_string(&strings, index),
            "=HYPERLINK(\"http://evil.example\",\"x\")"
        );
        let style: usize = attribute(name, "s").and_then(|s| s.parse().ok()).expect("a style");
        let xfs = styles.split("<cellXfs").nth(1).expect("cellXfs");
        let xf = xfs.split("<xf ").nth(style + 1).expect("the cell's style");
        assert!(xf.contains("quotePrefix=\"1\""), "{xf}");
        // A plain name has no quote prefix.
        let plain_style: usize = attribute(cell(&sheet, "A3"), "s")
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let plain_xf = xfs.split("<xf ").nth(plain_style + 1).expect("a style");
        assert!(!plain_xf.contains("quotePrefix"), "{plain_xf}");
        // The phone keeps its leading + as plain text (the CSV's rule).
        let phone = cell(&sheet, "C2");
        assert_eq!(attribute(phone, "t"), Some("s"), "{phone}");
        assert_eq!(attribute(phone, "s"), None, "{phone}");

        // The header row is frozen, with filter buttons, and columns have widths.
        assert!(
            sheet.contains("<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"),
            "{sheet}"
        );
        assert!(sheet.contains("<autoFilter ref=\"A1:L3\"/>"), "{sheet}");
        assert!(sheet.contains("<cols>"), "{sheet}");
        assert_eq!(shared_string(&strings, 0), "Name");
        let workbook = part(&bytes, "xl/workbook.xml");
        assert!(workbook.contains("name=\"Leads\""), "{workbook}");
    }

    #[test]
    fn an_enriched_search_has_the_contact_columns() {
        let bytes = leads_xlsx(&[lead("Cafe", Some(4.0), Some(3))], true).expect("a workbook");
        let sheet = part(&bytes, "xl/worksheets/sheet1.xml");
        // 6 + 8 + 6 columns: A..T.
        assert!(sheet.contains("<autoFilter ref=\"A1:T2\"/>"), "{sheet}");
    }
}
