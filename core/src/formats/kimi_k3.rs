//! `kimi-k3`: Moonshot Kimi K3 nested tag-like tokens.
//!
//! ```text
//! <|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Tokyo<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>
//! ```
//!
//! Every element is `<|open|>WORD attrs<|sep|>` … `<|close|>WORD<|sep|>`; blanks
//! inside the tokens (`<|open|> tools <|sep|>`) are tolerated. A tools
//! section holds calls; a call's arguments are `argument` elements (typed by
//! their `type` attribute: `string` stays raw, JSON types are decoded) or one
//! `json` element holding the whole arguments object. `think` elements are
//! reasoning; `response`, `message` and other elements are markup around
//! text; `<|end_of_msg|>` is markup. A think channel the reply never
//! closes ends where `<|open|>response<|sep|>` begins. K3's encoder writes
//! argument text as ordinary tokens, so a value may spell a tag: inside a
//! value, only its close tag followed by another tag (or the end of input)
//! ends it, and other tags are text. Attribute values decode the XML escapes
//! the encoder writes (`&amp;`, `&quot;`). Sloppy variants: the tools wrapper
//! missing (a bare `<|open|>call` starts a block), the closing wrapper
//! missing, an argument's close missing, a cut-off later call (the block ends
//! before it and the cut call is read on its own).

use super::shared::xtml::THINK_CLOSE;
use super::shared::{end, section};
use super::Model;
use super::{ids, Blocks, Values};
use super::{Action, BlockEnd, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner};
use crate::call::{clean_name, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::KIMI_K3,
    "Moonshot Kimi K3",
    &[
        "<|open|>tools<|sep|>",
        "<|open|>call tool=\"NAME\" index=\"N\"<|sep|>",
        "<|open|>argument key=\"K\" type=\"T\"<|sep|>",
        "<|close|>argument<|sep|>",
        "<|close|>call<|sep|>",
        "<|close|>tools<|sep|>",
    ],
    "argument elements typed by their type attribute, or one json element",
)
.models(&[Model::new(
    "kimi-k3",
    "<|open|>message role=\"assistant\"<|sep|><|open|>think<|sep|>",
)])
.openers(&[OPENER_OPEN, OPENER_CLOSE])
.values(Values::Text)
.render(Prompt::new("Moonshot Kimi K3", write_calls).template(tools::kimi_k3, results::kimi_k3));

/// `kimi-k3`: `<|open|>call …<|sep|>` blocks of typed `argument` elements.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::json_compact;
    use serde_json::Value;

    let body = each(calls, "", |i, c| {
        let mut s = format!(
            "<|open|>call tool=\"{}\" index=\"{}\"<|sep|>",
            c.name,
            i + 1
        );
        for (k, v) in &c.arguments {
            let ty = match v {
                Value::String(_) => "string",
                Value::Number(_) => "number",
                Value::Bool(_) => "boolean",
                Value::Null => "null",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            // inline: the reader keeps every byte between the tags
            let text = match v {
                Value::String(t) => t.clone(),
                other => json_compact(other),
            };
            s.push_str(&format!(
                "<|open|>argument key=\"{k}\" type=\"{ty}\"<|sep|>{text}<|close|>argument<|sep|>"
            ));
        }
        s.push_str("<|close|>call<|sep|>");
        s
    });
    format!("<|open|>tools<|sep|>{body}<|close|>tools<|sep|>")
}

const OPEN: &[u8] = b"<|open|>";
const CLOSE: &[u8] = b"<|close|>";
const SEP: &[u8] = b"<|sep|>";
const MAX_TAG: usize = 512;

/// One `<|open|>…<|sep|>` or `<|close|>…<|sep|>` token.
#[derive(Debug, PartialEq, Eq)]
enum Tag {
    /// The input ends inside it.
    More,
    /// Not a well-formed tag.
    Bad,
    /// A tag: opening or closing, its word, its attribute bytes' range, its
    /// length.
    Found {
        open: bool,
        word: String,
        attrs: (usize, usize),
        len: usize,
    },
}

