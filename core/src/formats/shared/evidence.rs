//! Whether an unmarked candidate was meant as a call.
//!
//! Unmarked calls (bare JSON, Python-style lists) carry no marker that says
//! a model meant to call: the same JSON is what a model writes to *show* a
//! format (`reply like this: {"name": …}`), to list its tools or to fill a
//! template's placeholders. These checks weigh the evidence around a
//! candidate (`docs/recovery.md`, "Evidence"):
//!
//! * [`example_lead`]: the words right before it introduce an example;
//! * [`placeholder_name`] / [`placeholder_arguments`]: its name or its
//!   arguments are a template's blanks (`tool_name`, `<value>`, `...`).
//!
//! A declared tool (`--tools`) outweighs a placeholder-looking name; an
//! example's lead-in outweighs everything.

use serde_json::{Map, Value};

/// Words that, in the line introducing a candidate, show it is an example
/// of a format rather than a call, whoever speaks.
const EXAMPLE_WORDS: &[&str] = &[
    "example",
    "e.g.",
    "for instance",
    "syntax",
    "template",
    "schema",
    "placeholder",
    "should look",
    "would look",
    "looks like",
    "in the form",
    // how-to for the reader: the reader makes the call, not the model
    // (`Here's how you can do it:`)
    "how you can",
    "how you could",
    "how you would",
    // what a test or a prompt expects, not what a model says
    "expected output",
    "expected response",
    "expected result",
    "expected reply",
    "sample output",
    "sample response",
    // Chinese: example, for example, sample, template, syntax
    "示例",
    "例如",
    "样例",
    "例子",
    "范例",
    "範例",
    "模板",
    "语法",
    // Japanese: output / input / usage example, for example
    "例:",
    "例\u{ff1a}",
    "出力例",
    "入力例",
    "使用例",
    "例えば",
    // Korean: example, for example
    "예시",
    "예제",
    "예를 들어",
    // Russian: example (any case ending), for instance, template, syntax
    "пример",
    "шаблон",
    "синтаксис",
    // what a model writes, told in the third person: a page about
    // models, not a model's reply (`The model's response when it wants
    // to call a tool:`)
    "the model's response",
    "the model's output",
    "the model responds",
    "the model returns",
    "the model outputs",
    "the model will return",
    "the model will respond",
    "the model will output",
    "the llm's response",
    "the llm's output",
    "the llm responds",
    "the llm returns",
    "the llm outputs",
];

/// Words that show an example when the line gives an instruction, but not
/// when the model announces its own call (`Let me do it like this:`).
const INSTRUCTION_WORDS: &[&str] = &[
    "like this",
    "like so",
    "following format",
    "this format",
    "the format",
    "format like",
    "reply with",
    "respond with",
    "answer with",
    // Chinese: format (`按以下格式`, in the following format); Japanese:
    // form, format (`以下のような形式で出力する`); Korean: format; Russian:
    // format (any case ending)
    "格式",
    "形式",
    "書式",
    "형식",
    "формат",
];

/// Words of a model announcing its own call, or saying the call that
/// follows is the right one.
const OWN_CALL: &[&str] = &[
    "i'll",
    "i will",
    "let me",
    "let's",
    "here is",
    "here's",
    "i'm going",
    "i am going",
    "correct",
    "proper",
    "revised",
    "corrected",
    "fixed",
    // Chinese: I will, let me
    "我将",
    "我会",
    "让我",
    "我来",
    // Korean: (I) will (do), polite; Russian: I will call, I am calling,
    // let's; Japanese: let's
    "겠습니다",
    "я вызову",
    "вызываю",
    "давайте",
    "しましょう",
];

/// Most bytes of the introducing line looked at, back from the candidate.
const LEAD_WINDOW: usize = 160;

/// Whether the text right before a candidate (`before`, the document's
/// last bytes of text) introduces an example: its last line with words on
/// it, read back at most [`LEAD_WINDOW`] bytes, names an example
/// (`For example:`, `e.g.`, `the syntax is`), or instructs how to answer
/// (`reply like this:`, `respond in the following format:`) without the
/// model announcing its own call (`Let me do it like this:`, `Here is the
/// revised call in the correct format:`).
pub fn example_lead(before: &[u8]) -> bool {
    let text = String::from_utf8_lossy(before);
    let trimmed = text.trim_end();
    // the last line with words on it, and the one with words above it
    let (rest, line) = match trimmed.rfind('\n') {
        Some(k) => (&trimmed[..k], &trimmed[k + 1..]),
        None => ("", trimmed),
    };
    if line.trim().is_empty() {
        return false;
    }
    if quoted_transcript(before)
        || continued_line(before)
        || blockquoted(own_line(before))
        || inside_literal(before)
    {
        return true;
    }
    if says_example(line) {
        return true;
    }
    // a bare label (`Action:`, `Output:`) says nothing itself: the line
    // above it does (`So your final output should look like this:` then
    // `Action:` then the object)
    if !bare_label(line) {
        return false;
    }
    let above = rest.trim_end();
    let above = match above.rfind('\n') {
        Some(k) => &above[k + 1..],
        None => above,
    };
    !above.trim().is_empty() && says_example(above)
}

/// Whether one line introducing a candidate names an example or a syntax,
/// or instructs how to answer without the model announcing its own call,
/// or is a code comment (see [`example_lead`]). At most [`LEAD_WINDOW`]
/// bytes of its end are read.
fn says_example(line: &str) -> bool {
    let mut from = line.len().saturating_sub(LEAD_WINDOW);
    while !line.is_char_boundary(from) {
        from += 1;
    }
    let whole = from == 0;
    let line = line[from..].to_lowercase().replace('\u{2019}', "'");
    // a code comment (`// LLM output`) introduces a listing, not a reply
    if line.trim_start().starts_with("//") {
        return true;
    }
    EXAMPLE_WORDS.iter().any(|w| line.contains(w))
        || ((INSTRUCTION_WORDS.iter().any(|w| line.contains(w))
            || (whole && generic_instruction(&line)))
            && !OWN_CALL.iter().any(|w| line.contains(w)))
}

/// How a lowercased line starts when it tells a reader or a model how
/// to call any tool (`To call a function, emit:`, `To use a tool,
/// respond with:`): a purpose clause about a tool in general, not the
/// one a model is about to call (`To get the weather, I'll call:`).
const GENERIC_LEADS: &[&str] = &[
    "to call a ",
    "to call an ",
    "to call any ",
    "to call tools",
    "to call functions",
    "to use a ",
    "to use an ",
    "to use any ",
    "to use tools",
    "to invoke a ",
    "to invoke an ",
    "to make a tool call",
    "to make a function call",
];

/// Whether a lowercased line (bullets and blanks before it aside) opens
/// with a [`GENERIC_LEADS`] clause.
fn generic_instruction(line: &str) -> bool {
    let line = line.trim_start_matches([' ', '\t', '-', '*', '#', '>']);
    GENERIC_LEADS.iter().any(|w| line.starts_with(w))
}

/// Labels that name the slot a block fills in a listing rather than say
/// anything (`Action:`, `Output:`): lowercased, without the colon.
const BARE_LABELS: &[&str] = &[
    "action",
    "output",
    "response",
    "reply",
    "answer",
    "result",
    "call",
    "tool call",
    "tool calls",
    "function call",
    "tool use",
    "tool parse",
    "final answer",
    "assistant",
    "model",
    "json",
    "completion",
];

