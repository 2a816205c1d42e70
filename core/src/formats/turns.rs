//! Turns that are not the model's: system prompts, tool definitions, user
//! messages and tool results, read as text in which no call is looked for.
//!
//! A document that is more than one reply (an echoed prompt, a transcript,
//! the output of `toolcall render tools`) carries the prompt's own words:
//! tool definitions whose JSON looks like a call, template instructions
//! with example calls (`<function=example_function_name>`), tool results
//! that quote JSON. None of them is a call the model made. A turn header
//! of a role other than the assistant's (ChatML `<|im_start|>user`, Llama 3
//! `<|start_header_id|>system<|end_header_id|>`, Gemma `<start_of_turn>user`,
//! Granite, DeepSeek, GLM, Phi, Kimi, Cohere, Mistral `[INST]` …) starts a
//! verbatim span: its header is markup, its body text, up to the first
//! turn marker of any family ([`turn_ends`]). A tool-definition prompt
//! with no turn markers at all (what `render tools` writes) is recognised
//! by its template's opening words at the start of the document, or by a
//! `# Tools` heading followed by a template's sentence, and is text to the
//! next turn marker or the end of the document.
//!
//! The assistant's own headers stay what they were (markup, or the start
//! of a format's block), so the calls of the assistant's turns are read as
//! in a single reply.

use super::{Action, Opener, Probe, ProbeCx, Rank, TurnMarker};
use crate::scan::{self, Prefix};

/// Tokens that end a turn, in every family this module knows (the
/// tokens that begin one are the [`turn_markers`]). They are end tokens,
/// most of them markup too, not turn headers: the
/// descriptors list only what opens a turn and names its role.
const END_TOKENS: &[&[u8]] = &[
    b"<|im_end|>",
    b"<|eot_id|>",
    b"<end_of_turn>",
    b"<|end_of_text|>",
    "<｜end▁of▁sentence｜>".as_bytes(),
    "<｜tool▁outputs▁end｜>".as_bytes(),
    // DeepSeek's assistant header, read by its format's opener
    "<｜Assistant｜>".as_bytes(),
    b"<|end|>",
    b"<|END_OF_TURN_TOKEN|>",
    // Cohere's turn start, before its role token
    b"<|START_OF_TURN_TOKEN|>",
    b"<|end_message|>",
    b"<end_of_sentence>",
    b"</s>",
    b"<|endoftext|>",
    b"[/AVAILABLE_TOOLS]",
    b"[/SYSTEM_PROMPT]",
];

/// The turn headers of every format's family ([`super::Format::turns`]),
/// in registry order, and those of families no format module describes
/// (none yet: Phi and Zephyr write GLM's `<|system|>`, `<|user|>`,
/// `<|assistant|>`, listed by `glm4-moe`).
pub fn turn_markers() -> &'static [TurnMarker] {
    static ALL: std::sync::OnceLock<Vec<TurnMarker>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        super::FORMATS
            .iter()
            .flat_map(|f| f.turns.iter().copied())
            .collect()
    })
}

/// Which bytes stand second in some turn header of [`turn_markers`].
fn second_bytes() -> &'static [bool; 256] {
    static SET: std::sync::OnceLock<[bool; 256]> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut set = [false; 256];
        for m in turn_markers() {
            match m.open.get(1) {
                Some(&b) => set[usize::from(b)] = true,
                // a one-byte header: any second byte may follow
                None => set = [true; 256],
            }
        }
        set
    })
}

/// Markers that end a turn or begin the next one, in every family: a span
/// of another role's text ends before the first of them (the marker itself
/// is read as usual after it). The [`END_TOKENS`] and the literal of
/// every turn header this module reads: not those another format's opener
/// reads (harmony's `<|start|>` stands in the call examples of prompts
/// that are not harmony's, and harmony's opener decides what it starts).
pub fn turn_ends() -> &'static [&'static [u8]] {
    static ALL: std::sync::OnceLock<Vec<&'static [u8]>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<&'static [u8]> = END_TOKENS.to_vec();
        for m in turn_markers().iter().filter(|m| m.read) {
            if !all.contains(&m.open) {
                all.push(m.open);
            }
        }
        all
    })
}

