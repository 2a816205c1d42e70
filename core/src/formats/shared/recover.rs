//! Recovering damaged call objects: the call JSON that small models write as
//! a whole reply or on their own lines, broken in ways that leave no JSON
//! value a parser (or the repair engine alone) reads as a call.
//!
//! Recovery runs only where an unmarked candidate already failed: its first
//! bytes look like a call object (`{` then a name or arguments key) and the
//! strict reading gave no call. The candidate is cut into top-level objects
//! by a loose bracket count (quotes tracked until the end of a line, so one
//! stray quote cannot swallow the rest; `(`/`)` count as brackets), with
//! only separators between them (blanks, newlines, `;`, `,`, stray closers,
//! quotes and backslashes). Each object is read first by the repair engine
//! and, if that gives no call, by its envelope: a name key and an arguments
//! key, each possibly damaged (`"parameters>{`, `"parameters {`,
//! `parameters={`, `"name","x"`, a missing colon, stray quotes or
//! backslashes), with the arguments read by the repair engine. Anything else
//! in the envelope (a third key, prose) refuses the whole candidate.
//!
//! A recovered call also needs evidence that it was meant (checked by the
//! callers, `docs/recovery.md` "Evidence"): it stands as the reply, or it
//! names a declared tool; a tool list's schema is never its arguments.
//!
//! The ladder (`docs/recovery.md`): without a tools file a recovered call
//! needs a name that reads as an identifier and an arguments key
//! (`parameters`, `arguments`, `args`, `input`, `params`) holding an object
//! (or a one-element array of one). With `--tools`, a name the file declares
//! is also enough on its own (`{"name": "get_time"}`) or with its arguments
//! under another key, unless that key reports rather than calls (`content`,
//! `result`, `output` …).

use crate::call::{calls_from_owned, Evidence, ParsedCall};
use crate::config::Config;
use crate::formats::{ids, BlockResult};
use crate::repair::{Repair, RepairKind};
use serde_json::{Map, Value};

/// Name keys of a damaged envelope.
const NAME_KEYS: [&str; 4] = ["name", "tool_name", "function", "tool"];
/// Arguments keys of a damaged envelope.
const ARG_KEYS: [&str; 5] = ["parameters", "arguments", "args", "input", "params"];
/// Keys that report or describe rather than call: never arguments, even
/// for a declared tool (a tool result, a message, a schema).
const NOT_ARG_KEYS: [&str; 12] = [
    "content",
    "result",
    "results",
    "output",
    "response",
    "error",
    "return",
    "role",
    "description",
    "properties",
    "value",
    "text",
];

/// The most bytes of a damaged candidate held back for recovery.
pub const HOLD: usize = 64 << 10;

/// Most bytes looked at between `{` and the first key.
const HEAD_WINDOW: usize = 16;

/// One recovered call (offsets relative to the candidate).
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The function name.
    pub name: String,
    /// The arguments object.
    pub arguments: Map<String, Value>,
    /// The provider's id, if the object carried one.
    pub id: Option<String>,
    /// What was repaired, offsets relative to the candidate.
    pub repairs: Vec<Repair>,
    /// The arguments were under `parameters` (Llama 3's key).
    pub parameters_key: bool,
    /// Where this call's text ends (after its separators).
    pub end: usize,
}

