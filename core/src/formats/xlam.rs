//! `xlam`: a bare JSON array of `{"name", "arguments"}` objects (Salesforce
//! xLAM). Its blocks are found and parsed by the bare JSON scanner (see
//! `bare_json`), which labels an array of calls this format.

use super::Model;
use super::{ids, Format};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::XLAM,
    "Salesforce xLAM-1, xLAM-2",
    &["[ at the start of the reply"],
    "JSON array of {\"name\", \"arguments\"}",
)
.models(&[Model {
    name: "xlam-2",
    prompt: "",
}])
.unmarked()
.render(crate::render::Prompt {
    models: "Salesforce xLAM-2 (Llama-based)",
    tools: crate::render::tools::xlam,
    tools_source: crate::render::Source::Template,
    result: crate::render::results::ipython,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `xlam`: the whole reply is a JSON array of `{"name", "arguments"}`.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::array_of;

    array_of(calls, "name", "arguments")
}
