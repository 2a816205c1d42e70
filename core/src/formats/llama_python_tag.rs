//! `llama-python-tag` (and `llama3-json` after the tag): Llama 3.1+ output
//! that starts with `<|python_tag|>`.
//!
//! What follows the tag decides:
//!
//! * a JSON object (or several separated by `;`, or an array of them) is
//!   `llama3-json`: `{"name": …, "parameters": {…}}` (`arguments` also);
//!   Python's `True/False/None` in it are read natively;
//! * `TOOL.call(k=v, …)` (Llama's built-in tools `brave_search`,
//!   `wolfram_alpha`, …) is a call named `TOOL` with the keyword arguments;
//! * anything else is raw code: a call to `code_interpreter` with
//!   `{"code": TEXT}` (llama.cpp's convention); with `--format functionary`
//!   a call to `python` (Functionary v3.1's convention).
//!
//! The body ends at `<|eom_id|>` / `<|eot_id|>` (left as markup), at another
//! `<|python_tag|>`, or at the end of input. A `.call(` cut off at the end of
//! input is reported as truncated rather than passed off as code.

use super::shared::python::{
    block_result, call_head, parse_call_sequence, parse_value_any, parsed_call, PyCalls,
};
use super::{ids, Blocks, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::{calls_from_value, Evidence, ParsedCall, Shape};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(ids::LLAMA_PYTHON_TAG, "Llama 3.1/3.2/3.3 built-in tools (brave_search, wolfram_alpha, code_interpreter), Functionary v3.1 code", &["<|python_tag|>", "<|eom_id|>", "<|eot_id|>"], "TOOL.call(k=v) or raw Python code; JSON after the tag is llama3-json")
    .openers(&[OPENER])
    .render(
        Prompt::new("Llama 3.1 built-in tools", write_calls).template(tools::llama_python_tag, results::ipython_tojson),
    );

/// `llama-python-tag`: `<|python_tag|>NAME.call(k=v)<|eom_id|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::py_kwargs;

    each(calls, "", |_, c| {
        format!(
            "<|python_tag|>{}.call({})<|eom_id|>",
            c.name,
            py_kwargs(&c.arguments)
        )
    })
}

const TAG: &[u8] = b"<|python_tag|>";
const TAG_LEN: usize = TAG.len();
const ENDS: &[&[u8]] = &[b"<|eom_id|>", b"<|eot_id|>", TAG];

/// Built-in tool calls and raw code after the tag.
pub struct PythonTag {
    /// The format id (and label of the calls).
    id: FormatId,
    /// The tool raw code is a call to.
    code_tool: &'static str,
}

/// The shared instance.
pub static PYTHON_TAG: PythonTag = PythonTag {
    id: ids::LLAMA_PYTHON_TAG,
    code_tool: "code_interpreter",
};

/// Functionary v3.1's raw code after the tag, with `--format functionary`:
/// a call to `python` (docs/formats.md#llama-python-tag).
pub static PYTHON_TAG_FUNCTIONARY: PythonTag = PythonTag {
    id: ids::FUNCTIONARY,
    code_tool: "python",
};

/// JSON objects after the tag (`llama3-json`).
pub static PYTHON_TAG_JSON: Blocks = Blocks::new(ids::LLAMA3_JSON, parse_python_tag_json);

/// Finds the end of raw code (or built-in calls) after the tag: the first
/// end token, else the end of input.
struct CodeScan {
    /// Where the search for an end token resumes.
    from: usize,
}

impl Scanner for CodeScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let mut i = self.from;
        while let Some(k) = memchr::memchr(b'<', &block[i.min(block.len())..]) {
            let at = i + k;
            let mut partial = false;
            for t in ENDS {
                match scan::prefix(&block[at..], t) {
                    Prefix::Full => return BlockEnd::done(at),
                    Prefix::Partial => partial = true,
                    Prefix::No => {}
                }
            }
            if partial && !eof {
                self.from = at;
                return BlockEnd::More;
            }
            i = at + 1;
        }
        if eof {
            // normal for raw code: no end token
            BlockEnd::cut_off(block)
        } else {
            self.from = block.len();
            BlockEnd::More
        }
    }

    fn consumed(&self) -> usize {
        TAG_LEN
    }
}

