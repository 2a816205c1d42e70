//! `step3`: StepFun Step-3 tool calls.
//!
//! ```text
//! <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="ping"><steptml:parameter name="host">10.0.0.8</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
//! ```
//!
//! The tokens use U+FF5C `｜` with plain ASCII underscores (unlike DeepSeek's
//! `▁`). Parameter values are raw text and may contain `<` (HTML, code,
//! comparisons): a value runs to its `</steptml:parameter>`. Values are typed
//! like every XML-style format. Sloppy variants: section tokens missing (a
//! bare `<｜tool_call_begin｜>` or a bare `<steptml:invoke` starts a block),
//! the `function<｜tool_sep｜>` prefix missing, end tokens missing, a
//! parameter's close tag missing (the value ends at the next parameter or at
//! `</steptml:invoke>`), a cut-off last call. A DeepSeek body in these
//! tokens (DeepSeek's spelling with `▁` written `_`) is read as DeepSeek's.

use super::shared::section::{self, CallOutcome, Section, Tokens};
use super::shared::until::UntilClose;
use super::{ids, Blocks, Values};
use super::{Action, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::{clean_name, ParsedCall};
use crate::render::{CallSpec, Prompt};
use crate::scan;
use serde_json::Map;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::STEP3,
    "StepFun Step-3",
    &[
        "<｜tool_calls_begin｜>",
        "<｜tool_call_begin｜>",
        "<｜tool_sep｜>",
        "<steptml:invoke name=\"NAME\">",
        "<steptml:parameter name=\"KEY\">",
        "<｜tool_call_end｜>",
        "<｜tool_calls_end｜>",
    ],
    "steptml invoke with raw-text parameters",
)
.openers(&[OPENER, OPENER_INVOKE])
.values(Values::Text)
.render(Prompt::new("StepFun Step-3", write_calls));

/// `step3`: steptml invokes inside the Step-3 call tokens.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::value_text;

    let body = with_pairs(
        calls,
        "",
        |_, c| {
            format!(
                "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"{}\">",
                c.name
            )
        },
        // inline: the reader keeps every byte between the tags
        |k, v| {
            format!(
                "<steptml:parameter name=\"{k}\">{}</steptml:parameter>",
                value_text(v)
            )
        },
        "</steptml:invoke><｜tool_call_end｜>",
    );
    format!("<｜tool_calls_begin｜>{body}<｜tool_calls_end｜>")
}

const SECTION_BEGIN: &[u8] = "<｜tool_calls_begin｜>".as_bytes();
const CALL_BEGIN: &[u8] = "<｜tool_call_begin｜>".as_bytes();
const INVOKE: &[u8] = b"<steptml:invoke";
const INVOKE_CLOSE: &[u8] = b"</steptml:invoke>";
const PARAM: &[u8] = b"<steptml:parameter";
const PARAM_CLOSE: &[u8] = b"</steptml:parameter>";

/// The Step-3 section tokens.
pub static TOKENS: Tokens = Tokens {
    common: "<｜tool_".as_bytes(),
    call_begin: &[CALL_BEGIN],
    call_end: &["<｜tool_call_end｜>".as_bytes()],
    section_end: &["<｜tool_calls_end｜>".as_bytes()],
    json_after: &[],
    implicit_after: &[],
    name_sep: &[],
};

const STRAY: &[&[u8]] = &[
    "<｜tool_calls_end｜>".as_bytes(),
    "<｜tool_call_end｜>".as_bytes(),
    "<｜tool_sep｜>".as_bytes(),
];

/// The Step-3 section format.
pub static STEP3: Section = Section {
    id: ids::STEP3,
    tokens: &TOKENS,
    begin: &[SECTION_BEGIN],
    stray: STRAY,
    call: parse_section_call,
};

/// The separator token in Step-3's spelling.
const SEP: &[u8] = "<｜tool_sep｜>".as_bytes();

