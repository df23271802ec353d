//! Stripe's form encoding: `application/x-www-form-urlencoded` pairs whose keys use
//! bracket notation for nesting (`metadata[user_id]=u1`, `line_items[0][price]=p`,
//! `expand[]=customer`). Clients differ in how they write arrays (`[]` or `[0]`), so both
//! are read into the same tree, which is also what idempotent replays compare.

use serde_json::{Map, Value};

/// Decoded request parameters: the pairs as sent, and the tree they describe.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Params {
    /// The pairs in the order they arrived, percent-decoded.
    pub pairs: Vec<(String, String)>,
    /// Nested objects and arrays built from the bracket keys; leaves are strings.
    pub tree: Map<String, Value>,
}

impl Params {
    /// Reads a form-encoded body or query string.
    pub fn parse(encoded: &[u8]) -> Self {
        let pairs: Vec<(String, String)> = url::form_urlencoded::parse(encoded)
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let mut tree = Map::new();
        for (key, value) in &pairs {
            insert(&mut tree, &segments(key), Value::String(value.clone()));
        }
        let tree = match arrays_from_indices(Value::Object(tree)) {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Self { pairs, tree }
    }

    /// The value at a path of keys (array indices as numbers in text: `["line_items", "0"]`).
    pub fn get(&self, path: &[&str]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        let mut node = self.tree.get(*first)?;
        for key in rest {
            node = match node {
                Value::Object(map) => map.get(*key)?,
                Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// A non-empty string at `path`; Stripe reads an empty value as "not given".
    pub fn str(&self, path: &[&str]) -> Option<&str> {
        self.get(path).and_then(Value::as_str).filter(|s| !s.is_empty())
    }

    /// A string map such as `metadata`, empty when absent.
    pub fn string_map(&self, path: &[&str]) -> Map<String, Value> {
        match self.get(path) {
            Some(Value::Object(map)) => map
                .iter()
                .filter(|(_, v)| v.as_str().is_some_and(|s| !s.is_empty()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            _ => Map::new(),
        }
    }

    /// The items of the array at `path`, empty when absent.
    pub fn array(&self, path: &[&str]) -> Vec<&Value> {
        match self.get(path) {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(other) => vec![other],
            None => Vec::new(),
        }
    }

    /// The `expand` list.
    pub fn expand(&self) -> Vec<String> {
        self.array(&["expand"])
            .into_iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    }

    /// The first top-level parameter not in `known`, to answer "Received unknown
    /// parameter" as Stripe does.
    pub fn unknown_key(&self, known: &[&str]) -> Option<&str> {
        self.tree.keys().map(String::as_str).find(|k| !known.contains(k))
    }
}

/// `a[b][0][]` → `["a", "b", "0", ""]`. A key with unbalanced brackets is one segment.
fn segments(key: &str) -> Vec<String> {
    let Some(open) = key.find('[') else {
        return vec![key.to_owned()];
    };
    let mut out = vec![key[..open].to_owned()];
    let mut rest = &key[open..];
    while let Some(stripped) = rest.strip_prefix('[') {
        let Some(close) = stripped.find(']') else {
            return vec![key.to_owned()];
        };
        out.push(stripped[..close].to_owned());
        rest = &stripped[close + 1..];
    }
    if !rest.is_empty() {
        return vec![key.to_owned()];
    }
    out
}

/// Inserts `value` at `path`, creating objects on the way; an empty segment (`[]`)
/// appends, using the next free index.
fn insert(map: &mut Map<String, Value>, path: &[String], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let key = if first.is_empty() {
        map.len().to_string()
    } else {
        first.clone()
    };
    if rest.is_empty() {
        map.insert(key, value);
        return;
    }
    let child = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if !child.is_object() {
        *child = Value::Object(Map::new());
    }
    if let Value::Object(child) = child {
        insert(child, rest, value);
    }
}

/// Objects whose keys are all array indices become arrays, ordered by index.
fn arrays_from_indices(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let numeric = !map.is_empty() && map.keys().all(|k| k.parse::<usize>().is_ok());
            let converted: Vec<(String, Value)> = map.into_iter().map(|(k, v)| (k, arrays_from_indices(v))).collect();
            if numeric {
                let mut indexed: Vec<(usize, Value)> = converted
                    .into_iter()
                    .filter_map(|(k, v)| k.parse::<usize>().ok().map(|i| (i, v)))
                    .collect();
                indexed.sort_by_key(|(i, _)| *i);
                Value::Array(indexed.into_iter().map(|(_, v)| v).collect())
            } else {
                Value::Object(converted.into_iter().collect())
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn brackets_nest_objects_and_arrays() {
        let p = Params::parse(
            b"mode=subscription&line_items%5B0%5D%5Bprice%5D=price_a&line_items[0][quantity]=2\
              &metadata[user_id]=u1&expand[]=customer&expand[]=subscription&subscription_data[metadata][team]=t",
        );
        assert_eq!(p.str(&["mode"]), Some("subscription"));
        assert_eq!(p.str(&["line_items", "0", "price"]), Some("price_a"));
        assert_eq!(p.str(&["line_items", "0", "quantity"]), Some("2"));
        assert_eq!(
            p.string_map(&["metadata"]),
            json!({"user_id": "u1"}).as_object().cloned().unwrap_or_default()
        );
        assert_eq!(p.expand(), vec!["customer", "subscription"]);
        assert_eq!(p.str(&["subscription_data", "metadata", "team"]), Some("t"));
    }

    #[test]
    fn indexed_and_appended_arrays_compare_equal() {
        let a = Params::parse(b"expand[0]=customer&expand[1]=subscription");
        let b = Params::parse(b"expand[]=customer&expand[]=subscription");
        assert_eq!(a.tree, b.tree);
    }

    #[test]
    fn indices_sort_numerically() {
        let p = Params::parse(b"x[10]=ten&x[2]=two");
        assert_eq!(p.get(&["x"]), Some(&json!(["two", "ten"])));
    }

    #[test]
    fn empty_values_read_as_absent_and_unknown_keys_are_found() {
        let p = Params::parse(b"email=&name=Ann&bogus=1");
        assert_eq!(p.str(&["email"]), None);
        assert_eq!(p.unknown_key(&["email", "name"]), Some("bogus"));
        assert_eq!(p.unknown_key(&["email", "name", "bogus"]), None);
    }

    #[test]
    fn unbalanced_brackets_stay_literal() {
        assert_eq!(segments("a[b"), vec!["a[b"]);
        assert_eq!(segments("a[b]c"), vec!["a[b]c"]);
        assert_eq!(segments("a[][x]"), vec!["a", "", "x"]);
    }
}
