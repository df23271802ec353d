//! The Sheets v4 methods on the store: `spreadsheets.create`, `spreadsheets.batchUpdate`
//! (`addSheet`), `spreadsheets.values.append` and `spreadsheets.values.get`. Bodies are
//! read as strictly as Google reads them: unknown fields and wrong JSON types are 400s,
//! so a client typo fails here as it would against Google.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{
    a1::{self, Rect},
    errors::ApiError,
    ids,
    store::{DEFAULT_COLUMNS, DEFAULT_ROWS, MAX_CELLS, Spreadsheet, Tab},
};

const SPREADSHEET_FIELDS: &[&str] = &[
    "spreadsheetId",
    "properties",
    "sheets",
    "namedRanges",
    "spreadsheetUrl",
    "developerMetadata",
    "dataSources",
    "dataSourceSchedules",
];
const SPREADSHEET_PROPERTIES: &[&str] = &[
    "title",
    "locale",
    "autoRecalc",
    "timeZone",
    "defaultFormat",
    "iterativeCalculationSettings",
    "spreadsheetTheme",
    "importFunctionsExternalUrlAccessAllowed",
];
const SHEET_FIELDS: &[&str] = &[
    "properties",
    "data",
    "merges",
    "conditionalFormats",
    "filterViews",
    "protectedRanges",
    "basicFilter",
    "charts",
    "bandedRanges",
    "developerMetadata",
    "rowGroups",
    "columnGroups",
    "slicers",
    "tables",
];
const SHEET_PROPERTIES: &[&str] = &[
    "sheetId",
    "title",
    "index",
    "sheetType",
    "gridProperties",
    "hidden",
    "tabColor",
    "tabColorStyle",
    "rightToLeft",
    "dataSourceSheetProperties",
];
const GRID_PROPERTIES: &[&str] = &[
    "rowCount",
    "columnCount",
    "frozenRowCount",
    "frozenColumnCount",
    "hideGridlines",
    "rowGroupControlAfter",
    "columnGroupControlAfter",
];
const BATCH_UPDATE_FIELDS: &[&str] = &[
    "requests",
    "includeSpreadsheetInResponse",
    "responseRanges",
    "responseIncludeGridData",
];
const VALUE_RANGE_FIELDS: &[&str] = &["range", "majorDimension", "values"];

/// Every kind of `Request` Sheets knows; only `addSheet` is implemented, the others are
/// refused with a message that says so (an unknown name is a JSON error, as at Google).
const REQUEST_KINDS: &[&str] = &[
    "updateSpreadsheetProperties",
    "updateSheetProperties",
    "updateDimensionProperties",
    "updateNamedRange",
    "repeatCell",
    "addNamedRange",
    "deleteNamedRange",
    "addSheet",
    "deleteSheet",
    "autoFill",
    "cutPaste",
    "copyPaste",
    "mergeCells",
    "unmergeCells",
    "updateBorders",
    "updateCells",
    "addFilterView",
    "appendCells",
    "clearBasicFilter",
    "deleteDimension",
    "deleteEmbeddedObject",
    "deleteFilterView",
    "duplicateFilterView",
    "duplicateSheet",
    "findReplace",
    "insertDimension",
    "insertRange",
    "moveDimension",
    "updateEmbeddedObjectPosition",
    "pasteData",
    "textToColumns",
    "updateFilterView",
    "deleteRange",
    "appendDimension",
    "addConditionalFormatRule",
    "updateConditionalFormatRule",
    "deleteConditionalFormatRule",
    "sortRange",
    "setDataValidation",
    "setBasicFilter",
    "addProtectedRange",
    "updateProtectedRange",
    "deleteProtectedRange",
    "autoResizeDimensions",
    "addChart",
    "updateChartSpec",
    "updateBanding",
    "addBanding",
    "deleteBanding",
    "createDeveloperMetadata",
    "updateDeveloperMetadata",
    "deleteDeveloperMetadata",
    "randomizeRange",
    "addDimensionGroup",
    "deleteDimensionGroup",
    "updateDimensionGroup",
    "trimWhitespace",
    "deleteDuplicates",
    "updateEmbeddedObjectBorder",
    "addSlicer",
    "updateSlicerSpec",
    "addDataSource",
    "updateDataSource",
    "deleteDataSource",
    "refreshDataSource",
    "cancelDataSourceRefresh",
    "addTable",
    "updateTable",
    "deleteTable",
];

