//! `deepseek-dsml`: DeepSeek V3.2 / V4 DSML markup.
//!
//! ```text
//! <｜DSML｜function_calls>
//! <｜DSML｜invoke name="set_alarm">
//! <｜DSML｜parameter name="label" string="true">gym</｜DSML｜parameter>
//! <｜DSML｜parameter name="minutes" string="false">45</｜DSML｜parameter>
//! </｜DSML｜invoke>
//! </｜DSML｜function_calls>
//! ```
//!
//! V3.2 wraps the calls in `function_calls`, V4 in `tool_calls`, V4.1 in
//! `calls` and writes one space after the token (`<｜DSML｜ invoke …>`); all
//! are read, blanks after `｜DSML｜` are allowed everywhere, and any closing
//! wrapper ends the block. As in DeepSeek's own parser, a parameter value
//! runs to the first `</｜DSML｜parameter>` after it: DSML tags written inside
//! a value are text. `string="true"` values are the text exactly as written
//! (no newline or blank is stripped), `string="false"` values are JSON
//! (falling back to text typing when they do not parse), values without the
//! attribute are typed like every XML-style format. Sloppy variants: the
//! wrapper missing (a bare `<｜DSML｜invoke` starts a block), the closing
//! wrapper missing, a parameter's close tag missing (when no close tag
//! follows at all, the value ends at the next tag), output cut off inside a
//! later invoke (the block ends before it and the cut invoke is read on its
//! own). Any other `<｜DSML｜…>` tag outside a block is markup.
//!
//! The token respelled by a client, proxy or tokenizer that did not keep the
//! fullwidth bars byte-exact is read too: ASCII `|` (`<|DSML|invoke`), blanks
//! around the word (`< | DSML | invoke`, `</ | DSML | invoke>`), doubled bars
//! (`<｜｜DSML｜｜`, `<||DSML||`, a Markdown table escape), the double vertical
//! line `‖`, the leading bar lost (`<DSML｜`), and a close tag written with
//! its slash after the token (`<| DSML | /parameter>`). As for DeepSeek V3's
//! respelled tokens, such a tag opens a block only when the next tag
//! continues a call in the same spelling (a wrapper then an invoke, an
//! invoke then a parameter or its close tag); any other respelled tag is
//! text, not markup. Inside a block every spelling is read.
//!
//! DeepSeek V3.2 and V4 models sometimes wrap the whole argument object in one
//! parameter named `arguments` or `input` (`<｜DSML｜parameter
//! name="arguments" string="false">{"location": …}`); an invoke whose only
//! parameter is one of those two and holds a JSON object (as JSON, or as a
//! string that is exactly a JSON object) has that object as its arguments,
//! as vLLM's parser also reads it. A tool whose one real parameter is an
//! object named `arguments` or `input` loses that level; we accept this, as
//! such tools are rare and the wrapper is common.
//!
//! Not followed: decoding a `string="true"` JSON value because the tool's
//! schema declares an object; without the schema that is not a rule of the
//! markup (`validate --tools` types values by the schema).

use super::shared::{end, section};
use super::Model;
use super::{ids, Blocks, FormatId, Values};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::{clean_name, strip_one_newline, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::DEEPSEEK_DSML,
    "DeepSeek V3.2, DeepSeek V4, GigaChat 3.5 (as ｜GCML｜)",
    &[
        "<｜DSML｜function_calls>",
        "<｜DSML｜tool_calls>",
        "<｜DSML｜invoke name=\"NAME\">",
        "<｜DSML｜parameter name=\"KEY\" string=\"true|false\">",
        "</｜DSML｜invoke>",
        "</｜DSML｜function_calls>",
    ],
    "invoke elements with string=\"true\" (raw) or string=\"false\" (JSON) parameters",
)
.models(&[
    Model::new("deepseek-v3.2", "<｜Assistant｜></think>"),
    Model::new("deepseek-v3.2-thinking", "<｜Assistant｜><think>"),
    Model::new("deepseek-v4", "<｜Assistant｜></think>"),
    Model::new("deepseek-v4-thinking", "<｜Assistant｜><think>"),
    Model::new("deepseek-v4.1", "<｜Assistant｜></think>"),
    Model::new("deepseek-v4.1-thinking", "<｜Assistant｜><think>"),
])
.openers(&[
    OPENER,
    OPENER_CLOSE,
    OPENER_GCML,
    OPENER_CLOSE_GCML,
    OPENER_ASCII,
    OPENER_ASCII_SPACED,
    OPENER_DOUBLED,
    OPENER_SPACED,
    OPENER_SPACE_BAR,
    OPENER_DOUBLE_LINE,
    OPENER_BARLESS,
    OPENER_PLAIN_FUNCTION_CALLS,
    OPENER_PLAIN_TOOL_CALLS,
])
.values(Values::TextUnlessDeclared)
.render(
    Prompt::new("DeepSeek V3.2 / V4", write_calls)
        .template(tools::deepseek_dsml, results::deepseek_dsml),
);

