//! Prompted Python-style call lists written loosely: what evaluation
//! prompts and system prompts ask for (`[func(a=1), func2(b="x")]`) as
//! models really write it.
//!
//! * wrapped in inline code or emphasis (`` `[f(a=1)]` ``, `**[f(a=1)]**`):
//!   the closing run (backticks, `*`, `_`) follows the list and the same run
//!   ends the text right before it;
//! * one closer too many (`[f(a=1))]`, `[f(a=1)])`): dropped and reported
//!   as `extra_close`;
//! * a JSON array of call strings (`["f(a=1)", "g(b='x')"]`) or of
//!   `[name, {args}]` pairs (`["f", {"a": 1}]`, `[["f", {…}], ["g", {…}]]`).
//!
//! Every call needs keyword arguments (or none), and a name that is no
//! template placeholder (`tool_name`); see `shared::evidence`.

use super::literal::{parse_call_list, parse_call_sequence, unwrap_print, PyCalls, PyError};
use crate::call::ParsedCall;
use crate::formats::shared::evidence;
use crate::formats::{BlockResult, FormatId, ParseCx};
use crate::repair::{Repair, RepairKind};
use serde_json::{Map, Value};

/// Bytes that may wrap an inline call list: code and emphasis.
pub fn is_wrap_byte(b: u8) -> bool {
    matches!(b, b'`' | b'*' | b'_')
}

/// Most wrapping bytes on either side (`***`, three backticks).
pub const MAX_WRAP: usize = 3;

/// Most extra closers dropped.
pub const MAX_EXTRA: usize = 2;

/// Splits a list block into the list (with any extra closers) and the
/// closing wrap run after it; `None` when the wrap run does not match the
/// text right before the block (`before`).
pub fn unwrap<'a>(text: &'a str, before: &[u8]) -> Option<(&'a str, usize)> {
    let t = text.trim_end();
    let list = t.trim_end_matches(|c: char| c.is_ascii() && is_wrap_byte(c as u8));
    let run = &t[list.len()..];
    if run.is_empty() {
        return Some((list, 0));
    }
    if run.len() > MAX_WRAP || !before.ends_with(run.as_bytes()) {
        return None;
    }
    Some((list, run.len()))
}

/// Parses a call list, dropping up to [`MAX_EXTRA`] closers the parser
/// finds one too many of (`[f(a=1))]`, `[f(a=1)])`). The repairs say where
/// (offsets into `text`).
pub fn call_list_dropping_extra(text: &str) -> Result<(PyCalls, Vec<Repair>), PyError> {
    let mut owned = text.to_string();
    let mut repairs: Vec<Repair> = Vec::new();
    loop {
        match parse_call_list(&owned, false) {
            Ok(pc) => return Ok((pc, repairs)),
            Err(PyError::Syntax(at))
                if repairs.len() < MAX_EXTRA && matches!(owned.as_bytes().get(at), Some(b')')) =>
            {
                // the offset in the text as written (earlier drops came
                // before it: the parser reads left to right)
                let shift = repairs.len();
                repairs.push(Repair {
                    kind: RepairKind::ExtraClose,
                    offset: at + shift,
                });
                owned.remove(at);
            }
            Err(e) => return Err(e),
        }
    }
}

/// Whether any call of a parsed list is a placeholder no tools file
/// declares (`[tool_name(arg="value")]`).
pub fn placeholder_calls(names: impl IntoIterator<Item = String>, cx: &ParseCx) -> bool {
    names
        .into_iter()
        .any(|n| evidence::placeholder_name(&n) && !cx.cfg.declares(&n))
}

/// Calls from a JSON array of call strings (`["f(a=1)", "g(b=2)"]`) or of
/// `[name, {args}]` pairs, labelled `format`; `None` for anything else
/// (every element must be one call with keyword arguments, or a pair whose
/// name reads as an identifier).
pub fn string_list_calls(block: &[u8], format: FormatId, cx: &ParseCx) -> Option<BlockResult> {
    let text = crate::scan::lossy(block);
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let Value::Array(items) = value else {
        return None;
    };
    // one pair alone: `["f", {…}]`
    let items = match items.as_slice() {
        [Value::String(_), Value::Object(_)] => vec![Value::Array(items)],
        _ => items,
    };
    if items.is_empty() {
        return None;
    }
    let mut calls = Vec::with_capacity(items.len());
    for item in items {
        let (name, arguments) = match item {
            Value::String(s) => {
                let pc = parse_call_sequence(&s, false).ok()?;
                let [call] = <[_; 1]>::try_from(pc.calls).ok()?;
                let call = unwrap_print(call);
                if call.positional > 0 {
                    return None;
                }
                (call.name, call.arguments)
            }
            Value::Array(pair) => match <[Value; 2]>::try_from(pair).ok()? {
                [Value::String(name), Value::Object(args)] => (name, args),
                _ => return None,
            },
            _ => return None,
        };
        if !identifier(&name) && !cx.cfg.declares(&name) {
            return None;
        }
        calls.push((name, arguments));
    }
    if placeholder_calls(calls.iter().map(|(n, _)| n.clone()), cx) {
        return None;
    }
    // the calls are not told apart within the value: each runs to its end
    let calls = calls
        .into_iter()
        .map(
            |(name, arguments): (String, Map<String, Value>)| ParsedCall {
                end: block.len(),
                ..ParsedCall::new(name, arguments, format)
            },
        )
        .collect();
    Some(BlockResult::calls(calls))
}

/// A name that reads as a function name: letters, digits, `_ . - :`,
/// starting with a letter or `_`.
fn identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.len() <= 128
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_closers_are_dropped() {
        for s in ["[f(a=1))]", "[f(a=1)])", "[f(a=1), g(b=2)))]"] {
            let (pc, reps) = call_list_dropping_extra(s).unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert!(!pc.calls.is_empty(), "{s}");
            assert!(!reps.is_empty(), "{s}");
        }
        assert!(call_list_dropping_extra("[f(a=1)))))]").is_err());
        assert!(call_list_dropping_extra("[f(a=1]").is_err());
    }

    #[test]
    fn wraps_must_match() {
        assert_eq!(unwrap("[f(a=1)]**", b"Sure: **"), Some(("[f(a=1)]", 2)));
        assert_eq!(unwrap("[f(a=1)]`", b"`"), Some(("[f(a=1)]", 1)));
        assert_eq!(unwrap("[f(a=1)]**", b"Sure: "), None);
        assert_eq!(unwrap("[f(a=1)]", b"x"), Some(("[f(a=1)]", 0)));
    }
}
