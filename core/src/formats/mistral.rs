//! `mistral`: the `[TOOL_CALLS]` control token, both generations.
//!
//! ```text
//! [TOOL_CALLS][{"name": "convert_currency", "arguments": {"amount": 20}, "id": "a1B2c3D4e"}]
//! [TOOL_CALLS]search_docs[ARGS]{"query": "rate limits"}[TOOL_CALLS]open_ticket[ARGS]{"priority": "high"}
//! ```
//!
//! The v3 tokenizer writes a JSON array of call objects (with or without a
//! space after the token; a single object instead of an array is accepted;
//! model ids are kept). The v11+ tokenizer writes `NAME[ARGS]{json}` after
//! each `[TOOL_CALLS]`, sometimes with `[CALL_ID]ID` before `[ARGS]` (the id
//! is kept). Also tolerated: string arguments, blanks around the name,
//! `NAME{json}` without `[ARGS]`, broken argument JSON that ends at the next
//! `[TOOL_CALLS]`, arguments cut off at end of input after a complete value.
//! `[TOOL_CALLS]` with nothing after it (end of input, or straight into an
//! end token such as `</s>`) is an error record, not a call. One followed by
//! prose, as the first thing on its line, is a stray control token: markup,
//! the prose text (`[TOOL_CALLS] not json at all`); named mid-line or in a
//! sentence about it (`[TOOL_CALLS]: the token …`) it stays text. The JSON-array form is also what xLAM writes
//! after `[TOOL_CALLS]`, so the block may be forced as `--format xlam`.

use super::shared::{end, section};
use super::Model;
use super::{ids, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::{clean_name, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(ids::MISTRAL, "Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Ministral, Codestral, Magistral, Devstral, Medium/Large", &["[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"], "JSON array of {name, arguments, id} (v3), or NAME[ARGS]{arguments} per call (v11+)")
    .models(&[
        Model::new("mistral", ""),
        Model::new("magistral", ""),
        Model::new("ministral", ""),
        Model::new("devstral", ""),
        Model::new("mixtral", ""),
    ])
    .turns(&[super::TurnMarker::fixed(b"[INST]", "user"), super::TurnMarker::fixed(b"[AVAILABLE_TOOLS]", "system"), super::TurnMarker::fixed(b"[TOOL_RESULTS]", "tool"), super::TurnMarker::fixed(b"[SYSTEM_PROMPT]", "system"), super::TurnMarker::fixed(b"[/INST]", "assistant"), super::TurnMarker::fixed(b"[/TOOL_RESULTS]", "assistant")])
    .openers(&[OPENER])
    .admitted_under(&[ids::XLAM])
    .doc_start(super::DocStart {
        forced_only: false,
        probe: probe_consumed,
    })
    .render(
        Prompt::new("Mistral (v11+ tokenizers)", write_calls).template(tools::mistral, results::mistral),
    );

/// `mistral` (v11+ tokenizers): `[TOOL_CALLS]NAME[ARGS]{args}` per call.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_compact;

    each(calls, "", |_, c| {
        format!("[TOOL_CALLS]{}[ARGS]{}", c.name, json_compact(&args(c)))
    })
}

const TOKEN: &[u8] = b"[TOOL_CALLS]";
const ARGS: &[u8] = b"[ARGS]";
const CALL_ID: &[u8] = b"[CALL_ID]";
const MAX_NAME: usize = 256;

/// What follows `[TOOL_CALLS]`.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    /// More input is needed to tell.
    More,
    /// Not a call.
    Not,
    /// The input ended before a body: a cut-off call.
    Cut,
    /// Another control token (`</s>`, `<|im_end|>` …) follows at once: a
    /// call with nothing in it, ending here.
    Empty(usize),
    /// The v3 JSON form; the body starts here.
    Json(usize),
    /// The v11+ form: name range, optional id range, body start.
    Named {
        name: (usize, usize),
        id: Option<(usize, usize)>,
        body: usize,
    },
}

/// Reads the head of a `[TOOL_CALLS]` block. `named_ok` allows the v11+ form.
fn head(input: &[u8], eof: bool, named_ok: bool) -> Head {
    let s = skip_space_or_piece(input, TOKEN.len());
    let Some(&b) = input.get(s) else {
        return if eof { Head::Cut } else { Head::More };
    };
    // `[ARGS]` / `[CALL_ID]` right away: a v11+ call with no name
    for lit in [ARGS, CALL_ID] {
        match scan::prefix(&input[s..], lit) {
            Prefix::Full => {
                return if named_ok {
                    named(input, s, s, eof)
                } else {
                    Head::Not
                }
            }
            Prefix::Partial if !eof => return Head::More,
            _ => {}
        }
    }
    if matches!(b, b'[' | b'{') {
        return Head::Json(s);
    }
    if b == b'<' {
        return Head::Empty(s);
    }
    if !named_ok || !scan::is_name_byte(b) {
        return Head::Not;
    }
    let mut e = s;
    while e < input.len() && e - s <= MAX_NAME && scan::is_name_byte(input[e]) {
        e += 1;
    }
    if e - s > MAX_NAME {
        return Head::Not;
    }
    named(input, s, e, eof)
}