/// `deepseek-dsml` (V3.2): `<｜DSML｜invoke>` elements; strings raw with
/// `string="true"`, other values as JSON with `string="false"`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::json_compact;
    use serde_json::Value;

    let body = each(calls, "\n", |_, c| {
        let mut s = format!("<｜DSML｜invoke name=\"{}\">\n", c.name);
        for (k, v) in &c.arguments {
            let (string, text) = match v {
                // the parser keeps a string="true" value verbatim
                Value::String(t) => ("true", t.clone()),
                other => ("false", json_compact(other)),
            };
            s.push_str(&format!(
                "<｜DSML｜parameter name=\"{k}\" string=\"{string}\">{text}</｜DSML｜parameter>\n"
            ));
        }
        s.push_str("</｜DSML｜invoke>");
        s
    });
    format!("<｜DSML｜function_calls>\n{body}\n</｜DSML｜function_calls>")
}

const DSML: &[u8] = "｜DSML｜".as_bytes();
const OPEN: &[u8] = "<｜DSML｜".as_bytes();
/// GigaChat 3.5 writes the same markup under its own namespace token, of
/// the same length.
const GCML: &[u8] = "｜GCML｜".as_bytes();
/// The fullwidth bar `｜` (U+FF5C) around the namespace word.
const BAR: &[u8] = "｜".as_bytes();
/// The bars a respelling writes for it besides ASCII `|`: the fullwidth
/// bar itself and the double vertical line `‖` (U+2016).
const BARS: [&[u8]; 2] = [BAR, "‖".as_bytes()];
/// The namespace word's length (`DSML`, `GCML`).
const CORE_LEN: usize = 4;
/// How many bytes of blanks and bars a respelled token may put on either
/// side of its word (`< ｜｜ DSML ｜｜ ` and the like fit).
const BARS_MAX: usize = 16;

/// The first namespace word (`DSML` or `GCML`) at or after `from`, however
/// the bars around it are spelled: one search for their common tail, so a
/// block is scanned once. Whether it stands in a tag is [`read_tag`]'s call.
fn find_token(b: &[u8], from: usize) -> Option<usize> {
    let mut at = from + 2;
    loop {
        let k = scan::find(b, at, b"ML")?;
        let start = k - 2;
        if &b[start..k] == b"DS" || &b[start..k] == b"GC" {
            return Some(start);
        }
        at = k + 1;
    }
}

/// `rest` is the start of a fullwidth bar cut off by the end of the input.
fn partial_bar(rest: &[u8]) -> bool {
    BARS.iter()
        .any(|bar| !rest.is_empty() && rest.len() < bar.len() && bar.starts_with(rest))
}

/// The length of the multi-byte bar `rest` starts with.
fn bar_at(rest: &[u8]) -> Option<usize> {
    BARS.iter()
        .find(|bar| rest.starts_with(bar))
        .map(|bar| bar.len())
}

/// The length of the multi-byte bar `before` ends with.
fn bar_before(before: &[u8]) -> Option<usize> {
    BARS.iter()
        .find(|bar| before.ends_with(bar))
        .map(|bar| bar.len())
}

/// Skips blanks and bars (`｜` or `|`) from `i` on: where they end and how
/// many bars there were.
fn skip_bars(b: &[u8], mut i: usize) -> (usize, usize) {
    let (start, mut bars) = (i, 0);
    while i < b.len() && i - start < BARS_MAX {
        if matches!(b[i], b' ' | b'\t' | b'|') {
            bars += usize::from(b[i] == b'|');
            i += 1;
        } else if let Some(n) = bar_at(&b[i..]) {
            bars += 1;
            i += n;
        } else {
            break;
        }
    }
    (i, bars)
}

/// Skips blanks and bars backwards from `i`: where they begin.
fn skip_bars_back(b: &[u8], mut i: usize) -> usize {
    let end = i;
    while i > 0 && end - i < BARS_MAX {
        if matches!(b[i - 1], b' ' | b'\t' | b'|') {
            i -= 1;
        } else if let Some(n) = bar_before(&b[..i]) {
            i -= n;
        } else {
            break;
        }
    }
    i
}

/// The token as DeepSeek's tokenizer writes it (`｜DSML｜` or `｜GCML｜`,
/// blanks after it allowed), not a respelling.
fn canonical(tok: &[u8]) -> bool {
    let mut t = tok;
    while let [rest @ .., b' ' | b'\t'] = t {
        t = rest;
    }
    t == DSML || t == GCML
}

