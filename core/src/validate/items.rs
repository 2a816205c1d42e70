//! What `validate` judges, read from any input: the calls and broken
//! candidates of model text (with the transcript checks TLP-009/010 run
//! as the turns go by), of `tool_call`/`error` records, and of structured
//! conversations (with the conversation checks TLP-009 to TLP-014); and the
//! verdict on each, with the places its diagnostics point at.
//!
//! The program decides what to do with an item (print, retry, count);
//! nothing here prints, opens a file or runs a model.

use super::diag::{self, Located};
use super::messages::{self, CallEntry, Entry, Kind, Transcript};
use super::records::{bad_line_message, call_from_record, is_records, record_lines, stand_in};
use super::registry::Registry;
use super::retry::{Failure, FailureKind};
use super::shapes;
use super::turns::{Candidate, Checked, TurnCheck, TurnsSeen};
use super::{Issue, Policy, Risk, Verdict};
use crate::{Config, ToolCall};
use serde_json::Value;
use std::rc::Rc;

/// A document's bytes with their line index, shared by its items.
pub type Text = Rc<Located<Vec<u8>>>;

/// One thing to judge: a call, or a candidate the parser gave up on.
#[derive(Debug)]
pub struct Item {
    /// The call (for a broken candidate, the record standing in for it).
    pub call: ToolCall,
    /// The parser's error, for a candidate that is not a call.
    pub broken: Option<Issue>,
    /// The file name diagnostics carry.
    pub file: String,
    /// The bytes diagnostics quote (`None`: nothing to quote).
    pub text: Option<Text>,
    /// The item's offset in `text`.
    pub offset: usize,
    /// Set for a call (or a result) of a conversation.
    pub conv: Option<Conv>,
    /// The item stands for a document, a line or an array element that
    /// was refused (too large, not JSON, no conversation): no call, and
    /// not counted as one.
    pub refused_document: bool,
}

/// Where an item of a conversation sits, and what the conversation checks
/// found about it.
#[derive(Debug)]
pub struct Conv {
    /// The turn's index.
    pub turn: usize,
    /// The turn's role.
    pub role: String,
    /// The call's JSON Pointer (`None` in a raw transcript).
    pub pointer: Option<String>,
    /// The call was written in the message's content.
    pub in_content: bool,
    /// Conversation issues, each with the offset its diagnostic points at.
    pub lint: Vec<(Issue, usize)>,
    /// The tools are the conversation's own: an unknown tool is its
    /// TLP-012, not TLP-005.
    pub own_tools: bool,
    /// The arguments string did not parse and TLP-013 is allowed: the
    /// schema errors that follow from it are not reported either.
    pub skip_schema: bool,
}

impl Conv {
    /// For a call of a raw transcript: its turn, and the issues the
    /// transcript's checks found.
    pub fn raw(call: &ToolCall, lint: Vec<(Issue, usize)>) -> Conv {
        let turn = call.turn.unwrap_or(crate::Turn {
            index: 0,
            role: "assistant",
        });
        Conv {
            turn: turn.index as usize,
            role: turn.role.to_string(),
            pointer: None,
            in_content: false,
            lint,
            own_tools: false,
            skip_schema: false,
        }
    }
}

impl Item {
    /// A candidate that is no call: `call` stands in for it, `issue` says
    /// why, and its diagnostic points at `offset` of `text`.
    pub fn refused(call: ToolCall, issue: Issue, file: &str, text: &Text, offset: usize) -> Item {
        Item {
            call,
            broken: Some(issue),
            file: file.to_string(),
            text: Some(text.clone()),
            offset,
            conv: None,
            refused_document: false,
        }
    }

    /// A document, a line or an array element that was not read (`issue`
    /// says why): `call` stands in for it, and it is not counted as a
    /// call.
    pub fn refused_document(
        call: ToolCall,
        issue: Issue,
        file: &str,
        text: &Text,
        offset: usize,
    ) -> Item {
        Item {
            refused_document: true,
            ..Item::refused(call, issue, file, text, offset)
        }
    }

    /// A call found at `offset` of `text`.
    fn found(call: ToolCall, file: &str, text: &Text, offset: usize) -> Item {
        Item {
            call,
            broken: None,
            file: file.to_string(),
            text: Some(text.clone()),
            offset,
            conv: None,
            refused_document: false,
        }
    }
}

