//! `llama3-json`: a bare `{"name": …, "parameters": …}` object, the form
//! Llama 3.1–3.3 use for JSON tool calls. Its blocks are found and parsed
//! by the bare JSON scanner (see `bare_json`), which labels a call with
//! `parameters` this format.

use super::Model;
use super::{ids, Format};

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
    Model {
        name: "llama-3.1",
        prompt: "<|start_header_id|>assistant<|end_header_id|>\n\n",
    },
    Model {
        name: "llama-3.2",
        prompt: "<|start_header_id|>assistant<|end_header_id|>\n\n",
    },
    Model {
        name: "llama-3.3",
        prompt: "<|start_header_id|>assistant<|end_header_id|>\n\n",
    },
])
.admitted_under(&[ids::LLAMA_PYTHON_TAG])
.unmarked()
.render(crate::render::Prompt {
    models: "Llama 3.1 / 3.2 / 3.3 JSON tool calling",
    tools: crate::render::tools::llama3_json,
    tools_source: crate::render::Source::Template,
    result: crate::render::results::ipython_output,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `llama3-json`: `{"name": …, "parameters": …}` objects joined by `; `.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::{each, obj};
    use crate::render::text::json_spaced;

    each(calls, "; ", |_, c| {
        json_spaced(&obj("name", c, "parameters"))
    })
}
