//! Calls from Python-literal or JSON bodies: turning parsed call lists into
//! [`BlockResult`]s, values that may be JSON or Python, and blocks wrapped in
//! an opening and an optional closing marker.

use super::literal::*;
use crate::call::{
    calls_from_value, clean_name, close_truncated, CallParts, Evidence, ParsedCall, Shape,
};
use crate::formats::shared::wrapped::{marked_body, WrapScan};
use crate::formats::{Action, BlockError, BlockFormat, BlockResult, FormatId, ParseCx, Probe};
use crate::repair::{Repair, RepairKind};
use crate::scan::{self};
use serde_json::Value;
use std::borrow::Cow;

/// Turns parsed calls into a block result: each call's `end` is where the
/// next one starts (offsets shifted by `offset`), the last one runs to
/// `block_len`; calls with positional arguments become `TLP-002` errors.
pub fn block_result(
    pc: PyCalls,
    format: FormatId,
    offset: usize,
    block_len: usize,
    exact_offsets: bool,
) -> BlockResult {
    let mut r = BlockResult::default();
    let starts: Vec<usize> = pc.calls.iter().map(|c| c.start).collect();
    let n = pc.calls.len();
    for (k, c) in pc.calls.into_iter().enumerate() {
        if c.positional > 0 {
            r.errors.push(BlockError {
                code: "TLP-002",
                message: format!(
                    "{format} call {} has {} positional argument(s); they cannot be named without the tool schema",
                    c.name, c.positional
                ),
                offset: offset + c.start,
                hint: Some("ask the model for keyword arguments (name=value)".into()),
            });
            continue;
        }
        let name = clean_name(&c.name);
        if name.is_empty() {
            r.errors.push(BlockError {
                code: "TLP-001",
                message: format!("{format} call has no function name"),
                offset: offset + c.start,
                hint: None,
            });
            continue;
        }
        let end = match starts.get(k + 1) {
            Some(&next) if exact_offsets && k + 1 < n => (offset + next).min(block_len),
            _ => block_len,
        };
        let mut repairs = Vec::new();
        if let Some(at) = pc.closed_at_eof {
            repairs.push(Repair {
                kind: RepairKind::MissingClose,
                offset: offset + at,
            });
        }
        if let Some(&at) = pc
            .inner_quotes_at
            .iter()
            .find(|&&at| c.start <= at && at < c.end)
        {
            repairs.push(Repair {
                kind: RepairKind::UnescapedQuote,
                offset: offset + at,
            });
        }
        r.calls.push(ParsedCall {
            repairs,
            end,
            ..ParsedCall::new(name, c.arguments, format)
        });
    }
    // every call but the last must end before the last one's cut
    if let Some(last) = r.calls.last_mut() {
        last.end = block_len;
    }
    r
}

// ----- values that may be JSON or Python literals ------------------------------

