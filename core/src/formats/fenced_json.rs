//! `fenced-json`: a call-shaped JSON value in a ```` ```json ```` fence; any
//! other JSON fence stays text. The fence is found by the code-fence opener
//! in `fenced`.

use super::{ids, Format};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::FENCED_JSON,
    "Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format",
    &["```json"],
    "call-shaped JSON object or array (anything else stays text)",
)
// xLAM models often put their call array in a JSON fence
.admitted_under(&[ids::XLAM, ids::HERMES])
.render(crate::render::Prompt {
    models: "prompted models (JSON fences)",
    tools: crate::render::tools::json_prompted,
    tools_source: crate::render::Source::Ours,
    result: crate::render::results::fenced_json,
    result_source: crate::render::Source::Ours,
    call: write_calls,
});

/// `fenced-json`: a ```` ```json ```` fence holding `{"name", "arguments"}`.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::obj;
    use crate::render::text::json_indent;
    use serde_json::Value;

    let v = if calls.len() == 1 {
        obj("name", &calls[0], "arguments")
    } else {
        Value::Array(calls.iter().map(|c| obj("name", c, "arguments")).collect())
    };
    format!("```json\n{}\n```", json_indent(&v, 2))
}
