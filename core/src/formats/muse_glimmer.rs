//! `muse-glimmer`: Muse Glimmer — messages addressed by recipient, as
//! harmony's are, but ended with `<|eom|>` / `<|eot|>`:
//!
//! ```text
//!  to=self<|message|>I should check.<|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>
//! <atem:invoke name="get_weather"><atem:parameter name="city">Paris</atem:parameter></atem:invoke>
//! </atem:function_calls><|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>
//! ```
//!
//! A message to `self` is reasoning (the reply's first header,
//! ` to=self<|message|>`, is written at the start of a line, its
//! `<|start|>assistant` in the prompt); one to `user` is text; one to a tool
//! holds `<atem:function_calls>` with MiniMax-M2-style invokes under the
//! `atem:` prefix, read by the shared invoke reader. `<|start|>` headers are
//! read by harmony's opener, which hands these messages here through
//! [`Format::header_body`]. Parameter values are JSON when they parse as JSON
//! (`42`, `null`, `"Paris"`), else the text. A name written twice around a
//! dot (`get_weather.get_weather`, the namespace the template repeats) is
//! the name once. `<|eom|>` and `<|eot|>` are markup. A header whose
//! `<|start|>assistant` was left out (` to=NAME<|message|>` at a line start
//! or right after `<|eom|>` / `<|eot|>`) is read all the same, as is one
//! whose recipient was left out (`<|start|>assistant<|message|>` before the
//! block), and an `<atem:function_calls>` block with no header is a call
//! block.

use super::shared::invoke::parse_invokes;
use super::shared::tag::UntilClose;
use super::{ids, Blocks, Values};
use super::{Action, BlockResult, Close, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};
use crate::scan::{self, Prefix};
use serde_json::Value;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::MUSE_GLIMMER,
    "Muse Glimmer",
    &[
        "to=self<|message|>",
        "<|start|>assistant to=NAME<|message|>",
        "<atem:function_calls>",
        "<atem:invoke name=\"NAME\">",
        "<atem:parameter name=\"KEY\">",
        "<|eom|>",
        "<|eot|>",
    ],
    "<atem:invoke> blocks of named parameters in a message to the tool; to=self is reasoning",
)
.openers(&[OPENER_SELF, OPENER_EOM, OPENER_EOT, OPENER_CALLS])
.values(Values::Text)
.header_body(after_header)
.render(Prompt::new("Muse Glimmer", write_calls));

/// `muse-glimmer`: one message to the tool per call, its invokes under the
/// `atem:` prefix.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::json_compact;

    with_pairs(
        calls,
        "<|eom|>",
        |_, c| {
            format!(
            "<|start|>assistant to={}<|message|><atem:function_calls>\n<atem:invoke name=\"{}\">\n",
            c.name, c.name
        )
        },
        |k, v| {
            format!(
                "<atem:parameter name=\"{k}\">{}</atem:parameter>\n",
                json_compact(v)
            )
        },
        "</atem:invoke>\n</atem:function_calls>",
    )
}

const START_ASSISTANT: &[u8] = b"<|start|>assistant";
const MESSAGE: &[u8] = b"<|message|>";
const CALLS_OPEN: &[u8] = b"<atem:function_calls>";
const CALLS_CLOSE: &[u8] = b"</atem:function_calls>";
const EOM: &[u8] = b"<|eom|>";
const EOT: &[u8] = b"<|eot|>";

/// What ends a message to `self` (reasoning): its end token, or the next
/// message's `<|start|>assistant` when the model left the end token out. A
/// `<|start|>` not followed by the role is quoted (`` Use `<|start|>` ``):
/// it stays in the reasoning.
pub const SELF_CLOSE: &[Close] = &[
    // left to their openers, which read the next message's header
    Close::ahead(EOM),
    Close::ahead(EOT),
    Close::ahead(START_ASSISTANT),
];

/// What ends a message to `user` (left for the openers: they are markup).
/// It is the reply's last message: a header quoted inside it is its text.
const USER_ENDS: &[&[u8]] = &[EOM, EOT];

