//! `deepseek-v3.1`: DeepSeek V3.1 / V3.1-Terminus / V3.2-Exp tool calls.
//!
//! ```text
//! <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{args}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! ```
//!
//! Same tokens as `deepseek-v3`, so the section is found and read by the
//! `deepseek-v3` parser, which decides per call and labels a call with the
//! V3.1 body this format: the name comes *before* the separator (whitespace
//! around it is trimmed), then bare JSON arguments, no `function` word and
//! no fence (a fence is tolerated anyway). `--format deepseek-v3.1` takes
//! those blocks through `deepseek-v3`'s `admitted_under`.

use super::ids;
use super::Format;
use super::Model;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::DEEPSEEK_V3_1,
    "DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp",
    &[
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
    ],
    "NAME<｜tool▁sep｜> then the JSON arguments",
)
.models(&[
    Model {
        name: "deepseek-v3.1",
        prompt: "<｜Assistant｜></think>",
    },
    Model {
        name: "deepseek-v3.1-thinking",
        prompt: "<｜Assistant｜><think>",
    },
    Model {
        name: "deepseek-v3.2-exp",
        prompt: "<｜Assistant｜></think>",
    },
])
.render(crate::render::Prompt {
    models: "DeepSeek V3.1 / V3.2-Exp",
    tools: crate::render::tools::deepseek_v3_1,
    tools_source: crate::render::Source::Approximate,
    result: crate::render::results::deepseek_v3_1,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `deepseek-v3.1`: `NAME<｜tool▁sep｜>{args}`.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_compact;

    let body = each(calls, "", |_, c| {
        format!(
            "<｜tool▁call▁begin｜>{}<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
            c.name,
            json_compact(&args(c))
        )
    });
    format!("<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>")
}
