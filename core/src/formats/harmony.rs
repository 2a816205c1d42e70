//! `harmony`: OpenAI gpt-oss messages.
//!
//! ```text
//! <|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Berlin"}<|call|>
//! ```
//!
//! A message is an optional `<|start|>ROLE`, a header (`<|channel|>NAME`, a
//! recipient `to=…`, a constraint), `<|message|>`, a body and `<|end|>`,
//! `<|call|>` or `<|return|>`. What the header says decides what the message
//! is:
//!
//! * a recipient (`to=functions.NAME`, `to=browser.search`, `to=python` …)
//!   makes it a call, on any channel: gpt-oss-120b puts many calls on the
//!   `analysis` channel and the recipient is what matters. `functions.` is
//!   dropped from the name; built-in tools keep theirs (`browser.search`);
//!   `python` gets its raw body as `{"code": body}`.
//! * the `analysis` channel without a recipient is reasoning, up to `<|end|>`
//!   (or the next `<|start|>` / `<|channel|>`).
//! * anything else (`final`, a `commentary` preamble without recipient) is
//!   text, in which nothing is a call (a JSON object there is an answer, not
//!   a call); its header and end token are markup.
//!
//! A message body ends only at its own end token (or, when that is missing,
//! at the `<|start|>` of the next message): marker strings quoted inside the
//! text (`<|call|>`, `<|channel|>final`) are text.
//!
//! Tolerated: channel-first and recipient-first headers, `<|constrain|>json`,
//! a bare ` json` / ` code`, or no constraint; a first message without
//! `<|start|>` (generation starts after `<|start|>assistant`); `<|call|>`
//! missing at end of input (a complete JSON body is still a call); JSON bodies
//! that only lack closing brackets at end of input. Stray `<|message|>` and
//! `<|constrain|>` tokens are markup.