/// What a DSML tag names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// The wrapper: V3.2 `function_calls`, V4 `tool_calls`, V4.1 `calls`.
    Wrapper,
    /// `invoke`.
    Invoke,
    /// `parameter`.
    Parameter,
    /// Anything else.
    Other,
}

/// The words a tag may name, each as written.
const WORDS: &[(&[u8], Word)] = &[
    (b"function_calls", Word::Wrapper),
    (b"tool_calls", Word::Wrapper),
    (b"calls", Word::Wrapper),
    (b"invoke", Word::Invoke),
    (b"parameter", Word::Parameter),
];

/// The tag around one namespace word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagRead {
    /// The input ends before the tag's word is certain.
    More,
    /// No `<` or `</` before the token, or no bar after its word: not a
    /// tag.
    NotTag,
    /// A tag.
    Tag {
        /// `</…>` (or `<｜DSML｜/…>`) rather than `<…>`.
        closing: bool,
        /// Where its `<` is.
        start: usize,
        /// What it names.
        word: Word,
        /// Where its word ends.
        word_end: usize,
        /// The token as spelled, between `<` (or `</`) and the word.
        tok: (usize, usize),
    },
}

/// Reads the tag whose namespace word is at `h`: `<` or `</`, the token
/// (bars and blanks around the word, in any spelling: `｜DSML｜`,
/// `|DSML|`, ` | DSML | `, `｜｜DSML｜｜`, `DSML｜`; V4.1 writes one space
/// after it), an optional `/` that makes it a closing tag, then the word.
fn read_tag(b: &[u8], h: usize, eof: bool) -> TagRead {
    let s = skip_bars_back(b, h);
    let closing = s >= 2 && &b[s - 2..s] == b"</";
    let opening = !closing && s >= 1 && b[s - 1] == b'<';
    if !closing && !opening {
        return TagRead::NotTag;
    }
    let start = if closing { s - 2 } else { s - 1 };
    let (w, bars) = skip_bars(b, h + CORE_LEN);
    if !eof && (w == b.len() || partial_bar(&b[w..])) {
        return TagRead::More;
    }
    if bars == 0 {
        return TagRead::NotTag;
    }
    let tok = (s, w);
    let (closing, w) = match b.get(w) {
        Some(b'/') if !closing => (true, scan::skip_blank(b, w + 1)),
        _ => (closing, w),
    };
    if w == b.len() && !eof {
        return TagRead::More;
    }
    let rest = &b[w..];
    for &(lit, word) in WORDS {
        match scan::prefix(rest, lit) {
            Prefix::Full => match rest.get(lit.len()) {
                None if !eof => return TagRead::More,
                None | Some(b'>' | b' ' | b'\t' | b'\r' | b'\n') => {
                    return TagRead::Tag {
                        closing,
                        start,
                        word,
                        word_end: w + lit.len(),
                        tok,
                    }
                }
                _ => {}
            },
            Prefix::Partial if !eof => return TagRead::More,
            _ => {}
        }
    }
    TagRead::Tag {
        closing,
        start,
        word: Word::Other,
        word_end: w,
        tok,
    }
}

/// Where a closing tag whose word ends at `word_end` ends (after its `>`,
/// blanks allowed before it): `Err(true)` when the input may still bring
/// it, `Err(false)` when it is not a well-formed closing tag.
fn close_end(b: &[u8], word_end: usize, eof: bool) -> Result<usize, bool> {
    let e = scan::skip_blank(b, word_end);
    match b.get(e) {
        Some(b'>') => Ok(e + 1),
        None if !eof => Err(true),
        _ => Err(false),
    }
}

/// The DSML block: a wrapper or a bare invoke.
pub struct Dsml;

/// The shared instance.
pub static DSML_BLOCK: Dsml = Dsml;