impl Candidate for Item {
    fn call(&self) -> &ToolCall {
        &self.call
    }

    fn is_broken(&self) -> bool {
        self.broken.is_some()
    }
}

/// The items of one document of model text or records, handed to `judge`
/// in document order as they are found. Records (`tool_call` and `error`
/// lines) are read whole; `source` gives the bytes of a document a record
/// names, for its diagnostics to quote (`None`: they point at the record's
/// line). Model text is fed to the engine a slice at a time and what lies
/// before its settled offset is judged and dropped, so a large
/// transcript's calls are never all held at once (only the document,
/// which diagnostics quote). In a transcript (a document with turn
/// headers) the checks that need no ids run as the turns go by
/// ([`TurnCheck`]); `allow` holds the codes switched off. Returns the wire
/// summary of model text (`None` for records).
pub fn document_items<E>(
    name: &str,
    bytes: Vec<u8>,
    cfg: &Config,
    wire: &crate::wire::WireConfig,
    source: impl FnMut(&str) -> Option<Vec<u8>>,
    allow: &[String],
    mut judge: impl FnMut(Item) -> Result<(), E>,
) -> Result<Option<crate::wire::Summary>, E> {
    if is_records(&bytes) {
        record_items(name, bytes, source)
            .into_iter()
            .try_for_each(judge)?;
        return Ok(None);
    }
    /// Slice of the document fed at a time.
    const SLICE: usize = 1 << 20;
    let text = Rc::new(Located::new(bytes));
    let mut engine = crate::wire::WireEngine::new(cfg.clone(), wire.clone());
    // found but not judged yet; `index` numbers the judged ones
    let mut pending: Vec<Item> = Vec::new();
    let mut index = 0usize;
    let mut flush = |pending: &mut Vec<Item>, before: u64| -> Result<(), E> {
        // calls before errors at one offset, each in the order found
        pending.sort_by_key(|it| (it.call.span[0], it.broken.is_some()));
        let n = pending.partition_point(|it| it.call.span[0] < before);
        for mut item in pending.drain(..n) {
            item.call.index = index;
            index += 1;
            judge(item)?;
        }
        Ok(())
    };
    let bytes = text.bytes();
    let mut check = TurnCheck::new(allow);
    let mut checked = Vec::new();
    let mut at = 0;
    loop {
        let end = (at + SLICE).min(bytes.len());
        // the calls and errors only: the text is not kept (memory)
        let mut found = TurnsSeen {
            found: crate::Collector::calls_only(),
            turns: Vec::new(),
        };
        if at < end {
            engine.feed(&bytes[at..end], &mut found);
        } else {
            engine.finish(&mut found);
        }
        let items = found_items(name, &text, found.found);
        check.take(items, found.turns, name, bytes, &mut checked);
        if at >= end {
            check.finish(&mut checked);
        }
        pending.extend(checked.drain(..).map(|c| checked_item(c, name, &text)));
        if at >= end {
            flush(&mut pending, u64::MAX)?;
            break;
        }
        if let Some(settled) = engine.settled() {
            // a held call is judged once its turn's fate is known
            let held = check.held_from().unwrap_or(u64::MAX);
            flush(&mut pending, settled.min(held))?;
        }
        at = end;
    }
    Ok(Some(engine.summary()))
}

/// An item the transcript checks handed on, with what they found.
fn checked_item(c: Checked<Item>, name: &str, text: &Text) -> Item {
    match c {
        Checked::Item(item, None) => item,
        Checked::Item(mut item, Some(issue)) => {
            item.conv = Some(Conv::raw(&item.call, vec![(issue, item.offset)]));
            item
        }
        Checked::Orphan {
            call,
            issue,
            offset,
        } => Item {
            conv: Some(Conv::raw(&call, vec![(issue.clone(), offset)])),
            ..Item::refused(*call, issue, name, text, offset)
        },
    }
}

/// The calls and errors a collector found, as items to judge.
fn found_items(name: &str, text: &Text, found: crate::Collector) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::with_capacity(found.calls.len() + found.errors.len());
    for call in found.calls {
        let offset = call.span[0] as usize;
        items.push(Item::found(call, name, text, offset));
    }
    for e in found.errors {
        let call = ToolCall {
            name: super::records::name_in(&e.raw),
            turn: e.turn,
            ..stand_in(name, &e.raw, e.span)
        };
        let issue = Issue::call(
            e.code,
            match &e.hint {
                Some(h) => format!("{} ({h})", e.message),
                None => e.message.clone(),
            },
        );
        items.push(Item::refused(call, issue, name, text, e.offset as usize));
    }
    items
}