/// Where a tool-definition block of its own ends: its closer, or a turn
/// marker when the closer was left out.
const TOOL_BLOCK_ENDS: &[&[u8]] = &[
    b"</AVAILABLE_TOOLS>",
    b"<|tool_list_end|>",
    b"<|im_end|>",
    b"<|im_start|>",
    b"<|eot_id|>",
    b"<|start_header_id|>",
    b"<|end|>",
    b"</s>",
];

/// Roles whose turns are not the model's: a header naming one of them
/// starts a verbatim span.
const OTHER_ROLES: &[&[u8]] = &[
    b"system",
    b"developer",
    b"user",
    b"tool",
    b"ipython",
    b"available_tools",
    b"tool_response",
    b"documents",
];

/// The role a header's role word names, as records carry it: `system`,
/// `developer`, `user`, `assistant`, `tool` or `documents` (Gemma's
/// `model`, Cohere's `chatbot`, Llama 3's `ipython`, harmony's
/// `functions.NAME` and the like mapped to these); `None` for a word this
/// module does not know.
pub fn role_of(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"system" | b"available_tools" => "system",
        b"developer" => "developer",
        b"user" | b"human" => "user",
        b"assistant" | b"model" | b"chatbot" | b"ai" | b"gpt" => "assistant",
        b"tool" | b"ipython" | b"tool_response" | b"observation" | b"function" => "tool",
        b"documents" => "documents",
        w if w.starts_with(b"functions.") => "tool",
        _ => return None,
    })
}

/// Tool-definition blocks of their own (Nemotron, LFM2): verbatim text to
/// their closer, but no turn.
const TOOL_BLOCKS: &[&[u8]] = &[b"<AVAILABLE_TOOLS>", b"<|tool_list_start|>"];

/// Mistral's closing tags that no reply follows and the tool-definition
/// closers: markup where they stand (`[/INST]` and `[/TOOL_RESULTS]` open
/// the assistant's turn: [`turn_markers`]).
const CLOSERS: &[&[u8]] = &[
    b"[/AVAILABLE_TOOLS]",
    b"[/SYSTEM_PROMPT]",
    b"</AVAILABLE_TOOLS>",
    b"<|tool_list_end|>",
];

/// Longest role word looked at after a role-naming header.
const MAX_ROLE: usize = 32;

/// The first word of a header's role text (InternLM writes
/// `<|im_start|>system name=<|plugin|>`).
fn role_word(text: &[u8]) -> &[u8] {
    let text = text.trim_ascii();
    text.split(|&b| b == b' ').next().unwrap_or(text)
}

/// The role of the turn a marker opens, given the marker's bytes exactly
/// (as an opener matched them): `None` when they open no turn. The engine
/// asks this of every marker it reads, whichever opener read it.
pub fn turn_at(marker: &[u8]) -> Option<&'static str> {
    if !matches!(marker.first(), Some(b'<' | b'[')) {
        return None;
    }
    // most markers of a reply (`<tool_call>`, `<think>`) are no turn
    // header: their second byte already says so, without the list walk
    match marker.get(1) {
        Some(&b) if second_bytes()[usize::from(b)] => {}
        _ => return None,
    }
    let m = turn_markers().iter().find(|m| marker.starts_with(m.open))?;
    if m.then.is_empty() {
        return Some(m.role);
    }
    let rest = &marker[m.open.len()..];
    let rest = &rest[..rest.len().min(MAX_ROLE + m.then.len())];
    let end = scan::find(rest, 0, m.then).unwrap_or(rest.len());
    role_of(role_word(&rest[..end]))
}

