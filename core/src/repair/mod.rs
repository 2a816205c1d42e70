//! Lenient JSON repair: make the JSON that language models write parse, say
//! exactly what was changed, and never touch JSON that was already valid.
//!
//! # Design
//!
//! [`repair`] first runs a validating scan (`serde_json` into
//! [`serde::de::IgnoredAny`]). A valid document is returned byte for byte,
//! whatever its size or depth. Only an invalid document goes to the tolerant
//! parser, a single left-to-right pass with an explicit stack (no recursion)
//! that records *edits* (insert, delete or replace a byte range) and
//! *repairs* (what was done, and where). The output is the input with the
//! edits applied: every token that is kept keeps its original text, so
//! numbers, key order, escapes and whitespace survive exactly. Finally the
//! output is checked with `serde_json` once more, so an `Ok` result always
//! parses.
//!
//! Every step is linear in the input: lookahead is bounded by the next token,
//! mismatched closers are resolved with per-kind counters instead of a stack
//! search, and extraction from prose tries a bounded number of candidates.
//! [`RepairOptions::timeout_ms`] is a budget that linear time never reaches in
//! practice; it exists so that a caller can put a hard bound on the work.
//!
//! # Limits
//!
//! The depth and size limits bound the *repair*: a valid document passes
//! through at any depth and size (returning it needs no structure), while a
//! document that needs repair and is nested deeper than
//! [`RepairOptions::max_depth`] or larger than
//! [`RepairOptions::max_input_bytes`] is refused with `TLP-007`.

mod document;
mod edits;
mod lean;
mod parser;
mod text;
mod top;

#[cfg(test)]
mod lean_tests;
#[cfg(test)]
mod tests;

pub use document::{
    repair_document, repair_document_str, repair_document_text, Prose, PROSE_MESSAGE,
};
use std::fmt;

/// Error code for input that cannot be repaired.
pub const CODE_HOPELESS: &str = "TLP-003";
/// Error code for input that exceeds a repair limit (size, depth or time).
pub const CODE_BUDGET: &str = "TLP-007";

/// Limits for one repair.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    /// Deepest nesting of objects and arrays a repair may handle (default 64).
    /// Valid documents pass through at any depth.
    pub max_depth: usize,
    /// Largest invalid input, in bytes, that is repaired (default 1 MiB).
    /// Valid documents pass through at any size.
    pub max_input_bytes: usize,
    /// Time budget of one repair in milliseconds (default
    /// [`DEFAULT_TIMEOUT_MS`]); `0` disables it. The repair is linear, so this is a last resort, never the
    /// mechanism that bounds the work.
    pub timeout_ms: u64,
    /// A complete key with no value gets `null` instead of being dropped
    /// (the `repair` subcommand: keep every key written; argument repair
    /// inside `parse` drops it, as a streamed call cut after its key would
    /// otherwise gain an invented `null`).
    pub null_for_missing_values: bool,
    /// Unquoted text where a value belongs becomes a string (the `repair`
    /// subcommand; argument repair inside `parse` refuses it, so prose
    /// never turns into arguments).
    pub unquoted_strings: bool,
}

/// The largest invalid input a repair takes unless the caller sets
/// another (1 MiB): the limit of argument repair inside parsing. The
/// `repair` subcommand has none unless `--max-size` sets one.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 1024 * 1024;

/// The time budget of one repair unless the caller sets another, in
/// milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 100;

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            max_depth: 64,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            null_for_missing_values: false,
            unquoted_strings: false,
        }
    }
}

/// One change made to the input, with the byte offset (in the input) where
/// it applies.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Repair {
    /// What was done.
    pub kind: RepairKind,
    /// Byte offset in the input where the change applies.
    pub offset: usize,
}

