//! Calls written as a name, then key/value tag pairs: GLM's
//! `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`
//! and the families that copy it with their own tags (LongCat, Solar Open,
//! IQuest, K2-V3). Each gives its tags ([`PairTags`]); the reader, the
//! scanner and the probes are here.

use super::tag::block;
use crate::call::ParsedCall;
use crate::formats::{Action, BlockEnd, BlockFormat, BlockResult, FormatId, ParseCx};
use crate::formats::{Probe, ProbeCx, Scanner};
use crate::repair::{Repair, RepairKind};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// The tags of a call written as a name, then key/value tag pairs: GLM's,
/// and LongCat-Flash-Lite's (`<longcat_arg_key>`…).
pub struct PairTags {
    /// The format its calls are reported as.
    pub format: FormatId,
    /// The call's closing tag.
    pub close: &'static [u8],
    /// A key's opening tag.
    pub key_open: &'static [u8],
    /// A key's closing tag.
    pub key_close: &'static [u8],
    /// A value's opening tag.
    pub value_open: &'static [u8],
    /// A value's closing tag.
    pub value_close: &'static [u8],
    /// The opening and closing tags of an element between a key and its
    /// value that declares the value's type (`<ifm|arg_type>string
    /// </ifm|arg_type>`); empty when the format has none.
    pub type_tags: (&'static [u8], &'static [u8]),
    /// Whether a JSON object on the line after the name may stand for the
    /// pairs (`<tool_call>NAME\n{"k": "v"}</tool_call>`, Poolside Laguna).
    pub json_body: bool,
}

impl PairTags {
    /// The tags of calls of `format` that `close` ends, with GLM's key and
    /// value tags (`<arg_key>`…`</arg_key>`, `<arg_value>`…`</arg_value>`)
    /// and no type element; the methods below change what differs.
    pub const fn new(format: FormatId, close: &'static [u8]) -> PairTags {
        PairTags {
            format,
            close,
            key_open: b"<arg_key>",
            key_close: b"</arg_key>",
            value_open: b"<arg_value>",
            value_close: b"</arg_value>",
            type_tags: (b"", b""),
            json_body: false,
        }
    }

    /// Its own key and value tags, each an (opening, closing) pair.
    pub const fn tags(
        mut self,
        key: (&'static [u8], &'static [u8]),
        value: (&'static [u8], &'static [u8]),
    ) -> PairTags {
        self.key_open = key.0;
        self.key_close = key.1;
        self.value_open = value.0;
        self.value_close = value.1;
        self
    }

    /// The tags of the element between a key and its value that declares
    /// the value's type.
    pub const fn typed(mut self, open: &'static [u8], close: &'static [u8]) -> PairTags {
        self.type_tags = (open, close);
        self
    }

    /// Reads a JSON object on the line after the name, in place of the
    /// pairs, as the call's arguments ([`PairTags::json_body`]).
    pub const fn json_after_name_line(mut self) -> PairTags {
        self.json_body = true;
        self
    }
}

/// The block format of calls written with [`PairTags`].
pub struct Pairs {
    tags: &'static PairTags,
}

impl Pairs {
    /// The block format for `tags`.
    pub const fn new(tags: &'static PairTags) -> Pairs {
        Pairs { tags }
    }
}