/// `POST /v4/spreadsheets`: a new spreadsheet owned by `owner`, made by the app.
pub(crate) fn create(owner: &str, body: &Value, now_ms: u64) -> Result<Spreadsheet, ApiError> {
    let empty = Map::new();
    let spreadsheet = object(body, "")?.unwrap_or(&empty);
    check_fields(spreadsheet, SPREADSHEET_FIELDS, "")?;
    let properties = object_field(spreadsheet, "properties", "properties")?.unwrap_or(&empty);
    check_fields(properties, SPREADSHEET_PROPERTIES, "properties")?;
    let title =
        string_field(properties, "title", "properties.title")?.unwrap_or_else(|| "Untitled spreadsheet".to_owned());

    let mut tabs: Vec<Tab> = Vec::new();
    let sheets = match spreadsheet.get("sheets") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(sheets)) => sheets.clone(),
        Some(other) => {
            return Err(wrong_type(
                "sheets",
                "type.googleapis.com/google.apps.sheets.v4.Sheet",
                other,
            ));
        }
    };
    for (i, sheet) in sheets.iter().enumerate() {
        let at = format!("sheets[{i}]");
        let sheet = object(sheet, &at)?.unwrap_or(&empty);
        check_fields(sheet, SHEET_FIELDS, &at)?;
        let at = format!("{at}.properties");
        let props = object_field(sheet, "properties", &at)?.unwrap_or(&empty);
        let spec = TabSpec::read(props, &at)?;
        let context = format!("Invalid sheets[{i}].properties: ");
        let tab = spec.build(&tabs, i == 0, &context)?;
        tabs.push(tab);
    }

    let mut created = Spreadsheet::new(owner, &title, tabs, true, now_ms);
    if let Some(locale) = string_field(properties, "locale", "properties.locale")? {
        created.locale = locale;
    }
    if let Some(zone) = string_field(properties, "timeZone", "properties.time_zone")? {
        created.time_zone = zone;
    }
    if created.cell_count() > MAX_CELLS {
        return Err(too_many_cells());
    }
    Ok(created)
}

/// `POST /v4/spreadsheets/{id}:batchUpdate`: all requests apply, or none.
pub(crate) fn batch_update(sheet: &mut Spreadsheet, body: &Value, now_ms: u64) -> Result<Value, ApiError> {
    let empty = Map::new();
    let update = object(body, "")?.unwrap_or(&empty);
    check_fields(update, BATCH_UPDATE_FIELDS, "")?;
    let requests = match update.get("requests") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(requests)) => requests.clone(),
        Some(other) => {
            return Err(wrong_type(
                "requests",
                "type.googleapis.com/google.apps.sheets.v4.Request",
                other,
            ));
        }
    };
    let mut work = sheet.clone();
    let mut replies = Vec::new();
    for (i, request) in requests.iter().enumerate() {
        let at = format!("requests[{i}]");
        let request = object(request, &at)?.unwrap_or(&empty);
        if let Some(unknown) = request.keys().find(|k| !REQUEST_KINDS.contains(&k.as_str())) {
            return Err(ApiError::unknown_field(unknown, &at));
        }
        let mut kinds = request.keys();
        let (Some(kind), None) = (kinds.next(), kinds.next()) else {
            return Err(match request.keys().nth(1) {
                Some(second) => {
                    ApiError::invalid_json(&format!("Oneof field 'kind' is already set. Cannot set '{second}'"))
                }
                None => ApiError::invalid_argument(format!("Invalid requests[{i}]: No request set.")),
            });
        };
        let reply = match kind.as_str() {
            "addSheet" => add_sheet(&mut work, &request[kind], i)?,
            other => {
                return Err(ApiError::invalid_argument(format!(
                    "Invalid requests[{i}].{other}: the Google fake (leadgen-testkit) only implements addSheet."
                )));
            }
        };
        replies.push(reply);
    }
    if !requests.is_empty() {
        work.modified_ms = now_ms;
    }
    *sheet = work;
    let mut response = json!({ "spreadsheetId": sheet.id });
    if !replies.is_empty() {
        response["replies"] = Value::Array(replies);
    }
    if update.get("includeSpreadsheetInResponse") == Some(&Value::Bool(true)) {
        response["updatedSpreadsheet"] = sheet.resource();
    }
    Ok(response)
}

