//! The repository documents itself: `docs/` holds the design, and the code
//! cites it, never notes kept outside the repository.
//!
//! * No source, test, man page or document mentions the design notes the
//!   project started from (files outside the repository).
//! * Every format in the registry has its section in `docs/formats.md`.
//! * Every citation of a `docs/<page>.md#<anchor>`, and every relative link
//!   inside `docs/`, points at a page and a heading (or `<a id>`) that exist.

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Text files of the repository that are ours to check: sources, tests,
/// documents, man pages and tooling (not fixtures, fuzz corpora or build
/// output).
fn checked_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for dir in [
        "src", "core", "tests", "docs", "man", ".ci", "benches", "examples", "fuzz",
    ] {
        walk(&root().join(dir), &mut files);
    }
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            let skipped = [
                "target",
                "corpus",
                "seeds",
                "artifacts",
                "logs",
                "coverage",
                "canitoolcall", // vendored, with its own links
            ];
            if !skipped.contains(&name) {
                walk(&path, out);
            }
        } else if [".rs", ".md", ".sh", ".py", ".1", ".toml"]
            .iter()
            .any(|ext| name.ends_with(ext))
            || name == "run"
        {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn nothing_cites_design_notes_outside_the_repository() {
    // Spelled in pieces so that this file does not match itself.
    let banned: Vec<String> = [
        ["../", "shared"],
        ["shared/", "conformance"],
        ["DESIGN", ".md"],
        ["FORMATS", ".md"],
        ["WIRE", ".md"],
        ["AGENT", ".md"],
        ["STYLE", ".md"],
    ]
    .iter()
    .map(|p| p.concat())
    .collect();
    let mut found = Vec::new();
    for path in checked_files() {
        for (n, line) in read(&path).lines().enumerate() {
            if banned.iter().any(|b| line.contains(b.as_str())) {
                found.push(format!("{}:{}: {}", rel(&path), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite docs/ (docs/design.md, docs/formats.md#<id> …) instead:\n{}",
        found.join("\n")
    );
}

/// The anchor GitHub gives a heading: lower case, only letters, digits,
/// `-` and `_`, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a page defines: its headings' slugs and its `<a id="…">`s.
fn anchors(page: &str) -> BTreeSet<String> {
    let explicit = Regex::new(r#"<a id="([^"]+)">"#).expect("regex");
    let mut out = BTreeSet::new();
    // the backticks that opened the code fence we are in
    let mut fence: Option<usize> = None;
    for line in page.lines() {
        let ticks = line.trim_start().bytes().take_while(|&b| b == b'`').count();
        match fence {
            Some(open) => {
                if ticks >= open && line.trim().len() == ticks {
                    fence = None;
                }
                continue;
            }
            None if ticks >= 3 => {
                fence = Some(ticks);
                continue;
            }
            None => {}
        }
        if let Some(h) = line.strip_prefix('#') {
            out.insert(slug(h.trim_start_matches('#')));
        }
        for c in explicit.captures_iter(line) {
            out.insert(c[1].to_string());
        }
    }
    out
}

/// The core's public face stays small (issue 33): `core/src/lib.rs` declares
/// at most four public modules; everything else a user needs is re-exported
/// as items from the root.
#[test]
fn the_core_exposes_at_most_four_public_modules() {
    let lib = std::fs::read_to_string(root().join("core/src/lib.rs")).expect("core/src/lib.rs");
    let public: Vec<&str> = lib
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("pub mod "))
        .collect();
    assert!(
        !public.is_empty(),
        "no `pub mod` line found: the check reads the wrong file"
    );
    assert!(
        public.len() <= 4,
        "{} public modules in core/src/lib.rs: {public:?}",
        public.len()
    );
    assert!(
        lib.contains("pub use "),
        "core/src/lib.rs re-exports no items"
    );
}

#[test]
fn every_format_has_a_section_in_docs_formats() {
    let page = read(&root().join("docs/formats.md"));
    let headings: BTreeSet<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(str::trim)
        .collect();
    let defined = anchors(&page);
    let mut missing = Vec::new();
    for f in toolcall::formats::FORMATS {
        let id = f.id.as_str();
        if !headings.contains(id) {
            missing.push(format!("no `## {id}` heading"));
        } else if !defined.contains(id) {
            // a heading's own anchor drops characters such as `.`
            missing.push(format!("`## {id}` needs `<a id=\"{id}\"></a>` before it"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/formats.md: {}",
        missing.join("; ")
    );
}

#[test]
fn docs_citations_and_links_resolve() {
    let docs = root().join("docs");
    let page_anchors = |name: &str| -> Option<BTreeSet<String>> {
        std::fs::read_to_string(docs.join(name))
            .ok()
            .map(|p| anchors(&p))
    };
    let mut broken = Vec::new();
    let mut check = |from: &str, page: &str, anchor: Option<&str>| {
        let anchor = anchor.map(|a| a.trim_end_matches('.'));
        match (page_anchors(page), anchor) {
            (None, _) => broken.push(format!("{from}: no page docs/{page}")),
            (Some(defined), Some(a)) if !a.is_empty() && !defined.contains(a) => {
                broken.push(format!("{from}: docs/{page} has no #{a}"))
            }
            _ => {}
        }
    };
    // Citations anywhere: `docs/<page>.md#<anchor>`.
    let cite = Regex::new(r"docs/([A-Za-z0-9_-]+\.md)(?:#([A-Za-z0-9._-]+))?").expect("regex");
    for path in checked_files() {
        for (n, line) in read(&path).lines().enumerate() {
            for c in cite.captures_iter(line) {
                let from = format!("{}:{}", rel(&path), n + 1);
                check(&from, &c[1], c.get(2).map(|m| m.as_str()));
            }
        }
    }
    // Relative links inside docs/: `](<page>.md#<anchor>)` and `](#<anchor>)`.
    let link = Regex::new(r"\]\(([A-Za-z0-9_-]+\.md)?(?:#([A-Za-z0-9._-]+))?\)").expect("regex");
    let mut pages: Vec<PathBuf> = Vec::new();
    walk(&docs, &mut pages);
    for path in pages {
        let name = rel(&path);
        let own = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        for (n, line) in read(&path).lines().enumerate() {
            for c in link.captures_iter(line) {
                let from = format!("{name}:{}", n + 1);
                let page = c.get(1).map_or(own.as_str(), |m| m.as_str());
                check(&from, page, c.get(2).map(|m| m.as_str()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken references:\n{}",
        broken.join("\n")
    );
}

/// The bullet lines a format's section in docs/formats.md opens with, as
/// its descriptor says them.
fn header_bullets(f: &toolcall::formats::Format) -> Vec<(&'static str, String)> {
    let quoted = |items: Vec<&str>| {
        items
            .iter()
            .map(|m| {
                if m.contains('`') {
                    format!("`` {m} ``")
                } else {
                    format!("`{m}`")
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = vec![
        ("**Families**", format!("{}.", f.families)),
        ("**Markers**", format!("{}.", quoted(f.markers.to_vec()))),
    ];
    if !f.models.is_empty() {
        let names: Vec<String> = f.models.iter().map(|m| format!("`{}`", m.name)).collect();
        out.push(("**`--model`**", format!("{}.", names.join(", "))));
    }
    let module = f.id.as_str().replace(['-', '.'], "_");
    out.push(("**Module**", format!("`core/src/formats/{module}.rs`.")));
    out
}

#[test]
fn docs_formats_section_headers_match_the_descriptors() {
    let page = read(&root().join("docs/formats.md"));
    let mut drift = Vec::new();
    for f in toolcall::formats::FORMATS {
        let id = f.id.as_str();
        let Some(at) = page.find(&format!("\n## {id}\n")) else {
            continue; // every_format_has_a_section_in_docs_formats says so
        };
        let section: Vec<&str> = page[at + 1..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("## "))
            .filter_map(|l| l.strip_prefix("* "))
            .collect();
        for (label, want) in header_bullets(f) {
            let prefix = format!("{label}: ");
            match section.iter().find_map(|l| l.strip_prefix(prefix.as_str())) {
                Some(have) if have.trim_end() == want => {}
                Some(have) => drift.push(format!("{id}: {label}: `{have}`, descriptor: `{want}`")),
                None => drift.push(format!("{id}: no `* {label}:` line (want `{want}`)")),
            }
        }
    }
    assert!(
        drift.is_empty(),
        "docs/formats.md headers drifted:\n{}",
        drift.join("\n")
    );
}