/// Finds the end of the JSON values after the tag: one value, or several
/// separated by `;`.
struct JsonValuesScan {
    /// The end of the last complete value (0 before the first).
    last_end: usize,
    phase: ValuesPhase,
}

/// Where a [`JsonValuesScan`] is.
enum ValuesPhase {
    /// A value begins after blanks at `from`.
    Lead { from: usize },
    /// Inside the value that begins at `start`.
    Value { start: usize, json: JsonEnd },
    /// After a value: a `;` and another object may follow (looked at from
    /// `from`).
    After { from: usize },
}

impl JsonValuesScan {
    /// Ends the block at `len`.
    fn done(len: usize) -> BlockEnd {
        BlockEnd::Done { len, cut: false }
    }
}

impl Scanner for JsonValuesScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let len = block.len();
        loop {
            match self.phase {
                ValuesPhase::Lead { from } => {
                    self.phase = ValuesPhase::Value {
                        start: scan::skip_space(block, from),
                        json: JsonEnd::new(),
                    };
                }
                ValuesPhase::Value {
                    start,
                    ref mut json,
                } => match json.scan(&block[start.min(len)..]) {
                    End::At(k) => {
                        self.last_end = start + k;
                        self.phase = ValuesPhase::After {
                            from: self.last_end,
                        };
                    }
                    End::More if eof => return BlockEnd::Done { len, cut: true },
                    End::More => return BlockEnd::More,
                    End::NotValue => return Self::done(self.last_end.max(start)),
                },
                ValuesPhase::After { ref mut from } => {
                    let s = scan::skip_space(block, *from);
                    if s == len {
                        *from = s;
                        return if eof {
                            Self::done(self.last_end)
                        } else {
                            BlockEnd::More
                        };
                    }
                    if block[s] != b';' {
                        return Self::done(self.last_end);
                    }
                    let n = scan::skip_space(block, s + 1);
                    if n == len {
                        // resume at the `;` (a short rescan of blanks)
                        *from = s;
                        return if eof {
                            Self::done(s + 1)
                        } else {
                            BlockEnd::More
                        };
                    }
                    if block[n] != b'{' {
                        return Self::done(s + 1);
                    }
                    self.phase = ValuesPhase::Lead { from: n };
                }
            }
        }
    }

    fn consumed(&self) -> usize {
        TAG_LEN
    }
}

impl BlockFormat for PythonTag {
    fn id(&self) -> FormatId {
        self.id
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let from = TAG_LEN.min(block.len());
        let text = crate::scan::lossy(&block[from..]);
        let exact = matches!(text, std::borrow::Cow::Borrowed(_));
        let code = text.trim();
        if code.is_empty() {
            return BlockResult::error("TLP-001", "nothing after <|python_tag|>", from);
        }
        if super::shared::evidence::marker_in_prose(text.as_bytes()) {
            // `<|python_tag|>: the token that …`: the tag named in a sentence
            return BlockResult::text();
        }
        let s = scan::skip_space(text.as_bytes(), 0);
        let builtin = call_head(text.as_bytes(), s) == Some(true)
            && text[s..]
                .split('(')
                .next()
                .is_some_and(|n| n.trim_end().ends_with(".call"));
        match parse_call_sequence(&text, cx.cut) {
            Ok(pc) if pc.calls.iter().all(|c| c.name.ends_with(".call")) => {
                let calls = pc
                    .calls
                    .into_iter()
                    .map(|mut c| {
                        c.name = c.name.trim_end_matches(".call").to_string();
                        c
                    })
                    .collect();
                return block_result(PyCalls { calls, ..pc }, self.id, from, block.len(), exact);
            }
            Err(super::shared::python::PyError::Eof) if builtin && cx.cut => {
                return BlockResult::truncated(self.id, block.len())
            }
            _ => {}
        }
        let mut arguments = Map::new();
        arguments.insert("code".into(), Value::String(code.to_string()));
        BlockResult::one(ParsedCall {
            end: block.len(),
            ..ParsedCall::new(self.code_tool.into(), arguments, self.id)
        })
    }
}