fn add_sheet(work: &mut Spreadsheet, request: &Value, i: usize) -> Result<Value, ApiError> {
    let empty = Map::new();
    let at = format!("requests[{i}].add_sheet");
    let request = object(request, &at)?.unwrap_or(&empty);
    check_fields(request, &["properties"], &at)?;
    let at = format!("{at}.properties");
    let props = object_field(request, "properties", &at)?.unwrap_or(&empty);
    let spec = TabSpec::read(props, &at)?;
    let tab = spec.build(&work.tabs, false, &format!("Invalid requests[{i}].addSheet: "))?;
    if work.cell_count() + tab.cell_count() > MAX_CELLS {
        return Err(too_many_cells());
    }
    let index = spec.index.unwrap_or(work.tabs.len()).min(work.tabs.len());
    work.tabs.insert(index, tab);
    Ok(json!({ "addSheet": { "properties": work.tabs[index].properties(index) } }))
}

/// `SheetProperties` of a tab to add.
#[derive(Debug, Default)]
struct TabSpec {
    sheet_id: Option<i64>,
    title: Option<String>,
    index: Option<usize>,
    rows: Option<u32>,
    columns: Option<u32>,
    frozen_rows: Option<u32>,
    frozen_columns: Option<u32>,
}

impl TabSpec {
    fn read(props: &Map<String, Value>, at: &str) -> Result<Self, ApiError> {
        check_fields(props, SHEET_PROPERTIES, at)?;
        if let Some(kind) = string_field(props, "sheetType", &format!("{at}.sheet_type"))?
            && kind != "GRID"
        {
            return Err(ApiError::invalid_argument(format!(
                "Invalid {at}.sheet_type: the Google fake only makes GRID sheets, not {kind}."
            )));
        }
        let empty = Map::new();
        let grid_at = format!("{at}.grid_properties");
        let grid = object_field(props, "gridProperties", &grid_at)?.unwrap_or(&empty);
        check_fields(grid, GRID_PROPERTIES, &grid_at)?;
        let count = |name: &str, snake: &str| -> Result<Option<u32>, ApiError> {
            int_field(grid, name, &format!("{grid_at}.{snake}"))?
                .map(|n| u32::try_from(n).map_err(|_| out_of_range(&grid_at, snake, n)))
                .transpose()
        };
        Ok(Self {
            sheet_id: int_field(props, "sheetId", &format!("{at}.sheet_id"))?,
            title: string_field(props, "title", &format!("{at}.title"))?.filter(|t| !t.is_empty()),
            index: int_field(props, "index", &format!("{at}.index"))?
                .map(|n| usize::try_from(n).map_err(|_| out_of_range(at, "index", n)))
                .transpose()?,
            rows: count("rowCount", "row_count")?,
            columns: count("columnCount", "column_count")?,
            frozen_rows: count("frozenRowCount", "frozen_row_count")?,
            frozen_columns: count("frozenColumnCount", "frozen_column_count")?,
        })
    }

