//! `deepseek-v3.1`: DeepSeek V3.1 / V3.1-Terminus / V3.2-Exp tool calls.
//!
//! ```text
//! <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{args}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! ```
//!
//! Same tokens as `deepseek-v3`, so the section is read by the parser in
//! [`super::deepseek_v3`], which decides per call; this module reads the
//! V3.1 body: the name comes *before* the separator (whitespace around it is
//! trimmed), then bare JSON arguments, no `function` word and no fence (a
//! fence is tolerated anyway). `--format deepseek-v3.1` is accepted through
//! the format alias table.

use super::{ids, Values};
use super::section::{self, CallOutcome};
use super::Format;
use crate::call::{clean_name, ParsedCall};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format {
    id: ids::DEEPSEEK_V3_1,
    families: "DeepSeek-V3.1, V3.1-Terminus, V3.2-Exp",
    markers: &[
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
    ],
    body: "NAME<｜tool▁sep｜> then the JSON arguments",
    names: &[],
    openers: &[],
    admitted_under: &[],
    doc_start: None,
    lead: None,
    values: Values::Json,
    render: Some(crate::render::Prompt {
        models: "DeepSeek V3.1 / V3.2-Exp",
        tools: crate::render::tools::deepseek_v3_1,
        tools_source: crate::render::Source::Approximate,
        result: crate::render::results::deepseek_v3_1,
        result_source: crate::render::Source::Template,
        call: crate::render::calls::deepseek_v3_1,
    }),
};

/// Parses a V3.1 call: `before` is the (trimmed) text before the separator,
/// `after` the text after it (at offset `after_off` in the block).
pub(crate) fn parse_v31(
    before: &[u8],
    after: &[u8],
    off: usize,
    after_off: usize,
    cut: bool,
) -> CallOutcome {
    let name = clean_name(&String::from_utf8_lossy(before));
    if name.is_empty() {
        return Err(section::err(
            "TLP-001",
            "deepseek-v3.1 call has no function name",
            off,
        ));
    }
    // tolerate a fence around the JSON
    let mut s = scan::skip_space(after, 0);
    let mut end = after.len();
    if after[s..].starts_with(b"```") {
        let mut t = s + 3;
        while t < after.len() && (after[t] == b'`' || after[t].is_ascii_alphanumeric()) {
            t += 1;
        }
        s = t;
        if let Some(close) = scan::find(after, s, b"```") {
            end = close;
        }
    }
    let (arguments, repairs) =
        section::json_arguments(&after[s..end], after_off + s, cut, ids::DEEPSEEK_V3_1)?;
    Ok(ParsedCall {
        name,
        arguments,
        id: None,
        format: ids::DEEPSEEK_V3_1,
        repairs,
        end: 0,
    })
}