/// Length of the tag starting at `at` (through `>`), if complete; tags do not
/// span more than 512 bytes.
fn tag_len(input: &[u8], at: usize, eof: bool) -> Result<usize, Probe> {
    let limit = input.len().min(at + 512);
    match memchr::memchr(b'>', &input[at..limit]) {
        Some(k) => Ok(k + 1),
        None if limit == input.len() && !eof => Err(Probe::NeedMore),
        None => Err(Probe::NotMarker),
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    // the namespace word, after the bars of whatever spelling
    let (c, _) = skip_bars(input, 1);
    let rest = &input[c..];
    if !cx.eof && (rest.is_empty() || partial_bar(rest)) {
        return Probe::NeedMore;
    }
    match (scan::prefix(rest, b"DSML"), scan::prefix(rest, b"GCML")) {
        (Prefix::Full, _) | (_, Prefix::Full) => {}
        (Prefix::Partial, _) | (_, Prefix::Partial) if !cx.eof => return Probe::NeedMore,
        _ => return Probe::NotMarker,
    }
    let read = read_tag(input, c, cx.eof);
    match read {
        TagRead::More => Probe::NeedMore,
        TagRead::Tag { tok, .. } if !canonical(&input[tok.0..tok.1]) => respelled(input, read, cx),
        TagRead::Tag {
            closing: false,
            word: Word::Wrapper,
            ..
        } => match tag_len(input, 0, cx.eof) {
            Ok(_) => block(false),
            Err(p) => p,
        },
        TagRead::Tag {
            closing: false,
            word: Word::Invoke,
            ..
        } => block(true),
        // any other DSML tag is markup
        _ => match tag_len(input, 0, cx.eof) {
            Ok(n) => Probe::Match(Action::Markup { len: n }),
            Err(p) => p,
        },
    }
}

/// A tag whose token is respelled (`<|DSML|…`, `< | DSML | …`,
/// `<｜｜DSML｜｜…`: a client or proxy that did not keep the fullwidth bars
/// byte-exact) opens a block only when the next tag, after white space,
/// continues a call in the same spelling: a wrapper followed by an invoke,
/// or an invoke followed by a parameter or its own close tag. A lone
/// look-alike in prose is text, and so is any other respelled tag.
fn respelled(input: &[u8], read: TagRead, cx: &ProbeCx) -> Probe {
    let TagRead::Tag {
        closing: false,
        word: word @ (Word::Wrapper | Word::Invoke),
        tok,
        ..
    } = read
    else {
        return Probe::NotMarker;
    };
    let n = match tag_len(input, 0, cx.eof) {
        Ok(n) => n,
        Err(p) => return p,
    };
    let s = match cx.after_blanks(input, n, usize::MAX) {
        Ok(s) => s,
        Err(p) => return p,
    };
    let spelled = &input[tok.0..tok.1];
    let next: &[(&[u8], &[u8])] = match word {
        Word::Wrapper => &[(b"<", b"invoke")],
        _ => &[(b"<", b"parameter"), (b"</", b"invoke"), (b"<", b"/invoke")],
    };
    let mut partial = false;
    for &(lt, w) in next {
        let tag = [lt, spelled, w].concat();
        match scan::prefix(&input[s..], &tag) {
            Prefix::Full => return block(word == Word::Invoke),
            Prefix::Partial => partial = true,
            _ => {}
        }
    }
    Probe::unmatched(partial, cx)
}

fn block(bare: bool) -> Probe {
    Probe::Match(Action::Block {
        fmt: &DSML_BLOCK,
        scanner: crate::formats::BlockScanner::new(DsmlScanner {
            bare,
            last_invoke_end: None,
            invoke_start: None,
            lenient: false,
            phase: DsmlPhase::Tags { from: 1 },
        }),
    })
}

/// `<｜DSML｜…` opening tags.
pub const OPENER: Opener = Opener::new(OPEN, probe);

fn probe_close(input: &[u8], cx: &ProbeCx) -> Probe {
    match tag_len(input, 0, cx.eof) {
        Ok(n) => Probe::Match(Action::Markup { len: n }),
        Err(p) => p,
    }
}

/// A stray `</｜DSML｜…>` closing tag is markup.
pub const OPENER_CLOSE: Opener = Opener::new("</｜DSML｜".as_bytes(), probe_close);

/// GigaChat 3.5's `<｜GCML｜…` opening tags.
pub const OPENER_GCML: Opener = Opener {
    lit: "<｜GCML｜".as_bytes(),
    ..OPENER
};

/// A stray `</｜GCML｜…>` closing tag is markup.
pub const OPENER_CLOSE_GCML: Opener = Opener {
    lit: "</｜GCML｜".as_bytes(),
    ..OPENER_CLOSE
};

/// Finds where a DSML block ends: at its closing wrapper, or (a bare invoke)
/// at `</｜DSML｜invoke>`. Inside a parameter value only the parameter's
/// close tag counts, as in DeepSeek's own parser: tags written in a value are
/// text.
struct DsmlScanner {
    /// A bare invoke without the wrapper.
    bare: bool,
    /// Where the last closed invoke ends.
    last_invoke_end: Option<usize>,
    /// Where the current invoke begins.
    invoke_start: Option<usize>,
    /// The input ended inside a value that no close tag ends: values are
    /// not told apart from the tags around them any more.
    lenient: bool,
    phase: DsmlPhase,
}

/// Where a [`DsmlScanner`] is.
enum DsmlPhase {
    /// Among tags; the `｜DSML｜` search resumes at `from`.
    Tags { from: usize },
    /// Inside the parameter value whose tag's word ends at `start`; the
    /// search for its close tag resumes at `from`.
    Value { start: usize, from: usize },
}

impl DsmlScanner {
    /// Where the token search may resume once `block` has been searched to
    /// its end without a hit (a token may begin in its last bytes).
    fn resume(from: usize, block: &[u8]) -> usize {
        from.max(block.len().saturating_sub(CORE_LEN))
    }

    /// Inside a value: `None` to go on with the next phase.
    fn value(&mut self, block: &[u8], start: usize, from: usize, eof: bool) -> Option<BlockEnd> {
        let Some(h) = find_token(block, from) else {
            if eof {
                // no close tag anywhere: read the rest as tags
                self.lenient = true;
                self.phase = DsmlPhase::Tags { from: start };
                return None;
            }
            self.phase = DsmlPhase::Value {
                start,
                from: Self::resume(from, block),
            };
            return Some(BlockEnd::More);
        };
        self.phase = match read_tag(block, h, eof) {
            TagRead::More => {
                self.phase = DsmlPhase::Value { start, from: h };
                return Some(BlockEnd::More);
            }
            TagRead::Tag {
                closing: true,
                word: Word::Parameter,
                word_end,
                ..
            } => DsmlPhase::Tags { from: word_end },
            _ => DsmlPhase::Value {
                start,
                from: h + CORE_LEN,
            },
        };
        None
    }

    /// Among tags: `None` to go on with the next phase.
    fn tags(&mut self, block: &[u8], from: usize, eof: bool) -> Option<BlockEnd> {
        let Some(h) = find_token(block, from) else {
            if !eof {
                self.phase = DsmlPhase::Tags {
                    from: Self::resume(from, block),
                };
                return Some(BlockEnd::More);
            }
            return Some(end::after_last_element(
                block,
                self.last_invoke_end,
                self.invoke_start,
            ));
        };
        let (closing, start, word, word_end) = match read_tag(block, h, eof) {
            TagRead::More => {
                self.phase = DsmlPhase::Tags { from: h };
                return Some(BlockEnd::More);
            }
            TagRead::NotTag => {
                self.phase = DsmlPhase::Tags { from: h + CORE_LEN };
                return None;
            }
            TagRead::Tag {
                closing,
                start,
                word,
                word_end,
                ..
            } => (closing, start, word, word_end),
        };
        self.phase = DsmlPhase::Tags { from: word_end };
        match (closing, word) {
            (true, Word::Invoke | Word::Wrapper) => {
                let end = match close_end(block, word_end, eof) {
                    Ok(end) => end,
                    Err(true) => {
                        self.phase = DsmlPhase::Tags { from: h };
                        return Some(BlockEnd::More);
                    }
                    Err(false) => return None,
                };
                if word == Word::Invoke {
                    self.last_invoke_end = Some(end);
                }
                if (word == Word::Invoke) == self.bare {
                    return Some(BlockEnd::done(end));
                }
            }
            (false, Word::Invoke) if start > 0 || !self.bare => self.invoke_start = Some(start),
            (false, Word::Parameter) if !self.lenient => {
                self.phase = DsmlPhase::Value {
                    start: word_end,
                    from: word_end,
                }
            }
            _ => {}
        }
        None
    }
}

impl Scanner for DsmlScanner {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            let step = match self.phase {
                DsmlPhase::Tags { from } => self.tags(block, from, eof),
                DsmlPhase::Value { start, from } => self.value(block, start, from, eof),
            };
            if let Some(end) = step {
                return end;
            }
        }
    }

    fn consumed(&self) -> usize {
        1
    }
}

