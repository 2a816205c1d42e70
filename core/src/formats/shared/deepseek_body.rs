//! The body of one DeepSeek call, between its call tokens: V3's
//! `function<SEP>NAME` then fenced JSON, or V3.1's `NAME<SEP>{args}`,
//! with the separator token in any spelling (DeepSeek's, its NFKC and
//! ASCII respellings, Step-3's). Shared by `deepseek-v3` and `step3`.

use super::section::{self, CallOutcome};
use crate::call::{clean_name, ParsedCall};
use crate::formats::ids;
use crate::repair::RepairOptions;
use crate::scan;
use crate::scan::balance::{End, JsonEnd};

/// One DeepSeek call body (between the call tokens), deciding V3 or V3.1,
/// with the separator token spelled `sep_tok`.
pub(crate) fn parse_call_with(
    body: &[u8],
    sep_tok: &[u8],
    off: usize,
    cut: bool,
    opts: &RepairOptions,
) -> CallOutcome {
    let Some(sep) = scan::find(body, 0, sep_tok) else {
        if cut {
            return Err(section::truncated(ids::DEEPSEEK_V3, off + body.len()));
        }
        return Err(section::err(
            "TLP-001",
            "deepseek call has no <｜tool▁sep｜> and no function name",
            off,
        ));
    };
    let before = scan::trim(&body[..sep]);
    let after_at = sep + sep_tok.len();
    let after = &body[after_at..];
    let lead = scan::skip_space(after, 0);
    let bare_json = matches!(after.get(lead), Some(b'{') | Some(b'"'));
    // V3 puts a type word before the separator (`function`) and the name on
    // the line after it; any type word with a name after the separator is
    // that shape (the name after it is the call's, not the word before)
    let name_after = after
        .get(lead)
        .is_some_and(|&b| scan::is_name_start_byte(b));
    if (before == b"function" || name_after) && !bare_json {
        parse_v3(after, off + after_at, cut, opts)
    } else {
        parse_v31(before, after, off, off + after_at, cut, opts)
    }
}

/// The V3 body after the separator: `NAME\n```json\n{args}\n```` (fence
/// optional, tag optional).
fn parse_v3(after: &[u8], off: usize, cut: bool, opts: &RepairOptions) -> CallOutcome {
    // the name runs to the end of its line, a fence or the JSON
    let mut e = 0;
    while e < after.len() && !matches!(after[e], b'\n' | b'`' | b'{') {
        e += 1;
    }
    let name = clean_name(&crate::scan::lossy(&after[..e]));
    if name.is_empty() {
        if cut && e == after.len() {
            return Err(section::truncated(ids::DEEPSEEK_V3, off + after.len()));
        }
        return Err(section::err(
            "TLP-001",
            "deepseek-v3 call has no function name",
            off,
        ));
    }
    if name.contains(['{', '}', '[', ']', '(', ')', '"', '\'', '<', '>']) {
        // the template's name line holds only the name: JSON punctuation in
        // it means the body is garbled, not a call
        return Err(section::err(
            "TLP-001",
            format!("deepseek-v3 call has no valid function name (the name line is {name:?})"),
            off,
        ));
    }
    let (s, end) = fenced(after, scan::skip_space(after, e));
    let (arguments, repairs) =
        section::json_arguments(&after[s..end], off + s, cut, ids::DEEPSEEK_V3, opts)?;
    Ok(ParsedCall {
        repairs,
        ..ParsedCall::new(name, arguments, ids::DEEPSEEK_V3)
    })
}

/// The arguments' span in `after` from `s`: when a code fence opens there,
/// its line (the info string, e.g. `json`) is skipped and the span ends
/// where the JSON object ends (read string-aware, so a fence or a token
/// written inside a string is text), else at the closing fence.
fn fenced(after: &[u8], s: usize) -> (usize, usize) {
    if !after[s..].starts_with(b"```") {
        return (s, after.len());
    }
    let mut t = s + 3;
    while t < after.len() && (after[t] == b'`' || after[t].is_ascii_alphanumeric()) {
        t += 1;
    }
    let v = scan::skip_space(after, t);
    if after.get(v) == Some(&b'{') {
        if let End::At(k) = JsonEnd::new().scan(&after[v..]) {
            return (t, v + k);
        }
    }
    let end = scan::find(after, t, b"```").unwrap_or(after.len());
    (t, end)
}

/// Parses a V3.1 call: `before` is the (trimmed) text before the separator,
/// `after` the text after it (at offset `after_off` in the block).
pub(crate) fn parse_v31(
    before: &[u8],
    after: &[u8],
    off: usize,
    after_off: usize,
    cut: bool,
    opts: &RepairOptions,
) -> CallOutcome {
    let name = clean_name(&crate::scan::lossy(before));
    if name.is_empty() {
        return Err(section::err(
            "TLP-001",
            "deepseek-v3.1 call has no function name",
            off,
        ));
    }
    // tolerate a fence around the JSON
    let (s, end) = fenced(after, scan::skip_space(after, 0));
    let (arguments, repairs) =
        section::json_arguments(&after[s..end], after_off + s, cut, ids::DEEPSEEK_V3_1, opts)?;
    Ok(ParsedCall {
        repairs,
        ..ParsedCall::new(name, arguments, ids::DEEPSEEK_V3_1)
    })
}
