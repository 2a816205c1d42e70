//! `apertus`: Swiss AI Apertus, `<|tools_prefix|>[{"NAME": {args}}, …]<|tools_suffix|>`.
//!
//! The body is a JSON array of one-key objects: the key is the function name
//! and its value the arguments. Tolerated: a single object instead of an
//! array, arguments as a JSON string, ordinary `{"name", "arguments"}`
//! objects, Python-literal bodies, a missing closing marker, and a body cut
//! off after a complete value (closers supplied). A stray `<|tools_suffix|>`
//! is markup. The template writes the assistant's thoughts between
//! `<|inner_prefix|>` and `<|inner_suffix|>`: that span is reasoning (a
//! call drafted in it is a draft), and a stray `<|inner_suffix|>` is markup.

use super::shared::python::{body_text, parse_value_any, parsed_call, Wrap};
use super::{ids, FormatId, Rank};
use super::{Action, BlockFormat, BlockResult, Close, Format, Opener, ParseCx, Probe};
use crate::call::{arguments_from, call_from_object, Evidence, Shape};
use crate::render::{results, tools, CallSpec, Prompt};
use serde_json::Value;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::APERTUS,
    "Swiss AI Apertus",
    &[
        "<|tools_prefix|>",
        "<|tools_suffix|>",
        "<|inner_prefix|>",
        "<|inner_suffix|>",
    ],
    "JSON array of {\"NAME\": {arguments}} objects",
)
.openers(&[
    OPENER,
    OPENER_STRAY_SUFFIX,
    OPENER_INNER,
    OPENER_STRAY_INNER_SUFFIX,
])
.render(Prompt::new("Swiss AI Apertus", write_calls).template(tools::apertus, results::apertus));

/// `apertus`: `<|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::args;
    use crate::render::text::json_spaced;
    use serde_json::{Map, Value};

    let items: Vec<Value> = calls
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert(c.name.clone(), args(c));
            Value::Object(m)
        })
        .collect();
    format!(
        "<|tools_prefix|>{}<|tools_suffix|>",
        json_spaced(&Value::Array(items))
    )
}

const WRAP: Wrap = Wrap::new(b"<|tools_prefix|>", b"<|tools_suffix|>");

/// The Apertus block format.
pub struct Apertus;

/// The shared instance.
pub static APERTUS: Apertus = Apertus;

/// Reads one element: `{"NAME": {args}}`, or an ordinary call object.
fn element(v: &Value) -> Result<crate::call::CallParts, Shape> {
    let Value::Object(obj) = v else {
        return Err(Shape::NotCall);
    };
    let ordinary = ["name", "function", "tool", "tool_name"]
        .iter()
        .any(|k| obj.get(*k).is_some_and(Value::is_string));
    if obj.len() == 1 && !ordinary {
        if let Some((name, args)) = obj.iter().next() {
            if matches!(args, Value::Object(_) | Value::String(_) | Value::Null) {
                let (arguments, repairs) = arguments_from(Some(args))?;
                return Ok(crate::call::CallParts {
                    name: name.trim().to_string(),
                    arguments,
                    id: None,
                    repairs,
                });
            }
        }
    }
    call_from_object(obj, Evidence::Strong)
}

impl BlockFormat for Apertus {
    fn id(&self) -> FormatId {
        ids::APERTUS
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let (open, body_end, cut) = WRAP.body(block, cx.cut);
        let text = match body_text(block, open, body_end, cut, ids::APERTUS) {
            Ok(text) => text,
            Err(r) => return r,
        };
        let Some((value, reps)) = parse_value_any(&text, cut, &cx.cfg.repair_options()) else {
            if cut {
                return BlockResult::truncated(ids::APERTUS, block.len());
            }
            return BlockResult::error("TLP-003", "apertus body is not valid JSON", open);
        };
        let items = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        let mut r = BlockResult::default();
        for item in &items {
            match element(item) {
                Ok(p) => {
                    if p.name.is_empty() {
                        return BlockResult::error("TLP-001", "function name is empty", open);
                    }
                    r.calls
                        .push(parsed_call(p, &reps, ids::APERTUS, block.len()));
                }
                Err(Shape::NotCall) => {
                    return BlockResult::error(
                        "TLP-001",
                        "apertus element is not a {\"NAME\": {arguments}} object",
                        open,
                    )
                }
                Err(Shape::Broken(code, msg)) => return BlockResult::error(code, msg, open),
            }
        }
        if !cut && items.len() > 1 {
            let lead = text.len() - text.trim_start().len();
            super::split_array_ends(&mut r, block, open + lead);
        }
        r
    }
}

/// `<|tools_prefix|>`.
pub const OPENER: Opener = Opener::new(WRAP.open, |_, _| WRAP.block(&APERTUS));

/// A stray `<|tools_suffix|>` is markup.
pub const OPENER_STRAY_SUFFIX: Opener = Opener::markup(b"<|tools_suffix|>");

/// What ends a thought span.
const INNER_CLOSE: &[Close] = &[Close::consumed(b"<|inner_suffix|>")];

/// `<|inner_prefix|>`: the assistant's thoughts, up to `<|inner_suffix|>`.
pub const OPENER_INNER: Opener = Opener::new(b"<|inner_prefix|>", |_, _| {
    Probe::Match(Action::Reasoning {
        open_len: 16,
        close: INNER_CLOSE,
    })
})
.rank(Rank::Reasoning);

/// A stray `<|inner_suffix|>` is markup.
pub const OPENER_STRAY_INNER_SUFFIX: Opener = Opener::markup(b"<|inner_suffix|>");