/// Whether `input` (a candidate's first bytes: optional `;` and blanks,
/// then `{` or `[`) begins like a call object: brackets, blanks, quotes or
/// backslashes, then a name or arguments key. `None` when more bytes are
/// needed to tell.
pub fn call_head(input: &[u8], eof: bool) -> Option<bool> {
    let mut i = 0;
    while i < input.len() && matches!(input[i], b';' | b' ' | b'\t') {
        i += 1;
    }
    match input.get(i) {
        Some(b'{' | b'[') => {}
        Some(_) => return Some(false),
        None => return if eof { Some(false) } else { None },
    }
    let from = i;
    while i < input.len()
        && i - from < HEAD_WINDOW
        && matches!(
            input[i],
            b'{' | b'[' | b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\'' | b'\\'
        )
    {
        i += 1;
    }
    let rest = &input[i..];
    // the first letter picks the keys to compare (this runs on every
    // unmarked candidate the strict reading refused)
    let keys: &[&str] = match rest.first() {
        None => return if eof { Some(false) } else { None },
        Some(b'n') => &["name"],
        Some(b't') => &["tool_name", "tool"],
        Some(b'f') => &["function"],
        Some(b'p') => &["parameters", "params"],
        Some(b'a') => &["arguments", "args"],
        Some(b'i') => &["input"],
        Some(_) => return Some(false),
    };
    let mut partial = false;
    for key in keys {
        let k = key.as_bytes();
        if rest.len() > k.len() {
            if rest.starts_with(k) && !is_word(rest[k.len()]) {
                return Some(true);
            }
        } else if k.starts_with(rest) {
            partial = true;
        }
    }
    if partial && !eof {
        None
    } else {
        Some(false)
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Separators between recovered objects and stray bytes around them.
fn is_junk(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b';' | b',' | b')' | b']' | b'}' | b'"' | b'\'' | b'\\'
    )
}

/// Where the object or array opening at `from` ends, read loosely: `(`/`)`
/// count as brackets, and quotes are tracked only to the end of a line. The
/// end is the first closer that balances the quote-aware count, or the end
/// of the first line on which a count ignoring quotes balances (a stray
/// quote fooled the other): just after the closer where it balanced. `None`
/// when neither balances.
fn loose_end(b: &[u8], from: usize) -> Option<usize> {
    let (mut aware, mut blind) = (0i32, 0i32);
    let mut quote = 0u8;
    let mut escaped = false;
    let mut prev = b'{';
    // where the count ignoring quotes first balanced
    let mut blind_end = None;
    for (k, &c) in b.iter().enumerate().skip(from) {
        match c {
            b'{' | b'[' | b'(' => blind += 1,
            b'}' | b']' | b')' => {
                blind -= 1;
                if blind <= 0 && blind_end.is_none() {
                    blind_end = Some(k + 1);
                }
            }
            _ => {}
        }
        if c == b'\n' {
            quote = 0;
            escaped = false;
            if blind_end.is_some() {
                return blind_end;
            }
            continue;
        }
        if quote != 0 {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == quote {
                quote = 0;
                prev = c;
            }
            continue;
        }
        match c {
            b'"' => quote = c,
            // an apostrophe opens a string only where a value or key starts
            b'\'' if matches!(prev, b'{' | b'[' | b'(' | b':' | b',') => quote = c,
            b'{' | b'[' | b'(' => aware += 1,
            b'}' | b']' | b')' => {
                aware -= 1;
                if aware <= 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            prev = c;
        }
    }
    blind_end
}

/// Reads the damaged call objects a candidate holds. `None` unless the
/// candidate is, from its start, one or more call objects with only
/// separators between them, each ending its line or followed on it by
/// another; recovery stops before a line that holds anything else, and
/// `end` of the last call is where the calls' text ends.
pub fn recover(text: &str, cfg: &Config) -> Option<Vec<Recovered>> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b';' | b' ' | b'\t') {
        i += 1;
    }
    let mut out: Vec<Recovered> = Vec::new();
    while i < b.len() && matches!(b[i], b'{' | b'[') {
        let seg_end = loose_end(b, i)?;
        let mut calls = read_object(&text[i..seg_end], cfg)?;
        let mut j = seg_end;
        let mut newline = false;
        while j < b.len() && is_junk(b[j]) {
            newline |= b[j] == b'\n';
            j += 1;
        }
        if let Some(last) = calls.last_mut() {
            let mut extra = Vec::new();
            strays(&b[seg_end..j], seg_end - i, 0, &mut extra);
            last.repairs.extend(extra);
        }
        // the calls' text ends after the stray bytes on its line
        let mut end = j;
        while end > seg_end && b[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let shifted = calls.len();
        for (k, c) in calls.iter_mut().enumerate() {
            for r in &mut c.repairs {
                r.offset += i;
            }
            c.end = if k + 1 == shifted { end } else { i + c.end };
        }
        out.extend(calls);
        match b.get(j) {
            None | Some(b'{' | b'[') => {}
            // an end-of-turn or closing token: the engine reads it
            Some(b'<') => break,
            // another line holds something else: the calls end before it
            Some(_) if newline => break,
            // text after the object on its own line: not a call
            Some(_) => return None,
        }
        i = j;
    }
    (!out.is_empty()).then_some(out)
}

/// The calls [`recover`] finds in `block` from `from` on, as a block's
/// result: they must account for the rest of the block but for a closing
/// or end-of-turn token (`<…`). A call is labelled `llama3-json` when its
/// arguments were under `parameters`, else `bare-json`.
pub fn block_result(block: &[u8], from: usize, cfg: &Config) -> Option<BlockResult> {
    let text = crate::scan::lossy(block.get(from..)?);
    let calls = recover(&text, cfg)?;
    let last = calls.last()?.end;
    let rest = text.get(last..)?.trim_start();
    if !(rest.is_empty() || rest.starts_with('<')) {
        return None;
    }
    let n = calls.len();
    let calls = calls
        .into_iter()
        .enumerate()
        .map(|(k, c)| ParsedCall {
            id: c.id,
            repairs: c
                .repairs
                .into_iter()
                .map(|r| Repair {
                    offset: r.offset + from,
                    ..r
                })
                .collect(),
            end: if k + 1 == n {
                block.len()
            } else {
                from + c.end
            },
            ..ParsedCall::new(
                c.name,
                c.arguments,
                if c.parameters_key {
                    ids::LLAMA3_JSON
                } else {
                    ids::BARE_JSON
                },
            )
        })
        .collect();
    Some(BlockResult::calls(calls))
}

/// The calls of one top-level object: the repair engine's reading if it is
/// call-shaped, else the envelope's.
///
/// The rungs a tools file adds are tried only when those without it find
/// nothing, so a tools file never makes a reading worse (a name alone is
/// never preferred to the envelope's arguments).
fn read_object(seg: &str, cfg: &Config) -> Option<Vec<Recovered>> {
    let parsed = crate::call::parse_json(seg, &cfg.repair_options()).ok();
    for tools in [false, true] {
        if tools && cfg.tool_names.is_none() {
            break;
        }
        let rung = Rung { cfg, tools };
        if let Some((value, repairs)) = &parsed {
            if let Some(calls) = from_value(seg, value.clone(), repairs.clone(), rung) {
                return Some(calls);
            }
        }
        if let Some(c) = envelope(seg, rung) {
            return Some(vec![c]);
        }
    }
    None
}

/// The settings a reading runs under, and whether the rungs a tools file
/// adds are on.
#[derive(Clone, Copy)]
struct Rung<'a> {
    cfg: &'a Config,
    tools: bool,
}

