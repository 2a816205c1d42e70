//! `minicpm5`: OpenBMB MiniCPM 5 XML calls.
//!
//! ```text
//! <function name="get_weather"><param name="city">Paris</param><param name="days">3</param></function>
//! ```
//!
//! One `<function name="NAME">` element per call, its arguments as
//! `<param name="KEY">VALUE</param>` children. A value may be a CDATA
//! section (`<![CDATA[…]]>`, kept verbatim, whitespace and markup
//! included); other values are text, typed like every XML-style value (JSON
//! objects and arrays decoded, exact numbers and booleans typed, the tool's
//! schema decides under `--tools`). Tolerated: the tags collapsed by
//! detokenization (`<functionname="NAME">`, `<paramname="KEY">`), a lone
//! `properties` or `arguments` parameter holding the whole arguments object
//! (JSON or a Python dict), which is unwrapped, the parameters wrapped in
//! an `<arguments>` element, and `</function>` inside a CDATA value (it does
//! not end the call). A parameter may also carry its value as attributes,
//! `<param name="city" value="Oslo" type="string"/>`, typed by `type`, or
//! hold further parameters (optionally in a `<dict>` element), which make
//! an object: the XML that prompts describing tools as XML teach.

use super::shared::section::{attr, match_any, Hit};
use super::shared::xml::decode_value;
use super::{
    ids, Action, BlockEnd, BlockFormat, BlockResult, Format, FormatId, Model, Opener, ParseCx,
    Probe, ProbeCx, Scanner, Values,
};
use crate::call::{clean_name, ParsedCall};
use crate::render::{CallSpec, Prompt};
use crate::repair::RepairOptions;
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::MINICPM5,
    "OpenBMB MiniCPM 5",
    &[
        "<function name=\"NAME\">",
        "<param name=\"KEY\">",
        "<![CDATA[…]]>",
        "</param>",
        "</function>",
    ],
    "<param name=\"KEY\">VALUE</param> children, values as text or CDATA",
)
.models(&[Model::new("minicpm5", "")])
.openers(&[OPENER, OPENER_COLLAPSED])
.values(Values::Text)
.render(Prompt::new("MiniCPM 5", write_calls));

/// `minicpm5`: `<function name="NAME">` with `<param name="K">V</param>`
/// children; a value with markup or edge whitespace in a CDATA section.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::value_text;
    use serde_json::Value;

    each(calls, "\n", |_, c| {
        let mut s = format!("<function name=\"{}\">", c.name);
        for (k, v) in &c.arguments {
            let text = value_text(v);
            // a string that would read back as something else, or that holds
            // markup or edge whitespace, goes in a CDATA section
            let cdata = match v {
                Value::String(t) => {
                    crate::formats::shared::xml::decode_value(t) != *v
                        || t.contains('<')
                        || t.contains('&')
                        || t.trim() != t
                }
                _ => false,
            };
            if cdata && !text.contains("]]>") {
                s.push_str(&format!("<param name=\"{k}\"><![CDATA[{text}]]></param>"));
            } else {
                s.push_str(&format!("<param name=\"{k}\">{text}</param>"));
            }
        }
        s.push_str("</function>");
        s
    })
}

/// The block format.
pub struct MiniCpm5;

/// The shared instance.
pub static MINICPM5: MiniCpm5 = MiniCpm5;

const CLOSE: &[u8] = b"</function>";
const CDATA_OPEN: &[u8] = b"<![CDATA[";
const CDATA_CLOSE: &[u8] = b"]]>";

/// An element some MiniCPM outputs wrap the parameters in; its tags are
/// framing, the parameters are read inside it.
const ARGUMENTS: &[u8] = b"<arguments>";