/// Whether a line is only a label ending in a colon that names the slot
/// the block fills ([`BARE_LABELS`]: `Action:`, `**Tool call:**`, `1.
/// Output:`), past list and emphasis marks. Other short lines speak for
/// themselves (`Checking:`, `Now the call:`).
fn bare_label(line: &str) -> bool {
    let t = line
        .trim()
        .trim_start_matches(['#', '-', '*', '>', ' ', '\t'])
        .trim_end_matches(['*', '_', '`', ' ']);
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.strip_prefix('.').unwrap_or(t).trim_start();
    let Some(label) = t
        .strip_suffix(':')
        .or_else(|| t.strip_suffix('\u{ff1a}'))
        .map(|l| l.trim_end_matches(['*', '_', '`', ' ']))
    else {
        return false;
    };
    let label = label.to_ascii_lowercase();
    BARE_LABELS.contains(&label.as_str())
}

/// Words that, in the line (ending in a colon) that introduces a marked
/// block, show the block documents a format rather than makes a call.
const FORMAT_WORDS: &[&str] = &[
    "format",
    "syntax",
    "example",
    "e.g.",
    "for instance",
    "template",
    "placeholder",
    "schema",
    "looks like",
    "look like",
    "output like",
    // Russian: format, example, template, syntax (any case ending)
    "формат",
    "пример",
    "шаблон",
    "синтаксис",
];

/// Words of Chinese and Japanese text that name a format or an example
/// (`期望格式：`, `示例：`, `例如：`): matched anywhere in the line, as
/// these scripts write no blanks between words.
const CJK_FORMAT_WORDS: &[&str] = &[
    "格式",
    "示例",
    "例子",
    "例如",
    "样例",
    "範例",
    "范例",
    "模板",
    "语法",
    "語法",
    "書式",
    "形式",
    // Japanese: output / input / usage example, an example (`出力例：`)
    "出力例",
    "入力例",
    "使用例",
    "例:",
    "例\u{ff1a}",
    // Korean: example, format (particles join words: `출력형식:`)
    "예시",
    "예제",
    "형식",
    "포맷",
];

/// Whether the text before a block (`before`) presents it as the
/// documentation of a format, not a call, whoever writes the block and
/// however it is marked:
///
/// * the nearest line of its paragraph that ends in a colon (`format::`,
///   `tokens:`, `Expect output like:`, `期望格式：`) names a format or an
///   example, and no model announces its own call there (`I'll`, `let
///   me`, `here is`). A label on the block's own line that names neither
///   (`Mode A (needs tools): <tool_call>…`) leaves it to the line above;
/// * or the text quotes the block's opening in inline code
///   (`` the `[TOOL_CALLS]` control token, followed by a JSON array: ``):
///   prose that names a marker in code is explaining it;
/// * or the block opens a string literal: it follows an opening quote
///   (`echo '<tool_call>{…}</tool_call>' | prog`, `response =
///   '''<tool_call>`, `"content": "<tool_call>…`): code or data that
///   holds a call's text, not a call;
/// * or the block is a value in code: the text before it, past blanks,
///   ends in `=`, `(` or `[` (`assert parse(s) == {"name": …}`,
///   `expected = [` then the object on the next line): an assignment, a
///   comparison, an argument or a list element, not a reply.
pub fn documents_block(before: &[u8], block: &[u8]) -> bool {
    if opens_string(before)
        || value_in_code(before)
        || continued_line(before)
        || quoted_line(before)
    {
        return true;
    }
    // The others need a byte most text before a call lacks: a literal
    // opens with a quote; a lead line ends in a colon (`:`, or `：`, whose
    // UTF-8 begins with 0xEF; decoding a broken sequence gives U+FFFD,
    // never either), a quote is in backticks. One pass over the text
    // rules all three out (issue 48).
    if !holds_evidence_byte(before) {
        return false;
    }
    if inside_literal(before) {
        return true;
    }
    if memchr::memchr3(b':', 0xef, b'`', before).is_none() {
        return false;
    }
    format_lead(before) || quotes_opening(before, block)
}

/// Whether `text` holds a byte [`documents_block`]'s later checks need:
/// `"`, `'`, `:`, 0xEF or a backtick. Run on the (at most a few hundred)
/// bytes before every block that gave calls: one pass, 32 bytes a
/// compare where the CPU has AVX2 (`pulp` runs the loop compiled for
/// it), instead of two `memchr` searches that each cost their set-up.
fn holds_evidence_byte(text: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(
            #[inline(always)]
            || {
                let (blocks, rest) = text.as_chunks::<32>();
                blocks.iter().any(|b| evidence_in_32(simd, b)) || rest.iter().any(is_evidence_byte)
            },
        );
    }
    memchr::memchr3(b'"', b'\'', b':', text).is_some()
        || memchr::memchr2(0xef, b'`', text).is_some()
}

/// A byte [`holds_evidence_byte`] looks for.
#[inline(always)]
fn is_evidence_byte(b: &u8) -> bool {
    matches!(b, b'"' | b'\'' | b':' | 0xef | b'`')
}

/// Whether one of 32 bytes is an evidence byte ([`is_evidence_byte`]):
/// five compares OR-ed, one move of the mask.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn evidence_in_32(simd: pulp::x86::V3, block: &[u8; 32]) -> bool {
    use core::arch::x86_64::__m256i;
    let v: __m256i = pulp::bytemuck::cast(*block);
    let eq = |b: u8| {
        // the byte's bits, as `_mm256_set1_epi8` takes them
        #[allow(clippy::cast_possible_wrap)]
        let b = b as i8;
        simd.avx2._mm256_cmpeq_epi8(v, simd.avx._mm256_set1_epi8(b))
    };
    let any = simd.avx2._mm256_or_si256(
        simd.avx2._mm256_or_si256(eq(b'"'), eq(b'\'')),
        simd.avx2
            ._mm256_or_si256(simd.avx2._mm256_or_si256(eq(b':'), eq(0xef)), eq(b'`')),
    );
    simd.avx2._mm256_movemask_epi8(any) != 0
}

/// Whether the last byte of `before` other than a blank is `=`, `(` or
/// `[`: what follows is a value in an expression.
fn value_in_code(before: &[u8]) -> bool {
    before
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| matches!(b, b'=' | b'(' | b'['))
}

/// Whether `before` ends with an opening quote: a run of one to three `'`
/// or `"` after a blank, the start of a line, or a character that comes
/// before a value in code (`=`, `(`, `[`, `{`, `,`, `:`). A quote after a
/// word or a sentence's end (`"Hello!"`) closes a string instead. A
/// backtick is not a string here: a model sets its own call in inline
/// code (`` Sure! `[get_weather(city="Oslo")]` ``).
fn opens_string(before: &[u8]) -> bool {
    let Some(&q) = before.last() else {
        return false;
    };
    if !matches!(q, b'\'' | b'"') {
        return false;
    }
    let run = before.iter().rev().take_while(|&&b| b == q).count();
    if run > 3 {
        return false;
    }
    match before[..before.len() - run].last() {
        None => true,
        Some(&b) => matches!(
            b,
            b' ' | b'\t' | b'\n' | b'\r' | b'=' | b'(' | b'[' | b'{' | b',' | b':'
        ),
    }
}

