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

use super::{granite, hermes, hunyuan_v4, minimax, Action, FormatInfo, Opener, Probe, ProbeCx};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const INFO: FormatInfo = FormatInfo {
    id: "jamba",
    families: "AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B",
    markers: &["<tool_calls>", "</tool_calls>"],
    body: "JSON array of {\"name\", \"arguments\"}",
};

/// `<tool_calls>` around a hermes body, with `--format hermes` (FORMATS.md
/// §1 lists `<tool_calls>` among hermes' tag spelling drift; in auto mode
/// the same bytes are `jamba` or `minimax`).
pub static HERMES_TOOL_CALLS: granite::TaggedJson =
    granite::TaggedJson::strong("hermes", b"</tool_calls>");

/// Array bodies.
pub static JAMBA: granite::TaggedJson = granite::TaggedJson::strong("jamba", b"</tool_calls>");

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = 11; // `<tool_calls`
    if input.get(LIT) == Some(&b':') {
        return hunyuan_v4::probe_suffixed(input, LIT, cx);
    }
    let tag = match hermes::tag_len(input, LIT, cx.eof) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let s = scan::skip_space(input, tag);
    if s - tag > 256 {
        return Probe::NotMarker;
    }
    match input.get(s) {
        None if cx.eof => granite::held(&JAMBA, tag),
        None => Probe::NeedMore,
        Some(b'[') if cx.cfg.allows("jamba") || cx.cfg.allows("minimax") => {
            granite::held(&JAMBA, tag)
        }
        Some(b'{') if cx.cfg.allows("jamba") || cx.cfg.allows("minimax") => {
            granite::held(&minimax::MINIMAX, tag)
        }
        Some(b'{') | Some(b'[') if cx.cfg.allows("hermes") => {
            granite::held(&HERMES_TOOL_CALLS, tag)
        }
        Some(b'<') if cx.cfg.allows("hunyuan-v4") => {
            match scan::prefix_ci(&input[s..], b"<tool_call") {
                Prefix::Full => granite::held(&hunyuan_v4::HUNYUAN, tag),
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
    formats: &["jamba", "minimax", "hunyuan-v4", "hermes"],
    probe,
};

/// A stray `</tool_calls>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener {
    lit: b"</tool_calls>",
    ci: true,
    line_start: false,
    formats: &["jamba", "minimax", "hermes"],
    probe: |_, _| Probe::Match(Action::Markup { len: 13 }),
};