/// The kinds of repair, one per fix the engine knows.
///
/// Inside one string token each kind is reported once, at its first offset
/// (a string with forty raw newlines gives one `control_character`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairKind {
    /// A comma before a closing bracket or brace, a doubled comma (`,,`) or a
    /// comma before the first element was removed.
    TrailingComma,
    /// Closing brackets or braces were inserted: at the end of truncated
    /// input (one repair for all of them), or before a closer that belongs
    /// to an outer container (`{"a": [1}` gets its `]`).
    MissingClose,
    /// A string cut off by the end of input was closed (a partial escape at
    /// the very end is dropped).
    TruncatedString,
    /// A number cut off by the end of input (`1.`, `2e`, `3e-`) was cut back
    /// to its longest valid prefix; with
    /// [`RepairOptions::null_for_missing_values`] a lone sign or dot before
    /// a separator or the end became a number (`-` → `-0`, `.` → `0.0`).
    TruncatedNumber,
    /// A literal cut off by the end of input (`tru`, `fals`, `nul`, `Tr`) was
    /// completed to the JSON literal.
    TruncatedLiteral,
    /// An object member without a value was removed together with the comma
    /// before it: a key cut off mid-string, a key without a colon, or a key
    /// and colon with no value (truncated, or followed by `}` or `,`).
    DroppedPartialKey,
    /// A quote inside a string that does not end it (judged by what follows:
    /// `,` `}` `]` `:` or the end of input end a string) was escaped.
    UnescapedQuote,
    /// A raw control character (newline, tab, other C0 byte) inside a string
    /// was written as an escape.
    ControlCharacter,
    /// An object key without quotes (`{city: 1}`) was quoted.
    UnquotedKey,
    /// A single-quoted string was rewritten with double quotes (inner double
    /// quotes escaped, `\'` unescaped).
    SingleQuotes,
    /// A string in typographic quotes (“ ” ‘ ’) was rewritten with double
    /// quotes.
    TypographicQuotes,
    /// A bare Python literal (`True`, `False`, `None`), or another
    /// capitalisation of a JSON literal (`TRUE`, `Null`), became `true`,
    /// `false`, `null`. Strings are never touched.
    PythonLiteral,
    /// A bare JavaScript value JSON lacks (`NaN`, `Infinity`, `-Infinity`,
    /// `undefined`) became `null`.
    NonJsonLiteral,
    /// A `//`, `/* */` or `#` comment between tokens was removed.
    Comment,
    /// A byte order mark at the start was removed.
    ByteOrderMark,
    /// A Markdown code fence around the JSON was removed; also one that
    /// is the whole content of a string value (`"```json {"a": 1}```"`),
    /// whose JSON then became the value.
    CodeFence,
    /// Prose before or after the JSON value was removed.
    SurroundingProse,
    /// A comma was inserted between two values or members.
    MissingComma,
    /// A colon was inserted between a key and its value.
    MissingColon,
    /// Several top-level values (`{..}{..}`) were wrapped into one array;
    /// when only one of them has content, the empty objects and arrays
    /// around it (`[]{"a": 1}`, `{"a": 1}, {}`) were dropped instead.
    ConcatenatedValues,
    /// A closing bracket or brace without an opener was removed.
    ExtraClose,
    /// An ellipsis placeholder (`...` or `…`) standing for omitted elements
    /// was removed, with its comma.
    Ellipsis,
    /// A JSON string whose content is a JSON object or array (and which
    /// needed repair) was decoded and its content repaired instead.
    DoubleEncoded,
    /// A non-ASCII space (no-break space, thin space, ideographic space…)
    /// between tokens became an ASCII space; a zero-width one was removed.
    NonAsciiWhitespace,
    /// An invalid escape in a string (`\x`, `\'`, a lone backslash) was
    /// fixed: the backslash is escaped, or dropped before `'`; or an escape
    /// of half a surrogate pair (`\ud800` alone) became `\ufffd`.
    InvalidEscape,
    /// A malformed number (`+1`, `.5`, `01`, `1.`, `82_461_110`) was written
    /// in JSON form with the same value.
    InvalidNumber,
    /// Bytes that are not UTF-8 were replaced by U+FFFD (only from
    /// [`repair_bytes`]).
    InvalidUtf8,
    /// A string missing its closing quote was closed where the structure
    /// resumes: before `, "next_key":` (`{"a": "x, "b": 1}`), or before the
    /// closers that end the input (`{"a": "x}`).
    UnclosedString,
    /// A complete key with no value (`{"a":}`, `{"a":, "b": 2}`, `{"a":` at
    /// the end) got `null` (only with [`RepairOptions::null_for_missing_values`];
    /// otherwise the member is dropped as [`RepairKind::DroppedPartialKey`]).
    MissingValue,
    /// Text without quotes where a value belongs (`{message: hello world}`,
    /// `[https://x/, 2]`, a document that is one line of words) became a
    /// string, up to the next `,`, closer or line end (only with
    /// [`RepairOptions::unquoted_strings`]).
    UnquotedString,
    /// Something that starts like a number but is none (`0789` with its
    /// leading zero, `0.0.1`, `1notanumber`, `2024-10-18T10:00Z`, `1/3`)
    /// became a string of the text written, up to the next `,`, closer or
    /// line end (only with [`RepairOptions::unquoted_strings`]; otherwise
    /// leading zeros are dropped as [`RepairKind::InvalidNumber`]).
    NumberAsString,
    /// A key or value that lost its opening quote (`{a": 1}`, `[a", "b"]`,
    /// `abc"`) got it back; the value form only with
    /// [`RepairOptions::unquoted_strings`].
    MissingOpenQuote,
    /// A value wrapped in a call (`callback(…);` JSONP, MongoDB
    /// `NumberLong("2")`, `ObjectId(…)`, `ISODate(…)`) was unwrapped; a call
    /// of several values became an array (only with
    /// [`RepairOptions::unquoted_strings`]).
    FunctionWrapper,
    /// A Python tuple `(1, 2)` became an array; `(x)` became `x`.
    Tuple,
    /// Strings joined with `+` (`"a" + "b"`) became one string.
    StringConcatenation,
    /// A JavaScript regular expression literal (`/ab+c/i`) became a string
    /// of its text (only with [`RepairOptions::unquoted_strings`]).
    RegexLiteral,
    /// A whole document written escaped (`{\"a\": 1}`, `\"text\"`) was
    /// unescaped and then repaired.
    EscapedDocument,
    /// A Python set (`{'a', 'b'}`) became an array (only with
    /// [`RepairOptions::null_for_missing_values`]).
    PythonSet,
    /// An opening brace was inserted before a key written as an array
    /// element (`["key": "value"]` → `[{"key": "value"}]`).
    MissingOpen,
    /// A doubled quote around a string (`""key""`, `""value"`) was written
    /// once.
    DoubledQuote,
    /// Text between members that is neither a key nor a value was removed:
    /// words before a quoted key (`{"a": 1, COMMENT "b": 2}`) or after a
    /// member's value before the closing brace (`{"b": "x" note}`).
    StrayText,
    /// The envelope of an unmarked call object was damaged and read by the
    /// keys it names: a key with a broken quote or separator
    /// (`"parameters>{`, `"parameters {`, `parameters={`, `"name","x"`, a
    /// name with broken quotes), or doubled brackets around the object
    /// (only when recognising a call, never in the `repair` subcommand).
    DamagedKey,
    /// Arguments written as a one-element array of the object
    /// (`"parameters": [{"a": 1}]`) were unwrapped (only when recognising a
    /// call).
    ArgumentsInArray,
    /// Braces doubled by a template's escaping (`{{"a": 1}}`, a Jinja or
    /// Python format string's `{{`) were undone.
    DoubledBraces,
    /// A call object inside a call marker wrote its arguments beside the
    /// name, with no arguments key (`{"name": "x", "q": 1}`): those members
    /// became the arguments (`{"q": 1}`; the id and a `"type"` naming the
    /// envelope excepted). Only when recognising a call.
    FlatArguments,
}