/// Whether `before` ends inside a multi-line string literal of code: a
/// raw string (C++ `R"(`, Rust `r"`, `r#"`) or a triple-quoted one
/// (`"""`, `'''`, with Python's `r`, `b`, `f`, `u` prefixes) that opens
/// in value position (after `=`, `(`, `[`, `{`, `,` or `:`; a triple
/// quote also at a line's start) and is not closed before the block.
/// What follows is test data or a prompt held in code (`const
/// std::string reply = R"(I'll help you.` then a Kimi call), not a reply.
/// Only the text kept before a block is read (a few hundred bytes), and
/// only when it holds a quote.
fn inside_literal(before: &[u8]) -> bool {
    if memchr::memchr2(b'"', b'\'', before).is_none() {
        return false;
    }
    // the delimiter that closes the literal open at `i`, if one opens there
    let opener = |i: usize| -> Option<(usize, Vec<u8>)> {
        let word_before =
            |k: usize| k > 0 && (before[k - 1].is_ascii_alphanumeric() || before[k - 1] == b'_');
        // a raw string is a value: after `=`, `(`, `[`, `{`, `,` or `:`,
        // blank lines aside (`let s = r#"`, `assert_eq!(\n    r"`), never
        // a quoted letter in prose (`count the "r"s`)
        let in_value = |k: usize| {
            before[..k]
                .iter()
                .rev()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| matches!(b, b'=' | b'(' | b'[' | b'{' | b',' | b':'))
        };
        let q = before[i];
        // C++ R"delim( … )delim"
        if q == b'"' && i > 0 && before[i - 1] == b'R' {
            let mut k = i - 1;
            while k > 0 && matches!(before[k - 1], b'u' | b'U' | b'L' | b'8') {
                k -= 1;
            }
            if word_before(k) || !in_value(k) {
                return None;
            }
            let rest = &before[i + 1..];
            let paren = rest.iter().take(17).position(|&b| b == b'(')?;
            let delim = &rest[..paren];
            if delim.iter().any(|b| b" ()\\\t\n\r".contains(b)) {
                return None;
            }
            let mut close = vec![b')'];
            close.extend_from_slice(delim);
            close.push(b'"');
            return Some((i + 1 + paren + 1, close));
        }
        // Rust r"…", r#"…"#, br"…"
        if q == b'"' && i > 0 {
            let mut k = i;
            while k > 0 && before[k - 1] == b'#' {
                k -= 1;
            }
            let hashes = i - k;
            if k > 0 && before[k - 1] == b'r' {
                let mut s = k - 1;
                if s > 0 && before[s - 1] == b'b' {
                    s -= 1;
                }
                if !word_before(s) && in_value(s) {
                    let mut close = vec![b'"'];
                    close.extend(std::iter::repeat_n(b'#', hashes));
                    return Some((i + 1, close));
                }
            }
        }
        // """ or ''' in value position
        if matches!(q, b'"' | b'\'') && before[i..].starts_with(&[q, q, q]) {
            let mut k = i;
            while k > 0
                && matches!(
                    before[k - 1],
                    b'r' | b'R' | b'b' | b'B' | b'f' | b'F' | b'u' | b'U'
                )
                && i - k < 2
            {
                k -= 1;
            }
            if k < i && word_before(k) {
                return None;
            }
            let lead = before[..k]
                .iter()
                .rev()
                .find(|b| !matches!(b, b' ' | b'\t'));
            let value = match lead {
                None | Some(b'\n' | b'\r') => true,
                Some(&b) => matches!(b, b'=' | b'(' | b'[' | b'{' | b',' | b':'),
            };
            return value.then(|| (i + 3, vec![q, q, q]));
        }
        None
    };
    let mut i = 0;
    while let Some(off) = memchr::memchr2(b'"', b'\'', &before[i..]) {
        let at = i + off;
        match opener(at) {
            Some((body, close)) => match crate::scan::find(before, body, &close) {
                Some(end) => i = end + close.len(),
                None => return true,
            },
            None => i = at + 1,
        }
    }
    false
}

/// Whether the line before the block's own line ends in a backslash: a
/// string literal continued over lines in code (Rust's `"…:\n\` then
/// the next line of the string, a C macro, a shell line), so the block is
/// part of that string, and so is any other block on that line
/// (`[TOOL_CALLS]f1[ARGS]{…}[TOOL_CALLS]f2[ARGS]{…}`).
fn continued_line(before: &[u8]) -> bool {
    let Some(nl) = memchr::memrchr(b'\n', before) else {
        return false;
    };
    let prev = &before[..nl];
    let prev = prev.strip_suffix(b"\r").unwrap_or(prev);
    prev.ends_with(b"\\")
}

/// The text on the block's own line before it: what follows the last
/// newline of `before` (all of it when there is none). Most blocks start
/// a line, and `before` then ends in its newline: no search.
fn own_line(before: &[u8]) -> &[u8] {
    match before.last() {
        None | Some(b'\n') => &[],
        Some(_) => memchr::memrchr(b'\n', before).map_or(before, |nl| &before[nl + 1..]),
    }
}

/// Whether the block's own line, before it, quotes it: a blockquote's
/// prefix ([`blockquoted`]), or an assistant's turn label in a
/// transcript that holds a user's turn ([`assistant_label`],
/// [`quoted_transcript`]). A block that starts its line is neither.
fn quoted_line(before: &[u8]) -> bool {
    let line = own_line(before);
    !line.is_empty() && (blockquoted(line) || (assistant_label(line) && quoted_transcript(before)))
}

/// Whether the text on a block's own line before it (`line`) is a
/// Markdown blockquote's prefix and nothing else: one or more `>`,
/// blanks around them (`> `, `> > `). A reply quoted in an issue, a paper
/// or a spec (`> <tool_call>` then `> {"name": …}`) is someone else's
/// text; a model does not set its own call in a blockquote.
fn blockquoted(line: &[u8]) -> bool {
    line.contains(&b'>') && line.iter().all(|b| matches!(b, b'>' | b' ' | b'\t'))
}

/// Labels of the assistant's turn in a transcript written as text
/// (`Assistant: <tool_call>…`), lowercased, matched at the start of the
/// block's own line before a colon.
const ASSISTANT_LABELS: &[&str] = &[
    "assistant",
    "ai",
    "bot",
    "gpt",
    "model",
    "助手",
    "アシスタント",
];

/// Whether the text on a block's own line before it (`line`) is an
/// assistant's turn label and nothing else (`Assistant: `, `- **Assistant:**
/// `, `助手：`). Bullets, emphasis and blanks around the label are
/// skipped. Only a line this short is decoded.
fn assistant_label(line: &[u8]) -> bool {
    if line.len() > 40 || memchr::memchr2(b':', 0xef, line).is_none() {
        return false;
    }
    let text = String::from_utf8_lossy(line);
    let text = text
        .trim_start_matches([' ', '\t', '-', '*', '>', '#'])
        .trim_end_matches([' ', '\t', '*']);
    let Some(head) = text
        .strip_suffix(':')
        .or_else(|| text.strip_suffix('\u{ff1a}'))
    else {
        return false;
    };
    let head = head.trim_end_matches(['*', ' ']).to_lowercase();
    ASSISTANT_LABELS.contains(&head.as_str())
}

