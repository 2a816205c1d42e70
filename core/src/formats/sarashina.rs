//! `sarashina`: SB Intuitions Sarashina, an optional `<|tool_calls|>` then a
//! Python-literal list of dicts: `[{'name': 'f', 'arguments': {'q': 'x'}}]`.
//!
//! The body is read by the Python-literal parser of [`crate::formats::shared::python`]
//! (single quotes, `True/False/None`, tuples); JSON bodies work too. After
//! the marker the body is strong evidence. Without it, a line that starts
//! with `[{'` is held back and is a call only when the whole value has the
//! full call shape (`name` plus `arguments`) and nothing but blanks follows
//! it on its line; anything else is text.

use super::shared::python::{body_text, skip_space_bounded, value_calls, Wrap, MAX_GAP};
use super::shared::wrapped::LineValueScan;
use super::{ids, FormatId};
use super::{Action, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::Evidence;
use crate::render::{CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::SARASHINA,
    "SB Intuitions Sarashina",
    &["<|tool_calls|>", "[{' at the start of a line"],
    "Python-literal list of {'name', 'arguments'} dicts",
)
.openers(&[OPENER, OPENER_BARE])
.render(Prompt::new("SB Intuitions Sarashina", write_calls));

/// `sarashina`: `<|tool_calls|>` and a Python-literal list of dicts.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::args;
    use crate::render::text::{py_literal, py_str};

    let items: Vec<String> = calls
        .iter()
        .map(|c| {
            format!(
                "{{'name': {}, 'arguments': {}}}",
                py_str(&c.name, '\''),
                py_literal(&args(c), '\'')
            )
        })
        .collect();
    format!("<|tool_calls|>[{}]", items.join(", "))
}

/// The closing token is optional; `<|/tool_calls|>` is accepted when present
/// (not documented for Sarashina, so nothing depends on it).
const WRAP: Wrap = Wrap::new(b"<|tool_calls|>", b"<|/tool_calls|>");

/// The Sarashina block format: `marked` after `<|tool_calls|>`.
pub struct Sarashina {
    marked: bool,
}

/// After `<|tool_calls|>`.
pub static MARKED: Sarashina = Sarashina { marked: true };

/// A bare `[{'…` line.
pub static UNMARKED: Sarashina = Sarashina { marked: false };

impl BlockFormat for Sarashina {
    fn id(&self) -> FormatId {
        ids::SARASHINA
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if !self.marked {
            if cx.cut {
                return BlockResult::text();
            }
            let text = crate::scan::lossy(block);
            return value_calls(
                &text,
                ids::SARASHINA,
                Evidence::Weak,
                0,
                block,
                false,
                &cx.cfg.repair_options(),
            );
        }
        let (open, body_end, cut) = WRAP.body(block, cx.cut);
        let text = match body_text(block, open, body_end, cut, ids::SARASHINA) {
            Ok(text) => text,
            Err(r) => return r,
        };
        value_calls(
            &text,
            ids::SARASHINA,
            Evidence::Strong,
            open,
            block,
            cut,
            &cx.cfg.repair_options(),
        )
    }
}

/// `<|tool_calls|>`.
pub const OPENER: Opener = Opener::new(WRAP.open, |_, _| WRAP.block(&MARKED));

fn probe_bare(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = skip_space_bounded(input, 1);
    if s > MAX_GAP {
        return Probe::NotMarker;
    }
    match input.get(s) {
        None if !cx.eof => return Probe::NeedMore,
        Some(b'{') => {}
        _ => return Probe::NotMarker,
    }
    let q = skip_space_bounded(input, s + 1);
    if q > s + MAX_GAP {
        return Probe::NotMarker;
    }
    match input.get(q) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'\'') => Probe::Match(Action::Block {
            fmt: &UNMARKED,
            scanner: crate::formats::BlockScanner::new(LineValueScan::new()),
        }),
        _ => Probe::NotMarker,
    }
}

/// `[{'` at the start of a line.
pub const OPENER_BARE: Opener = Opener::new(b"[", probe_bare).line_start();