impl Rung<'_> {
    /// The tools file declares `name`, and its rungs are on.
    fn declares(self, name: &str) -> bool {
        self.tools && self.cfg.declares(name)
    }
}

/// A name that reads as a function name (without a tools file).
fn identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':'))
}

/// Whether `name` may be a recovered call's name under `cfg`.
fn name_ok(name: &str, rung: Rung) -> bool {
    identifier(name) || rung.declares(name)
}

/// The call or calls a repaired value holds, or `None`.
fn from_value(
    seg: &str,
    mut value: Value,
    mut repairs: Vec<Repair>,
    rung: Rung,
) -> Option<Vec<Recovered>> {
    if let Value::Object(obj) = &mut value {
        for key in ARG_KEYS {
            if let Some(Value::Array(items)) = obj.get_mut(key) {
                if items.len() == 1 && items[0].is_object() {
                    let inner = items.pop()?;
                    obj.insert(key.to_string(), inner);
                    let offset = seg.find(key).unwrap_or(0);
                    repairs.push(Repair {
                        kind: RepairKind::ArgumentsInArray,
                        offset,
                    });
                }
            }
        }
    }
    let parameters_key = value.get("parameters").is_some();
    let calls = match calls_from_owned(value.clone(), Evidence::Weak) {
        Ok(parts) => parts
            .into_iter()
            .map(|p| (p.name, p.arguments, p.id, p.repairs))
            .collect::<Vec<_>>(),
        Err(_) => vec![declared_shape(value, rung)?],
    };
    let n = calls.len();
    let mut out = Vec::with_capacity(n);
    for (name, arguments, id, more) in calls {
        if !name_ok(&name, rung) {
            return None;
        }
        let mut reps = repairs.clone();
        reps.extend(more);
        out.push(Recovered {
            name,
            arguments,
            id,
            repairs: reps,
            parameters_key,
            end: seg.len(),
        });
    }
    (!out.is_empty()).then_some(out)
}