/// SentencePiece's word-boundary mark U+2581 `▁`, which stands for a space
/// in text that was never detokenised.
const PIECE: &[u8] = "\u{2581}".as_bytes();

/// Past blanks and `▁` marks from `from` on.
fn skip_space_or_piece(input: &[u8], mut from: usize) -> usize {
    loop {
        from = scan::skip_space(input, from);
        if input[from.min(input.len())..].starts_with(PIECE) {
            from += PIECE.len();
        } else {
            return from;
        }
    }
}

/// A JSON body written with `▁` for every space (raw SentencePiece pieces,
/// never detokenised, as a completion endpoint may return them): read with
/// the marks as spaces, the offsets of the calls and repairs mapped back.
/// `None` when the body has an ASCII space or no mark.
fn undetokenised_json(block: &[u8], from: usize, cx: &ParseCx) -> Option<BlockResult> {
    let body = &block[from..];
    if body.contains(&b' ') || memchr::memmem::find(body, PIECE).is_none() {
        return None;
    }
    let mut fixed = block[..from].to_vec();
    // where, in `fixed`, each mark was replaced
    let mut at = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if body[i..].starts_with(PIECE) {
            at.push(fixed.len());
            fixed.push(b' ');
            i += PIECE.len();
        } else {
            fixed.push(body[i]);
            i += 1;
        }
    }
    let back = |off: usize| off + (PIECE.len() - 1) * at.partition_point(|&p| p < off);
    let mut r = super::shared::json::json_block(&fixed, from, fixed.len(), ids::MISTRAL, cx);
    for c in &mut r.calls {
        c.end = back(c.end).min(block.len());
        for rep in &mut c.repairs {
            rep.offset = back(rep.offset).min(block.len());
        }
    }
    for e in &mut r.errors {
        e.offset = back(e.offset).min(block.len());
    }
    Some(r)
}

/// After a name `input[s..e]`: blanks, then `[CALL_ID]ID`, `[ARGS]` or `{`.
fn named(input: &[u8], s: usize, e: usize, eof: bool) -> Head {
    let t = scan::skip_blank(input, e);
    if t == input.len() {
        return if eof { Head::Cut } else { Head::More };
    }
    let rest = &input[t..];
    match scan::prefix(rest, ARGS) {
        Prefix::Full => {
            return Head::Named {
                name: (s, e),
                id: None,
                body: t + ARGS.len(),
            }
        }
        Prefix::Partial => return if eof { Head::Cut } else { Head::More },
        Prefix::No => {}
    }
    match scan::prefix(rest, CALL_ID) {
        Prefix::Full => {
            let id_from = t + CALL_ID.len();
            let limit = input.len().min(id_from + MAX_NAME);
            return match scan::find(&input[..limit], id_from, ARGS) {
                Some(a) => Head::Named {
                    name: (s, e),
                    id: Some((id_from, a)),
                    body: a + ARGS.len(),
                },
                None if limit == input.len() => {
                    if eof {
                        Head::Cut
                    } else {
                        Head::More
                    }
                }
                None => Head::Not,
            };
        }
        Prefix::Partial => return if eof { Head::Cut } else { Head::More },
        Prefix::No => {}
    }
    if rest[0] == b'{' && e > s {
        return Head::Named {
            name: (s, e),
            id: None,
            body: t,
        };
    }
    Head::Not
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let named_ok = cx.cfg.allows(ids::MISTRAL);
    let (body, arguments) = match head(input, cx.eof, named_ok) {
        Head::More => return Probe::NeedMore,
        // a stray control token: markup, never text; but not the token
        // named mid-sentence (`The [TOOL_CALLS] token starts a call`) or
        // in a sentence about it (`[TOOL_CALLS]: the token that …`)
        Head::Not
            if named_ok
                && cx.line_start
                && !super::shared::evidence::marker_in_prose(&input[TOKEN.len()..]) =>
        {
            return Probe::Match(Action::Markup { len: TOKEN.len() })
        }
        Head::Not => return Probe::NotMarker,
        Head::Cut => (input.len(), false),
        Head::Json(b) | Head::Empty(b) => (b, false),
        Head::Named { body, .. } => (body, true),
    };
    Probe::Match(Action::Block {
        fmt: &MISTRAL,
        scanner: crate::formats::BlockScanner::new(BodyScan::new(body, arguments)),
    })
}

