//! `functionary-v3.2`: Functionary v3.2 (MeetKai), `>>>NAME\n{json}` segments.
//!
//! Output is a run of segments, each `>>>` + a recipient + a newline.
//! Recipient `all` is text for the user; any other recipient is a tool and
//! the segment is its JSON arguments (for `python`, raw code, reported as
//! `{"code": …}`). Example: `>>>all\nChecking now.>>>get_stock\n{"ticker": "NVDA"}`.
//!
//! The engine looks for `>` only at the start of a line, but the model glues
//! segments together (`…now.>>>get_stock`). So a `>>>all\n` header is markup
//! that *arms* `>` (an [`Action::Arm`]): from then on `>>>` is looked for
//! anywhere in the document, and the `all` text streams as text. A tool
//! segment `>>>TOOL\n{…}` is a block that also takes in further tool segments
//! glued onto it; it ends before a following `>>>all` header.
//!
//! A `>>>NAME` whose segment is neither JSON nor `python` code (a markdown
//! nested quote, a REPL prompt `>>> x`) is text.

use super::shared::python::parse_value_any;
use super::{ids, DocStart, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::call::{arguments_from, ParsedCall, Shape};
use crate::formats::Place;
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::FUNCTIONARY_V3_2,
    "Functionary v3.2 (MeetKai)",
    &[">>>NAME\\n", ">>>all\\n"],
    "JSON arguments per tool segment; `all` segments are text",
)
.openers(&[OPENER, OPENER_ARMED])
.doc_start(DocStart {
    forced_only: true,
    probe: probe_first,
})
.render(
    Prompt::new("Functionary v3.2", write_calls)
        .template(tools::functionary_v3_2, results::functionary_v3_2),
);

/// `functionary-v3.2`: `>>>NAME\n{args}` segments.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_spaced;

    each(calls, "", |_, c| {
        format!(">>>{}\n{}", c.name, json_spaced(&args(c)))
    })
}

const MAX_NAME: usize = 128;

/// What a `>>>` at some position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hdr {
    /// Undecided: the input ends first.
    Partial,
    /// Not a segment header.
    Invalid,
    /// `>>>all` (`len` excludes the newline).
    All { len: usize },
    /// A tool segment: name in `name`, body from `body`.
    Tool {
        name: (usize, usize),
        body: usize,
        python: bool,
    },
}

/// The segment header at `p`: `>>>NAME\n`, or with `implicit` (the first
/// segment of a reply, whose `>>>` the prompt already wrote) `NAME\n`.
fn header(b: &[u8], p: usize, eof: bool, implicit: bool) -> Hdr {
    let undecided = if eof { Hdr::Invalid } else { Hdr::Partial };
    let ns = if implicit {
        p
    } else {
        match scan::prefix(&b[p.min(b.len())..], b">>>") {
            Prefix::Full => {}
            Prefix::Partial => return undecided,
            Prefix::No => return Hdr::Invalid,
        }
        p + 3
    };
    let mut e = ns;
    while e < b.len() && scan::is_name_byte(b[e]) && b[e] != b'>' {
        e += 1;
        if e - ns > MAX_NAME {
            return Hdr::Invalid;
        }
    }
    let nl = match b.get(e) {
        // in a complete block a trailing `>>>all` lost its newline to the text
        None if eof && e > ns && &b[ns..e] == b"all" => return Hdr::All { len: e - p },
        None => return undecided,
        Some(b'\n') => e + 1,
        Some(b'\r') => match b.get(e + 1) {
            None => return undecided,
            Some(b'\n') => e + 2,
            Some(_) => return Hdr::Invalid,
        },
        Some(_) => return Hdr::Invalid,
    };
    if e == ns {
        return Hdr::Invalid;
    }
    let name = &b[ns..e];
    if name == b"all" {
        return Hdr::All { len: e - p };
    }
    let python = name == b"python";
    if !python {
        let s = super::shared::python::skip_space_bounded(b, nl);
        if s > nl + super::shared::python::MAX_GAP {
            return Hdr::Invalid;
        }
        match b.get(s) {
            None => return undecided,
            Some(b'{') => {}
            Some(_) => return Hdr::Invalid,
        }
    }
    Hdr::Tool {
        name: (ns, e),
        body: nl,
        python,
    }
}