type Parts = (String, Map<String, Value>, Option<String>, Vec<Repair>);

/// With `--tools`: an object naming a declared tool, alone or with one
/// other key holding an object that is not a report.
fn declared_shape(value: Value, rung: Rung) -> Option<Parts> {
    let Value::Object(mut obj) = value else {
        return None;
    };
    let name_key = NAME_KEYS
        .iter()
        .find(|k| obj.get(**k).is_some_and(Value::is_string))?;
    let name = obj.remove(*name_key)?.as_str()?.trim().to_string();
    if !rung.declares(&name) || obj.len() > 1 {
        return None;
    }
    let arguments = match obj.into_iter().next() {
        None => Map::new(),
        Some((k, Value::Object(args))) if !NOT_ARG_KEYS.contains(&k.as_str()) => args,
        Some(_) => return None,
    };
    Some((name, arguments, None, Vec::new()))
}

/// One member of a damaged envelope.
enum Member {
    Name(String),
    Args(Map<String, Value>, bool),
    /// Another key holding an object (arguments only for a declared tool).
    Other(String, Map<String, Value>),
}

/// Reads a damaged envelope: brackets, then two members (a name and the
/// arguments, in either order) or, for a declared tool, the name alone;
/// then only stray closers, quotes and blanks.
fn envelope(seg: &str, rung: Rung) -> Option<Recovered> {
    let b = seg.as_bytes();
    let mut repairs = Vec::new();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b'{' | b'[' | b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    if i != 1 {
        // doubled brackets around the object
        repairs.push(Repair {
            kind: RepairKind::DamagedKey,
            offset: 0,
        });
    }
    let (first, e1) = member(seg, i, rung.cfg, &mut repairs)?;
    let mut j = e1;
    while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\r' | b'\n' | b',') {
        j += 1;
    }
    let (second, end) = match member(seg, j, rung.cfg, &mut repairs) {
        Some((m, e)) => (Some(m), e),
        None => (None, e1),
    };
    if !seg[end..].bytes().all(is_junk) {
        return None;
    }
    let opens = b[..i].iter().filter(|&&c| c == b'{').count();
    strays(&b[end..], end, opens, &mut repairs);
    let (name, args) = match (first, second) {
        (Member::Name(n), a) => (n, a),
        (a, Some(Member::Name(n))) => (n, Some(a)),
        _ => return None,
    };
    if !name_ok(&name, rung) {
        return None;
    }
    let declared = rung.declares(&name);
    let (arguments, parameters_key) = match args {
        // a tool list's entry: its parameters are a schema, never arguments
        Some(Member::Args(map, true)) if crate::call::is_object_schema_map(&map) => return None,
        Some(Member::Args(map, parameters)) => (map, parameters),
        Some(Member::Other(key, map)) if declared && !NOT_ARG_KEYS.contains(&key.as_str()) => {
            (map, false)
        }
        None if declared => (Map::new(), false),
        _ => return None,
    };
    repairs.sort_by_key(|r| r.offset);
    Some(Recovered {
        name,
        arguments,
        id: None,
        repairs,
        parameters_key,
        end: seg.len(),
    })
}