/// After the opening tag (`lit` bytes, then the name attribute's value and
/// `>`): a call when `<param` or `</function>` follows (inside an optional
/// `<arguments>` element).
fn probe(input: &[u8], cx: &ProbeCx, lit: usize) -> Probe {
    let limit = input.len().min(lit + 256);
    let Some(gt) = input[lit..limit].iter().position(|&b| b == b'>') else {
        return if limit == input.len() && limit < lit + 256 && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        };
    };
    let tag = lit + gt + 1;
    if input[lit..tag - 1]
        .iter()
        .any(|&b| matches!(b, b'<' | b'\n'))
    {
        return Probe::NotMarker;
    }
    let mut s = scan::skip_space(input, tag);
    // the parameters may sit in an `<arguments>` element
    match scan::prefix(&input[s..], ARGUMENTS) {
        Prefix::Full => s = scan::skip_space(input, s + ARGUMENTS.len()),
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match match_any(&input[s..], &[b"<param", CLOSE]) {
        Hit::Full(_) => Probe::Match(Action::Block {
            fmt: &MINICPM5,
            scanner: crate::formats::BlockScanner::new(FunctionScan { resume: tag, tag }),
        }),
        Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<function name="NAME">`.
pub const OPENER: Opener = Opener::new(b"<function name=", |i, cx| probe(i, cx, 15));

/// `<functionname="NAME">` (collapsed by detokenization).
pub const OPENER_COLLAPSED: Opener = Opener::new(b"<functionname=", |i, cx| probe(i, cx, 14));

/// Finds `</function>` outside CDATA sections.
struct FunctionScan {
    /// Everything before this is known not to hold the end.
    resume: usize,
    /// The opening tag's length.
    tag: usize,
}

impl Scanner for FunctionScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let mut i = self.resume;
        loop {
            let Some(k) = memchr::memchr(b'<', &block[i.min(block.len())..]) else {
                self.resume = block.len();
                break;
            };
            let at = i + k;
            let rest = &block[at..];
            match scan::prefix(rest, CLOSE) {
                Prefix::Full => return BlockEnd::done(at + CLOSE.len()),
                Prefix::Partial => {
                    self.resume = at;
                    break;
                }
                Prefix::No => {}
            }
            match scan::prefix(rest, CDATA_OPEN) {
                Prefix::Full => match scan::find(block, at + CDATA_OPEN.len(), CDATA_CLOSE) {
                    Some(e) => i = e + CDATA_CLOSE.len(),
                    None => {
                        // inside CDATA: resume at its start once more comes
                        self.resume = at;
                        break;
                    }
                },
                Prefix::Partial => {
                    self.resume = at;
                    break;
                }
                Prefix::No => i = at + 1,
            }
        }
        BlockEnd::unended(block, eof)
    }

    fn consumed(&self) -> usize {
        self.tag
    }
}

impl BlockFormat for MiniCpm5 {
    fn id(&self) -> FormatId {
        ids::MINICPM5
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let gt = memchr::memchr(b'>', head)?;
        let name = clean_name(&attr(&head[..gt], "name")?);
        (!name.is_empty()).then_some(name)
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let Some(gt) = memchr::memchr(b'>', block) else {
            return BlockResult::truncated(ids::MINICPM5, block.len());
        };
        let head =
            crate::scan::lossy(&block[..gt]).replacen("<functionname=", "<function name=", 1);
        let name = clean_name(&attr(head.as_bytes(), "name").unwrap_or_default());
        if name.is_empty() {
            return BlockResult::error("TLP-001", "MiniCPM function has no name", 0);
        }
        let body_end = if cx.cut {
            block.len()
        } else {
            block.len() - CLOSE.len()
        };
        let (mut args, complete, nameless) = params(&block[gt + 1..body_end]);
        if cx.cut && !complete {
            return BlockResult::truncated(ids::MINICPM5, block.len());
        }
        if nameless {
            // its value has no key to go under: dropping it would run the
            // tool without an argument the model wrote
            return BlockResult::error("TLP-002", "a MiniCPM parameter has no name", 0);
        }
        unwrap_lone_wrapper(&mut args, &cx.cfg.repair_options());
        BlockResult::one(ParsedCall {
            end: block.len(),
            ..ParsedCall::new(name, args, ids::MINICPM5)
        })
    }
}

/// The `<param name="K">V</param>` children; false when the last one is
/// not closed; true (third) when a parameter has no name.
fn params(body: &[u8]) -> (Map<String, Value>, bool, bool) {
    let mut nameless = false;
    let (args, _, complete) = params_from(body, 0, 0, &mut nameless);
    (args, complete, nameless)
}

/// Deepest nesting of `<param>` elements followed.
const MAX_NESTING: usize = 32;

/// The `<param>` children from `i` on, up to the `</param>` that closes the
/// element they are in (`depth` > 0) or the end of `body`: the arguments,
/// where reading stopped, and false when an element is not closed. A
/// parameter without a `name` sets `nameless` (its value is not kept).
///
/// Besides `<param name="K">V</param>`, a parameter may carry its value as
/// attributes, `<param name="K" value="V" type="T"/>` (typed by `type`),
/// or hold further parameters, which make an object (`<param name="opts"
/// type="dict"><param …/></param>`, an optional `<dict>` element around
/// them).
fn params_from(
    body: &[u8],
    mut i: usize,
    depth: usize,
    nameless: &mut bool,
) -> (Map<String, Value>, usize, bool) {
    let mut args = Map::new();
    loop {
        let next = scan::find(body, i, b"<param");
        let close = scan::find(body, i, b"</param>");
        let p = match (next, close) {
            (Some(p), Some(c)) if c < p => return (args, c, depth > 0),
            (None, Some(c)) => return (args, c, depth > 0),
            (Some(p), _) => p,
            (None, None) => return (args, body.len(), depth == 0),
        };
        let Some(gt) = memchr::memchr(b'>', &body[p..]).map(|k| p + k) else {
            return (args, body.len(), false);
        };
        let tag = crate::scan::lossy(&body[p..gt]).replacen("<paramname=", "<param name=", 1);
        let key = attr(tag.as_bytes(), "name").unwrap_or_default();
        let kind = attr(tag.as_bytes(), "type");
        let vs = gt + 1;
        let (value, next) = if tag.ends_with('/') {
            // `<param name="K" value="V" type="T"/>`
            let text = attr(tag.as_bytes(), "value").unwrap_or_default();
            (typed(&text, kind.as_deref()), vs)
        } else if body[vs..].starts_with(CDATA_OPEN) {
            let from = vs + CDATA_OPEN.len();
            let Some(e) = scan::find(body, from, CDATA_CLOSE) else {
                return (args, body.len(), false);
            };
            let text = crate::scan::lossy(&body[from..e]).into_owned();
            match scan::find(body, e, b"</param>") {
                Some(c) => (Value::String(text), c + 8),
                None => return (args, body.len(), false),
            }
        } else if let Some(inner) = nested_start(body, vs).filter(|_| depth < MAX_NESTING) {
            // parameters inside a parameter: an object
            let (map, c, complete) = params_from(body, inner, depth + 1, nameless);
            if !complete {
                return (args, body.len(), false);
            }
            (Value::Object(map), c + 8)
        } else {
            let Some(c) = scan::find(body, vs, b"</param>") else {
                return (args, body.len(), false);
            };
            let text = crate::scan::lossy(&body[vs..c]);
            let value = match attr(tag.as_bytes(), "value") {
                // `<param name="K" value="V"></param>`
                Some(v) if text.trim().is_empty() => typed(&v, kind.as_deref()),
                _ if kind.is_some() => {
                    typed(&crate::call::strip_value_framing(&text), kind.as_deref())
                }
                _ => param_value(&text),
            };
            (value, c + 8)
        };
        if key.is_empty() {
            *nameless = true;
        } else {
            args.insert(key, value);
        }
        i = next;
    }
}

/// Where the children of a parameter start when its content is further
/// parameters (after blanks and an optional `<dict>` tag); `None` when it
/// is a value.
fn nested_start(body: &[u8], vs: usize) -> Option<usize> {
    let mut s = scan::skip_space(body, vs);
    for wrapper in [&b"<dict>"[..], b"<object>"] {
        if body[s..].starts_with(wrapper) {
            s = scan::skip_space(body, s + wrapper.len());
        }
    }
    body[s..].starts_with(b"<param").then_some(s)
}

/// A value written as text, typed by a `type` attribute (`string`, `int`,
/// `float`, `bool`, `dict`, `list`, `null` and their JSON Schema and
/// Python spellings); without one, or with another, typed like every
/// XML-style value.
fn typed(text: &str, kind: Option<&str>) -> Value {
    let t = text.trim();
    match kind.map(str::to_ascii_lowercase).as_deref() {
        Some("string" | "str" | "text") => Value::String(text.to_string()),
        Some("int" | "integer" | "long") => t
            .parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| param_value(text)),
        Some("float" | "number" | "double" | "decimal") => t
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or_else(|| param_value(text)),
        Some("bool" | "boolean") => match t.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Value::Bool(true),
            "false" | "0" | "no" => Value::Bool(false),
            _ => param_value(text),
        },
        Some("null" | "none") => Value::Null,
        _ => param_value(text),
    }
}

