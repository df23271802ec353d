//! A1 notation as the Sheets API reads and writes it: `'My Tab'!A1:D3`, `Tab!A:D`,
//! `Tab!2:5`, `Tab` (the whole tab) and `A1:B2` (cells of the first tab). Names are quoted
//! with `'`, a quote inside doubled (`'It''s'`).

/// Sheets allows at most 18,278 columns (`ZZZ`), so a column is one to three letters.
const MAX_COLUMN_LETTERS: usize = 3;

/// What a range names before it is matched against a spreadsheet's tabs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// `Tab!cells`, `'Tab'!cells` or `'Tab'`: the tab is spelled out.
    Named { sheet: String, cells: Option<Cells> },
    /// Text without `!`: Google reads it as a tab's name if one matches, else as cells of
    /// the first tab.
    Bare(String),
}

/// One end of a range; either part may be missing (`A` is a column, `5` a row). 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CellRef {
    pub col: Option<u32>,
    pub row: Option<u32>,
}

/// `start` or `start:end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cells {
    pub start: CellRef,
    pub end: Option<CellRef>,
}

/// A rectangle of cells, bounds included, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rect {
    pub top: u32,
    pub left: u32,
    pub bottom: u32,
    pub right: u32,
}

impl Cells {
    /// The rectangle these cells cover on a grid of `rows` by `cols`: open ends (`A:D`,
    /// `A5:D`, `3:4`) reach the grid's edge.
    pub(crate) fn rect(&self, rows: u32, cols: u32) -> Rect {
        let last_row = rows.saturating_sub(1);
        let last_col = cols.saturating_sub(1);
        let start = self.start;
        match self.end {
            None => {
                let (top, bottom) = start.row.map_or((0, last_row), |r| (r, r));
                let (left, right) = start.col.map_or((0, last_col), |c| (c, c));
                Rect {
                    top,
                    left,
                    bottom,
                    right,
                }
            }
            Some(end) => {
                let (top, bottom) = (start.row.unwrap_or(0), end.row.unwrap_or(last_row));
                let (left, right) = (start.col.unwrap_or(0), end.col.unwrap_or(last_col));
                Rect {
                    top: top.min(bottom),
                    left: left.min(right),
                    bottom: top.max(bottom),
                    right: left.max(right),
                }
            }
        }
    }

    /// The last column the range names explicitly (`D` of `A1:D5` or `A:D`), which bounds
    /// an append's table search; `None` when the range is open to the right.
    pub(crate) fn explicit_right(&self) -> Option<u32> {
        let end = self.end?;
        let right = end.col?;
        Some(self.start.col.map_or(right, |left| left.max(right)))
    }
}

/// Parses a range, or `None` when Google would answer "Unable to parse range".
pub(crate) fn parse(text: &str) -> Option<Target> {
    if let Some(rest) = text.strip_prefix('\'') {
        let (sheet, after) = split_quoted(rest)?;
        if sheet.is_empty() {
            return None;
        }
        if after.is_empty() {
            return Some(Target::Named { sheet, cells: None });
        }
        let cells = parse_cells(after.strip_prefix('!')?)?;
        return Some(Target::Named {
            sheet,
            cells: Some(cells),
        });
    }
    match text.split_once('!') {
        Some((sheet, cells)) if !sheet.is_empty() => Some(Target::Named {
            sheet: sheet.to_owned(),
            cells: Some(parse_cells(cells)?),
        }),
        Some(_) => None,
        None if text.is_empty() => None,
        None => Some(Target::Bare(text.to_owned())),
    }
}

/// The name inside quotes (with `''` undone) and the text after the closing quote.
fn split_quoted(rest: &str) -> Option<(String, &str)> {
    let mut name = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '\'' {
            name.push(c);
        } else if chars.peek().is_some_and(|&(_, next)| next == '\'') {
            chars.next();
            name.push('\'');
        } else {
            return Some((name, &rest[i + 1..]));
        }
    }
    None
}

/// `A1`, `A1:D5`, `A:D`, `2:5`, `A5:D`.
pub(crate) fn parse_cells(text: &str) -> Option<Cells> {
    let (start, end) = match text.split_once(':') {
        Some((start, end)) => (start, Some(end)),
        None => (text, None),
    };
    let end = match end {
        Some(end) => Some(parse_ref(end)?),
        None => None,
    };
    Some(Cells {
        start: parse_ref(start)?,
        end,
    })
}

fn parse_ref(text: &str) -> Option<CellRef> {
    let split = text.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (letters, digits) = text.split_at(split);
    if text.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let col = if letters.is_empty() {
        None
    } else {
        Some(column_index(letters)?)
    };
    let row = if digits.is_empty() {
        None
    } else {
        let n: u32 = digits.parse().ok()?;
        Some(n.checked_sub(1)?)
    };
    Some(CellRef { col, row })
}

fn column_index(letters: &str) -> Option<u32> {
    if letters.len() > MAX_COLUMN_LETTERS {
        return None;
    }
    let n = letters
        .bytes()
        .fold(0u32, |n, b| n * 26 + u32::from(b.to_ascii_uppercase() - b'A') + 1);
    n.checked_sub(1)
}