/// One call in a Step-3 section: a steptml invoke, or a DeepSeek body
/// (`NAME<｜tool_sep｜>{args}`, or `function<｜tool_sep｜>NAME` and fenced
/// JSON) in Step-3's spelling of the tokens, which is DeepSeek's with `▁`
/// written `_`: DeepSeek models drift into it (`▁` and `_` look alike) and
/// clients recover it. Without an invoke a separator followed by anything
/// but a steptml tag is read as DeepSeek's.
fn parse_section_call(
    body: &[u8],
    off: usize,
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> CallOutcome {
    if scan::find(body, 0, INVOKE).is_none() {
        if let Some(sep) = scan::find(body, 0, SEP) {
            let after = scan::skip_space(body, sep + SEP.len());
            let steptml = b"<steptml:";
            let pending = body.len() - after < steptml.len() && steptml.starts_with(&body[after..]);
            if !(cut && pending) {
                return super::shared::deepseek_body::parse_call_with(body, SEP, off, cut, opts);
            }
        }
    }
    parse_call(body, off, cut)
}

/// A bare `<steptml:invoke …>` … `</steptml:invoke>` block.
pub static STEP3_INVOKE: Blocks = Blocks::new(ids::STEP3, parse_step3_invoke);

/// Any Step-3 `<｜tool_…｜>` token.
pub const OPENER: Opener = Opener::new("<｜tool_".as_bytes(), |i, cx| STEP3.probe(i, cx));

fn probe_invoke(input: &[u8], cx: &ProbeCx) -> Probe {
    match input.get(INVOKE.len()) {
        None if !cx.eof => Probe::NeedMore,
        Some(b' ') | Some(b'\t') => Probe::Match(Action::Block {
            fmt: &STEP3_INVOKE,
            scanner: crate::formats::BlockScanner::new(UntilClose::new(0, INVOKE_CLOSE)),
        }),
        _ => Probe::NotMarker,
    }
}

/// A bare `<steptml:invoke name="…">` without the section tokens.
pub const OPENER_INVOKE: Opener = Opener::new(INVOKE, probe_invoke);

fn parse_step3_invoke(block: &[u8], cx: &ParseCx) -> BlockResult {
    match parse_call(block, 0, cx.cut) {
        Ok(mut c) => {
            c.end = block.len();
            BlockResult::one(c)
        }
        Err(e) => BlockResult::failed(e),
    }
}

/// Parses one call body: an optional `function<｜tool_sep｜>`, then the
/// steptml invoke.
fn parse_call(body: &[u8], off: usize, cut: bool) -> CallOutcome {
    let Some(inv) = scan::find(body, 0, INVOKE) else {
        if cut {
            return Err(section::truncated(ids::STEP3, off + body.len()));
        }
        return Err(section::err(
            "TLP-001",
            "step3 call has no <steptml:invoke name=…>",
            off,
        ));
    };
    let Some(gt) = memchr::memchr(b'>', &body[inv..]).map(|k| inv + k) else {
        return Err(section::truncated(ids::STEP3, off + body.len()));
    };
    let name =
        clean_name(&section::attr(&body[inv + INVOKE.len()..gt], "name").unwrap_or_default());
    if name.is_empty() {
        return Err(section::err(
            "TLP-001",
            "step3 invoke has no name",
            off + inv,
        ));
    }
    let inner_end = scan::find(body, gt, INVOKE_CLOSE);
    let inner = &body[gt + 1..inner_end.unwrap_or(body.len())];
    let (arguments, complete) = parameters(inner);
    if cut && inner_end.is_none() && !complete {
        return Err(section::truncated(ids::STEP3, off + body.len()));
    }
    Ok(ParsedCall::new(name, arguments, ids::STEP3))
}

/// Reads `<steptml:parameter name="K">V</steptml:parameter>` pairs; reports
/// whether the last one was closed.
fn parameters(inner: &[u8]) -> (Map<String, serde_json::Value>, bool) {
    let mut args = Map::new();
    let mut i = 0;
    let mut complete = true;
    while let Some(p) = scan::find(inner, i, PARAM) {
        let Some(gt) = memchr::memchr(b'>', &inner[p..]).map(|k| p + k) else {
            complete = false;
            break;
        };
        let key = section::attr(&inner[p + PARAM.len()..gt], "name").unwrap_or_default();
        let vf = gt + 1;
        let next = scan::find(inner, vf, PARAM).unwrap_or(inner.len());
        let (ve, resume) = match scan::find(inner, vf, PARAM_CLOSE) {
            Some(c) if c < next => {
                complete = true;
                (c, c + PARAM_CLOSE.len())
            }
            _ => {
                complete = false;
                (next, next)
            }
        };
        let text = crate::scan::lossy(&inner[vf..ve]);
        let key = key.trim().to_string();
        if !key.is_empty() {
            // written inline between the tags: every byte is the value's
            args.insert(key, section::typed_value(&text));
        }
        i = resume;
    }
    (args, complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn values_may_contain_angle_brackets() {
        let (m, complete) = parameters(
            br#"<steptml:parameter name="html"><b>x</b> < y</steptml:parameter><steptml:parameter name="n">3</steptml:parameter>"#,
        );
        assert!(complete);
        assert_eq!(Value::Object(m), json!({"html": "<b>x</b> < y", "n": 3}));
    }

    #[test]
    fn unclosed_value_is_incomplete() {
        let (_, complete) = parameters(br#"<steptml:parameter name="a">hal"#);
        assert!(!complete);
    }
}