/// The next tag at or after `from` that is not text: the `<` of its token
/// and what it is.
fn next_tag(b: &[u8], mut from: usize) -> Option<(usize, bool, Word, usize)> {
    while let Some(h) = find_token(b, from) {
        if let TagRead::Tag {
            closing,
            start,
            word,
            word_end,
            ..
        } = read_tag(b, h, true)
        {
            return Some((start, closing, word, word_end));
        }
        from = h + CORE_LEN;
    }
    None
}

/// The close tag of a value that starts at `from`: where it begins and
/// where it ends. A well-formed `</｜DSML｜parameter>` closes it; one that
/// is not (`</｜DSML｜parameter |`, no `>`) closes it only when no
/// well-formed one comes before the next parameter, invoke or wrapper tag
/// (until then it is the value's text: a shell line quoting the marker).
fn value_close(b: &[u8], mut from: usize) -> Option<(usize, usize)> {
    let mut loose = None;
    while let Some((start, closing, word, word_end)) = next_tag(b, from) {
        match (closing, word) {
            (true, Word::Parameter) => match close_end(b, word_end, true) {
                Ok(end) => return Some((start, end)),
                Err(_) => {
                    loose = loose.or(Some((start, word_end)));
                }
            },
            (false, Word::Parameter | Word::Invoke) | (true, Word::Invoke | Word::Wrapper)
                if loose.is_some() =>
            {
                return loose;
            }
            _ => {}
        }
        from = word_end;
    }
    loose
}

