//! The format table: every tool-call dialect the engine knows, in one place.
//!
//! Each format lives in its own module named after its id. A format
//! contributes *openers* (literal markers plus a probe that decides whether a
//! marker really begins at a position) and a [`BlockFormat`] that finds where
//! its block ends and parses it. `toolcall formats`, auto-detection, docs and
//! tests all read [`FORMATS`] and [`OPENERS`].

use crate::call::ParsedCall;
use crate::engine::Config;
use crate::scan::balance::{JsonEnd, PyEnd};
use crate::scan::{self, Prefix};

pub mod bare_json;
// special-token formats (mistral, deepseek, kimi, step3, harmony)
pub mod deepseek_dsml;
pub mod deepseek_v3;
pub mod deepseek_v3_1;
pub mod fenced;
pub mod functionary;
pub mod glm4_moe;
pub mod harmony;
pub mod hermes;
pub mod kimi_k2;
pub mod kimi_k3;
pub mod markup;
pub mod mistral;
pub mod qwen3_coder_xml;
pub mod reasoning;
// fmt-d: granite, cohere, internlm, jamba/minimax, minimax-m2/m3, seed-oss,
// longcat, nemotron-toolcall, inkling, hunyuan-v4, ernie45
pub mod cohere;
pub mod ernie45;
pub mod granite;
pub mod hunyuan_v4;
pub mod inkling;
pub mod internlm;
pub mod jamba;
pub mod longcat;
pub mod minimax;
pub mod minimax_m2;
pub mod minimax_m3;
pub mod nemotron_toolcall;
pub mod section;
pub mod seed_oss;
pub mod step3;
// pythonic family and friends (fmt-c)
pub mod apertus;
pub mod functionary_v3_2;
pub mod gemini_function_call;
pub mod lfm2;
pub mod llama_python_tag;
pub mod olmo3;
pub mod phi4_mini;
pub mod pythonic;
pub mod sarashina;

/// What `toolcall formats` prints about a format.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct FormatInfo {
    /// The format id (`--format ID`).
    pub id: &'static str,
    /// The model families that write it.
    pub families: &'static str,
    /// Its markers.
    pub markers: &'static [&'static str],
    /// One line on the body.
    pub body: &'static str,
}

/// Every format, in the order `toolcall formats` lists them.
pub static FORMATS: &[FormatInfo] = &[
    hermes::INFO,
    qwen3_coder_xml::INFO,
    glm4_moe::INFO,
    functionary::INFO,
    fenced::TOOL_CALL_INFO,
    fenced::JSON_INFO,
    bare_json::INFO,
    bare_json::LLAMA3_INFO,
    bare_json::XLAM_INFO,
    // fmt-d
    granite::INFO,
    cohere::INFO,
    internlm::INFO,
    jamba::INFO,
    minimax::INFO,
    minimax_m2::INFO,
    minimax_m3::INFO,
    seed_oss::INFO,
    longcat::INFO,
    nemotron_toolcall::INFO,
    inkling::INFO,
    hunyuan_v4::INFO,
    ernie45::INFO,
    // special-token formats
    mistral::INFO,
    deepseek_v3::INFO,
    deepseek_v3_1::INFO,
    deepseek_dsml::INFO,
    kimi_k2::INFO,
    kimi_k3::INFO,
    step3::INFO,
    harmony::INFO,
    // pythonic family and friends (fmt-c)
    pythonic::INFO,
    lfm2::INFO,
    olmo3::INFO,
    llama_python_tag::INFO,
    phi4_mini::INFO,
    functionary_v3_2::INFO,
    gemini_function_call::INFO,
    sarashina::INFO,
    apertus::INFO,
];

/// The static id string for a format id given at run time.
pub fn static_id(id: &str) -> Option<&'static str> {
    FORMATS.iter().find(|f| f.id == id).map(|f| f.id)
}

/// Context for a probe.
pub struct ProbeCx<'a> {
    /// The position is the first non-blank byte of a line.
    pub line_start: bool,
    /// The position is the very start of the document.
    pub doc_start: bool,
    /// No more input will come.
    pub eof: bool,
    /// A byte armed by an earlier [`Action::Arm`] in this document.
    pub armed: Option<u8>,
    /// The engine settings.
    pub cfg: &'a Config,
}