/// Decides whether the name at `s` (after the tag of length `tag`) starts a
/// GLM body: the name must be followed by `<arg_key>` or `</tool_call>`,
/// or by a line break and then one of them (the GLM-4.5 layout); the end of
/// input may cut the body after the line break (when the name follows the
/// tag with no blank, as the template writes it). A name at the very end of
/// the input, or a line of prose after it, is not a call (`Use <tool_call>
/// tags.` in prose).
pub(crate) fn sniff(
    input: &[u8],
    tag: usize,
    s: usize,
    cx: &ProbeCx,
    fmt: &'static Pairs,
) -> Probe {
    let mut e = s;
    while e < input.len() && scan::is_name_byte(input[e]) && e - s < 256 {
        e += 1;
    }
    // a name has a letter or digit (`<tool_call>...</tool_call>` is prose)
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b >= 0x80;
    if e < input.len() && !input[s..e].iter().any(word) {
        return Probe::NotMarker;
    }
    let after = scan::skip_blank(input, e);
    if after == input.len() {
        return if cx.eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        };
    }
    let next = match input[after] {
        b'\n' | b'\r' => {
            let t = scan::skip_space(input, after);
            if t == input.len() {
                // a cut body, when the name sticks to the tag as the
                // template writes it (`<tool_call> tags.` is prose)
                return if !cx.eof {
                    Probe::NeedMore
                } else if s == tag {
                    pair_block(fmt, tag)
                } else {
                    Probe::NotMarker
                };
            }
            t
        }
        _ => after,
    };
    if input[next] == b'{' && fmt.tags.json_body && s == tag && next != after {
        // `<tool_call>get_weather\n{"location": "Paris"}</tool_call>`: the
        // name alone on the tag's line, a JSON object on the next (Poolside
        // Laguna); a word and more words on the line stay prose
        return pair_block(fmt, tag);
    }
    if input[next] != b'<' {
        // `<tool_call>browser_action task</arg_key>`: the first key's tag
        // lost between the name and the key (vllm-project/vllm#47190), the
        // name sticking to the tag as the template writes it
        if s != tag {
            return Probe::NotMarker;
        }
        return match lost_key_open(input, e, fmt.tags) {
            Prefix::Full => pair_block(fmt, tag),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        };
    }
    if s == tag && next == e {
        // `<tool_call>tool_12</arg_value>`: a call without arguments whose
        // close came out as the value's closing tag, glued to the name
        // (GLM 5.2, fw-ai-external/python-sdk#119)
        match stray_value_close(input, next, fmt.tags) {
            Prefix::Full => return pair_block(fmt, tag),
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            Prefix::Partial if ends_after_stray_close(input, next, fmt.tags) => {
                return pair_block(fmt, tag);
            }
            _ => {}
        }
    }
    // `Use <tool_call> and </tool_call> …`: a spaced-out word closed on
    // its own line, in the middle of a line, is prose, not a call without
    // arguments (the template writes the name right after the tag)
    let spaced = s > tag && input[tag..s].iter().all(|&b| b == b' ' || b == b'\t');
    let prose_like = spaced && next == after && !cx.line_start;
    for lit in [fmt.tags.key_open, fmt.tags.close] {
        match scan::prefix_ci(&input[next..], lit) {
            Prefix::Full if prose_like && lit == fmt.tags.close => return Probe::NotMarker,
            Prefix::Full => return pair_block(fmt, tag),
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
    }
    match misplaced_key(input, next, &input[..tag], fmt.tags) {
        Prefix::Full => pair_block(fmt, tag),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// Whether a value's closing tag stands at `at`, right after a call's name,
/// and then (after blanks) the call's closing tag: [`Prefix::Full`].
/// [`Prefix::Partial`] while the input ends before that is decided (at the
/// end of the output, see [`ends_after_stray_close`]).
fn stray_value_close(input: &[u8], at: usize, tags: &PairTags) -> Prefix {
    match scan::prefix_ci(&input[at..], tags.value_close) {
        Prefix::Full => {}
        other => return other,
    }
    let r = scan::skip_space(input, at + tags.value_close.len());
    if r == input.len() {
        return Prefix::Partial;
    }
    scan::prefix_ci(&input[r..], tags.close)
}

/// Whether the value's closing tag at `at` and blanks end the input (the
/// output stopped after a stray close, with no call close).
fn ends_after_stray_close(input: &[u8], at: usize, tags: &PairTags) -> bool {
    scan::prefix_ci(&input[at..], tags.value_close) == Prefix::Full
        && scan::skip_space(input, at + tags.value_close.len()) == input.len()
}

/// The length of the name at the start of `head` (the body before its
/// first key) when a value's closing tag follows it, glued, and nothing but
/// blanks after that: a call without arguments whose close came out as
/// the value's ([`stray_value_close`]).
fn name_before_stray_close(head: &[u8], t: &PairTags) -> Option<usize> {
    let mut e = 0;
    while e < head.len() && scan::is_name_byte(head[e]) {
        e += 1;
    }
    let rest = head.get(e..)?;
    let after = scan::prefix_ci(rest, t.value_close) == Prefix::Full;
    let blank = |b: &[u8]| scan::skip_space(b, 0) == b.len();
    (e > 0 && after && blank(&rest[t.value_close.len()..])).then_some(e)
}

/// Whether the name that ends at `e` is followed by blanks (a line break
/// at most), a key and the key's closing tag: the first key's opening tag
/// was lost between the name and the key. [`Prefix::Partial`] while the
/// input ends before that is decided.
fn lost_key_open(input: &[u8], e: usize, tags: &PairTags) -> Prefix {
    let s = scan::skip_space(input, e);
    if s == e || input[e..s].iter().filter(|&&b| b == b'\n').count() > 1 {
        return Prefix::No;
    }
    let mut k = s;
    while k < input.len() && scan::is_name_byte(input[k]) && k - s < 256 {
        k += 1;
    }
    if k == input.len() {
        return Prefix::Partial;
    }
    if k == s {
        return Prefix::No;
    }
    scan::prefix(&input[k..], tags.key_close)
}

/// Whether the call's opening tag `opener` stands at `at` in place of the
/// first key's opening tag: the opener again, a key, then the key's
/// closing tag (`<tool_call>run_command<tool_call>command</arg_key>…`,
/// GLM-4.7 sampling its call token where `<arg_key>` belongs, getsigit/sigit#94).
/// [`Prefix::Partial`] while the input ends before that is decided.
fn misplaced_key(input: &[u8], at: usize, opener: &[u8], tags: &PairTags) -> Prefix {
    if opener.is_empty() {
        return Prefix::No;
    }
    match scan::prefix_ci(&input[at..], opener) {
        Prefix::Full => {}
        other => return other,
    }
    let s = at + opener.len();
    let mut e = s;
    while e < input.len() && scan::is_name_byte(input[e]) && e - s < 256 {
        e += 1;
    }
    if e == input.len() {
        return Prefix::Partial;
    }
    if e == s {
        return Prefix::No;
    }
    scan::prefix(&input[e..], tags.key_close)
}

fn pair_block(fmt: &'static Pairs, tag: usize) -> Probe {
    block(fmt, CallEnd::new(tag, fmt.tags))
}

/// A forward search for one tag that remembers its last answer: a search
/// from `from` costs nothing when the tag found last lies at or after
/// `from` (or none was found in the same bytes), so searches from growing
/// offsets read the bytes once between them, not the rest of the block
/// each time (a tag far away or absent made many short pairs quadratic).
/// The bytes may only grow between searches (a block as it arrives).
#[derive(Clone, Copy)]
struct Next {
    needle: &'static [u8],
    /// ASCII case-insensitive.
    ci: bool,
    /// The last search: from where, over how many bytes, what it found.
    last: Option<(usize, usize, Option<usize>)>,
}

impl Next {
    const fn new(needle: &'static [u8], ci: bool) -> Self {
        Next {
            needle,
            ci,
            last: None,
        }
    }

    fn find(&mut self, b: &[u8], from: usize) -> Option<usize> {
        if let Some((f, len, at)) = self.last {
            match at {
                Some(a) if f <= from && a >= from => return Some(a),
                None if f <= from && len == b.len() => return None,
                _ => {}
            }
        }
        let at = if self.ci {
            scan::find_ci(b, from, self.needle)
        } else {
            scan::find(b, from, self.needle)
        };
        self.last = Some((from, b.len(), at));
        at
    }
}

/// The remembered searches of one call's tags.
#[derive(Clone, Copy)]
struct Finds {
    close: Next,
    key_open: Next,
    value_open: Next,
    value_close: Next,
}

impl Finds {
    const fn new(t: &PairTags) -> Self {
        Finds {
            close: Next::new(t.close, true),
            key_open: Next::new(t.key_open, false),
            value_open: Next::new(t.value_open, false),
            value_close: Next::new(t.value_close, false),
        }
    }
}

/// Finds where a GLM call ends: at the first `</tool_call>` outside values.
struct CallEnd {
    /// Where the opening tag ends.
    tag: usize,
    tags: &'static PairTags,
    phase: CallPhase,
    finds: Finds,
}

/// Where a [`CallEnd`] scan is.
enum CallPhase {
    /// Outside values: looking for `<arg_value>` or `</tool_call>` from `from`.
    Outside { from: usize },
    /// Inside the value that starts at `start`: looking for its end from `from`.
    Value { start: usize, from: usize },
}

impl CallEnd {
    fn new(tag: usize, tags: &'static PairTags) -> Self {
        CallEnd {
            tag,
            tags,
            phase: CallPhase::Outside { from: tag },
            finds: Finds::new(tags),
        }
    }
}

/// Where a search for any of several tags may resume when none was found
/// in `block`: far enough back that a tag split by a chunk is found.
fn resume_at(block: &[u8], from: usize, tags: &PairTags) -> usize {
    let longest = tags.value_close.len().max(tags.close.len());
    block.len().saturating_sub(longest).max(from)
}

impl Scanner for CallEnd {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            match self.phase {
                CallPhase::Outside { from } => {
                    let t = self.tags;
                    let close = self.finds.close.find(block, from);
                    let value = self.finds.value_open.find(block, from);
                    match (close, value) {
                        (Some(c), v) if v.is_none_or(|v| c < v) => {
                            return BlockEnd::done(c + t.close.len())
                        }
                        (_, Some(v)) => {
                            let start = v + t.value_open.len();
                            self.phase = CallPhase::Value { start, from: start };
                        }
                        _ if eof => return BlockEnd::cut_off(block),
                        _ => {
                            self.phase = CallPhase::Outside {
                                from: resume_at(block, from, self.tags),
                            };
                            return BlockEnd::More;
                        }
                    }
                }
                CallPhase::Value { start, from } => {
                    match value_end(block, from, self.tags, &mut self.finds) {
                        ValueEnd::Closed { resume } => {
                            self.phase = CallPhase::Outside { from: resume }
                        }
                        ValueEnd::Reopened { start: next } => {
                            // never closed, and the call's own close comes
                            // before the next value opens: the call ends
                            // there (`…oops<|tool_call:end|><|tool_call:start|>…`,
                            // a value close dropped), and what follows is
                            // the next call, not this value's text
                            let reopen = next - self.tags.value_open.len();
                            if let Some(c) = scan::find_ci(&block[..reopen], start, self.tags.close)
                            {
                                return BlockEnd::done(c + self.tags.close.len());
                            }
                            self.phase = CallPhase::Value {
                                start: next,
                                from: next,
                            }
                        }
                        ValueEnd::Open if eof => {
                            // never closed: the call ends at its closing tag
                            return match scan::find_ci(block, start, self.tags.close) {
                                Some(c) => BlockEnd::done(c + self.tags.close.len()),
                                None => BlockEnd::cut_off(block),
                            };
                        }
                        ValueEnd::Open => {
                            self.phase = CallPhase::Value {
                                start,
                                from: resume_at(block, from, self.tags),
                            };
                            return BlockEnd::More;
                        }
                    }
                }
            }
        }
    }

    fn consumed(&self) -> usize {
        self.tag
    }
}