/// Where a value without a close tag ends: at the next tag that opens a
/// parameter or an invoke or closes an invoke or the wrapper.
fn value_bound(b: &[u8], mut from: usize) -> usize {
    while let Some((start, closing, word, word_end)) = next_tag(b, from) {
        if matches!(
            (closing, word),
            (false, Word::Parameter | Word::Invoke) | (true, Word::Invoke | Word::Wrapper)
        ) {
            return start;
        }
        from = word_end;
    }
    b.len()
}

/// An invoke being read.
struct Pending {
    name: String,
    start: usize,
    arguments: Map<String, Value>,
    /// Its last parameter had its close tag (or it has none).
    complete: bool,
    /// Where its body starts (after the invoke tag's `>`).
    body: usize,
    /// A parameter tag was met.
    any_parameter: bool,
}

impl Dsml {
    /// Reports a finished invoke: `end` is where its markup ends, `closed`
    /// whether `</｜DSML｜invoke>` ended it.
    fn finish(
        p: Pending,
        end: usize,
        closed: bool,
        block: &[u8],
        cx: &ParseCx,
        r: &mut BlockResult,
    ) {
        if p.name.is_empty() {
            r.errors
                .push(section::err("TLP-001", "DSML invoke has no name", p.start));
            return;
        }
        if cx.cut && !closed && !p.complete {
            r.errors
                .push(section::truncated(ids::DEEPSEEK_DSML, block.len()));
            return;
        }
        r.calls.push(ParsedCall {
            end,
            ..ParsedCall::new(p.name, unwrapped(p.arguments), ids::DEEPSEEK_DSML)
        });
    }
}

impl BlockFormat for Dsml {
    fn id(&self) -> FormatId {
        ids::DEEPSEEK_DSML
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let mut r = BlockResult::default();
        let mut pending: Option<Pending> = None;
        let mut i = 0;
        while let Some((start, closing, word, word_end)) = next_tag(block, i) {
            i = word_end;
            match (closing, word) {
                (false, Word::Invoke) => {
                    if let Some(p) = pending.take() {
                        Self::finish(p, start, false, block, cx, &mut r);
                    }
                    let Some(gt) = memchr::memchr(b'>', &block[word_end..]).map(|k| word_end + k)
                    else {
                        r.errors
                            .push(section::truncated(ids::DEEPSEEK_DSML, block.len()));
                        break;
                    };
                    let name = section::attr(&block[word_end..gt], "name").unwrap_or_default();
                    pending = Some(Pending {
                        name: clean_name(&name),
                        start,
                        arguments: Map::new(),
                        complete: true,
                        body: gt + 1,
                        any_parameter: false,
                    });
                    i = gt + 1;
                }
                (false, Word::Parameter) => {
                    let Some(gt) = memchr::memchr(b'>', &block[word_end..]).map(|k| word_end + k)
                    else {
                        if let Some(p) = pending.as_mut() {
                            p.complete = false;
                        }
                        break;
                    };
                    let tag = &block[word_end..gt];
                    let vf = gt + 1;
                    let (ve, resume, closed) = match value_close(block, vf) {
                        Some((c, after)) => (c, after, true),
                        None => {
                            let bound = value_bound(block, vf);
                            (bound, bound, false)
                        }
                    };
                    i = resume;
                    let Some(p) = pending.as_mut() else {
                        continue;
                    };
                    p.complete = closed;
                    p.any_parameter = true;
                    let key = section::attr(tag, "name").unwrap_or_default();
                    let key = key.trim();
                    if !key.is_empty() {
                        let text = crate::scan::lossy(&block[vf..ve]);
                        let string = section::attr(tag, "string");
                        p.arguments
                            .insert(key.to_string(), typed(&text, string.as_deref()));
                    }
                }
                (true, Word::Invoke) => {
                    let end = close_end(block, word_end, true).unwrap_or(word_end);
                    i = end;
                    if let Some(mut p) = pending.take() {
                        // a JSON object instead of parameters
                        // (`<｜DSML｜invoke name="f"> {"q": 1} </｜DSML｜invoke>`)
                        if !p.any_parameter {
                            if let Some((m, after)) = super::shared::json::json_body(block, p.body)
                            {
                                if after == start {
                                    p.arguments = m;
                                }
                            }
                        }
                        Self::finish(p, end, true, block, cx, &mut r);
                    }
                }
                (true, Word::Wrapper) => break,
                _ => {}
            }
        }
        if let Some(p) = pending.take() {
            Self::finish(p, block.len(), false, block, cx, &mut r);
        }
        if r.calls.is_empty() && r.errors.is_empty() && cx.cut {
            return BlockResult::truncated(ids::DEEPSEEK_DSML, block.len());
        }
        r
    }
}

