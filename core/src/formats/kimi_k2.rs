//! `kimi-k2`: Moonshot Kimi K2 / K2.5 / K2-Thinking tool calls.
//!
//! ```text
//! <|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "README.md"}<|tool_call_end|><|tool_calls_section_end|>
//! ```
//!
//! The call id `functions.NAME:INDEX` names the function: the name is what
//! lies between `functions.` and the last `:` (dots, hyphens and underscores
//! allowed); the whole id string is kept as the call's provider id. An id
//! without its `:INDEX` (`functions.get_weather.0`) is not one the template
//! writes: that call is an error record (TLP-001), not a call, as vLLM and
//! SGLang skip it. Sloppy variants: the singular
//! `<|tool_call_section_begin|>` spelling, ids written `functions_NAME_N`
//! (the `.` and `:` as underscores, as llama.cpp logged K2.x writing them),
//! no `functions.` prefix
//! (`NAME:0`, as K2.6 sometimes writes), the section tokens missing (a
//! bare `<|tool_call_begin|>` starts a block) or the section end missing,
//! newlines around the id and the JSON, string arguments, a cut-off last
//! call. A section opened inside `<think>` ends the reasoning there (K2
//! Thinking writes its whole section before `</think>` and stops; vLLM's
//! `kimi_k2` reasoning parser ends the reasoning at the section token the
//! same way): the section is read as calls, the `</think>` after it is
//! markup. Single calls drafted inside `<think>` without a section are
//! reasoning. Stray Kimi tokens are markup. The JSON after
//! `<|tool_call_argument_begin|>` is read string-aware: a token written
//! inside a string (`"stop at <|tool_call_end|>"`) is text. Stray text
//! between the section-begin token and the first call on the same line
//! belongs to the section, not to the content. The tokens spelled by their
//! ids (`<|reserved_token_163595|>` …, a GGUF whose vocabulary lost their
//! names) are read the same way ([`KIMI_K2_RESERVED`]).
//!
//! With every token stripped (a server that detokenizes with
//! `skip_special_tokens`, Kimi K2.6 behind Blackbox), what is left of a
//! section is `functions.NAME:INDEX` and blanks, then the JSON arguments,
//! each call glued to the prose or the call before it: ` Let me check.
//! functions.read_file:0  {"path": "TODO.md"}   functions.git_status:1  {}`.
//! Such a run is read as calls ([`LEAD`]) only when the strongest evidence
//! holds: the id's whole shape, a JSON object that is valid as written,
//! and after it nothing but blanks up to the next such id or the end of
//! the output. The same id and object followed by prose is text.
//!
//! With only the opening tokens lost (Fireworks' K2.6, typeclaw #344),
//! a call is `NAME:INDEX<|tool_call_argument_begin|>{…}` closed by
//! `<|tool_call_end|>` or `<|tool_calls_section_end|>`: read as a call
//! when the id stands at a line's start (or right after the section
//! begin or a call's end) and the argument token and a JSON object follow
//! it ([`LINE_LEAD`]). An id with no argument token after it is text.

use super::ids;
use super::shared::call_id::{stripped_id_rest, STRIPPED_LIT};
use super::shared::evidence;
use super::shared::section::{self, CallOutcome, Section, SectionScanner, Tokens};
use super::shared::tag::block;
use super::Model;
use super::{BlockEnd, BlockFormat, BlockResult, Blocks, ParseCx, Probe, ProbeCx, Scanner};
use super::{Format, Lead, Opener};
use crate::call::ParsedCall;
use crate::render::{results, tools, CallSpec, Prompt};
use crate::repair::RepairOptions;
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::KIMI_K2,
    "Moonshot Kimi K2, K2-Instruct-0905, K2-Thinking, K2.5",
    &[
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
    ],
    "id functions.NAME:INDEX, then the JSON arguments",
)
.turns(&[
    super::TurnMarker::fixed(b"<|im_system|>", "system"),
    super::TurnMarker::fixed(b"<|im_user|>", "user"),
    super::TurnMarker::fixed(b"<|im_assistant|>", "assistant"),
])
.models(&[
    Model::new("kimi-k2", "<|im_assistant|>assistant<|im_middle|>"),
    Model::new(
        "kimi-k2-thinking",
        "<|im_assistant|>assistant<|im_middle|><think>",
    ),
    Model::new("kimi-k2.5", "<|im_assistant|>assistant<|im_middle|><think>"),
    Model::new("kimi-k2.6", "<|im_assistant|>assistant<|im_middle|><think>"),
])
.openers(&[OPENER, OPENER_RESERVED, OPENER_BRACE])
.lead(LEAD)
.line_lead(LINE_LEAD)
.render(Prompt::new("Moonshot Kimi K2", write_calls).template(tools::kimi_k2, results::kimi_k2));

