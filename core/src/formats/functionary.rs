//! `functionary`: `<function=NAME>{json}</function>` (Llama 3.1 custom tools,
//! Functionary v3.1).
//!
//! `qwen3-coder-xml` has an opener for the same `<function=` tag: the first
//! non-blank byte after the tag decides (`{` here, `<parameter=` or
//! `</function>` there). A tag followed by prose is not a call.

use super::shared::json::JsonThenClose;
use super::shared::tag::function_tag_end;
use super::{ids, FormatId, Rank, Values};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::formats::Place;
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format {
    id: ids::FUNCTIONARY,
    families: "Llama 3.1/3.2/3.3 custom tools, Functionary v3.1",
    markers: &["<function=NAME>", "<function name=\"NAME\">", "</function>"],
    body: "JSON object that is the arguments",
    models: &[],
    openers: &[OPENER, OPENER_NAME_ATTR],
    admitted_under: &[ids::HERMES],
    doc_start: None,
    lead: None,
    values: Values::Json,
    render: Some(crate::render::Prompt {
        models: "Llama 3.1 custom tools, Functionary v3.1",
        tools: crate::render::tools::functionary,
        tools_source: crate::render::Source::Template,
        result: crate::render::results::ipython,
        result_source: crate::render::Source::Template,
        call: crate::render::calls::functionary,
    }),
};

/// The functionary block format.
pub struct Functionary;

/// The shared instance.
pub static FUNCTIONARY: Functionary = Functionary;

const CLOSE: &[u8] = b"</function>";

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let tag = match function_tag_end(input, cx) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let s = scan::skip_space(input, tag);
    match input.get(s) {
        None if cx.eof => Probe::NotMarker,
        None => Probe::NeedMore,
        Some(b'{') => Probe::Match(Action::Block {
            fmt: &FUNCTIONARY,
            scanner: Box::new(FunctionScan {
                json: JsonThenClose::new(tag, CLOSE),
            }),
        }),
        Some(_) => Probe::NotMarker,
    }
}

/// The end of a functionary block: its JSON and `</function>`, with the `;`
/// that separates consecutive calls (`</function>;<function=…>`), which
/// belongs to the call before it, not to the text.
struct FunctionScan {
    json: JsonThenClose,
}

impl Scanner for FunctionScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        match self.json.step(block, eof) {
            BlockEnd::Done { len, cut: false }
                if len >= CLOSE.len()
                    && block[len - CLOSE.len()..len].eq_ignore_ascii_case(CLOSE) =>
            {
                // decided by the next byte: wait for it
                let s = scan::skip_blank(block, len);
                if s == block.len() && !eof {
                    return BlockEnd::More;
                }
                let len = if block.get(s) == Some(&b';') {
                    s + 1
                } else {
                    len
                };
                BlockEnd::Done { len, cut: false }
            }
            other => other,
        }
    }

    fn consumed(&self) -> usize {
        self.json.consumed()
    }
}

/// `<function=NAME>`.
pub const OPENER: Opener = Opener {
    lit: b"<function=",
    ci: false,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[ids::HERMES],
    probe,
};

/// `<function name="NAME">`.
pub const OPENER_NAME_ATTR: Opener = Opener {
    lit: b"<function name=",
    ci: false,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[ids::HERMES],
    probe,
};

impl BlockFormat for Functionary {
    fn id(&self) -> FormatId {
        ids::FUNCTIONARY
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let gt = memchr::memchr(b'>', head)?;
        let raw = std::str::from_utf8(head.get(9..gt)?).ok()?.trim();
        let raw = raw.strip_prefix("name").unwrap_or(raw).trim_start();
        let name = raw
            .strip_prefix('=')
            .unwrap_or(raw)
            .trim()
            .trim_matches(|c| c == '"' || c == '\'');
        (!name.is_empty()).then(|| name.to_string())
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let Some(gt) = memchr::memchr(b'>', block) else {
            return BlockResult::truncated(ids::FUNCTIONARY, block.len());
        };
        let raw_name = crate::scan::lossy(&block[9..gt]);
        let raw_name = raw_name.trim();
        let raw_name = raw_name
            .strip_prefix("name")
            .unwrap_or(raw_name)
            .trim_start();
        let name = raw_name
            .strip_prefix('=')
            .unwrap_or(raw_name)
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string();
        let body_end = super::shared::json::json_body_end(block, gt + 1, CLOSE);
        let body = crate::scan::lossy(&block[gt + 1..body_end]);
        let text = body.trim();
        let (value, mut repairs) = if cx.cut {
            match crate::call::close_truncated(text) {
                Some((closed, at)) => match cx.parse_json(&closed) {
                    Ok((v, mut r)) => {
                        r.push(crate::repair::Repair {
                            kind: crate::repair::RepairKind::MissingClose,
                            offset: gt + 1 + at,
                        });
                        (v, r)
                    }
                    Err(_) => return BlockResult::truncated(ids::FUNCTIONARY, block.len()),
                },
                None => {
                    match cx.parse_json(text) {
                        // a complete object that only lacks </function>
                        Ok(v) if scan::trim(&block[gt + 1..]).ends_with(b"}") => v,
                        _ => return BlockResult::truncated(ids::FUNCTIONARY, block.len()),
                    }
                }
            }
        } else {
            match cx.parse_json(text) {
                Ok(v) => v,
                Err(e) => {
                    return BlockResult::error(
                        "TLP-003",
                        format!("functionary arguments are not valid JSON: {}", e.message),
                        gt + 1,
                    )
                }
            }
        };
        let (arguments, more) = match crate::call::arguments_from(Some(&value)) {
            Ok(x) => x,
            Err(crate::call::Shape::Broken(code, msg)) => {
                return BlockResult::error(code, msg, gt + 1)
            }
            Err(crate::call::Shape::NotCall) => {
                return BlockResult::error("TLP-002", "arguments are not an object", gt + 1)
            }
        };
        repairs.extend(more);
        let lead = body.len() - body.trim_start().len();
        for r in &mut repairs {
            if r.kind != crate::repair::RepairKind::MissingClose {
                r.offset += gt + 1 + lead;
            }
        }
        if name.is_empty() {
            return BlockResult::error("TLP-001", "function name missing", 9);
        }
        BlockResult {
            empty_list: false,
            calls: vec![crate::call::ParsedCall {
                name,
                arguments: arguments.into(),
                id: None,
                format: ids::FUNCTIONARY,
                repairs,
                end: block.len(),
            }],
            errors: Vec::new(),
        }
    }
}