/// Items from NDJSON records. Diagnostics point into the record's own
/// document when `source` gives its bytes, else at the record's line.
fn record_items(
    name: &str,
    bytes: Vec<u8>,
    mut source: impl FnMut(&str) -> Option<Vec<u8>>,
) -> Vec<Item> {
    let mut items = Vec::new();
    let ndjson = Rc::new(Located::new(bytes));
    let mut cache: std::collections::HashMap<String, Option<Text>> = Default::default();
    for (number, start, line, rec) in record_lines(ndjson.bytes()) {
        let v = match rec {
            Ok(v) => v,
            Err(why) => {
                let end = start + line.len();
                let raw = crate::lossy(&line[..line.len().min(512)]).into_owned();
                let call = stand_in(name, &raw, [start as u64, end as u64]);
                let issue = Issue::call("TLP-008", bad_line_message(number, why));
                items.push(Item::refused(call, issue, name, &ndjson, start));
                continue;
            }
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let span = [
            v.pointer("/span/0").and_then(Value::as_u64).unwrap_or(0),
            v.pointer("/span/1").and_then(Value::as_u64).unwrap_or(0),
        ];
        let doc = s("doc");
        let own = if doc.is_empty() || doc == "-" {
            None
        } else {
            cache
                .entry(doc.clone())
                .or_insert_with(|| source(&doc).map(|b| Rc::new(Located::new(b))))
                .clone()
                .filter(|b| b.bytes().len() as u64 >= span[1])
        };
        let (file, text, offset) = match own {
            Some(b) => (doc.clone(), b, span[0] as usize),
            None => (name.to_string(), ndjson.clone(), start),
        };
        let doc_name = if doc.is_empty() {
            name.to_string()
        } else {
            doc
        };
        match v.get("type").and_then(Value::as_str) {
            Some("tool_call") => {
                let mut call = call_from_record(&v, name);
                if call.raw.is_empty() && Rc::ptr_eq(&text, &ndjson) {
                    call.raw = String::from_utf8_lossy(line).into_owned();
                }
                items.push(Item::found(call, &file, &text, offset));
            }
            Some("error") => {
                let code = match s("code").as_str() {
                    "TLP-001" => "TLP-001",
                    "TLP-003" => "TLP-003",
                    "TLP-007" => "TLP-007",
                    "TLP-008" => "TLP-008",
                    _ => "TLP-002",
                };
                let offset = if Rc::ptr_eq(&text, &ndjson) {
                    offset
                } else {
                    v.get("offset").and_then(Value::as_u64).unwrap_or(span[0]) as usize
                };
                let call = stand_in(&doc_name, &s("raw"), span);
                let issue = Issue::call(code, s("message"));
                items.push(Item::refused(call, issue, &file, &text, offset));
            }
            _ => {}
        }
    }
    items
}

/// What the text of a conversation is, for finding where its pointers
/// lie.
#[derive(Clone, Copy, Debug)]
pub enum Spans<'a> {
    /// The JSON document the pointers are of.
    Document,
    /// Lines of a session log, the first of them line `N` (0-based) of
    /// its file: pointers start with a line index in the file.
    Lines(usize),
    /// Element `base` (`/K`) of a top-level array, alone: the pointers are
    /// the array's (a large array is read an element at a time).
    Element(&'a str),
}

/// [`messages::spans`] of an element's text, for pointers of the whole
/// array (`base` is the element's pointer, `/K`).
fn element_spans(
    text: &[u8],
    wanted: &std::collections::HashSet<&str>,
    base: &str,
) -> (std::collections::HashMap<String, [usize; 2]>, u64) {
    let inner: std::collections::HashSet<&str> = wanted
        .iter()
        .filter_map(|p| p.strip_prefix(base))
        .filter(|p| p.is_empty() || p.starts_with('/'))
        .collect();
    let (found, work) = messages::spans(text, &inner);
    let spans = found
        .into_iter()
        .map(|(p, span)| (format!("{base}{p}"), span))
        .collect();
    (spans, work)
}

/// The items of one conversation read: each field of the wrong type
/// (TLP-008, first), each call with its conversation issues, each result
/// the checks found fault with and each call that could not be read.
/// `text` is the JSON it was read from (`spans`: a session log's lines, whose
/// pointers start with a line index), `file` the name diagnostics carry,
/// `doc` the records'; calls are numbered from `first`. `allow` holds the
/// codes switched off; `own_tools`: the conversation's tools are the ones
/// its calls are checked against. [`each_transcript_item`] hands them over
/// one at a time instead.
#[allow(clippy::too_many_arguments)]
pub fn transcript_items(
    t: &Transcript,
    text: &Text,
    file: &str,
    doc: &str,
    allow: &[String],
    own_tools: bool,
    spans: Spans<'_>,
    first: usize,
) -> Vec<Item> {
    let mut items = Vec::new();
    let at = Where {
        text,
        file,
        doc,
        own_tools,
        spans,
        first,
    };
    let pushed: Result<usize, std::convert::Infallible> =
        each_transcript_item(t.clone(), &at, allow, |item| {
            items.push(item);
            Ok(())
        });
    let _ = pushed;
    items
}

/// Where the items of a conversation come from and how they are numbered
/// (see [`transcript_items`]).
pub struct Where<'a> {
    /// The JSON the conversation was read from.
    pub text: &'a Text,
    /// The name diagnostics carry.
    pub file: &'a str,
    /// The records' document.
    pub doc: &'a str,
    /// The conversation's tools are the ones its calls are checked against.
    pub own_tools: bool,
    /// How the entries' pointers map into `text`.
    pub spans: Spans<'a>,
    /// The first item's index.
    pub first: usize,
}