/// Labels that open a user's turn in a transcript written as text
/// (`User:`, `Q:`, `用户：`): matched at a line's start, ASCII case
/// ignored, before a colon.
const USER_LABELS: &[&str] = &[
    "user",
    "human",
    "q",
    // an agent transcript's turns the model does not write: the task it
    // was given and a tool's result (`Task: "…"`, `Observation: …`)
    "task",
    "question",
    "observation",
    "用户",
    "用戶",
    "使用者",
    "问",
    "問",
    "ユーザー",
];

/// Whether the text kept before a candidate (what follows the last call,
/// a few hundred bytes) holds a line that opens a user's turn (`用户：北京今天天气`,
/// `User: what's the weather?`): the candidate is part of a transcript
/// quoted to teach or to test, not the model's reply, which has no user
/// lines in it.
fn quoted_transcript(before: &[u8]) -> bool {
    if memchr::memchr2(b':', 0xef, before).is_none() {
        return false;
    }
    let text = String::from_utf8_lossy(before);
    text.lines().any(|line| {
        let line = line.trim_start_matches([' ', '\t', '>', '*', '-', '#']);
        USER_LABELS.iter().any(|label| {
            line.get(..label.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(label))
                && line[label.len()..]
                    .trim_start_matches([' ', '*'])
                    .starts_with([':', '\u{ff1a}'])
        })
    })
}

/// The nearest colon-ended line of the paragraph before a block names a
/// format (see [`documents_block`]).
fn format_lead(before: &[u8]) -> bool {
    // The lines of the last paragraph, the nearest first; blank lines right
    // before the block do not end it. Only those lines are decoded: a
    // newline is ASCII and ends any broken UTF-8 sequence, so decoding a
    // line alone gives what decoding the whole text and splitting it would
    // (the text before a block can be kilobytes of prose: issue 48).
    let mut end = before.len();
    let mut seen_text = false;
    // the first line read is the block's own, up to the block
    let mut own_line = true;
    loop {
        let start = memchr::memrchr(b'\n', &before[..end]).map_or(0, |i| i + 1);
        let bytes = &before[start..end];
        // most lines end in a printable ASCII byte other than a colon, after
        // ASCII blanks: that byte is the trimmed line's last character, so
        // the line is text and no lead, without decoding it
        let last = bytes
            .iter()
            .rev()
            .find(|&&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c));
        let decoded = match last {
            Some(&b) if b != b':' && (0x21..=0x7e).contains(&b) => None,
            _ => Some(crate::scan::lossy(bytes)),
        };
        let line = decoded.as_deref().map_or("x", str::trim);
        if line.is_empty() {
            if seen_text || start == 0 {
                return false;
            }
        } else {
            seen_text = true;
            if line.ends_with([':', '\u{ff1a}']) {
                let mut from = line.len().saturating_sub(LEAD_WINDOW);
                while !line.is_char_boundary(from) {
                    from += 1;
                }
                let whole = from == 0;
                let line = line[from..].to_lowercase().replace('\u{2019}', "'");
                let own = own_call(&line);
                let named = FORMAT_WORDS.iter().any(|w| has_word(&line, w))
                    || CJK_FORMAT_WORDS.iter().any(|w| line.contains(w))
                    || (whole && generic_instruction(&line));
                // a label on the block's own line that names no format
                // (`Mode A (needs tools):`) leaves it to the lines above
                if named || own || !own_line {
                    return named && !own;
                }
            }
        }
        own_line = false;
        if start == 0 {
            return false;
        }
        end = start - 1;
    }
}

/// Whether a lowercased lead line announces the model's own call
/// ([`OWN_CALL`]): a word of a spaced script where a word starts, one of
/// a joined script anywhere.
fn own_call(line: &str) -> bool {
    OWN_CALL
        .iter()
        .any(|w| has_word(line, w) || (joined(w) && line.contains(w)))
}

/// Whether `word` is written in a script that joins words (Chinese,
/// Japanese, Korean endings such as `겠습니다`): found anywhere in a line,
/// not only where a word starts.
fn joined(word: &str) -> bool {
    word.chars().next().is_some_and(|c| u32::from(c) >= 0x1100)
}

