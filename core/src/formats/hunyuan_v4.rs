//! `hunyuan-v4`: Tencent Hunyuan v4 (Hy4) and Hy3 tagged calls.
//!
//! ```text
//! <tool_calls:6124c78e><tool_call:6124c78e>exec_command<arg_key:6124c78e>cmd</arg_key:6124c78e>
//! <arg_value:6124c78e>ls -la</arg_value:6124c78e></tool_call:6124c78e></tool_calls:6124c78e>
//! ```
//!
//! Every tag may carry a `:SUFFIX` (a per-checkpoint nonce such as
//! `:6124c78e`, or `:opensource` in Hy3); the suffix is what tells these
//! tags from the plain `<tool_calls>` of `jamba`/`minimax` and the plain
//! `<tool_call>` of `hermes`/`glm4-moe`. A suffix-less `<tool_calls>` whose
//! body starts with `<tool_call` (Hy3-preview spellings) is routed here by
//! the `jamba` opener. Per call: the function name as text, then GLM-style
//! key/value tag pairs; values are typed text, JSON objects and arrays are
//! decoded. Tolerated: any suffix on any tag (or none), a `<tool_sep…>`
//! token after the name, calls without the wrapper, a missing wrapper close
//! at end of input, prose after the last call without a closing tag (it
//! stays text), and a last call cut off by the end of input (a `TLP-002`
//! error after the complete calls).

use super::shared::tag::{block, tag_then_body};
use super::{ids, FormatId, Values};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::{strip_one_newline, ParsedCall};
use crate::render::{CallSpec, Prompt};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::HUNYUAN_V4,
    "Tencent Hunyuan v4 (Hy4-preview), Hy3",
    &[
        "<tool_calls:SUFFIX>",
        "<tool_call:SUFFIX>",
        "<arg_key:SUFFIX>",
        "<arg_value:SUFFIX>",
        "</tool_call:SUFFIX>",
        "</tool_calls:SUFFIX>",
    ],
    "function name as text, then key/value tag pairs",
)
.openers(&[
    OPENER_WRAPPER,
    OPENER_CALL,
    OPENER_STRAY_CLOSE,
    OPENER_PLAIN_CALL,
])
.values(Values::Text)
.render(Prompt::new("Tencent Hunyuan v4", write_calls));

/// `hunyuan-v4`: GLM-like pairs inside `<tool_calls>` (bare tags, no suffix).
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::{guard_newlines, value_text};

    let body = with_pairs(
        calls,
        "",
        |_, c| format!("<tool_call>{}", c.name),
        |k, v| {
            format!(
                "<arg_key>{k}</arg_key><arg_value>{}</arg_value>",
                guard_newlines(&value_text(v))
            )
        },
        "</tool_call>",
    );
    format!("<tool_calls>{body}</tool_calls>")
}

/// The Hunyuan block format; the block starts at `<tool_calls…>` or at a
/// lone `<tool_call…>`.
pub struct Hunyuan;

/// The shared instance.
pub static HUNYUAN: Hunyuan = Hunyuan;

/// Probes a `<tool_calls:SUFFIX>` or `<tool_call:SUFFIX>` tag whose name is
/// `lit_len` bytes (the `:` is at `lit_len`).
fn probe_suffixed(input: &[u8], lit_len: usize, cx: &ProbeCx) -> Probe {
    if !cx.cfg.allows(ids::HUNYUAN_V4) {
        return Probe::NotMarker;
    }
    match super::shared::tag::suffixed_len(input, lit_len, cx.eof) {
        Ok(tag) => block(&HUNYUAN, HunyuanEnd::new(tag)),
        Err(p) => p,
    }
}

/// The literal of [`OPENER_WRAPPER`].
const WRAPPER: &[u8] = b"<tool_calls";

/// The literal of [`OPENER_PLAIN_CALL`].
const PLAIN_CALL: &[u8] = b"<tool_call>";

