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
//! text (`<|call|>`, `<|channel|>final`) are text. A call's JSON body that
//! is still open at a `<|start|>` or `<|channel|>` outside its strings, or
//! at the ninth inside them, ends there: the header is the next message's
//! (waiting for the JSON to close would read every message after it again,
//! for each one).
//!
//! Tolerated: channel-first and recipient-first headers, `<|constrain|>json`,
//! a bare ` json` / ` code`, or no constraint; a first message without
//! `<|start|>` (generation starts after `<|start|>assistant`); `<|call|>`
//! missing at end of input (a complete JSON body is still a call); JSON bodies
//! that only lack closing brackets at end of input. Stray `<|message|>` and
//! `<|constrain|>` tokens are markup.
//!
//! A recipient written with blanks (`to=functions.Web Search json`) names
//! a tool whose name holds blanks (`Web Search`, as clients that name tools
//! by their display name declare them); with a tools file that declares
//! only the words joined with `_` (`get_weather` for `get weather`), that
//! name (a `damaged_key` repair).
//!
//! Output whose special tokens a server stripped (`skip_special_tokens`)
//! is read conservatively: `commentary to=functions.NAME` (or glued after
//! `assistant`) is a call only when a JSON object follows the header's
//! remains (`<|constrain|>`, `json`, `<|message|>`, a `json` glued to the
//! name); `analysis` at the start of the output is reasoning only when a
//! glued `assistantfinal` / `assistantcommentary` / `assistantanalysis`
//! follows; `assistantfinal` is markup. Once seen, those glued role words
//! are looked for inside lines too (byte `a` is armed).

use super::shared::{end, section};
use super::Model;
use super::{ids, Blocks};
use super::{
    Action, BlockEnd, BlockResult, Close, Format, Opener, ParseCx, Place, Probe, ProbeCx, Scanner,
};
use crate::call::{clean_name, strip_one_newline, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt, Source};
use crate::scan;
use crate::scan::balance::{End, JsonEnd};
use crate::scan::Prefix;
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
.models(&[Model::new("gpt-oss", "<|start|>assistant")])
.openers(&[
    OPENER_START,
    OPENER_CHANNEL,
    OPENER_RECIPIENT,
    OPENER_STRAY,
    OPENER_STRIPPED_CALL,
    OPENER_STRIPPED_ROLE_CALL,
    OPENER_STRIPPED_ROLE_CALL_ARMED,
    OPENER_STRIPPED_ANALYSIS,
    OPENER_STRIPPED_ROLE_ANALYSIS,
    OPENER_STRIPPED_ROLE_ANALYSIS_ARMED,
    OPENER_STRIPPED_FINAL,
    OPENER_STRIPPED_FINAL_ARMED,
])
.render(
    Prompt::new("OpenAI gpt-oss", write_calls)
        .tools(tools::harmony, Source::Approximate)
        .result(results::harmony, Source::Template),
);

/// `harmony` (gpt-oss): one commentary message per call, addressed to
/// `functions.NAME`, ended by `<|call|>`. Generation starts after
/// `<|start|>assistant`, so the first message has no `<|start|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
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
    Close::consumed(b"<|end|>"),
    Close::consumed(b"<|return|>"),
    Close::ahead(START),
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
    /// Name-like words after the recipient that are neither a content
    /// type nor a channel (`to=functions.get weather json`: `weather`).
    extra: Vec<String>,
    /// The recipient is followed by nothing but the body (no blank, no
    /// constraint, no content type).
    bare: bool,
}

/// Header words that are not part of a recipient.
const HEADER_WORDS: &[&str] = &[
    "json",
    "code",
    "analysis",
    "commentary",
    "final",
    "assistant",
];

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
            let tail = &rest[w.len()..];
            out.bare = tail.trim_end().is_empty();
            let tail = &tail[..tail.find('<').unwrap_or(tail.len())];
            out.extra = tail
                .split_whitespace()
                .take_while(|x| {
                    !HEADER_WORDS.contains(x)
                        && !x.starts_with("to=")
                        && x.bytes()
                            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                })
                .map(str::to_string)
                .collect();
            break;
        }
    }
    // a header that names its channel twice (`<|channel|>commentary
    // to=assistant<|channel|>analysis`, gpt-oss restarting the header) is
    // on the last one
    if let Some(k) = t.rfind("<|channel|>") {
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
            through: &[],
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
    if h.recipient.is_none() && h.channel.is_none() {
        // neither recipient nor channel: not harmony's own header (it always
        // names a channel); Muse Glimmer's with its recipient left out
        for f in super::FORMATS {
            if let Some(after) = f.header_body.filter(|_| cx.cfg.allows(f.id)) {
                if let Some(p) = after(input, "", false, header_len, cx) {
                    return p;
                }
            }
        }
    }
    if let Some(r) = &h.recipient {
        // formats that write harmony's headers around their own bodies
        // (Muse Glimmer) say how such a header goes on
        for f in super::FORMATS {
            if let Some(after) = f.header_body.filter(|_| cx.cfg.allows(f.id)) {
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
        through: &[],
    })
}

fn block(body: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt: &HARMONY,
        scanner: crate::formats::BlockScanner::new(BodyScan {
            body,
            phase: BodyPhase::Lead { from: body },
        }),
    })
}