/// How a harmony-style header whose message body starts at `body` (right
/// after `<|message|>`) continues as Muse Glimmer: `None` when it is not
/// Muse's (harmony reads it). `channel` says whether the header names a
/// channel (harmony's do; Muse's never).
pub fn after_header(
    input: &[u8],
    recipient: &str,
    channel: bool,
    body: usize,
    cx: &ProbeCx,
) -> Option<Probe> {
    match recipient {
        "self" => {
            return Some(Probe::Match(Action::Reasoning {
                open_len: body,
                close: SELF_CLOSE,
            }))
        }
        "user" if !channel => {
            return Some(Probe::Match(Action::Verbatim {
                header_len: body,
                close: USER_ENDS,
                through: &[],
            }))
        }
        _ => {}
    }
    let lead = scan::skip_space(input, body);
    if recipient.is_empty() {
        // `<|start|>assistant<|message|>` with neither recipient nor channel
        // (harmony always names a channel): Muse's message whose recipient
        // was left out. Its `<atem:function_calls>` block is a call block,
        // as one with no header at all; any other body is harmony's text.
        return match scan::prefix(&input[lead..], CALLS_OPEN) {
            Prefix::Full => Some(calls_block(lead + CALLS_OPEN.len())),
            Prefix::Partial if !cx.eof => Some(Probe::NeedMore),
            _ if lead == input.len() && !cx.eof => Some(Probe::NeedMore),
            _ => None,
        };
    }
    match scan::prefix(&input[lead..], CALLS_OPEN) {
        Prefix::Full => Some(calls_block(lead + CALLS_OPEN.len())),
        Prefix::Partial if !cx.eof => Some(Probe::NeedMore),
        _ if lead == input.len() && !cx.eof => Some(Probe::NeedMore),
        // a tool message that opens with words before its block (`part of
        // the plan.\n\n<atem:function_calls>…`): the header is markup, the
        // words are text and the block is read by its own opener. Harmony's
        // tool messages have a channel or a `functions.` recipient.
        _ if !channel && !recipient.starts_with("functions.") => {
            Some(Probe::Match(Action::Markup { len: body }))
        }
        _ => None,
    }
}

/// A call block whose `<atem:function_calls>` ends at `body`.
fn calls_block(body: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt: &MUSE_GLIMMER,
        scanner: crate::formats::BlockScanner::new(UntilClose::new(CALLS_CLOSE, body)),
    })
}

/// The longest recipient name read in a bare header.
const MAX_RECIPIENT: usize = 128;

/// A header without its `<|start|>assistant` at `from`: `to=NAME<|message|>`
/// (the prompt wrote the start, or the model wrote `<|eom|>` before it).
/// The recipient and where the message body starts, or the probe's answer
/// when it is not one.
fn bare_header(input: &[u8], from: usize, cx: &ProbeCx) -> Result<(String, usize), Probe> {
    let need = |cut_short: bool| {
        if cut_short && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        }
    };
    match scan::prefix(&input[from..], b"to=") {
        Prefix::Full => {}
        Prefix::Partial => return Err(need(true)),
        Prefix::No => return Err(Probe::NotMarker),
    }
    let s = from + 3;
    let mut e = s;
    while e < input.len()
        && e - s <= MAX_RECIPIENT
        && (input[e].is_ascii_alphanumeric() || matches!(input[e], b'_' | b'-' | b'.' | b':'))
    {
        e += 1;
    }
    if e == input.len() {
        return Err(need(e - s <= MAX_RECIPIENT));
    }
    if e == s {
        return Err(Probe::NotMarker);
    }
    match scan::prefix(&input[e..], MESSAGE) {
        Prefix::Full => Ok((
            crate::scan::lossy(&input[s..e]).into_owned(),
            e + MESSAGE.len(),
        )),
        Prefix::Partial => Err(need(true)),
        Prefix::No => Err(Probe::NotMarker),
    }
}

/// What a bare header at `from` opens: reasoning (`self`), text (`user`),
/// a tool message.
fn probe_bare_header(input: &[u8], from: usize, cx: &ProbeCx) -> Probe {
    match bare_header(input, from, cx) {
        Ok((recipient, body)) => after_header(input, &recipient, false, body, cx)
            .unwrap_or(Probe::Match(Action::Markup { len: body })),
        Err(p) => p,
    }
}