    /// The tab, given the tabs already there; `context` starts error messages.
    fn build(&self, existing: &[Tab], first: bool, context: &str) -> Result<Tab, ApiError> {
        let title = match &self.title {
            Some(title) => title.clone(),
            None => next_default_title(existing),
        };
        if existing.iter().any(|t| t.title.to_lowercase() == title.to_lowercase()) {
            return Err(ApiError::invalid_argument(format!(
                "{context}A sheet with the name \"{title}\" already exists. Please enter another name."
            )));
        }
        let sheet_id = match self.sheet_id {
            Some(id) if existing.iter().any(|t| t.sheet_id == id) => {
                return Err(ApiError::invalid_argument(format!(
                    "{context}A sheet with the id {id} already exists."
                )));
            }
            Some(id) if id < 0 => return Err(ApiError::invalid_argument(format!("{context}Invalid sheetId {id}."))),
            Some(id) => id,
            None if first && existing.is_empty() => 0,
            None => loop {
                let id = ids::sheet_id();
                if existing.iter().all(|t| t.sheet_id != id) {
                    break id;
                }
            },
        };
        let mut tab = Tab::new(sheet_id, &title);
        tab.row_count = self.rows.unwrap_or(DEFAULT_ROWS);
        tab.column_count = self.columns.unwrap_or(DEFAULT_COLUMNS);
        tab.frozen_rows = self.frozen_rows.unwrap_or(0);
        tab.frozen_columns = self.frozen_columns.unwrap_or(0);
        if tab.row_count == 0 || tab.column_count == 0 {
            return Err(ApiError::invalid_argument(format!(
                "{context}Sheets must have at least one row and one column."
            )));
        }
        Ok(tab)
    }
}

/// `SheetN` for the smallest free N from the tab count plus one, as Sheets names tabs.
fn next_default_title(existing: &[Tab]) -> String {
    (existing.len() + 1..)
        .map(|n| format!("Sheet{n}"))
        .find(|name| existing.iter().all(|t| t.title.to_lowercase() != name.to_lowercase()))
        .unwrap_or_else(|| "Sheet".to_owned())
}

/// `POST /v4/spreadsheets/{id}/values/{range}:append`.
pub(crate) fn append(
    sheet: &mut Spreadsheet,
    range: &str,
    params: &HashMap<String, String>,
    body: &Value,
    now_ms: u64,
) -> Result<Value, ApiError> {
    let user_entered = match params.get("valueInputOption").map(String::as_str) {
        None | Some("") => {
            return Err(ApiError::invalid_argument(
                "'valueInputOption' is required but not specified",
            ));
        }
        Some("RAW") => false,
        Some("USER_ENTERED") => true,
        Some(other) => return Err(bad_enum("value_input_option", "ValueInputOption", other)),
    };
    let insert_rows = match params.get("insertDataOption").map(String::as_str) {
        None | Some("") | Some("OVERWRITE") => false,
        Some("INSERT_ROWS") => true,
        Some(other) => return Err(bad_enum("insert_data_option", "InsertDataOption", other)),
    };
    let include_values = params.get("includeValuesInResponse").is_some_and(|v| v == "true");
    let rows = value_rows(body, user_entered)?;

    let (index, cells) = sheet.resolve(range)?;
    let others = sheet.cell_count() - sheet.tabs[index].cell_count();
    let tab = &sheet.tabs[index];
    let area = cells.map_or_else(|| tab.whole(), |c| c.rect(tab.row_count, tab.column_count));
    let right_bound = cells.and_then(|c| c.explicit_right());
    let table = tab.table(area.top, area.left, right_bound);
    let top = table.map_or(area.top, |t| t.bottom + 1);
    let height = rows.len() as u32;
    let width = rows.iter().map(Vec::len).max().unwrap_or(0) as u32;

    let table_range = table.map(|t| a1::format_range(&tab.title, t));
    let mut updates = json!({ "spreadsheetId": sheet.id });
    let tab = &mut sheet.tabs[index];
    if height > 0 && width > 0 {
        let new_rows = if insert_rows {
            tab.row_count + height
        } else {
            tab.row_count.max(top + height)
        };
        let new_columns = tab.column_count.max(area.left + width);
        if others + u64::from(new_rows) * u64::from(new_columns) > MAX_CELLS {
            return Err(too_many_cells());
        }
        if insert_rows {
            tab.insert_rows(top, height);
        }
        tab.write(top, area.left, &rows);
        let written = Rect {
            top,
            left: area.left,
            bottom: top + height - 1,
            right: area.left + width - 1,
        };
        let updated_range = a1::format_range(&tab.title, written);
        updates["updatedRange"] = json!(updated_range);
        updates["updatedRows"] = json!(height);
        updates["updatedColumns"] = json!(width);
        updates["updatedCells"] = json!(rows.iter().map(Vec::len).sum::<usize>());
        if include_values {
            updates["updatedData"] = json!({ "range": updated_range, "majorDimension": "ROWS", "values": rows });
        }
    }
    sheet.append_sizes.push(rows.len());
    sheet.modified_ms = now_ms;

    let mut response = json!({ "spreadsheetId": sheet.id, "updates": updates });
    if let Some(table_range) = table_range {
        response["tableRange"] = json!(table_range);
    }
    Ok(response)
}