/// `0` is `A`, `25` is `Z`, `26` is `AA`.
pub(crate) fn column_name(col: u32) -> String {
    let mut n = col + 1;
    let mut letters = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        letters.push(char::from(b'A' + rem as u8));
        n = (n - 1) / 26;
    }
    letters.iter().rev().collect()
}

/// A tab's name as Google writes it in ranges: bare when it is a plain identifier that
/// cannot be mistaken for a cell, quoted otherwise.
pub(crate) fn sheet_ref(name: &str) -> String {
    if needs_quotes(name) {
        format!("'{}'", name.replace('\'', "''"))
    } else {
        name.to_owned()
    }
}

fn needs_quotes(name: &str) -> bool {
    let mut chars = name.chars();
    let plain = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => chars.all(|c| c.is_ascii_alphanumeric() || c == '_'),
        _ => false,
    };
    !plain || looks_like_cell(name)
}

/// `B12` or `R1C1`.
fn looks_like_cell(name: &str) -> bool {
    let a1 = parse_ref(name).is_some_and(|r| r.col.is_some() && r.row.is_some());
    let upper = name.to_ascii_uppercase();
    let r1c1 = upper
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .is_some_and(|(r, c)| {
            !r.is_empty()
                && !c.is_empty()
                && r.bytes().all(|b| b.is_ascii_digit())
                && c.bytes().all(|b| b.is_ascii_digit())
        });
    a1 || r1c1
}

/// `'My Tab'!A2:D3`, or `'My Tab'!A2` for a single cell.
pub(crate) fn format_range(sheet: &str, rect: Rect) -> String {
    let start = format!("{}{}", column_name(rect.left), rect.top + 1);
    if rect.top == rect.bottom && rect.left == rect.right {
        format!("{}!{start}", sheet_ref(sheet))
    } else {
        let end = format!("{}{}", column_name(rect.right), rect.bottom + 1);
        format!("{}!{start}:{end}", sheet_ref(sheet))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(col: Option<u32>, row: Option<u32>) -> CellRef {
        CellRef { col, row }
    }

    #[test]
    fn parses_quoted_names_with_doubled_quotes() {
        assert_eq!(
            parse("'It''s a tab'!B2:C"),
            Some(Target::Named {
                sheet: "It's a tab".to_owned(),
                cells: Some(Cells {
                    start: cell(Some(1), Some(1)),
                    end: Some(cell(Some(2), None)),
                }),
            })
        );
        assert_eq!(
            parse("'My Tab'"),
            Some(Target::Named {
                sheet: "My Tab".to_owned(),
                cells: None
            })
        );
        assert_eq!(parse("'unterminated!A1"), None);
        assert_eq!(parse("'My Tab'A1"), None);
        assert_eq!(parse("Tab!"), None);
        assert_eq!(parse("!A1"), None);
        assert_eq!(parse("Tab!A0"), None);
        assert_eq!(parse("Tab!ABCD1"), None);
        assert_eq!(parse("Leads"), Some(Target::Bare("Leads".to_owned())));
    }

    #[test]
    fn open_ranges_reach_the_grid_edge() {
        let rect = |text: &str| parse_cells(text).expect(text).rect(1000, 26);
        assert_eq!(
            rect("A:D"),
            Rect {
                top: 0,
                left: 0,
                bottom: 999,
                right: 3
            }
        );
        assert_eq!(
            rect("A1"),
            Rect {
                top: 0,
                left: 0,
                bottom: 0,
                right: 0
            }
        );
        assert_eq!(
            rect("3:4"),
            Rect {
                top: 2,
                left: 0,
                bottom: 3,
                right: 25
            }
        );
        assert_eq!(
            rect("D5:B2"),
            Rect {
                top: 1,
                left: 1,
                bottom: 4,
                right: 3
            }
        );
        assert_eq!(parse_cells("A:D").and_then(|c| c.explicit_right()), Some(3));
        assert_eq!(parse_cells("A1").and_then(|c| c.explicit_right()), None);
    }

    #[test]
    fn columns_round_trip() {
        for (col, name) in [
            (0, "A"),
            (25, "Z"),
            (26, "AA"),
            (701, "ZZ"),
            (702, "AAA"),
            (18_277, "ZZZ"),
        ] {
            assert_eq!(column_name(col), name);
            assert_eq!(column_index(name), Some(col));
        }
    }

    #[test]
    fn quotes_names_only_when_needed() {
        assert_eq!(sheet_ref("Sheet1"), "Sheet1");
        assert_eq!(sheet_ref("My Tab"), "'My Tab'");
        assert_eq!(sheet_ref("It's"), "'It''s'");
        assert_eq!(sheet_ref("B12"), "'B12'");
        assert_eq!(sheet_ref("r1c1"), "'r1c1'");
        assert_eq!(sheet_ref("2024"), "'2024'");
        assert_eq!(
            format_range(
                "My Tab",
                Rect {
                    top: 1,
                    left: 0,
                    bottom: 2,
                    right: 3
                }
            ),
            "'My Tab'!A2:D3"
        );
        assert_eq!(
            format_range(
                "T",
                Rect {
                    top: 4,
                    left: 2,
                    bottom: 4,
                    right: 2
                }
            ),
            "T!C5"
        );
    }
}