/// [`transcript_items`], each item handed to `each` as it is made and the
/// transcript consumed as it goes (a call is moved into its item, not
/// copied): memory is the transcript's, not twice it. The number of items
/// handed over, or `each`'s first error.
pub fn each_transcript_item<E>(
    t: Transcript,
    at: &Where<'_>,
    allow: &[String],
    mut each: impl FnMut(Item) -> Result<(), E>,
) -> Result<usize, E> {
    let Where {
        text,
        file,
        doc,
        own_tools,
        first,
        ..
    } = *at;
    let findings: Vec<messages::Finding> = messages::lint(&t)
        .into_iter()
        .filter(|f| !allow.iter().any(|a| a == f.code))
        .collect();
    let bytes = text.bytes();
    // where each entry and finding lies, in one pass over the text
    let spans = {
        let wanted: std::collections::HashSet<&str> = t
            .entries
            .iter()
            .map(|e| e.pointer.as_str())
            .chain(findings.iter().map(|f| f.pointer.as_str()))
            .chain(t.malformed.iter().map(|(p, _)| p.as_str()))
            .collect();
        match at.spans {
            Spans::Lines(first) => shapes::line_spans(bytes, first, &wanted),
            Spans::Document => messages::spans(bytes, &wanted),
            Spans::Element(base) => element_spans(bytes, &wanted, base),
        }
        .0
    };
    let allow_13 = allow.iter().any(|a| a == messages::BAD_ARGUMENTS);
    let mut n = 0usize;
    // a stand-in over `[s, end)` of the text, numbered in turn
    let stand = |n: usize, raw: &str, s: usize, end: usize| ToolCall {
        index: first + n,
        ..stand_in(doc, raw, [s as u64, end as u64])
    };
    let quoted = |s: usize, end: usize| String::from_utf8_lossy(&bytes[s..end.min(s + 512)]);
    // fields of the wrong type: a TLP-008 error each, before the calls
    for (pointer, message) in &t.malformed {
        let [s, end] = spans.get(pointer).copied().unwrap_or([0, 0]);
        let call = stand(n, &quoted(s, end), s, end);
        let mut issue = Issue::call("TLP-008", message.clone());
        issue.path = pointer.clone();
        each(Item::refused(call, issue, file, text, s))?;
        n += 1;
    }
    let mut next = 0usize;
    for (k, e) in t.entries.into_iter().enumerate() {
        let start = next;
        while next < findings.len() && findings[next].entry == k {
            next += 1;
        }
        let [s, end] = spans.get(&e.pointer).copied().unwrap_or([0, 0]);
        let lint: Vec<(Issue, usize)> = findings[start..next]
            .iter()
            .map(|f| {
                let mut issue = Issue::call(f.code, f.message.clone());
                issue.path = f.pointer.clone();
                (issue, spans.get(&f.pointer).map_or(s, |sp| sp[0]))
            })
            .collect();
        let skip_schema = allow_13 && matches!(&e.kind, Kind::Call(c) if c.bad_arguments.is_some());
        let Entry {
            turn,
            role,
            pointer,
            kind,
        } = e;
        let conv = |in_content: bool, lint: Vec<(Issue, usize)>| Conv {
            turn,
            role: role.into_owned(),
            pointer: Some(pointer),
            in_content,
            lint,
            own_tools,
            skip_schema,
        };
        let item = match kind {
            Kind::Call(c) => {
                let CallEntry {
                    mut call,
                    in_content,
                    ..
                } = *c;
                call.index = first + n;
                call.span = [s as u64, end as u64];
                call.raw = String::from_utf8_lossy(&bytes[s..end]).into_owned();
                Item {
                    conv: Some(conv(in_content, lint)),
                    ..Item::found(call, file, text, s)
                }
            }
            Kind::Result { .. } if !lint.is_empty() => {
                let call = stand(n, &quoted(s, end), s, end);
                let issue = lint[0].0.clone();
                Item {
                    conv: Some(conv(false, lint)),
                    ..Item::refused(call, issue, file, text, s)
                }
            }
            Kind::Broken { code, message, raw } => {
                let call = stand(n, &raw, s, end);
                Item {
                    conv: Some(conv(false, lint)),
                    ..Item::refused(call, Issue::call(code, message), file, text, s)
                }
            }
            _ => continue,
        };
        each(item)?;
        n += 1;
    }
    Ok(n)
}