use super::shared::{end, section};
use super::Model;
use super::{ids, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Close, Format, Opener, ParseCx, Probe, ProbeCx,
    Scanner,
};
use crate::call::{clean_name, strip_one_newline, ParsedCall};
use crate::scan;
use crate::scan::balance::{End, JsonEnd};
use section::Hit;
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::HARMONY,
    "OpenAI gpt-oss-20b, gpt-oss-120b and fine-tunes",
    &[
        "<|start|>",
        "<|channel|>",
        "to=functions.NAME",
        "<|constrain|>",
        "<|message|>",
        "<|call|>",
        "<|end|>",
        "<|return|>",
    ],
    "JSON arguments in a message whose header has a recipient; analysis channel is reasoning",
)
.turns(&[super::TurnMarker::named(b"<|start|>", b"<|").noted()])
.models(&[Model {
    name: "gpt-oss",
    prompt: "<|start|>assistant",
}])
.openers(&[OPENER_START, OPENER_CHANNEL, OPENER_STRAY])
.render(crate::render::Prompt {
    models: "OpenAI gpt-oss",
    tools: crate::render::tools::harmony,
    tools_source: crate::render::Source::Approximate,
    result: crate::render::results::harmony,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `harmony` (gpt-oss): one commentary message per call, addressed to
/// `functions.NAME`, ended by `<|call|>`. Generation starts after
/// `<|start|>assistant`, so the first message has no `<|start|>`.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_compact;

    each(calls, "<|start|>assistant", |_, c| {
        format!(
            "<|channel|>commentary to=functions.{} <|constrain|>json<|message|>{}<|call|>",
            c.name,
            json_compact(&args(c))
        )
    })
}

const START: &[u8] = b"<|start|>";
const CHANNEL: &[u8] = b"<|channel|>";
const MESSAGE: &[u8] = b"<|message|>";
/// Tokens that end a message and belong to it.
const ENDS: &[&[u8]] = &[b"<|call|>", b"<|end|>", b"<|return|>"];
/// Tokens that begin the next message.
const NEXT: &[&[u8]] = &[START, CHANNEL];
/// Longest header looked at.
const MAX_HEADER: usize = 256;

/// What ends the analysis channel's reasoning. An analysis message ends
/// with `<|end|>` (`<|return|>` tolerated); a model that leaves it out goes
/// on with `<|start|>`. `<|call|>` ends only a message with a recipient, and
/// every message after the first begins with `<|start|>`, so `<|call|>` or
/// `<|channel|>` inside the analysis text is quoted, not the end of it.
const ANALYSIS_CLOSE: &[Close] = &[
    Close {
        lit: b"<|end|>",
        consume: true,
    },
    Close {
        lit: b"<|return|>",
        consume: true,
    },
    Close {
        lit: START,
        consume: false,
    },
];

/// What ends the body of a message that is prose (`final`, a `commentary`
/// preamble): its end token, or the next message (left for the probes).
const PROSE_CLOSE: &[&[u8]] = &[
    b"<|end|>",
    b"<|return|>",
    // a tool call's end token, written after prose by mistake
    b"<|call|>",
    START,
    // Muse Glimmer's end tokens (markup of their own)
    b"<|eom|>",
    b"<|eot|>",
];

/// Recipients that address a person or the model, not a tool.
const NOT_TOOLS: &[&str] = &["user", "assistant", "all", "system", "developer"];

/// What a header says.
#[derive(Debug, Default, PartialEq)]
struct Header {
    recipient: Option<String>,
    channel: Option<String>,
}

/// Reads the recipient and channel out of a header's bytes.
fn read_header(h: &[u8]) -> Header {
    let t = crate::scan::lossy(h);
    let mut out = Header::default();
    let word_end = |s: &str| {
        s.find(|c: char| c.is_whitespace() || c == '<')
            .unwrap_or(s.len())
    };
    let mut from = 0;
    while let Some(k) = t[from..].find("to=") {
        let at = from + k;
        from = at + 3;
        let ok = at == 0 || t[..at].ends_with(|c: char| c.is_whitespace() || c == '>');
        if !ok {
            continue;
        }
        let rest = &t[at + 3..];
        let w = &rest[..word_end(rest)];
        if !w.is_empty() {
            out.recipient = Some(w.to_string());
            break;
        }
    }
    if let Some(k) = t.find("<|channel|>") {
        let rest = t[k + 11..].trim_start();
        let w = &rest[..word_end(rest)];
        if !w.is_empty() {
            out.channel = Some(w.to_string());
        }
    }
    out
}

/// Header words that can appear in a header cut off by the end of input.
fn known_header_words(h: &[u8]) -> bool {
    let t = crate::scan::lossy(h);
    let t = t
        .replace("<|start|>", " ")
        .replace("<|channel|>", " ")
        .replace("<|constrain|>", " ");
    t.split_whitespace().all(|w| {
        matches!(
            w,
            "assistant" | "analysis" | "commentary" | "final" | "json" | "code"
        ) || w.starts_with("to=")
    })
}

/// A header that reaches a message's end (`<|end|>`, `<|return|>`,
/// `<|call|>`, the next `<|start|>`) before any `<|message|>`: as the
/// reference parser reads it when not strict, the word after `<|channel|>`
/// is the channel and the rest of the header that channel's content
/// (`<|channel|>commentary Hello<|end|>` says `Hello`). `None` when the
/// header is not one of those (it has a recipient, or no channel).
fn messageless(input: &[u8], head: &[u8], token: usize) -> Option<Probe> {
    let stop = [&b"<|end|>"[..], b"<|return|>", b"<|call|>", START]
        .iter()
        .filter_map(|t| scan::find(head, token, t))
        .min()?;
    if scan::find(&head[..stop], 0, MESSAGE).is_some() {
        return None;
    }
    let h = read_header(&input[..stop]);
    if h.recipient.is_some() {
        return None;
    }
    let channel = h.channel?;
    let at = scan::find(&input[..stop], 0, CHANNEL)? + CHANNEL.len();
    let word = scan::skip_space(input, at);
    let mut c = word + channel.len();
    if matches!(input.get(c), Some(b' ')) && c < stop {
        c += 1;
    }
    Some(if channel == "analysis" {
        Probe::Match(Action::Reasoning {
            open_len: c,
            close: ANALYSIS_CLOSE,
        })
    } else {
        Probe::Match(Action::Verbatim {
            header_len: c,
            close: PROSE_CLOSE,
        })
    })
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let token = if input.starts_with(START) {
        START.len()
    } else {
        CHANNEL.len()
    };
    let limit = input.len().min(MAX_HEADER);
    let head = &input[..limit];
    let nl = memchr::memchr(b'\n', head).unwrap_or(limit);
    if let Some(p) = messageless(input, &head[..nl], token) {
        return p;
    }
    let Some(m) = scan::find(&head[..nl], 0, MESSAGE) else {
        // the header's end marker may still be arriving
        let open = nl == input.len() && limit == input.len();
        if open && !cx.eof {
            return Probe::NeedMore;
        }
        if open {
            // a header cut off by the end of input
            if read_header(input).recipient.is_some() {
                return block(input.len());
            }
            if known_header_words(input) {
                return Probe::Match(Action::Markup { len: input.len() });
            }
        }
        return Probe::Match(Action::Markup { len: token });
    };
    let header_len = m + MESSAGE.len();
    let h = read_header(&input[..m]);
    if let Some(r) = &h.recipient {
        // formats that write harmony's headers around their own bodies
        // (Muse Glimmer) say how such a header goes on
        for f in super::FORMATS {
            if let Some(after) = f.harmony_header.filter(|_| cx.cfg.allows(f.id)) {
                if let Some(p) = after(input, r, h.channel.is_some(), header_len, cx) {
                    return p;
                }
            }
        }
        if !NOT_TOOLS.contains(&r.as_str()) {
            return block(header_len);
        }
    }
    if h.channel.as_deref() == Some("analysis") {
        return Probe::Match(Action::Reasoning {
            open_len: header_len,
            close: ANALYSIS_CLOSE,
        });
    }
    // a message without a tool recipient is text for the user: JSON or
    // markup in it is not a call
    Probe::Match(Action::Verbatim {
        header_len,
        close: PROSE_CLOSE,
    })
}

fn block(body: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt: &HARMONY,
        scanner: Box::new(BodyScan {
            body,
            phase: BodyPhase::Lead { from: body },
        }),
    })
}

