//! The conversation checks of a raw transcript (model text with turn
//! headers, `<|im_start|>assistant` …) that need no call ids: `TLP-009`
//! (a call no tool turn answers before the next assistant turn) and
//! `TLP-010` (a tool turn beyond one per call), run as the calls and turns
//! are found ([`TurnCheck`]), or over a whole text ([`check_transcript`]).
//! Conversations written as message lists have their own checks
//! ([`super::messages::lint`]).

use super::messages::{ORPHAN_RESULT, UNANSWERED};
use super::Issue;
use crate::document::Collector;
use crate::engine::{Event, Sink};
use crate::record::{Span, ToolCall, Turn};
use serde::Serialize;

/// What a `user` turn that holds tool results opens with: Qwen's
/// `<tool_response>`, Gemma's fenced `tool_output`.
pub const RESULT_OPENERS: &[&[u8]] = &[b"<tool_response>", b"```tool_output"];

/// A collector of calls and errors that also notes the turns of a
/// transcript, each with the span of its header (the turn's first markup).
#[derive(Debug, Default)]
pub struct TurnsSeen {
    /// The calls and errors.
    pub found: Collector,
    /// The turns, in order, with their headers' spans.
    pub turns: Vec<(Turn, Option<Span>)>,
}

impl Sink for TurnsSeen {
    fn wants_starts(&self) -> bool {
        Sink::wants_starts(&self.found)
    }

    fn wants_records(&self) -> bool {
        Sink::wants_records(&self.found)
    }

    fn spare_call(&mut self) -> Option<ToolCall> {
        Sink::spare_call(&mut self.found)
    }

    fn event(&mut self, ev: Event<'_>) {
        match &ev {
            Event::Turn(t) => self.turns.push((*t, None)),
            Event::Markup { span, .. } => {
                if let Some((_, header @ None)) = self.turns.last_mut() {
                    *header = Some(*span);
                }
            }
            _ => {}
        }
        Sink::event(&mut self.found, ev);
    }
}

/// Something [`TurnCheck`] orders: a call, or a candidate the parser gave
/// up on, with the call record it stands for.
pub trait Candidate {
    /// The call (for a broken candidate, the record standing in for it).
    fn call(&self) -> &ToolCall;
    /// True for a candidate that is not a call.
    fn is_broken(&self) -> bool;
}

impl Candidate for ToolCall {
    fn call(&self) -> &ToolCall {
        self
    }

    fn is_broken(&self) -> bool {
        false
    }
}

/// What [`TurnCheck`] hands on, in document order.
#[derive(Debug)]
pub enum Checked<T> {
    /// A candidate whose fate is known, with the `TLP-009` issue when no
    /// tool turn answered it.
    Item(T, Option<Issue>),
    /// A tool turn that answers no call (`TLP-010`): a stand-in record
    /// over its header line, and the offset of its header.
    Orphan {
        /// The record (no name, the header line as `raw`).
        call: Box<ToolCall>,
        /// The issue.
        issue: Issue,
        /// The header's byte offset.
        offset: usize,
    },
}

/// The checks, run as a transcript's calls and turns are found. A tool
/// turn (a `tool` header, or a `user` turn that opens with one of the
/// [`RESULT_OPENERS`]) answers the calls of the assistant turn before it:
/// a call of an assistant turn that no tool turn follows before the next
/// assistant turn is `TLP-009`; a tool turn beyond one per call since the
/// last assistant turn is `TLP-010`. A document without turn headers (one
/// reply) is never checked.
#[derive(Debug)]
pub struct TurnCheck<T> {
    /// `TLP-009` is checked.
    unanswered: bool,
    /// `TLP-010` is checked.
    orphan: bool,
    /// The calls of the current assistant turn, held back until a tool
    /// turn or the next assistant turn tells their fate.
    held: Vec<T>,
    /// Calls and broken candidates since the last assistant turn began.
    calls: usize,
    /// Tool turns since then.
    results: usize,
}

impl<T: Candidate> TurnCheck<T> {
    /// The checks, less the codes in `allow`.
    pub fn new(allow: &[String]) -> TurnCheck<T> {
        let on = |code: &str| !allow.iter().any(|a| a == code);
        TurnCheck {
            unanswered: on(UNANSWERED),
            orphan: on(ORPHAN_RESULT),
            held: Vec::new(),
            calls: 0,
            results: 0,
        }
    }

    /// Where the first held call starts (`None`: none is held): nothing
    /// from there on may be handed on yet.
    pub fn held_from(&self) -> Option<u64> {
        self.held.first().map(|it| it.call().span[0])
    }

    /// Takes the candidates and turns of one slice of `text` (the whole
    /// document, named `doc`), in document order (a candidate lies in the
    /// turn its call names, after that turn's header): those ready go to
    /// `out`, calls whose fate is not known yet are held.
    pub fn take(
        &mut self,
        items: Vec<T>,
        turns: Vec<(Turn, Option<Span>)>,
        doc: &str,
        text: &[u8],
        out: &mut Vec<Checked<T>>,
    ) {
        let key = |it: &T| it.call().turn.map_or(0, |t| t.index as usize + 1);
        let mut items = items;
        items.sort_by_key(|it| (key(it), it.call().span[0]));
        let mut items = items.into_iter().peekable();
        for (turn, header) in turns {
            while let Some(item) = items.next_if(|it| key(it) <= turn.index as usize) {
                self.item(item, out);
            }
            self.turn(turn, header, doc, text, out);
        }
        for item in items {
            self.item(item, out);
        }
    }