/// A probe's answer.
pub enum Probe {
    /// No marker begins here.
    NotMarker,
    /// Cannot tell yet: hold these bytes back until more arrive.
    NeedMore,
    /// A marker begins here.
    Match(Action),
}

/// What a marker starts.
pub enum Action {
    /// A candidate call block, held back until its end is found.
    Block {
        /// The block's format.
        fmt: &'static dyn BlockFormat,
        /// Its initial scanner state.
        state: BlockState,
    },
    /// A reasoning span.
    Reasoning {
        /// Length of the opening marker.
        open_len: usize,
        /// The markers that end it.
        close: &'static [Close],
    },
    /// Control tokens that are neither text nor a call.
    Markup {
        /// Their length.
        len: usize,
    },
    /// Markup that also makes `byte` a marker candidate anywhere in a line
    /// for the rest of the document (a format whose markers are glued to
    /// prose once the document has shown it is in that format).
    Arm {
        /// Length of the markup.
        len: usize,
        /// The byte to look for from now on.
        byte: u8,
    },
    /// An ordinary code fence: text in which no markers are looked for.
    Fence {
        /// Length of the opening fence line, newline included.
        header_len: usize,
        /// Number of backticks that close it.
        ticks: usize,
    },
    /// Inline code: text in which no markers are looked for.
    InlineCode {
        /// Number of backticks that close it.
        ticks: usize,
    },
}

/// A marker that ends a reasoning span.
pub struct Close {
    /// The marker. One ending in `:` is a tag with a suffix: the marker
    /// runs on to the `>` that ends `SUFFIX>` (up to 80 bytes, no blanks).
    pub lit: &'static [u8],
    /// Whether the marker belongs to the span (else it starts what follows).
    pub consume: bool,
}

/// Scanner state a block keeps between chunks. Formats use the fields they need.
#[derive(Clone, Debug, Default)]
pub struct BlockState {
    /// A JSON end scanner.
    pub json: JsonEnd,
    /// A Python expression end scanner.
    pub py: PyEnd,
    /// A resume position.
    pub pos: usize,
    /// A phase number.
    pub phase: u8,
    /// A remembered position.
    pub mark: usize,
    /// Another remembered number.
    pub aux: usize,
}

/// Where a block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEnd {
    /// Not known yet.
    More,
    /// The block is `len` bytes; `cut` when the input ended inside it.
    Done {
        /// Length of the block.
        len: usize,
        /// The input ended before the block's end marker.
        cut: bool,
    },
    /// It turned out not to be a block: emit `text_len` bytes as text.
    NotBlock {
        /// How many bytes are plain text.
        text_len: usize,
    },
}

/// Context for parsing a complete block.
pub struct ParseCx<'a> {
    /// The engine settings.
    pub cfg: &'a Config,
    /// The input ended inside the block.
    pub cut: bool,
}

/// A problem found in a block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockError {
    /// A `TLP-00N` code.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// Offset of the fault within the block.
    pub offset: usize,
    /// What probably caused it.
    pub hint: Option<String>,
}

/// What a block held.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockResult {
    /// The calls, in order (each with its end offset in the block).
    pub calls: Vec<ParsedCall>,
    /// Problems. A block with no calls is given back as text.
    pub errors: Vec<BlockError>,
}

impl BlockResult {
    /// No calls and no errors: plain text.
    pub fn text() -> Self {
        BlockResult::default()
    }

    /// One error and no calls.
    pub fn error(code: &'static str, message: impl Into<String>, offset: usize) -> Self {
        BlockResult {
            calls: Vec::new(),
            errors: vec![BlockError {
                code,
                message: message.into(),
                offset,
                hint: None,
            }],
        }
    }

    /// The error a block cut off by the end of input gets.
    pub fn truncated(format: &str, offset: usize) -> Self {
        BlockResult {
            calls: Vec::new(),
            errors: vec![BlockError {
                code: "TLP-002",
                message: format!("{format} call cut off at end of input"),
                offset,
                hint: Some(
                    "the output ends inside the call: raise the model's token limit (max_tokens / num_predict)"
                        .into(),
                ),
            }],
        }
    }
}