/// The rows of a `ValueRange` body as Sheets would display them.
fn value_rows(body: &Value, user_entered: bool) -> Result<Vec<Vec<String>>, ApiError> {
    let empty = Map::new();
    let value_range = object(body, "")?.unwrap_or(&empty);
    check_fields(value_range, VALUE_RANGE_FIELDS, "")?;
    let columns = match string_field(value_range, "majorDimension", "major_dimension")?.as_deref() {
        None | Some("ROWS") | Some("DIMENSION_UNSPECIFIED") => false,
        Some("COLUMNS") => true,
        Some(other) => return Err(bad_enum("data.major_dimension", "Dimension", other)),
    };
    string_field(value_range, "range", "range")?;
    let raw: Vec<Vec<Value>> = match value_range.get("values") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(rows)) => rows
            .iter()
            .map(|row| match row {
                Value::Array(cells) => Ok(cells.clone()),
                Value::Null => Ok(Vec::new()),
                other => Err(wrong_type(
                    "values",
                    "type.googleapis.com/google.protobuf.ListValue",
                    other,
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(wrong_type(
                "values",
                "type.googleapis.com/google.protobuf.ListValue",
                other,
            ));
        }
    };
    let raw = if columns { transpose(&raw) } else { raw };
    raw.iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, cell)| display(cell, user_entered, i, j))
                .collect()
        })
        .collect()
}