fn parse_python_tag_json(block: &[u8], cx: &ParseCx) -> BlockResult {
    // the values and their ends
    let mut values = Vec::new();
    let mut s = scan::skip_space(block, TAG_LEN.min(block.len()));
    loop {
        let e = match crate::scan::balance::JsonEnd::new().scan(&block[s..]) {
            End::At(k) => s + k,
            _ => block.len(),
        };
        values.push((s, e));
        let t = scan::skip_space(block, e);
        if block.get(t) != Some(&b';') {
            break;
        }
        let n = scan::skip_space(block, t + 1);
        if block.get(n) != Some(&b'{') {
            break;
        }
        s = n;
    }
    let mut r = BlockResult::default();
    let count = values.len();
    for (k, &(s, e)) in values.iter().enumerate() {
        let last = k + 1 == count;
        let text = crate::scan::lossy(&block[s..e]);
        let cut = cx.cut && last;
        let Some((value, reps)) = parse_value_any(&text, cut, &cx.cfg.repair_options()) else {
            // damaged call objects (a broken key, a stray quote that
            // seemed to run to the end …), whose brackets balance
            if let Some(mut r) = super::shared::recover::block_result(block, values[0].0, cx.cfg) {
                for c in &mut r.calls {
                    c.format = ids::LLAMA3_JSON;
                }
                return r;
            }
            if cut {
                return BlockResult::truncated(ids::LLAMA3_JSON, block.len());
            }
            return BlockResult::error(
                "TLP-003",
                "llama3-json body after <|python_tag|> is not valid JSON",
                s,
            );
        };
        let end = match values.get(k + 1) {
            Some(&(next, _)) => next,
            None => block.len(),
        };
        match calls_from_value(&value, Evidence::Strong) {
            Ok(parts) => {
                let m = parts.len();
                for (j, p) in parts.into_iter().enumerate() {
                    let end = if j + 1 == m { end } else { s };
                    r.calls.push(parsed_call(p, &reps, ids::LLAMA3_JSON, end));
                }
            }
            Err(Shape::NotCall) => {
                r.errors.push(super::BlockError {
                    code: "TLP-001",
                    message: "llama3-json object has no function name".into(),
                    offset: s,
                    hint: None,
                });
            }
            Err(Shape::Broken(code, msg)) => r.errors.push(super::BlockError {
                code,
                message: msg,
                offset: s,
                hint: None,
            }),
        }
    }
    if count == 1 && !cx.cut {
        super::split_array_ends(&mut r, block, values[0].0);
    }
    if let Some(last) = r.calls.last_mut() {
        last.end = block.len();
    }
    r
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let code_fmt: &'static PythonTag = if cx.cfg.allows(ids::LLAMA_PYTHON_TAG) {
        &PYTHON_TAG
    } else {
        &PYTHON_TAG_FUNCTIONARY
    };
    let code = || {
        Probe::Match(Action::Block {
            fmt: code_fmt,
            scanner: crate::formats::BlockScanner::new(CodeScan { from: TAG_LEN }),
        })
    };
    let s = super::shared::python::skip_space_bounded(input, TAG_LEN);
    if s > TAG_LEN + super::shared::python::MAX_GAP {
        return code();
    }
    let json = || {
        Probe::Match(Action::Block {
            fmt: &PYTHON_TAG_JSON,
            scanner: crate::formats::BlockScanner::new(JsonValuesScan {
                last_end: 0,
                phase: ValuesPhase::Lead { from: TAG_LEN },
            }),
        })
    };
    match input.get(s) {
        None if cx.eof => Probe::Match(Action::Markup { len: TAG_LEN }),
        None => Probe::NeedMore,
        Some(b'{') => json(),
        Some(b'[') => match input.get(super::shared::python::skip_space_bounded(input, s + 1)) {
            None if !cx.eof => Probe::NeedMore,
            Some(b'{') => json(),
            _ => code(),
        },
        Some(_) => {
            // an end token right after the tag: the tag is markup
            for t in ENDS {
                match scan::prefix(&input[s..], t) {
                    Prefix::Full => return Probe::Match(Action::Markup { len: TAG_LEN }),
                    Prefix::Partial if !cx.eof => return Probe::NeedMore,
                    _ => {}
                }
            }
            code()
        }
    }
}

/// `<|python_tag|>`.
pub const OPENER: Opener = Opener::new(TAG, probe).also(&[ids::LLAMA3_JSON, ids::FUNCTIONARY]);