/// `<|start|>` — a message with a role.
pub const OPENER_START: Opener = Opener::new(START, probe);

/// `<|channel|>` — a message whose `<|start|>assistant` was in the prompt.
pub const OPENER_CHANNEL: Opener = Opener::new(CHANNEL, probe);

fn probe_stray(input: &[u8], cx: &ProbeCx) -> Probe {
    match section::match_any(input, &[MESSAGE, b"<|constrain|>"]) {
        Hit::Full(len) => Probe::Match(Action::Markup { len }),
        Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// Stray `<|message|>` / `<|constrain|>` tokens are markup.
pub const OPENER_STRAY: Opener = Opener::new(b"<|", probe_stray);

/// The harmony call block: a header with a recipient, then the body.
pub struct Harmony;

/// The shared instance.
pub static HARMONY: Harmony = Harmony;

/// The end token at `at`: `Ok(Some((len, consumed)))`, `Err(())` if the input
/// ends inside one.
fn end_token(block: &[u8], at: usize) -> Result<Option<(usize, bool)>, ()> {
    let rest = &block[at..];
    let mut partial = false;
    match section::match_any(rest, ENDS) {
        Hit::Full(n) => return Ok(Some((n, true))),
        Hit::Partial => partial = true,
        Hit::No => {}
    }
    match section::match_any(rest, NEXT) {
        Hit::Full(n) => return Ok(Some((n, false))),
        Hit::Partial => partial = true,
        Hit::No => {}
    }
    if partial {
        Err(())
    } else {
        Ok(None)
    }
}

/// Finds the end of a call message's body: a JSON body ends with its value
/// (and the end token after it), any other body at the next harmony token.
struct BodyScan {
    /// Where the body starts (the probe read the header before it).
    body: usize,
    phase: BodyPhase,
}

/// Where a [`BodyScan`] is.
enum BodyPhase {
    /// Blanks so far, up to `from`.
    Lead { from: usize },
    /// Inside the JSON value that begins at `start`.
    Json { start: usize, json: JsonEnd },
    /// The JSON value ended at `end`: an end token may follow after blanks.
    AfterJson { end: usize },
    /// A raw body (or broken JSON), searched for a token from `from` on.
    Raw { from: usize },
}

impl Scanner for BodyScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        if let BodyPhase::Lead { ref mut from } = self.phase {
            if let Some(end) = end::blank_lead(block, from, eof) {
                return end;
            }
            let s = *from;
            self.phase = if matches!(block[s], b'{' | b'[') {
                BodyPhase::Json {
                    start: s,
                    json: JsonEnd::new(),
                }
            } else {
                BodyPhase::Raw { from: s }
            };
        }
        if let BodyPhase::Json {
            start,
            ref mut json,
        } = self.phase
        {
            match json.scan(&block[start..]) {
                End::At(k) => self.phase = BodyPhase::AfterJson { end: start + k },
                End::More if !eof => return BlockEnd::More,
                // broken or cut JSON: fall back to the end tokens
                _ => self.phase = BodyPhase::Raw { from: start },
            }
        }
        match self.phase {
            BodyPhase::AfterJson { end } => after_json(block, end, eof),
            BodyPhase::Raw { ref mut from } => raw_end(block, from, eof),
            _ => BlockEnd::More,
        }
    }

    fn consumed(&self) -> usize {
        self.body
    }
}