/// How a value ends.
enum ValueEnd {
    /// `</arg_value>` closes it; the call goes on at `resume`.
    Closed { resume: usize },
    /// Another `<arg_value>` opens (starting at `start`) before any
    /// `</arg_value>`: this value was never closed.
    Reopened { start: usize },
    /// Neither yet.
    Open,
}

/// Where a value whose unread part starts at `from` ends: at the first
/// `</arg_value>`, unless another `<arg_value>` comes first.
fn value_end(b: &[u8], from: usize, tags: &PairTags, finds: &mut Finds) -> ValueEnd {
    let close = finds.value_close.find(b, from);
    let reopen = finds.value_open.find(b, from);
    match (close, reopen) {
        (Some(c), r) if r.is_none_or(|r| c < r) => ValueEnd::Closed {
            resume: c + tags.value_close.len(),
        },
        (_, Some(r)) => ValueEnd::Reopened {
            start: r + tags.value_open.len(),
        },
        _ => ValueEnd::Open,
    }
}

impl BlockFormat for Pairs {
    fn id(&self) -> FormatId {
        self.tags.format
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let tag = memchr::memchr(b'>', head)? + 1;
        let s = scan::skip_space(head, tag);
        let mut e = s;
        while e < head.len() && scan::is_name_byte(head[e]) {
            e += 1;
        }
        // the name is certain once something other than a name byte follows
        if e == head.len() || e == s {
            return None;
        }
        Some(crate::scan::lossy(&head[s..e]).into_owned())
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let tag = memchr::memchr(b'>', block).map_or(block.len(), |k| k + 1);
        let t = self.tags;
        let body_end = if cx.cut {
            block.len()
        } else {
            block.len().saturating_sub(t.close.len())
        };
        let body = &block[tag..body_end.max(tag)];
        let key_at = scan::find(body, 0, t.key_open).unwrap_or(body.len());
        // the opening tag written again where the first key's belongs
        let opener = &block[..tag];
        let (name_end, first_open) = match first_key(&body[..key_at], opener, t) {
            Some((at, len)) => (at, Some(len)),
            None => (key_at, None),
        };
        if let Some(e) = name_before_stray_close(&body[..key_at], t) {
            let name = crate::scan::lossy(&body[..e]).into_owned();
            return BlockResult::one(ParsedCall {
                repairs: vec![Repair {
                    kind: RepairKind::StrayText,
                    offset: tag + e,
                }],
                end: block.len(),
                ..ParsedCall::new(name, Map::new(), t.format)
            });
        }
        let name = crate::scan::lossy(scan::trim(&body[..name_end])).into_owned();
        if name.is_empty() {
            let msg = format!("{} call has no function name", t.format);
            return BlockResult::error("TLP-001", msg, tag);
        }
        if t.json_body && first_open.is_none() && key_at == body.len() {
            if let Some(r) = json_after_name(block, body, tag, cx, t) {
                return r;
            }
        }
        let (arguments, repairs, complete) =
            pairs(&body[name_end..], tag + name_end, t, first_open);
        if cx.cut && !complete {
            return BlockResult::truncated(t.format, block.len());
        }
        BlockResult::one(ParsedCall {
            repairs,
            end: block.len(),
            ..ParsedCall::new(name, arguments, t.format)
        })
    }
}

