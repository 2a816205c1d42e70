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
//! read by [harmony](crate::formats::harmony)'s opener, which hands these
//! messages here. Parameter values are JSON when they parse as JSON
//! (`42`, `null`, `"Paris"`), else the text. A name written twice around a
//! dot (`get_weather.get_weather`, the namespace the template repeats) is
//! the name once. `<|eom|>` and `<|eot|>` are markup; an `<atem:…>` block
//! outside a tool message is text.

use super::shared::invoke::parse_invokes;
use super::shared::tag::UntilClose;
use super::{ids, FormatId, Rank, Values};
use super::{Action, BlockFormat, BlockResult, Close, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::formats::Place;
use crate::scan::{self, Prefix};
use serde_json::Value;

/// Catalog entry.
pub const FORMAT: Format = Format {
    id: ids::MUSE_GLIMMER,
    families: "Muse Glimmer",
    markers: &[
        "to=self<|message|>",
        "<|start|>assistant to=NAME<|message|>",
        "<atem:function_calls>",
        "<atem:invoke name=\"NAME\">",
        "<atem:parameter name=\"KEY\">",
        "<|eom|>",
        "<|eot|>",
    ],
    body: "<atem:invoke> blocks of named parameters in a message to the tool; to=self is reasoning",
    models: &[],
    openers: &[OPENER_SELF, OPENER_EOM, OPENER_EOT],
    admitted_under: &[],
    doc_start: None,
    lead: None,
    values: Values::Text,
    render: Some(crate::render::Prompt {
        models: "Muse Glimmer",
        tools: crate::render::tools::generic,
        tools_source: crate::render::Source::Generic,
        result: crate::render::results::tool_response,
        result_source: crate::render::Source::Generic,
        call: crate::render::calls::muse_glimmer,
    }),
};

const START: &[u8] = b"<|start|>";
const SELF_HEADER: &[u8] = b"to=self<|message|>";
const CALLS_OPEN: &[u8] = b"<atem:function_calls>";
const CALLS_CLOSE: &[u8] = b"</atem:function_calls>";
const EOM: &[u8] = b"<|eom|>";
const EOT: &[u8] = b"<|eot|>";

/// What ends a message to `self` (reasoning): its end token, or the next
/// message's `<|start|>` when the model left the end token out.
pub const SELF_CLOSE: &[Close] = &[
    Close {
        lit: EOM,
        consume: true,
    },
    Close {
        lit: EOT,
        consume: true,
    },
    Close {
        lit: START,
        consume: false,
    },
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
            }))
        }
        _ => {}
    }
    match scan::prefix(&input[body..], CALLS_OPEN) {
        Prefix::Full => Some(Probe::Match(Action::Block {
            fmt: &MUSE_GLIMMER,
            scanner: Box::new(UntilClose::new(CALLS_CLOSE, body + CALLS_OPEN.len())),
        })),
        Prefix::Partial if !cx.eof => Some(Probe::NeedMore),
        _ => None,
    }
}

/// A tool message's `<atem:function_calls>` block, header included.
pub struct MuseGlimmer;

/// The shared instance.
pub static MUSE_GLIMMER: MuseGlimmer = MuseGlimmer;

impl BlockFormat for MuseGlimmer {
    fn id(&self) -> FormatId {
        ids::MUSE_GLIMMER
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
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
/// before it); any other name is kept.
fn once(name: &str) -> String {
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

/// ` to=self<|message|>` at the start of a line: the reply's first message,
/// its `<|start|>assistant` in the prompt, is reasoning.
pub const OPENER_SELF: Opener = Opener {
    lit: SELF_HEADER,
    ci: false,
    place: Place::LineStart,
    rank: Rank::Normal,
    also: &[],
    probe: |_, _| {
        Probe::Match(Action::Reasoning {
            open_len: SELF_HEADER.len(),
            close: SELF_CLOSE,
        })
    },
};

/// `<|eom|>` is markup.
pub const OPENER_EOM: Opener = Opener {
    lit: EOM,
    ci: false,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[],
    probe: |_, _| Probe::Match(Action::Markup { len: EOM.len() }),
};

/// `<|eot|>` is markup.
pub const OPENER_EOT: Opener = Opener {
    lit: EOT,
    ci: false,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[],
    probe: |_, _| Probe::Match(Action::Markup { len: EOT.len() }),
};