impl RepairKind {
    /// Every kind, in declaration order (the order of the docs' table).
    pub const ALL: [RepairKind; 45] = [
        RepairKind::TrailingComma,
        RepairKind::MissingClose,
        RepairKind::TruncatedString,
        RepairKind::TruncatedNumber,
        RepairKind::TruncatedLiteral,
        RepairKind::DroppedPartialKey,
        RepairKind::UnescapedQuote,
        RepairKind::ControlCharacter,
        RepairKind::UnquotedKey,
        RepairKind::SingleQuotes,
        RepairKind::TypographicQuotes,
        RepairKind::PythonLiteral,
        RepairKind::NonJsonLiteral,
        RepairKind::Comment,
        RepairKind::ByteOrderMark,
        RepairKind::CodeFence,
        RepairKind::SurroundingProse,
        RepairKind::MissingComma,
        RepairKind::MissingColon,
        RepairKind::ConcatenatedValues,
        RepairKind::ExtraClose,
        RepairKind::Ellipsis,
        RepairKind::DoubleEncoded,
        RepairKind::NonAsciiWhitespace,
        RepairKind::InvalidEscape,
        RepairKind::InvalidNumber,
        RepairKind::InvalidUtf8,
        RepairKind::UnclosedString,
        RepairKind::MissingValue,
        RepairKind::UnquotedString,
        RepairKind::NumberAsString,
        RepairKind::MissingOpenQuote,
        RepairKind::FunctionWrapper,
        RepairKind::Tuple,
        RepairKind::StringConcatenation,
        RepairKind::RegexLiteral,
        RepairKind::EscapedDocument,
        RepairKind::PythonSet,
        RepairKind::MissingOpen,
        RepairKind::DoubledQuote,
        RepairKind::StrayText,
        RepairKind::DamagedKey,
        RepairKind::ArgumentsInArray,
        RepairKind::DoubledBraces,
        RepairKind::FlatArguments,
    ];