/// The call when `body` is a name alone on its line, then a JSON object
/// ([`PairTags::json_body`]): its arguments, or the error that they do not
/// read. `None` when the body has another layout.
fn json_after_name(
    block: &[u8],
    body: &[u8],
    tag: usize,
    cx: &ParseCx,
    t: &PairTags,
) -> Option<BlockResult> {
    let s = scan::skip_space(body, 0);
    let mut e = s;
    while e < body.len() && scan::is_name_byte(body[e]) {
        e += 1;
    }
    let line_end = scan::skip_blank(body, e);
    if s != 0 || e == s || !matches!(body.get(line_end), Some(b'\n' | b'\r')) {
        return None;
    }
    let j = scan::skip_space(body, line_end);
    if body.get(j) != Some(&b'{') {
        return None;
    }
    let name = crate::scan::lossy(&body[s..e]).into_owned();
    let opts = cx.cfg.repair_options();
    Some(
        match super::section::json_arguments(&body[j..], tag + j, cx.cut, t.format, &opts) {
            Ok((arguments, repairs)) => BlockResult::one(ParsedCall {
                repairs,
                end: block.len(),
                ..ParsedCall::new(name, arguments, t.format)
            }),
            Err(e) => BlockResult::failed(e),
        },
    )
}

/// Where the first key starts in `head` (the body before its first
/// `<arg_key>`) when its own opening tag is missing, and the length of what
/// opens it there: the call's `opener` written again in its place
/// ([`misplaced_key`]), or nothing, after the name and a blank
/// ([`lost_key_open`]).
fn first_key(head: &[u8], opener: &[u8], t: &PairTags) -> Option<(usize, usize)> {
    let s = scan::skip_space(head, 0);
    let mut e = s;
    while e < head.len() && scan::is_name_byte(head[e]) {
        e += 1;
    }
    if e == s {
        return None;
    }
    let next = scan::skip_space(head, e);
    if next < head.len() && misplaced_key(head, next, opener, t) == Prefix::Full {
        return Some((next, opener.len()));
    }
    if lost_key_open(head, e, t) == Prefix::Full {
        return Some((next, 0));
    }
    None
}

