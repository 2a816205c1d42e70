//! `xlam`: a bare JSON array of `{"name", "arguments"}` objects (Salesforce
//! xLAM). Its blocks are found and parsed by the bare JSON scanner (see
//! `bare_json`), which labels an array of calls this format.

use super::Model;
use super::{ids, Format};
use crate::render::{results, tools, CallSpec, Prompt};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::XLAM,
    "Salesforce xLAM-1, xLAM-2",
    &["[ at the start of the reply"],
    "JSON array of {\"name\", \"arguments\"}",
)
.models(&[Model::new("xlam-2", "")])
.unmarked()
.render(
    Prompt::new("Salesforce xLAM-2 (Llama-based)", write_calls)
        .template(tools::xlam, results::ipython),
);

/// `xlam`: the whole reply is a JSON array of `{"name", "arguments"}`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::array_of;

    array_of(calls, "name", "arguments")
}