/// How Sheets shows a JSON value: numbers without a needless `.0`, booleans as
/// `TRUE`/`FALSE`, and (for `USER_ENTERED`) a leading `'` hidden, as it forces text.
/// Formulas are kept as typed: the fake does not calculate.
fn display(cell: &Value, user_entered: bool, i: usize, j: usize) -> Result<String, ApiError> {
    Ok(match cell {
        Value::Null => String::new(),
        Value::Bool(true) => "TRUE".to_owned(),
        Value::Bool(false) => "FALSE".to_owned(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (None, Some(u), _) => u.to_string(),
            (None, None, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
            _ => n.to_string(),
        },
        Value::String(s) if user_entered => s.strip_prefix('\'').unwrap_or(s).to_owned(),
        Value::String(s) => s.clone(),
        Value::Array(_) => {
            return Err(ApiError::invalid_argument(format!(
                "Invalid values[{i}][{j}]: list_value {{\n}}"
            )));
        }
        Value::Object(_) => {
            return Err(ApiError::invalid_argument(format!(
                "Invalid values[{i}][{j}]: struct_value {{\n}}"
            )));
        }
    })
}

/// `GET /v4/spreadsheets/{id}/values/{range}`.
pub(crate) fn get_values(
    sheet: &Spreadsheet,
    range: &str,
    params: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    let columns = match params.get("majorDimension").map(String::as_str) {
        None | Some("") | Some("ROWS") | Some("DIMENSION_UNSPECIFIED") => false,
        Some("COLUMNS") => true,
        Some(other) => return Err(bad_enum("major_dimension", "Dimension", other)),
    };
    let (index, cells) = sheet.resolve(range)?;
    let tab = &sheet.tabs[index];
    let rect = cells.map_or_else(|| tab.whole(), |c| c.rect(tab.row_count, tab.column_count));
    if rect.bottom >= tab.row_count || rect.right >= tab.column_count {
        let cells = a1::format_range("x", rect);
        let cells = cells.trim_start_matches("x!");
        return Err(ApiError::invalid_argument(format!(
            "Range ('{}'!{cells}) exceeds grid limits. Max rows: {}, max columns: {}",
            tab.title.replace('\'', "''"),
            tab.row_count,
            tab.column_count
        )));
    }
    let rows = tab.read(rect);
    let rows = if columns { trim_rows(transpose(&rows)) } else { rows };
    let mut response = json!({
        "range": a1::format_range(&tab.title, rect),
        "majorDimension": if columns { "COLUMNS" } else { "ROWS" },
    });
    if !rows.is_empty() {
        response["values"] = json!(rows);
    }
    Ok(response)
}

fn transpose<T: Clone + Default>(rows: &[Vec<T>]) -> Vec<Vec<T>> {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..width)
        .map(|c| rows.iter().map(|r| r.get(c).cloned().unwrap_or_default()).collect())
        .collect()
}

fn trim_rows(mut rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
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

fn too_many_cells() -> ApiError {
    ApiError::invalid_argument(format!(
        "This action would increase the number of cells in the workbook above the limit of {MAX_CELLS} cells."
    ))
}

/// `value` as an object (`None` for null); `at` names it in errors.
fn object<'a>(value: &'a Value, at: &str) -> Result<Option<&'a Map<String, Value>>, ApiError> {
    match value {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        other => Err(ApiError::invalid_json(&format!(
            "Expected an object at '{}', got {other}.",
            if at.is_empty() { "(root)" } else { at }
        ))),
    }
}

fn object_field<'a>(
    map: &'a Map<String, Value>,
    name: &str,
    at: &str,
) -> Result<Option<&'a Map<String, Value>>, ApiError> {
    map.get(name).map_or(Ok(None), |v| object(v, at))
}

fn string_field(map: &Map<String, Value>, name: &str, at: &str) -> Result<Option<String>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(wrong_type(at, "TYPE_STRING", other)),
    }
}

/// An integer field; proto3 JSON also accepts integers written as strings.
fn int_field(map: &Map<String, Value>, name: &str, at: &str) -> Result<Option<i64>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_i64().is_some() => Ok(n.as_i64()),
        Some(Value::String(s)) if s.parse::<i64>().is_ok() => Ok(s.parse().ok()),
        Some(other) => Err(wrong_type(at, "TYPE_INT32", other)),
    }
}

fn wrong_type(at: &str, kind: &str, value: &Value) -> ApiError {
    ApiError::invalid_json(&format!("Invalid value at '{at}' ({kind}), {value}"))
}

fn out_of_range(at: &str, field: &str, n: i64) -> ApiError {
    ApiError::invalid_argument(format!("Invalid {at}.{field}: {n} is out of range."))
}

fn bad_enum(at: &str, kind: &str, value: &str) -> ApiError {
    ApiError::invalid_json(&format!(
        "Invalid value at '{at}' (type.googleapis.com/google.apps.sheets.v4.{kind}), \"{value}\""
    ))
}

