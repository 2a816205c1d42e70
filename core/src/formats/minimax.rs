//! `minimax`: MiniMax-M1 / MiniMax-Text-01 — `<tool_calls>`, then one JSON
//! object per line, then `</tool_calls>`.
//!
//! The `<tool_calls>` opener lives in `jamba.rs` (same tag, array body); it
//! sends object bodies here. Each object is one call whose span ends with
//! the object. Tolerated: several objects on one line, a missing
//! `</tool_calls>` at end of input (the block ends after the last complete
//! object), prose after the objects without a closing tag (it stays text),
//! and a last object cut off by the end of input — closed when only
//! brackets are missing, else given back as text after the complete calls.

use super::shared::tag::{block, tag_then_body};
use super::{ids, Blocks};
use super::{BlockEnd, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner};
use crate::call::close_truncated;
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::MINIMAX,
    "MiniMax-M1, MiniMax-Text-01",
    &["<tool_calls>", "</tool_calls>"],
    "one JSON object {\"name\", \"arguments\"} per line",
)
.turns(&[super::TurnMarker::named(b"<beginning_of_sentence>", b"\n")])
.template_tokens(&["<end_of_sentence>", "<tool_calls>"])
.openers(&[OPENER])
.admitted_under(&[ids::JAMBA])
.render(Prompt::new("MiniMax-M1", write_calls).template(tools::minimax, results::minimax));

/// `minimax` (M1): `<tool_calls>`, one JSON object per line, `</tool_calls>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{each, obj};
    use crate::render::text::json_spaced;

    format!(
        "<tool_calls>\n{}\n</tool_calls>",
        each(calls, "\n", |_, c| json_spaced(&obj(
            "name",
            c,
            "arguments"
        )))
    )
}

const CLOSE: &[u8] = b"</tool_calls>";

/// The JSON-lines block format.
pub static MINIMAX: Blocks = Blocks::new(ids::MINIMAX, parse_minimax);

fn parse_minimax(block: &[u8], cx: &ParseCx) -> BlockResult {
    let tag = memchr::memchr(b'>', block).map_or(block.len(), |k| k + 1);
    let mut out = BlockResult::default();
    let mut i = tag;
    loop {
        let s = scan::skip_space(block, i);
        if s >= block.len() || block[s] != b'{' {
            break;
        }
        let (e, last_cut) = match JsonEnd::new().scan(&block[s..]) {
            End::At(k) => (s + k, false),
            _ => (block.len(), true),
        };
        let vcx = ParseCx {
            cfg: cx.cfg,
            cut: cx.cut && last_cut,
            // a part of the block: what its scanner read is about the whole
            plain: None,
            ..*cx
        };
        let r = super::shared::json::json_block(&block[..e], s, e, ids::MINIMAX, &vcx);
        out.errors.extend(r.errors);
        let n = r.calls.len();
        for (k, mut c) in r.calls.into_iter().enumerate() {
            if k + 1 == n {
                c.end = e;
            }
            out.calls.push(c);
        }
        i = e;
    }
    if out.calls.is_empty() && out.errors.is_empty() {
        if cx.cut {
            return BlockResult::truncated(ids::MINIMAX, block.len());
        }
        return BlockResult::error("TLP-001", "empty minimax <tool_calls> block", tag);
    }
    out
}

/// Finds where a block of JSON objects ends: at `</tool_calls>`, or after
/// the last complete object when something else follows.
struct JsonLines {
    /// Where the tag ends.
    tag: usize,
    /// Where the last complete object ends (the tag's end before any).
    last_end: usize,
    phase: LinesPhase,
}

/// Where a [`JsonLines`] scan is.
enum LinesPhase {
    /// Between objects: blanks, then `{`, the closing tag or the end.
    Between,
    /// Inside the object that begins at `start`.
    Object { start: usize, json: JsonEnd },
}

impl JsonLines {
    fn new(tag: usize) -> Self {
        JsonLines {
            tag,
            last_end: tag,
            phase: LinesPhase::Between,
        }
    }

    /// The block ends after the last complete object.
    fn after_last(&self) -> BlockEnd {
        BlockEnd::done(self.last_end)
    }
}

impl Scanner for JsonLines {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            if let LinesPhase::Between = self.phase {
                let s = scan::skip_space(block, self.last_end);
                if s == block.len() {
                    if !eof {
                        return BlockEnd::More;
                    }
                    return if self.last_end > self.tag {
                        self.after_last()
                    } else {
                        BlockEnd::cut_off(block)
                    };
                }
                match block[s] {
                    b'{' => {
                        self.phase = LinesPhase::Object {
                            start: s,
                            json: JsonEnd::new(),
                        }
                    }
                    b'<' => {
                        return match scan::prefix_ci(&block[s..], CLOSE) {
                            Prefix::Full => BlockEnd::done(s + CLOSE.len()),
                            Prefix::Partial if !eof => BlockEnd::More,
                            _ => self.after_last(),
                        }
                    }
                    _ => return self.after_last(),
                }
            }
            let LinesPhase::Object {
                start,
                ref mut json,
            } = self.phase
            else {
                continue;
            };
            match json.scan(&block[start..]) {
                End::At(k) => {
                    self.last_end = start + k;
                    self.phase = LinesPhase::Between;
                }
                End::More if !eof => return BlockEnd::More,
                End::More | End::NotValue => {
                    let tail = crate::scan::lossy(&block[start..]);
                    let closable = close_truncated(tail.trim_end()).is_some();
                    return if closable || self.last_end == self.tag {
                        BlockEnd::cut_off(block)
                    } else {
                        // the complete calls stand; the cut one is text
                        self.after_last()
                    };
                }
            }
        }
    }

    fn consumed(&self) -> usize {
        self.tag
    }
}

/// `<tool_calls>` around JSON objects, one per line (`jamba` takes a JSON
/// array after the same tag).
fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    match tag_then_body(input, 11, cx) {
        Ok((tag, Some(s))) if s - tag <= 256 && input[s] == b'{' => {
            block(&MINIMAX, JsonLines::new(tag))
        }
        Ok(_) => Probe::NotMarker,
        Err(p) => p,
    }
}

/// `<tool_calls>` before a JSON object.
pub const OPENER: Opener = Opener::new(b"<tool_calls", probe).ci().also(&[ids::JAMBA]);
