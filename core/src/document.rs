//! Whole-document results, collected from the engine's events.
//!
//! [`Collector`] is the sink `parse` and `split` use and the one the
//! invariant tests use to compare chunked streaming with a single feed: it
//! merges adjacent segments of the same kind, so how the input was chunked
//! cannot show in its result.

use crate::engine::{Config, Engine, Event, Sink};
use crate::record::{ErrorRecord, Segment, SegmentKind, Split, ToolCall};

/// Everything found in one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Collector {
    /// The calls, in order.
    pub calls: Vec<ToolCall>,
    /// The errors, in order.
    pub errors: Vec<ErrorRecord>,
    /// The tiling, adjacent segments of one kind merged.
    pub segments: Vec<Segment>,
    /// All text bytes.
    pub text: Vec<u8>,
    /// Length of `text` before the first call (all of it when none).
    pub text_before_len: Option<usize>,
    /// Length of `text` before the text that follows the last call.
    pub text_after_from: usize,
    /// All reasoning content.
    pub reasoning: Vec<u8>,
    /// `(index, name)` of every `tool_call_start` event.
    pub starts: Vec<(usize, String)>,
    /// Keep no text or reasoning bytes (`parse` prints only calls and
    /// errors, and must not hold a gigabyte of prose to do it).
    pub skip_text: bool,
    /// Ask for no `tool_call_start` events (`starts` stays empty).
    pub skip_starts: bool,
    /// Keep no tiling (`segments` stays empty).
    pub skip_segments: bool,
    /// Keep calls as tallies, for counting them ([`Sink::wants_records`]):
    /// each call has its index, span, format and turn, and no name,
    /// arguments, id, raw text or document name. Errors are whole.
    pub tally: bool,
    /// Call records already written and dropped by a consumer, handed to
    /// the engine to be filled again ([`Sink::spare_call`]), so that their
    /// strings are not allocated anew. Empty unless the consumer gives
    /// some back; never part of the result.
    pub spare: Vec<ToolCall>,
}

impl Collector {
    /// A collector for calls and errors only: no text, reasoning, starts
    /// or segments are kept.
    pub fn calls_only() -> Self {
        Collector {
            skip_text: true,
            skip_starts: true,
            skip_segments: true,
            ..Collector::default()
        }
    }

    fn push_segment(&mut self, kind: SegmentKind, span: [u64; 2]) {
        if self.skip_segments || (span[0] == span[1] && kind != SegmentKind::ToolCall) {
            return;
        }
        if kind != SegmentKind::ToolCall {
            if let Some(last) = self.segments.last_mut() {
                if last.kind == kind && last.span[1] == span[0] {
                    last.span[1] = span[1];
                    return;
                }
            }
        }
        self.segments.push(Segment { kind, span });
    }

    /// Turns the collection into a `split` record.
    pub fn into_split(self, doc: &str) -> Split {
        Split {
            kind: "split",
            doc: doc.to_string(),
            text_before: crate::scan::lossy(
                &self.text[..self.text_before_len.unwrap_or(self.text.len())],
            )
            .into_owned(),
            // with no call, all text is "before" and none is "after"
            text_after: match self.text_before_len {
                Some(_) => crate::scan::lossy(&self.text[self.text_after_from..]).into_owned(),
                None => String::new(),
            },
            text: crate::scan::lossy(&self.text).into_owned(),
            reasoning: crate::scan::lossy(&self.reasoning).into_owned(),
            tool_calls: self.calls,
            errors: self.errors,
            segments: self.segments,
        }
    }
}

impl Sink for Collector {
    fn wants_starts(&self) -> bool {
        !self.skip_starts
    }

    fn wants_records(&self) -> bool {
        !self.tally
    }

    fn spare_call(&mut self) -> Option<ToolCall> {
        self.spare.pop()
    }

    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Text { span, bytes } => {
                self.push_segment(SegmentKind::Text, span);
                if !self.skip_text {
                    self.text.extend_from_slice(bytes);
                }
            }
            Event::Reasoning { span, content } => {
                self.push_segment(SegmentKind::Reasoning, span);
                if !self.skip_text {
                    self.reasoning.extend_from_slice(content);
                }
            }
            Event::Markup { span, .. } => self.push_segment(SegmentKind::Markup, span),
            Event::ToolCallStart { index, name, .. } => self.starts.push((index, name.to_string())),
            Event::ToolCall(call) => {
                if !call.in_reasoning {
                    // a call drafted in reasoning lies inside a reasoning segment
                    self.push_segment(SegmentKind::ToolCall, call.span);
                    if self.text_before_len.is_none() {
                        self.text_before_len = Some(self.text.len());
                    }
                    self.text_after_from = self.text.len();
                }
                self.calls.push(call);
            }
            Event::Error(e) => self.errors.push(e),
            Event::Turn(_) => {}
        }
    }
}

/// Parses a whole document: the engine fed once.
pub fn parse(input: &[u8], cfg: &Config) -> Collector {
    let mut c = Collector::default();
    let mut engine = Engine::new(cfg.clone());
    engine.feed(input, &mut c);
    engine.finish(&mut c);
    c
}

/// Parses a document fed in the given chunks (for tests and tools that
/// receive input piecewise).
pub fn parse_chunked<'a>(chunks: impl IntoIterator<Item = &'a [u8]>, cfg: &Config) -> Collector {
    let mut c = Collector::default();
    let mut engine = Engine::new(cfg.clone());
    for chunk in chunks {
        engine.feed(chunk, &mut c);
    }
    engine.finish(&mut c);
    c
}