/// `<tool_calls:SUFFIX>`, or `<tool_calls>` around `<tool_call` children.
fn probe_wrapper(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = WRAPPER.len();
    if input.get(LIT) == Some(&b':') {
        return probe_suffixed(input, LIT, cx);
    }
    let (tag, s) = match tag_then_body(input, LIT, cx) {
        Ok((tag, Some(s))) if s - tag <= 256 && input[s] == b'<' => (tag, s),
        Ok(_) => return Probe::NotMarker,
        Err(p) => return p,
    };
    match scan::prefix_ci(&input[s..], b"<tool_call") {
        Prefix::Full => block(&HUNYUAN, HunyuanEnd::new(tag)),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<tool_calls>` or `<tool_calls:SUFFIX>` around the calls.
pub const OPENER_WRAPPER: Opener = Opener::new(WRAPPER, probe_wrapper).ci();

/// A plain `<tool_call>` whose name is followed by `<tool_sep>` (HY-V3
/// without the `<tool_calls>` wrapper): the separator is this format's own.
fn probe_plain_call(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = PLAIN_CALL.len();
    if !cx.cfg.allows(ids::HUNYUAN_V4) {
        return Probe::NotMarker;
    }
    let mut e = LIT;
    while e < input.len() && e - LIT <= 128 && scan::is_name_byte(input[e]) && input[e] != b'<' {
        e += 1;
    }
    if e == input.len() {
        return if cx.eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        };
    }
    if e == LIT {
        return Probe::NotMarker;
    }
    match scan::prefix(&input[e..], b"<tool_sep") {
        Prefix::Full => block(&HUNYUAN, HunyuanEnd::new(LIT)),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<tool_call>NAME<tool_sep>` without the wrapper.
pub const OPENER_PLAIN_CALL: Opener = Opener::new(PLAIN_CALL, probe_plain_call);

/// `<tool_call:SUFFIX>` without the wrapper.
pub const OPENER_CALL: Opener = Opener::new(b"<tool_call:", |i, cx| probe_suffixed(i, 10, cx)).ci();

fn probe_stray(input: &[u8], cx: &ProbeCx) -> Probe {
    // `</tool_calls:S>` or `</tool_call:S>`
    let lit = if scan::prefix_ci(input, b"</tool_calls:") == scan::Prefix::Full {
        12
    } else {
        11
    };
    match super::shared::tag::suffixed_len(input, lit, cx.eof) {
        Ok(len) => Probe::Match(Action::Markup { len }),
        Err(p) => p,
    }
}

/// A stray closing tag with a suffix is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::new(b"</tool_call", |i, cx| match i.get(11) {
    None if !cx.eof => Probe::NeedMore,
    Some(b':') => probe_stray(i, cx),
    Some(b's') | Some(b'S') => match i.get(12) {
        None if !cx.eof => Probe::NeedMore,
        Some(b':') => probe_stray(i, cx),
        _ => Probe::NotMarker,
    },
    _ => Probe::NotMarker,
})
.ci();

/// Finds where a Hunyuan block ends: at the closing tag of what opened it
/// (`</tool_calls…>` for the wrapper, else `</tool_call…>`), or, at the end
/// of input without one, after the last complete call.
struct HunyuanEnd {
    /// Where the opening tag ends.
    tag: usize,
    phase: HyPhase,
}