/// The arguments, with a lone `arguments` or `input` wrapper around a JSON
/// object taken away (see the module documentation).
fn unwrapped(mut args: Map<String, Value>) -> Map<String, Value> {
    if args.len() != 1 {
        return args;
    }
    let Some(key) = ["arguments", "input"]
        .into_iter()
        .find(|k| args.contains_key(*k))
    else {
        return args;
    };
    match args.remove(key) {
        Some(Value::Object(inner)) => inner,
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text.trim()) {
            Ok(Value::Object(inner)) => inner,
            _ => {
                args.insert(key.to_string(), Value::String(text));
                args
            }
        },
        Some(other) => {
            args.insert(key.to_string(), other);
            args
        }
        None => args,
    }
}

/// A value typed by its `string` attribute: `"true"` keeps the text exactly
/// as written (DeepSeek's encoder writes it raw), `"false"` reads it as JSON
/// (falling back to text typing), no attribute types it like every XML-style
/// format.
fn typed(text: &str, string: Option<&str>) -> Value {
    match string.map(str::trim) {
        Some("true") => Value::String(text.to_string()),
        Some("false") => serde_json::from_str::<Value>(text.trim())
            .unwrap_or_else(|_| section::typed_value(strip_one_newline(text))),
        _ => section::typed_value(strip_one_newline(text)),
    }
}

/// DSML with its `｜DSML｜` tokens stripped (a server that detokenizes with
/// `skip_special_tokens`): `<function_calls>` or `<tool_calls>` around
/// `<invoke name="…">` and `<parameter name="…" string="true|false">`,
/// read as invokes. Only when an `<invoke` follows the wrapper: OLMo 3's
/// `<function_calls>` and the JSON `<tool_calls>` formats keep theirs.
pub static DSML_PLAIN: Blocks = Blocks::new(ids::DEEPSEEK_DSML, |block, cx| {
    super::shared::invoke::parse_invokes(block, ids::DEEPSEEK_DSML, cx)
});

