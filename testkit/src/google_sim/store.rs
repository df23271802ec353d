//! Spreadsheets as the fake keeps them: tabs of string cells (what Sheets would display),
//! an owner, the identities they are shared with, and which identities the app may see
//! them for under the `drive.file` scope.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use serde_json::{Value, json};

use super::{
    a1::{self, Cells, Rect, Target},
    errors::ApiError,
    ids,
};

/// Drive's MIME type of a Google Sheets spreadsheet.
pub const SPREADSHEET_MIME_TYPE: &str = "application/vnd.google-apps.spreadsheet";
/// Rows of a new tab, as Google creates them.
pub(crate) const DEFAULT_ROWS: u32 = 1000;
/// Columns of a new tab (`A` to `Z`).
pub(crate) const DEFAULT_COLUMNS: u32 = 26;
/// Google's limit on cells per spreadsheet, over all tabs.
pub(crate) const MAX_CELLS: u64 = 10_000_000;

/// One tab as a test sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabSnapshot {
    /// The tab's name.
    pub title: String,
    /// `sheetId` (0 for the first tab of a new spreadsheet).
    pub sheet_id: i64,
    /// Cells as displayed, row by row; trailing empty cells and rows left out.
    pub rows: Vec<Vec<String>>,
}

/// A spreadsheet as a test sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpreadsheetSnapshot {
    /// `spreadsheetId`.
    pub id: String,
    /// The spreadsheet's title.
    pub title: String,
    /// The identity that owns it.
    pub owner: String,
    /// Identities it is shared with (besides the owner).
    pub shared_with: Vec<String>,
    /// Whether it was created through `POST /v4/spreadsheets` (so the app may list it with
    /// `drive.file`), rather than by [`GoogleSim::create_spreadsheet`](super::GoogleSim::create_spreadsheet).
    pub created_by_app: bool,
    /// Tabs in order.
    pub tabs: Vec<TabSnapshot>,
    /// Rows sent by each `values.append` call, in order.
    pub append_sizes: Vec<usize>,
}

/// One tab.
#[derive(Debug, Clone)]
pub(crate) struct Tab {
    pub sheet_id: i64,
    pub title: String,
    pub row_count: u32,
    pub column_count: u32,
    pub frozen_rows: u32,
    pub frozen_columns: u32,
    cells: Vec<Vec<String>>,
}

impl Tab {
    pub(crate) fn new(sheet_id: i64, title: &str) -> Self {
        Self {
            sheet_id,
            title: title.to_owned(),
            row_count: DEFAULT_ROWS,
            column_count: DEFAULT_COLUMNS,
            frozen_rows: 0,
            frozen_columns: 0,
            cells: Vec::new(),
        }
    }

    /// `SheetProperties` at position `index`.
    pub(crate) fn properties(&self, index: usize) -> Value {
        let mut grid = json!({ "rowCount": self.row_count, "columnCount": self.column_count });
        if self.frozen_rows > 0 {
            grid["frozenRowCount"] = json!(self.frozen_rows);
        }
        if self.frozen_columns > 0 {
            grid["frozenColumnCount"] = json!(self.frozen_columns);
        }
        json!({
            "sheetId": self.sheet_id,
            "title": self.title,
            "index": index,
            "sheetType": "GRID",
            "gridProperties": grid,
        })
    }

    /// The whole grid of cells.
    pub(crate) fn whole(&self) -> Rect {
        Rect {
            top: 0,
            left: 0,
            bottom: self.row_count.saturating_sub(1),
            right: self.column_count.saturating_sub(1),
        }
    }

    pub(crate) fn cell_count(&self) -> u64 {
        u64::from(self.row_count) * u64::from(self.column_count)
    }

    /// All cells, trimmed.
    pub(crate) fn rows(&self) -> Vec<Vec<String>> {
        trim(self.cells.clone())
    }

    /// The cells of `rect`, trimmed of trailing empty cells and rows as Google answers.
    pub(crate) fn read(&self, rect: Rect) -> Vec<Vec<String>> {
        let height = (rect.bottom.saturating_sub(rect.top) + 1) as usize;
        let width = (rect.right.saturating_sub(rect.left) + 1) as usize;
        let rows = self
            .cells
            .iter()
            .skip(rect.top as usize)
            .take(height)
            .map(|row| row.iter().skip(rect.left as usize).take(width).cloned().collect())
            .collect();
        trim(rows)
    }

    /// The "table" an append at `top`, `left` (bounded by `right` when the range names a
    /// last column) continues: the rows from the first to the last that hold data in
    /// those columns. `None` when there is no data there.
    pub(crate) fn table(&self, top: u32, left: u32, right: Option<u32>) -> Option<Rect> {
        let mut found: Option<Rect> = None;
        for (r, row) in self.cells.iter().enumerate().skip(top as usize) {
            let last_filled = row
                .iter()
                .enumerate()
                .skip(left as usize)
                .take_while(|(c, _)| right.is_none_or(|right| *c <= right as usize))
                .filter(|(_, v)| !v.is_empty())
                .map(|(c, _)| c as u32)
                .max();
            if let Some(c) = last_filled {
                let r = r as u32;
                found = Some(match found {
                    None => Rect {
                        top: r,
                        left,
                        bottom: r,
                        right: c,
                    },
                    Some(t) => Rect {
                        bottom: r,
                        right: t.right.max(c),
                        ..t
                    },
                });
            }
        }
        found
    }