    /// The snake_case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            RepairKind::TrailingComma => "trailing_comma",
            RepairKind::MissingClose => "missing_close",
            RepairKind::TruncatedString => "truncated_string",
            RepairKind::TruncatedNumber => "truncated_number",
            RepairKind::TruncatedLiteral => "truncated_literal",
            RepairKind::DroppedPartialKey => "dropped_partial_key",
            RepairKind::UnescapedQuote => "unescaped_quote",
            RepairKind::ControlCharacter => "control_character",
            RepairKind::UnquotedKey => "unquoted_key",
            RepairKind::SingleQuotes => "single_quotes",
            RepairKind::TypographicQuotes => "typographic_quotes",
            RepairKind::PythonLiteral => "python_literal",
            RepairKind::NonJsonLiteral => "non_json_literal",
            RepairKind::Comment => "comment",
            RepairKind::ByteOrderMark => "byte_order_mark",
            RepairKind::CodeFence => "code_fence",
            RepairKind::SurroundingProse => "surrounding_prose",
            RepairKind::MissingComma => "missing_comma",
            RepairKind::MissingColon => "missing_colon",
            RepairKind::ConcatenatedValues => "concatenated_values",
            RepairKind::ExtraClose => "extra_close",
            RepairKind::Ellipsis => "ellipsis",
            RepairKind::DoubleEncoded => "double_encoded",
            RepairKind::NonAsciiWhitespace => "non_ascii_whitespace",
            RepairKind::InvalidEscape => "invalid_escape",
            RepairKind::InvalidNumber => "invalid_number",
            RepairKind::InvalidUtf8 => "invalid_utf8",
            RepairKind::UnclosedString => "unclosed_string",
            RepairKind::MissingValue => "missing_value",
            RepairKind::UnquotedString => "unquoted_string",
            RepairKind::NumberAsString => "number_as_string",
            RepairKind::MissingOpenQuote => "missing_open_quote",
            RepairKind::FunctionWrapper => "function_wrapper",
            RepairKind::Tuple => "tuple",
            RepairKind::StringConcatenation => "string_concatenation",
            RepairKind::RegexLiteral => "regex_literal",
            RepairKind::EscapedDocument => "escaped_document",
            RepairKind::PythonSet => "python_set",
            RepairKind::MissingOpen => "missing_open",
            RepairKind::DoubledQuote => "doubled_quote",
            RepairKind::StrayText => "stray_text",
            RepairKind::DamagedKey => "damaged_key",
            RepairKind::ArgumentsInArray => "arguments_in_array",
            RepairKind::DoubledBraces => "doubled_braces",
            RepairKind::FlatArguments => "flat_arguments",
        }
    }
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a document could not be repaired.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RepairError {
    /// `TLP-003` when the input is hopeless, `TLP-007` when a limit (size,
    /// depth, time) was exceeded.
    pub code: &'static str,
    /// What went wrong, lowercase, without a trailing period.
    pub message: String,
    /// Byte offset in the input where the fault lies.
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: usize,
    /// 1-based column of `offset`, counted in characters.
    pub column: usize,
}