/// Reads `<arg_key>K</arg_key><arg_value>V</arg_value>` pairs; reports
/// whether the last pair was closed. A value ends at the last
/// `</arg_value>` before the next tag ([`last_value_close`]; markers
/// before its first close are text); one never closed ends at
/// the `<arg_key>` of the next pair, or at the end of the body.
/// `first_open`: the length of another tag that opens the first key at the
/// start of `body` in place of `<arg_key>` (a `missing_open` repair).
fn pairs(
    body: &[u8],
    off: usize,
    t: &PairTags,
    mut first_open: Option<usize>,
) -> (Map<String, Value>, Vec<Repair>, bool) {
    let mut args = Map::new();
    let mut repairs = Vec::new();
    let mut i = 0;
    let mut complete = true;
    let mut finds = Finds::new(t);
    loop {
        let (k, kf) = match first_open.take() {
            Some(len) => {
                repairs.push(Repair {
                    kind: RepairKind::MissingOpen,
                    offset: off,
                });
                (0, len)
            }
            None => match finds.key_open.find(body, i) {
                Some(k) => (k, k + t.key_open.len()),
                None => break,
            },
        };
        let Some(ke) = scan::find(body, kf, t.key_close) else {
            complete = false;
            break;
        };
        let mut key_bytes = scan::trim(&body[kf..ke]);
        // `<arg_key><arg_key>path</arg_key>`: the key's tag written twice
        // (vllm-project/vllm#54971) is markup, not part of the key
        while let Some(rest) = key_bytes.strip_prefix(t.key_open) {
            if repairs.last().is_none_or(|r| r.offset != off + k) {
                repairs.push(Repair {
                    kind: RepairKind::StrayText,
                    offset: off + k,
                });
            }
            key_bytes = scan::trim(rest);
        }
        let key = crate::scan::lossy(key_bytes).into_owned();
        let vs = finds.value_open.find(body, ke);
        let vc = finds.value_close.find(body, ke);
        // the next key after this one's close (remembered: it is where
        // the next round starts searching)
        let next_key = finds.key_open.find(body, ke);
        if let Some(vc) = vc.filter(|&c| vs.is_none_or(|v| c < v)) {
            // `</arg_value>` before any `<arg_value>`: the opener was lost
            // (vLLM#49248's sampled tokens); the value is what lies between
            // `</arg_key>` and it, unless another key comes first
            if next_key.is_none_or(|n| n >= vc) {
                let kc = ke + t.key_close.len();
                repairs.push(Repair {
                    kind: RepairKind::MissingOpen,
                    offset: off + kc,
                });
                let text = crate::scan::lossy(&body[kc..vc]);
                if !key.is_empty() {
                    args.insert(key, super::xml::decode_value(&text));
                }
                i = vc + t.value_close.len();
                continue;
            }
        }
        let Some(vs) = vs else {
            complete = false;
            break;
        };
        if let Some(next_key) = next_key.filter(|&n| n < vs) {
            // a key with no value before the next key: the value that
            // follows belongs to the later key
            repairs.push(Repair {
                kind: RepairKind::DroppedPartialKey,
                offset: off + k,
            });
            i = next_key;
            continue;
        }
        let vf = vs + t.value_open.len();
        let (ve, next) = match value_end(body, vf, t, &mut finds) {
            ValueEnd::Closed { resume } => {
                let c = last_value_close(body, resume - t.value_close.len(), t, &mut finds);
                (c, c + t.value_close.len())
            }
            ValueEnd::Reopened { start } => {
                complete = false;
                let reopen = start - t.value_open.len();
                let e =
                    memchr::memmem::rfind(&body[vf..reopen], t.key_open).map_or(reopen, |k| vf + k);
                (e, e)
            }
            ValueEnd::Open => {
                complete = false;
                let e = finds.key_open.find(body, vf).unwrap_or(body.len());
                (e, e)
            }
        };
        let text = crate::scan::lossy(&body[vf..ve]);
        let value = match declared_type(&body[ke..vs], t) {
            // a declared string is the text as written
            Some(b"string") => Value::String(text.into_owned()),
            _ => super::xml::decode_value(&text),
        };
        if !key.is_empty() {
            // a repeated key keeps its first place and takes the last value,
            // as a JSON object read by serde_json (or a Python dict) does
            args.insert(key, value);
        }
        i = next;
    }
    (args, repairs, complete)
}