/// Parses a body that is JSON or a Python literal (JSON first; Python's
/// single quotes and `True/False/None` natively). With `cut`, closers missing
/// after a complete value are supplied and reported.
pub fn parse_value_any(
    text: &str,
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> Option<(Value, Vec<Repair>)> {
    let t = text.trim();
    if cut {
        let (closed, at) = close_truncated(t)?;
        let (v, mut reps) = parse_value_any(&closed, false, opts)?;
        reps.push(Repair {
            kind: RepairKind::MissingClose,
            offset: at,
        });
        return Some((v, reps));
    }
    if let Ok(v) = serde_json::from_str::<Value>(t) {
        return Some((v, Vec::new()));
    }
    if let Ok(v) = parse_literal(t) {
        return Some((v, Vec::new()));
    }
    crate::call::parse_json(t, opts).ok()
}

/// The call `p` read from a value whose parse made the repairs `reps`,
/// labelled `format`, its markup ending at `end`.
pub fn parsed_call(p: CallParts, reps: &[Repair], format: FormatId, end: usize) -> ParsedCall {
    let mut repairs = reps.to_vec();
    repairs.extend(p.repairs);
    ParsedCall {
        id: p.id,
        repairs,
        end,
        ..ParsedCall::new(clean_name(&p.name), p.arguments, format)
    }
}

/// Calls from a JSON / Python-literal value body (strong evidence).
pub fn value_calls(
    text: &str,
    format: FormatId,
    ev: Evidence,
    offset: usize,
    block: &[u8],
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> BlockResult {
    let Some((v, reps)) = parse_value_any(text, cut, opts) else {
        if cut {
            return BlockResult::truncated(format, block.len());
        }
        return match ev {
            Evidence::Weak => BlockResult::text(),
            Evidence::Strong => BlockResult::error(
                "TLP-003",
                format!("{format} body is neither JSON nor a Python literal"),
                offset,
            ),
        };
    };
    match calls_from_value(&v, ev) {
        Ok(parts) => {
            let mut r = BlockResult::default();
            for p in parts {
                r.calls.push(parsed_call(p, &reps, format, block.len()));
            }
            if !cut && v.is_array() {
                // offsets are exact only for the text as written
                let lead = text.len() - text.trim_start().len();
                crate::formats::split_array_ends(&mut r, block, offset + lead);
            }
            r
        }
        Err(Shape::NotCall) => match ev {
            Evidence::Weak => BlockResult::text(),
            Evidence::Strong => BlockResult::error(
                "TLP-001",
                format!("{format} body has no function name"),
                offset,
            ),
        },
        Err(Shape::Broken(code, msg)) => BlockResult::error(code, msg, offset),
    }
}

// ----- wrapped bodies --------------------------------------------------------

/// A block that is an opening marker, a body and an optional closing marker.
pub struct Wrap {
    /// The opening marker (its opener's literal).
    pub open: &'static [u8],
    /// Length of the opening marker.
    pub open_len: usize,
    /// The closing marker.
    pub close: &'static [u8],
    /// Several bare calls may follow each other (`f()\ng()`).
    pub seq: bool,
}

impl Wrap {
    /// Calls between `open` and `close`, one call or one list.
    pub const fn new(open: &'static [u8], close: &'static [u8]) -> Wrap {
        Wrap {
            open,
            open_len: open.len(),
            close,
            seq: false,
        }
    }

    /// Several bare calls may follow each other.
    pub const fn seq(mut self) -> Wrap {
        self.seq = true;
        self
    }

    /// Where the body of `block` lies: `(from, to, cut)` as
    /// [`marked_body`] gives it.
    pub fn body(&self, block: &[u8], cut: bool) -> (usize, usize, bool) {
        marked_body(block, self.open_len, self.close, cut)
    }

    /// The probe's answer for the opening marker: a block of `fmt` whose
    /// end a [`WrapScan`] finds.
    pub fn block(&self, fmt: &'static dyn BlockFormat) -> Probe {
        Probe::Match(Action::Block {
            fmt,
            scanner: crate::formats::BlockScanner::new(WrapScan::new(
                self.open_len,
                self.close,
                self.seq,
            )),
        })
    }
}

/// The text of the body `block[from..to]`; a blank body is the block's
/// whole answer: truncated when `cut`, else an `empty FORMAT call` error.
pub fn body_text(
    block: &[u8],
    from: usize,
    to: usize,
    cut: bool,
    format: FormatId,
) -> Result<Cow<'_, str>, BlockResult> {
    let text = crate::scan::lossy(&block[from..to]);
    if !text.trim().is_empty() {
        return Ok(text);
    }
    Err(if cut {
        BlockResult::truncated(format, block.len())
    } else {
        BlockResult::error("TLP-001", format!("empty {format} call"), from)
    })
}

/// Parses a [`Wrap`] block: a JSON (or Python-literal) value of calls, a
/// pythonic list, or bare call expressions.
pub fn parse_wrapped(block: &[u8], cx: &ParseCx, w: &Wrap, format: FormatId) -> BlockResult {
    let (open, body_end, cut) = w.body(block, cx.cut);
    parse_body(
        block,
        open,
        body_end,
        cut,
        format,
        Evidence::Strong,
        &cx.cfg.repair_options(),
    )
}

/// Parses `block[from..to]` as a call body: JSON / Python-literal call
/// objects when it starts with `{` or `[{`, else a pythonic call list or a
/// sequence of bare calls.
pub fn parse_body(
    block: &[u8],
    from: usize,
    to: usize,
    cut: bool,
    format: FormatId,
    ev: Evidence,
    opts: &crate::repair::RepairOptions,
) -> BlockResult {
    let raw = &block[from..to];
    let text = match body_text(block, from, to, cut, format) {
        Ok(text) => text,
        Err(r) => return r,
    };
    let exact = matches!(text, Cow::Borrowed(_));
    let t = text.trim();
    let tb = t.as_bytes();
    let objects = tb[0] == b'{'
        || (tb[0] == b'[' && matches!(tb.get(scan::skip_space(tb, 1)), Some(b'{') | Some(b']')));
    if objects {
        return value_calls(&text, format, ev, from, block, cut, opts);
    }
    let parsed = if tb[0] == b'[' {
        parse_call_list(&text, cut)
    } else {
        parse_call_sequence(&text, cut)
    };
    match parsed {
        Ok(pc) => {
            let pc = PyCalls {
                calls: pc.calls.into_iter().map(unwrap_print).collect(),
                ..pc
            };
            block_result(pc, format, from, block.len(), exact)
        }
        Err(PyError::Eof) if cut => BlockResult::truncated(format, block.len()),
        Err(PyError::Eof) => BlockResult::error(
            "TLP-002",
            format!("{format} call is incomplete"),
            to.saturating_sub(from) + from,
        ),
        Err(PyError::Syntax(at)) => match ev {
            Evidence::Weak => BlockResult::text(),
            Evidence::Strong => {
                let error = BlockResult::error(
                    "TLP-002",
                    format!("{format} body is not a list of Python calls"),
                    from + at.min(raw.len()),
                );
                // the calls before the element that does not parse are
                // still calls (as each element of a marked JSON array is)
                let good = if tb[0] == b'[' {
                    parse_call_list_prefix(&text)
                } else {
                    Vec::new()
                };
                if good.is_empty() {
                    return error;
                }
                let end = good.last().map_or(0, |c| c.end);
                let pc = PyCalls {
                    calls: good.into_iter().map(unwrap_print).collect(),
                    end,
                    closed_at_eof: None,
                    inner_quotes_at: Vec::new(),
                };
                let mut r = block_result(pc, format, from, block.len(), exact);
                r.errors.extend(error.errors);
                r
            }
        },
    }
}