/// `kimi-k2`: a tools section of `functions.NAME:N` calls with JSON arguments.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each, kimi_id};
    use crate::render::text::json_compact;

    let body = each(calls, "", |i, c| {
        format!(
            "<|tool_call_begin|>{}<|tool_call_argument_begin|>{}<|tool_call_end|>",
            kimi_id(c, i),
            json_compact(&args(c))
        )
    });
    format!("<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>")
}

const SECTION_BEGIN: &[&[u8]] = &[
    b"<|tool_calls_section_begin|>",
    b"<|tool_call_section_begin|>",
];
const CALL_BEGIN: &[u8] = b"<|tool_call_begin|>";
const ARG_BEGIN: &[u8] = b"<|tool_call_argument_begin|>";
const CALL_END: &[u8] = b"<|tool_call_end|>";

/// The Kimi K2 section tokens.
pub static TOKENS: Tokens = Tokens {
    common: b"<|tool_call",
    call_begin: &[CALL_BEGIN],
    call_end: &[CALL_END],
    section_end: &[b"<|tool_calls_section_end|>", b"<|tool_call_section_end|>"],
    json_after: &[ARG_BEGIN],
    // a call whose `<|tool_call_begin|>` was lost: its id, then the
    // argument token, right after the section begin or a call's end
    implicit_after: &[
        b"<|tool_calls_section_begin|>",
        b"<|tool_call_section_begin|>",
        CALL_END,
    ],
    name_sep: &[ARG_BEGIN],
};

const STRAY: &[&[u8]] = &[
    b"<|tool_calls_section_end|>",
    b"<|tool_call_section_end|>",
    b"<|tool_call_end|>",
    b"<|tool_call_argument_begin|>",
];

/// The Kimi K2 section format.
pub static KIMI_K2: Section = Section {
    id: ids::KIMI_K2,
    tokens: &TOKENS,
    begin: SECTION_BEGIN,
    stray: STRAY,
    call: parse_call,
};

/// Any `<|tool_call…|>` token of Kimi K2.
pub const OPENER: Opener = Opener::new(b"<|tool_call", |i, cx| KIMI_K2.probe(i, cx));

/// The Kimi K2 tokens as a vocabulary that lost their names writes them:
/// by id, `<|reserved_token_163595|>` for `<|tool_calls_section_begin|>`
/// (Ollama's `huihui_ai/kimi-k2` GGUF). The ids are the K2 tokenizer's:
/// 163595 section begin, 163596 section end, 163597 call begin, 163598
/// argument begin, 163599 call end.
const RESERVED_SECTION_BEGIN: &[&[u8]] = &[b"<|reserved_token_163595|>"];
const RESERVED_ARG_BEGIN: &[u8] = b"<|reserved_token_163598|>";

/// The Kimi K2 section tokens spelled by id.
pub static RESERVED_TOKENS: Tokens = Tokens {
    common: b"<|reserved_token_1635",
    call_begin: &[b"<|reserved_token_163597|>"],
    call_end: &[b"<|reserved_token_163599|>"],
    section_end: &[b"<|reserved_token_163596|>"],
    json_after: &[RESERVED_ARG_BEGIN],
    implicit_after: &[],
    name_sep: &[],
};

/// The Kimi K2 section with its tokens spelled by id.
pub static KIMI_K2_RESERVED: Section = Section {
    id: ids::KIMI_K2,
    tokens: &RESERVED_TOKENS,
    begin: RESERVED_SECTION_BEGIN,
    stray: &[
        b"<|reserved_token_163596|>",
        b"<|reserved_token_163599|>",
        RESERVED_ARG_BEGIN,
    ],
    call: parse_reserved_call,
};

