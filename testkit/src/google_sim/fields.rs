//! Partial responses: the `fields` system parameter (`files(id,name),nextPageToken`,
//! `sheets.properties`, `sheets/properties/title`). Google accepts `/` and, for Sheets,
//! `.` between names, and parentheses for several sub-fields.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Selected names at one level of the response.
pub(crate) type Tree = BTreeMap<String, Selection>;

/// What is selected under a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Selection {
    /// The whole value.
    All,
    /// Only these sub-fields (of every element, for arrays).
    Some(Tree),
}

/// Parses a `fields` value, or `None` when it is not well formed.
pub(crate) fn parse(text: &str) -> Option<Tree> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut parser = Parser { chars, pos: 0 };
    let tree = parser.list()?;
    (parser.pos == parser.chars.len()).then_some(tree)
}

/// Keeps only the selected parts of `value`. Names the value lacks are skipped, as Google
/// omits unset fields.
pub(crate) fn apply(value: &Value, tree: &Tree) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|v| apply(v, tree)).collect()),
        Value::Object(map) if !tree.contains_key("*") => {
            let mut out = Map::new();
            for (name, selection) in tree {
                if let Some(v) = map.get(name) {
                    let kept = match selection {
                        Selection::All => v.clone(),
                        Selection::Some(sub) => apply(v, sub),
                    };
                    out.insert(name.clone(), kept);
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn list(&mut self) -> Option<Tree> {
        let mut tree = Tree::new();
        loop {
            self.selection(&mut tree)?;
            if !self.eat(',') {
                return Some(tree);
            }
        }
    }

    fn selection(&mut self, into: &mut Tree) -> Option<()> {
        let name = self.name()?;
        let selection = if self.eat('/') || self.eat('.') {
            let mut sub = Tree::new();
            self.selection(&mut sub)?;
            Selection::Some(sub)
        } else if self.eat('(') {
            let sub = self.list()?;
            if !self.eat(')') {
                return None;
            }
            Selection::Some(sub)
        } else {
            Selection::All
        };
        merge(into, name, selection);
        Some(())
    }

    fn name(&mut self) -> Option<String> {
        let start = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '*'))
        {
            self.pos += 1;
        }
        (self.pos > start).then(|| self.chars[start..self.pos].iter().collect())
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.chars.get(self.pos) == Some(&c);
        if found {
            self.pos += 1;
        }
        found
    }
}

fn merge(into: &mut Tree, name: String, selection: Selection) {
    match (into.get_mut(&name), selection) {
        (None, selection) => {
            into.insert(name, selection);
        }
        (Some(existing), Selection::All) => *existing = Selection::All,
        (Some(Selection::All), Selection::Some(_)) => {}
        (Some(Selection::Some(tree)), Selection::Some(sub)) => {
            for (n, s) in sub {
                merge(tree, n, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn mask(value: &Value, fields: &str) -> Value {
        apply(value, &parse(fields).expect(fields))
    }

    #[test]
    fn selects_nested_fields_in_both_spellings() {
        let sheet = json!({
            "spreadsheetId": "x",
            "properties": {"title": "T", "locale": "en_US"},
            "sheets": [{"properties": {"title": "A", "index": 0}, "data": []}, {"properties": {"title": "B"}}],
        });
        let want = json!({
            "spreadsheetId": "x",
            "properties": {"title": "T"},
            "sheets": [{"properties": {"title": "A", "index": 0}}, {"properties": {"title": "B"}}],
        });
        assert_eq!(mask(&sheet, "spreadsheetId,properties.title,sheets.properties"), want);
        assert_eq!(mask(&sheet, "spreadsheetId,properties/title,sheets(properties)"), want);
        assert_eq!(
            mask(&sheet, "sheets.properties.title,sheets.properties.index"),
            json!({"sheets": [{"properties": {"title": "A", "index": 0}}, {"properties": {"title": "B"}}]})
        );
        assert_eq!(mask(&sheet, "*"), sheet);
    }

    #[test]
    fn refuses_malformed_masks() {
        assert_eq!(parse("files(id,name"), None);
        assert_eq!(parse("files)"), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse("a,,b"), None);
    }
}
