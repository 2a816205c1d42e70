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
use crate::render::{results, tools, CallSpec, Prompt, Source};

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
    Model::new("deepseek-v3.1", "<｜Assistant｜></think>"),
    Model::new("deepseek-v3.1-thinking", "<｜Assistant｜><think>"),
    Model::new("deepseek-v3.2-exp", "<｜Assistant｜></think>"),
])
.render(
    Prompt::new("DeepSeek V3.1 / V3.2-Exp", write_calls)
        .tools(tools::deepseek_v3_1, Source::Approximate)
        .result(results::deepseek_v3_1, Source::Template),
);

/// `deepseek-v3.1`: `NAME<｜tool▁sep｜>{args}`.
pub fn write_calls(calls: &[CallSpec]) -> String {
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