/// Reads the tag at `at` (which starts with `<|open|>` or `<|close|>`).
fn tag_at(input: &[u8], at: usize) -> Tag {
    let rest = &input[at..];
    let (open, tok) = if rest.starts_with(OPEN) {
        (true, OPEN.len())
    } else if rest.starts_with(CLOSE) {
        (false, CLOSE.len())
    } else {
        return Tag::Bad;
    };
    let limit = rest.len().min(MAX_TAG);
    let Some(sep) = scan::find(&rest[..limit], tok, SEP) else {
        let has_nl = memchr::memchr(b'\n', &rest[tok..limit]).is_some();
        return if limit == rest.len() && !has_nl {
            Tag::More
        } else {
            Tag::Bad
        };
    };
    let inner = &rest[tok..sep];
    let ws = scan::skip_blank(inner, 0);
    let mut we = ws;
    while we < inner.len() && (inner[we].is_ascii_alphanumeric() || inner[we] == b'_') {
        we += 1;
    }
    if we == ws || memchr::memchr(b'\n', inner).is_some() {
        return Tag::Bad;
    }
    Tag::Found {
        open,
        word: crate::scan::lossy(&inner[ws..we]).into_owned(),
        attrs: (at + tok + we, at + sep),
        len: sep + SEP.len(),
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let tok = if input.starts_with(OPEN) {
        OPEN.len()
    } else {
        CLOSE.len()
    };
    match tag_at(input, 0) {
        Tag::More if !cx.eof => Probe::NeedMore,
        Tag::More | Tag::Bad => Probe::Match(Action::Markup { len: tok }),
        Tag::Found {
            open, word, len, ..
        } => {
            if !open {
                return Probe::Match(Action::Markup { len });
            }
            match word.as_str() {
                "tools" => block(false),
                "call" => block(true),
                "think" => Probe::Match(Action::Reasoning {
                    open_len: len,
                    close: THINK_CLOSE,
                }),
                _ => Probe::Match(Action::Markup { len }),
            }
        }
    }
}

fn block(bare: bool) -> Probe {
    Probe::Match(Action::Block {
        fmt: &KIMI_K3,
        scanner: crate::formats::BlockScanner::new(K3Scanner {
            bare,
            last_call_end: None,
            call_start: None,
            lenient: false,
            phase: K3Phase::Tags { from: 1 },
        }),
    })
}

/// `<|open|>…<|sep|>` elements.
pub const OPENER_OPEN: Opener = Opener::new(OPEN, probe);

/// `<|close|>…<|sep|>` outside a block: markup.
pub const OPENER_CLOSE: Opener = Opener::new(CLOSE, probe);

/// The Kimi K3 block: a tools section or a bare call.
pub static KIMI_K3: Blocks = Blocks::new(ids::KIMI_K3, parse_kimi_k3);

/// Finds where a K3 block ends: at `<|close|>tools<|sep|>`, or (a bare
/// call) at `<|close|>call<|sep|>`. Inside an `argument` or `json` value
/// only the value's close tag counts ([`value_close`]).
struct K3Scanner {
    /// A bare call without the tools wrapper.
    bare: bool,
    /// Where the last closed call ends.
    last_call_end: Option<usize>,
    /// Where the current call begins.
    call_start: Option<usize>,
    /// The input ended inside a value that no close tag ends: values are not
    /// told apart from the tags around them any more.
    lenient: bool,
    phase: K3Phase,
}

/// Where a [`K3Scanner`] is.
enum K3Phase {
    /// Among tags; the search resumes at `from`.
    Tags { from: usize },
    /// Inside the value of a `word` element that begins at `start`; the
    /// search for its close resumes at `from`.
    Value {
        start: usize,
        from: usize,
        word: &'static str,
    },
}

/// What a close tag found in a value means.
enum ValueClose {
    /// It ends the value; the value's markup ends here.
    Ends(usize),
    /// It is text of the value.
    Text,
    /// The input ends too early to tell.
    More,
}

/// Whether the `<|close|>` at `h` ends a `word` value: it must close `word`
/// and be followed (after white space) by another tag or by the end of the
/// input, since the value's own text may spell the close tag (K3's encoder
/// writes values as ordinary text, not control tokens).
fn value_close(block: &[u8], h: usize, word: &str, eof: bool) -> ValueClose {
    let len = match tag_at(block, h) {
        Tag::More if !eof => return ValueClose::More,
        Tag::Found {
            open: false,
            word: w,
            len,
            ..
        } if w == word => len,
        _ => return ValueClose::Text,
    };
    let after = h + len;
    let s = scan::skip_space(block, after);
    let rest = &block[s..];
    if rest.is_empty() {
        return if eof {
            ValueClose::Ends(after)
        } else {
            ValueClose::More
        };
    }
    if rest.starts_with(OPEN) || rest.starts_with(CLOSE) {
        return ValueClose::Ends(after);
    }
    if !eof && (OPEN.starts_with(rest) || CLOSE.starts_with(rest)) {
        return ValueClose::More;
    }
    ValueClose::Text
}

/// The close of a `word` value that starts at `from` in a complete block:
/// where its close tag begins and where it ends.
fn find_value_close(block: &[u8], mut from: usize, word: &str) -> Option<(usize, usize)> {
    while let Some(h) = scan::find(block, from, CLOSE) {
        if let ValueClose::Ends(end) = value_close(block, h, word, true) {
            return Some((h, end));
        }
        from = h + 1;
    }
    None
}

impl K3Scanner {
    /// Inside a value: `None` to go on with the next phase.
    fn value(
        &mut self,
        block: &[u8],
        (start, from, word): (usize, usize, &'static str),
        eof: bool,
    ) -> Option<BlockEnd> {
        let Some(h) = scan::find(block, from, CLOSE) else {
            if eof {
                // no close anywhere: read the rest as tags
                self.lenient = true;
                self.phase = K3Phase::Tags { from: start };
                return None;
            }
            let from = from.max(block.len().saturating_sub(CLOSE.len() - 1));
            self.phase = K3Phase::Value { start, from, word };
            return Some(BlockEnd::More);
        };
        self.phase = match value_close(block, h, word, eof) {
            ValueClose::Ends(end) => K3Phase::Tags { from: end },
            ValueClose::Text => K3Phase::Value {
                start,
                from: h + 1,
                word,
            },
            ValueClose::More => {
                self.phase = K3Phase::Value {
                    start,
                    from: h,
                    word,
                };
                return Some(BlockEnd::More);
            }
        };
        None
    }

    /// Among tags: `None` to go on with the next phase.
    fn tags(&mut self, block: &[u8], from: usize, eof: bool) -> Option<BlockEnd> {
        let Some(h) = scan::find(block, from, b"<|") else {
            if !eof {
                self.phase = K3Phase::Tags {
                    from: from.max(block.len().saturating_sub(1)),
                };
                return Some(BlockEnd::More);
            }
            return Some(end::after_last_element(
                block,
                self.last_call_end,
                self.call_start,
            ));
        };
        let rest = &block[h..];
        if !(rest.starts_with(OPEN) || rest.starts_with(CLOSE)) {
            let partial = OPEN.starts_with(rest) || CLOSE.starts_with(rest);
            if partial && !eof {
                self.phase = K3Phase::Tags { from: h };
                return Some(BlockEnd::More);
            }
            self.phase = K3Phase::Tags { from: h + 1 };
            return None;
        }
        let (open, word, len) = match tag_at(block, h) {
            Tag::More if !eof => {
                self.phase = K3Phase::Tags { from: h };
                return Some(BlockEnd::More);
            }
            Tag::Found {
                open, word, len, ..
            } => (open, word, len),
            _ => {
                self.phase = K3Phase::Tags { from: h + 1 };
                return None;
            }
        };
        self.phase = K3Phase::Tags { from: h + len };
        match (open, word.as_str()) {
            (true, "call") if h > 0 => self.call_start = Some(h),
            (true, "argument") if !self.lenient => {
                self.phase = K3Phase::Value {
                    start: h + len,
                    from: h + len,
                    word: "argument",
                }
            }
            (true, "json") if !self.lenient => {
                self.phase = K3Phase::Value {
                    start: h + len,
                    from: h + len,
                    word: "json",
                }
            }
            (false, "call") => {
                self.last_call_end = Some(h + len);
                if self.bare {
                    return Some(BlockEnd::done(h + len));
                }
            }
            (false, "tools") if !self.bare => return Some(BlockEnd::done(h + len)),
            _ => {}
        }
        None
    }
}

impl Scanner for K3Scanner {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            let step = match self.phase {
                K3Phase::Tags { from } => self.tags(block, from, eof),
                K3Phase::Value { start, from, word } => self.value(block, (start, from, word), eof),
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

fn parse_kimi_k3(block: &[u8], cx: &ParseCx) -> BlockResult {
    let mut r = BlockResult::default();
    let tags = all_tags(block);
    // the input ends inside a tag (`…<|sep|><|open|>arg`): the call
    // after it was still being written
    let cut_in_tag = cx.cut && ends_inside_tag(block, &tags);
    let mut k = 0;
    while k < tags.len() {
        let (at, ref t) = tags[k];
        k += 1;
        let Tag::Found {
            open: true,
            word,
            attrs,
            len,
        } = t
        else {
            continue;
        };
        if word != "call" {
            continue;
        }
        let tag_attrs = &block[attrs.0..attrs.1];
        let name = clean_name(
            &attr(tag_attrs, "tool")
                .or_else(|| attr(tag_attrs, "name"))
                .unwrap_or_default(),
        );
        // the call's elements up to its close (or the next call)
        let mut args = Map::new();
        let mut repairs = Vec::new();
        let mut closed_at = None;
        let mut last_closed = true;
        let mut any_element = false;
        let mut error = None;
        while k < tags.len() {
            let (eat, ref et) = tags[k];
            let Tag::Found {
                open,
                word,
                attrs,
                len: elen,
            } = et
            else {
                k += 1;
                continue;
            };
            if word == "call" {
                if !*open {
                    closed_at = Some(eat + elen);
                    k += 1;
                }
                break;
            }
            k += 1;
            if !*open || !(word == "argument" || word == "json") {
                continue;
            }
            any_element = true;
            let vf = eat + elen;
            let (ve, closed) = match find_value_close(block, vf, word) {
                Some((c, after)) => {
                    while tags.get(k).is_some_and(|(at, _)| *at < after) {
                        k += 1;
                    }
                    (c, true)
                }
                None => {
                    let (ve, found, next) = unclosed_value_end(&tags, k, word, block.len());
                    k = next;
                    (ve, found)
                }
            };
            last_closed = closed;
            let ea = &block[attrs.0..attrs.1];
            if word == "json" {
                match section::json_arguments(
                    &block[vf..ve],
                    vf,
                    cx.cut && !closed,
                    ids::KIMI_K3,
                    &cx.cfg.repair_options(),
                ) {
                    Ok((m, reps)) => {
                        args.extend(m);
                        repairs.extend(reps);
                    }
                    Err(e) => error = Some(e),
                }
            } else {
                let key = attr(ea, "key")
                    .or_else(|| attr(ea, "name"))
                    .unwrap_or_default();
                let text = crate::scan::lossy(&block[vf..ve]);
                let value = typed(&text, section::attr(ea, "type").as_deref());
                let key = key.trim().to_string();
                if !key.is_empty() {
                    args.insert(key, value);
                }
            }
        }
        let end = closed_at.unwrap_or_else(|| tags.get(k).map_or(block.len(), |(c, _)| *c));
        let _ = len;
        if name.is_empty() {
            r.errors
                .push(section::err("TLP-001", "kimi-k3 call has no tool name", at));
            continue;
        }
        if let Some(e) = error {
            r.errors.push(e);
            continue;
        }
        // cut inside its last value or tag, or right after its header
        // (its arguments were still to come)
        let nothing_after_header = !any_element && end == block.len();
        if cx.cut && closed_at.is_none() && (!last_closed || cut_in_tag || nothing_after_header) {
            r.errors.push(section::truncated(ids::KIMI_K3, block.len()));
            continue;
        }
        r.calls.push(ParsedCall {
            repairs,
            end,
            ..ParsedCall::new(name, args, ids::KIMI_K3)
        });
    }
    if r.calls.is_empty() && r.errors.is_empty() && cx.cut {
        return BlockResult::truncated(ids::KIMI_K3, block.len());
    }
    r
}

/// Where a value ends that no close tag ends (sloppy or cut output): at
/// the first tag after it (from index `k` of `tags`) that closes it, opens
/// an element, or closes the call or the tools section. Returns the value's
/// end, whether a close tag ended it, and the index of the next tag to read.
fn unclosed_value_end(
    tags: &[(usize, Tag)],
    k: usize,
    word: &str,
    len: usize,
) -> (usize, bool, usize) {
    let mut j = k;
    while j < tags.len() {
        match &tags[j].1 {
            Tag::Found {
                open: false,
                word: w,
                ..
            } if w == word => return (tags[j].0, true, j + 1),
            Tag::Found { open: true, .. } => break,
            Tag::Found { word: w, .. } if w == "call" || w == "tools" => break,
            _ => j += 1,
        }
    }
    (tags.get(j).map_or(len, |(c, _)| *c), false, j)
}

/// The value of attribute `name`, its XML escapes (`&amp;`, `&quot;` …)
/// decoded: K3's encoder escapes `&` and `"` in attribute values.
fn attr(tag: &[u8], name: &str) -> Option<String> {
    section::attr(tag, name).map(|v| section::unescape_xml(&v))
}

/// Every well-formed tag in `block`, with its offset.
/// Whether `block` ends inside a tag begun after the last whole one.
fn ends_inside_tag(block: &[u8], tags: &[(usize, Tag)]) -> bool {
    let after = tags.last().map_or(0, |(at, t)| match t {
        Tag::Found { len, .. } => at + len,
        _ => at + 1,
    });
    let Some(h) = block
        .get(after..)
        .and_then(|rest| memchr::memmem::rfind(rest, b"<|"))
        .map(|k| after + k)
    else {
        // a lone `<` at the very end may begin one too
        return block.len() > after && block.ends_with(b"<");
    };
    let rest = &block[h..];
    matches!(tag_at(block, h), Tag::More) || OPEN.starts_with(rest) || CLOSE.starts_with(rest)
}

fn all_tags(block: &[u8]) -> Vec<(usize, Tag)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(h) = scan::find(block, i, b"<|") {
        match tag_at(block, h) {
            t @ Tag::Found { .. } => {
                let len = match &t {
                    Tag::Found { len, .. } => *len,
                    _ => 1,
                };
                out.push((h, t));
                i = h + len;
            }
            _ => i = h + 1,
        }
    }
    out
}

/// Types an argument value by its `type` attribute.
fn typed(text: &str, ty: Option<&str>) -> Value {
    match ty.map(str::trim) {
        Some("string") | Some("str") => Value::String(text.to_string()),
        Some("number") | Some("integer") | Some("boolean") | Some("null") | Some("object")
        | Some("array") => serde_json::from_str::<Value>(text.trim())
            .unwrap_or_else(|_| section::typed_value(text)),
        _ => section::typed_value(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_with_spaces() {
        match tag_at(b"<|open|> tools <|sep|>x", 0) {
            Tag::Found {
                open, word, len, ..
            } => {
                assert!(open);
                assert_eq!(word, "tools");
                assert_eq!(len, 22);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(tag_at(b"<|open|>tools<|se", 0), Tag::More);
        assert_eq!(tag_at(b"<|open|>\nprose", 0), Tag::Bad);
    }

    #[test]
    fn tags_spelled_in_values() {
        let b = "<|open|>tools<|sep|><|open|>call tool=\"w&amp;x\" index=\"1\"<|sep|><|open|>argument key=\"c\" type=\"string\"<|sep|><|close|>argument<|sep|> and <|close|>tools<|sep|> end<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>";
        let cfg = crate::engine::Config::default();
        let batch = crate::document::parse(b.as_bytes(), &cfg);
        let stream = crate::document::parse_chunked(b.as_bytes().chunks(1), &cfg);
        assert_eq!(batch.calls.len(), 1);
        assert_eq!(batch.calls[0].name, "w&x");
        assert_eq!(
            batch.calls[0].arguments,
            serde_json::json!({"c": "<|close|>argument<|sep|> and <|close|>tools<|sep|> end"})
        );
        assert_eq!(stream.calls[0].arguments, batch.calls[0].arguments);
        assert!(batch.text.is_empty());
    }

    #[test]
    fn typing() {
        assert_eq!(typed("7", Some("number")), serde_json::json!(7));
        assert_eq!(typed("7", Some("string")), serde_json::json!("7"));
        assert_eq!(typed("[1]", None), serde_json::json!([1]));
    }
}
