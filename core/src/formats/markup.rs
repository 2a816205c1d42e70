//! Control tokens that end a turn or wrap a response: markup, not text.
//!
//! They delimit no call or reasoning, but leaving them in the text would leak
//! template tokens to the user, so they become `markup` segments.

use super::shared::stray::probe_tokens;
use super::Rank;
use super::{Action, Opener, Probe, ProbeCx};
use crate::scan::{self, Prefix};

/// Tokens that are markup wherever they appear.
pub const TOKENS: &[&[u8]] = &[
    b"<|eot_id|>",
    b"<|eom_id|>",
    b"<|im_end|>",
    b"<|endoftext|>",
    b"<|end_of_text|>",
    b"<|START_RESPONSE|>",
    b"<|END_RESPONSE|>",
    b"<|START_TEXT|>",
    b"<|END_TEXT|>",
    b"<|END_OF_TURN_TOKEN|>",
    b"<|end|>",
    b"<|return|>",
    b"<|call|>",
    b"</s>",
    b"<|end_of_msg|>",
    b"<end_of_turn>",
    // Gemma's end of sequence; FunctionGemma's stop token after a call
    // (the tool's response would follow it in the next turn)
    b"<eos>",
    b"<start_function_response>",
    // Command R/R+ assistant header (the turn's end is above)
    b"<|START_OF_TURN_TOKEN|>",
    b"<|CHATBOT_TOKEN|>",
    // Apertus's assistant turn
    b"<|assistant_start|>",
    b"<|assistant_end|>",
    // Nemotron-Nano-9B-v2's end of turn
    b"<SPECIAL_12>",
    // Ling / Bailing's end of turn
    b"<|role_end|>",
    // the end of reasoning the prompt opened: MiniMax-M3, Command A, Solar
    // Open 2, and every `<think>` template (DeepSeek-R1, QwQ, GLM-4.7, Qwen3.5 …) when
    // no flag said the prompt opened it, under `--format` too
    b"</mm:think>",
    b"<|END_THINKING|>",
    b"</think>",
    b"<|think:end|>",
];

/// Llama 3.1's end of message: the model stops to wait for a tool.
const EOM: &[u8] = b"<|eom_id|>";

/// What follows `<|eom_id|>` in the same document was not written in that
/// message (a server's or a tool's text glued on): it is text, and no call
/// is looked for in it, up to the next message (`<|python_tag|>`, another
/// built-in call, or a header).
fn end_of_message() -> Probe {
    Probe::Match(Action::Verbatim {
        header_len: EOM.len(),
        close: &[b"<|python_tag|>", b"<|start_header_id|>", b"<|eot_id|>"],
        through: &[],
    })
}

/// ChatML's assistant header, echoed into the output by some servers.
const CHATML_ASSISTANT: &[u8] = b"<|im_start|>assistant";

/// `<|im_start|>assistant` and the newline after it: markup.
fn probe_chatml_header(input: &[u8], cx: &ProbeCx) -> Probe {
    if let Err(answer) = cx.literal(input, CHATML_ASSISTANT) {
        return answer;
    }
    let n = CHATML_ASSISTANT.len();
    match input.get(n) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'\n') => Probe::Match(Action::Markup { len: n + 1 }),
        None | Some(b'<') => Probe::Match(Action::Markup { len: n }),
        // `<|im_start|>assistantX…` is not the header
        Some(_) => Probe::NotMarker,
    }
}

/// The spellings of a vocabulary's unnamed special tokens, each followed
/// by digits and `|>`: what a tokenizer that lost its token names (a GGUF
/// conversion) writes for any of them.
const RESERVED: &[&[u8]] = &[b"<|reserved_token_", b"<|reserved_special_token_"];

/// `<|reserved_token_N|>` and `<|reserved_special_token_N|>` (at most 9
/// digits): markup, never text.
fn probe_reserved(input: &[u8], cx: &ProbeCx) -> Probe {
    for head in RESERVED {
        match scan::prefix(input, head) {
            Prefix::Full => {}
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => continue,
        }
        let digits = input[head.len()..]
            .iter()
            .take(10)
            .take_while(|b| b.is_ascii_digit())
            .count();
        let at = head.len() + digits;
        if digits == 0 || digits > 9 {
            return if at == input.len() && !cx.eof {
                Probe::NeedMore
            } else {
                Probe::NotMarker
            };
        }
        return match scan::prefix(&input[at..], b"|>") {
            Prefix::Full => Probe::Match(Action::Markup { len: at + 2 }),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        };
    }
    Probe::NotMarker
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    match probe_reserved(input, cx) {
        Probe::NotMarker => {}
        p => return p,
    }
    // a beginning-of-sequence token the server left at the start (only
    // there: `<s>` in prose is HTML's strike-through)
    if cx.doc_start {
        match scan::prefix(input, b"<s>") {
            Prefix::Full => return Probe::Match(Action::Markup { len: 3 }),
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
    }
    match scan::prefix(input, EOM) {
        Prefix::Full => return end_of_message(),
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match probe_chatml_header(input, cx) {
        Probe::NotMarker => probe_tokens(input, TOKENS, cx),
        p => p,
    }
}

/// End-of-turn and response-wrapper tokens.
pub const END_TOKENS: Opener = Opener::new(b"<", probe).rank(Rank::Last);

/// Hunyuan-A13B's `<answer>` … `</answer>` around the reply (after its
/// `</think>`): markup, at the start of a line only, so prose that mentions
/// the tags mid-sentence keeps them.
pub const ANSWER_TAGS: Opener = Opener::new(b"<", |input, cx: &ProbeCx| {
    probe_tokens(input, &[b"<answer>", b"</answer>"], cx)
})
.line_start()
.rank(Rank::Last);

/// Its openers, in probe order.
pub static OPENERS: &[Opener] = &[END_TOKENS, ANSWER_TAGS];
