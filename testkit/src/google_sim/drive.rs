//! Drive v3 `files.list`, over the spreadsheets only (the fake holds no other files).
//! `q` understands clauses on `mimeType`, `name` and `trashed` joined by `and`, which is
//! what a Sheets export sends; anything else is Drive's 400 "Invalid Value" (so `or`,
//! `not` and parentheses, valid at Google, are refused here).

use std::collections::HashMap;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{
    errors::ApiError,
    fields,
    ids::rfc3339_millis,
    oauth::Principal,
    store::{SPREADSHEET_MIME_TYPE, Spreadsheet, Store},
};

/// Files per page when `pageSize` is not given.
const DEFAULT_PAGE_SIZE: usize = 100;
/// The largest `pageSize` Drive accepts.
const MAX_PAGE_SIZE: usize = 1000;
/// What Drive v3 returns when `fields` is not given.
const DEFAULT_FIELDS: &str = "kind,incompleteSearch,nextPageToken,files(kind,id,name,mimeType)";

/// `GET /drive/v3/files`. `everything` says the token has a scope that sees every file
/// the identity can access (`drive`, `drive.readonly`, ...) rather than only `drive.file`.
pub(crate) fn list(
    store: &Store,
    principal: &Principal,
    everything: bool,
    params: &HashMap<String, String>,
) -> Result<Value, ApiError> {
    let param = |name: &str| params.get(name).map(String::as_str).filter(|v| !v.is_empty());
    let clauses = match param("q") {
        Some(q) => parse_q(q).ok_or_else(|| ApiError::drive_invalid_value("q"))?,
        None => Vec::new(),
    };
    let order = parse_order(param("orderBy").unwrap_or("modifiedTime desc"))
        .ok_or_else(|| ApiError::drive_invalid_value("orderBy"))?;
    let page_size = match param("pageSize") {
        None => DEFAULT_PAGE_SIZE,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_PAGE_SIZE).contains(n))
            .ok_or_else(|| ApiError::drive_invalid_value("pageSize"))?,
    };
    let spaces: Vec<&str> = param("spaces").unwrap_or("drive").split(',').map(str::trim).collect();
    if spaces
        .iter()
        .any(|s| !matches!(*s, "drive" | "appDataFolder" | "photos"))
    {
        return Err(ApiError::drive_invalid_value("spaces"));
    }
    let mask = fields::parse(param("fields").unwrap_or(DEFAULT_FIELDS))
        .ok_or_else(|| ApiError::drive_invalid_value("fields"))?;
    let fingerprint = fingerprint(&[
        &principal.identity,
        param("q").unwrap_or_default(),
        param("orderBy").unwrap_or_default(),
        &spaces.join(","),
    ]);
    let offset = match param("pageToken") {
        None => 0,
        Some(token) => redeem(token, &fingerprint).ok_or_else(|| ApiError::drive_invalid_value("pageToken"))?,
    };

    let mut files: Vec<&Spreadsheet> = store
        .all()
        .filter(|_| spaces.contains(&"drive"))
        .filter(|s| s.can_access(&principal.identity))
        .filter(|s| everything || s.used_by_app(&principal.identity))
        .filter(|s| clauses.iter().all(|c| c.matches(s)))
        .collect();
    files.sort_by(|a, b| {
        order
            .iter()
            .map(|(key, desc)| {
                let ordering = key.compare(a, b);
                if *desc { ordering.reverse() } else { ordering }
            })
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.id.cmp(&b.id))
    });

    let page: Vec<Value> = files
        .iter()
        .skip(offset)
        .take(page_size)
        .map(|s| file_resource(s, &principal.identity))
        .collect();
    let mut response = json!({ "kind": "drive#fileList", "incompleteSearch": false, "files": page });
    let next = offset + page_size;
    if next < files.len() {
        response["nextPageToken"] = json!(issue(next, &fingerprint));
    }
    Ok(fields::apply(&response, &mask))
}