/// A verdict for a call nothing was checked against: valid, unknown.
pub fn unchecked() -> Verdict {
    Verdict {
        valid: true,
        errors: Vec::new(),
        warnings: Vec::new(),
        known: false,
        tool_name: String::new(),
        risk: Risk::Medium,
        requires_approval: true,
        summary: String::new(),
    }
}

/// The verdict on an item: the parser's error for a candidate that is not
/// a call, else the call judged (`judge`: against the tools, `None`
/// without any); for a call of a conversation, with its own tools taken
/// into account, its conversation issues added and a repaired call
/// reported ([`repaired_in_data`]; `strict`: as an error).
pub fn item_verdict(
    item: &mut Item,
    registry: Option<&Registry>,
    policy: &Policy,
    judge: impl FnOnce(&mut ToolCall) -> Option<Verdict>,
    allow: &[String],
    strict: bool,
) -> Verdict {
    let mut verdict = match &item.broken {
        Some(issue) => {
            let mut v = match registry {
                Some(r) if !item.call.name.is_empty() => {
                    r.check(&item.call.name, &Value::Null, policy)
                }
                _ => unchecked(),
            };
            v.valid = false;
            v.errors = vec![issue.clone()];
            v.warnings.clear();
            v.summary = String::new();
            v
        }
        None => judge(&mut item.call).unwrap_or_else(unchecked),
    };
    // a conversation's call with no name (missing, empty, not a string, or
    // no object at all) is no call, with or without a tools registry
    if item.conv.is_some()
        && item.broken.is_none()
        && item.call.name.trim().is_empty()
        && !verdict.errors.iter().any(|e| e.code == "TLP-001")
    {
        verdict.errors.insert(
            0,
            Issue::call(
                "TLP-001",
                "the call has no name (missing, empty or not a string)",
            ),
        );
        verdict.valid = false;
    }
    if let Some(conv) = &item.conv {
        if conv.own_tools {
            verdict.errors.retain(|e| e.code != "TLP-005");
            verdict.warnings.retain(|e| e.code != "TLP-005");
        }
        if conv.skip_schema {
            verdict.errors.retain(|e| e.code != "TLP-004");
        }
        repaired_in_data(&mut verdict, &item.call, strict, allow);
        if item.broken.is_none() {
            verdict
                .errors
                .extend(conv.lint.iter().map(|(issue, _)| issue.clone()));
        }
        // a tool the conversation does not offer (TLP-012) that the tools
        // file lacks too (TLP-005) is one fault: reported once, as the
        // conversation's
        if verdict
            .errors
            .iter()
            .any(|e| e.code == super::messages::NOT_OFFERED)
        {
            verdict.errors.retain(|e| e.code != "TLP-005");
            verdict.warnings.retain(|e| e.code != "TLP-005");
        }
        verdict.valid = verdict.errors.is_empty();
    }
    verdict
}