/// A Kimi K2 token spelled by id (`<|reserved_token_16359N|>`).
pub const OPENER_RESERVED: Opener = Opener::new(b"<|reserved_token_1635", |i, cx| {
    KIMI_K2_RESERVED.probe(i, cx)
});

/// The function name in a Kimi call id: `functions.` dropped, the `:INDEX`
/// suffix dropped; `None` when the id has no `:INDEX` suffix.
pub fn name_from_id(id: &str) -> Option<String> {
    let s = id.trim();
    if let Some(rest) = s.strip_prefix("functions_") {
        // `functions_NAME_INDEX`: the id with `.` and `:` written as `_`
        // (llama.cpp logs of K2.x); the index is the digits after the last `_`
        let k = rest.rfind('_')?;
        let index = &rest[k + 1..];
        return (k > 0 && !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
            .then(|| rest[..k].to_string());
    }
    let s = s.strip_prefix("functions.").unwrap_or(s);
    let k = s.rfind(':')?;
    let index = &s[k + 1..];
    (!index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s[..k].trim().to_string())
}

fn parse_call(body: &[u8], off: usize, cut: bool, opts: &RepairOptions) -> CallOutcome {
    parse_call_after(ARG_BEGIN, body, off, cut, opts)
}

fn parse_reserved_call(body: &[u8], off: usize, cut: bool, opts: &RepairOptions) -> CallOutcome {
    parse_call_after(RESERVED_ARG_BEGIN, body, off, cut, opts)
}

/// One call body: its id, then `arg_begin` (or, sloppily, straight JSON)
/// and the JSON arguments.
fn parse_call_after(
    arg_begin: &[u8],
    body: &[u8],
    off: usize,
    cut: bool,
    opts: &RepairOptions,
) -> CallOutcome {
    let (id_end, args_at) = match scan::find(body, 0, arg_begin) {
        Some(k) => (k, k + arg_begin.len()),
        None => match memchr::memchr(b'{', body) {
            Some(k) => (k, k),
            None => {
                if cut {
                    return Err(section::truncated(ids::KIMI_K2, off + body.len()));
                }
                (body.len(), body.len())
            }
        },
    };
    let id = crate::scan::lossy(scan::trim(&body[..id_end])).into_owned();
    let Some(name) = name_from_id(&id) else {
        return Err(section::err(
            "TLP-001",
            "kimi-k2 call id has no :INDEX (the template writes functions.NAME:INDEX)",
            off,
        ));
    };
    if !name.chars().any(|c| c.is_alphanumeric() || c == '_') {
        return Err(section::err(
            "TLP-001",
            "kimi-k2 call has no function name",
            off,
        ));
    }
    let (arguments, repairs) =
        section::json_arguments(&body[args_at..], off + args_at, cut, ids::KIMI_K2, opts)?;
    Ok(ParsedCall {
        id: Some(id),
        repairs,
        ..ParsedCall::new(name, arguments, ids::KIMI_K2)
    })
}

/// A call whose special tokens were stripped: `functions.NAME:INDEX`,
/// blanks, then the `{` the engine stopped at.
pub const LEAD: Lead = Lead {
    lit: STRIPPED_LIT,
    rest: b"{",
    word: true,
    probe: probe_stripped,
    between: Some(stripped_id_rest),
};

/// `{` inside a line, so that the engine stops there under `--format
/// kimi-k2` too and looks at the [`LEAD`] before it; a `{` alone starts
/// nothing.
pub const OPENER_BRACE: Opener = Opener::new(b"{", |_, _| Probe::NotMarker);

/// The probe at `functions.` once the engine found the lead's `{`: the
/// call is held until what follows its object is known.
fn probe_stripped(input: &[u8], _cx: &ProbeCx) -> Probe {
    match memchr::memchr(b'{', input) {
        Some(k) => block(
            &KIMI_K2_STRIPPED,
            StrippedScan {
                json_at: k,
                json: JsonEnd::strict(),
                end: None,
            },
        ),
        None => Probe::NotMarker,
    }
}

/// Finds where a stripped call ends: its JSON object, valid as written,
/// then only blanks up to another stripped call id or the end of the
/// output. Anything else makes it text.
struct StrippedScan {
    /// Where the JSON object starts in the block.
    json_at: usize,
    json: JsonEnd,
    /// Where the object ends, once found (and valid).
    end: Option<usize>,
}

impl Scanner for StrippedScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let not_call = BlockEnd::NotBlock {
            text_len: STRIPPED_LIT.len(),
        };
        let end = match self.end {
            Some(end) => end,
            None => {
                let end = match self.json.scan(&block[self.json_at..]) {
                    End::At(e) => self.json_at + e,
                    End::More if !eof => return BlockEnd::More,
                    End::More | End::NotValue => return not_call,
                };
                let valid = serde_json::from_slice::<serde_json::Value>(&block[self.json_at..end])
                    .is_ok_and(|v| v.is_object());
                if !valid {
                    return not_call;
                }
                self.end = Some(end);
                end
            }
        };
        let next = scan::skip_space(block, end);
        if next == block.len() {
            return if eof {
                BlockEnd::done(end)
            } else {
                BlockEnd::More
            };
        }
        match scan::prefix(&block[next..], STRIPPED_LIT) {
            Prefix::Full => BlockEnd::done(end),
            Prefix::Partial if !eof => BlockEnd::More,
            _ => not_call,
        }
    }

    fn consumed(&self) -> usize {
        STRIPPED_LIT.len()
    }
}

