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
.openers(&[OPENER_ACTION, OPENER_STRAY_END, OPENER_ACTION_LINE])
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