/// A call of the data whose JSON was repaired is a finding of its own:
/// a warning ([`shapes::REPAIRED`]), an error when `strict`, nothing
/// when `allow`ed.
pub fn repaired_in_data(v: &mut Verdict, call: &ToolCall, strict: bool, allow: &[String]) {
    if call.repairs.is_empty() || allow.iter().any(|a| a == shapes::REPAIRED) {
        return;
    }
    let mut kinds: Vec<String> = call
        .repairs
        .iter()
        .map(|r| {
            serde_json::to_value(r.kind)
                .ok()
                .and_then(|k| k.as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect();
    kinds.dedup();
    let issue = Issue {
        code: shapes::REPAIRED,
        path: String::new(),
        message: format!(
            "the call's JSON was repaired to be read ({}): the data holds a broken call",
            kinds.join(", ")
        ),
        expected: "JSON".into(),
        actual: String::new(),
    };
    if strict {
        v.errors.push(issue);
        v.valid = false;
    } else {
        v.warnings.push(issue);
    }
}

/// The offset in the item's text that an issue's diagnostic points at.
pub fn issue_offset(issue: &Issue, call: &ToolCall, item: &Item) -> usize {
    let path = issue.path.as_str();
    let lint = item.conv.as_ref().and_then(|c| {
        c.lint
            .iter()
            .find(|(i, _)| i.code == issue.code && i.path == issue.path)
    });
    if let Some((_, off)) = lint {
        *off
    } else if item.broken.is_some() {
        item.offset
    } else if item.offset as u64 == call.span[0] {
        // the call's markup is in `text` at its span
        let text = item.text.as_deref().map(Located::bytes);
        diag::locate_in(text, call.span, &call.raw, path, &call.name)
    } else {
        item.offset + diag::locate(&call.raw, path, &call.name)
    }
}

/// Where each issue's diagnostic points: the same line:column goes into
/// the record's errors[] (and the record's own line:column is its first
/// error's).
pub fn issue_positions(issues: &[Issue], call: &ToolCall, item: &Item) -> Vec<diag::Pos> {
    issues
        .iter()
        .map(|i| {
            let off = issue_offset(i, call, item);
            item.text
                .as_deref()
                .map_or(diag::Pos { line: 1, column: 1 }, |t| t.position(off))
        })
        .collect()
}

/// What a retry prompt says of an invalid item: its errors, where the
/// first points (`pos`), its text, and the tool's schema when `registry`
/// knows it.
pub fn failure_of(
    item: &Item,
    v: &Verdict,
    pos: diag::Pos,
    registry: Option<&Registry>,
) -> Failure {
    let schema_kind = v
        .errors
        .iter()
        .all(|e| matches!(e.code, "TLP-004" | "TLP-005"));
    Failure {
        kind: if schema_kind {
            FailureKind::Schema
        } else {
            FailureKind::Parse
        },
        code: v.errors.first().map_or("TLP-002", |e| e.code),
        errors: v.errors.iter().map(Issue::summary).collect(),
        line: pos.line,
        column: pos.column,
        raw: item.call.raw.clone(),
        tool: (!item.call.name.is_empty()).then(|| item.call.name.clone()),
        schema: schema_of(registry, &item.call.name),
    }
}

/// The parameters schema of tool `name`, when `registry` knows it.
fn schema_of(registry: Option<&Registry>, name: &str) -> Option<Value> {
    registry
        .and_then(|r| r.get(name))
        .map(|t| t.parameters.clone())
}

/// Parses and validates a retry reply: the first call in it (preferring
/// one to the same tool as `original`) must be valid (`judge`: as
/// [`item_verdict`] takes it).
pub fn evaluate(
    text: &str,
    cfg: &Config,
    registry: Option<&Registry>,
    judge: impl FnOnce(&mut ToolCall) -> Option<Verdict>,
    original: &ToolCall,
) -> Result<(ToolCall, Verdict), Box<Failure>> {
    let found = crate::parse(text.as_bytes(), cfg);
    let pick =
        found
            .calls
            .iter()
            .position(|c| c.name == original.name)
            .or(if found.calls.is_empty() {
                None
            } else {
                Some(0)
            });
    let Some(k) = pick else {
        let (code, msg, pos) = match found.errors.first() {
            Some(e) => (e.code, e.message.clone(), (e.line, e.column)),
            None => (
                "TLP-002",
                "the reply holds no tool call (the model ignored the tool format)".to_string(),
                (1, 1),
            ),
        };
        return Err(Box::new(Failure {
            kind: FailureKind::Parse,
            code,
            errors: vec![msg],
            line: pos.0,
            column: pos.1,
            raw: text.to_string(),
            tool: (!original.name.is_empty()).then(|| original.name.clone()),
            schema: schema_of(registry, &original.name),
        }));
    };
    let mut call = found.calls[k].clone();
    let v = judge(&mut call).unwrap_or_else(unchecked);
    if v.valid {
        return Ok((call, v));
    }
    let pos = diag::position(text.as_bytes(), call.span[0] as usize);
    let item = Item {
        conv: None,
        call,
        broken: None,
        file: String::new(),
        text: None,
        offset: 0,
        refused_document: false,
    };
    let mut f = failure_of(&item, &v, pos, registry);
    f.raw = text.to_string();
    Err(Box::new(f))
}

/// How a document holds structured conversations.
#[derive(Debug)]
pub enum Layout {
    /// The document is one conversation.
    Whole(Value),
    /// JSONL: each non-blank line is one.
    Lines,
    /// A per-event session log: its lines make conversations together.
    Session,
}

/// Whether `v` is a conversation: any shape [`messages::shape`] knows
/// when `explicit` (`--input messages`), the plain ones
/// ([`shapes::sniff`]) otherwise.
pub fn is_conversation(v: &Value, explicit: bool) -> bool {
    shapes::sniff(v) || explicit && messages::shape(v).is_some()
}

/// How `bytes` hold conversations, or `None` for model text, records or
/// wire output. When `explicit` a document that is not one JSON value is
/// read as JSONL (a line that is no conversation is reported).
pub fn conversations_in(bytes: &[u8], explicit: bool) -> Option<Layout> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if !matches!(bytes[first], b'{' | b'[') {
        return explicit.then_some(Layout::Lines);
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) if explicit || is_conversation(&v, false) => return Some(Layout::Whole(v)),
        Ok(_) => return None,
        Err(_) => {}
    }
    let end = memchr::memchr(b'\n', &bytes[first..]).map_or(bytes.len(), |n| first + n);
    match serde_json::from_slice::<Value>(bytes[first..end].trim_ascii()) {
        Ok(v) if shapes::is_event(&v) => Some(Layout::Session),
        Ok(v) if is_conversation(&v, explicit) => Some(Layout::Lines),
        _ => explicit.then_some(Layout::Lines),
    }
}

/// Line `number` of a JSONL of conversations (its line end stripped):
/// the conversation, or the item that says why it is none (TLP-007 for a
/// line over `max_line` bytes, TLP-008 otherwise). The item's document is
/// `NAME:LINE`; diagnostics point into the file's lines.
pub fn conversation_line(
    line: &[u8],
    number: usize,
    name: &str,
    max_line: usize,
) -> (Text, Result<Value, Item>) {
    let text = Rc::new(Located::at_line(line.to_vec(), number as u64));
    let message = if line.len() > max_line {
        format!("line {number} is longer than --max-buffer ({max_line} bytes); skipped")
    } else {
        match serde_json::from_slice::<Value>(line) {
            Ok(v) if is_conversation(&v, true) => return (text, Ok(v)),
            Ok(_) => format!("line {number} is JSON but no conversation; skipped"),
            Err(e) => format!("line {number} is not JSON ({e}); skipped"),
        }
    };
    let code = if line.len() > max_line {
        "TLP-007"
    } else {
        "TLP-008"
    };
    let raw = crate::lossy(&line[..line.len().min(512)]).into_owned();
    let doc = format!("{name}:{number}");
    let call = stand_in(&doc, &raw, [0, line.len() as u64]);
    let item = Item::refused_document(call, Issue::call(code, message), name, &text, 0);
    (text, Err(item))
}
