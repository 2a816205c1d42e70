//! `fenced-json`: a call-shaped JSON value in a ```` ```json ```` fence; any
//! other JSON fence stays text. The fence is found by the code-fence opener
//! in `fenced`.

use super::{ids, Format};
use crate::render::{results, tools, CallSpec, Prompt};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::FENCED_JSON,
    "Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format",
    &["```json"],
    "call-shaped JSON object or array (anything else stays text)",
)
// xLAM models often put their call array in a JSON fence
.admitted_under(&[ids::XLAM, ids::HERMES])
.render(
    Prompt::new("prompted models (JSON fences)", write_calls)
        .ours(tools::json_prompted, results::fenced_json),
);

/// `fenced-json`: a ```` ```json ```` fence holding `{"name", "arguments"}`.
pub fn write_calls(calls: &[CallSpec]) -> String {
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
