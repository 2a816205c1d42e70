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
//! Tolerated: a missing `</arg_value>` (the value ends at the next
//! `<arg_key>` that opens another pair, or at `</tool_call>`), a missing
//! `<arg_value>` (the value is what lies between `</arg_key>` and the
//! `</arg_value>` that comes before any other tag, a `missing_open`
//! repair), a missing `</tool_call>` at end of input.
//!
//! Not followed: SGLang drops a call whose name is not among the request's
//! tools; without `--tools` the name is not known to be wrong, so the call
//! is reported (with `--tools`, validation flags it).

use super::shared::pairs::{sniff, PairTags, Pairs};
use super::shared::tag::tag_then_body;
use super::Model;
use super::{ids, Opener, Values};
use super::{Format, Probe, ProbeCx};
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
    Model {
        name: "glm-4.5",
        prompt: "<|assistant|>",
    },
    Model {
        name: "glm-4.6",
        prompt: "<|assistant|>",
    },
    Model {
        name: "glm-4.7",
        prompt: "<|assistant|><think>",
    },
    Model {
        name: "glm-5",
        prompt: "<|assistant|><think>",
    },
])
.openers(&[OPENER_TOOL_CALL, OPENER_TOOL_DASH_CALL, OPENER_TOOLCALL])
.values(Values::Text)
.render(crate::render::Prompt {
    models: "GLM-4.5 / 4.6 / 4.7",
    tools: crate::render::tools::glm4_moe,
    tools_source: crate::render::Source::Template,
    result: crate::render::results::glm,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `glm4-moe` (GLM-4.5/4.6 layout): name, then `<arg_key>`/`<arg_value>` pairs.
/// A value is written as it is: GLM's parser strips nothing inside
/// `<arg_value>`, so no newline guard is needed.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::value_text;

    each(calls, "\n", |_, c| {
        let mut s = format!("<tool_call>{}\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<arg_key>{k}</arg_key>\n<arg_value>{}</arg_value>\n",
                value_text(v)
            ));
        }
        s.push_str("</tool_call>");
        s
    })
}

/// GLM's tags.
pub const GLM_TAGS: PairTags = PairTags {
    format: ids::GLM4_MOE,
    close: b"</tool_call>",
    key_open: b"<arg_key>",
    key_close: b"</arg_key>",
    value_open: b"<arg_value>",
    value_close: b"</arg_value>",
    type_tags: (b"", b""),
};

/// The GLM instance.
pub static GLM: Pairs = Pairs::new(&GLM_TAGS);

/// After an opening tool-call tag `lit_len` bytes long: a block when a
/// function name follows (see [`sniff`]).
fn probe_tagged(input: &[u8], cx: &ProbeCx, lit_len: usize) -> Probe {
    match tag_then_body(input, lit_len, cx) {
        Ok((tag, Some(s))) if scan::is_name_byte(input[s]) => sniff(input, tag, s, cx, &GLM),
        Ok(_) => Probe::NotMarker,
        Err(p) => p,
    }
}

/// `<tool_call>` (any ASCII case, attributes allowed) around a name.
pub const OPENER_TOOL_CALL: Opener =
    Opener::new(b"<tool_call", |i, cx| probe_tagged(i, cx, 10)).ci();

/// `<tool-call>` spelling drift.
pub const OPENER_TOOL_DASH_CALL: Opener =
    Opener::new(b"<tool-call", |i, cx| probe_tagged(i, cx, 10)).ci();

/// `<toolcall>` spelling drift.
pub const OPENER_TOOLCALL: Opener = Opener::new(b"<toolcall", |i, cx| probe_tagged(i, cx, 9)).ci();