/// Whether `line` holds `word` starting a word (`format` in `the format`
/// and `formats`, not in `information`).
fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        !line[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

/// The text before quotes, in inline code, how the block opens
/// (`` `[TOOL_CALLS]` `` before `[TOOL_CALLS][{…}]`).
fn quotes_opening(before: &[u8], block: &[u8]) -> bool {
    let block = &block[crate::scan::skip_space(block, 0).min(block.len())..];
    // the spans between the first and second backtick, the third and
    // fourth, … (the last one open to the end), found with memchr
    let mut ticks = memchr::memchr_iter(b'`', before);
    while let Some(open) = ticks.next() {
        let close = ticks.next().unwrap_or(before.len());
        let quoted = &before[open + 1..close];
        if quoted.len() >= 4 && !quoted.contains(&b'\n') && block.starts_with(quoted) {
            return true;
        }
    }
    false
}

/// Whether the bytes right after a marker (`after`) read as prose about
/// the marker rather than a call: past blanks on its line, a colon, a
/// comma, a closing bracket or backtick, or a joining word
/// (`<|python_tag|>: the token that …`, `either <|python_tag|> or …`).
pub fn marker_in_prose(after: &[u8]) -> bool {
    let s = String::from_utf8_lossy(after);
    let s = s.trim_start_matches([' ', '\t']);
    s.starts_with([
        ':', ',', ')', '`', '\u{ff1a}', '\u{ff0c}', '\u{3001}', '\u{ff09}',
    ]) || ["or ", "and ", "is ", "are ", "token", "tag "]
        .iter()
        .any(|w| s.starts_with(w))
}

/// Names a template or a prompt writes where a real tool's name goes.
const PLACEHOLDER_NAMES: &[&str] = &[
    "toolname",
    "functionname",
    "funcname",
    "fnname",
    "methodname",
    "tool",
    "function",
    "func",
    "name",
    "yourtool",
    "yourfunction",
    "yourtoolname",
    "yourfunctionname",
    "sometool",
    "somefunction",
    "nameofthetool",
    "nameofthefunction",
    "toolnamehere",
    "functionnamehere",
];

/// Whether `name` is a placeholder rather than a tool's name: in angle,
/// curly or square brackets (`<function_name>`, `{tool}`), with an
/// ellipsis, or one of the names templates use for the blank
/// (`tool_name`, `function_name`, `your_function` …; case, `_`, `-` and
/// blanks ignored).
///
/// A tallying parse asks it of every plain call's name (issue 48), so it
/// allocates nothing: an ellipsis needs a `.` or the first byte of `…`,
/// and the name is folded into a small array, as no placeholder's folded
/// form is longer than it.
pub fn placeholder_name(name: &str) -> bool {
    let n = name.trim();
    if memchr::memchr2(b'.', 0xE2, n.as_bytes()).is_some() && (n.contains("...") || n.contains('…'))
    {
        return true;
    }
    let wrapped = |open: char, close: char| n.starts_with(open) && n.ends_with(close);
    if n.len() >= 2 && (wrapped('<', '>') || wrapped('{', '}') || wrapped('[', ']')) {
        return true;
    }
    folds_to_placeholder(n)
}

/// Whether an ASCII name, as it stands between a JSON string's quotes
/// without escapes, is certainly none of [`placeholder_name`]'s: `false`
/// when it is one, and when it holds a byte this quick look leaves to
/// `placeholder_name` (one past ASCII, a control byte, a `.`) or starts
/// with a bracket. A tallying parse asks it of each plain call's name
/// (issue 48): one pass over the name, then its first letter rules out
/// most names without folding them.
pub fn ascii_name_is_no_placeholder(name: &[u8]) -> bool {
    // the ellipsis, and what `str::trim` would take or the fold would
    // lower past ASCII
    if name
        .iter()
        .any(|&b| b == b'.' || !(0x20..0x7f).contains(&b))
    {
        return false;
    }
    // the folded name's first byte, which is the trimmed name's first
    // unless that is `_` or `-` (then the name is not in brackets)
    let Some(first) = name.iter().find(|&&b| !matches!(b, b'_' | b'-' | b' ')) else {
        return true;
    };
    match first.to_ascii_lowercase() {
        b'<' | b'{' | b'[' => false,
        // the first letters of the placeholders' folded forms
        b't' | b'f' | b'm' | b'n' | b'y' | b's' => {
            // ASCII: `str::trim` takes spaces only
            let n = std::str::from_utf8(name).map_or("", |n| n.trim_matches(' '));
            !folds_to_placeholder(n)
        }
        _ => true,
    }
}

/// Whether `n` with `_`, `-` and spaces dropped and lowercased is one of
/// [`PLACEHOLDER_NAMES`], without building the folded string: they are
/// ASCII and at most [`FOLDED_MAX`] bytes long, so a folded form that is
/// longer, or holds a character past ASCII, is none of them.
fn folds_to_placeholder(n: &str) -> bool {
    let mut folded = [0u8; FOLDED_MAX];
    let mut len = 0;
    let mut push = |c: char| {
        if !c.is_ascii() || len == FOLDED_MAX {
            return false;
        }
        folded[len] = c as u8;
        len += 1;
        true
    };
    for c in n.chars() {
        if matches!(c, '_' | '-' | ' ') {
            continue;
        }
        let fits = if c.is_ascii() {
            push(c.to_ascii_lowercase())
        } else {
            c.to_lowercase().all(&mut push)
        };
        if !fits {
            return false;
        }
    }
    let folded = &folded[..len];
    PLACEHOLDER_NAMES.iter().any(|p| p.as_bytes() == folded)
}

/// Room for the longest of [`PLACEHOLDER_NAMES`] (17 bytes).
const FOLDED_MAX: usize = 24;

/// Whether a placeholder stands where a value goes: a string in angle
/// brackets (`<value>`, `<city name>`), an ellipsis, or one of the words
/// templates use for the blank.
fn placeholder_value(v: &Value) -> bool {
    match v {
        Value::String(s) => placeholder_text(s),
        _ => false,
    }
}

/// A key or value in angle brackets (`<param>`), or an ellipsis.
fn bracketed(s: &str) -> bool {
    let t = s.trim();
    t == "..."
        || t == "\u{2026}"
        || (t.len() >= 3 && t.starts_with('<') && t.ends_with('>') && !t[1..].contains('<'))
}

fn placeholder_text(s: &str) -> bool {
    let t = s.trim();
    let folded: String = t
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    t == "..."
        || t == "…"
        || (t.len() >= 3 && t.starts_with('<') && t.ends_with('>') && !t[1..].contains('<'))
        || matches!(
            folded.as_str(),
            "value"
                | "argvalue"
                | "argumentvalue"
                | "parametervalue"
                | "paramvalue"
                | "yourvalue"
                | "value1"
                | "value2"
        )
}

/// Whether a call is a template's blanks whatever its format: its name
/// is a placeholder ([`placeholder_name`]) that `cfg` does not declare
/// and its arguments are all blanks: any placeholder
/// ([`placeholder_arguments`]) after a name in brackets (`{name}`), the
/// kinds only a template writes after a placeholder word
/// (`function_name` with `{"arg1": "value1"}`). Gives up a real tool
/// named like a blank called with blank-looking arguments and no tools
/// file.
pub fn template_call(name: &str, arguments: &Value, cfg: &crate::config::Config) -> bool {
    if !placeholder_name(name) || cfg.declares(name) {
        return false;
    }
    let Some(args) = arguments.as_object() else {
        return false;
    };
    // a name in brackets (`<function_name>`, `{name}`) is a template's
    // blank beyond doubt; a placeholder word needs the stronger blanks
    let n = name.trim();
    let wrapped = n.len() >= 2
        && matches!(
            (n.as_bytes()[0], n.as_bytes()[n.len() - 1]),
            (b'<', b'>') | (b'{', b'}') | (b'[', b']')
        );
    if wrapped {
        placeholder_arguments(args)
    } else {
        template_arguments(args)
    }
}

/// Whether every argument is a template's blank of the kinds only a
/// template writes: a key or a value in angle brackets or an ellipsis
/// (`{"<param>": "<value>"}`, `{"code": "..."}`), or a numbered or named
/// blank key holding a word with `value` in it (`{"arg1": "value1"}`,
/// `{"param_name": "param_value"}`). A bare `{"param": "value"}` is not
/// enough: parser tests write it as the smallest real data (Ollama's GLM
/// tests call `function_name` with it). Empty arguments are not.
fn template_arguments(args: &Map<String, Value>) -> bool {
    let blank_value = |v: &Value| matches!(v, Value::String(s) if bracketed(s));
    let named_pair = |k: &str, v: &Value| {
        let k = k.to_ascii_lowercase();
        PLACEHOLDER_KEYS.contains(&k.as_str())
            && (k.ends_with(|c: char| c.is_ascii_digit()) || k.ends_with("_name"))
            && matches!(v, Value::String(s) if s.to_ascii_lowercase().contains("value"))
    };
    !args.is_empty()
        && args
            .iter()
            .all(|(k, v)| bracketed(k) || blank_value(v) || named_pair(k, v))
}

/// Whether a block's bytes could hold placeholder arguments: a word with
/// `value` in it (any case), an ellipsis, or a string that opens with
/// `<`. A quick look that rules most calls out before their names are
/// read ([`template_call`] needs all of the arguments to be blanks).
///
/// It runs on every block that gave calls, so it searches for the bytes
/// that are rare in calls (`.`, `<`, the ellipsis's first byte, then
/// `v`/`V`) and checks each hit where it stands: a `"` is in every call,
/// and four `memmem` searches, each building its searcher, with a
/// byte-at-a-time look for `value`, cost `parse -c` some 15 %.
pub fn may_hold_blanks(block: &[u8]) -> bool {
    let at = |i: usize, word: &[u8]| {
        block
            .get(i..i + word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word))
    };
    memchr::memchr3_iter(b'.', b'<', 0xE2, block)
        .any(|i| at(i, b"...") || at(i, "\u{2026}".as_bytes()) || (i > 0 && at(i - 1, b"\"<")))
        || memchr::memchr2_iter(b'v', b'V', block).any(|i| at(i, b"value"))
}