/// The Kimi K2 calls whose special tokens were stripped.
pub static KIMI_K2_STRIPPED: Blocks = Blocks::new(ids::KIMI_K2, parse_stripped);

/// `functions.NAME:INDEX`, blanks, the JSON arguments.
fn parse_stripped(block: &[u8], cx: &ParseCx) -> BlockResult {
    let opts = cx.cfg.repair_options();
    match parse_call(block, 0, cx.cut, &opts) {
        Ok(call) => BlockResult::one(ParsedCall {
            end: block.len(),
            ..call
        }),
        Err(e) => BlockResult::failed(e),
    }
}

/// A call whose opening tokens were lost (Fireworks' K2.6, typeclaw
/// #344): `NAME:INDEX` (or `functions.NAME:INDEX`) at a line's start,
/// then `<|tool_call_argument_begin|>` and the JSON arguments, closed by
/// `<|tool_call_end|>`, `<|tool_calls_section_end|>` or the end. The
/// argument token right after the id is what makes it a call: the id
/// alone stays text. The run is held from the line's start until the
/// token (or anything else) decides, at most an id's length.
pub const LINE_LEAD: Lead = Lead {
    lit: b"",
    rest: ARG_BEGIN,
    word: false,
    probe: probe_headless,
    between: Some(stripped_id_rest),
};

