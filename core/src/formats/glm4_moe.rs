//! `glm4-moe`: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`.
//!
//! GLM-4.5/4.6 put newlines after the name and between pairs; GLM-4.7/5 glue
//! everything together. A call with no arguments is `<tool_call>NAME</tool_call>`.
//!
//! The templates write a string value as is between `<arg_value>` and
//! `</arg_value>` (other values as JSON), never wrapped in newlines: every
//! byte between the tags is the value, leading and trailing blanks
//! included. Values are text: JSON objects and arrays are decoded when they
//! parse, other values are typed like every XML-style format (a tools
//! schema retypes them; a string parameter keeps the text as written).
//!
//! Since string values are raw, a value may hold the markers themselves
//! (`<tool_call>`, `</tool_call>`, `<arg_key>`): inside a value only
//! `</arg_value>` ends it, so the call's end is looked for outside values.
//! A value may quote `</arg_value>` too: it runs to the last one before the
//! next `<arg_key>`, `<arg_value>` or `</tool_call>`.
//! Tolerated: a missing `</arg_value>` (the value ends at the next
//! `<arg_key>` that opens another pair, or at `</tool_call>`), a missing
//! `<arg_value>` (the value is what lies between `</arg_key>` and the
//! `</arg_value>` that comes before any other tag, a `missing_open`
//! repair), a missing `</tool_call>` at end of input, the first key opened
//! by `<tool_call>` written again or by nothing after a blank (the word
//! before `</arg_key>` is the key, a `missing_open` repair), `<arg_key>`
//! doubled before a key (markup, not part of the key).
//!
//! Not followed: SGLang drops a call whose name is not among the request's
//! tools; without `--tools` the name is not known to be wrong, so the call
//! is reported (with `--tools`, validation flags it).

use super::shared::pairs::{sniff, PairTags, Pairs};
use super::shared::tag::{tag_then_body, tool_call_len, tool_call_openers};
use super::Model;
use super::{ids, Opener, Values};
use super::{Format, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::GLM4_MOE,
    "GLM-4.5, GLM-4.6, GLM-4.7, GLM-5",
    &[
        "<tool_call>",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "</tool_call>",
    ],
    "function name as text, then key/value tag pairs",
)
.turns(&[
    super::TurnMarker::fixed(b"<|system|>", "system"),
    super::TurnMarker::fixed(b"<|user|>", "user"),
    super::TurnMarker::fixed(b"<|assistant|>", "assistant"),
    super::TurnMarker::fixed(b"<|observation|>", "tool"),
])
.models(&[
    Model::new("glm-4.5", "<|assistant|>"),
    Model::new("glm-4.6", "<|assistant|>"),
    Model::new("glm-4.7", "<|assistant|><think>"),
    Model::new("glm-5", "<|assistant|><think>"),
])
.openers(&OPENERS_TOOL_CALL)
.values(Values::Text)
.render(Prompt::new("GLM-4.5 / 4.6 / 4.7", write_calls).template(tools::glm4_moe, results::glm));

/// `glm4-moe` (GLM-4.5/4.6 layout): name, then `<arg_key>`/`<arg_value>` pairs.
/// A value is written as it is: GLM's parser strips nothing inside
/// `<arg_value>`, so no newline guard is needed.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::value_text;

    with_pairs(
        calls,
        "\n",
        |_, c| format!("<tool_call>{}\n", c.name),
        |k, v| {
            format!(
                "<arg_key>{k}</arg_key>\n<arg_value>{}</arg_value>\n",
                value_text(v)
            )
        },
        "</tool_call>",
    )
}

/// GLM's tags.
pub const GLM_TAGS: PairTags = PairTags::new(ids::GLM4_MOE, b"</tool_call>").json_after_name_line();

/// The GLM instance.
pub static GLM: Pairs = Pairs::new(&GLM_TAGS);

/// After an opening tool-call tag `lit_len` bytes long: a block when a
/// function name follows (see [`sniff`]).
fn probe_tagged(input: &[u8], cx: &ProbeCx) -> Probe {
    let lit_len = tool_call_len(input);
    match tag_then_body(input, lit_len, cx) {
        Ok((tag, Some(s))) if scan::is_name_byte(input[s]) => sniff(input, tag, s, cx, &GLM),
        Ok(_) => Probe::NotMarker,
        Err(p) => p,
    }
}

/// `<tool_call>` and its spelling drift (any ASCII case, attributes
/// allowed) around a name.
pub const OPENERS_TOOL_CALL: [Opener; 3] = tool_call_openers(probe_tagged);