/// Whether a call read from a block fills a template's blanks: its name
/// and arguments are a template's ([`template_call`]) or its arguments
/// were elided ([`ellipsis_arguments`]).
pub fn blank_call(call: &crate::call::ParsedCall, cfg: &crate::config::Config) -> bool {
    let arguments = call.arguments.as_value();
    template_call(&call.name, arguments, cfg) || ellipsis_arguments(arguments, &call.repairs)
}

/// Whether a call's arguments were written as an ellipsis and nothing
/// else (`{...}`, `{…}`): the repair engine drops the ellipsis and leaves
/// `{}`, but no model fills arguments that way. A prompt or a doc shows
/// the call's shape with the arguments elided (`<tool_call>{"name":
/// "tool", "arguments": {...}}</tool_call> and STOP`, `{"tool":
/// "add_reminder", "args": {...}}`), whatever the name. Gives up a real
/// call that elides its arguments (it would run with none).
pub fn ellipsis_arguments(arguments: &Value, repairs: &[crate::repair::Repair]) -> bool {
    arguments.as_object().is_some_and(Map::is_empty)
        && repairs
            .iter()
            .any(|r| r.kind == crate::repair::RepairKind::Ellipsis)
}

/// Keys a template writes for a blank parameter.
const PLACEHOLDER_KEYS: &[&str] = &[
    "arg",
    "arg1",
    "arg2",
    "argument",
    "argument1",
    "param",
    "param1",
    "param2",
    "parameter",
    "parameter1",
    "key",
    "param_name",
    "arg_name",
];