/// A format's block scanner and parser.
pub trait BlockFormat: Sync {
    /// The format id reported by default.
    fn id(&self) -> &'static str;
    /// Finds where the block ends. `block` starts at the marker's first byte
    /// and grows between calls; `eof` means it will not grow again (then the
    /// answer must not be `More`). The answer must depend only on the bytes,
    /// never on how they were chunked.
    fn scan(&self, block: &[u8], st: &mut BlockState, eof: bool) -> BlockEnd;
    /// Parses a complete block.
    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult;
    /// The call's name, once the first bytes of the block make it certain
    /// (for an early `tool_call_start` while the body is still arriving).
    /// `head` is at most [`EARLY_NAME_WINDOW`] bytes; the answer must not
    /// change once it is `Some` as `head` grows.
    fn early_name(&self, _head: &[u8]) -> Option<String> {
        None
    }

    /// A byte that becomes a marker candidate anywhere in a line once a
    /// block of this format has ended (as [`Action::Arm`] does): a format
    /// whose segments the model glues onto what came before.
    fn arms_after(&self) -> Option<u8> {
        None
    }
}

/// How many bytes of a block [`BlockFormat::early_name`] may look at.
pub const EARLY_NAME_WINDOW: usize = 512;

/// The value of the first top-level `"name"` key (or `"function": {"name"`)
/// of a JSON object starting at or after `from`, once its string has closed.
pub fn early_json_name(head: &[u8], from: usize) -> Option<String> {
    let s = scan::skip_space(head, from);
    if head.get(s) != Some(&b'{') {
        return None;
    }
    let mut depth = 0u32;
    let mut i = s;
    let mut in_function = false;
    while i < head.len() {
        match head[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                in_function = false;
                if depth == 0 {
                    return None;
                }
            }
            b'[' => return None,
            b'"' => {
                let (key, end) = json_string(head, i)?;
                i = end;
                let after = scan::skip_space(head, i);
                if head.get(after) != Some(&b':') {
                    continue;
                }
                let v = scan::skip_space(head, after + 1);
                let at_name_level = depth == 1 || (depth == 2 && in_function);
                if at_name_level && key == "name" {
                    if head.get(v) != Some(&b'"') {
                        return None;
                    }
                    let (name, _) = json_string(head, v)?;
                    let name = name.trim().to_string();
                    return (!name.is_empty()).then_some(name);
                }
                if depth == 1 && key == "function" && head.get(v) == Some(&b'{') {
                    in_function = true;
                } else if depth == 1 && head.get(v) == Some(&b'"') {
                    // skip a string value
                    let (_, e) = json_string(head, v)?;
                    i = e;
                    continue;
                }
                i = after + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A JSON string starting at `at` (a `"`): its decoded value and the index
/// after its closing quote; `None` while it has not closed.
fn json_string(b: &[u8], at: usize) -> Option<(String, usize)> {
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => {
                let inner = &b[at + 1..i];
                let v = if memchr::memchr(b'\\', inner).is_none() {
                    std::str::from_utf8(inner).ok()?.to_string()
                } else {
                    let raw = std::str::from_utf8(&b[at..=i]).ok()?;
                    serde_json::from_str(raw).ok()?
                };
                return Some((v, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

/// One literal that may begin a marker.
pub struct Opener {
    /// The literal.
    pub lit: &'static [u8],
    /// Compare ignoring ASCII case.
    pub ci: bool,
    /// Only at the first non-blank byte of a line.
    pub line_start: bool,
    /// The format ids this opener can produce (empty: structural, always on).
    pub formats: &'static [&'static str],
    /// Decides what begins here once the literal matched.
    pub probe: fn(&[u8], &ProbeCx) -> Probe,
}

/// Every opener, most specific first.
pub static OPENERS: &[Opener] = &[
    // reasoning
    reasoning::THINK,
    reasoning::THINKING,
    reasoning::MISTRAL_THINK,
    reasoning::COHERE_THINKING,
    reasoning::SEED_THINK,
    reasoning::SUFFIXED_THINK,
    // fmt-d, before hermes: `<TOOLCALL>` (hermes takes `<toolcall>` in any case)
    nemotron_toolcall::OPENER,
    // tags
    hermes::OPENER_TOOL_CALL,
    hermes::OPENER_TOOL_DASH_CALL,
    hermes::OPENER_TOOLCALL,
    hermes::OPENER_STRAY_CLOSE,
    functionary::OPENER,
    functionary::OPENER_NAME_ATTR,
    // fmt-d
    granite::OPENER_SPECIAL,
    granite::OPENER_FUNCTION_CALL,
    granite::OPENER_STRAY_CLOSE,
    granite::OPENER_TOOLS,
    granite::OPENER_TOOL,
    granite::OPENER_RESPONSE,
    granite::OPENER_JSON,
    granite::OPENER_XML,
    cohere::OPENER_ACTION,
    cohere::OPENER_STRAY_END,
    cohere::OPENER_ACTION_LINE,
    internlm::OPENER,
    internlm::OPENER_STRAY_END,
    jamba::OPENER,
    jamba::OPENER_STRAY_CLOSE,
    hunyuan_v4::OPENER_CALL,
    hunyuan_v4::OPENER_STRAY_CLOSE,
    minimax_m2::OPENER,
    minimax_m2::OPENER_STRAY_CLOSE,
    minimax_m3::OPENER,
    minimax_m3::OPENER_LINE,
    minimax_m3::OPENER_TOOL_CALL,
    seed_oss::OPENER,
    seed_oss::OPENER_STRAY_CLOSE,
    longcat::OPENER,
    longcat::OPENER_STRAY_CLOSE,
    nemotron_toolcall::OPENER_STRAY_CLOSE,
    inkling::OPENER,
    inkling::OPENER_STRAY_END,
    granite::OPENER_TOOL_CALL,
    ernie45::OPENER_TOOL_CALL,
    ernie45::OPENER_STRAY_CLOSE,
    ernie45::OPENER_STRAY_THINK_END,
    ernie45::OPENER_RESPONSE,
    // special-token formats (before markup::END_TOKENS: harmony owns
    // <|end|>, <|call|>, <|return|> inside its messages)
    mistral::OPENER,
    harmony::OPENER_START,
    harmony::OPENER_CHANNEL,
    harmony::OPENER_STRAY,
    deepseek_dsml::OPENER,
    deepseek_dsml::OPENER_CLOSE,
    deepseek_v3::OPENER,
    step3::OPENER,
    step3::OPENER_INVOKE,
    kimi_k2::OPENER,
    kimi_k3::OPENER_OPEN,
    kimi_k3::OPENER_CLOSE,
    // pythonic family and friends (fmt-c)
    gemini_function_call::OPENER_CHANNEL,
    gemini_function_call::OPENER_GEMMA4,
    gemini_function_call::OPENER_FUNCTION_GEMMA,
    gemini_function_call::OPENER_STRAY_GEMMA4,
    gemini_function_call::OPENER_STRAY_FUNCTION_GEMMA,
    gemini_function_call::OPENER_STRAY_CHANNEL,
    pythonic::OPENER_PYTHON_START,
    pythonic::OPENER_PYTHON_END,
    pythonic::OPENER_LIST,
    lfm2::OPENER,
    lfm2::OPENER_STRAY_END,
    olmo3::OPENER,
    olmo3::OPENER_STRAY_CLOSE,
    llama_python_tag::OPENER,
    phi4_mini::OPENER,
    functionary_v3_2::OPENER,
    functionary_v3_2::OPENER_ARMED,
    sarashina::OPENER,
    sarashina::OPENER_BARE,
    apertus::OPENER,
    apertus::OPENER_STRAY_SUFFIX,
    // structural
    fenced::FENCE,
    fenced::INLINE,
    bare_json::OBJECT,
    bare_json::ARRAY,
    bare_json::INLINE_OBJECT,
    markup::END_TOKENS,
    markup::ANSWER_TAGS,
];

/// The openers whose literal can begin with byte `b`, in table order (an
/// index built once, so a probe does not walk the whole table).
fn openers_for(b: u8) -> &'static [&'static Opener] {
    static INDEX: std::sync::OnceLock<Vec<Vec<&'static Opener>>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index: Vec<Vec<&'static Opener>> = vec![Vec::new(); 256];
        for op in OPENERS {
            let lf = op.lit[0];
            index[lf as usize].push(op);
            let other = if lf.is_ascii_lowercase() {
                lf.to_ascii_uppercase()
            } else {
                lf.to_ascii_lowercase()
            };
            if op.ci && other != lf {
                index[other as usize].push(op);
            }
        }
        index
    });
    &index[b as usize]
}

/// Bytes that can begin a line-start-only opener (besides `<`, `[`, `` ` ``).
#[inline]
pub fn is_line_start_byte(b: u8) -> bool {
    // fmt-d: `A` (Command R `Action:`), `]` (MiniMax-M3 namespace token)
    matches!(b, b'{' | b'>' | b'f' | b'A' | b']')
}

/// Decides what begins at the start of `input`, trying every opener whose
/// literal matches, in table order: the first definite answer wins, and a
/// "need more" from an earlier opener holds everything back.
pub fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let Some(&first) = input.first() else {
        return Probe::NotMarker;
    };
    for &op in openers_for(first) {
        if op.line_start && !cx.line_start {
            continue;
        }
        if !op.formats.is_empty() && !op.formats.iter().any(|f| cx.cfg.allows(f)) {
            continue;
        }
        let p = if op.ci {
            scan::prefix_ci(input, op.lit)
        } else {
            scan::prefix(input, op.lit)
        };
        match p {
            Prefix::No => continue,
            Prefix::Partial => {
                if cx.eof {
                    continue;
                }
                return Probe::NeedMore;
            }
            Prefix::Full => {}
        }
        match (op.probe)(input, cx) {
            Probe::NotMarker => continue,
            Probe::Match(Action::Block { fmt, state }) if !cx.cfg.allows_block(fmt) => {
                let _ = state;
                continue;
            }
            other => return other,
        }
    }
    if cx.doc_start && cx.line_start && doc_start_probes(cx.cfg) {
        if cx.cfg.is_only("functionary-v3.2") {
            return functionary_v3_2::probe_first(input, cx);
        }
        return pythonic::probe_bare(input, cx);
    }
    Probe::NotMarker
}

/// Whether the start of the document is probed whatever its first byte,
/// for a reply whose first marker may be missing there: a bare pythonic
/// call without its list brackets, or (forced only) `functionary-v3.2`'s
/// first segment without `>>>`.
#[inline]
pub fn doc_start_probes(cfg: &crate::engine::Config) -> bool {
    cfg.allows("pythonic") || cfg.is_only("functionary-v3.2")
}

impl Config {
    /// True when a block of this format may be reported.
    pub fn allows_block(&self, fmt: &dyn BlockFormat) -> bool {
        match &self.format {
            crate::engine::FormatChoice::Auto => true,
            crate::engine::FormatChoice::Only(f) => {
                fmt.id() == f || fmt_aliases(fmt.id()).contains(&f.as_str())
            }
        }
    }
}

/// Other ids a block format may be forced under.
fn fmt_aliases(id: &str) -> &'static [&'static str] {
    match id {
        // fmt-d: one `<tool_calls>` tag, two bodies; closed `<function_call>`
        "jamba" => &["minimax"],
        "minimax" => &["jamba"],
        "granite" => &["hermes"],
        "mistral" => &["xlam"],
        "deepseek-v3" => &["deepseek-v3.1"],
        "bare-json" => &["llama3-json", "xlam", "gemini-function-call"],
        // fmt-c: JSON after <|python_tag|>; Gemma tool_code fences
        "llama3-json" => &["llama-python-tag"],
        "fenced-tool-call" => &["gemini-function-call"],
        _ => &[],
    }
}

/// Shared helper: a block that is a tag, a JSON body and an optional closing
/// tag. Scans for the JSON value's end, then skips blanks and an optional
/// `close` tag (ASCII case ignored). Returns `Done` with `cut` when the input
/// ended first.
pub fn scan_json_then_close(
    block: &[u8],
    body_start: usize,
    close: &[u8],
    st: &mut BlockState,
    eof: bool,
) -> BlockEnd {
    use crate::scan::balance::End;
    if st.phase == 0 {
        let s = scan::skip_space(block, body_start.max(st.pos));
        if s == block.len() {
            st.pos = s;
            return if eof {
                BlockEnd::Done {
                    len: block.len(),
                    cut: true,
                }
            } else {
                BlockEnd::More
            };
        }
        st.mark = s;
        st.phase = 1;
    }
    if st.phase == 1 {
        match st.json.scan(&block[st.mark..]) {
            End::At(k) => {
                st.aux = st.mark + k;
                st.phase = 2;
            }
            End::More => {
                return if eof {
                    BlockEnd::Done {
                        len: block.len(),
                        cut: true,
                    }
                } else {
                    BlockEnd::More
                };
            }
            End::NotValue => {
                st.aux = st.mark;
                st.phase = 2;
            }
        }
    }
    // phase 2: optional closing tag after blanks
    let after = st.aux;
    let s = scan::skip_space(block, after);
    match scan::prefix_ci(&block[s..], close) {
        Prefix::Full => BlockEnd::Done {
            len: s + close.len(),
            cut: false,
        },
        Prefix::Partial if !eof => BlockEnd::More,
        _ => {
            if s == block.len() && !eof {
                return BlockEnd::More;
            }
            BlockEnd::Done {
                len: after,
                cut: false,
            }
        }
    }
}

/// Turns a parsed JSON body into calls, with `end` set to `block_len`.
pub fn calls_from_json_body(
    body: &str,
    format: &'static str,
    ev: crate::call::Evidence,
    block_len: usize,
    body_offset: usize,
) -> BlockResult {
    use crate::call::{calls_from_owned, parse_json, Shape};
    let (value, repairs) = match parse_json(body) {
        Ok(v) => v,
        Err(e) => {
            return BlockResult::error(
                "TLP-003",
                format!(
                    "{format} body is not valid JSON and could not be repaired: {}",
                    e.message
                ),
                body_offset + e.offset.min(body.len()),
            )
        }
    };
    match calls_from_owned(value, ev) {
        Ok(parts) => BlockResult {
            calls: parts
                .into_iter()
                .map(|p| {
                    let mut reps = repairs.clone();
                    reps.extend(p.repairs);
                    for r in &mut reps {
                        r.offset += body_offset;
                    }
                    ParsedCall {
                        name: p.name,
                        arguments: p.arguments,
                        id: p.id,
                        format,
                        repairs: reps,
                        end: block_len,
                    }
                })
                .collect(),
            errors: Vec::new(),
        },
        Err(Shape::NotCall) => match ev {
            crate::call::Evidence::Weak => BlockResult::text(),
            crate::call::Evidence::Strong => BlockResult::error(
                "TLP-001",
                format!("{format} body has no function name"),
                body_offset,
            ),
        },
        Err(Shape::Broken(code, msg)) => BlockResult::error(code, msg, body_offset),
    }
}

/// When a JSON array body produced several calls, gives each call the end
/// offset of its own array element so the calls' spans tile the block.
pub fn split_array_ends(r: &mut BlockResult, block: &[u8], body_start: usize) {
    if r.calls.len() < 2 {
        return;
    }
    let ends = array_element_ends(&block[body_start..]);
    if ends.len() == r.calls.len() {
        for (c, e) in r.calls.iter_mut().zip(ends) {
            c.end = body_start + e;
        }
        if let Some(last) = r.calls.last_mut() {
            last.end = block.len();
        }
    }
}

/// End offsets (exclusive) of the top-level elements of the JSON array at the
/// start of `b`.
fn array_element_ends(b: &[u8]) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut depth = 0u32;
    let mut quote = 0u8;
    let mut esc = false;
    for (i, &c) in b.iter().enumerate() {
        if quote != 0 {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == quote {
                quote = 0;
            }
            continue;
        }
        match c {
            b'"' => quote = c,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    ends.push(i + 1);
                }
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    ends
}

/// Probe for a wrapper tag (`open_len` bytes) that must be followed, after
/// blanks, by `inner` (e.g. `<invoke`, `<function`): then a block of `fmt`;
/// anything else makes the lone wrapper tag markup.
pub fn probe_wrapper(
    input: &[u8],
    cx: &ProbeCx,
    open_len: usize,
    inner: &[u8],
    fmt: &'static dyn BlockFormat,
) -> Probe {
    let s = scan::skip_space(input, open_len);
    if s == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    match scan::prefix(&input[s..], inner) {
        Prefix::Full => {}
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ if s == input.len() => {}
        _ => return Probe::Match(Action::Markup { len: open_len }),
    }
    Probe::Match(Action::Block {
        fmt,
        state: BlockState::default(),
    })
}
