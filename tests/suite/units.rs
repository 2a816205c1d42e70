//! Units stay short enough to read at once: no function in the sources
//! (engine, command line, Python bindings) is longer than [`MAX_LINES`]
//! lines. A longer one is split into named steps (see
//! `docs/architecture.md`).
//!
//! The sources are rustfmt's, so a function's body closes on a line that
//! holds only `}` at the indentation of its `fn` line; that is all the
//! counting below relies on.

use regex::Regex;
use std::path::{Path, PathBuf};

/// The longest a function may be, from its `fn` line to its closing brace.
const MAX_LINES: usize = 200;

/// The source trees checked: the engine, the command line and the Python
/// bindings.
const ROOTS: &[&str] = &["core/src", "src", "python/src"];

/// One function: where it starts, its name and its length in lines.
#[derive(Debug, PartialEq)]
struct Unit {
    line: usize,
    name: String,
    lines: usize,
}

/// The functions with a body in `src`, in order.
fn units(src: &str) -> Vec<Unit> {
    let sig = Regex::new(
        r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\S+\s+)?fn\s+(\w+)",
    )
    .expect("the signature pattern compiles");
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(m) = sig.captures(line) else {
            continue;
        };
        let indent = &m[1];
        let close = format!("{indent}}}");
        // the body opens on the first line that ends with `{` (after any
        // `where` clause); a line that ends with `;` first is a declaration
        let mut open = None;
        for (j, l) in lines.iter().enumerate().skip(i) {
            let t = l.trim_end();
            if t.ends_with('{') {
                open = Some(j);
                break;
            }
            if t.ends_with(';') || (t.ends_with('}') && t.contains('{')) {
                break;
            }
        }
        let Some(open) = open else {
            // a declaration, or a body on its fn line
            continue;
        };
        let end = lines
            .iter()
            .enumerate()
            .skip(open + 1)
            .find(|(_, l)| l.trim_end() == close)
            .map(|(k, _)| k);
        if let Some(end) = end {
            out.push(Unit {
                line: i + 1,
                name: m[2].to_string(),
                lines: end - i + 1,
            });
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_counter_measures_from_fn_line_to_closing_brace() {
    let src = "\
/// doc
pub fn short(x: u8) -> bool {
    matches!(x, b'{' | b'}')
}

impl T {
    pub(crate) fn method<W>(&self, w: W) -> usize
    where
        W: Copy,
    {
        let s = \"{\";
        if s.is_empty() {
            return 0;
        }
        1
    }

    fn declared(&self);
    fn one_line(&self) -> u8 { 1 }
}
";
    assert_eq!(
        units(src),
        vec![
            Unit {
                line: 2,
                name: "short".into(),
                lines: 3,
            },
            Unit {
                line: 7,
                name: "method".into(),
                lines: 10,
            },
        ]
    );
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ROOTS {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "the sources were found: {}", files.len());
    let mut long = Vec::new();
    let mut counted = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for u in units(&src) {
            counted += 1;
            if u.lines > MAX_LINES {
                let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
                long.push(format!("{rel}:{} {} ({} lines)", u.line, u.name, u.lines));
            }
        }
    }
    assert!(counted > 1000, "functions were counted: {counted}");
    assert!(
        long.is_empty(),
        "functions longer than {MAX_LINES} lines; split them into named steps:\n{}",
        long.join("\n")
    );
}