/// `<|start|>` — a message with a role.
pub const OPENER_START: Opener = Opener::new(START, probe);

/// `<|channel|>` — a message whose `<|start|>assistant` was in the prompt.
pub const OPENER_CHANNEL: Opener = Opener::new(CHANNEL, probe);

/// A recipient-first header opening a line
/// (` to=functions.NAME<|channel|>commentary<|message|>…`): the generation
/// prompt ended with `<|start|>assistant` and the model went on with the
/// recipient. Only a header written in harmony's own tokens (a
/// `<|channel|>` or `<|constrain|>` before its `<|message|>`, on its line)
/// counts; prose that starts with `to=` is text.
fn probe_recipient_first(input: &[u8], cx: &ProbeCx) -> Probe {
    let limit = input.len().min(MAX_HEADER);
    let line = memchr::memchr(b'\n', &input[..limit]).unwrap_or(limit);
    let Some(m) = scan::find(&input[..line], 0, MESSAGE) else {
        let open = line == input.len() && limit == input.len();
        return if open && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        };
    };
    let head = &input[..m];
    let tokens = [CHANNEL, b"<|constrain|>"];
    if read_header(head).recipient.is_none()
        || !tokens.iter().any(|t| scan::find(head, 0, t).is_some())
    {
        return Probe::NotMarker;
    }
    probe(input, cx)
}

/// `to=` opening a line: [`probe_recipient_first`].
pub const OPENER_RECIPIENT: Opener = Opener::new(b"to=", probe_recipient_first).line_start();

fn probe_stray(input: &[u8], cx: &ProbeCx) -> Probe {
    match section::match_any(input, &[MESSAGE, b"<|constrain|>"]) {
        Hit::Full(len) => Probe::Match(Action::Markup { len }),
        Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// Stray `<|message|>` / `<|constrain|>` tokens are markup.
pub const OPENER_STRAY: Opener = Opener::new(b"<|", probe_stray);

/// The name a call's header gives, and whether it was mended. A recipient
/// written with blanks (`to=functions.Web Search <|constrain|>json`) is a
/// tool whose name holds blanks, as clients that name tools by their
/// display name declare them: its name-like words are kept, one blank
/// between them (`Web Search`). With a tools file that declares the words
/// joined with `_` (`get_weather` for `to=functions.get weather`) and not
/// the name as written, the declared name is given, a `damaged_key`
/// repair. A `json` glued to the name when the special tokens were
/// stripped (`to=functions.shelljson{`) is the content type, not part of
/// it.
fn call_name(
    h: &Header,
    recipient: &str,
    stripped: bool,
    tools: Option<&[String]>,
) -> (String, bool) {
    let name = clean_name(recipient);
    let functions = recipient.starts_with("functions.");
    if functions && !h.extra.is_empty() && h.extra.len() <= 4 {
        let spaced = format!("{name} {}", h.extra.join(" "));
        let joined = format!("{name}_{}", h.extra.join("_"));
        if let Some(tools) = tools {
            if !tools.contains(&spaced) && tools.contains(&joined) {
                return (joined, true);
            }
        }
        return (spaced, false);
    }
    if functions && stripped && h.bare {
        if let Some(n) = name.strip_suffix("json") {
            if n.ends_with(|c: char| c.is_ascii_alphanumeric()) {
                return (n.to_string(), true);
            }
        }
    }
    (name, false)
}

/// What follows a stripped call header (see [`probe_stripped_call`]).
enum Stripped {
    /// The JSON body starts here.
    Body(usize),
    /// Not a call.
    No,
    /// The data ends before it can tell.
    More,
}

/// gpt-oss output whose special tokens were skipped in decoding
/// (`commentary to=functions.get_weather json{"city": "Paris"}`): after
/// `to=functions.`, a name, then blanks, an optional `<|constrain|>`, an
/// optional `json` (or glued to the name), an optional `<|message|>`, and a
/// JSON object. Where that object starts.
fn stripped_body(b: &[u8], eof: bool) -> Stripped {
    let more = if eof { Stripped::No } else { Stripped::More };
    let Some(t) = scan::find(b, 0, b"to=functions.") else {
        return Stripped::No;
    };
    let mut i = t + b"to=functions.".len();
    let name = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b'.')) {
        i += 1;
    }
    if i == b.len() {
        return more;
    }
    if i == name {
        return Stripped::No;
    }
    // blanks, then the optional constraint, content type and message tokens
    for lit in [&b"<|constrain|>"[..], b"json", MESSAGE] {
        i = scan::skip_blank(b, i);
        match scan::prefix(&b[i..], lit) {
            Prefix::Full => i += lit.len(),
            Prefix::Partial if !eof => return Stripped::More,
            _ => {}
        }
    }
    i = scan::skip_space(b, i);
    match b.get(i) {
        Some(b'{') => Stripped::Body(i),
        Some(_) => Stripped::No,
        None => more,
    }
}