/// The last `</arg_value>` that starts at or after `first` (a value's
/// first close) and before the next `<arg_key>`, `<arg_value>` or call
/// close after it (or the end of `body`): a value that quotes its own
/// closing tag (`…reads up to </arg_value> and stops</arg_value>`, a file
/// about tool calls being written) runs to the last one, so none of its
/// text is dropped. A well-formed value has one close before the next tag,
/// and the search ends there.
///
/// The call's end agrees without a change to [`CallEnd`]: between the
/// first close and the last one lies no `<arg_value>` and no call close,
/// so the scan outside values passes those bytes as it would a value's.
fn last_value_close(body: &[u8], first: usize, t: &PairTags, finds: &mut Finds) -> usize {
    let after = first + t.value_close.len();
    let bound = [
        finds.key_open.find(body, after),
        finds.value_open.find(body, after),
        finds.close.find(body, after),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(body.len());
    let mut c = first;
    while let Some(n) = finds
        .value_close
        .find(body, c + t.value_close.len())
        .filter(|&n| n < bound)
    {
        c = n;
    }
    c
}

/// The type declared between a key and its value (`gap`), when the
/// format declares types.
fn declared_type<'a>(gap: &'a [u8], t: &PairTags) -> Option<&'a [u8]> {
    let (open, close) = t.type_tags;
    if open.is_empty() {
        return None;
    }
    let s = scan::find(gap, 0, open)? + open.len();
    let e = scan::find(gap, s, close)?;
    Some(scan::trim(&gap[s..e]))
}