/// An end token, and a bare header right after it (` to=NAME<|message|>`,
/// the next message's `<|start|>assistant` left out).
fn probe_end_token(input: &[u8], len: usize, cx: &ProbeCx) -> Probe {
    let s = scan::skip_space(input, len);
    if s == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    match probe_bare_header(input, s, cx) {
        Probe::NotMarker => Probe::Match(Action::Markup { len }),
        p => p,
    }
}

/// A tool message's `<atem:function_calls>` block, header included.
pub static MUSE_GLIMMER: Blocks = Blocks::new(ids::MUSE_GLIMMER, parse_muse_glimmer);

fn parse_muse_glimmer(block: &[u8], cx: &ParseCx) -> BlockResult {
    let (plain, removed) = without_prefix(block);
    let mut r = parse_invokes(&plain, ids::MUSE_GLIMMER, cx);
    let original = |at: usize| at + 5 * removed.iter().take_while(|&&p| p < at).count();
    for c in &mut r.calls {
        c.end = original(c.end).min(block.len());
        c.name = once(&c.name);
        if let Some(map) = c.arguments.as_object_mut() {
            for v in map.values_mut() {
                json_if_json(v);
            }
        }
    }
    for e in &mut r.errors {
        e.offset = original(e.offset).min(block.len());
    }
    r
}

/// `block` with the `atem:` prefix taken off its tags, and where (in the
/// result) each of the five-byte cuts was made.
fn without_prefix(block: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(block.len());
    let mut removed = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &block[i..]).map(|k| i + k) {
        let name = if block.get(k + 1) == Some(&b'/') {
            k + 2
        } else {
            k + 1
        };
        out.extend_from_slice(&block[i..name]);
        i = name;
        if block[name..].starts_with(b"atem:") {
            removed.push(out.len());
            i += 5;
        }
    }
    out.extend_from_slice(&block[i..]);
    (out, removed)
}

/// `A.A` is `A` (the template writes the tool's namespace, its own name,
/// before it); any other name is kept. A header token the model echoed
/// into the name (`name="read<|message|>"`, the header's `to=read<|message|>`)
/// is cut off: `<|` never belongs to a tool name.
fn once(name: &str) -> String {
    let name = match name.find("<|") {
        Some(at) if at > 0 => &name[..at],
        _ => name,
    };
    match name.split_once('.') {
        Some((a, b)) if a == b => a.to_string(),
        _ => name.to_string(),
    }
}

/// A text value that is JSON (`null`, `"Paris"`) becomes that value.
fn json_if_json(v: &mut Value) {
    if let Value::String(s) = v {
        if let Ok(parsed) = serde_json::from_str::<Value>(s.trim()) {
            *v = parsed;
        }
    }
}

/// ` to=NAME<|message|>` at the start of a line: the reply's first message,
/// its `<|start|>assistant` in the prompt. To `self` it is reasoning, to
/// `user` text, to a tool a tool message.
pub const OPENER_SELF: Opener =
    Opener::new(b"to=", |i, cx| probe_bare_header(i, 0, cx)).line_start();

/// `<|eom|>` is markup (with the bare header of the next message when one
/// follows it).
pub const OPENER_EOM: Opener = Opener::new(EOM, |i, cx| probe_end_token(i, EOM.len(), cx));

/// `<|eot|>` is markup (with the bare header of the next message when one
/// follows it).
pub const OPENER_EOT: Opener = Opener::new(EOT, |i, cx| probe_end_token(i, EOT.len(), cx));

/// `<atem:function_calls>` outside a tool message (its header lost, or
/// never written): its markup is the format's own, so it is a call block.
pub const OPENER_CALLS: Opener = Opener::new(CALLS_OPEN, |_, _| {
    Probe::Match(Action::Block {
        fmt: &MUSE_GLIMMER,
        scanner: crate::formats::BlockScanner::new(UntilClose::new(CALLS_CLOSE, CALLS_OPEN.len())),
    })
});