/// A v11+ call whose `[TOOL_CALLS]` a server consumed (taking it as the
/// call's start marker) before handing the rest on: `NAME[ARGS]{json}` (or
/// `NAME[CALL_ID]ID[ARGS]{json}`) at the very start of the output. The
/// `[ARGS]` control token right after a bare name, then a JSON object, is
/// what makes it a call; anything looser (a blank before the token, string
/// arguments, `word{…}`) is text.
fn probe_consumed(input: &[u8], cx: &ProbeCx) -> Probe {
    if !cx.cfg.allows(ids::MISTRAL) {
        return Probe::NotMarker;
    }
    let (e, head) = consumed_head(input, cx.eof);
    let body = match head {
        Head::More => return Probe::NeedMore,
        Head::Named { body, .. }
            if input[e..].starts_with(ARGS) || input[e..].starts_with(CALL_ID) =>
        {
            body
        }
        _ => return Probe::NotMarker,
    };
    match input.get(scan::skip_space(input, body)) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'{') => Probe::Match(Action::Block {
            fmt: &MISTRAL_CONSUMED,
            scanner: crate::formats::BlockScanner::new(BodyScan::new(body, true)),
        }),
        _ => Probe::NotMarker,
    }
}

/// The head of a call whose `[TOOL_CALLS]` was consumed: the name from the
/// first byte, then what [`named`] reads; also where the name ends.
fn consumed_head(input: &[u8], eof: bool) -> (usize, Head) {
    let mut e = 0;
    while e < input.len() && e <= MAX_NAME && scan::is_name_byte(input[e]) {
        e += 1;
    }
    if e == 0 || e > MAX_NAME {
        return (e, Head::Not);
    }
    if e == input.len() && !eof {
        return (e, Head::More);
    }
    (e, named(input, 0, e, eof))
}

/// `[TOOL_CALLS]`.
pub const OPENER: Opener = Opener::new(TOKEN, probe).also(&[ids::XLAM]);

/// The `[TOOL_CALLS]` block format.
pub struct Mistral;

/// The shared instance.
pub static MISTRAL: Mistral = Mistral;

impl BlockFormat for Mistral {
    fn id(&self) -> FormatId {
        ids::MISTRAL
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        parse_head(block, head(block, true, true), cx)
    }
}

/// A v11+ call whose `[TOOL_CALLS]` a server consumed (see
/// [`probe_consumed`]).
pub struct MistralConsumed;

/// The shared instance.
pub static MISTRAL_CONSUMED: MistralConsumed = MistralConsumed;

impl BlockFormat for MistralConsumed {
    fn id(&self) -> FormatId {
        ids::MISTRAL
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        parse_head(block, consumed_head(block, true).1, cx)
    }
}

/// Reads a block whose head is `head`.
fn parse_head(block: &[u8], head: Head, cx: &ParseCx) -> BlockResult {
    match head {
        Head::Json(b) => undetokenised_json(block, b, cx).unwrap_or_else(|| {
            super::shared::json::json_block(block, b, block.len(), ids::MISTRAL, cx)
        }),
        Head::Named { name, id, body } => {
            let name_s = clean_name(&crate::scan::lossy(&block[name.0..name.1]));
            if name_s.is_empty() {
                return BlockResult::error("TLP-001", "mistral call has no function name", 0);
            }
            let id = id
                .map(|(a, b)| crate::scan::lossy(scan::trim(&block[a..b])).into_owned())
                .filter(|s| !s.is_empty());
            let lead = scan::skip_space(block, body);
            if block
                .get(lead)
                .is_some_and(|b| !matches!(b, b'{' | b'[' | b'"'))
            {
                return BlockResult::error(
                    "TLP-002",
                    format!("mistral call {name_s} has arguments that are not JSON"),
                    lead,
                );
            }
            match section::json_arguments(
                &block[body..],
                body,
                cx.cut,
                ids::MISTRAL,
                &cx.cfg.repair_options(),
            ) {
                Ok((arguments, repairs)) => BlockResult::one(ParsedCall {
                    id,
                    repairs,
                    end: block.len(),
                    ..ParsedCall::new(name_s, arguments, ids::MISTRAL)
                }),
                Err(e) => BlockResult::failed(e),
            }
        }
        _ => BlockResult::truncated(ids::MISTRAL, block.len()),
    }
}

/// Finds the end of a `[TOOL_CALLS]` block: its body is a JSON value, a
/// JSON string, or nothing.
struct BodyScan {
    /// Where the body starts (the probe read the head before it).
    body: usize,
    /// The body follows a function name, so it must be JSON arguments.
    arguments: bool,
    phase: BodyPhase,
}

