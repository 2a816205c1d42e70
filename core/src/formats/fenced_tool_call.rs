//! `fenced-tool-call`: a call in a ```` ```tool_call ```` fence (and the
//! `tool_code`, `tool`, `function_call`, `tool_calls` info strings). The
//! fence is found by the code-fence opener in `fenced`.

use super::{ids, Format};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::FENCED_TOOL_CALL,
    "prompted models, agent frameworks, llama.cpp generic fallback",
    &[
        "```tool_call",
        "```tool_code",
        "```tool",
        "```function_call",
        "```tool_calls",
    ],
    "JSON object or array with tool/name and parameters/arguments",
)
.admitted_under(&[ids::GEMINI_FUNCTION_CALL])
.render(crate::render::Prompt {
    models: "prompted models (fenced tool_call blocks)",
    tools: crate::render::tools::fenced_tool_call,
    tools_source: crate::render::Source::Ours,
    result: crate::render::results::fenced,
    result_source: crate::render::Source::Ours,
    call: write_calls,
});

/// `fenced-tool-call`: a ```` ```tool_call ```` fence with `tool`/`parameters`.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::{each, obj};
    use crate::render::text::json_spaced;

    each(calls, "\n", |_, c| {
        format!(
            "```tool_call\n{}\n```",
            json_spaced(&obj("tool", c, "parameters"))
        )
    })
}