/// A spreadsheet as a Drive `File`, as seen by `identity`.
fn file_resource(sheet: &Spreadsheet, identity: &str) -> Value {
    json!({
        "kind": "drive#file",
        "id": sheet.id,
        "name": sheet.title,
        "mimeType": SPREADSHEET_MIME_TYPE,
        "starred": false,
        "trashed": false,
        "createdTime": rfc3339_millis(sheet.created_ms),
        "modifiedTime": rfc3339_millis(sheet.modified_ms),
        "webViewLink": format!("https://docs.google.com/spreadsheets/d/{}/edit?usp=drivesdk", sheet.id),
        "ownedByMe": sheet.owner == identity,
        "shared": !sheet.shared_with.is_empty(),
        "owners": [{
            "kind": "drive#user",
            "displayName": sheet.owner,
            "emailAddress": sheet.owner,
            "me": sheet.owner == identity,
        }],
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Field {
    MimeType,
    Name,
    Trashed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Contains,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Literal {
    Text(String),
    Bool(bool),
}

/// One `field op value` term of `q`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Clause {
    field: Field,
    op: Op,
    value: Literal,
}

impl Clause {
    fn matches(&self, sheet: &Spreadsheet) -> bool {
        let (actual, wanted) = match (&self.field, &self.value) {
            (Field::MimeType, Literal::Text(v)) => (SPREADSHEET_MIME_TYPE.to_owned(), v.clone()),
            (Field::Name, Literal::Text(v)) => (sheet.title.clone(), v.clone()),
            (Field::Trashed, Literal::Bool(v)) => (false.to_string(), v.to_string()),
            _ => return false,
        };
        match self.op {
            Op::Eq => actual == wanted,
            Op::Ne => actual != wanted,
            Op::Contains => actual.to_lowercase().contains(&wanted.to_lowercase()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Text(String),
    Eq,
    Ne,
}

fn tokenize(q: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = q.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '\'' => {
                chars.next();
                let mut text = String::new();
                loop {
                    match chars.next()? {
                        '\\' => text.push(chars.next()?),
                        '\'' => break,
                        other => text.push(other),
                    }
                }
                tokens.push(Token::Text(text));
            }
            '=' => {
                chars.next();
                tokens.push(Token::Eq);
            }
            '!' => {
                chars.next();
                (chars.next()? == '=').then_some(())?;
                tokens.push(Token::Ne);
            }
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let mut word = String::new();
                while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric() || **c == '_') {
                    word.push(c);
                    chars.next();
                }
                tokens.push(Token::Word(word));
            }
            _ => return None,
        }
    }
    Some(tokens)
}

/// `clause (and clause)*`, or `None` when Drive would say "Invalid Value".
fn parse_q(q: &str) -> Option<Vec<Clause>> {
    let tokens = tokenize(q)?;
    let mut clauses = Vec::new();
    for chunk in tokens.split(|t| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case("and"))) {
        let [Token::Word(field), op, value] = chunk else {
            return None;
        };
        let op = match op {
            Token::Eq => Op::Eq,
            Token::Ne => Op::Ne,
            Token::Word(w) if w == "contains" => Op::Contains,
            _ => return None,
        };
        let value = match value {
            Token::Text(text) => Literal::Text(text.clone()),
            Token::Word(w) if w == "true" => Literal::Bool(true),
            Token::Word(w) if w == "false" => Literal::Bool(false),
            _ => return None,
        };
        let clause = match (field.as_str(), op, &value) {
            ("mimeType", Op::Eq | Op::Ne, Literal::Text(_)) => Clause {
                field: Field::MimeType,
                op,
                value,
            },
            ("name", _, Literal::Text(_)) => Clause {
                field: Field::Name,
                op,
                value,
            },
            ("trashed", Op::Eq | Op::Ne, Literal::Bool(_)) => Clause {
                field: Field::Trashed,
                op,
                value,
            },
            _ => return None,
        };
        clauses.push(clause);
    }
    Some(clauses)
}

/// A sort key of `orderBy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SortKey {
    Created,
    Modified,
    Name,
    /// A key Drive knows that means nothing here (`folder`, `starred`, ...).
    Inert,
}

impl SortKey {
    fn compare(self, a: &Spreadsheet, b: &Spreadsheet) -> std::cmp::Ordering {
        match self {
            Self::Created => a.created_ms.cmp(&b.created_ms),
            Self::Modified => a.modified_ms.cmp(&b.modified_ms),
            Self::Name => a.title.to_lowercase().cmp(&b.title.to_lowercase()),
            Self::Inert => std::cmp::Ordering::Equal,
        }
    }
}

/// `modifiedTime desc,name`: keys ascending unless followed by `desc`.
fn parse_order(text: &str) -> Option<Vec<(SortKey, bool)>> {
    text.split(',')
        .map(|item| {
            let mut words = item.split_whitespace();
            let key = match words.next()? {
                "createdTime" => SortKey::Created,
                "modifiedTime" | "recency" | "modifiedByMeTime" | "viewedByMeTime" => SortKey::Modified,
                "name" | "name_natural" => SortKey::Name,
                "folder" | "quotaBytesUsed" | "sharedWithMeTime" | "starred" => SortKey::Inert,
                _ => return None,
            };
            let desc = match words.next() {
                None => false,
                Some(w) if w.eq_ignore_ascii_case("desc") => true,
                Some(w) if w.eq_ignore_ascii_case("asc") => false,
                Some(_) => return None,
            };
            words.next().is_none().then_some((key, desc))
        })
        .collect()
}

/// Binds page tokens to the caller and the query that produced them.
fn fingerprint(parts: &[&str]) -> String {
    let digest = Sha256::digest(parts.join("\u{0}").as_bytes());
    hex::encode(&digest[..8])
}

fn issue(offset: usize, fingerprint: &str) -> String {
    URL_SAFE_NO_PAD.encode(format!("{offset}:{fingerprint}"))
}

fn redeem(token: &str, fingerprint: &str) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(token).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (offset, bound) = text.split_once(':')?;
    (bound == fingerprint).then_some(())?;
    offset.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_clauses_a_sheets_export_sends() {
        let clauses = parse_q("mimeType='application/vnd.google-apps.spreadsheet' and trashed=false").expect("valid");
        assert_eq!(clauses.len(), 2);
        assert_eq!(clauses[1].value, Literal::Bool(false));
        let name = parse_q("name contains 'O\\'Brien' AND trashed != true").expect("valid");
        assert_eq!(name[0].value, Literal::Text("O'Brien".to_owned()));
        for bad in [
            "mimeType = ",
            "mimeType='x' or trashed=false",
            "trashed = 'false'",
            "owner = 'me'",
            "and",
            "mimeType='unterminated",
            "(trashed=false)",
        ] {
            assert_eq!(parse_q(bad), None, "{bad}");
        }
    }

    #[test]
    fn parses_order_keys() {
        assert_eq!(
            parse_order("modifiedTime desc,name"),
            Some(vec![(SortKey::Modified, true), (SortKey::Name, false)])
        );
        assert_eq!(parse_order("size"), None);
        assert_eq!(parse_order("name sideways"), None);
    }

    #[test]
    fn page_tokens_are_bound_to_their_query() {
        let token = issue(100, "abc");
        assert_eq!(redeem(&token, "abc"), Some(100));
        assert_eq!(redeem(&token, "abd"), None);
        assert_eq!(redeem("garbage!", "abc"), None);
    }
}