/// The byte armed once stripped output is seen: from then on the glued
/// role words (`assistantcommentary`, `assistantanalysis`,
/// `assistantfinal`) are looked for inside lines too, where they follow
/// the text or call before them without a break.
const ARM: u8 = b'a';

/// `action` once [`ARM`] is armed; before, an empty markup that arms it
/// (the engine then probes the same place again).
fn armed(cx: &ProbeCx, action: Action) -> Probe {
    if cx.armed == Some(ARM) {
        Probe::Match(action)
    } else {
        Probe::Match(Action::Arm { len: 0, byte: ARM })
    }
}

/// A call message whose special tokens were stripped.
fn probe_stripped_call(input: &[u8], cx: &ProbeCx) -> Probe {
    let head = &input[..input.len().min(MAX_HEADER)];
    match stripped_body(head, cx.eof || input.len() >= MAX_HEADER) {
        Stripped::Body(b) if cx.armed == Some(ARM) => block(b),
        Stripped::Body(_) => armed(cx, Action::Markup { len: 0 }),
        Stripped::More => Probe::NeedMore,
        Stripped::No => Probe::NotMarker,
    }
}

/// `commentary to=functions.NAME json{…}` at the start of a line: a call
/// whose special tokens were stripped.
pub const OPENER_STRIPPED_CALL: Opener =
    Opener::new(b"commentary to=functions.", probe_stripped_call).line_start();

/// The same after the role it follows, at the start of a line.
pub const OPENER_STRIPPED_ROLE_CALL: Opener =
    Opener::new(b"assistantcommentary to=functions.", probe_stripped_call).line_start();

/// The same inside a line (`…}assistantcommentary to=functions.`), once
/// stripped output was seen.
pub const OPENER_STRIPPED_ROLE_CALL_ARMED: Opener =
    Opener::new(b"assistantcommentary to=functions.", probe_stripped_call).place(Place::Armed(ARM));

/// What ends analysis text whose special tokens were stripped: the next
/// message's role glued to its channel, or a token that survived.
const STRIPPED_ANALYSIS_CLOSE: &[Close] = &[
    Close {
        lit: b"assistantfinal",
        consume: true,
    },
    Close {
        lit: b"assistantcommentary",
        consume: false,
    },
    Close {
        lit: b"assistantanalysis",
        consume: false,
    },
    Close {
        lit: b"<|end|>",
        consume: true,
    },
    Close {
        lit: START,
        consume: false,
    },
];

/// How far a stripped `analysis` at the start of the output is looked
/// past for the glued role that ends it.
const STRIPPED_REACH: usize = 64 * 1024;

/// `analysis` at the very start of the output, when the special tokens
/// were stripped: reasoning only when a glued `assistantfinal`,
/// `assistantcommentary` or `assistantanalysis` follows (prose that
/// begins with the word is text).
fn probe_stripped_analysis(input: &[u8], cx: &ProbeCx) -> Probe {
    if !cx.doc_start {
        return Probe::NotMarker;
    }
    let reach = &input[..input.len().min(STRIPPED_REACH)];
    // what an earlier probe here read holds none of them (but may end
    // inside one)
    let from = cx.seen.saturating_sub(b"assistantcommentary".len()).max(8);
    let found = [
        &b"assistantfinal"[..],
        b"assistantcommentary",
        b"assistantanalysis",
    ]
    .iter()
    .any(|m| scan::find(reach, from, m).is_some());
    if found {
        armed(
            cx,
            Action::Reasoning {
                open_len: 8,
                close: STRIPPED_ANALYSIS_CLOSE,
            },
        )
    } else if !cx.eof && input.len() < STRIPPED_REACH {
        Probe::NeedMore
    } else {
        Probe::NotMarker
    }
}

