//! Spreadsheet ids and A1 ranges, as Google spells them.

/// The id in a spreadsheet URL (`https://docs.google.com/spreadsheets/d/{id}/edit#gid=0`)
/// or a bare id; `None` when neither. Ids are 20 to 100 of `[A-Za-z0-9_-]` (Google's are
/// 44), which also keeps them safe to put in a URL path.
pub fn spreadsheet_id(input: &str) -> Option<String> {
    let input = input.trim();
    let candidate = match input.find("/spreadsheets/") {
        // `/spreadsheets/d/{id}`, or `/spreadsheets/u/{n}/d/{id}` for a second account.
        Some(at) => {
            let rest = &input[at + "/spreadsheets/".len()..];
            let after_d = rest.find("d/").filter(|i| *i == 0 || rest[..*i].ends_with('/'))?;
            rest[after_d + 2..].split(['/', '?', '#']).next().unwrap_or_default()
        }
        None if input.contains('/') => return None,
        None => input,
    };
    is_spreadsheet_id(candidate).then(|| candidate.to_owned())
}

/// Whether `id` has the shape of a spreadsheet id.
pub fn is_spreadsheet_id(id: &str) -> bool {
    (20..=100).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A range naming a whole tab: the title quoted, with inner quotes doubled (`'Bob''s'`),
/// so spaces, `!` and digits in titles cannot be misread as cell references.
pub fn whole_tab(title: &str) -> String {
    format!("'{}'", title.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms";

    #[test]
    fn reads_ids_from_urls_and_bare_ids() {
        assert_eq!(spreadsheet_id(ID).as_deref(), Some(ID));
        assert_eq!(
            spreadsheet_id(&format!("https://docs.google.com/spreadsheets/d/{ID}/edit#gid=0")).as_deref(),
            Some(ID)
        );
        assert_eq!(
            spreadsheet_id(&format!(" https://docs.google.com/spreadsheets/d/{ID}?usp=sharing ")).as_deref(),
            Some(ID)
        );
        assert_eq!(
            spreadsheet_id(&format!("https://docs.google.com/spreadsheets/u/1/d/{ID}/")).as_deref(),
            Some(ID)
        );
    }

    #[test]
    fn refuses_what_is_not_an_id() {
        assert_eq!(spreadsheet_id(""), None);
        assert_eq!(spreadsheet_id("short"), None);
        assert_eq!(spreadsheet_id("https://example.com/some/path"), None);
        assert_eq!(spreadsheet_id(&format!("{ID}/../x")), None);
        assert_eq!(spreadsheet_id("1BxiMVs0XRA5nFMdKvBdBZjgm UUqptlbs74OgvE2upms"), None);
        assert_eq!(spreadsheet_id("https://docs.google.com/spreadsheets/d//edit"), None);
    }

    #[test]
    fn quotes_tab_titles() {
        assert_eq!(whole_tab("Sheet1"), "'Sheet1'");
        assert_eq!(whole_tab("Bob's leads"), "'Bob''s leads'");
    }
}
