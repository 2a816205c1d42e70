//! `jamba`: `<tool_calls>[{"name": …, "arguments": …}, …]</tool_calls>`
//! (AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B).
//!
//! The `<tool_calls>` tag is shared: one opener reads what follows it and
//! hands the block to the right format — a JSON array is `jamba`, JSON
//! objects (one per line) are `minimax` (MiniMax-M1, see `minimax.rs`), a
//! `<tool_call` tag is a suffix-less `hunyuan-v4` body. `<tool_calls:SUFFIX>`
//! is always `hunyuan-v4` (see `hunyuan_v4.rs`). Tolerated: tag case,
//! attributes on the tag, a missing `</tool_calls>` at end of input; a stray
//! `</tool_calls>` is markup. `--format jamba` and `--format minimax` accept
//! both bodies.

use super::{ids, Rank, Values};
use super::{hunyuan_v4, minimax, Action, Format, Opener, Probe, ProbeCx};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format {
    id: ids::JAMBA,
    families: "AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B",
    markers: &["<tool_calls>", "</tool_calls>"],
    body: "JSON array of {\"name\", \"arguments\"}",
    names: &[],
    openers: &[OPENER, OPENER_STRAY_CLOSE],
    admitted_under: &[ids::MINIMAX],
    doc_start: None,
    lead: None,
    values: Values::Json,
    render: Some(crate::render::Prompt {
        models: "AI21 Jamba 1.5 / 1.6, Tencent Hunyuan-A13B",
        tools: crate::render::tools::hunyuan_a13b,
        tools_source: crate::render::Source::Approximate,
        result: crate::render::results::hunyuan_a13b,
        result_source: crate::render::Source::Template,
        call: crate::render::calls::jamba,
    }),
};

/// `<tool_calls>` around a hermes body, with `--format hermes` (FORMATS.md
/// §1 lists `<tool_calls>` among hermes' tag spelling drift; in auto mode
/// the same bytes are `jamba` or `minimax`).
pub static HERMES_TOOL_CALLS: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::HERMES, b"</tool_calls>");

/// Array bodies.
pub static JAMBA: super::shared::tagged::TaggedJson = super::shared::tagged::TaggedJson::strong(ids::JAMBA, b"</tool_calls>");

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = 11; // `<tool_calls`
    if input.get(LIT) == Some(&b':') {
        return hunyuan_v4::probe_suffixed(input, LIT, cx);
    }
    let tag = match super::shared::tag::tag_len(input, LIT, cx.eof) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let s = scan::skip_space(input, tag);
    if s - tag > 256 {
        return Probe::NotMarker;
    }
    match input.get(s) {
        None if cx.eof => super::shared::tagged::held(&JAMBA, tag),
        None => Probe::NeedMore,
        Some(b'[') if cx.cfg.allows(ids::JAMBA) || cx.cfg.allows(ids::MINIMAX) => {
            super::shared::tagged::held(&JAMBA, tag)
        }
        Some(b'{') if cx.cfg.allows(ids::JAMBA) || cx.cfg.allows(ids::MINIMAX) => {
            super::shared::tagged::held(&minimax::MINIMAX, tag)
        }
        Some(b'{') | Some(b'[') if cx.cfg.allows(ids::HERMES) => {
            super::shared::tagged::held(&HERMES_TOOL_CALLS, tag)
        }
        Some(b'<') if cx.cfg.allows(ids::HUNYUAN_V4) => {
            match scan::prefix_ci(&input[s..], b"<tool_call") {
                Prefix::Full => super::shared::tagged::held(&hunyuan_v4::HUNYUAN, tag),
                Prefix::Partial if !cx.eof => Probe::NeedMore,
                _ => Probe::NotMarker,
            }
        }
        _ => Probe::NotMarker,
    }
}

/// `<tool_calls>` (and `<tool_calls:SUFFIX>`).
pub const OPENER: Opener = Opener {
    lit: b"<tool_calls",
    ci: true,
    line_start: false,
    rank: Rank::Normal,
    also: &[ids::MINIMAX, ids::HUNYUAN_V4, ids::HERMES],
    probe,};

/// A stray `</tool_calls>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener {
    lit: b"</tool_calls>",
    ci: true,
    line_start: false,
    rank: Rank::Normal,
    also: &[ids::MINIMAX, ids::HERMES],
    probe: |_, _| Probe::Match(Action::Markup { len: 13 }),};