    /// Inserts `n` empty rows before row `at`, moving the rows from there down.
    pub(crate) fn insert_rows(&mut self, at: u32, n: u32) {
        let at = at as usize;
        if at < self.cells.len() {
            self.cells.splice(at..at, std::iter::repeat_n(Vec::new(), n as usize));
        }
        self.row_count += n;
    }

    /// Writes `rows` with their top-left cell at (`top`, `left`), growing the grid as
    /// Sheets does for writes past its edge.
    pub(crate) fn write(&mut self, top: u32, left: u32, rows: &[Vec<String>]) {
        for (i, values) in rows.iter().enumerate() {
            let r = top as usize + i;
            if self.cells.len() <= r {
                self.cells.resize(r + 1, Vec::new());
            }
            let row = &mut self.cells[r];
            for (j, value) in values.iter().enumerate() {
                let c = left as usize + j;
                if row.len() <= c {
                    row.resize(c + 1, String::new());
                }
                row[c] = value.clone();
            }
        }
        let width = rows.iter().map(Vec::len).max().unwrap_or(0) as u32;
        self.row_count = self.row_count.max(top + rows.len() as u32);
        self.column_count = self.column_count.max(left + width);
    }

    fn snapshot(&self) -> TabSnapshot {
        TabSnapshot {
            title: self.title.clone(),
            sheet_id: self.sheet_id,
            rows: self.rows(),
        }
    }
}

/// Drops trailing empty cells of each row, then trailing empty rows.
fn trim(mut rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
    for row in &mut rows {
        while row.last().is_some_and(String::is_empty) {
            row.pop();
        }
    }
    while rows.last().is_some_and(Vec::is_empty) {
        rows.pop();
    }
    rows
}

/// One spreadsheet.
#[derive(Debug, Clone)]
pub(crate) struct Spreadsheet {
    pub id: String,
    pub title: String,
    pub locale: String,
    pub time_zone: String,
    pub owner: String,
    pub shared_with: BTreeSet<String>,
    pub created_by_app: bool,
    pub opened_with_app: BTreeSet<String>,
    pub tabs: Vec<Tab>,
    pub created_ms: u64,
    pub modified_ms: u64,
    pub append_sizes: Vec<usize>,
}

impl Spreadsheet {
    /// A spreadsheet with a new id; `tabs` empty means one tab `Sheet1`, as Google does.
    pub(crate) fn new(owner: &str, title: &str, tabs: Vec<Tab>, created_by_app: bool, now_ms: u64) -> Self {
        let tabs = if tabs.is_empty() {
            vec![Tab::new(0, "Sheet1")]
        } else {
            tabs
        };
        Self {
            id: ids::spreadsheet_id(),
            title: title.to_owned(),
            locale: "en_US".to_owned(),
            time_zone: "Etc/GMT".to_owned(),
            owner: owner.to_owned(),
            shared_with: BTreeSet::new(),
            created_by_app,
            opened_with_app: BTreeSet::new(),
            tabs,
            created_ms: now_ms,
            modified_ms: now_ms,
            append_sizes: Vec::new(),
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("https://docs.google.com/spreadsheets/d/{}/edit", self.id)
    }

    /// The `Spreadsheet` resource (without grid data).
    pub(crate) fn resource(&self) -> Value {
        let sheets: Vec<Value> = self
            .tabs
            .iter()
            .enumerate()
            .map(|(i, tab)| json!({ "properties": tab.properties(i) }))
            .collect();
        json!({
            "spreadsheetId": self.id,
            "properties": {
                "title": self.title,
                "locale": self.locale,
                "autoRecalc": "ON_CHANGE",
                "timeZone": self.time_zone,
                "defaultFormat": {
                    "backgroundColor": { "red": 1, "green": 1, "blue": 1 },
                    "padding": { "top": 2, "right": 3, "bottom": 2, "left": 3 },
                    "verticalAlignment": "BOTTOM",
                    "wrapStrategy": "OVERFLOW_CELL",
                    "textFormat": {
                        "foregroundColor": {},
                        "fontFamily": "arial,sans,sans-serif",
                        "fontSize": 10,
                        "bold": false,
                        "italic": false,
                        "strikethrough": false,
                        "underline": false,
                    },
                },
            },
            "sheets": sheets,
            "spreadsheetUrl": self.url(),
        })
    }

    pub(crate) fn snapshot(&self) -> SpreadsheetSnapshot {
        SpreadsheetSnapshot {
            id: self.id.clone(),
            title: self.title.clone(),
            owner: self.owner.clone(),
            shared_with: self.shared_with.iter().cloned().collect(),
            created_by_app: self.created_by_app,
            tabs: self.tabs.iter().map(Tab::snapshot).collect(),
            append_sizes: self.append_sizes.clone(),
        }
    }

    /// Whether `identity` owns it or it is shared with them.
    pub(crate) fn can_access(&self, identity: &str) -> bool {
        self.owner == identity || self.shared_with.contains(identity)
    }

    /// Whether the app may use it on behalf of `identity` with only `drive.file`: the app
    /// created it for them, or they opened it with the app.
    pub(crate) fn used_by_app(&self, identity: &str) -> bool {
        (self.created_by_app && self.owner == identity) || self.opened_with_app.contains(identity)
    }

    /// A tab by name; Sheets matches names case-insensitively.
    pub(crate) fn tab_index(&self, name: &str) -> Option<usize> {
        self.tabs.iter().position(|t| t.title == name).or_else(|| {
            self.tabs
                .iter()
                .position(|t| t.title.to_lowercase() == name.to_lowercase())
        })
    }

    pub(crate) fn cell_count(&self) -> u64 {
        self.tabs.iter().map(Tab::cell_count).sum()
    }

    /// The tab and cells an A1 range names, or Google's "Unable to parse range".
    pub(crate) fn resolve(&self, range: &str) -> Result<(usize, Option<Cells>), ApiError> {
        let unparseable = || ApiError::invalid_argument(format!("Unable to parse range: {range}"));
        match a1::parse(range).ok_or_else(unparseable)? {
            Target::Named { sheet, cells } => Ok((self.tab_index(&sheet).ok_or_else(unparseable)?, cells)),
            Target::Bare(text) => match self.tab_index(&text) {
                Some(index) => Ok((index, None)),
                None if self.tabs.is_empty() => Err(unparseable()),
                None => Ok((0, Some(a1::parse_cells(&text).ok_or_else(unparseable)?))),
            },
        }
    }
}

/// Every spreadsheet, in creation order.
#[derive(Debug, Default)]
pub(crate) struct Store {
    order: Vec<String>,
    by_id: HashMap<String, Spreadsheet>,
}

impl Store {
    pub(crate) fn insert(&mut self, sheet: Spreadsheet) -> String {
        let id = sheet.id.clone();
        self.order.push(id.clone());
        self.by_id.insert(id.clone(), sheet);
        id
    }