/// Finds the next `>>>` at or after `from` that is a header other than
/// `Invalid`: its position and kind, or `Err(resume)` when the input runs
/// out (a partial header is waited for unless `eof`).
fn next_header(b: &[u8], from: usize, eof: bool) -> Result<(usize, Hdr), usize> {
    let mut i = from;
    while let Some(k) = scan::find(b, i, b">") {
        match header(b, k, eof, false) {
            Hdr::Invalid => i = k + 1,
            Hdr::Partial => return Err(k),
            h => return Ok((k, h)),
        }
    }
    Err(b.len())
}

/// The functionary v3.2 block format.
pub struct FunctionaryV32 {
    /// The block is the reply's first segment, written without its `>>>`.
    implicit_first: bool,
}

/// The shared instance.
pub static FUNCTIONARY_V32: FunctionaryV32 = FunctionaryV32 {
    implicit_first: false,
};

/// The instance for a reply whose first segment omits `>>>`
/// (`get_stock\n{…}`): only with `--format functionary-v3.2`, at the start
/// of the document.
pub static FUNCTIONARY_V32_FIRST: FunctionaryV32 = FunctionaryV32 {
    implicit_first: true,
};

/// Finds the end of a run of tool segments: it takes in tool segments glued
/// onto each other and ends before a `>>>all` header or anything else.
struct SegmentsScan {
    /// The block's first segment omits its `>>>`.
    implicit_first: bool,
    /// The end of the last complete segment.
    seg_end: usize,
    phase: SegPhase,
}

/// Where a [`SegmentsScan`] is.
enum SegPhase {
    /// At the header starting at `at`.
    Header { at: usize },
    /// In `all` text (the block's first segment), searched for a tool
    /// header from `from` on.
    Text { from: usize },
    /// In the JSON arguments that begin at `start`.
    Json { start: usize, json: JsonEnd },
    /// In `python` code, searched for the next header from `from` on.
    Code { from: usize },
    /// After a JSON segment: another header may be glued on at `from`.
    After { from: usize },
}

impl SegmentsScan {
    /// Ends the block after the last complete segment.
    fn done(&self) -> BlockEnd {
        BlockEnd::done(self.seg_end)
    }
}

impl Scanner for SegmentsScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let len = block.len();
        loop {
            match self.phase {
                SegPhase::Header { at } => {
                    match header(block, at, eof, self.implicit_first && at == 0) {
                        Hdr::Partial => return BlockEnd::More,
                        Hdr::Invalid if at == 0 => return BlockEnd::NotBlock { text_len: 1 },
                        Hdr::Invalid => return self.done(),
                        // the `>>>all` header is left for the probe
                        Hdr::All { .. } if at > 0 => {
                            return BlockEnd::done(self.seg_end.max(1).min(at))
                        }
                        Hdr::All { len: hl } => self.phase = SegPhase::Text { from: hl },
                        Hdr::Tool {
                            body, python: true, ..
                        } => self.phase = SegPhase::Code { from: body },
                        Hdr::Tool { body, .. } => {
                            self.phase = SegPhase::Json {
                                start: scan::skip_space(block, body),
                                json: JsonEnd::new(),
                            }
                        }
                    }
                }
                SegPhase::Text { ref mut from } => match next_header(block, *from, eof) {
                    Ok((p, Hdr::Tool { .. })) => self.phase = SegPhase::Header { at: p },
                    Ok((p, _)) => *from = p + 1,
                    Err(_) if eof => return BlockEnd::Done { len, cut: false },
                    Err(resume) => {
                        *from = resume;
                        return BlockEnd::More;
                    }
                },
                SegPhase::Json {
                    start,
                    ref mut json,
                } => match json.scan(&block[start.min(len)..]) {
                    End::At(k) => {
                        self.seg_end = start + k;
                        self.phase = SegPhase::After { from: self.seg_end };
                    }
                    End::More if eof => return BlockEnd::Done { len, cut: true },
                    End::More => return BlockEnd::More,
                    End::NotValue => return BlockEnd::done(start),
                },
                SegPhase::Code { ref mut from } => match next_header(block, *from, eof) {
                    Ok((p, Hdr::Tool { .. })) => {
                        self.seg_end = p;
                        self.phase = SegPhase::Header { at: p };
                    }
                    Ok((p, Hdr::All { .. })) => return BlockEnd::done(p),
                    Ok((p, _)) => *from = p + 1,
                    Err(_) if eof => return BlockEnd::Done { len, cut: false },
                    Err(resume) => {
                        *from = resume;
                        return BlockEnd::More;
                    }
                },
                SegPhase::After { ref mut from } => {
                    // another segment glued on?
                    let s = scan::skip_blank(block, *from);
                    if s == len {
                        *from = s;
                        return if eof { self.done() } else { BlockEnd::More };
                    }
                    match header(block, s, eof, false) {
                        Hdr::Partial => return BlockEnd::More,
                        Hdr::Invalid => return self.done(),
                        _ => self.phase = SegPhase::Header { at: s },
                    }
                }
            }
        }
    }
}

