//! `cohere`: Cohere Command R / R+ / R7B / Command A.
//!
//! * Command R7B / Command A: `<|START_ACTION|>[{"tool_call_id": "0",
//!   "tool_name": "f", "parameters": {…}}]<|END_ACTION|>`, after a
//!   `<|START_THINKING|>…<|END_THINKING|>` plan (a reasoning span, see
//!   `reasoning.rs`). Answers are wrapped in `<|START_RESPONSE|>` /
//!   `<|END_RESPONSE|>` (markup, see `markup.rs`). The `tool_call_id` is kept
//!   as the call id. A missing `<|END_ACTION|>` at end of input is tolerated;
//!   a stray `<|END_ACTION|>` is markup.
//! * Command R / R+ (2024): a line `Action:` followed by a ```` ```json ````
//!   fence holding an array of `{"tool_name", "parameters"}`. The whole
//!   `Action:` line plus fence is the block.
//!
//! **`directly_answer`** (Ollama's template: `directly-answer`) is Command R's pseudo-tool for "no tool needed": it
//! is never reported as a call. The rule ([`drop_directly_answer`]) is
//! shared with the generic JSON paths that can receive Command R output
//! without its `Action:` line (`fenced-json` fences and `bare-json` values).
//! A block whose only call was `directly_answer` is text.
//!
//! Command A's grounded answers mark cited spans `<co>` … `</co: 0:[1,2]>`
//! (document 0, passages 1 and 2): the tags are markup, the span is text
//! ([`OPENER_CITATION`], [`OPENER_CITATION_END`]).

use super::shared::directly_answer::drop_directly_answer;
use super::shared::fence::{count_ticks, FenceScan};
use super::shared::tagged::{json_after, TaggedJson};
use super::Model;
use super::{ids, Blocks};
use super::{Action, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::COHERE,
    "Cohere Command R, R+, R7B, Command A",
    &[
        "<|START_ACTION|>",
        "<|END_ACTION|>",
        "Action: ```json",
        "<|START_THINKING|>",
        "<|START_RESPONSE|>",
    ],
    "JSON array of {\"tool_call_id\", \"tool_name\", \"parameters\"}",
)
.turns(&[
    super::TurnMarker::fixed(b"<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>", "system"),
    super::TurnMarker::fixed(b"<|START_OF_TURN_TOKEN|><|USER_TOKEN|>", "user"),
    super::TurnMarker::fixed(b"<|CHATBOT_TOKEN|>", "assistant").noted(),
])
.models(&[
    Model::new("command-r", "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"),
    Model::new("command-a", "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"),
])
.openers(&[
    OPENER_ACTION,
    OPENER_STRAY_END,
    OPENER_ACTION_LINE,
    OPENER_CITATION,
    OPENER_CITATION_END,
])
.render(
    Prompt::new("Cohere Command R7B / Command A", write_calls)
        .template(tools::cohere, results::cohere),
);

/// `cohere` (Command R7B / Command A): `<|START_ACTION|>` JSON array
/// `<|END_ACTION|>`, objects with `tool_call_id`, `tool_name`, `parameters`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::args;
    use crate::render::text::json_spaced;
    use serde_json::{json, Value};

    let items: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "tool_call_id": c.id.clone().unwrap_or_else(|| i.to_string()),
                "tool_name": c.name,
                "parameters": args(c),
            })
        })
        .collect();
    let body: Vec<String> = items
        .iter()
        .map(|v| format!("    {}", json_spaced(v)))
        .collect();
    format!("<|START_ACTION|>[\n{}\n]<|END_ACTION|>", body.join(",\n"))
}

/// The `<|START_ACTION|>` block.
pub static COHERE_ACTION: Blocks = Blocks::new(ids::COHERE, parse_cohere_action);

static ACTION_JSON: TaggedJson = TaggedJson::strong(ids::COHERE, b"<|end_action|>");

fn parse_cohere_action(block: &[u8], cx: &ParseCx) -> BlockResult {
    let mut r = ACTION_JSON.parse(block, cx);
    drop_directly_answer(&mut r);
    r
}

/// `<|START_ACTION|>` + JSON array.
pub const OPENER_ACTION: Opener = Opener::new(b"<|START_ACTION|>", |i, cx| {
    json_after(
        i,
        16,
        cx,
        &COHERE_ACTION,
        ACTION_JSON.close,
        Probe::Match(Action::Markup { len: 16 }),
    )
});

/// A stray `<|END_ACTION|>` is markup.
pub const OPENER_STRAY_END: Opener = Opener::markup(b"<|END_ACTION|>");

/// Command R's `Action:` line followed by a JSON fence (its end is found by
/// [`FenceScan`]).
pub static COHERE_FENCE: Blocks = Blocks::new(ids::COHERE, parse_cohere_fence);

