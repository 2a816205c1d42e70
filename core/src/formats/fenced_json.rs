//! `fenced-json`: a call-shaped JSON value in a ```` ```json ```` fence; any
//! other JSON fence stays text. The fence is found by the code-fence opener
//! in `fenced`.

use super::{ids, Format, Values};

/// The descriptor.
pub const FORMAT: Format = Format {
    id: ids::FENCED_JSON,
    families: "Gemma, Phi, Mistral-instruct fine-tunes, xLAM and llama3 models that over-format",
    markers: &["```json"],
    body: "call-shaped JSON object or array (anything else stays text)",
    models: &[],
    openers: &[],
    // xLAM models often put their call array in a JSON fence
    admitted_under: &[ids::XLAM, ids::HERMES],
    doc_start: None,
    lead: None,
    values: Values::Json,
    harmony_header: None,
    render: Some(crate::render::Prompt {
        models: "prompted models (JSON fences)",
        tools: crate::render::tools::json_prompted,
        tools_source: crate::render::Source::Ours,
        result: crate::render::results::fenced_json,
        result_source: crate::render::Source::Ours,
        call: crate::render::calls::fenced_json,
    }),
};