impl BlockFormat for FunctionaryV32 {
    fn id(&self) -> FormatId {
        ids::FUNCTIONARY_V3_2
    }

    // a `>>>all` glued onto the end of a tool segment is a header
    fn arms_after(&self) -> Option<u8> {
        Some(b'>')
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let mut r = BlockResult::default();
        let mut p = 0usize;
        let mut starts = Vec::new();
        loop {
            match header(block, p, true, self.implicit_first && p == 0) {
                Hdr::All { len: hl } => {
                    if p > 0 {
                        break;
                    }
                    match next_header(block, hl, true) {
                        Ok((q, Hdr::Tool { .. })) => p = q,
                        _ => break,
                    }
                }
                Hdr::Tool { name, body, python } => {
                    let tool = crate::scan::lossy(&block[name.0..name.1]).into_owned();
                    let (end, next) = if python {
                        match next_header(block, body, true) {
                            Ok((q, _)) => (q, Some(q)),
                            Err(_) => (block.len(), None),
                        }
                    } else {
                        let s = scan::skip_space(block, body);
                        let e = match crate::scan::balance::JsonEnd::new().scan(&block[s..]) {
                            End::At(k) => s + k,
                            _ => block.len(),
                        };
                        let t = scan::skip_blank(block, e);
                        let next = match header(block, t, true, false) {
                            Hdr::Invalid | Hdr::Partial => None,
                            _ => Some(t),
                        };
                        (e, next)
                    };
                    let last = next.is_none();
                    let body_text = crate::scan::lossy(&block[body..end]);
                    let arguments = if python {
                        let mut m = Map::new();
                        m.insert(
                            "code".into(),
                            Value::String(
                                body_text
                                    .trim_end()
                                    .trim_start_matches(['\n', '\r'])
                                    .to_string(),
                            ),
                        );
                        Ok((m, Vec::new()))
                    } else {
                        match parse_value_any(&body_text, cx.cut && last, &cx.cfg.repair_options())
                        {
                            Some((v, mut reps)) => arguments_from(Some(&v)).map(|(m, more)| {
                                reps.extend(more);
                                (m, reps)
                            }),
                            None if cx.cut && last => {
                                if r.calls.is_empty() {
                                    return BlockResult::truncated(
                                        ids::FUNCTIONARY_V3_2,
                                        block.len(),
                                    );
                                }
                                r.errors.extend(
                                    BlockResult::truncated(ids::FUNCTIONARY_V3_2, body).errors,
                                );
                                break;
                            }
                            None => Err(Shape::Broken(
                                "TLP-003",
                                format!("functionary-v3.2 arguments of {tool} are not valid JSON"),
                            )),
                        }
                    };
                    match arguments {
                        Ok((arguments, repairs)) => {
                            starts.push(p);
                            r.calls.push(ParsedCall {
                                repairs,
                                end: block.len(),
                                ..ParsedCall::new(
                                    crate::call::clean_name(&tool),
                                    arguments,
                                    ids::FUNCTIONARY_V3_2,
                                )
                            });
                        }
                        Err(Shape::Broken(code, msg)) => r.errors.push(super::BlockError {
                            code,
                            message: msg,
                            offset: body,
                            hint: None,
                        }),
                        Err(Shape::NotCall) => r.errors.push(super::BlockError {
                            code: "TLP-002",
                            message: format!(
                                "functionary-v3.2 arguments of {tool} are not an object"
                            ),
                            offset: body,
                            hint: None,
                        }),
                    }
                    match next {
                        Some(q) => p = q,
                        None => break,
                    }
                }
                _ => break,
            }
        }
        // each call ends where the next call's header starts
        let n = r.calls.len();
        for k in 0..n {
            r.calls[k].end = if k + 1 < n {
                starts[k + 1]
            } else {
                block.len()
            };
        }
        r
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    probe_header(input, cx, false)
}

/// The reply's first segment without its `>>>` (`get_stock\n{…}` or
/// `all\n…`), which the catalog allows: looked for only at the start of
/// the document and only with `--format functionary-v3.2`, since in
/// general a word on a line of its own is prose.
pub(crate) fn probe_first(input: &[u8], cx: &ProbeCx) -> Probe {
    if !cx.doc_start || !cx.cfg.is_only(ids::FUNCTIONARY_V3_2) {
        return Probe::NotMarker;
    }
    probe_header(input, cx, true)
}

fn probe_header(input: &[u8], cx: &ProbeCx, implicit: bool) -> Probe {
    let held = || {
        Probe::Match(Action::Block {
            fmt: if implicit {
                &FUNCTIONARY_V32_FIRST
            } else {
                &FUNCTIONARY_V32
            },
            scanner: crate::formats::BlockScanner::new(SegmentsScan {
                implicit_first: implicit,
                seg_end: 0,
                phase: SegPhase::Header { at: 0 },
            }),
        })
    };
    match header(input, 0, cx.eof, implicit) {
        Hdr::Partial => Probe::NeedMore,
        Hdr::Invalid => Probe::NotMarker,
        Hdr::Tool { .. } => held(),
        Hdr::All { len } => {
            // `>>>all\n` is markup; from now on `>>>` is looked for anywhere,
            // since the model glues the next header onto the text.
            let mut text = len;
            if input.get(text) == Some(&b'\r') {
                text += 1;
            }
            if input.get(text) == Some(&b'\n') {
                text += 1;
            }
            Probe::Match(Action::Arm {
                len: text.min(input.len()),
                byte: b'>',
            })
        }
    }
}

/// `>>>` at the start of a line.
pub const OPENER: Opener = Opener::new(b">>>", probe).line_start();

/// `>>>` inside a line, once a `>>>all` header has armed `>` for the document.
pub const OPENER_ARMED: Opener = Opener::new(b">>>", probe).place(Place::Armed(b'>'));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        assert_eq!(header(b">>>all\nHi", 0, false, false), Hdr::All { len: 6 });
        assert!(matches!(
            header(b">>>get_x\n{\"a\": 1}", 0, false, false),
            Hdr::Tool { python: false, .. }
        ));
        assert!(matches!(
            header(b">>>python\nprint(1)", 0, false, false),
            Hdr::Tool { python: true, .. }
        ));
        assert_eq!(header(b">>> quoted", 0, false, false), Hdr::Invalid);
        assert_eq!(header(b">>>note\nprose", 0, false, false), Hdr::Invalid);
        assert_eq!(header(b">>>get_x", 0, false, false), Hdr::Partial);
        assert_eq!(header(b">>>get_x\n", 0, false, false), Hdr::Partial);
        assert_eq!(header(b">>>get_x\n", 0, true, false), Hdr::Invalid);
        // the first segment without its `>>>`
        assert!(matches!(
            header(b"get_x\n{\"a\": 1}", 0, false, true),
            Hdr::Tool {
                python: false,
                name: (0, 5),
                ..
            }
        ));
        assert_eq!(header(b"all\nHi", 0, false, true), Hdr::All { len: 3 });
        assert_eq!(header(b"Sure\nthing", 0, false, true), Hdr::Invalid);
        assert_eq!(header(b"Sure thing", 0, false, true), Hdr::Invalid);
    }
}