/// A stripped wrapper of `open_len` bytes closed by `close`, when
/// `<invoke` follows it.
fn probe_plain(input: &[u8], cx: &ProbeCx, open_len: usize, close: &'static [u8]) -> Probe {
    let s = match cx.after_blanks(input, open_len, usize::MAX) {
        Ok(s) => s,
        Err(p) => return p,
    };
    match scan::prefix(&input[s..], b"<invoke") {
        Prefix::Full => Probe::Match(Action::Block {
            fmt: &DSML_PLAIN,
            scanner: crate::formats::BlockScanner::new(
                super::shared::tag::UntilClose::new(close, open_len)
                    .unclosed(super::shared::invoke::end_without_close),
            ),
        }),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<|DSML|…`, `<||DSML||…`: the token with ASCII bars (see
/// [`respelled`]).
pub const OPENER_ASCII: Opener = Opener::new(b"<|", probe);

/// `< | DSML | …`: ASCII bars and blanks.
pub const OPENER_ASCII_SPACED: Opener = Opener::new(b"< |", probe);

/// `<｜｜DSML｜｜…`: the bars doubled (a Markdown table escape).
pub const OPENER_DOUBLED: Opener = Opener::new("<｜｜".as_bytes(), probe);

/// `<｜ DSML ｜…`, `< ｜DSML｜…`: fullwidth bars and blanks.
pub const OPENER_SPACED: Opener = Opener::new("<｜ ".as_bytes(), probe);

/// `< ｜DSML｜…`: a blank before the fullwidth bar.
pub const OPENER_SPACE_BAR: Opener = Opener::new("< ｜".as_bytes(), probe);

/// `<‖DSML‖…`: the double vertical line for the bar.
pub const OPENER_DOUBLE_LINE: Opener = Opener::new("<‖".as_bytes(), probe);

/// `<DSML｜…`: the leading bar lost.
pub const OPENER_BARLESS: Opener = Opener::new(b"<DSML", probe);

/// `<function_calls>` + `<invoke`: V3.2 DSML without its tokens.
pub const OPENER_PLAIN_FUNCTION_CALLS: Opener = Opener::new(b"<function_calls>", |i, cx| {
    probe_plain(i, cx, 16, b"</function_calls>")
});

/// `<tool_calls>` + `<invoke`: V4 DSML without its tokens.
pub const OPENER_PLAIN_TOOL_CALLS: Opener = Opener::new(b"<tool_calls>", |i, cx| {
    probe_plain(i, cx, 12, b"</tool_calls>")
});

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Vec<(String, Value)> {
        let cfg = crate::engine::Config::default();
        let cx = ParseCx {
            cfg: &cfg,
            cut: false,
            before: b"",
            reply_start: true,
            tally: false,
            spare: &Default::default(),
            plain: None,
            names_clear: &Default::default(),
        };
        DSML_BLOCK
            .parse(text.as_bytes(), &cx)
            .calls
            .into_iter()
            .map(|c| (c.name, c.arguments.into_value()))
            .collect()
    }

    #[test]
    fn string_attribute_decides_typing() {
        let p = "<｜DSML｜invoke name=\"f\">\
                 <｜DSML｜parameter name=\"a\" string=\"true\">45</｜DSML｜parameter>\
                 <｜DSML｜parameter name=\"b\" string=\"false\">45</｜DSML｜parameter>\
                 <｜DSML｜parameter name=\"c\" string=\"false\">{\"x\": [1]}</｜DSML｜parameter>\
                 <｜DSML｜parameter name=\"d\">true</｜DSML｜parameter>\
                 <｜DSML｜parameter name=\"e\" string=\"true\">\n x\n</｜DSML｜parameter>\
                 </｜DSML｜invoke>";
        assert_eq!(
            parse(p),
            vec![(
                "f".to_string(),
                json!({"a": "45", "b": 45, "c": {"x": [1]}, "d": true, "e": "\n x\n"})
            )]
        );
    }

    #[test]
    fn v41_spacing_and_tags_in_values() {
        let p = "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"echo\">\n\
                 <｜DSML｜ parameter name=\"t\" string=\"true\">a <｜DSML｜ invoke name=\"x\"> </｜DSML｜ calls></｜DSML｜ parameter>\n\
                 </｜DSML｜ invoke>\n</｜DSML｜ calls>";
        assert_eq!(
            parse(p),
            vec![(
                "echo".to_string(),
                json!({"t": "a <｜DSML｜ invoke name=\"x\"> </｜DSML｜ calls>"})
            )]
        );
    }

    #[test]
    fn a_lone_arguments_or_input_wrapper_is_unwrapped() {
        let call = |params: &str| {
            let text = format!(
                "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n{params}</｜DSML｜invoke>\n</｜DSML｜function_calls>"
            );
            parse(&text).remove(0).1
        };
        let p = |name: &str, string: &str, v: &str| {
            format!(
                "<｜DSML｜parameter name=\"{name}\" string=\"{string}\">{v}</｜DSML｜parameter>\n"
            )
        };
        assert_eq!(
            call(&p("arguments", "false", r#"{"a": 1}"#)),
            json!({"a": 1})
        );
        assert_eq!(
            call(&p("input", "true", r#"{"a": "x"}"#)),
            json!({"a": "x"})
        );
        // not an object, or not alone: kept as written
        assert_eq!(
            call(&p("input", "true", "hello")),
            json!({"input": "hello"})
        );
        assert_eq!(
            call(&p("arguments", "false", "[1]")),
            json!({"arguments": [1]})
        );
        let two = p("input", "false", r#"{"a": 1}"#) + &p("b", "false", "2");
        assert_eq!(call(&two), json!({"input": {"a": 1}, "b": 2}));
    }

    /// `split`'s calls for `text`, through the whole engine.
    fn split(text: &str) -> Vec<(String, Value)> {
        let cfg = crate::engine::Config::default();
        crate::document::parse(text.as_bytes(), &cfg)
            .calls
            .into_iter()
            .map(|c| (c.name, c.arguments.into_value()))
            .collect()
    }

    #[test]
    fn respelled_tokens_are_read() {
        let want = vec![("f".to_string(), json!({"a": "x", "n": 2}))];
        for (open, close) in [
            ("<|DSML|", "</|DSML|"),
            ("< | DSML | ", "</ | DSML | "),
            ("<||DSML||", "</||DSML||"),
            ("<｜｜DSML｜｜", "</｜｜DSML｜｜"),
            ("<‖DSML‖", "</‖DSML‖"),
            ("<DSML｜", "</DSML｜"),
            ("<| DSML | ", "<| DSML | /"),
        ] {
            let text = format!(
                "{open}tool_calls>\n{open}invoke name=\"f\">\n\
                 {open}parameter name=\"a\" string=\"true\">x{close}parameter>\n\
                 {open}parameter name=\"n\" string=\"false\">2{close}parameter>\n\
                 {close}invoke>\n{close}tool_calls>"
            );
            assert_eq!(split(&text), want, "{open}");
        }
    }

    #[test]
    fn a_respelled_tag_alone_is_text() {
        for text in [
            "use <|DSML|tool_calls> here",
            "<|DSML|tool_calls>\nthen prose",
            "<|DSML|invoke name=\"f\"> and prose",
            // the next tag in another spelling
            "<|DSML|tool_calls><||DSML||invoke name=\"f\">",
            "a <DSML> tag, a <DSML | x> one",
        ] {
            assert_eq!(split(text), vec![], "{text}");
        }
    }

    #[test]
    fn missing_parameter_close() {
        let p = "<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\">1\n\
                 <｜DSML｜parameter name=\"b\">2\n</｜DSML｜invoke>";
        assert_eq!(parse(p), vec![("f".to_string(), json!({"a": 1, "b": 2}))]);
    }
}