/// After a call's opening token `open_len` bytes long (LongCat, Solar Open,
/// IQuest, K2-V3): a name after blanks is read as `fmt`'s pairs ([`sniff`]),
/// and one that is not a call leaves the token as markup. What is not a
/// name is `otherwise`'s, given where it starts.
pub(crate) fn name_after_token(
    i: &[u8],
    cx: &ProbeCx,
    open_len: usize,
    fmt: &'static Pairs,
    otherwise: impl FnOnce(usize) -> Probe,
) -> Probe {
    let s = scan::skip_space(i, open_len);
    match i.get(s) {
        Some(&b) if s - open_len <= 256 && scan::is_name_byte(b) => {
            match sniff(i, open_len, s, cx, fmt) {
                Probe::NotMarker => Probe::Match(Action::Markup { len: open_len }),
                other => other,
            }
        }
        _ => otherwise(s),
    }
}

/// What a call token `open_len` bytes long followed by no name is: markup,
/// or not known yet when the input ends at `s` (after blanks) and more may
/// come.
pub(crate) fn markup_unless_more(i: &[u8], cx: &ProbeCx, open_len: usize, s: usize) -> Probe {
    if s == i.len() && !cx.eof {
        Probe::NeedMore
    } else {
        Probe::Match(Action::Markup { len: open_len })
    }
}
