//! Reasoning spans: `<think>…</think>` and its relatives.
//!
//! Thinking is not text, and a call drafted inside it is not a call. Content
//! is streamed as it arrives; only a possible closing marker is held back.

use super::Rank;
use super::{Action, Close, Opener, Probe, ProbeCx};

/// The close of `<think>`; Granite 3.x's thinking layout
/// `<think>…</think><response>…</response>` closes with the response's
/// opening tag too (its `</response>` is markup, see `OPENER_RESPONSE_END`
/// in `ernie45.rs`). The longer spelling comes first: the engine waits while
/// it may still match.
pub static THINK_CLOSE: &[Close] = &[
    Close::consumed(b"</think><response>"),
    Close::consumed(b"</think>"),
];
/// The close of a `<think>` the prompt opened (a generation prompt ending in
/// `<think>`, `--think-open`): `</think>`, or a tool call at the start of a
/// line, which ends the thinking without it (Qwen3.5 and later write one
/// into the prefilled block; llama.cpp reads it the same way). The call is
/// not part of the reasoning: it is read as a call.
pub const PREFILLED_THINK_CLOSE: &[Close] = &[
    Close::consumed(b"</think><response>"),
    Close::consumed(b"</think>"),
    Close::ahead(b"\n<tool_call>"),
];
/// What ends a reasoning span whose opening marker was in the generation
/// prompt, given what would end it had the model written the marker:
/// `</think>` spans may also end at a call at the start of a line
/// ([`PREFILLED_THINK_CLOSE`]); others end as they would.
pub fn prefilled_close(close: &'static [Close]) -> &'static [Close] {
    if std::ptr::eq(close, THINK_CLOSE) {
        PREFILLED_THINK_CLOSE
    } else {
        close
    }
}

const THINKING_CLOSE: &[Close] = &[Close::consumed(b"</thinking>")];
const THOUGHT_CLOSE: &[Close] = &[Close::consumed(b"</thought>")];
const MISTRAL_CLOSE: &[Close] = &[Close::consumed(b"[/THINK]")];
const COHERE_CLOSE: &[Close] = &[Close::consumed(b"<|END_THINKING|>")];
const SEED_CLOSE: &[Close] = &[Close::consumed(b"</seed:think>")];
/// `</think:SUFFIX>` (a close literal ending in `:` takes its `SUFFIX>`
/// with it) or a plain `</think>`.
const SUFFIXED_THINK_CLOSE: &[Close] =
    &[Close::consumed(b"</think:"), Close::consumed(b"</think>")];

/// Formats whose families make their calls inside reasoning and close it
/// right after them: when a reasoning span ends with calls of these formats
/// (only blanks or markup between the last call and the closing marker),
/// they are calls, flagged `in_reasoning`. Kimi K2 Thinking writes its whole
/// tool-call section before `</think>` and stops; vLLM's `kimi_k2`
/// reasoning parser ends the reasoning at the section token, so the
/// section is read as calls there too. A section followed by more
/// reasoning is a draft. Other families' engines read no calls inside
/// reasoning (SGLang and vLLM for DeepSeek-R1, Qwen3, GLM), and neither do
/// we, except for a prompt-opened `<think>` ([`PREFILLED_THINK_CLOSE`]).
pub const CALLS_END_REASONING: &[super::FormatId] = &[super::ids::KIMI_K2];

fn open(len: usize, close: &'static [Close]) -> Probe {
    Probe::Match(Action::Reasoning {
        open_len: len,
        close,
    })
}

/// The `<think>` marker.
pub const THINK_OPEN: &[u8] = b"<think>";

/// `<think>` (Qwen3, QwQ, DeepSeek R1, GLM, MiniMax, Kimi K2-Thinking…).
pub const THINK: Opener = Opener::new(THINK_OPEN, |_, _: &ProbeCx| {
    open(THINK_OPEN.len(), THINK_CLOSE)
})
.rank(Rank::Reasoning);

/// `<thinking>` (prompted models imitating Claude-style tags).
pub const THINKING: Opener =
    Opener::new(b"<thinking>", |_, _: &ProbeCx| open(10, THINKING_CLOSE)).rank(Rank::Reasoning);

/// `<thought>` (Poolside Laguna; prompted models).
pub const THOUGHT: Opener =
    Opener::new(b"<thought>", |_, _: &ProbeCx| open(9, THOUGHT_CLOSE)).rank(Rank::Reasoning);

/// `[THINK]` (Magistral and other Mistral reasoning models).
pub const MISTRAL_THINK: Opener =
    Opener::new(b"[THINK]", |_, _: &ProbeCx| open(7, MISTRAL_CLOSE)).rank(Rank::Reasoning);

/// `<|START_THINKING|>` (Cohere Command R7B / Command A).
pub const COHERE_THINKING: Opener = Opener::new(b"<|START_THINKING|>", |_, _: &ProbeCx| {
    open(18, COHERE_CLOSE)
})
.rank(Rank::Reasoning);

/// `<think:SUFFIX>` (Tencent Hunyuan, whose tags may carry a suffix, as
/// its `<tool_calls:SUFFIX>` do): closed by `</think:SUFFIX>` or `</think>`.
pub const SUFFIXED_THINK: Opener =
    Opener::new(
        b"<think:",
        |input, cx: &ProbeCx| match super::shared::tag::suffixed_len(input, 6, cx.eof) {
            Ok(len) => open(len, SUFFIXED_THINK_CLOSE),
            Err(p) => p,
        },
    )
    .rank(Rank::Reasoning);

/// `<seed:think>` (ByteDance Seed-OSS).
pub const SEED_THINK: Opener =
    Opener::new(b"<seed:think>", |_, _: &ProbeCx| open(12, SEED_CLOSE)).rank(Rank::Reasoning);

const MM_CLOSE: &[Close] = &[Close::consumed(b"</mm:think>")];

const SOLAR_CLOSE: &[Close] = &[Close::consumed(b"<|think:end|>")];

/// `<|think:start|>` (Upstage Solar Open 2), closed by `<|think:end|>`.
/// Its template writes the opener into the generation prompt, so the
/// output usually holds the closer alone ([`PROMPT_CLOSERS`]).
pub const SOLAR_THINK: Opener =
    Opener::new(b"<|think:start|>", |_, _: &ProbeCx| open(15, SOLAR_CLOSE)).rank(Rank::Reasoning);

/// `<mm:think>` (MiniMax-M3).
pub const MM_THINK: Opener =
    Opener::new(b"<mm:think>", |_, _: &ProbeCx| open(10, MM_CLOSE)).rank(Rank::Reasoning);

const IFM_CLOSE: &[Close] = &[Close::consumed(b"</ifm|think>")];
const IFM_FAST_CLOSE: &[Close] = &[Close::consumed(b"</ifm|think_fast>")];
const IFM_FASTER_CLOSE: &[Close] = &[Close::consumed(b"</ifm|think_faster>")];

/// `<ifm|think>` (MBZUAI IFM K2-V3), closed by `</ifm|think>`; its lighter
/// reasoning efforts write `<ifm|think_fast>` and `<ifm|think_faster>`
/// (below), each closed by its own tag.
pub const IFM_THINK: Opener =
    Opener::new(b"<ifm|think>", |_, _: &ProbeCx| open(11, IFM_CLOSE)).rank(Rank::Reasoning);

/// `<ifm|think_fast>` (K2-V3's faster reasoning effort).
pub const IFM_THINK_FAST: Opener = Opener::new(b"<ifm|think_fast>", |_, _: &ProbeCx| {
    open(16, IFM_FAST_CLOSE)
})
.rank(Rank::Reasoning);

/// `<ifm|think_faster>` (K2-V3's fastest reasoning effort).
pub const IFM_THINK_FASTER: Opener = Opener::new(b"<ifm|think_faster>", |_, _: &ProbeCx| {
    open(18, IFM_FASTER_CLOSE)
})
.rank(Rank::Reasoning);

const KIMI_VL_CLOSE: &[Close] = &[Close::consumed("◁/think▷".as_bytes())];

/// `◁think▷` (Kimi-VL-Thinking, Kimi-Dev: plain-text markers, which SGLang's
/// `kimi` reasoning parser reads), closed by `◁/think▷`. Looked for at the
/// start of a line only, where these models write it (the reply's start):
/// its first byte also begins common symbols (`—`, `“`), which the text
/// scanner does not stop at inside a line.
pub const KIMI_VL_THINK: Opener = Opener::new("◁think▷".as_bytes(), |_, _: &ProbeCx| {
    open("◁think▷".len(), KIMI_VL_CLOSE)
})
.line_start()
.rank(Rank::Reasoning);

/// What the start of a document says about reasoning the prompt may have
/// opened ([`prompt_opened`]).
#[derive(Clone, Copy)]
pub enum PromptThink {
    /// Not decided yet: more bytes are needed.
    Wait,
    /// The document starts as text.
    Text,
    /// The prompt opened reasoning that the document continues: it ends at
    /// these closers.
    Opened(&'static [Close]),
}

/// Closers that, met with no opener before them, show that the prompt
/// opened the reasoning (thinking templates write the opener into the
/// generation prompt), and how that reasoning ends.
const PROMPT_CLOSERS: &[(&[u8], &[Close])] = &[
    (b"</think>", PREFILLED_THINK_CLOSE),
    (b"</thinking>", THINKING_CLOSE),
    (b"<|END_THINKING|>", COHERE_CLOSE),
    (b"</mm:think>", MM_CLOSE),
    (b"<|think:end|>", SOLAR_CLOSE),
    // Kimi K3: its generation prompt ends inside `<|open|>think<|sep|>`
    (b"<|close|>think<|sep|>", super::shared::xtml::THINK_CLOSE),
    (b"<|close|> think <|sep|>", super::shared::xtml::THINK_CLOSE),
];

/// Openers of reasoning written by the model: met first, the document's
/// reasoning (if any) is paired.
const MODEL_OPENERS: &[&[u8]] = &[
    b"<think>",
    b"<think:",
    b"<thinking>",
    b"<thought>",
    b"<|START_THINKING|>",
    b"<mm:think>",
    b"<seed:think>",
    b"<|think:start|>",
    b"[THINK]",
    b"<|open|>think<|sep|>",
    b"<|open|> think <|sep|>",
    b"<ifm|think",
];

/// Whether the prompt opened reasoning, judged from the first `window`
/// bytes of the document held so far (`held`): a reasoning closer that
/// starts in them with no opener and no call before it says yes; a
/// reasoning opener or a call first (`call_at` says whether a call block
/// opens at an index: `None` while it cannot tell yet), no closer in the
/// window, or the end of input (`eof`) without one says no. `from` is
/// where the search resumes (bytes before it were searched), so feeding a
/// document in pieces costs linear time.
pub fn prompt_opened(
    held: &[u8],
    from: &mut usize,
    window: usize,
    eof: bool,
    call_at: &mut dyn FnMut(usize) -> Option<bool>,
) -> PromptThink {
    let limit = held.len().min(window);
    let mut at = *from;
    while let Some(k) = next_candidate(&held[at.min(limit)..limit]).map(|k| at + k) {
        let rest = &held[k..];
        let mut partial = false;
        for &(lit, close) in PROMPT_CLOSERS {
            match crate::scan::prefix(rest, lit) {
                crate::scan::Prefix::Full => return PromptThink::Opened(close),
                crate::scan::Prefix::Partial => partial = true,
                crate::scan::Prefix::No => {}
            }
        }
        for lit in MODEL_OPENERS {
            match crate::scan::prefix(rest, lit) {
                crate::scan::Prefix::Full => return PromptThink::Text,
                crate::scan::Prefix::Partial => partial = true,
                crate::scan::Prefix::No => {}
            }
        }
        if partial && !eof {
            *from = k;
            return PromptThink::Wait;
        }
        match call_at(k) {
            Some(true) => return PromptThink::Text,
            None if !eof => {
                *from = k;
                return PromptThink::Wait;
            }
            _ => {}
        }
        at = k + 1;
    }
    *from = limit;
    if eof || held.len() >= window {
        PromptThink::Text
    } else {
        PromptThink::Wait
    }
}

/// The next byte a reasoning tag or a call may start at.
fn next_candidate(b: &[u8]) -> Option<usize> {
    memchr::memchr3(b'<', b'[', b'{', b)
}

/// Its openers, in probe order.
pub static OPENERS: &[Opener] = &[
    THINK,
    THINKING,
    THOUGHT,
    MISTRAL_THINK,
    COHERE_THINKING,
    SEED_THINK,
    MM_THINK,
    SOLAR_THINK,
    SUFFIXED_THINK,
    KIMI_VL_THINK,
    IFM_THINK,
    IFM_THINK_FAST,
    IFM_THINK_FASTER,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict on `doc` fed `step` bytes at a time (no calls anywhere).
    fn verdict(doc: &[u8], step: usize, window: usize) -> Option<bool> {
        let mut from = 0;
        let mut no_call = |_: usize| Some(false);
        for end in (step..doc.len() + step).step_by(step) {
            let end = end.min(doc.len());
            match prompt_opened(&doc[..end], &mut from, window, false, &mut no_call) {
                PromptThink::Wait => {}
                PromptThink::Text => return Some(false),
                PromptThink::Opened(_) => return Some(true),
            }
        }
        match prompt_opened(doc, &mut from, window, true, &mut no_call) {
            PromptThink::Wait => None,
            PromptThink::Text => Some(false),
            PromptThink::Opened(_) => Some(true),
        }
    }

    #[test]
    fn a_lone_closer_in_the_window_means_the_prompt_opened_reasoning() {
        let cases: &[(&[u8], bool)] = &[
            (b"The user wants Paris.</think>Sunny.", true),
            (b"Plan.<|END_THINKING|><|START_TEXT|>Hi<|END_TEXT|>", true),
            (b"Plan.</thinking>Hi", true),
            (b"Plan.<|close|>think<|sep|>Hi", true),
            (b"<|open|>think<|sep|>a<|close|>think<|sep|>b", false),
            (b"<think>a</think>b", false),
            (b"a <mm:think>b</mm:think>", false),
            (b"Just an answer.", false),
            (b"An answer that mentions </thi", false),
            (b"0123456789 0123456789 0123456789 then </think>", false),
        ];
        for &(doc, opened) in cases {
            for step in [1, 2, 3, 7, doc.len()] {
                assert_eq!(
                    verdict(doc, step, 32),
                    Some(opened),
                    "{:?} step {step}",
                    String::from_utf8_lossy(doc)
                );
            }
        }
    }

    #[test]
    fn a_call_first_decides_text() {
        let doc = b"Looking.\n<tool_call>{}</tool_call></think>";
        let mut from = 0;
        let mut call = |k: usize| Some(doc[k..].starts_with(b"<tool_call>"));
        assert!(matches!(
            prompt_opened(doc, &mut from, 1 << 10, false, &mut call),
            PromptThink::Text
        ));
    }
}