/// Reports the stray bytes after an object (at `offset`), where `closes`
/// closing braces belong: extra closers (`extra_close`), quotes or
/// backslashes (`stray_text`), a missing brace (`missing_close`).
/// Blanks, `;` and `,` are separators.
fn strays(rest: &[u8], offset: usize, closes: usize, repairs: &mut Vec<Repair>) {
    let mut braces = 0;
    let (mut extra, mut stray) = (None, None);
    for (k, &c) in rest.iter().enumerate() {
        match c {
            b'}' if braces < closes => braces += 1,
            b'}' | b']' | b')' => {
                extra.get_or_insert(offset + k);
            }
            b'"' | b'\'' | b'\\' => {
                stray.get_or_insert(offset + k);
            }
            _ => {}
        }
    }
    if braces < closes {
        repairs.push(Repair {
            kind: RepairKind::MissingClose,
            offset: offset + rest.len(),
        });
    }
    for (kind, at) in [
        (RepairKind::ExtraClose, extra),
        (RepairKind::StrayText, stray),
    ] {
        if let Some(offset) = at {
            repairs.push(Repair { kind, offset });
        }
    }
}

/// Reads one member at `i`: a key (possibly with broken quotes), a
/// separator (possibly `>`, `=`, `,`, blanks or nothing), and the value.
fn member(seg: &str, i: usize, cfg: &Config, repairs: &mut Vec<Repair>) -> Option<(Member, usize)> {
    let b = seg.as_bytes();
    let mut ks = i;
    while ks < b.len() && matches!(b[ks], b'"' | b'\'' | b'\\') {
        ks += 1;
    }
    let mut ke = ks;
    while ke < b.len() && is_word(b[ke]) {
        ke += 1;
    }
    let key = &seg[ks..ke];
    if key.is_empty() {
        return None;
    }
    let mut v = ke;
    while v < b.len()
        && v - ke < 8
        && matches!(
            b[v],
            b'"' | b'\'' | b'\\' | b' ' | b'\t' | b':' | b'=' | b'>' | b',' | b'('
        )
    {
        v += 1;
    }
    let canonical =
        ks == i + 1 && b[i] == b'"' && seg[ke..v].trim_end_matches('"').trim_end() == "\":";
    let is_name = NAME_KEYS.contains(&key);
    let mut damaged = !canonical;
    let (member, end) = if is_name && !matches!(b.get(v), Some(b'{' | b'[')) {
        // the name: an identifier-like run, quoted or not
        let mut e = v;
        while e < b.len() && (is_word(b[e]) || matches!(b[e], b'-' | b'.' | b'/' | b':')) {
            e += 1;
        }
        if e == v {
            return None;
        }
        damaged |= !(v > ke && b[v - 1] == b'"' && b.get(e) == Some(&b'"'));
        let mut end = e;
        while end < b.len() && matches!(b[end], b'"' | b'\'' | b'\\') {
            end += 1;
        }
        (Member::Name(seg[v..e].to_string()), end)
    } else {
        if !matches!(b.get(v), Some(b'{' | b'[')) {
            return None;
        }
        let end = loose_end(b, v)?;
        let (value, mut reps) = arguments_text(&seg[v..end], cfg)?;
        for r in &mut reps {
            r.offset += v;
        }
        let map = match value {
            Value::Object(map) => map,
            Value::Array(mut items) if items.len() == 1 && items[0].is_object() => {
                reps.push(Repair {
                    kind: RepairKind::ArgumentsInArray,
                    offset: v,
                });
                match items.pop() {
                    Some(Value::Object(map)) => map,
                    _ => return None,
                }
            }
            _ => return None,
        };
        repairs.extend(reps);
        let m = if ARG_KEYS.contains(&key) {
            Member::Args(map, key == "parameters")
        } else {
            Member::Other(key.to_string(), map)
        };
        (m, end)
    };
    if damaged {
        repairs.push(Repair {
            kind: RepairKind::DamagedKey,
            offset: i,
        });
    }
    Some((member, end))
}