/// The probe at a line's `NAME:INDEX` once the engine found the argument
/// token after it: a section block read from the id when a JSON object
/// follows the token.
fn probe_headless(input: &[u8], cx: &ProbeCx) -> Probe {
    match section::implicit_call(input, &TOKENS) {
        section::Hit::Full(_) => block(&KIMI_K2_HEADLESS, SectionScanner::new(&TOKENS, 0)),
        section::Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// Kimi K2 calls whose opening tokens were lost ([`LINE_LEAD`]); shown as
/// an example of the format (`For example:` before it) they are text.
pub static KIMI_K2_HEADLESS: Blocks = Blocks::new(ids::KIMI_K2, |block, cx| {
    if evidence::example_lead(cx.before) {
        return BlockResult::text();
    }
    KIMI_K2.parse(block, cx)
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripped_ids_are_told_by_their_whole_shape() {
        use crate::formats::shared::call_id::is_stripped_id;
        assert_eq!(stripped_id_rest(b"read_file:0  "), Prefix::Full);
        assert_eq!(stripped_id_rest(b"mcp.github.list_prs:12"), Prefix::Full);
        assert_eq!(stripped_id_rest(b"read_fi"), Prefix::Partial);
        assert_eq!(stripped_id_rest(b"read_file:"), Prefix::Partial);
        assert_eq!(stripped_id_rest(b""), Prefix::Partial);
        assert_eq!(stripped_id_rest(b"read_file: "), Prefix::No);
        assert_eq!(stripped_id_rest(b"read file:0 "), Prefix::No);
        assert_eq!(stripped_id_rest(b":0 "), Prefix::No);
        assert_eq!(stripped_id_rest(b"f:0\n"), Prefix::No);
        assert_eq!(stripped_id_rest(b"f:0          "), Prefix::No);
        assert!(is_stripped_id(b"functions.get_weather:0"));
        assert!(!is_stripped_id(b"functions.get_weather"));
        assert!(!is_stripped_id(b"get_weather:0"));
    }

    /// The calls' names and the text of `input`, read whole and at every
    /// chunk size from 1 to 24 (which must agree).
    fn read(input: &str) -> (Vec<String>, String) {
        use crate::config::Config;
        let cfg = Config::default();
        let batch = crate::document::parse(input.as_bytes(), &cfg);
        for size in 1..=24 {
            let chunks = input.as_bytes().chunks(size);
            let chunked = crate::document::parse_chunked(chunks, &cfg);
            assert_eq!(chunked.calls, batch.calls, "calls at chunk size {size}");
            assert_eq!(chunked.text, batch.text, "text at chunk size {size}");
        }
        let names = batch.calls.iter().map(|c| c.name.clone()).collect();
        (names, String::from_utf8_lossy(&batch.text).into_owned())
    }

    #[test]
    fn calls_whose_opening_tokens_were_lost() {
        let arg = "<|tool_call_argument_begin|>";
        let end = "<|tool_calls_section_end|>";
        // typeclaw #344: one call a line, each closed by the section end
        let two = format!("reply:0{arg}{{\"t\": 1}}{end}\nfunctions.reply:1{arg}{{\"t\": 2}}{end}");
        assert_eq!(
            read(&two),
            (vec!["reply".into(), "reply".into()], "\n".into())
        );
        // after prose on the line before; closed by a call end, or the end
        let after = format!("Sure.\nreply:0{arg}{{}}<|tool_call_end|>\nreply:1{arg}{{}}");
        assert_eq!(read(&after).0, ["reply", "reply"]);
        // no end token at all: the next call's id ends the one before
        let open = format!("reply:0{arg}{{\"t\": 1}}\nreply:1{arg}{{\"t\": 2}}\n");
        assert_eq!(
            read(&open),
            (vec!["reply".into(), "reply".into()], String::new())
        );
        // right after the section begin, and after a call's end
        let section = format!(
            "<|tool_calls_section_begin|>a:0{arg}{{}}<|tool_call_end|>b:1{arg}{{}}<|tool_call_end|>{end}"
        );
        assert_eq!(
            read(&section),
            (vec!["a".into(), "b".into()], String::new())
        );
    }

    #[test]
    fn ids_without_their_token_or_inside_a_line_are_text() {
        let arg = "<|tool_call_argument_begin|>";
        for input in [
            "reply:0 {\"t\": 1}\nreply:1\n".to_string(),
            format!("Write reply:0{arg}{{}} to call it."),
            format!("reply{arg}{{}}"),
            format!("  reply:0{arg}{{}}"),
            format!("reply:0{arg}not JSON"),
            format!("For example:\nreply:0{arg}{{}}<|tool_call_end|>"),
        ] {
            assert_eq!(read(&input).0, Vec::<String>::new(), "{input:?}");
        }
    }

    #[test]
    fn names_from_ids() {
        let name = |id: &str| name_from_id(id);
        assert_eq!(name("functions.read_file:0").as_deref(), Some("read_file"));
        assert_eq!(
            name("functions.mcp.github.list_prs:3").as_deref(),
            Some("mcp.github.list_prs")
        );
        assert_eq!(name(" search:12 ").as_deref(), Some("search"));
        assert_eq!(name("functions.get-weather"), None);
        assert_eq!(name("functions.invalid.0"), None);
        assert_eq!(name("ns:tool"), None);
        assert_eq!(name("functions.f:"), None);
        assert_eq!(name("functions_Bash_2").as_deref(), Some("Bash"));
        assert_eq!(
            name("functions_get_weather_10").as_deref(),
            Some("get_weather")
        );
        assert_eq!(name("functions_get_weather"), None);
        assert_eq!(name("functions__3"), None);
    }
}