/// After a JSON body ending at `end`: the end token that follows it after
/// blanks belongs to the block; anything else is not part of it.
fn after_json(block: &[u8], end: usize, eof: bool) -> BlockEnd {
    let s = scan::skip_space(block, end);
    if s == block.len() {
        return if eof {
            BlockEnd::Done {
                len: end,
                cut: false,
            }
        } else {
            BlockEnd::More
        };
    }
    match end_token(block, s) {
        Ok(Some((n, true))) => BlockEnd::Done {
            len: s + n,
            cut: false,
        },
        Err(()) if !eof => BlockEnd::More,
        _ => BlockEnd::Done {
            len: end,
            cut: false,
        },
    }
}

/// A raw body runs to the next harmony token (searched from `from`, which
/// advances past what cannot be one).
fn raw_end(block: &[u8], from: &mut usize, eof: bool) -> BlockEnd {
    while let Some(h) = scan::find(block, *from, b"<|") {
        match end_token(block, h) {
            Ok(Some((n, consumed))) => {
                return BlockEnd::Done {
                    len: if consumed { h + n } else { h },
                    cut: false,
                }
            }
            Err(()) if !eof => {
                *from = h;
                return BlockEnd::More;
            }
            _ => *from = h + 1,
        }
    }
    if eof {
        BlockEnd::Done {
            len: block.len(),
            cut: true,
        }
    } else {
        *from = (*from).max(block.len().saturating_sub(1));
        BlockEnd::More
    }
}

impl BlockFormat for Harmony {
    fn id(&self) -> FormatId {
        ids::HARMONY
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let Some(m) = scan::find(block, 0, MESSAGE) else {
            return BlockResult::truncated(ids::HARMONY, block.len());
        };
        let h = read_header(&block[..m]);
        let recipient = h.recipient.unwrap_or_default();
        let name = clean_name(&recipient);
        if name.is_empty() {
            return BlockResult::error("TLP-001", "harmony call has no recipient", 0);
        }
        let body_start = m + MESSAGE.len();
        let mut body_end = block.len();
        for t in ENDS {
            if block[body_start..].ends_with(t) {
                body_end -= t.len();
                break;
            }
        }
        let body = &block[body_start..body_end];
        let result = if recipient == "python" {
            if cx.cut {
                Err(section::truncated(ids::HARMONY, block.len()))
            } else {
                let code = crate::scan::lossy(body);
                let mut args = Map::new();
                args.insert(
                    "code".into(),
                    Value::String(strip_one_newline(&code).to_string()),
                );
                Ok((args, Vec::new()))
            }
        } else {
            section::json_arguments(
                body,
                body_start,
                cx.cut,
                ids::HARMONY,
                &cx.cfg.repair_options(),
            )
        };
        match result {
            Ok((arguments, repairs)) => BlockResult {
                empty_list: false,
                calls: vec![ParsedCall {
                    name,
                    arguments: arguments.into(),
                    id: None,
                    format: ids::HARMONY,
                    repairs,
                    end: block.len(),
                }],
                errors: Vec::new(),
            },
            Err(e) => BlockResult {
                empty_list: false,
                calls: Vec::new(),
                errors: vec![e],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let h = read_header(b"<|channel|>commentary to=functions.get_weather <|constrain|>json");
        assert_eq!(h.recipient.as_deref(), Some("functions.get_weather"));
        assert_eq!(h.channel.as_deref(), Some("commentary"));
        let h = read_header(b"<|start|>assistant to=browser.search<|channel|>analysis json");
        assert_eq!(h.recipient.as_deref(), Some("browser.search"));
        assert_eq!(h.channel.as_deref(), Some("analysis"));
        let h = read_header(b"<|start|>assistant<|channel|>final");
        assert_eq!(
            h,
            Header {
                recipient: None,
                channel: Some("final".into())
            }
        );
        let h = read_header(b"<|channel|>commentary veto=x");
        assert_eq!(h.recipient, None);
    }
}
