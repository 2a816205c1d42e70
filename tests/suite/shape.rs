//! The code's shape: no function in the sources (`core/src`, `src`,
//! `python/src`, `node/src`) is longer than [`MAX_FN_LINES`] lines, from
//! its `fn` line to its closing brace. A longer one is split (issue 44).
//!
//! The scan is textual: comments, string literals (raw ones too) and
//! character literals are blanked, then each `fn NAME` with a body is
//! measured by brace depth.

use std::path::{Path, PathBuf};

/// Most lines one function may span.
const MAX_FN_LINES: usize = 200;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src` with comments, strings and character literals replaced by
/// spaces (line ends kept), so that only code braces remain.
fn blank_literals(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n)
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if let Some(hashes) = raw_string_open(rest).filter(|_| !ident(i)) {
            let open = rest.iter().position(|&c| c == b'"').unwrap_or(0) + 1;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = &b[i + open..];
            body.windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| i + open + n + close.len())
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == b'\'' {
            char_literal_len(rest).map_or(i + 1, |n| i + n)
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end.max(i + 1);
    }
    out
}

/// For `r"`, `r#"`, `br##"`…: the number of `#`.
fn raw_string_open(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s);
    let s = s.strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|&&c| c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of a character literal at the start of `s` (`'{'`,
/// `'\''`, `'\u{7b}'`), `None` for a lifetime.
fn char_literal_len(s: &[u8]) -> Option<usize> {
    if s.get(1) == Some(&b'\\') {
        let close = s[2..].iter().take(10).position(|&c| c == b'\'')?;
        return Some(close + 3);
    }
    let width = std::str::from_utf8(&s[1..s.len().min(5)])
        .ok()
        .or_else(|| std::str::from_utf8(&s[1..s.len().min(2)]).ok())
        .and_then(|t| t.chars().next())
        .map_or(1, char::len_utf8);
    (s.get(1 + width) == Some(&b'\'')).then_some(width + 2)
}

/// Each function with a body: its name, first line and line count.
fn functions(src: &str) -> Vec<(String, usize, usize)> {
    let code = blank_literals(src);
    let line_of = |at: usize| code[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(n) = code[i..].windows(3).position(|w| w == b"fn ") {
        let at = i + n;
        i = at + 3;
        if at > 0 && word(code[at - 1]) {
            continue;
        }
        let name_start = i + code[i..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        let name_len = code[name_start..].iter().take_while(|&&c| word(c)).count();
        if name_len == 0 {
            continue;
        }
        let name = String::from_utf8_lossy(&code[name_start..name_start + name_len]).into_owned();
        // the body's `{`, or the `;` of a declaration, outside the
        // signature's parentheses and brackets
        let mut depth = 0i32;
        let mut j = name_start + name_len;
        while j < code.len() && !(depth == 0 && matches!(code[j], b'{' | b';')) {
            match code[j] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        if j >= code.len() || code[j] == b';' {
            continue;
        }
        let mut braces = 0i32;
        let mut k = j;
        while k < code.len() {
            match code[k] {
                b'{' => braces += 1,
                b'}' => {
                    braces -= 1;
                    if braces == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let first = line_of(at);
        found.push((name, first, line_of(k.min(code.len())) - first + 1));
    }
    found
}

#[test]
fn the_scan_measures_functions() {
    let src = "fn a() {\n    let s = \"}\";\n    let c = '{';\n    // }\n}\n\
               trait T { fn b(&self); }\n\
               fn c<'a>(x: &'a str) -> impl Fn() -> u8 {\n    let r = r#\"}\"#;\n    || 1\n}\n";
    assert_eq!(
        functions(src),
        vec![("a".to_string(), 1, 5), ("c".to_string(), 7, 4)]
    );
}

#[test]
fn no_function_is_over_200_lines() {
    let mut files = Vec::new();
    for dir in ["core/src", "src", "python/src", "node/src"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "the sources were not found");
    let mut long = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).expect("a source file is UTF-8");
        for (name, line, lines) in functions(&src) {
            if lines > MAX_FN_LINES {
                let rel = path.strip_prefix(root()).unwrap_or(path);
                long.push(format!(
                    "{}:{line}: fn {name}: {lines} lines",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them):\n{}",
        long.join("\n")
    );
}