/// `analysis…` at the start of output with its special tokens stripped.
pub const OPENER_STRIPPED_ANALYSIS: Opener =
    Opener::new(b"analysis", probe_stripped_analysis).line_start();

fn probe_role_analysis(_: &[u8], cx: &ProbeCx) -> Probe {
    armed(
        cx,
        Action::Reasoning {
            open_len: 17,
            close: STRIPPED_ANALYSIS_CLOSE,
        },
    )
}

/// `assistantanalysis…` at the start of a line: more stripped reasoning.
pub const OPENER_STRIPPED_ROLE_ANALYSIS: Opener =
    Opener::new(b"assistantanalysis", probe_role_analysis).line_start();

/// The same inside a line, once stripped output was seen.
pub const OPENER_STRIPPED_ROLE_ANALYSIS_ARMED: Opener =
    Opener::new(b"assistantanalysis", probe_role_analysis).place(Place::Armed(ARM));

fn probe_role_final(_: &[u8], cx: &ProbeCx) -> Probe {
    armed(cx, Action::Markup { len: 14 })
}

/// `assistantfinal` at the start of a line: the stripped header of the
/// answer, markup.
pub const OPENER_STRIPPED_FINAL: Opener =
    Opener::new(b"assistantfinal", probe_role_final).line_start();

/// The same inside a line, once stripped output was seen.
pub const OPENER_STRIPPED_FINAL_ARMED: Opener =
    Opener::new(b"assistantfinal", probe_role_final).place(Place::Armed(ARM));

