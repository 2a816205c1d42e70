//! `fenced-tool-call`: a call in a ```` ```tool_call ```` fence (and the
//! `tool_code`, `tool`, `function_call`, `tool_calls` info strings). The
//! fence is found by the code-fence opener in `fenced`.

use super::{ids, Format};
use crate::render::{results, tools, CallSpec, Prompt};

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
.render(
    Prompt::new("prompted models (fenced tool_call blocks)", write_calls)
        .ours(tools::fenced_tool_call, results::fenced),
);

/// `fenced-tool-call`: a ```` ```tool_call ```` fence with `tool`/`parameters`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(
        calls,
        ("tool", "parameters"),
        ("```tool_call\n", "\n```"),
        "\n",
    )
}
