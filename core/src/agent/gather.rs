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
    /// It was found as JSON in the middle of a line of prose (always needs
    /// approval).
    pub inline: bool,
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
    live: F,
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
                let inline = unmarked(call.format) && self.line_has_content;
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
                self.calls.push(Found { call, inline });
            }
            Event::Error(e) => self.errors.push(e),
        }
    }
}
