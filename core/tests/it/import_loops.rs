//! No import loops in core (#27 item 5): a module never names, directly or through other
//! modules, something declared in a module that names something of its own. A path through
//! a facade (`crate::search::SearchCost`, re-exported by `search/mod.rs`) counts as naming
//! the module that declares the item; a facade's own `pub use` counts too, so a child
//! that imports through its parent's facade is a loop.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

type Module = Vec<String>;

/// Every module of the crate under `src`, with its code (comments and the trailing
/// `#[cfg(test)] mod tests { ... }` left out: tests may name anything).
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("inside").with_extension("");
            let mut parts: Module = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts == ["lib"] || parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            found.insert(parts, code(&std::fs::read_to_string(&path).expect("readable")));
        }
    }
    found
}

fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let tests_follow = lines.get(i + 1).is_some_and(|next| {
            let next = next.trim_start();
            next.starts_with("mod ") && next.ends_with('{')
        });
        if line.trim() == "#[cfg(test)]" && tests_follow {
            break;
        }
        out.push(line.split("//").next().unwrap_or_default());
    }
    out.join("\n")
}

/// The paths a `use` body names: `crate::{a::X, b::{Y, Z}}` gives three.
fn expand(body: &str, prefix: &[String]) -> Vec<Vec<String>> {
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for ch in body.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(ch);
        }
    }
    parts.push(current);
    let mut paths = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        if let Some((head, rest)) = part.split_once('{') {
            let mut next = prefix.to_vec();
            next.extend(head.split("::").filter(|s| !s.is_empty()).map(str::to_owned));
            paths.extend(expand(rest.strip_suffix('}').unwrap_or(rest), &next));
        } else {
            let name = part.split("as").next().unwrap_or(&part);
            let mut path = prefix.to_vec();
            path.extend(name.split("::").filter(|s| !s.is_empty()).map(str::to_owned));
            paths.push(path);
        }
    }
    paths
}

/// `path` as seen from `module`, from the crate's root; `None` for another crate's.
fn absolute(module: &Module, path: &[String], all: &BTreeMap<Module, String>) -> Option<Module> {
    let first = path.first()?;
    let (mut base, mut rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (module.clone(), &path[1..]),
        "super" => (module[..module.len().saturating_sub(1)].to_vec(), &path[1..]),
        _ => {
            let mut child = module.clone();
            child.push(first.clone());
            return all
                .contains_key(&child)
                .then(|| [module.clone(), path.to_vec()].concat());
        }
    };
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    Some([base, rest.to_vec()].concat())
}

/// The import graph: module to the modules declaring what it names.
fn graph(all: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let use_statement = regex::Regex::new(r"\b(pub(\([^)]*\))?\s+)?use\s+([^;]+);").expect("pattern");
    let inline_path = regex::Regex::new(r"\b((?:crate|super)(?:::\w+)+)").expect("pattern");
    let named = |module: &Module, text: &str, only_pub: bool| -> Vec<Vec<String>> {
        use_statement
            .captures_iter(text)
            .filter(|c| !only_pub || c.get(1).is_some())
            .flat_map(|c| expand(&c[3], &[]))
            .chain(
                (!only_pub)
                    .then(|| {
                        inline_path
                            .find_iter(text)
                            .map(|m| m.as_str().split("::").map(str::to_owned).collect())
                    })
                    .into_iter()
                    .flatten(),
            )
            .filter_map(|p| absolute(module, &p, all))
            .collect()
    };
    // What each module re-exports: name -> where it comes from.
    let reexports: BTreeMap<&Module, BTreeMap<String, Module>> = all
        .iter()
        .map(|(m, text)| {
            (
                m,
                named(m, text, true)
                    .into_iter()
                    .filter_map(|p| Some((p.last()?.clone(), p)))
                    .collect(),
            )
        })
        .collect();
    // The longest prefix of `path` that is a module.
    let module_of = |path: &Module| -> Module {
        let mut depth = 0;
        while depth < path.len() && all.contains_key(&path[..=depth].to_vec()) {
            depth += 1;
        }
        path[..depth].to_vec()
    };
    // Where an item named through facades is declared.
    let resolve = |path: &Module| -> Module {
        let mut path = path.clone();
        for _ in 0..10 {
            let target = module_of(&path);
            let name = path.get(target.len());
            match name.and_then(|n| reexports.get(&target).and_then(|r| r.get(n))) {
                Some(source) if source != &path => path = source.clone(),
                _ => return target,
            }
        }
        module_of(&path)
    };
    all.iter()
        .map(|(m, text)| {
            let targets = named(m, text, false)
                .iter()
                .map(&resolve)
                .filter(|t| t != m && all.contains_key(t))
                .collect();
            (m.clone(), targets)
        })
        .collect()
}

/// The loops of `graph`: its strongly connected parts of more than one module.
fn loops(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<&Module> = graph.get(from).into_iter().flatten().collect();
        while let Some(next) = pending.pop() {
            if seen.insert(next.clone()) {
                pending.extend(graph.get(next).into_iter().flatten());
            }
        }
        seen
    };
    let reachable: BTreeMap<&Module, BTreeSet<Module>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for (m, reached) in &reachable {
        let mut part: Vec<String> = reached
            .iter()
            .filter(|other| reachable.get(other).is_some_and(|back| back.contains(*m)))
            .map(|x| if x.is_empty() { "crate".to_owned() } else { x.join("::") })
            .collect();
        if !part.is_empty() {
            part.sort();
            found.insert(part);
        }
    }
    found.into_iter().collect()
}

#[test]
fn core_has_no_import_loops() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = modules(&src);
    assert!(all.len() > 50, "read the crate: {} modules", all.len());
    let found = loops(&graph(&all));
    assert!(
        found.is_empty(),
        "import loops (each a set of modules naming each other):\n{found:#?}"
    );
}

#[test]
fn the_check_sees_a_loop_through_a_facade_and_none_without_it() {
    let crate_of = |files: &[(&str, &str)]| -> BTreeMap<Module, String> {
        files
            .iter()
            .map(|(name, text)| {
                (
                    name.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect(),
                    code(text),
                )
            })
            .collect()
    };
    // `search` re-exports `cost`'s item; `lead` names it through the facade and `cost`
    // names `lead`: a loop lead -> search::cost -> lead.
    let looped = crate_of(&[
        ("", "pub mod lead; pub mod search;"),
        ("lead", "pub struct Lead; fn f(_: crate::search::Cost) {}"),
        ("search", "mod cost; pub use cost::Cost;"),
        ("search/cost", "use crate::lead::Lead; pub struct Cost;"),
    ]);
    assert_eq!(
        loops(&graph(&looped)),
        vec![vec!["lead".to_owned(), "search::cost".to_owned()]]
    );
    // Without `cost` naming `lead`, nothing; a child importing its sibling is fine.
    let fine = crate_of(&[
        ("", "pub mod lead; pub mod search;"),
        ("lead", "pub struct Lead; fn f(_: crate::search::Cost) {}"),
        ("search", "mod cost; mod run; pub use cost::Cost;"),
        ("search/cost", "pub struct Cost;"),
        ("search/run", "use super::cost::Cost;"),
    ]);
    assert!(loops(&graph(&fine)).is_empty());
}