impl RepairError {
    /// Builds an error, computing line and column of `offset` in `input`.
    pub fn at(code: &'static str, message: impl Into<String>, input: &str, offset: usize) -> Self {
        let (line, column) = text::line_column(input, offset);
        RepairError {
            code,
            message: message.into(),
            offset: offset.min(input.len()),
            line,
            column,
        }
    }

    /// True when a limit (size, depth, time), not the input, was the problem.
    pub fn is_budget(&self) -> bool {
        self.code == CODE_BUDGET
    }
}

impl fmt::Display for RepairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: error[{}]: {}",
            self.line, self.column, self.code, self.message
        )
    }
}

impl std::error::Error for RepairError {}

/// The result of a successful repair.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The JSON text: the input itself when it was valid.
    pub output: String,
    /// False exactly when `output` equals the input.
    pub changed: bool,
    /// What was changed, ordered by offset (empty when nothing was).
    pub repairs: Vec<Repair>,
}

/// Repairs one JSON document.
///
/// Valid JSON comes back byte for byte with `changed == false` and no
/// repairs. Anything else is repaired if it can be; the output then parses
/// with `serde_json`. Hopeless input (empty, prose without JSON, an HTML
/// page, an empty code fence) gives a `TLP-003` error; input past a limit
/// gives `TLP-007`.
///
/// ```
/// use toolcall_core::{repair, RepairKind, RepairOptions};
/// let r = repair(r#"{"city": "Paris",}"#, &RepairOptions::default()).unwrap();
/// assert_eq!(r.output, r#"{"city": "Paris"}"#);
/// assert_eq!(r.repairs[0].kind, RepairKind::TrailingComma);
/// ```
pub fn repair(input: &str, opts: &RepairOptions) -> Result<Repaired, RepairError> {
    if is_valid_json(input) {
        return Ok(unchanged(input));
    }
    repair_invalid(input, opts, true)
}

/// [`repair`] for input already known not to pass `serde_json`; `verify`
/// re-checks the output (callers that parse it anyway skip that).
fn repair_invalid(
    input: &str,
    opts: &RepairOptions,
    verify: bool,
) -> Result<Repaired, RepairError> {
    if input.len() > opts.max_input_bytes {
        return Err(RepairError::at(
            CODE_BUDGET,
            format!(
                "input of {} bytes is invalid and larger than the repair limit of {} bytes",
                input.len(),
                opts.max_input_bytes
            ),
            input,
            opts.max_input_bytes,
        ));
    }
    let fixed = top::repair_document(input, opts, true)?;
    if fixed.edits_empty {
        // The tolerant parser found nothing to change, so the input is valid
        // JSON that serde_json refused only for its nesting depth.
        return Ok(unchanged(input));
    }
    let output = fixed.output;
    if verify && !is_valid_json(&output) {
        return Err(RepairError::at(
            CODE_HOPELESS,
            "could not repair the input into valid JSON",
            input,
            0,
        ));
    }
    Ok(Repaired {
        changed: output != input,
        output,
        repairs: fixed.repairs,
    })
}