fn probe_action_line(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = ACTION_LINE.len();
    let s = scan::skip_space(input, LIT);
    if s - LIT > 64 {
        return Probe::NotMarker;
    }
    if let Err(answer) = cx.literal(&input[s..], b"```") {
        return answer;
    }
    let t = s + count_ticks(&input[s..]);
    let Some(nl) = memchr::memchr(b'\n', &input[t..]).map(|k| t + k) else {
        return if cx.eof || input.len() - t > 64 {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        };
    };
    let info = crate::scan::lossy(&input[t..nl])
        .trim()
        .to_ascii_lowercase();
    if !matches!(info.as_str(), "" | "json" | "json5" | "jsonc") {
        return Probe::NotMarker;
    }
    Probe::Match(Action::Block {
        fmt: &COHERE_FENCE,
        scanner: crate::formats::BlockScanner::new(FenceScan::new(nl + 1, t - s)),
    })
}

/// The literal of [`OPENER_ACTION_LINE`].
const ACTION_LINE: &[u8] = b"Action:";

/// `Action:` at the start of a line (Command R).
pub const OPENER_ACTION_LINE: Opener = Opener::new(ACTION_LINE, probe_action_line).line_start();

fn parse_cohere_fence(block: &[u8], cx: &ParseCx) -> BlockResult {
    let fence = scan::find(block, 0, b"```").unwrap_or(block.len());
    let header = memchr::memchr(b'\n', &block[fence..]).map_or(block.len(), |k| fence + k + 1);
    let content_end = if cx.cut {
        block.len()
    } else {
        memchr::memmem::rfind(&block[header..], b"```").map_or(block.len(), |k| header + k)
    };
    // the closing fence line is part of the block, not of the body
    let mut r = super::shared::json::json_block(
        &block[..content_end],
        header,
        content_end,
        ids::COHERE,
        cx,
    );
    for c in &mut r.calls {
        c.end = c.end.min(content_end);
    }
    if let Some(last) = r.calls.last_mut() {
        last.end = block.len();
    }
    drop_directly_answer(&mut r);
    r
}

/// The opening tag of a cited span.
const CO_OPEN: &[u8] = b"<co>";
/// The start of the closing tag of a cited span, `</co: 0:[1,2],1:[3]>`.
const CO_CLOSE: &[u8] = b"</co:";
/// How far after `<co>` its closing tag is looked for (the bytes held back
/// while streaming until it is found).
const CITATION_WINDOW: usize = 1024;
/// The longest citation list read in a closing tag.
const MAX_CITATION: usize = 256;

/// The length of the citation closer at the start of `input` (which starts
/// with `</co:`): blanks, digits, `:`, `,` and brackets up to `>`, with at
/// least a `N:[` in them. `Err(NeedMore)` while the input ends inside it.
fn citation_end_len(input: &[u8], eof: bool) -> Result<usize, Probe> {
    let limit = input.len().min(MAX_CITATION);
    let Some(gt) = memchr::memchr(b'>', &input[CO_CLOSE.len()..limit]).map(|k| CO_CLOSE.len() + k)
    else {
        return Err(if limit == input.len() && !eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        });
    };
    let list = &input[CO_CLOSE.len()..gt];
    let shaped = list
        .iter()
        .all(|&b| b.is_ascii_digit() || matches!(b, b':' | b',' | b'[' | b']' | b' '))
        && list.iter().any(u8::is_ascii_digit)
        && memchr::memmem::find(list, b":[").is_some();
    if shaped {
        Ok(gt + 1)
    } else {
        Err(Probe::NotMarker)
    }
}

/// `<co>`: markup when a citation closer follows within
/// [`CITATION_WINDOW`] bytes, before another `<co>`; otherwise text.
fn probe_citation(input: &[u8], cx: &ProbeCx) -> Probe {
    let limit = input.len().min(CO_OPEN.len() + CITATION_WINDOW);
    let close = scan::find(&input[..limit], CO_OPEN.len(), CO_CLOSE);
    let reopen = scan::find(&input[..limit], CO_OPEN.len(), CO_OPEN);
    match close {
        Some(c) if reopen.is_none_or(|r| r > c) => match citation_end_len(&input[c..], cx.eof) {
            Ok(_) => Probe::Match(Action::Markup { len: CO_OPEN.len() }),
            Err(p) => p,
        },
        None if reopen.is_none() && limit == input.len() && !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<co>` opening a cited span (Command A).
pub const OPENER_CITATION: Opener = Opener::new(CO_OPEN, probe_citation);

/// `</co: 0:[1,2]>` closing a cited span (Command A): markup when it has
/// the citation list's shape.
pub const OPENER_CITATION_END: Opener = Opener::new(CO_CLOSE, |input, cx: &ProbeCx| {
    match citation_end_len(input, cx.eof) {
        Ok(len) => Probe::Match(Action::Markup { len }),
        Err(p) => p,
    }
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citation_closers_have_the_list_shape() {
        assert!(matches!(
            citation_end_len(b"</co: 0:[1,2],1:[3,4]> rest", true),
            Ok(22)
        ));
        assert!(matches!(citation_end_len(b"</co:0:[1]>", true), Ok(11)));
        assert!(matches!(
            citation_end_len(b"</co: see> x", true),
            Err(Probe::NotMarker)
        ));
        assert!(matches!(
            citation_end_len(b"</co: 0:[1", false),
            Err(Probe::NeedMore)
        ));
        assert!(matches!(
            citation_end_len(b"</co: 0:[1", true),
            Err(Probe::NotMarker)
        ));
    }
}