/// Where a [`BodyScan`] is.
enum BodyPhase {
    /// Blanks so far, up to `from`.
    Lead { from: usize },
    /// Inside the JSON value that begins at `start`.
    Value { start: usize, json: JsonEnd },
    /// Arguments that cannot start a JSON value: read up to `next`, to the
    /// end of their line or the next token (the block reports them).
    Junk { next: usize },
    /// Inside the JSON string that begins at `start`, read up to `next`;
    /// `escaped` after a backslash.
    Text {
        start: usize,
        next: usize,
        escaped: bool,
    },
}

impl BodyScan {
    fn new(body: usize, arguments: bool) -> Self {
        BodyScan {
            body,
            arguments,
            phase: BodyPhase::Lead { from: body },
        }
    }
}

impl Scanner for BodyScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        if let BodyPhase::Lead { ref mut from } = self.phase {
            if let Some(end) = end::blank_lead(block, from, eof) {
                return end;
            }
            let s = *from;
            // the next call's token: no arguments were written
            match scan::prefix(&block[s..], TOKEN) {
                Prefix::Full => return BlockEnd::done(s),
                Prefix::Partial if !eof => return BlockEnd::More,
                _ => {}
            }
            self.phase = match block[s] {
                // a next `[TOOL_CALLS]` outside a string ends a body that
                // never closed, there and then (not at the end of input)
                b'{' | b'[' => BodyPhase::Value {
                    start: s,
                    json: JsonEnd::stop_at(TOKEN),
                },
                b'"' => BodyPhase::Text {
                    start: s,
                    next: s + 1,
                    escaped: false,
                },
                // an end-of-turn token: no arguments were written
                b'<' => return BlockEnd::done(s),
                _ if self.arguments => BodyPhase::Junk { next: s },
                _ => return BlockEnd::done(s),
            };
        }
        match self.phase {
            BodyPhase::Lead { .. } => BlockEnd::More,
            BodyPhase::Junk { ref mut next } => {
                match memchr::memchr3(b'\n', b'[', b'<', &block[*next..]) {
                    Some(k) => BlockEnd::done(*next + k),
                    None if eof => BlockEnd::done(block.len()),
                    None => {
                        *next = block.len();
                        BlockEnd::More
                    }
                }
            }
            BodyPhase::Value {
                start,
                ref mut json,
            } => match json.scan(&block[start..]) {
                End::At(k) => BlockEnd::done(start + k),
                End::More if !eof => BlockEnd::More,
                _ => broken_end(block, start),
            },
            BodyPhase::Text {
                start,
                ref mut next,
                ref mut escaped,
            } => {
                while *next < block.len() {
                    let b = block[*next];
                    *next += 1;
                    if *escaped {
                        *escaped = false;
                    } else if b == b'\\' {
                        *escaped = true;
                    } else if b == b'"' {
                        return BlockEnd::done(*next);
                    }
                }
                if eof {
                    broken_end(block, start)
                } else {
                    BlockEnd::More
                }
            }
        }
    }

    fn consumed(&self) -> usize {
        self.body
    }
}

/// A JSON body that never closed: it ends at the next `[TOOL_CALLS]` if there
/// is one, else the input was cut off.
fn broken_end(block: &[u8], from: usize) -> BlockEnd {
    match scan::find(block, from, TOKEN) {
        Some(k) => BlockEnd::done(k),
        None => BlockEnd::cut_off(block),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads() {
        assert_eq!(head(b"[TOOL_CALLS] [{", false, true), Head::Json(13));
        assert_eq!(head(b"[TOOL_CALLS]", false, true), Head::More);
        assert_eq!(head(b"[TOOL_CALLS]", true, true), Head::Cut);
        assert_eq!(
            head("[TOOL_CALLS]\u{2581}[{".as_bytes(), false, true),
            Head::Json(15)
        );
        assert_eq!(
            head(b"[TOOL_CALLS]get[ARGS]{", false, true),
            Head::Named {
                name: (12, 15),
                id: None,
                body: 21
            }
        );
        assert_eq!(
            head(b"[TOOL_CALLS]get[CALL_ID]abc123XYZ[ARGS]{", false, true),
            Head::Named {
                name: (12, 15),
                id: Some((24, 33)),
                body: 39
            }
        );
        assert_eq!(head(b"[TOOL_CALLS] is a token", false, true), Head::Not);
        assert_eq!(head(b"[TOOL_CALLS]get[AR", false, true), Head::More);
        assert_eq!(head(b"[TOOL_CALLS]get[ARGS]{", false, false), Head::Not);
    }
}