/// Where a [`HunyuanEnd`] scan is.
enum HyPhase {
    /// The closing tag is not known yet (the first scan reads it).
    Start,
    /// Looking for `close` (with any suffix) from `from`.
    Search { close: &'static [u8], from: usize },
}

impl HunyuanEnd {
    fn new(tag: usize) -> Self {
        HunyuanEnd {
            tag,
            phase: HyPhase::Start,
        }
    }
}

impl Scanner for HunyuanEnd {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let (close, from) = match self.phase {
            HyPhase::Search { close, from } => (close, from),
            HyPhase::Start => {
                let wrapper = scan::prefix_ci(block, b"<tool_calls") == Prefix::Full;
                let close: &'static [u8] = if wrapper {
                    b"</tool_calls"
                } else {
                    b"</tool_call"
                };
                (close, self.tag)
            }
        };
        let mut at = from;
        while let Some(s) = scan::find_ci(block, at, close) {
            let after = s + close.len();
            match block.get(after) {
                None => break,
                Some(b'>') => return BlockEnd::done(after + 1),
                Some(b':') => {
                    match super::shared::tag::suffixed_len(&block[s..], close.len(), eof) {
                        Ok(len) => return BlockEnd::done(s + len),
                        Err(Probe::NeedMore) => break,
                        Err(_) => at = s + 1,
                    }
                }
                Some(_) => at = s + 1,
            }
        }
        if !eof {
            // resume a little before the end: a tag may be split
            let from = block
                .len()
                .saturating_sub(close.len() + super::shared::tag::MAX_SUFFIX + 1)
                .max(from);
            self.phase = HyPhase::Search { close, from };
            return BlockEnd::More;
        }
        // No closing tag: end after the last complete call so that prose
        // after it stays text; a call cut off by the end of input after it
        // is part of the block (a cut-off error after the complete calls).
        let found = calls(block);
        let last_ok = found.iter().rposition(|c| c.complete);
        match (found.last(), last_ok) {
            (Some(last), Some(k)) if k + 1 == found.len() => BlockEnd::Done {
                len: last.end,
                cut: last.end == block.len(),
            },
            (Some(last), Some(_)) if last.end == block.len() => BlockEnd::cut_off(block),
            (Some(_), Some(k)) => BlockEnd::done(found[k].end),
            _ => BlockEnd::cut_off(block),
        }
    }

    fn consumed(&self) -> usize {
        self.tag
    }
}

/// Finds the tag `<NAME>` or `<NAME:SUFFIX>` (ASCII case ignored) at or
/// after `from`; `name` includes the `<` or `</` and is lowercase. Returns
/// its start and end.
fn find_tag(b: &[u8], from: usize, name: &[u8]) -> Option<(usize, usize)> {
    let mut at = from;
    while let Some(s) = scan::find_ci(b, at, name) {
        let after = s + name.len();
        match b.get(after) {
            Some(b'>') => return Some((s, after + 1)),
            Some(b':') => {
                let limit = b.len().min(after + super::shared::tag::MAX_SUFFIX);
                if let Some(k) = b[after..limit].iter().position(|&c| c == b'>') {
                    if !b[after..after + k].contains(&b'<') {
                        return Some((s, after + k + 1));
                    }
                }
            }
            _ => {}
        }
        at = s + 1;
    }
    None
}

/// [`find_tag`] for increasing start positions, with the last answer cached
/// so repeated searches over one block stay linear.
struct Seek {
    name: &'static [u8],
    from: usize,
    hit: Option<Option<(usize, usize)>>,
}

impl Seek {
    fn new(name: &'static [u8]) -> Self {
        Seek {
            name,
            from: 0,
            hit: None,
        }
    }

    fn at(&mut self, b: &[u8], from: usize) -> Option<(usize, usize)> {
        if let Some(h) = self.hit {
            if from >= self.from && h.is_none_or(|(s, _)| from <= s) {
                return h;
            }
        }
        let h = find_tag(b, from, self.name);
        self.from = from;
        self.hit = Some(h);
        h
    }
}

/// One call found in a block.
struct HyCall {
    name: String,
    arguments: Map<String, Value>,
    /// End of the call's markup in the block.
    end: usize,
    /// Closed, or cut only after its last complete pair.
    complete: bool,
}

/// Reads every `<tool_call…>` in `b`.
fn calls(b: &[u8]) -> Vec<HyCall> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut opens = Seek::new(b"<tool_call");
    let mut closes = Seek::new(b"</tool_call");
    while let Some((_, e)) = opens.at(b, i) {
        let close = closes.at(b, e);
        let next = opens.at(b, e).map(|t| t.0);
        let (body_end, end, closed) = match (close, next) {
            (Some((cs, ce)), n) if n.is_none_or(|n| cs < n) => (cs, ce, true),
            (_, Some(n)) => (n, n, false),
            (_, None) => (b.len(), b.len(), false),
        };
        let body = &b[e..body_end];
        let name_end = memchr::memchr(b'<', body).unwrap_or(body.len());
        let name = crate::scan::lossy(scan::trim(&body[..name_end])).into_owned();
        let (arguments, pairs_complete, any) = pairs(&body[name_end..]);
        out.push(HyCall {
            name,
            arguments,
            end,
            complete: closed || (pairs_complete && any),
        });
        i = end.max(e);
    }
    out
}

