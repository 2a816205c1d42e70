//! `llama3-json`: a bare `{"name": …, "parameters": …}` object, the form
//! Llama 3.1–3.3 use for JSON tool calls. Its blocks are found and parsed
//! by the bare JSON scanner (see `bare_json`), which labels a call with
//! `parameters` this format.

use super::Model;
use super::{ids, Format};
use crate::render::{results, tools, CallSpec, Prompt};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::LLAMA3_JSON,
    "Llama 3.1/3.2/3.3 JSON tool prompt",
    &["{\"name\": …, \"parameters\": …}", "; between calls"],
    "JSON objects with name and parameters, `;`-separated",
)
.turns(&[super::TurnMarker::named(
    b"<|start_header_id|>",
    b"<|end_header_id|>",
)])
.models(&[
    Model::new(
        "llama-3.1",
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
    ),
    Model::new(
        "llama-3.2",
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
    ),
    Model::new(
        "llama-3.3",
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
    ),
])
.admitted_under(&[ids::LLAMA_PYTHON_TAG])
.unmarked()
.render(
    Prompt::new("Llama 3.1 / 3.2 / 3.3 JSON tool calling", write_calls)
        .template(tools::llama3_json, results::ipython_output),
);

/// `llama3-json`: `{"name": …, "parameters": …}` objects joined by `; `.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(calls, ("name", "parameters"), ("", ""), "; ")
}