/// Arguments text with the damage small models leave around their keys
/// undone (`None` when there is none): junk bytes (`\\`, `>`) between an
/// opening brace or a comma and a key's quote (`{\\>"city": …}`), a key
/// whose quotes do not match (`"data': …`, `'data": …`), and a stray quote
/// between a closing bracket and the brace that closes the object
/// (`true]"}`). Quoted values are left alone.
fn mend_keys(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    let mut i = 0;
    // a key may start after `{` or `,` and blanks
    let mut key_place = false;
    while i < b.len() {
        let c = b[i];
        if key_place && matches!(c, b'\\' | b'>') {
            let mut j = i;
            while j < b.len() && matches!(b[j], b'\\' | b'>' | b' ') {
                j += 1;
            }
            if b.get(j) == Some(&b'"') {
                changed = true;
                i = j;
                continue;
            }
        }
        if key_place && matches!(c, b'"' | b'\'') {
            // a key: a word, then the other quote and a colon
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let other = if c == b'"' { b'\'' } else { b'"' };
            if j > i + 1 && b.get(j) == Some(&other) && b.get(j + 1) == Some(&b':') {
                out.push(b'"');
                out.extend_from_slice(&b[i + 1..j]);
                out.push(b'"');
                changed = true;
                i = j + 1;
                key_place = false;
                continue;
            }
        }
        if matches!(c, b']' | b'}') && b.get(i + 1) == Some(&b'"') && b.get(i + 2) == Some(&b'}') {
            out.push(c);
            changed = true;
            i += 2;
            continue;
        }
        match c {
            b'{' | b',' => key_place = true,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => key_place = false,
        }
        // a quoted value is copied as it is
        if c == b'"' && !key_place {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.extend_from_slice(&b[i..end]);
            i = end;
            continue;
        }
        out.push(c);
        i += 1;
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

/// Arguments text read by the repair engine; written escaped (`{\"a\": 1}`)
/// it is unescaped first.
fn arguments_text(text: &str, cfg: &Config) -> Option<(Value, Vec<Repair>)> {
    let opts = cfg.repair_options();
    if let Ok(ok) = crate::call::parse_json(text, &opts) {
        return Some(ok);
    }
    if let Some(mended) = mend_keys(text) {
        if let Ok((v, _)) = crate::call::parse_json(&mended, &opts) {
            // one repair at the start says what was done
            let reps = vec![Repair {
                kind: RepairKind::DamagedKey,
                offset: 0,
            }];
            return Some((v, reps));
        }
    }
    if text.contains("\\\"") {
        let unescaped = text.replace("\\\"", "\"");
        if let Ok((v, mut reps)) = crate::call::parse_json(&unescaped, &opts) {
            // offsets in the unescaped text are not the input's: one repair
            // at the start says what was done
            reps.clear();
            reps.push(Repair {
                kind: RepairKind::EscapedDocument,
                offset: 0,
            });
            return Some((v, reps));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, cfg: &Config) -> Option<Vec<(String, Value)>> {
        recover(text, cfg).map(|calls| {
            calls
                .into_iter()
                .map(|c| (c.name, Value::Object(c.arguments)))
                .collect()
        })
    }

    fn one(text: &str) -> (String, Value, Vec<RepairKind>) {
        let cfg = Config::default();
        let calls = recover(text, &cfg).unwrap_or_else(|| panic!("no call in {text}"));
        assert_eq!(calls.len(), 1, "{text}");
        let c = &calls[0];
        (
            c.name.clone(),
            Value::Object(c.arguments.clone()),
            c.repairs.iter().map(|r| r.kind).collect(),
        )
    }

    #[test]
    fn damaged_keys_are_read_by_the_key_they_name() {
        let want = serde_json::json!({"city": "Oslo"});
        for text in [
            r#"{"name": "weather", "parameters>{"city": "Oslo"}}"#,
            r#"{"name": "weather", "parameters {"city": "Oslo"}}"#,
            r#"{"name": "weather", parameters={"city": "Oslo"}}"#,
            r#"{"name","weather", "arguments": {"city": "Oslo"}}"#,
            r#"{"parameters": {"city": "Oslo"}, "name" "weather"}"#,
            r#"{"name": "weather", "arguments": [{"city": "Oslo"}]}"#,
            r#"{"name": "weather", "arguments": {"city": "Oslo"}})"#,
            r#"{{"name": "weather", "args": {"city": "Oslo"}}}"#,
        ] {
            let (name, args, kinds) = one(text);
            assert_eq!(name, "weather", "{text}");
            assert_eq!(args, want, "{text}");
            assert!(!kinds.is_empty(), "{text}: nothing reported repaired");
        }
    }

    #[test]
    fn several_objects_with_separators() {
        let cfg = Config::default();
        let got = names(
            "{\"name\": \"a\", \"arguments\": {}} {\"name\": \"b\", \"arguments\": {\"x\": 1}};\n{\"name\": \"c\", \"parameters>{}}",
            &cfg,
        )
        .expect("calls");
        let names: Vec<_> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn not_calls_stay_refused() {
        let cfg = Config::default();
        for text in [
            r#"{"name": "Michael Jordan", "year_born": "1963"}"#,
            r#"{"role": "tool", "name": "weather", "content": {"t": 3}}"#,
            r#"{"parameters": {"city": "Oslo"}}"#,
            r#"{"name": "weather", "parameters>{"city": "Oslo"}} is what I would send"#,
            r#"{"name": "weather"}"#,
            r#"{"name": "the weather tool", "parameters": {"city": "Oslo"}}"#,
            r#"{"name": "weather", "id": 3, "parameters>{"city": "Oslo"}}"#,
        ] {
            assert_eq!(names(text, &cfg), None, "{text}");
        }
    }

    #[test]
    fn a_declared_tool_needs_less() {
        let cfg = Config {
            tool_names: Some(vec!["get_time".to_string(), "weather".to_string()].into()),
            ..Config::default()
        };
        assert_eq!(
            names(r#"{"name": "get_time"}"#, &cfg),
            Some(vec![("get_time".to_string(), serde_json::json!({}))])
        );
        assert_eq!(
            names(r#"{"name", "weather", "query": {"city": "Oslo"}}"#, &cfg),
            Some(vec![(
                "weather".to_string(),
                serde_json::json!({"city": "Oslo"})
            )])
        );
        // undeclared, or a report naming the tool: still refused
        assert_eq!(names(r#"{"name": "other"}"#, &cfg), None);
        assert_eq!(
            names(r#"{"name": "weather", "content": {"t": 3}}"#, &cfg),
            None
        );
    }

    #[test]
    fn call_head_needs_a_key() {
        assert_eq!(call_head(b"{\"name\": 1", false), Some(true));
        assert_eq!(call_head(b"; {\\\"parameters\\\"", false), Some(true));
        assert_eq!(call_head(b"{\"nam", false), None);
        assert_eq!(call_head(b"{\"nam", true), Some(false));
        assert_eq!(call_head(b"{\"names\": 1", false), Some(false));
        assert_eq!(call_head(b"{\"city\": 1", false), Some(false));
    }
}