/// Reads the key/value pairs of a call body: the arguments, whether the last
/// pair was closed, and whether there was any pair.
fn pairs(body: &[u8]) -> (Map<String, Value>, bool, bool) {
    let mut args = Map::new();
    let mut j = 0;
    let mut complete = true;
    let mut any = false;
    let mut keys = Seek::new(b"<arg_key");
    let mut key_ends = Seek::new(b"</arg_key");
    let mut values = Seek::new(b"<arg_value");
    let mut value_ends = Seek::new(b"</arg_value");
    while let Some((_, ke)) = keys.at(body, j) {
        any = true;
        let Some((kc, kce)) = key_ends.at(body, ke) else {
            complete = false;
            break;
        };
        let key = crate::scan::lossy(scan::trim(&body[ke..kc])).into_owned();
        let Some((_, ve)) = values.at(body, kce) else {
            complete = false;
            break;
        };
        let (value_end, next) = match value_ends.at(body, ve) {
            Some((vc, vce)) => (vc, vce),
            None => {
                complete = false;
                let n = keys.at(body, ve).map_or(body.len(), |t| t.0);
                (n, n)
            }
        };
        let text = crate::scan::lossy(&body[ve..value_end]);
        if !key.is_empty() {
            args.insert(
                key,
                super::shared::xml::decode_value(strip_one_newline(&text)),
            );
        }
        j = next.max(ve);
    }
    (args, complete, any)
}

impl BlockFormat for Hunyuan {
    fn id(&self) -> FormatId {
        ids::HUNYUAN_V4
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let found = calls(block);
        let n = found.len();
        let mut r = BlockResult::default();
        for (k, c) in found.into_iter().enumerate() {
            if cx.cut && k + 1 == n && !c.complete {
                if r.calls.is_empty() {
                    return BlockResult::truncated(ids::HUNYUAN_V4, block.len());
                }
                r.errors
                    .extend(BlockResult::truncated(ids::HUNYUAN_V4, c.end).errors);
                continue;
            }
            if c.name.is_empty() {
                r.errors.extend(
                    BlockResult::error("TLP-001", "hunyuan-v4 call has no function name", c.end)
                        .errors,
                );
                continue;
            }
            r.calls.push(ParsedCall {
                end: c.end,
                ..ParsedCall::new(
                    crate::call::clean_name(&c.name),
                    c.arguments,
                    ids::HUNYUAN_V4,
                )
            });
        }
        if r.calls.is_empty() && r.errors.is_empty() {
            if cx.cut {
                return BlockResult::truncated(ids::HUNYUAN_V4, block.len());
            }
            return BlockResult::error("TLP-001", "hunyuan-v4 block has no <tool_call>", 0);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn suffixed_tags_and_pairs() {
        let b = b"<tool_calls:ab12><tool_call:ab12>run<arg_key:ab12>cmd</arg_key:ab12><arg_value:ab12>ls -la</arg_value:ab12><arg_key:ab12>n</arg_key:ab12><arg_value:ab12>3</arg_value:ab12></tool_call:ab12></tool_calls:ab12>";
        let c = calls(b);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].name, "run");
        assert_eq!(
            Value::Object(c[0].arguments.clone()),
            json!({"cmd": "ls -la", "n": 3})
        );
        assert!(c[0].complete);
    }

    #[test]
    fn tag_finder_skips_longer_names() {
        assert_eq!(
            find_tag(b"<tool_calls:x><tool_call:x>", 0, b"<tool_call"),
            Some((14, 27))
        );
        assert_eq!(find_tag(b"<tool_calls>", 0, b"<tool_call"), None);
    }
}