    /// The input ended: the calls still held go to `out` (their replies
    /// may be on their way).
    pub fn finish(&mut self, out: &mut Vec<Checked<T>>) {
        out.extend(self.held.drain(..).map(|it| Checked::Item(it, None)));
    }

    /// A call or broken candidate: a call of an assistant's turn that no
    /// tool turn has answered yet is held, the rest go to `out`.
    fn item(&mut self, item: T, out: &mut Vec<Checked<T>>) {
        self.calls += 1;
        if !item.is_broken()
            && item.call().turn.is_some_and(|t| t.role == "assistant")
            && self.results == 0
            && self.unanswered
        {
            self.held.push(item);
        } else {
            out.push(Checked::Item(item, None));
        }
    }

    /// A turn begins, its header at `header`.
    fn turn(
        &mut self,
        turn: Turn,
        header: Option<Span>,
        doc: &str,
        bytes: &[u8],
        out: &mut Vec<Checked<T>>,
    ) {
        let [start, end] = header.unwrap_or([0, 0]).map(|o| o as usize);
        let body = bytes.get(end..).unwrap_or_default();
        let opens = |o: &&[u8]| body.trim_ascii_start().starts_with(o);
        let results =
            turn.role == "tool" || (turn.role == "user" && RESULT_OPENERS.iter().any(opens));
        if turn.role == "assistant" {
            for item in self.held.drain(..) {
                let issue = Issue::call(
                    UNANSWERED,
                    format!(
                        "call '{}' has no tool result before the next assistant turn (turn {})",
                        item.call().name,
                        turn.index
                    ),
                );
                out.push(Checked::Item(item, Some(issue)));
            }
            self.calls = 0;
            self.results = 0;
        } else if results {
            self.results += 1;
            out.extend(self.held.drain(..).map(|it| Checked::Item(it, None)));
            if self.results > self.calls && self.orphan {
                let message = if self.calls == 0 {
                    format!(
                        "tool turn {} answers no call: none was made since the last assistant turn",
                        turn.index
                    )
                } else {
                    format!(
                        "tool turn {} answers no call: {} tool turns follow {} call{}",
                        turn.index,
                        self.results,
                        self.calls,
                        if self.calls == 1 { "" } else { "s" }
                    )
                };
                let line_end = body
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |k| end + k);
                let start = start.min(line_end);
                let raw = crate::scan::lossy(&bytes[start..line_end.min(start + 512)]).into_owned();
                let mut call = super::records::stand_in(doc, &raw, [start as u64, line_end as u64]);
                call.turn = Some(turn);
                out.push(Checked::Orphan {
                    call: Box::new(call),
                    issue: Issue::call(ORPHAN_RESULT, message),
                    offset: start,
                });
            }
        }
    }
}

/// A finding of [`check_transcript`]: the code, what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnFinding {
    /// `TLP-009` or `TLP-010`.
    pub code: &'static str,
    /// What is wrong, in one line.
    pub message: String,
    /// The document.
    pub doc: String,
    /// The call (`TLP-009`) or the tool turn's header line (`TLP-010`).
    pub span: Span,
    /// The turn the call or result lies in.
    #[serde(flatten)]
    pub turn: Option<Turn>,
}

/// Runs the checks over a whole raw transcript read with `cfg` and `wire`
/// (a `Resolved`'s two halves; the codes in `allow` off): the findings in
/// document order.
pub fn check_transcript(
    text: &[u8],
    cfg: &crate::config::Config,
    wire: &crate::wire::WireConfig,
    allow: &[String],
) -> Vec<TurnFinding> {
    let mut seen = TurnsSeen {
        found: Collector::calls_only(),
        turns: Vec::new(),
    };
    let mut engine = crate::wire::WireEngine::new(cfg.clone(), wire.clone());
    engine.feed(text, &mut seen);
    engine.finish(&mut seen);
    let mut check = TurnCheck::<ToolCall>::new(allow);
    let mut out = Vec::new();
    check.take(seen.found.calls, seen.turns, &cfg.doc, text, &mut out);
    check.finish(&mut out);
    let mut findings: Vec<TurnFinding> = out
        .into_iter()
        .filter_map(|c| match c {
            Checked::Item(call, Some(issue)) => Some((call, issue)),
            Checked::Orphan { call, issue, .. } => Some((*call, issue)),
            Checked::Item(_, None) => None,
        })
        .map(|(call, issue)| TurnFinding {
            code: issue.code,
            message: issue.message,
            doc: call.doc,
            span: call.span,
            turn: call.turn,
        })
        .collect();
    findings.sort_by_key(|f| f.span[0]);
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &[u8], allow: &[String]) -> Vec<TurnFinding> {
        let r = crate::door::Options::default().resolve().unwrap();
        check_transcript(text, &r.config, &r.wire, allow)
    }

    #[test]
    fn an_unanswered_call_and_an_orphan_result_are_found() {
        let text = b"<|im_start|>user\nweather?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call><|im_end|>\n<|im_start|>assistant\nno result came<|im_end|>\n<|im_start|>tool\n<tool_response>x</tool_response><|im_end|>\n";
        let found = check(text, &[]);
        let codes: Vec<&str> = found.iter().map(|f| f.code).collect();
        assert_eq!(codes, ["TLP-009", "TLP-010"], "{found:?}");
        assert!(check(text, &["TLP-009".into(), "TLP-010".into()]).is_empty());
    }

    #[test]
    fn one_reply_is_never_checked() {
        let text = b"<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
        assert!(check(text, &[]).is_empty());
    }
}