/// The harmony call block: a header with a recipient, then the body.
pub static HARMONY: Blocks = Blocks::new(ids::HARMONY, parse_harmony);

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
    /// Inside the JSON value that begins at `start`; the next header is
    /// searched for from `header` on, `quoted` headers were inside strings.
    Json {
        start: usize,
        json: JsonEnd,
        header: usize,
        quoted: usize,
    },
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
                    header: s,
                    quoted: 0,
                }
            } else {
                BodyPhase::Raw { from: s }
            };
        }
        if let BodyPhase::Json {
            start,
            ref mut json,
            ref mut header,
            ref mut quoted,
        } = self.phase
        {
            // the JSON is read up to the next message's header, no further
            let next = loop {
                let (limit, at_header) = match next_header(block, header, eof) {
                    Ok(Some(h)) => (h, true),
                    Ok(None) => (block.len(), false),
                    Err(p) => (p, false),
                };
                match json.scan(&block[start..limit]) {
                    End::At(k) => break BodyPhase::AfterJson { end: start + k },
                    // a header quoted in a string value: read on, a few times
                    End::More if at_header && json.in_string() && *quoted < MAX_QUOTED_HEADERS => {
                        *quoted += 1;
                        *header += 1;
                    }
                    End::More if !eof && !at_header => return BlockEnd::More,
                    // broken, cut, or still open at the next header: fall
                    // back to the end tokens
                    _ => break BodyPhase::Raw { from: start },
                }
            };
            self.phase = next;
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

/// How many header tokens a call's JSON body may quote in its strings
/// before one ends it (each body reads at most this many messages ahead).
const MAX_QUOTED_HEADERS: usize = 8;

/// The next message's header token (`<|start|>`, `<|channel|>`) at or
/// after `*from`: `Ok(Some(at))`, `Ok(None)` when there is none yet,
/// `Err(at)` when the block ends inside what may be one. `*from` advances
/// past what cannot be one, so each byte is searched once.
fn next_header(block: &[u8], from: &mut usize, eof: bool) -> Result<Option<usize>, usize> {
    while let Some(h) = scan::find(block, *from, b"<|") {
        *from = h;
        match section::match_any(&block[h..], NEXT) {
            Hit::Full(_) => return Ok(Some(h)),
            Hit::Partial if !eof => return Err(h),
            _ => *from = h + 1,
        }
    }
    *from = (*from).max(block.len().saturating_sub(1));
    Ok(None)
}

/// After a JSON body ending at `end`: the end token that follows it after
/// blanks belongs to the block; anything else is not part of it.
fn after_json(block: &[u8], end: usize, eof: bool) -> BlockEnd {
    let s = scan::skip_space(block, end);
    if s == block.len() {
        return if eof {
            BlockEnd::done(end)
        } else {
            BlockEnd::More
        };
    }
    match end_token(block, s) {
        Ok(Some((n, true))) => BlockEnd::done(s + n),
        Err(()) if !eof => BlockEnd::More,
        _ => BlockEnd::done(end),
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
        BlockEnd::cut_off(block)
    } else {
        *from = (*from).max(block.len().saturating_sub(1));
        BlockEnd::More
    }
}

fn parse_harmony(block: &[u8], cx: &ParseCx) -> BlockResult {
    let (m, body_start) = match scan::find(block, 0, MESSAGE) {
        Some(m) => (m, m + MESSAGE.len()),
        // special tokens stripped: the header runs to the JSON body
        None => match stripped_body(block, true) {
            Stripped::Body(b) => (b, b),
            _ => return BlockResult::truncated(ids::HARMONY, block.len()),
        },
    };
    let stripped = m == body_start;
    let h = read_header(&block[..m]);
    let recipient = h.recipient.clone().unwrap_or_default();
    let (name, damaged) = call_name(&h, &recipient, stripped, cx.cfg.tool_names.as_deref());
    if name.is_empty() {
        return BlockResult::error("TLP-001", "harmony call has no recipient", 0);
    }
    // a template's blank for the recipient (`to=functions.NAME`, as docs
    // and PR descriptions write the header) is no tool, unless declared
    let declared = cx
        .cfg
        .tool_names
        .as_deref()
        .is_some_and(|t| t.contains(&name));
    if !declared && super::shared::evidence::placeholder_name(&name) {
        return BlockResult::text();
    }
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
        Ok((arguments, mut repairs)) => {
            if damaged {
                repairs.insert(
                    0,
                    crate::repair::Repair {
                        kind: crate::repair::RepairKind::DamagedKey,
                        offset: 0,
                    },
                );
            }
            BlockResult::one(ParsedCall {
                repairs,
                end: block.len(),
                ..ParsedCall::new(name, arguments, ids::HARMONY)
            })
        }
        Err(e) => BlockResult::failed(e),
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
                channel: Some("final".into()),
                extra: Vec::new(),
                bare: false,
            }
        );
        let h = read_header(b"<|channel|>commentary to=assistant<|channel|>analysis");
        assert_eq!(h.channel.as_deref(), Some("analysis"));
        assert_eq!(h.recipient.as_deref(), Some("assistant"));
        let h = read_header(b"<|channel|>commentary veto=x");
        assert_eq!(h.recipient, None);
        let h = read_header(b"<|channel|>commentary to=functions.get weather <|constrain|>json");
        assert_eq!(h.recipient.as_deref(), Some("functions.get"));
        assert_eq!(h.extra, vec!["weather".to_string()]);
        let h = read_header(b"commentary to=functions.get_weather json");
        assert!(h.extra.is_empty() && !h.bare);
    }

    #[test]
    fn names() {
        let n = |h: &[u8], stripped| {
            let h = read_header(h);
            let r = h.recipient.clone().unwrap_or_default();
            call_name(&h, &r, stripped, None)
        };
        assert_eq!(
            n(b"commentary to=functions.get weather json", false),
            ("get weather".to_string(), false)
        );
        assert_eq!(
            n(
                b"commentary to=functions.Web Search <|constrain|>json",
                false
            ),
            ("Web Search".to_string(), false)
        );
        // a tools file that declares the words joined with `_`
        let h = read_header(b"commentary to=functions.get weather json");
        let r = h.recipient.clone().unwrap_or_default();
        let tools = ["get_weather".to_string()];
        assert_eq!(
            call_name(&h, &r, false, Some(&tools)),
            ("get_weather".to_string(), true)
        );
        let tools = ["get weather".to_string(), "get_weather".to_string()];
        assert_eq!(
            call_name(&h, &r, false, Some(&tools)),
            ("get weather".to_string(), false)
        );
        assert_eq!(
            n(b"commentary to=functions.shelljson", true),
            ("shell".to_string(), true)
        );
        assert_eq!(
            n(b"commentary to=functions.to_json", true),
            ("to_json".to_string(), false)
        );
        assert_eq!(
            n(b"commentary to=functions.shelljson", false),
            ("shelljson".to_string(), false)
        );
        assert_eq!(
            n(b"commentary to=browser.search x", false),
            ("browser.search".to_string(), false)
        );
    }

    #[test]
    fn stripped_bodies() {
        assert!(matches!(
            stripped_body(b"commentary to=functions.f json{\"a\":1}", true),
            Stripped::Body(30)
        ));
        assert!(matches!(
            stripped_body(b"commentary to=functions.f <|constrain|>json{", true),
            Stripped::Body(_)
        ));
        assert!(matches!(
            stripped_body(b"commentary to=functions.f is the call", true),
            Stripped::No
        ));
        assert!(matches!(
            stripped_body(b"commentary to=functions.f js", false),
            Stripped::More
        ));
    }
}