    pub(crate) fn get(&self, id: &str) -> Option<&Spreadsheet> {
        self.by_id.get(id)
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut Spreadsheet> {
        self.by_id.get_mut(id)
    }

    pub(crate) fn all(&self) -> impl Iterator<Item = &Spreadsheet> {
        self.order.iter().filter_map(|id| self.by_id.get(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| (*c).to_owned()).collect()
    }

    #[test]
    fn reads_trim_trailing_blanks_but_keep_leading_ones() {
        let mut tab = Tab::new(0, "T");
        tab.write(1, 1, &[row(&["a", "", ""]), row(&["", "b"])]);
        let whole = tab.whole();
        assert_eq!(tab.read(whole), vec![vec![], row(&["", "a"]), row(&["", "", "b"])]);
        assert_eq!(
            tab.read(Rect {
                top: 2,
                left: 2,
                bottom: 5,
                right: 5
            }),
            vec![row(&["b"])]
        );
        assert_eq!(
            tab.read(Rect {
                top: 0,
                left: 0,
                bottom: 1,
                right: 0
            }),
            Vec::<Vec<String>>::new()
        );
    }

    #[test]
    fn tables_span_the_filled_rows_within_the_columns() {
        let mut tab = Tab::new(0, "T");
        assert_eq!(tab.table(0, 0, None), None);
        tab.write(0, 0, &[row(&["h1", "h2"]), row(&["x", "y", "z"])]);
        tab.write(5, 5, &[row(&["far"])]);
        assert_eq!(
            tab.table(0, 0, Some(2)),
            Some(Rect {
                top: 0,
                left: 0,
                bottom: 1,
                right: 2
            })
        );
        assert_eq!(
            tab.table(0, 0, None),
            Some(Rect {
                top: 0,
                left: 0,
                bottom: 5,
                right: 5
            })
        );
        tab.insert_rows(1, 2);
        assert_eq!(tab.rows()[3], row(&["x", "y", "z"]));
        assert_eq!(tab.row_count, DEFAULT_ROWS + 2);
    }

    #[test]
    fn resolves_ranges_against_tabs() {
        let sheet = Spreadsheet::new("o", "S", vec![Tab::new(0, "Leads"), Tab::new(7, "My Tab")], true, 0);
        assert_eq!(sheet.resolve("leads").map(|r| r.0), Ok(0));
        assert_eq!(sheet.resolve("'my tab'!A1").map(|r| r.0), Ok(1));
        assert_eq!(sheet.resolve("B2:C3").map(|r| r.0), Ok(0));
        let err = sheet.resolve("Nope!A1").expect_err("unknown tab");
        assert_eq!(err.message(), "Unable to parse range: Nope!A1");
    }
}
