//! `phi4-mini`: Phi-4-mini-instruct (and FireFunction v2),
//! `functools[{"name": …, "arguments": {…}}, …]`.
//!
//! The literal `functools` at the start of a line, immediately followed by a
//! JSON array of call objects; there is no closing marker beyond the array's
//! `]`, found by bracket balancing (a `]` inside a string or a nested array
//! in the arguments does not end it). Tolerated: blanks between `functools`
//! and `[`, a single object (`functools{…}`), `parameters` for `arguments`,
//! Python literals in the body, a pythonic call list
//! (`functools[f(a=1)]`), and a body cut off after a complete value.
//! `functools` in prose (`functools.partial`) is text. Inside a line, after
//! prose, `functools[{` starts the list too (the engine finds it from the
//! `[`, through the format's [`Lead`]).

use super::shared::python::{call_head, parse_body, skip_space_bounded, PyEndAt, PyScan, MAX_GAP};
use super::Model;
use super::{ids, Blocks};
use super::{
    Action, BlockEnd, BlockResult, Format, Lead, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::Evidence;
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::PHI4_MINI,
    "Phi-4-mini-instruct, FireFunction v2",
    &["functools["],
    "JSON array of {\"name\", \"arguments\"}",
)
.models(&[Model::new("phi-4-mini", "<|assistant|>")])
.openers(&[OPENER, OPENER_CLOSE])
.lead(Lead {
    lit: LIT,
    rest: b"[",
    word: true,
    probe: probe_in_line,
    between: None,
})
.render(Prompt::new("Phi-4-mini", write_calls).template(tools::phi4_mini, results::phi4_mini));

/// `phi4-mini`: `functools[` JSON array `]`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::array_of;

    format!("functools{}", array_of(calls, "name", "arguments"))
}

/// Phi-4-mini's `<|/tool_call|>`, the closer of the `<|tool_call|>{…}`
/// its model card and tokenizer name (the opener and its JSON are read as
/// the granite format's): a special token, markup wherever it
/// stands, never text.
pub const OPENER_CLOSE: Opener = Opener::markup(b"<|/tool_call|>").also(&[ids::GRANITE]);

/// The phi-4-mini block format.
pub static PHI4_MINI: Blocks = Blocks::new(ids::PHI4_MINI, parse_phi4_mini);

/// The opener's literal.
const LIT: &[u8] = b"functools";
const LIT_LEN: usize = LIT.len();

fn parse_phi4_mini(block: &[u8], cx: &ParseCx) -> BlockResult {
    let s = scan::skip_blank(block, LIT_LEN).min(block.len());
    parse_body(
        block,
        s,
        block.len(),
        cx.cut,
        ids::PHI4_MINI,
        Evidence::Strong,
        &cx.cfg.repair_options(),
    )
}

/// Finds the end of the bracketed list after `functools` (a balanced
/// Python-style scan).
struct ListScan {
    py: PyScan,
}

impl Scanner for ListScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        match self.py.scan(block, eof) {
            PyEndAt::At(e) => BlockEnd::done(e),
            PyEndAt::More if !eof => BlockEnd::More,
            PyEndAt::More => BlockEnd::cut_off(block),
            PyEndAt::NotValue => BlockEnd::NotBlock { text_len: LIT_LEN },
        }
    }

    fn consumed(&self) -> usize {
        LIT_LEN
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = scan::skip_blank(input, LIT_LEN);
    if s > LIT_LEN + MAX_GAP {
        return Probe::NotMarker;
    }
    let held = || {
        Probe::Match(Action::Block {
            fmt: &PHI4_MINI,
            scanner: crate::formats::BlockScanner::new(ListScan { py: PyScan::at(s) }),
        })
    };
    match input.get(s) {
        None if cx.eof => Probe::NotMarker,
        None => Probe::NeedMore,
        Some(b'{') => held(),
        Some(b'[') => {
            let t = skip_space_bounded(input, s + 1);
            if t > s + MAX_GAP {
                return Probe::NotMarker;
            }
            match input.get(t) {
                None if cx.eof => Probe::NotMarker,
                None => Probe::NeedMore,
                Some(b'{') => held(),
                Some(_) => match call_head(input, t) {
                    Some(true) => held(),
                    None if !cx.eof => Probe::NeedMore,
                    _ => Probe::NotMarker,
                },
            }
        }
        Some(_) => Probe::NotMarker,
    }
}

/// `functools[{` inside a line, after prose (`Sure. functools[{…}]`): the
/// engine stops at the `[` and probes from the `functools` before it. Only
/// the JSON list is read there; a pythonic list (`functools[partial(f)]`)
/// inside a line is prose.
fn probe_in_line(input: &[u8], cx: &ProbeCx) -> Probe {
    let t = skip_space_bounded(input, LIT_LEN + 1);
    match input.get(t) {
        None if cx.eof => Probe::NotMarker,
        None if t <= LIT_LEN + 1 + MAX_GAP => Probe::NeedMore,
        Some(b'{') => probe(input, cx),
        _ => Probe::NotMarker,
    }
}

/// `functools[` at the start of a line.
pub const OPENER: Opener = Opener::new(LIT, probe).line_start();
