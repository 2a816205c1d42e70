//! A [`Sink`] that gathers one model reply for the tool loop: its calls
//! (each marked when it was found as JSON inside prose), its prose, its
//! reasoning, the candidates that could not be recovered, and the reply as
//! the history keeps it (prose and call markup, no reasoning).

use crate::engine::{Event, Sink};
use crate::record::{ErrorRecord, ToolCall};

/// What happens as the reply arrives, for live events.
pub enum Live<'a> {
    /// Prose.
    Text(&'a str),
    /// Reasoning content.
    Reasoning(&'a str),
}

/// A call found in the reply.
#[derive(Clone, Debug)]
pub struct Found {
    /// The call.
    pub call: ToolCall,
    /// It was found inside prose (always needs approval): JSON after
    /// prose on its line, or a marked call with prose before and after it
    /// (`<function=…>` mid-sentence, a fenced example the reply explains).
    pub inline: bool,
    /// Its text is a piece of the prompt the model was given (a tool's
    /// output, the user's message, the prompt echoed), not a call the
    /// model made earlier in the run: it needs a person's consent
    /// ([`crate::agent::echo::Copies`]). The tool loop sets it.
    pub copied: bool,
}

/// The gathered reply.
pub struct Gather<F> {
    /// The calls, in order.
    pub calls: Vec<Found>,
    /// Candidates that could not be recovered (skipped with a warning).
    pub errors: Vec<ErrorRecord>,
    /// All prose.
    pub text: String,
    /// All reasoning.
    pub reasoning: String,
    /// Prose and call markup in order: the assistant's history entry.
    pub history: String,
    line_has_content: bool,
    prose_seen: bool,
    /// Calls that are inside prose if prose follows them.
    pending: Vec<usize>,
    live: F,
}

/// Whether a call is found inside prose, from what comes before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prose {
    /// It is not.
    No,
    /// It is (JSON of a format without markers after prose on its line).
    Yes,
    /// It is when prose follows it in the reply: a marked call after prose
    /// on its line (`<function=…>` mid-sentence) or a code fence after
    /// prose (an example the reply explains). A fence after a lead-in
    /// that ends the reply is the generic prompt's own call form.
    IfFollowed,
}

/// [`Prose`] for a call whose raw text is `raw` in format `format`, after
/// other text on its line (`line_before`) and after prose in the reply
/// (`prose_before`).
pub fn in_prose(format: &str, raw: &str, line_before: bool, prose_before: bool) -> Prose {
    if line_before && unmarked(format) {
        Prose::Yes
    } else if line_before || (prose_before && (raw.starts_with("```") || raw.starts_with("~~~"))) {
        Prose::IfFollowed
    } else {
        Prose::No
    }
}

/// True for a format whose calls carry no marker (`Format::unmarked`): a
/// `{` in the middle of a line of prose is inline JSON.
fn unmarked(format: &str) -> bool {
    crate::formats::FormatId::from_id(format).is_some_and(|id| id.format().unmarked)
}

impl<F: FnMut(Live<'_>)> Gather<F> {
    /// A gatherer that reports prose and reasoning to `live` as they come.
    pub fn new(live: F) -> Self {
        Gather {
            calls: Vec::new(),
            errors: Vec::new(),
            text: String::new(),
            reasoning: String::new(),
            history: String::new(),
            line_has_content: false,
            prose_seen: false,
            pending: Vec::new(),
            live,
        }
    }

    fn saw(&mut self, s: &str) {
        for b in s.bytes() {
            match b {
                b'\n' => self.line_has_content = false,
                b' ' | b'\t' | b'\r' => {}
                _ => self.line_has_content = true,
            }
        }
    }
}

impl<F: FnMut(Live<'_>)> Sink for Gather<F> {
    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Text { bytes, .. } => {
                let s = crate::scan::lossy(bytes);
                self.text.push_str(&s);
                self.history.push_str(&s);
                self.saw(&s);
                if s.bytes().any(|b| !b.is_ascii_whitespace()) {
                    self.prose_seen = true;
                    for k in self.pending.drain(..) {
                        if let Some(f) = self.calls.get_mut(k) {
                            f.inline = true;
                        }
                    }
                }
                (self.live)(Live::Text(&s));
            }
            Event::Reasoning { content, .. } => {
                let s = crate::scan::lossy(content);
                self.reasoning.push_str(&s);
                self.line_has_content = false;
                (self.live)(Live::Reasoning(&s));
            }
            Event::Markup { bytes, .. } => {
                let s = crate::scan::lossy(bytes);
                self.saw(&s);
            }
            Event::ToolCallStart { .. } | Event::Turn(_) => {}
            Event::ToolCall(call) => {
                // a call the server parsed (no span in the text) is not prose's
                let prose = if call.span[0] == call.span[1] {
                    Prose::No
                } else {
                    in_prose(
                        call.format,
                        &call.raw,
                        self.line_has_content,
                        self.prose_seen,
                    )
                };
                if prose == Prose::IfFollowed {
                    self.pending.push(self.calls.len());
                }
                let inline = prose == Prose::Yes;
                if call.span[0] == call.span[1] {
                    // parsed by the server, not written in the text: the
                    // history shows it in the prompt's call format
                    let body = serde_json::json!({"tool": call.name, "parameters": call.arguments});
                    self.history
                        .push_str(&format!("\n```tool_call\n{body}\n```\n"));
                } else {
                    self.history.push_str(&call.raw);
                    let raw = call.raw.clone();
                    self.saw(&raw);
                }
                self.calls.push(Found {
                    call,
                    inline,
                    copied: false,
                });
            }
            Event::Error(e) => self.errors.push(e),
        }
    }
}
