//! Every relative link in the repository's documents resolves (#27 item 6: the map
//! linked files that did not exist): the file is there, and a `#fragment` into a
//! Markdown file names one of its headings.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The documents: the READMEs and everything under docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = ["README.md", "frontend/README.md", "helm/leadgen/README.md"]
        .iter()
        .map(|p| root.join(p))
        .filter(|p| p.exists())
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    found.extend(docs);
    found
}

/// Markdown outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    prose(markdown)
        .lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|rest| slug(rest.trim_start_matches('#')))
        .collect()
}

/// Problems with `doc`'s relative links.
fn broken_links(root: &Path, doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).expect("readable");
    let link = regex::Regex::new(r#"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#).expect("pattern");
    let mut problems = Vec::new();
    for target in link.captures_iter(&prose(&text)).map(|c| c[1].to_owned()) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
        let resolved = if file.is_empty() {
            doc.to_path_buf()
        } else {
            doc.parent().expect("a folder").join(file)
        };
        let name = doc.strip_prefix(root).unwrap_or(doc).display().to_string();
        let Ok(resolved) = resolved.canonicalize() else {
            problems.push(format!("{name}: {target} does not exist"));
            continue;
        };
        if !resolved.starts_with(root) {
            problems.push(format!("{name}: {target} is outside the repository"));
            continue;
        }
        if !fragment.is_empty() && resolved.extension().is_some_and(|e| e == "md") {
            let headings = anchors(&std::fs::read_to_string(&resolved).unwrap_or_default());
            if !headings.iter().any(|h| h == fragment) {
                problems.push(format!("{name}: {target} names no heading"));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_in_the_documents_resolves() {
    let root = repo_root().canonicalize().expect("root");
    let docs = documents(&root);
    assert!(
        docs.iter().any(|d| d.ends_with("docs/architecture.md")),
        "the map is checked"
    );
    let problems: Vec<String> = docs.iter().flat_map(|doc| broken_links(&root, doc)).collect();
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

#[test]
fn the_checker_finds_a_missing_file_and_a_missing_heading() {
    let dir = std::env::temp_dir().join(format!("leadgen-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let doc = dir.join("a.md");
    std::fs::write(dir.join("b.md"), "# Threat model\n").expect("b");
    std::fs::write(&doc, "[ok](b.md#threat-model) [gone](c.md) [wrong](b.md#nothing) [web](https://x.example/c.md)\n```\n[code](d.md)\n```\n")
        .expect("a");
    let root = dir.canonicalize().expect("root");
    let problems = broken_links(&root, &root.join("a.md"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        problems,
        ["a.md: c.md does not exist", "a.md: b.md#nothing names no heading"]
    );
    assert_eq!(slug(" Threat model: who, what"), "threat-model-who-what");
}
