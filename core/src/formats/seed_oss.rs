//! `seed-oss`: ByteDance Seed-OSS.
//!
//! ```text
//! <seed:think>…</seed:think><seed:tool_call>
//! <function=list_dir>
//! <parameter=path>/users/guest</parameter>
//! </function>
//! </seed:tool_call>
//! ```
//!
//! The body is Qwen3-Coder's XML (`shared::xml::parse_function`), so
//! every sloppy parameter shape that format tolerates is tolerated here.
//! Several `<function=…>` in one wrapper are several calls; each ends at
//! its `</function>` found outside parameter values, so a value may hold
//! `<function=…>` or `</function>` as text. Reasoning in
//! `<seed:think>` is a reasoning span (`reasoning.rs`). A missing
//! `</seed:tool_call>` at end of input is tolerated when the function is
//! complete; a stray `</seed:tool_call>` is markup.

use super::shared::tag::UntilClose;
use super::Model;
use super::{ids, Blocks, Values};
use super::{BlockEnd, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::SEED_OSS,
    "ByteDance Seed-OSS",
    &[
        "<seed:tool_call>",
        "<function=NAME>",
        "<parameter=KEY>",
        "</parameter>",
        "</function>",
        "</seed:tool_call>",
    ],
    "Qwen3-Coder-style XML function and parameters",
)
.models(&[Model::new("seed-oss", "")])
// a turn is `<seed:bos>ROLE` … `<seed:eos>`
.template_tokens(&[
    "<seed:bos>",
    "<seed:eos>",
    "<seed:tool_call>",
    "<seed:think>",
])
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.values(Values::Text)
.render(
    Prompt::new("ByteDance Seed-OSS", write_calls).template(tools::seed_oss, results::seed_oss),
);

/// `seed-oss`: the Qwen3-Coder shape inside `<seed:tool_call>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::{guard_newlines, value_text};

    with_pairs(
        calls,
        "\n",
        |_, c| format!("<seed:tool_call>\n<function={}>\n", c.name),
        |k, v| {
            format!(
                "<parameter={k}>{}</parameter>\n",
                guard_newlines(&value_text(v))
            )
        },
        "</function>\n</seed:tool_call>",
    )
}

const OPEN: &[u8] = b"<seed:tool_call>";
const CLOSE: &[u8] = b"</seed:tool_call>";
const FN_CLOSE: &[u8] = b"</function>";

/// The Seed-OSS block: from `<seed:tool_call>` to its closing tag.
pub static SEED_OSS: Blocks = Blocks::new(ids::SEED_OSS, parse_seed_oss);

fn parse_seed_oss(block: &[u8], cx: &ParseCx) -> BlockResult {
    // each function ends at its `</function>` outside values (a value
    // may hold `<function=…>` as text), else where the next one starts
    let mut spans = Vec::new();
    let mut i = 0;
    while let Some(k) = scan::find(block, i, b"<function") {
        let end = super::shared::xml::function_end(block, k);
        let next = scan::find(block, end.unwrap_or(k + 1), b"<function");
        spans.push((k, end.or(next).unwrap_or(block.len())));
        match next {
            Some(n) => i = n,
            None => break,
        }
    }
    if spans.is_empty() {
        if cx.cut {
            return BlockResult::truncated(ids::SEED_OSS, block.len());
        }
        return BlockResult::error("TLP-001", "seed-oss call has no <function=NAME>", 0);
    }
    let mut out = BlockResult::default();
    for (n, &(s, end)) in spans.iter().enumerate() {
        let last = n + 1 == spans.len();
        let fcx = ParseCx {
            cfg: cx.cfg,
            cut: cx.cut && last,
            // a part of the block: what its scanner read is about the whole
            plain: None,
            ..*cx
        };
        let r = super::shared::xml::parse_function(&block[s..end], ids::SEED_OSS, &fcx);
        out.errors.extend(r.errors.into_iter().map(|mut e| {
            e.offset += s;
            e
        }));
        for mut c in r.calls {
            c.end = end;
            out.calls.push(c);
        }
    }
    out
}

/// No closing tag at the end of input: the block ends after the last
/// complete function, so prose after it stays text.
fn unclosed(block: &[u8]) -> BlockEnd {
    match memchr::memmem::rfind(block, FN_CLOSE) {
        Some(k)
            if scan::trim(&block[k + FN_CLOSE.len()..]).is_empty()
                || scan::find(block, k, b"<function").is_none() =>
        {
            BlockEnd::done(k + FN_CLOSE.len())
        }
        _ => BlockEnd::cut_off(block),
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    super::probe_wrapper(input, cx, OPEN.len(), b"<function", &SEED_OSS, || {
        crate::formats::BlockScanner::new(UntilClose::new(CLOSE, OPEN.len()).unclosed(unclosed))
    })
}

/// `<seed:tool_call>`.
pub const OPENER: Opener = Opener::new(OPEN, probe);

/// A stray `</seed:tool_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(CLOSE);
