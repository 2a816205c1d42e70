//! `internlm`: InternLM 2 / 2.5 and early Intern-S1.
//!
//! * Plugin calls: `<|action_start|><|plugin|>` then one JSON object
//!   `{"name": …, "parameters": {…}}` (`arguments` also accepted) then
//!   `<|action_end|>`. One call per action block.
//! * Interpreter calls: `<|action_start|><|interpreter|>` then Python code
//!   (often inside a ```` ```python ```` fence) then `<|action_end|>`. This is
//!   reported as a call of `python` with arguments `{"code": "<code>"}` (the
//!   Functionary convention, see docs/formats.md#llama-python-tag), the fence removed.
//!
//! Tolerated: blanks or newlines between the two tokens, a missing
//! `<|action_end|>` at end of input (when the JSON is complete), and a plugin
//! body directly after `<|action_start|>`. A stray `<|action_end|>`, or an
//! `<|action_start|>` not followed by a call, is markup.

use super::shared::tag::{block, UntilClose};
use super::{ids, FormatId};
use super::{Action, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::{strip_one_newline, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::INTERNLM,
    "InternLM 2, InternLM 2.5, Intern-S1 (early)",
    &[
        "<|action_start|>",
        "<|plugin|>",
        "<|interpreter|>",
        "<|action_end|>",
    ],
    "JSON object {\"name\", \"parameters\"}; interpreter: Python code",
)
.openers(&[OPENER, OPENER_STRAY_END])
.render(Prompt::new("InternLM 2.5", write_calls).template(tools::internlm, results::internlm));

/// `internlm`: `<|action_start|><|plugin|>` JSON `<|action_end|>`, one per call.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(
        calls,
        ("name", "parameters"),
        ("<|action_start|><|plugin|>\n", "<|action_end|>"),
        "\n",
    )
}

const START: &[u8] = b"<|action_start|>";
const END: &[u8] = b"<|action_end|>";
const PLUGIN: &[u8] = b"<|plugin|>";
const INTERPRETER: &[u8] = b"<|interpreter|>";

/// Plugin blocks: a JSON body closed by `<|action_end|>`.
pub static PLUGIN_BLOCK: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::INTERNLM, b"<|action_end|>");

/// Interpreter blocks: code up to `<|action_end|>`.
pub struct Interpreter;

/// The shared instance.
pub static INTERPRETER_BLOCK: Interpreter = Interpreter;

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = scan::skip_space(input, START.len());
    if s - START.len() > 64 {
        return Probe::Match(Action::Markup { len: START.len() });
    }
    if s == input.len() {
        return if cx.eof {
            Probe::Match(Action::Markup { len: START.len() })
        } else {
            Probe::NeedMore
        };
    }
    let rest = &input[s..];
    match scan::prefix(rest, PLUGIN) {
        Prefix::Full => {
            let tag = s + PLUGIN.len();
            return super::shared::tagged::json_after(
                input,
                tag,
                cx,
                &PLUGIN_BLOCK,
                PLUGIN_BLOCK.close,
                Probe::Match(Action::Markup { len: tag }),
            );
        }
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match scan::prefix(rest, INTERPRETER) {
        Prefix::Full => {
            return block(
                &INTERPRETER_BLOCK,
                UntilClose::new(END, s + INTERPRETER.len()),
            )
        }
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    if matches!(rest.first(), Some(b'{')) {
        return super::shared::tagged::json_after(
            input,
            s,
            cx,
            &PLUGIN_BLOCK,
            PLUGIN_BLOCK.close,
            Probe::NotMarker,
        );
    }
    Probe::Match(Action::Markup { len: START.len() })
}

/// `<|action_start|>`.
pub const OPENER: Opener = Opener::new(START, probe);

/// A stray `<|action_end|>` is markup.
pub const OPENER_STRAY_END: Opener = Opener::markup(END);

impl BlockFormat for Interpreter {
    fn id(&self) -> FormatId {
        ids::INTERNLM
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if cx.cut {
            return BlockResult::truncated(ids::INTERNLM, block.len());
        }
        let from = scan::find(block, 0, INTERPRETER).map_or(0, |k| k + INTERPRETER.len());
        let to = block.len().saturating_sub(END.len()).max(from);
        let code = unfence(&crate::scan::lossy(&block[from..to]));
        if code.trim().is_empty() {
            return BlockResult::error("TLP-002", "empty internlm interpreter call", from);
        }
        let mut arguments = Map::new();
        arguments.insert("code".into(), Value::String(code));
        BlockResult::one(ParsedCall {
            end: block.len(),
            ..ParsedCall::new("python".into(), arguments, ids::INTERNLM)
        })
    }
}

/// The code inside a Markdown fence when the text is one fence, else the
/// text with one leading and one trailing newline removed.
fn unfence(text: &str) -> String {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        if let Some(nl) = rest.find('\n') {
            let body = &rest[nl + 1..];
            if let Some(inner) = body.trim_end().strip_suffix("```") {
                return strip_one_newline(inner).to_string();
            }
        }
    }
    strip_one_newline(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_is_removed() {
        assert_eq!(
            unfence("\n```python\nprint(1)\nx = 2\n```\n"),
            "print(1)\nx = 2"
        );
        assert_eq!(unfence("\nprint(1)\n"), "print(1)");
    }
}