/// Whether every argument is a template's blank: its key or its value a
/// placeholder (`{"<param>": "<value>"}`, `{"city": "..."}`), or a blank
/// key holding a word with `value` in it (`{"arg1": "value1"}`). Empty
/// arguments are not.
pub fn placeholder_arguments(args: &Map<String, Value>) -> bool {
    let blank_pair = |k: &str, v: &Value| {
        PLACEHOLDER_KEYS.contains(&k.to_ascii_lowercase().as_str())
            && matches!(v, Value::String(s) if s.to_ascii_lowercase().contains("value"))
    };
    !args.is_empty()
        && args
            .iter()
            .all(|(k, v)| bracketed(k) || placeholder_value(v) || blank_pair(k, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// `format_lead` as first written: the whole text decoded, then split.
    fn format_lead_whole(before: &[u8]) -> bool {
        let text = String::from_utf8_lossy(before);
        // text on the block's own line, before it
        let own_first = text
            .rsplit('\n')
            .next()
            .is_some_and(|l| !l.trim().is_empty());
        for (i, line) in text.trim_end().rsplit('\n').enumerate() {
            let line = line.trim();
            if line.is_empty() {
                return false;
            }
            if !line.ends_with([':', '\u{ff1a}']) {
                continue;
            }
            let mut from = line.len().saturating_sub(LEAD_WINDOW);
            while !line.is_char_boundary(from) {
                from += 1;
            }
            let whole = from == 0;
            let line = line[from..].to_lowercase().replace('\u{2019}', "'");
            let own = own_call(&line);
            let named = FORMAT_WORDS.iter().any(|w| has_word(&line, w))
                || CJK_FORMAT_WORDS.iter().any(|w| line.contains(w))
                || (whole && generic_instruction(&line));
            if named || own || !(i == 0 && own_first) {
                return named && !own;
            }
        }
        false
    }

    /// `quotes_opening` as first written: a split on every backtick.
    fn quotes_opening_split(before: &[u8], block: &[u8]) -> bool {
        let block = &block[crate::scan::skip_space(block, 0).min(block.len())..];
        before
            .split(|&b| b == b'`')
            .skip(1)
            .step_by(2)
            .any(|quoted| {
                quoted.len() >= 4 && !quoted.contains(&b'\n') && block.starts_with(quoted)
            })
    }

    /// Text made of the pieces the two checks look at: lines, blanks,
    /// colons, backticks, format words, broken and multi-byte UTF-8.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop::sample::select(vec![
            b"\n".to_vec(),
            b"\n\n".to_vec(),
            b"\r\n".to_vec(),
            b" ".to_vec(),
            b"\t".to_vec(),
            b"\r".to_vec(),
            vec![0x0b],
            vec![0x0c],
            b".".to_vec(),
            b":".to_vec(),
            "\u{ff1a}".as_bytes().to_vec(),
            "\u{3000}".as_bytes().to_vec(),
            "\u{85}".as_bytes().to_vec(),
            b"`".to_vec(),
            b"[TOOL".to_vec(),
            b"_CALLS]".to_vec(),
            b"format".to_vec(),
            b"Use this format".to_vec(),
            b"Mode A".to_vec(),
            "\u{683c}\u{5f0f}".as_bytes().to_vec(),
            b"I'll".to_vec(),
            b"output".to_vec(),
            b"word".to_vec(),
            vec![0xe2, 0x80],
            vec![0xff],
            "\u{2019}".as_bytes().to_vec(),
        ])
    }

    proptest! {
        #[test]
        fn the_lead_and_quote_checks_read_as_before(
            before in prop::collection::vec(piece(), 0..40),
            block in prop::collection::vec(piece(), 0..6),
        ) {
            let before = before.concat();
            let block = block.concat();
            prop_assert_eq!(format_lead(&before), format_lead_whole(&before));
            prop_assert_eq!(
                quotes_opening(&before, &block),
                quotes_opening_split(&before, &block)
            );
            // the search that rules both out first changes no answer
            prop_assert_eq!(
                documents_block(&before, &block),
                format_lead_whole(&before) || quotes_opening_split(&before, &block)
            );
        }
    }

    /// `placeholder_name` as first written: the folded name built as a
    /// string and looked up.
    fn placeholder_name_folding(name: &str) -> bool {
        let n = name.trim();
        if n.contains("...") || n.contains('…') {
            return true;
        }
        let wrapped = |open: char, close: char| n.starts_with(open) && n.ends_with(close);
        if n.len() >= 2 && (wrapped('<', '>') || wrapped('{', '}') || wrapped('[', ']')) {
            return true;
        }
        let folded: String = n
            .chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        PLACEHOLDER_NAMES.contains(&folded.as_str())
    }

    /// Pieces of names: placeholders' words in any case, the characters
    /// the fold drops, ellipses, brackets, characters that lowercase to
    /// more than one or to ASCII (`İ`, the Kelvin sign).
    fn name_piece() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "tool",
            "TOOL",
            "Function",
            "name",
            "NAME",
            "your",
            "some",
            "of",
            "the",
            "here",
            "func",
            "fn",
            "method",
            "_",
            "-",
            " ",
            "\t",
            ".",
            "..",
            "…",
            "<",
            ">",
            "{",
            "}",
            "[",
            "]",
            "x",
            "\u{130}",
            "\u{212a}",
            "é",
            "Ω",
            "get_weather",
        ])
        .prop_map(str::to_string)
    }

    proptest! {
        #[test]
        fn placeholder_names_read_as_before(
            pieces in prop::collection::vec(name_piece(), 0..8),
        ) {
            let name = pieces.concat();
            prop_assert_eq!(placeholder_name(&name), placeholder_name_folding(&name), "{:?}", name);
        }
    }

    proptest! {
        #[test]
        fn the_quick_name_look_agrees(
            pieces in prop::collection::vec(name_piece(), 0..8),
            bytes in prop::collection::vec(any::<u8>(), 0..24),
        ) {
            for name in [pieces.concat().into_bytes(), bytes] {
                if ascii_name_is_no_placeholder(&name) {
                    let text = std::str::from_utf8(&name);
                    prop_assert!(text.is_ok_and(|t| !placeholder_name(t)), "{:?}", name);
                } else if let Ok(t) = std::str::from_utf8(&name) {
                    // it leaves to the full test only names it cannot read
                    let hard = name.iter().any(|&b| b == b'.' || !(0x20..0x7f).contains(&b))
                        || name
                            .iter()
                            .find(|&&b| !matches!(b, b'_' | b'-' | b' '))
                            .is_some_and(|b| b"<{[".contains(b));
                    prop_assert!(hard || placeholder_name(t), "{:?}", t);
                }
            }
        }
    }

    #[test]
    fn the_evidence_byte_pass_finds_each_byte_everywhere() {
        for len in 0..100 {
            let plain = vec![b'a'; len];
            assert!(!holds_evidence_byte(&plain));
            for at in 0..len {
                for b in 0..=u8::MAX {
                    let mut text = plain.clone();
                    text[at] = b;
                    assert_eq!(
                        holds_evidence_byte(&text),
                        is_evidence_byte(&b),
                        "{len} {at} {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_placeholder_name_fits_the_fold() {
        for p in PLACEHOLDER_NAMES {
            assert!(!ascii_name_is_no_placeholder(p.as_bytes()), "{p}");
            assert!(b"tfmnys".contains(&p.as_bytes()[0]), "{p}");
            assert!(p.len() <= FOLDED_MAX && p.is_ascii(), "{p}");
            assert!(
                placeholder_name(p) && placeholder_name(&p.to_uppercase()),
                "{p}"
            );
        }
    }

    #[test]
    fn example_leads() {
        for s in [
            "Reply like this: ",
            "To call a tool, respond with a JSON object in this format:\n",
            "For example:\n\n",
            "Some words.\nExample of a call:\n",
            "e.g. ",
            "The syntax is:\n",
            "Always reply like this:\n",
            "Here's how you can do it:\n\n",
            // Chinese: `actual call example`, `reply in the following format:`
            "\u{5b9e}\u{9645}\u{8c03}\u{7528}\u{793a}\u{4f8b}\n",
            "\u{8bf7}\u{6309}\u{4ee5}\u{4e0b}\u{683c}\u{5f0f}\u{56de}\u{590d}\u{ff1a}\n",
            "\u{5b9e}\u{9645}\u{8c03}\u{7528}\u{793a}\u{4f8b}\n// LLM output\n",
            // a transcript quoted as text: a user's turn before the call
            "\u{7528}\u{6237}\u{ff1a}\u{5317}\u{4eac}\n AI\u{8c03}\u{7528}\u{ff1a}\n",
            "User: What's the weather in Paris?\nAssistant:\n",
            "**Q:** weather?\nA: ",
            // inside a literal, or a continued line
            "response = \"\"\"\nHere's my response:\n",
            "text \\\n",
            // a bare label: the line above it speaks
            "So your final output should look like this:\n  Action:\n  ",
            "Example of a call:\n\n**Tool call:**\n",
            // an agent transcript's task or tool result
            "Task: \"Find the oldest person.\"\n\nAction:\n",
            "  Observation: \"image_1.jpg\"\n\n  Action:\n  ",
            "Question: what is 2 + 2?\nThought: use the tool.\n",
            // a model's output told in the third person
            " 1. The model's response when it wants to call a tool:\n\n",
            "The LLM returns a call like:\n",
            "Expected output\n",
            // Japanese, Korean, Russian
            "\u{4ee5}\u{4e0b}\u{306e}\u{3088}\u{3046}\u{306a}\u{5f62}\u{5f0f}\u{3067}\u{51fa}\u{529b}\u{3059}\u{308b}\u{3002}\n\n",
            "\u{51fa}\u{529b}\u{4f8b}\u{ff1a}\n",
            "\u{cd9c}\u{b825} \u{c608}\u{c2dc}:\n",
            "\u{41f}\u{440}\u{438}\u{43c}\u{435}\u{440} \u{43e}\u{442}\u{432}\u{435}\u{442}\u{430}:\n",
            // a blockquote's prefix on the object's own line
            "The next call is identical:\n\n> <tool_call>\n> ",
            ">",
            "> > ",
            // a purpose clause about any tool
            "To use a tool, respond with:\n",
            "- To call a function, emit:\n",
        ] {
            assert!(example_lead(s.as_bytes()), "{s:?}");
        }
        for s in [
            "",
            "I apologize for the error. Here is the revised tool call:\n\n",
            "Here is the call in the correct format:\n",
            "Let me check the weather.\n",
            "For example, see below.\nNow the call:\n",
            "Let me do it like this: ",
            "Here is the function call in the following format:\n",
            // Chinese: `I will call in the following format:`
            "\u{6211}\u{5c06}\u{6309}\u{4ee5}\u{4e0b}\u{683c}\u{5f0f}\u{8c03}\u{7528}\u{ff1a}\n",
            "https://example.org/a//b\nChecking:\n",
            // words that only look like a user label
            "Username: ada\n",
            "The user: asked for it.\nI'll check.\n",
            "AI\u{8c03}\u{7528}\u{ff1a}\n",
            // a label with nothing that names an example above it
            "Checking the weather for you.\nAction:\n",
            "Action:\n",
            // the words, not the turns or the third person
            "One observation: the file is missing.\n",
            "I will ask the weather model about Seoul:\n",
            "model outputs more tokens here and then ",
            // Russian: let's call it in the right format
            "\u{414}\u{430}\u{432}\u{430}\u{439}\u{442}\u{435} \u{432}\u{44b}\u{437}\u{43e}\u{432}\u{435}\u{43c} \u{432} \u{444}\u{43e}\u{440}\u{43c}\u{430}\u{442}\u{435}:\n",
            // a `>` that is not a blockquote's prefix; a purpose clause
            // about the model's own call
            "a -> b\n",
            "Result => ",
            "To get the weather, I'll call the tool:\n",
            "I need to call a function:\n",
        ] {
            assert!(!example_lead(s.as_bytes()), "{s:?}");
        }
    }

    #[test]
    fn documented_blocks() {
        let block = b"[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]";
        for before in [
            "Kimi K2 tool call format::\n\n",
            "Format uses special unicode tokens:\n    ",
            "IMPORTANT: ALWAYS adhere to this exact format for tool use:\n",
            "Expect output like:\n[Tools] (2)\n- a: b ...\n[Raw Assistant] ",
            "emit the `[TOOL_CALLS]` control token, followed by a JSON array:\n\n    ",
            // Chinese: `expected format (two modes):`
            "\u{671f}\u{671b}\u{683c}\u{5f0f}\u{ff1a}\n",
            "Expected format (two legal modes):\nMode A (needs tools): ",
            "    echo '",
            "response = '''",
            "{\"content\": \"",
            "cmd=\"",
            "    assert rescue_first(content) == ",
            "    expected = [\n        ",
            "print(",
            // inside a raw or triple-quoted literal opened earlier
            "const std::string r = R\"(I'll help you.\n\n",
            "auto r = u8R\"json(Sure.\n",
            "    let input = r#\"Let me help you with that.\n",
            "let s = r\"Sure.\n",
            "reply = \"\"\"\nHere's my answer:\n",
            "prompt = f'''Call it.\n",
            "\"\"\"\nParse the reply.\n",
            // a string continued over lines with a backslash
            "    \"chain them:\\n\\\n             ",
            "chain them:\\\r\n",
            // Russian `call format:`, Korean `call example:`, Japanese
            // `output example:`
            "\u{424}\u{43e}\u{440}\u{43c}\u{430}\u{442} \u{432}\u{44b}\u{437}\u{43e}\u{432}\u{430}:\n",
            "\u{d638}\u{cd9c} \u{c608}\u{c2dc}:\n",
            "\u{51fa}\u{529b}\u{4f8b}\u{ff1a}\n",
            // quoted in a blockquote
            "> ",
            "Spec:\n> > ",
            // an assistant's turn in a transcript with a user's turn
            "User: What is the weather in Paris?\n\nAssistant: ",
            "- User: \"Buatkan reminder\"  \n- Assistant: ",
            "**User:** hi\n**Assistant:** ",
            // a purpose clause about any tool
            "To call a function, emit:\n",
            "To use a tool, respond with:\n",
        ] {
            assert!(documents_block(before.as_bytes(), block), "{before:?}");
        }
        for before in [
            "",
            "The following tool call retrieves weather information: ",
            "I will call the tool in this format:\n",
            // Korean `I will call in the following format:`, Russian
            // `let's call the tool in the right format:`
            "\u{b2e4}\u{c74c} \u{d615}\u{c2dd}\u{c73c}\u{b85c} \u{d638}\u{cd9c}\u{d558}\u{aca0}\u{c2b5}\u{b2c8}\u{b2e4}:\n",
            "\u{414}\u{430}\u{432}\u{430}\u{439}\u{442}\u{435} \u{432}\u{44b}\u{437}\u{43e}\u{432}\u{435}\u{43c} \u{432} \u{444}\u{43e}\u{440}\u{43c}\u{430}\u{442}\u{435}:\n",
            "Here is the call in the correct format:\n",
            "For example, see below.\n\nNow the call:\n",
            "The format is simple.\nChecking:\n",
            "The format is simple.\nChecking: ",
            "Expected format:\n\nNow the call: ",
            "Expected format:\nI'll call it: ",
            "He said \"Hello!\"",
            "Sure! `",
            "four quotes ''''",
            // literals closed before the block, or no literal at all
            "r = R\"(done)\";\nI'll call it.\n",
            "let s = r#\"x\"#;\n",
            "def f():\n    \"\"\"Doc.\"\"\"\n\nI'll save it.\n",
            "The word FOR\"(\" is odd.\n",
            "Counting \"r\" in strawberry:\n",
            "print r\"x\n",
            "bar\"\"\" is three quotes after a word.\n",
            // a backslash line with a blank line after it, or mid-line
            "C:\\data\\\n\n",
            "path C:\\data\\ then ",
            "C:\\data\\\n\nNow: ",
            // an assistant's label with no user's turn in the kept
            // text, or a user's turn without the label on the block's line
            "Assistant: ",
            "The assistant said:\nAssistant: ",
            "User: hi\nI'll call it: ",
            // `>` that is no blockquote's prefix
            "a -> ",
            "</think>",
            // a purpose clause about the model's own call
            "To get the weather, I'll call:\n",
            "I need to call a function:\n",
        ] {
            assert!(!documents_block(before.as_bytes(), block), "{before:?}");
        }
    }

    #[test]
    fn elided_arguments() {
        use crate::repair::{Repair, RepairKind};
        let ellipsis = [Repair {
            kind: RepairKind::Ellipsis,
            offset: 3,
        }];
        let quote = [Repair {
            kind: RepairKind::SingleQuotes,
            offset: 3,
        }];
        // `{...}` read as `{}` after the ellipsis was dropped
        assert!(ellipsis_arguments(&json!({}), &ellipsis));
        // arguments left after the ellipsis, another repair, no repair
        assert!(!ellipsis_arguments(&json!({"a": 1}), &ellipsis));
        assert!(!ellipsis_arguments(&json!({}), &quote));
        assert!(!ellipsis_arguments(&json!({}), &[]));
    }

    #[test]
    fn markers_in_prose() {
        for after in [
            ": marks a call",
            " or a blank line",
            "：模型",
            "` token",
            ", then",
        ] {
            assert!(marker_in_prose(after.as_bytes()), "{after:?}");
        }
        for after in [
            "print(1)",
            "brave_search.call(query=\"x\")",
            "{\"name\": \"f\"}",
            "\nimport os",
        ] {
            assert!(!marker_in_prose(after.as_bytes()), "{after:?}");
        }
    }

    #[test]
    fn placeholders() {
        for n in [
            "tool_name",
            "<function_name>",
            "Function Name",
            "{tool}",
            "...",
        ] {
            assert!(placeholder_name(n), "{n}");
        }
        for n in ["get_weather", "search", "name_lookup", "tools.search"] {
            assert!(!placeholder_name(n), "{n}");
        }
        assert!(placeholder_arguments(
            json!({"<param>": "<value>"}).as_object().expect("map")
        ));
        assert!(placeholder_arguments(
            json!({"arg1": "value1", "arg2": "value2"})
                .as_object()
                .expect("map")
        ));
        assert!(placeholder_arguments(
            json!({"city": "..."}).as_object().expect("map")
        ));
        // template blanks in any format: a placeholder word needs the
        // blanks only a template writes, a bracketed name any blank
        let cfg = crate::config::Config::default();
        assert!(template_call(
            "function_name",
            &json!({"arg1": "value1", "arg2": "value2"}),
            &cfg
        ));
        assert!(template_call(
            "function_name",
            &json!({"param_name": "param_value"}),
            &cfg
        ));
        assert!(template_call("{name}", &json!({"arg": "value"}), &cfg));
        assert!(template_call("tool", &json!({"<param>": "<value>"}), &cfg));
        for (n, v) in [
            ("function_name", json!({"param": "value"})),
            ("tool_name", json!({"city": "Paris"})),
            ("get_weather", json!({"arg1": "value1"})),
            ("function_name", json!({})),
            ("NAME", json!({"ARG": "VALUE"})),
        ] {
            assert!(!template_call(n, &v, &cfg), "{n} {v}");
        }
        assert!(may_hold_blanks(b"{\"a\": \"Value1\"}"));
        assert!(may_hold_blanks(b"{\"a\": \"<x>\"}"));
        assert!(!may_hold_blanks(b"{\"city\": \"Paris\"}"));
        for v in [
            json!({}),
            json!({"city": "Oslo"}),
            json!({"html": "<b>x</b>"}),
            json!({"n": 1}),
        ] {
            assert!(!placeholder_arguments(v.as_object().expect("map")), "{v}");
        }
    }
}