/// Repairs raw bytes: invalid UTF-8 is replaced by U+FFFD first (one
/// `invalid_utf8` repair at the first bad byte; later offsets are then
/// offsets into the replaced text). Valid UTF-8 behaves as [`repair`].
pub fn repair_bytes(input: &[u8], opts: &RepairOptions) -> Result<Repaired, RepairError> {
    match std::str::from_utf8(input) {
        Ok(s) => repair(s, opts),
        Err(e) => {
            let bad = e.valid_up_to();
            let text = String::from_utf8_lossy(input);
            let mut r = repair(&text, opts)?;
            r.changed = true;
            r.repairs.insert(
                0,
                Repair {
                    kind: RepairKind::InvalidUtf8,
                    offset: bad,
                },
            );
            Ok(r)
        }
    }
}

/// Parses tool-call arguments: `serde_json` directly when the text is
/// valid, otherwise [`repair`] and then `serde_json`. Returns the value and
/// the repairs that were needed (empty for valid input).
///
/// ```
/// use toolcall_core::{parse_value, RepairOptions};
/// let (v, repairs) = parse_value("{city: 'Paris'", &RepairOptions::default()).unwrap();
/// assert_eq!(v["city"], "Paris");
/// assert_eq!(repairs.len(), 3);
/// ```
pub fn parse_value(
    input: &str,
    opts: &RepairOptions,
) -> Result<(serde_json::Value, Vec<Repair>), RepairError> {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(input) {
        return Ok((v, Vec::new()));
    }
    let mut r = repair_invalid(input, opts, false)?;
    let mut parsed = serde_json::from_str::<serde_json::Value>(&r.output);
    if parsed.is_err() {
        // JSON's grammar allows a `\u` escape of half a surrogate pair, which
        // no string can hold: it becomes U+FFFD, as bytes that are not UTF-8 do
        if let Some((fixed, at)) = replace_lone_surrogates(&r.output) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&fixed) {
                r.repairs.extend(at.into_iter().map(|offset| Repair {
                    kind: RepairKind::InvalidEscape,
                    offset,
                }));
                parsed = Ok(v);
            }
        }
    }
    match parsed {
        Ok(v) => Ok((v, r.repairs)),
        Err(e) => {
            let code = if e.to_string().contains("recursion limit") {
                CODE_BUDGET
            } else {
                CODE_HOPELESS
            };
            Err(RepairError::at(
                code,
                format!("JSON cannot be represented as a value: {e}"),
                input,
                0,
            ))
        }
    }
}

/// `text` with every `\u` escape of a surrogate that is not half of a pair
/// (`\ud800` alone, `\udc00` first) replaced by `\ufffd`, and where each
/// was; `None` when there is none. An escaped backslash (`\\ud800`) is
/// not an escape.
fn replace_lone_surrogates(text: &str) -> Option<(String, Vec<usize>)> {
    fn unit(b: &[u8], at: usize) -> Option<u16> {
        let hex = b.get(at..at + 6)?;
        if &hex[..2] != b"\\u" {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    }
    let b = text.as_bytes();
    let mut out = String::new();
    let mut at = Vec::new();
    let (mut i, mut copied) = (0, 0);
    while let Some(k) = b.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        i += k;
        let Some(u) = unit(b, i) else {
            i += 2; // any other escape, `\\` included
            continue;
        };
        let lone = match u {
            0xD800..=0xDBFF => !matches!(unit(b, i + 6), Some(0xDC00..=0xDFFF)),
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if !lone {
            i += if (0xD800..=0xDBFF).contains(&u) {
                12
            } else {
                6
            };
            continue;
        }
        out.push_str(&text[copied..i]);
        out.push_str("\\ufffd");
        at.push(i);
        i += 6;
        copied = i;
    }
    if at.is_empty() {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out, at))
}

/// True when `input` is one valid JSON text (surrounding JSON whitespace
/// allowed): what `serde_json` accepts, at any depth
/// (`scan::valid::is_json`).
pub fn is_valid_json(input: &str) -> bool {
    crate::scan::valid::is_json(input)
}

fn unchanged(input: &str) -> Repaired {
    Repaired {
        output: input.to_owned(),
        changed: false,
        repairs: Vec::new(),
    }
}