/// A parameter's value: one framing newline on each side dropped (the
/// value written on its own lines), typed like every XML-style value; a
/// dict or list written as a Python literal (`{'key': 'value'}`) is that
/// object or array, as its JSON spelling is.
fn param_value(text: &str) -> Value {
    let text = crate::call::strip_value_framing(text);
    let value = decode_value(&text);
    let t = text.trim();
    let bracketed =
        (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
    if value.is_string() && bracketed {
        if let Ok(v) = super::shared::python::parse_literal(t) {
            return v;
        }
    }
    value
}

/// A lone `properties` or `arguments` parameter holding the whole arguments
/// object (as JSON or a Python dict) is unwrapped.
fn unwrap_lone_wrapper(args: &mut Map<String, Value>, opts: &RepairOptions) {
    if args.len() != 1 {
        return;
    }
    let Some((key, value)) = args.iter().next() else {
        return;
    };
    if key != "properties" && key != "arguments" {
        return;
    }
    let inner = match value {
        Value::Object(m) => Some(m.clone()),
        Value::String(s) if s.trim_start().starts_with('{') => {
            match crate::call::parse_json(s.trim(), opts) {
                Ok((Value::Object(m), _)) => Some(m),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(m) = inner {
        *args = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cdata_values_are_verbatim_and_may_hold_markup() {
        let (args, complete, _) = params(
            b"<param name=\"code\"><![CDATA[  a </param> </function>\n]]></param><param name=\"n\">3</param>",
        );
        assert!(complete);
        assert_eq!(
            Value::Object(args),
            json!({"code": "  a </param> </function>\n", "n": 3})
        );
    }

    #[test]
    fn attribute_values_are_typed_and_nest() {
        let (args, complete, _) = params(
            b"<param name=\"city\" value=\"Oslo\" type=\"string\"/>\n<param name=\"days\" value=\"3\" type=\"int\"/><param name=\"opts\" type=\"dict\"><dict><param name=\"metric\" value=\"true\" type=\"bool\"/><param name=\"zip\" value=\"0150\" type=\"string\"/></dict></param><param name=\"n\">2</param>",
        );
        assert!(complete);
        assert_eq!(
            Value::Object(args),
            json!({"city": "Oslo", "days": 3, "opts": {"metric": true, "zip": "0150"}, "n": 2})
        );
    }

    #[test]
    fn a_parameter_without_a_name_is_reported() {
        let (args, complete, nameless) =
            params(b"<param>X</param><param name=\"date\">2024-06-27</param>");
        assert!(complete && nameless);
        assert_eq!(Value::Object(args), json!({"date": "2024-06-27"}));
        let (_, _, nameless) = params(b"<param name=\"city\">X</param>");
        assert!(!nameless);
    }

    #[test]
    fn a_lone_wrapper_is_unwrapped() {
        let (mut args, _, _) = params(b"<param name=\"properties\">{'phone': '555'}</param>");
        unwrap_lone_wrapper(&mut args, &RepairOptions::default());
        assert_eq!(Value::Object(args), json!({"phone": "555"}));
        let (mut args, _, _) = params(b"<param name=\"arguments\">plain</param>");
        unwrap_lone_wrapper(&mut args, &RepairOptions::default());
        assert_eq!(Value::Object(args), json!({"arguments": "plain"}));
    }
}