/// Matches a turn header of [`turn_markers`] (one this opener reads) or a
/// tool-definition block at the start of `input`: another role's header
/// starts a verbatim span, the assistant's is markup.
fn header(input: &[u8], cx: &ProbeCx) -> Probe {
    let mut partial = false;
    for m in turn_markers().iter().filter(|m| m.read) {
        match scan::prefix(input, m.open) {
            Prefix::Full => {}
            Prefix::Partial => {
                partial = true;
                continue;
            }
            Prefix::No => continue,
        }
        let at = m.open.len();
        if m.then.is_empty() {
            return if m.role == "assistant" {
                Probe::Match(Action::Markup { len: at })
            } else {
                verbatim(at, turn_ends())
            };
        }
        let then = m.then;
        let rest = &input[at..];
        let Some(end) = scan::find(&rest[..rest.len().min(MAX_ROLE + then.len())], 0, then) else {
            if rest.len() < MAX_ROLE + then.len() && !cx.eof {
                return Probe::NeedMore;
            }
            return Probe::NotMarker;
        };
        let word = role_word(&rest[..end]);
        let assistant = role_of(word) == Some("assistant");
        if !assistant && !OTHER_ROLES.contains(&word) {
            // a role this module does not know
            return Probe::NotMarker;
        }
        let mut len = at + end + then.len();
        // the blank line Llama 3 writes after its header belongs to it (up
        // to two newlines, waited for while they may still arrive)
        if then != b"\n" {
            for _ in 0..2 {
                match input.get(len) {
                    Some(b'\n') => len += 1,
                    None if !cx.eof => return Probe::NeedMore,
                    _ => break,
                }
            }
        }
        return if assistant {
            Probe::Match(Action::Markup { len })
        } else {
            verbatim(len, turn_ends())
        };
    }
    for open in TOOL_BLOCKS {
        match scan::prefix(input, open) {
            Prefix::Full => return verbatim(open.len(), TOOL_BLOCK_ENDS),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    Probe::unmatched(partial, cx)
}

fn verbatim(header_len: usize, close: &'static [&'static [u8]]) -> Probe {
    Probe::Match(Action::Verbatim { header_len, close })
}

/// The second bytes of every `<` header and closer here (`<|`, `<s`, `<b`,
/// `<A`, `</`, and `<｜`'s first UTF-8 byte): any other `<` (a tag in
/// prose, `<tool_call>`) is declined at once, which keeps this opener off
/// the text scanner's common path.
fn may_be_angle(input: &[u8]) -> bool {
    matches!(
        input.get(1),
        None | Some(b'|' | b's' | b'b' | b'A' | b'/' | 0xEF)
    )
}

fn probe_angle(input: &[u8], cx: &ProbeCx) -> Probe {
    if !may_be_angle(input) {
        return Probe::NotMarker;
    }
    match header(input, cx) {
        Probe::NotMarker => closer(input, cx),
        p => p,
    }
}

fn probe_bracket(input: &[u8], cx: &ProbeCx) -> Probe {
    // `[INST]`, `[AVAILABLE_TOOLS]`, `[TOOL_RESULTS]`, `[SYSTEM_PROMPT]`
    // and their closers
    if !matches!(input.get(1), None | Some(b'I' | b'A' | b'T' | b'S' | b'/')) {
        return Probe::NotMarker;
    }
    match header(input, cx) {
        Probe::NotMarker => closer(input, cx),
        p => p,
    }
}

fn closer(input: &[u8], cx: &ProbeCx) -> Probe {
    super::shared::stray::probe_tokens(input, CLOSERS, cx)
}

/// The opening words of the tool sections chat templates write, when they
/// start a document (a prompt or a system message given alone).
const PROMPT_STARTS: &[&[u8]] = &[
    b"You have access to the following functions",
    b"You have access to the following tools",
    b"You have access to a set of tools",
    b"Given the following functions, please respond with a JSON",
    b"You are capable of executing available function",
    b"You are a model that can do function calling with the following functions",
    b"In addition to plain text responses, you can choose to call one or more of the provided functions",
    b"Here are the tools available in JSONSchema format",
    b"Here are the available tools",
    b"List of tools: ",
    b"You can use the following tools",
    b"Function:\ndef ",
    "你是一位函数组合专家".as_bytes(),
];

/// The sentences that follow a `# Tools` heading in chat templates.
const AFTER_TOOLS_HEADING: &[&[u8]] = &[
    b"You may call one or more ",
    b"You have access to",
    b"You are provided with function signatures",
    b"Here are the tools available",
    b"Here are the available tools",
    b"Here is the list of tools",
    b"## functions",
    b"## Functions",
];

/// Markdown headings chat templates open their tool sections with.
const TOOLS_HEADINGS: &[&[u8]] = &[b"# Tools", b"## Tools", b"## Available Tools"];

/// How far past a `# Tools` heading its template sentence is looked for.
const HEADING_WINDOW: usize = 256;

fn probe_prompt_start(input: &[u8], cx: &ProbeCx) -> Probe {
    if cx.doc_start {
        let mut partial = false;
        for p in PROMPT_STARTS {
            match scan::prefix(input, p) {
                Prefix::Full => return verbatim(0, turn_ends()),
                Prefix::Partial => partial = true,
                Prefix::No => {}
            }
        }
        if partial && !cx.eof {
            return Probe::NeedMore;
        }
    }
    Probe::NotMarker
}

fn probe_tools_heading(input: &[u8], cx: &ProbeCx) -> Probe {
    let mut partial = false;
    for h in TOOLS_HEADINGS {
        match scan::prefix(input, h) {
            Prefix::Full => {}
            Prefix::Partial => {
                partial = true;
                continue;
            }
            Prefix::No => continue,
        }
        let after = &input[h.len()..];
        let window = &after[..after.len().min(HEADING_WINDOW)];
        // the heading is a line of its own, then blank lines
        let Some(nl) = window.iter().position(|&b| b != b' ' && b != b'\r') else {
            return wait_or_not(window.len() < HEADING_WINDOW, cx);
        };
        if window[nl] != b'\n' {
            continue;
        }
        let body = nl
            + window[nl..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(window.len() - nl);
        let sentence = &window[body..];
        let mut more = false;
        for s in AFTER_TOOLS_HEADING {
            match scan::prefix(sentence, s) {
                Prefix::Full => return verbatim(0, turn_ends()),
                Prefix::Partial => more = true,
                Prefix::No => {}
            }
        }
        if (more || body == window.len()) && window.len() < HEADING_WINDOW && !cx.eof {
            return Probe::NeedMore;
        }
    }
    wait_or_not(partial, cx)
}

fn wait_or_not(may_continue: bool, cx: &ProbeCx) -> Probe {
    if may_continue && !cx.eof {
        Probe::NeedMore
    } else {
        Probe::NotMarker
    }
}

/// Non-assistant turn headers and tool-definition blocks opened by `<`.
pub const ANGLE_TURNS: Opener = Opener::new(b"<", probe_angle).rank(Rank::Early);

/// Mistral's `[INST]`, `[AVAILABLE_TOOLS]`, `[TOOL_RESULTS]`,
/// `[SYSTEM_PROMPT]` and their closing tags.
pub const BRACKET_TURNS: Opener = Opener::new(b"[", probe_bracket).rank(Rank::Early);

/// A `# Tools` heading followed by a chat template's sentence.
pub const TOOLS_HEADING: Opener = Opener::new(b"#", probe_tools_heading)
    .line_start()
    .rank(Rank::Early);

/// A template's tool-section opening words at the start of a document.
/// The literal is the first byte of every [`PROMPT_STARTS`] entry's
/// group; the probe compares the whole sentence.
const fn prompt_start(first: &'static [u8]) -> Opener {
    Opener::new(first, probe_prompt_start)
        .line_start()
        .rank(Rank::Early)
}

/// Its openers, in probe order.
pub static OPENERS: &[Opener] = &[
    ANGLE_TURNS,
    BRACKET_TURNS,
    TOOLS_HEADING,
    prompt_start(b"You "),
    prompt_start(b"Given "),
    prompt_start(b"In addition"),
    prompt_start(b"Here are"),
    prompt_start(b"List of tools"),
    prompt_start(b"Function:"),
    prompt_start("你是".as_bytes()),
];

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::document;

    fn calls(input: &str) -> usize {
        document::parse(input.as_bytes(), &Config::default())
            .calls
            .len()
    }

    #[test]
    fn other_roles_turns_hold_no_calls() {
        let t = "<|im_start|>system\nUse <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> to call.<|im_end|>\n\
                 <|im_start|>user\n{\"name\": \"g\", \"arguments\": {\"a\": 1}}<|im_end|>\n\
                 <|im_start|>assistant\n<tool_call>{\"name\": \"h\", \"arguments\": {}}</tool_call><|im_end|>\n";
        let doc = document::parse(t.as_bytes(), &Config::default());
        let names: Vec<&str> = doc.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["h"]);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    }

    #[test]
    fn llama3_headers_by_role() {
        let t = "<|start_header_id|>user<|end_header_id|>\n\n{\"name\": \"f\", \"parameters\": {}}<|eot_id|>\
                 <|start_header_id|>assistant<|end_header_id|>\n\n{\"name\": \"g\", \"parameters\": {}}<|eot_id|>";
        let doc = document::parse(t.as_bytes(), &Config::default());
        let names: Vec<&str> = doc.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["g"]);
    }

    #[test]
    fn tool_prompt_without_turn_markers_is_text() {
        let t = "# Tools\n\nYou have access to the following functions:\n\n<tools>\n{\"name\": \"f\"}\n</tools>\n\n<tool_call>\n<function=example_function_name>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>\n";
        assert_eq!(calls(t), 0);
        // a heading of that name in prose, followed by a call, is prose
        let t = "# Tools\n\nI will use search.\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        assert_eq!(calls(t), 1);
    }

    #[test]
    fn prompt_opening_words_count_only_at_the_start() {
        let t = "Sure.\nYou have access to the following functions, so:\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        assert_eq!(calls(t), 1);
        let t = "You have access to the following functions:\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        assert_eq!(calls(t), 0);
    }

    #[test]
    fn markers_name_their_turns_roles() {
        use super::turn_at;
        assert_eq!(turn_at(b"<|im_start|>tool\n"), Some("tool"));
        assert_eq!(turn_at(b"<start_of_turn>model\n"), Some("assistant"));
        assert_eq!(
            turn_at(b"<|start_header_id|>ipython<|end_header_id|>\n\n"),
            Some("tool")
        );
        assert_eq!(turn_at("<｜User｜>".as_bytes()), Some("user"));
        assert_eq!(turn_at(b"[/INST]"), Some("assistant"));
        assert_eq!(
            turn_at(b"<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"),
            Some("tool")
        );
        assert_eq!(
            turn_at(b"<|start|>assistant<|channel|>final<|message|>"),
            Some("assistant")
        );
        // a role no table knows, and markup that opens no turn
        assert_eq!(turn_at(b"<|im_start|>narrator\n"), None);
        assert_eq!(turn_at(b"<|im_end|>"), None);
        assert_eq!(turn_at(b"<tool_call>"), None);
    }

    fn turns(doc: &document::Collector) -> Vec<Option<(u32, &'static str)>> {
        doc.calls
            .iter()
            .map(|c| c.turn.map(|t| (t.index, t.role)))
            .collect()
    }

    #[test]
    fn calls_carry_their_turn_at_every_chunking() {
        let t = "<|im_start|>system\nTools.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n\
                 <|im_start|>assistant\n<tool_call>{\"name\": \"h\", \"arguments\": {}}</tool_call><|im_end|>\n\
                 <|im_start|>tool\n{\"t\": 1}<|im_end|>\n<|im_start|>assistant\n<tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call>";
        let whole = document::parse(t.as_bytes(), &Config::default());
        assert_eq!(
            turns(&whole),
            [Some((2, "assistant")), Some((4, "assistant"))]
        );
        for size in 1..8 {
            let doc = document::parse_chunked(t.as_bytes().chunks(size), &Config::default());
            assert_eq!(doc, whole, "chunks of {size}");
        }
    }

    #[test]
    fn a_reply_with_its_own_headers_has_no_turns() {
        // an echoed assistant header, and harmony's header per message
        for t in [
            "<|im_start|>assistant\n<tool_call>{\"name\": \"h\", \"arguments\": {}}</tool_call>",
            "<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{}<|call|>",
            "<tool_call>{\"name\": \"h\", \"arguments\": {}}</tool_call><|im_end|>",
        ] {
            let doc = document::parse(t.as_bytes(), &Config::default());
            assert_eq!(turns(&doc), [None], "{t}");
        }
    }

    #[test]
    fn mistral_instructions_are_text() {
        let t = "[AVAILABLE_TOOLS][{\"type\": \"function\", \"function\": {\"name\": \"f\"}}][/AVAILABLE_TOOLS][INST]call [TOOL_CALLS]x[/INST][TOOL_CALLS]g[ARGS]{}";
        let doc = document::parse(t.as_bytes(), &Config::default());
        let names: Vec<&str> = doc.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["g"]);
    }
}