/// Google refuses names a message does not have, naming where in proto spelling.
fn check_fields(map: &Map<String, Value>, allowed: &[&str], at: &str) -> Result<(), ApiError> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(unknown) => Err(ApiError::unknown_field(unknown, at)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn values_are_stored_as_displayed() {
        let body = json!({"values": [["'=1+1", 3, 1.5, 2.0, true, null, "plain"]]});
        assert_eq!(
            value_rows(&body, true).expect("valid"),
            vec![vec!["=1+1", "3", "1.5", "2", "TRUE", "", "plain"]]
        );
        assert_eq!(value_rows(&body, false).expect("valid")[0][0], "'=1+1");
        let nested = json!({"values": [[{"a": 1}]]});
        assert_eq!(
            value_rows(&nested, false).expect_err("object cell").message(),
            "Invalid values[0][0]: struct_value {\n}"
        );
        let columns = json!({"majorDimension": "COLUMNS", "values": [["a", "b"], ["c"]]});
        assert_eq!(
            value_rows(&columns, false).expect("valid"),
            vec![vec!["a", "c"], vec!["b", ""]]
        );
    }

    #[test]
    fn unknown_body_fields_are_refused_as_google_does() {
        let err = create("o", &json!({"properties": {"titel": "x"}}), 0).expect_err("typo");
        assert_eq!(
            err.message(),
            "Invalid JSON payload received. Unknown name \"titel\" at 'properties': Cannot find field."
        );
        let err = create("o", &json!({"properties": {"title": 5}}), 0).expect_err("wrong type");
        assert_eq!(
            err.message(),
            "Invalid JSON payload received. Invalid value at 'properties.title' (TYPE_STRING), 5"
        );
    }

    #[test]
    fn batch_updates_are_atomic() {
        let mut sheet = create("o", &json!({}), 0).expect("created");
        let body = json!({"requests": [{"addSheet": {"properties": {"title": "A"}}}, {"addSheet": {"properties": {"title": "a"}}}]});
        let err = batch_update(&mut sheet, &body, 1).expect_err("duplicate");
        assert_eq!(
            err.message(),
            "Invalid requests[1].addSheet: A sheet with the name \"a\" already exists. Please enter another name."
        );
        assert_eq!(sheet.tabs.len(), 1, "the first request was not applied either");
        let reply = batch_update(&mut sheet, &json!({"requests": [{"addSheet": {}}]}), 2).expect("auto title");
        assert_eq!(reply["replies"][0]["addSheet"]["properties"]["title"], "Sheet2");
        let err = batch_update(
            &mut sheet,
            &json!({"requests": [{"deleteSheet": {}, "addSheet": {}}]}),
            3,
        )
        .expect_err("two kinds");
        assert!(
            err.message().contains("Oneof field 'kind' is already set"),
            "{}",
            err.message()
        );
    }

    #[test]
    fn appends_need_a_value_input_option() {
        let mut sheet = create("o", &json!({}), 0).expect("created");
        let body = json!({"values": [["a"]]});
        let err = append(&mut sheet, "Sheet1", &params(&[]), &body, 1).expect_err("missing option");
        assert_eq!(err.message(), "'valueInputOption' is required but not specified");
        let err =
            append(&mut sheet, "Sheet1", &params(&[("valueInputOption", "RAWR")]), &body, 1).expect_err("bad option");
        assert!(err.message().contains("ValueInputOption"), "{}", err.message());
        assert!(sheet.append_sizes.is_empty());
    }

    #[test]
    fn gets_refuse_ranges_past_the_grid() {
        let sheet = create("o", &json!({}), 0).expect("created");
        let err = get_values(&sheet, "Sheet1!A1:AB10", &params(&[])).expect_err("past Z");
        assert_eq!(
            err.message(),
            "Range ('Sheet1'!A1:AB10) exceeds grid limits. Max rows: 1000, max columns: 26"
        );
        let whole = get_values(&sheet, "Sheet1", &params(&[])).expect("whole tab");
        assert_eq!(whole, json!({"range": "Sheet1!A1:Z1000", "majorDimension": "ROWS"}));
    }
}
