//! The one incremental engine behind `parse`, `stream` and `split`.
//!
//! Bytes are fed in chunks of any size; events come out as soon as they are
//! certain. Batch parsing is this engine fed once, so stream and batch cannot
//! disagree. The engine is a small state machine over one buffer:
//!
//! * **text**: memchr finds the next byte that could start a marker (`<`,
//!   `[`, a backtick, or the first byte of a line); the format table decides
//!   whether a marker really begins there. Bytes that could still be the start
//!   of a marker are held back; everything else is emitted at once.
//! * **reasoning**: content is emitted as it arrives, until a closing marker.
//! * **block**: a candidate call is held back until its format's scanner finds
//!   where it ends, then parsed once.
//! * **fence / inline code**: ordinary code is text in which markers are not
//!   looked for.

use crate::call::ParsedCall;
use crate::formats::{
    self, registry, Action, BlockEnd, BlockFormat, Close, FormatId, Probe, ProbeCx, Scanner,
};
use crate::record::{ErrorRecord, Span, ToolCall, Turn};
use crate::scan::{self, skip_blank};

pub use crate::config::{Config, FormatChoice};

/// An event, borrowing from the engine's buffer where it can.
#[derive(Debug)]
pub enum Event<'a> {
    /// Prose: `bytes` are exactly the bytes of `span`.
    Text {
        /// Where.
        span: Span,
        /// The bytes.
        bytes: &'a [u8],
    },
    /// Thinking: `span` includes the markers, `content` excludes them.
    Reasoning {
        /// Where.
        span: Span,
        /// The content bytes.
        content: &'a [u8],
    },
    /// Control tokens that are neither text nor a call.
    Markup {
        /// Where.
        span: Span,
        /// The bytes.
        bytes: &'a [u8],
    },
    /// A call has begun and its name is known.
    ToolCallStart {
        /// The call's index.
        index: usize,
        /// Its id.
        id: &'a str,
        /// Its name.
        name: &'a str,
    },
    /// A complete call (a tally, without its strings, for a sink that
    /// does not read calls: [`Sink::wants_records`]).
    ToolCall(ToolCall),
    /// A candidate that could not be recovered.
    Error(ErrorRecord),
    /// A turn of a transcript begins (a role's header follows): the events
    /// after it, up to the next, are that turn's. Never sent for a
    /// document with no turn markers.
    Turn(Turn),
}

/// Receives events.
pub trait Sink {
    /// Called once per event, in document order.
    fn event(&mut self, ev: Event<'_>);

    /// Whether [`Event::ToolCallStart`] events are wanted. A sink that only
    /// keeps whole calls says no, and the engine skips the work of finding
    /// a call's name early; every other event is the same.
    fn wants_starts(&self) -> bool {
        true
    }

    /// Whether the sink reads what a call holds. A sink that only counts
    /// calls (`parse -c`, `-q`, `-l`) says no: the engine reads every block
    /// exactly as it would otherwise and sends the same events, but each
    /// [`Event::ToolCall`] is then a tally: its `kind`, `index`, `span`,
    /// `format`, `repairs`, `in_reasoning` and `turn` are set, its strings
    /// (`doc`, `id`, `name`, `raw`) are empty, its arguments `{}` and its
    /// `extra` empty, and the [`Event::ToolCallStart`] before it has an
    /// empty id and name. So a call costs no allocation for its record.
    fn wants_records(&self) -> bool {
        true
    }

    /// A call record the sink is done with, for the engine to fill with
    /// the next call: its document name, id and raw text are written into
    /// the strings it already holds, so a sink that writes each call and
    /// hands it back costs no allocation for them. Every field is set
    /// anew; nothing of the old call remains. Default: none (each call is
    /// a new record).
    fn spare_call(&mut self) -> Option<ToolCall> {
        None
    }
}

impl<F: FnMut(Event<'_>)> Sink for F {
    fn event(&mut self, ev: Event<'_>) {
        self(ev)
    }
}

enum Mode {
    Text,
    Reasoning {
        /// Bytes of the opening marker not yet emitted (at the buffer start).
        open_pending: usize,
        close: &'static [Close],
    },
    Block {
        fmt: &'static dyn BlockFormat,
        scanner: formats::BlockScanner,
    },
    Fence {
        ticks: usize,
        byte: u8,
    },
    InlineCode {
        ticks: usize,
    },
    Verbatim {
        close: &'static [&'static [u8]],
        through: &'static [&'static [u8]],
    },
}

/// The error records one block gives at most: each carries the block's
/// bytes, so the errors past this many are summed up in the last (linear
/// output however many empty calls a block holds).
pub const MAX_BLOCK_ERRORS: usize = 8;

/// The incremental engine. Feed it chunks, then call [`Engine::finish`].
///
/// Events reach the [`Sink`] as soon as they are certain; a closure is a
/// sink. However the input is cut, the events are those of the whole
/// document fed at once (text may come in more pieces).
///
/// ```
/// use toolcall_core::{Config, Engine, Event};
///
/// let reply = "Checking.<tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}</tool_call>";
/// let mut engine = Engine::new(Config::default());
/// let (mut text, mut calls) = (String::new(), Vec::new());
/// let mut sink = |ev: Event<'_>| match ev {
///     Event::Text { bytes, .. } => text.push_str(std::str::from_utf8(bytes).unwrap()),
///     Event::ToolCall(call) => calls.push(call.name),
///     _ => {}
/// };
/// for chunk in reply.as_bytes().chunks(5) {
///     engine.feed(chunk, &mut sink);
/// }
/// engine.finish(&mut sink);
/// assert_eq!(text, "Checking.");
/// assert_eq!(calls, ["get_time"]);
/// ```
pub struct Engine {
    cfg: Config,
    /// [`id_salt`] of the document, for derived call ids.
    salt: u64,
    /// Bytes that may lead a marker starting after them (read once from the
    /// registry for the format choice).
    leads: Vec<formats::Lead>,
    buf: Vec<u8>,
    /// Absolute offset of `buf[0]` in the document.
    base: u64,
    mode: Mode,
    /// Only blanks since the last newline (or the document start) before `buf[0]`.
    line_start: bool,
    /// `buf[0]` starts a line: the byte before it is a newline, or it is
    /// the document's first byte (where a line lead may start).
    after_newline: bool,
    /// Newlines before `base`, and the offset just after the last of them.
    lines: u64,
    line_begin: u64,
    /// Every newline before this absolute offset is counted in `lines`.
    counted: u64,
    calls: usize,
    finished: bool,
    /// Scans reasoning content for drafted calls (`--reasoning-calls`, and
    /// reasoning left open at end of input). Never nests further.
    nested: Option<Box<Engine>>,
    /// Calls the nested engine found in the current reasoning span.
    drafted: Vec<ToolCall>,
    /// The reasoning read so far ends with a drafted call: only blanks or
    /// markup came after the last one.
    drafted_last: bool,
    /// This engine scans inside reasoning.
    is_nested: bool,
    /// The reasoning in progress is a `<think>` the prompt opened and none
    /// of it was read yet: a `<think>` the model writes again at its start
    /// (after blanks) is the same opener repeated, markup, not reasoning.
    reopen_think: bool,
    /// A `tool_call_start` was already emitted for the pending block.
    start_sent: bool,
    /// How many head bytes of the pending block `early_name` last saw.
    start_tried: usize,
    /// The id the last `tool_call_start` carried, for its call's record.
    early: EarlyId,
    /// A byte an [`Action::Arm`] made a candidate anywhere in a line.
    armed: Option<u8>,
    /// See [`ProbeCx::declined`].
    declined: Option<&'static [u8]>,
    /// Where the next special byte / newline is, remembered between text
    /// steps so that a document of many blocks and few newlines is not
    /// searched again from every block (which would be quadratic).
    sp_cache: NextCache,
    nl_cache: NextCache,
    /// A byte the text scanner must also stop at because an opener that
    /// begins with it is on ([`registry::extra_stop`]), and where it is next.
    extra_stop: Option<u8>,
    extra_cache: NextCache,
    /// Probes made so far.
    probes: u64,
    /// Bytes shown to probes and block scanners (a work count: fed in
    /// bounded chunks, a linear engine shows each byte a bounded number of
    /// times).
    shown: u64,
    /// Where the last probe that answered `NeedMore` was (an absolute
    /// offset) and how many bytes it was shown ([`ProbeCx::seen`]).
    pending_probe: Option<(u64, usize)>,
    /// How much of the block in progress its scanner was shown already
    /// (scanners resume: only the bytes after it count as shown again).
    block_seen: usize,
    /// Bytes at the start of the buffer that the generation prompt left
    /// held back: they belong to the prompt, so events are shifted back by
    /// this much and anything before it is cut from them.
    hidden: Hidden,
    /// The document's start, held while it is unknown whether the prompt
    /// opened reasoning ([`Config::think_window`]).
    undecided: Option<Undecided>,
    /// The document's text just before the position (see [`TextTail`]).
    tail: TextTail,
    /// The turn the text read so far is in (`None` before the first turn
    /// header, and in a document without them).
    turn: Option<Turn>,
    /// The list the last placed block's calls came in, emptied: lent to the
    /// next block's parse ([`formats::ParseCx::spare`]).
    spare_calls: Vec<crate::call::ParsedCall>,
}

/// The last bytes of text the engine emitted, and whether any of its text
/// was more than blanks: what a block's parse may weigh as the words that
/// introduce it (`reply like this: {…}`) and whether it stands as the
/// reply. Text is emitted in document order whatever the chunking, so both
/// are the same in stream and batch.
#[derive(Default)]
struct TextTail {
    /// Up to [`TextTail::KEEP`] bytes, the most recent last.
    bytes: Vec<u8>,
    /// Non-blank text was emitted.
    seen: bool,
}

impl TextTail {
    /// The most bytes kept.
    const KEEP: usize = 256;

    fn push(&mut self, text: &[u8]) {
        if !self.seen {
            self.seen = !text.iter().all(u8::is_ascii_whitespace);
        }
        let text = &text[text.len().saturating_sub(Self::KEEP)..];
        let over = (self.bytes.len() + text.len()).saturating_sub(Self::KEEP);
        if over > 0 {
            self.bytes.drain(..over);
        }
        self.bytes.extend_from_slice(text);
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// The start of a document held until its first bytes show whether the
/// prompt opened reasoning.
#[derive(Debug, Default)]
struct Undecided {
    /// The bytes so far.
    held: Vec<u8>,
    /// Where the search for a closer resumes.
    searched: usize,
}

/// The end of the generation prompt that the engine still holds.
#[derive(Clone, Copy, Debug, Default)]
struct Hidden {
    /// Its length.
    len: u64,
    /// Newlines in it.
    lines: u64,
    /// Bytes after its last newline.
    last_line: u64,
}

/// The answer of a forward search, kept in absolute offsets.
#[derive(Clone, Copy, Debug, Default)]
struct NextCache {
    /// The hit found by the last search, if any.
    next: Option<u64>,
    /// With no hit: the search covered everything before this offset.
    searched: u64,
    /// Bytes searched so far (a work count for the linear-time tests).
    work: u64,
}

impl NextCache {
    /// The first hit at or after buffer index `from`, reusing the last
    /// search where it still applies; `usize::MAX` when there is none.
    fn find(
        &mut self,
        base: u64,
        data: &[u8],
        from: usize,
        search: impl Fn(&[u8], usize) -> usize,
    ) -> usize {
        let from_abs = base + from as u64;
        if let Some(n) = self.next {
            if n >= from_abs && n < base + data.len() as u64 {
                return (n - base) as usize;
            }
        }
        let end_abs = base + data.len() as u64;
        if self.next.is_none() && self.searched >= end_abs && from_abs <= end_abs {
            // the last search already found nothing up to the end
            return usize::MAX;
        }
        let start = if self.next.is_none() && self.searched > from_abs {
            ((self.searched - base) as usize).min(data.len())
        } else {
            from
        };
        let hit = search(data, start);
        self.work += (hit.min(data.len()) - start.min(data.len())) as u64 + 1;
        if hit == usize::MAX {
            self.next = None;
            self.searched = base + data.len() as u64;
        } else {
            self.next = Some(base + hit as u64);
        }
        hit
    }
}

enum Step {
    /// Keep going from this buffer index.
    Go(usize),
    /// Stop: everything before this index is consumed; wait for input.
    Wait(usize),
}

impl Engine {
    /// A fresh engine for one document.
    pub fn new(cfg: Config) -> Self {
        let think_open = cfg.think_open;
        let prompt = cfg.generation_prompt.clone();
        let mut engine = Engine::with_mode(cfg);
        if let Some(prompt) = prompt.filter(|p| !p.is_empty()) {
            engine.prime(&prompt);
        }
        if think_open && !matches!(engine.mode, Mode::Reasoning { .. }) {
            engine.enter_reasoning(0, 0, formats::reasoning::PREFILLED_THINK_CLOSE);
            engine.reopen_think = true;
        } else if !think_open
            && engine.cfg.generation_prompt.is_none()
            && engine.cfg.think_window > 0
        {
            // how the prompt left the document is unknown: its start is
            // held until that is decided
            engine.undecided = Some(Undecided::default());
        }
        engine
    }

    /// Feeds `chunk` to the start of a document that is held while it is
    /// unknown whether the prompt opened reasoning; once that is decided,
    /// the engine is set up accordingly and the held bytes run through it.
    /// Returns the sink back when the bytes were held.
    fn feed_undecided(&mut self, chunk: &[u8], eof: bool, sink: &mut dyn Sink) -> bool {
        let Some(u) = self.undecided.as_mut() else {
            return false;
        };
        u.held.extend_from_slice(chunk);
        let cfg = &self.cfg;
        let held = &u.held;
        let mut probes = 0u64;
        let mut call_at = |k: usize| {
            probes += 1;
            let cx = ProbeCx {
                armed: None,
                declined: None,
                line_start: k == 0 || held[..k].ends_with(b"\n"),
                doc_start: k == 0,
                eof,
                seen: 0,
                cfg,
            };
            match registry::probe_noting(&held[k..], &cx, &mut None) {
                Probe::Match(Action::Block { .. }) => Some(true),
                Probe::NeedMore => None,
                _ => Some(false),
            }
        };
        let verdict = formats::reasoning::prompt_opened(
            held,
            &mut u.searched,
            cfg.think_window,
            eof,
            &mut call_at,
        );
        self.probes += probes;
        let close = match verdict {
            formats::reasoning::PromptThink::Wait => return true,
            formats::reasoning::PromptThink::Text => None,
            formats::reasoning::PromptThink::Opened(close) => Some(close),
        };
        let held = self.undecided.take().map(|u| u.held).unwrap_or_default();
        if let Some(close) = close {
            self.enter_reasoning(0, 0, close);
        }
        self.feed_inner(&held, sink);
        true
    }

    /// Runs the generation prompt through the engine, its events dropped,
    /// so the document starts in the state the prompt leaves: then offsets
    /// start again at 0. What the prompt leaves held back (the start of a
    /// message header, say) stays in the buffer as a hidden prefix.
    fn prime(&mut self, prompt: &[u8]) {
        self.feed(prompt, &mut |_: Event<'_>| {});
        if let Mode::Reasoning {
            ref mut open_pending,
            ref mut close,
        } = self.mode
        {
            // a reasoning span the prompt opened: its marker is the prompt's
            if *open_pending >= self.buf.len() {
                self.buf.clear();
                *open_pending = 0;
            }
            *close = formats::reasoning::prefilled_close(close);
            self.reopen_think = std::ptr::eq(*close, formats::reasoning::PREFILLED_THINK_CLOSE);
        }
        let held = &self.buf;
        let lines = scan::count_lines(held);
        let last_line = match memchr::memrchr(b'\n', held) {
            Some(k) => held.len() - k - 1,
            None => held.len(),
        };
        self.hidden = Hidden {
            len: held.len() as u64,
            lines,
            last_line: last_line as u64,
        };
        self.base = 0;
        self.lines = 0;
        self.line_begin = 0;
        self.counted = 0;
        self.calls = 0;
        self.sp_cache = NextCache::default();
        self.nl_cache = NextCache::default();
        self.extra_cache = NextCache::default();
        self.start_sent = false;
        self.start_tried = 0;
        self.early.key = None;
        // the prompt's turns are not the document's, nor its text
        self.turn = None;
        self.tail = TextTail::default();
        if let Some(inner) = self.nested.as_mut() {
            // reasoning content the prompt wrote is not the document's
            let mut fresh = Engine::with_mode(inner.cfg.clone());
            fresh.is_nested = true;
            fresh.calls = 0;
            **inner = fresh;
            self.drafted.clear();
            self.drafted_last = false;
        }
    }

    /// Sets the finish reason learned at the end of a stream (wire input):
    /// `truncated` means the output was cut at the token limit.
    pub fn set_truncated(&mut self, truncated: bool) {
        self.cfg.truncated = truncated;
    }

    fn with_mode(cfg: Config) -> Self {
        let leads = registry::leads(&cfg);
        let extra_stop = registry::extra_stop(&cfg);
        Engine {
            salt: id_salt(&cfg.doc, cfg.turn),
            cfg,
            leads,
            buf: Vec::with_capacity(8 * 1024),
            base: 0,
            mode: Mode::Text,
            line_start: true,
            after_newline: true,
            lines: 0,
            line_begin: 0,
            counted: 0,
            calls: 0,
            finished: false,
            nested: None,
            drafted: Vec::new(),
            drafted_last: false,
            reopen_think: false,
            is_nested: false,
            start_sent: false,
            start_tried: 0,
            early: EarlyId::default(),
            armed: None,
            declined: None,
            sp_cache: NextCache::default(),
            nl_cache: NextCache::default(),
            extra_stop,
            extra_cache: NextCache::default(),
            probes: 0,
            shown: 0,
            block_seen: 0,
            pending_probe: None,
            hidden: Hidden::default(),
            undecided: None,
            turn: None,
            tail: TextTail::default(),
            spare_calls: Vec::new(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// A count of the text scanner's work so far (bytes searched plus
    /// probes): the linear-time tests compare it across input sizes.
    pub fn work(&self) -> u64 {
        let held = self.undecided.as_ref().map_or(0, |u| u.searched as u64);
        self.sp_cache.work + self.nl_cache.work + self.extra_cache.work + self.probes + held
    }

    /// Bytes shown to probes and block scanners so far: the whole rest of
    /// the buffer to each probe (a probe keeps nothing between calls), the
    /// bytes a block's scanner had not seen yet to it (a scanner resumes).
    /// Fed in chunks of a bounded size, an engine whose probes and scanners
    /// decide within a bounded lookahead shows each byte a bounded number
    /// of times; a probe held open by a long run, or a scanner that reads
    /// to the end of the input before the block it ends short of, shows
    /// the rest again and again (the linear-time tests compare this across
    /// input sizes).
    pub fn shown(&self) -> u64 {
        self.shown + self.nested.as_ref().map_or(0, |n| n.shown())
    }

    /// Number of calls emitted so far.
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Total bytes consumed so far.
    pub fn consumed(&self) -> u64 {
        self.base
    }

    /// An offset no event still to come starts before, in the coordinates
    /// of the events' spans, when the engine can tell: in plain text with
    /// nothing drafted in reasoning waiting, everything before the consumed
    /// bytes is final. `None` inside a block, reasoning or code, where a
    /// later event may start earlier. A consumer that must order what it is
    /// given (`validate`) can hand on everything before it.
    pub fn settled(&self) -> Option<u64> {
        (matches!(self.mode, Mode::Text) && self.drafted.is_empty() && self.undecided.is_none())
            .then(|| self.base.saturating_sub(self.hidden.len))
    }

    /// Bytes held back right now: the undecided tail of the input (a marker
    /// prefix, a block whose end is not yet found), plus what the nested
    /// engine scanning reasoning holds. The memory tests assert this stays
    /// below a constant bound however long the stream is.
    pub fn held(&self) -> usize {
        self.buf.len()
            + self.nested.as_ref().map_or(0, |n| n.held())
            + self.undecided.as_ref().map_or(0, |u| u.held.len())
    }

    /// Decides now how the document starts, if it is still held to learn
    /// whether the prompt opened reasoning ([`Config::think_window`]): on
    /// what has arrived so far, as at the end of input. Wire decoders call
    /// it before an event the server sent outside the text (a native call,
    /// reasoning), so the text before that event is not reported after it.
    pub fn settle_start(&mut self, sink: &mut dyn Sink) {
        if self.undecided.is_some() {
            if self.hidden.len > 0 {
                let hidden = self.hidden;
                self.feed_undecided(&[], true, &mut Unhide { hidden, sink });
            } else {
                self.feed_undecided(&[], true, sink);
            }
        }
    }

    /// Stops looking for reasoning the prompt opened, before anything was
    /// fed: the document's start is not held ([`Config::think_window`]).
    pub fn no_prompt_think(&mut self) {
        if self.undecided.as_ref().is_some_and(|u| u.held.is_empty()) {
            self.undecided = None;
        }
    }

    /// Feeds the next chunk.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        if self.finished {
            return;
        }
        if self.feed_undecided(chunk, false, sink) {
            return;
        }
        if self.hidden.len > 0 {
            let hidden = self.hidden;
            return self.feed_inner(chunk, &mut Unhide { hidden, sink });
        }
        self.feed_inner(chunk, sink)
    }

    /// The bytes held back undecided from the chunks fed so far, when the
    /// next chunk may be fed behind them with [`Engine::feed_after_held`];
    /// `None` while the document's start is held to learn whether the
    /// prompt opened reasoning, or once the document is finished.
    pub fn held_bytes(&self) -> Option<&[u8]> {
        (!self.finished && self.undecided.is_none()).then_some(&self.buf[..])
    }

    /// Feeds the chunk `data[held..]`, where `data[..held]` are the bytes
    /// [`Engine::held_bytes`] gave: what [`Engine::feed`] of the chunk does, but
    /// the engine reads the caller's bytes in place instead of copying the
    /// chunk behind the held ones (a reader that reads behind a copy of the
    /// held bytes saves copying each read that follows undecided bytes).
    /// When `data` does not begin with the held bytes it is the same as
    /// feeding `data[held..]`.
    pub fn feed_after_held(&mut self, data: &[u8], held: usize, sink: &mut dyn Sink) {
        let chunk = data.get(held..).unwrap_or_default();
        if held == 0 || self.held_bytes().is_none() || data.get(..held) != Some(&self.buf[..]) {
            return self.feed(chunk, sink);
        }
        if self.hidden.len > 0 {
            let hidden = self.hidden;
            return self.feed_behind(data, &mut Unhide { hidden, sink });
        }
        self.feed_behind(data, sink)
    }

    /// [`Engine::feed_inner`] with the held bytes and the chunk already
    /// joined in `data`.
    fn feed_behind(&mut self, data: &[u8], sink: &mut dyn Sink) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let used = self.run(data, false, sink);
        buf.extend_from_slice(data.get(used..).unwrap_or_default());
        self.buf = buf;
    }

    fn feed_inner(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        if self.buf.is_empty() {
            // Nothing held back: scan the caller's bytes in place and keep
            // only what is still undecided.
            let used = match self.plain_text(chunk, sink) {
                Some(used) => used,
                None => self.run(chunk, false, sink),
            };
            self.buf.extend_from_slice(&chunk[used..]);
        } else {
            self.buf.extend_from_slice(chunk);
            let buf = std::mem::take(&mut self.buf);
            let used = self.run(&buf, false, sink);
            self.buf = buf;
            self.buf.drain(..used);
        }
    }

    /// The common case of a stream of small chunks: in the middle of a line
    /// of text, a chunk with no byte that could stop the text scanner is
    /// all text. Emits it (less an incomplete UTF-8 character at its end)
    /// and returns the bytes used, exactly as [`Engine::run`] would; `None`
    /// when the chunk needs the full scanner.
    #[inline]
    fn plain_text(&mut self, chunk: &[u8], sink: &mut dyn Sink) -> Option<usize> {
        if !matches!(self.mode, Mode::Text)
            || self.line_start
            || self.armed.is_some()
            || chunk.len() >= 16
            || self.extra_stop.is_some_and(|b| memchr::memchr(b, chunk).is_some())
            || first_text_stop(chunk).is_some()
            // trailing bytes may lead a marker that starts after them
            || registry::lead_tail(&self.leads, chunk, 0, chunk.len(), self.after_newline) > 0
        {
            return None;
        }
        self.sp_cache.work += chunk.len() as u64 + 1;
        let to = self.emit_text_utf8(chunk, 0, chunk.len(), false, sink);
        // No newline in the chunk: every line in it is counted.
        self.counted = self.counted.max(self.base + chunk.len() as u64);
        self.base += to as u64;
        if to > 0 {
            self.after_newline = chunk[to - 1] == b'\n';
        }
        Some(to)
    }

    /// Ends the document: everything still held back is decided.
    pub fn finish(&mut self, sink: &mut dyn Sink) {
        if self.finished {
            return;
        }
        self.feed_undecided(&[], true, sink);
        if self.hidden.len > 0 {
            let hidden = self.hidden;
            return self.finish_inner(&mut Unhide { hidden, sink });
        }
        self.finish_inner(sink)
    }

    fn finish_inner(&mut self, sink: &mut dyn Sink) {
        let buf = std::mem::take(&mut self.buf);
        self.run(&buf, true, sink);
        self.finished = true;
    }

    /// Runs the state machine over `data` (which starts at `self.base`) and
    /// returns how many bytes were consumed.
    fn run(&mut self, data: &[u8], eof: bool, sink: &mut dyn Sink) -> usize {
        let mut pos = 0usize;
        loop {
            let step = match self.mode {
                Mode::Text => self.step_text(data, pos, eof, sink),
                Mode::Reasoning { .. } => self.step_reasoning(data, pos, eof, sink),
                Mode::Block { .. } => self.step_block(data, pos, eof, sink),
                Mode::Fence { .. } => self.step_fence(data, pos, eof, sink),
                Mode::InlineCode { .. } => self.step_inline(data, pos, eof, sink),
                Mode::Verbatim { .. } => self.step_verbatim(data, pos, eof, sink),
            };
            match step {
                Step::Go(p) => pos = p,
                Step::Wait(p) => {
                    pos = p;
                    break;
                }
            }
        }
        self.count_lines_to(data, pos);
        self.base += pos as u64;
        if pos > 0 {
            self.after_newline = data[pos - 1] == b'\n';
        }
        pos
    }

    /// Counts the newlines in `data` up to index `to` that are not counted yet.
    fn count_lines_to(&mut self, data: &[u8], to: usize) {
        let abs_to = self.base + to as u64;
        if abs_to <= self.counted {
            return;
        }
        let from = (self.counted - self.base) as usize;
        let region = &data[from..to];
        let last = if region.len() < 32 {
            region.iter().rposition(|&b| b == b'\n')
        } else {
            memchr::memrchr(b'\n', region)
        };
        if let Some(last) = last {
            self.lines += scan::count_lines(region);
            self.line_begin = self.base + (from + last) as u64 + 1;
        }
        self.counted = abs_to;
    }

    /// Counts one newline at index `at` met while scanning text. The text
    /// scanner meets newlines in order, starting where everything before was
    /// counted, so no newline lies between `counted` and `at`.
    #[inline]
    fn newline_at(&mut self, at: usize) {
        let abs = self.base + at as u64;
        if abs >= self.counted {
            self.lines += 1;
            self.line_begin = abs + 1;
            self.counted = abs + 1;
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        [self.base + start as u64, self.base + end as u64]
    }

    /// Line and column (1-based) of index `at` in `data`.
    fn line_col(&mut self, data: &[u8], at: usize) -> (u64, u64) {
        self.count_lines_to(data, at);
        let abs = self.base + at as u64;
        (self.lines + 1, abs - self.line_begin + 1)
    }

    fn emit_markup(&self, data: &[u8], from: usize, to: usize, sink: &mut dyn Sink) {
        if to > from {
            sink.event(Event::Markup {
                span: self.span(from, to),
                bytes: &data[from..to],
            });
        }
    }

    fn emit_text(&mut self, data: &[u8], from: usize, to: usize, sink: &mut dyn Sink) {
        if to > from {
            self.tail.push(&data[from..to]);
            sink.event(Event::Text {
                span: self.span(from, to),
                bytes: &data[from..to],
            });
        }
    }

    /// Emits text `[from, to)`, holding back an incomplete UTF-8 character at
    /// the end unless `eof`. Returns the index emitted up to.
    fn emit_text_utf8(
        &mut self,
        data: &[u8],
        from: usize,
        to: usize,
        eof: bool,
        sink: &mut dyn Sink,
    ) -> usize {
        let to = if eof {
            to
        } else {
            from + scan::utf8_complete_len(&data[from..to])
        };
        self.emit_text(data, from, to, sink);
        to
    }

    // ----- text --------------------------------------------------------------

    /// The next byte at or after `from` where text scanning must stop: a
    /// newline or a byte that can start a marker; `usize::MAX` when none.
    /// A short rest (a small chunk of a stream) is searched in one pass for
    /// both; a long one with memchr, remembering the answers.
    #[inline]
    fn next_stop(&mut self, data: &[u8], from: usize, armed: Option<u8>) -> usize {
        let rest = data.get(from..).unwrap_or_default();
        if rest.len() < 16 && armed.is_none() && self.extra_stop.is_none() {
            let hit = first_text_stop(rest);
            self.sp_cache.work += hit.map_or(rest.len(), |k| k) as u64 + 1;
            return hit.map_or(usize::MAX, |k| from + k);
        }
        let sp = self
            .sp_cache
            .find(self.base, data, from, |d, f| find_special(d, f, armed));
        let nl = self.nl_cache.find(self.base, data, from, find_nl);
        let extra = match self.extra_stop {
            Some(b) => self
                .extra_cache
                .find(self.base, data, from, |d, f| find_byte(d, f, b)),
            None => usize::MAX,
        };
        sp.min(nl).min(extra)
    }

    /// The next byte at or after `from` that can start a marker in the
    /// middle of a line (a special byte, the armed byte, the extra stop);
    /// `usize::MAX` when none. Remembered between steps: in prose these are
    /// rare, so one search covers many lines.
    #[inline]
    fn next_mid_stop(&mut self, data: &[u8], from: usize, armed: Option<u8>) -> usize {
        let sp = self
            .sp_cache
            .find(self.base, data, from, |d, f| find_special(d, f, armed));
        match self.extra_stop {
            Some(b) => sp.min(
                self.extra_cache
                    .find(self.base, data, from, |d, f| find_byte(d, f, b)),
            ),
            None => sp,
        }
    }

    /// Walks the newlines in `data[from..limit]`, counting each, and returns
    /// the start of the first line that needs a line-start look: its first
    /// byte after blanks may begin a marker, or only blanks are left before
    /// the end of `data`. `None` when every line in the range is plain
    /// prose. One tight loop over the newlines: stopping the text scanner at
    /// each of them costs more than the rest of the scan.
    ///
    /// The newlines are found 64 bytes at a time as a bit mask
    /// ([`scan::newline_mask`]); each line's first two bytes are then one
    /// table look-up, and its third another for the few pairs that pass
    /// ([`registry::line_pair_look_table`]), so a line of prose costs a few
    /// instructions and no call.
    #[inline]
    fn next_interesting_line(&mut self, data: &[u8], from: usize, limit: usize) -> Option<usize> {
        let hay = data.get(from..limit).unwrap_or_default();
        // the newlines met, counted by the walk and noted here once (as
        // `newline_at` would one by one)
        let (found, mut lines, last_nl) = walk_lines(data, from, hay);
        let end = found.unwrap_or(from + hay.len());
        // newlines before `counted` were counted already (by a line and
        // column asked for ahead of the walk)
        let first_uncounted =
            usize::try_from(self.counted.saturating_sub(self.base)).unwrap_or(usize::MAX);
        if first_uncounted > from && lines > 0 {
            lines -= scan::count_lines(&data[from..end.min(first_uncounted)]);
        }
        if lines > 0 {
            self.lines += lines;
            self.line_begin = self.base + last_nl as u64 + 1;
            self.counted = self.line_begin;
        }
        self.nl_cache.work += (end - from) as u64 + 1;
        found
    }

    fn probe_at(&mut self, data: &[u8], at: usize, line_start: bool, eof: bool) -> Probe {
        self.probes += 1;
        self.shown += (data.len() - at) as u64;
        let here = self.base + at as u64;
        let seen = match self.pending_probe.take() {
            Some((p, seen)) if p == here => seen,
            _ => 0,
        };
        let cx = ProbeCx {
            armed: self.armed,
            declined: self.declined,
            line_start,
            doc_start: here == 0,
            eof,
            seen,
            cfg: &self.cfg,
        };
        let mut noted = None;
        let p = registry::probe_noting(&data[at..], &cx, &mut noted);
        if matches!(p, Probe::NeedMore) {
            self.pending_probe = Some((here, data.len() - at));
        }
        match p {
            // a one-byte catch-all (`<` of a generic tag) declining says
            // nothing about the opener declined before it
            Probe::NotMarker if noted.is_some_and(|lit| lit.len() > 1) => self.declined = noted,
            Probe::Match(Action::Block { .. }) => self.declined = None,
            _ => {}
        }
        p
    }

    /// Where text before a marker candidate (or the end of the data) at
    /// `at` may be emitted up to: bytes right before it are held back when
    /// they are, or begin, the lead of a marker whose literal starts after
    /// them (a format's [`formats::Lead`]).
    fn lead_hold(&self, data: &[u8], pos: usize, at: usize) -> usize {
        at - registry::lead_tail(&self.leads, data, pos, at, self.line_at(data, pos))
    }

    /// Whether `data[at]` (which starts at `self.base`) starts a line.
    fn line_at(&self, data: &[u8], at: usize) -> bool {
        match at.checked_sub(1) {
            Some(k) => data[k] == b'\n',
            None => self.after_newline,
        }
    }

    /// The marker whose lead ends right before the candidate at `c`: where
    /// it starts and what its probe says there.
    fn probe_lead(&self, data: &[u8], pos: usize, c: usize, eof: bool) -> Option<(usize, Probe)> {
        let from = (pos, self.line_at(data, pos));
        let (start, lead) = registry::lead_probe(&self.leads, data, from, c)?;
        let cx = ProbeCx {
            armed: self.armed,
            declined: self.declined,
            line_start: false,
            doc_start: self.base + start as u64 == 0,
            eof,
            seen: 0,
            cfg: &self.cfg,
        };
        Some((start, (lead.probe)(&data[start..], &cx)))
    }

    fn step_text(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let len = data.len();
        self.count_lines_to(data, pos);
        let mut i = pos;
        let mut at_ls = self.line_start;
        let armed = self.armed;
        loop {
            if at_ls {
                let m = skip_blank(data, i);
                if m == len {
                    // Only blanks so far on this line: they are text, but the
                    // line start is still open.
                    let to = self.emit_text_utf8(data, pos, len, eof, sink);
                    self.line_start = true;
                    return Step::Wait(to);
                }
                at_ls = false;
                let b = data[m];
                if is_special(b)
                    || registry::is_line_start_byte(b)
                    || (self.base + m as u64 == 0
                        // a name, or the `=NAME>` of a Qwen3-Coder opener
                        // whose `<function` was lost
                        && (scan::is_name_start_byte(b) || b == b'=')
                        && registry::doc_start(&self.cfg).is_some())
                {
                    match self.probe_at(data, m, true, eof) {
                        Probe::NotMarker => i = m + 1,
                        Probe::NeedMore => {
                            let to = self.emit_text_utf8(data, pos, m, eof, sink);
                            self.line_start = to == m;
                            return Step::Wait(to);
                        }
                        Probe::Match(action) => {
                            self.emit_text(data, pos, m, sink);
                            return self.start(data, m, action, sink);
                        }
                    }
                } else {
                    i = m;
                }
            }
            let c = if len - i < 16 && armed.is_none() && self.extra_stop.is_none() {
                // a short rest (a small chunk of a stream): one pass for all
                self.next_stop(data, i, armed)
            } else {
                let stop = self.next_mid_stop(data, i, armed);
                match self.next_interesting_line(data, i, stop.min(len)) {
                    Some(line) => {
                        i = line;
                        at_ls = true;
                        continue;
                    }
                    None => stop,
                }
            };
            if c >= len {
                // No newline is left in `data[i..]`: every line in `data` is
                // counted.
                self.counted = self.counted.max(self.base + len as u64);
                break;
            }
            if data[c] == b'\n' {
                self.newline_at(c);
                i = c + 1;
                at_ls = true;
                continue;
            }
            match self.probe_at(data, c, false, eof) {
                Probe::NotMarker => match self.probe_lead(data, pos, c, eof) {
                    // no marker starts at `c`, but one its lead starts may
                    Some((start, Probe::Match(led))) => {
                        self.emit_text(data, pos, start, sink);
                        return self.start(data, start, led, sink);
                    }
                    Some((start, Probe::NeedMore)) => {
                        let to = self.emit_text_utf8(data, pos, start, eof, sink);
                        self.line_start = false;
                        return Step::Wait(to);
                    }
                    _ => i = c + 1,
                },
                Probe::NeedMore => {
                    let hold = self.lead_hold(data, pos, c);
                    let to = self.emit_text_utf8(data, pos, hold, eof, sink);
                    self.line_start = false;
                    return Step::Wait(to);
                }
                Probe::Match(action) => {
                    // a marker whose lead is just before it starts there
                    match self.probe_lead(data, pos, c, eof) {
                        Some((start, Probe::Match(led))) => {
                            self.emit_text(data, pos, start, sink);
                            return self.start(data, start, led, sink);
                        }
                        Some((start, Probe::NeedMore)) => {
                            let to = self.emit_text_utf8(data, pos, start, eof, sink);
                            self.line_start = false;
                            return Step::Wait(to);
                        }
                        _ => {}
                    }
                    self.emit_text(data, pos, c, sink);
                    return self.start(data, c, action, sink);
                }
            }
        }
        let hold = if eof {
            len
        } else {
            self.lead_hold(data, pos, len)
        };
        let to = self.emit_text_utf8(data, pos, hold, eof, sink);
        self.line_start = at_ls && to == len;
        Step::Wait(to)
    }

    /// Makes `byte` a marker candidate anywhere in a line from now on.
    fn arm(&mut self, byte: u8) {
        self.armed = Some(byte);
        // the special-byte search did not look for it
        self.sp_cache.next = None;
        self.sp_cache.searched = 0;
    }

    /// Notes the turn a marker found at `at` opens, if it is a turn header
    /// ([`formats::turns::turn_at`] on the bytes the action covers, so
    /// the answer does not depend on what arrived after them).
    fn note_turn(&mut self, data: &[u8], at: usize, action: &Action, sink: &mut dyn Sink) {
        let len = match action {
            Action::Markup { len } | Action::Arm { len, .. } => *len,
            Action::Verbatim { header_len, .. } => *header_len,
            Action::Reasoning { open_len, .. } => *open_len,
            Action::Block { scanner, .. } => scanner.consumed(),
            Action::Fence { .. } | Action::InlineCode { .. } => return,
        };
        // a marker the generation prompt left held is the prompt's
        if self.is_nested || len == 0 || self.base + (at as u64) < self.hidden.len {
            return;
        }
        let marker = &data[at..data.len().min(at + len)];
        if let Some(role) = formats::turns::turn_at(marker) {
            // the assistant's own headers before any other role's are one
            // reply's (harmony writes one per message, servers echo
            // ChatML's): turns are counted from the first other role's
            if self.turn.is_none() && role == "assistant" {
                return;
            }
            let turn = Turn {
                index: self.turn.map_or(0, |t| t.index + 1),
                role,
            };
            // a new turn's reply starts afresh
            self.tail = TextTail::default();
            self.turn = Some(turn);
            sink.event(Event::Turn(turn));
        }
    }

    /// Switches mode for a marker found at `at` (text before it is emitted).
    fn start(&mut self, data: &[u8], at: usize, action: Action, sink: &mut dyn Sink) -> Step {
        self.line_start = false;
        self.note_turn(data, at, &action, sink);
        match action {
            Action::Arm { len, byte } => {
                self.arm(byte);
                sink.event(Event::Markup {
                    span: self.span(at, at + len),
                    bytes: &data[at..at + len],
                });
                self.line_start = true;
                Step::Go(at + len)
            }
            Action::Markup { len } => {
                sink.event(Event::Markup {
                    span: self.span(at, at + len),
                    bytes: &data[at..at + len],
                });
                self.line_start = true;
                Step::Go(at + len)
            }
            Action::Reasoning { open_len, close } => {
                self.enter_reasoning(at, open_len, close);
                Step::Go(at)
            }
            Action::Block { fmt, scanner } => {
                self.start_tried = 0;
                self.mode = Mode::Block { fmt, scanner };
                Step::Go(at)
            }
            Action::Fence {
                header_len,
                ticks,
                byte,
            } => {
                self.emit_text(data, at, at + header_len, sink);
                self.mode = Mode::Fence { ticks, byte };
                self.line_start = true;
                Step::Go(at + header_len)
            }
            Action::Verbatim {
                header_len,
                close,
                through,
            } => {
                sink.event(Event::Markup {
                    span: self.span(at, at + header_len),
                    bytes: &data[at..at + header_len],
                });
                self.mode = Mode::Verbatim { close, through };
                Step::Go(at + header_len)
            }
            Action::InlineCode { ticks } => {
                self.emit_text(data, at, at + ticks, sink);
                self.mode = Mode::InlineCode { ticks };
                Step::Go(at + ticks)
            }
        }
    }

    // ----- reasoning ---------------------------------------------------------

    fn step_reasoning(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let Mode::Reasoning {
            open_pending,
            close,
        } = self.mode
        else {
            return Step::Wait(pos);
        };
        let len = data.len();
        let content_from = pos + open_pending;
        if content_from > len {
            return Step::Wait(pos);
        }
        if self.reopen_think {
            // the prompt's `<think>` written again by the model: markup
            let rest = &data[content_from..];
            let blanks = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
            match scan::prefix(&rest[blanks..], formats::reasoning::THINK_OPEN) {
                scan::Prefix::Full => {
                    self.reopen_think = false;
                    self.mode = Mode::Reasoning {
                        open_pending: open_pending + blanks + formats::reasoning::THINK_OPEN.len(),
                        close,
                    };
                    return Step::Go(pos);
                }
                scan::Prefix::Partial if !eof => return Step::Wait(pos),
                _ => self.reopen_think = false,
            }
        }
        // Find the earliest closing marker.
        let mut i = content_from;
        let mut found: Option<(usize, usize, bool)> = None; // (at, len, consume)
        let mut hold = len;
        while i < len {
            let Some(k) = find_any_first(&data[i..], close) else {
                break;
            };
            let at = i + k;
            let mut partial = false;
            for c in close {
                match scan::prefix(&data[at..], c.lit) {
                    scan::Prefix::Full if c.lit.ends_with(b":") => {
                        // `</think:SUFFIX>`: the suffix belongs to the marker
                        match formats::shared::tag::suffixed_len(&data[at..], c.lit.len(), eof) {
                            Ok(mlen) => {
                                found = Some((at, mlen, c.consume));
                                break;
                            }
                            Err(Probe::NeedMore) => partial = true,
                            Err(_) => {}
                        }
                    }
                    // a longer spelling listed earlier may still match
                    scan::Prefix::Full if partial && !eof => break,
                    scan::Prefix::Full => {
                        found = Some((at, c.lit.len(), c.consume));
                        break;
                    }
                    scan::Prefix::Partial => partial = true,
                    scan::Prefix::No => {}
                }
            }
            if found.is_some() {
                break;
            }
            if partial && !eof {
                hold = at;
                break;
            }
            i = at + 1;
        }
        match found {
            Some((at, mlen, consume)) => {
                let end = if consume { at + mlen } else { at };
                sink.event(Event::Reasoning {
                    span: self.span(pos, end),
                    content: &data[content_from..at],
                });
                self.feed_nested(&data[content_from..at]);
                self.end_nested(false, sink);
                self.mode = Mode::Text;
                self.line_start = true;
                Step::Go(end)
            }
            None => {
                let to = if eof {
                    len
                } else {
                    content_from + scan::utf8_complete_len(&data[content_from..hold])
                };
                if to > content_from || (eof && to > pos) {
                    sink.event(Event::Reasoning {
                        span: self.span(pos, to),
                        content: &data[content_from..to],
                    });
                    self.feed_nested(&data[content_from..to]);
                    self.mode = Mode::Reasoning {
                        open_pending: 0,
                        close,
                    };
                    if eof {
                        self.end_nested(true, sink);
                        self.mode = Mode::Text;
                    }
                    return Step::Wait(to);
                }
                if eof {
                    self.end_nested(true, sink);
                    self.mode = Mode::Text;
                }
                Step::Wait(pos)
            }
        }
    }

    /// Enters reasoning at buffer index `at` (marker of `open_len` bytes).
    fn enter_reasoning(&mut self, at: usize, open_len: usize, close: &'static [Close]) {
        if !self.is_nested {
            let mut inner_cfg = self.cfg.clone();
            inner_cfg.think_open = false;
            inner_cfg.think_window = 0;
            let mut inner = Engine::with_mode(inner_cfg);
            inner.is_nested = true;
            inner.base = self.base + (at + open_len) as u64;
            inner.counted = inner.base;
            inner.calls = self.calls;
            self.nested = Some(Box::new(inner));
            self.drafted.clear();
            self.drafted_last = false;
        }
        self.mode = Mode::Reasoning {
            open_pending: open_len,
            close,
        };
    }

    /// Feeds reasoning content to the nested engine.
    fn feed_nested(&mut self, content: &[u8]) {
        if let Some(mut inner) = self.nested.take() {
            let mut found = std::mem::take(&mut self.drafted);
            let mut last = self.drafted_last;
            let mut sink = |ev: Event<'_>| note_drafted(ev, &mut found, &mut last);
            inner.feed(content, &mut sink);
            self.drafted = found;
            self.drafted_last = last;
            self.nested = Some(inner);
        }
    }

    /// The reasoning span ended (`open_at_eof`: the input ended inside it).
    /// Its drafted calls are reported, flagged `in_reasoning`, with
    /// `--reasoning-calls`, or when reasoning was left open at the end of a
    /// document that has no other call (so a call is never silently lost),
    /// or when the span closes right after calls of a family that makes its
    /// calls there ([`formats::reasoning::CALLS_END_REASONING`]).
    fn end_nested(&mut self, open_at_eof: bool, sink: &mut dyn Sink) {
        let Some(mut inner) = self.nested.take() else {
            return;
        };
        let mut found = std::mem::take(&mut self.drafted);
        let mut last = std::mem::take(&mut self.drafted_last);
        let mut collect = |ev: Event<'_>| note_drafted(ev, &mut found, &mut last);
        inner.finish(&mut collect);
        let closes_with_calls = !open_at_eof
            && last
            && !found.is_empty()
            && found.iter().all(|c| {
                formats::reasoning::CALLS_END_REASONING
                    .iter()
                    .any(|f| f.as_str() == c.format)
            });
        let report =
            self.cfg.reasoning_calls || (open_at_eof && self.calls == 0) || closes_with_calls;
        if report && !found.is_empty() {
            // the nested engine kept records; a counting sink gets tallies
            let tally = !sink.wants_records();
            for mut call in found {
                if tally {
                    call = ToolCall {
                        doc: String::new(),
                        id: String::new(),
                        name: String::new(),
                        arguments: crate::record::Arguments::empty(),
                        raw: String::new(),
                        extra: serde_json::Map::new(),
                        ..call
                    };
                }
                call.in_reasoning = true;
                call.turn = self.turn;
                sink.event(Event::ToolCallStart {
                    index: call.index,
                    id: &call.id,
                    name: &call.name,
                });
                self.calls = call.index + 1;
                sink.event(Event::ToolCall(call));
            }
        }
    }

    // ----- blocks ------------------------------------------------------------

    fn step_block(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let Mode::Block {
            fmt,
            ref mut scanner,
        } = self.mode
        else {
            return Step::Wait(pos);
        };
        // The scanner sees at most `max_block` bytes of the block, in batch
        // as in stream: whether a block is over the limit, and what is given
        // back, must not depend on how the input was chunked.
        // (never less than the probe already consumed: scanners resume there)
        let cap = self.cfg.max_block.max(scanner.consumed()).max(1);
        let capped = data.len() - pos > cap;
        let block = &data[pos..data.len().min(pos + cap)];
        self.shown += block.len().saturating_sub(self.block_seen) as u64 + 1;
        self.block_seen = 0;
        let end = scanner.scan(block, eof && !capped);
        // what the scanner read of the body, for the parse (the scanner
        // goes with the mode below)
        let plain = scanner.plain_body();
        match end {
            BlockEnd::More => {
                if eof && !capped {
                    // A scanner must decide at end of input; treat as not a block.
                    self.mode = Mode::Text;
                    self.start_sent = false;
                    return self.not_block(data, pos, 1, sink);
                }
                if block.len() >= cap {
                    // no end within the limit: the limit's worth of bytes
                    // (whole characters) is text, and scanning resumes after
                    let len = scan::utf8_complete_len(block).max(1);
                    // as a stream would have on the way here
                    self.early_start(fmt, block, pos, sink);
                    self.mode = Mode::Text;
                    let (line, column) = self.line_col(data, pos);
                    sink.event(Event::Error(ErrorRecord {
                        kind: "error",
                        code: "TLP-007",
                        message: format!(
                            "{} block larger than {} bytes without an end",
                            fmt.id(),
                            self.cfg.max_block
                        ),
                        doc: self.cfg.doc.clone(),
                        span: self.span(pos, pos + len),
                        raw: crate::scan::lossy(&data[pos..pos + len.min(256)]).into_owned(),
                        offset: self.base + pos as u64,
                        line,
                        column,
                        hint: Some("raise --max-block if calls this large are expected".into()),
                        turn: self.turn,
                    }));
                    self.start_sent = false;
                    self.emit_text(data, pos, pos + len, sink);
                    self.line_start = data[pos + len - 1] == b'\n';
                    return Step::Go(pos + len);
                }
                self.early_start(fmt, block, pos, sink);
                self.block_seen = block.len();
                Step::Wait(pos)
            }
            BlockEnd::NotBlock { text_len } => {
                self.mode = Mode::Text;
                self.not_block(data, pos, text_len.max(1), sink)
            }
            BlockEnd::Done { len, cut } => {
                self.mode = Mode::Text;
                // the name is read from the block only: bytes after it are
                // there in batch but not always in stream
                self.early_start(fmt, &data[pos..pos + len], pos, sink);
                let spare = std::cell::Cell::new(std::mem::take(&mut self.spare_calls));
                let names_clear = std::cell::Cell::new(false);
                let cx = formats::ParseCx {
                    cfg: &self.cfg,
                    cut,
                    before: self.tail.bytes(),
                    reply_start: !self.tail.seen,
                    tally: !sink.wants_records(),
                    spare: &spare,
                    plain,
                    names_clear: &names_clear,
                };
                let result = fmt.parse(&data[pos..pos + len], &cx);
                // not taken: kept for the next block
                let unused = spare.take();
                if unused.capacity() > 0 {
                    self.spare_calls = unused;
                }
                let result = if documented(&result, &data[pos..pos + len], &cx)
                    || template_blanks(fmt, &result, &data[pos..pos + len], &cx)
                {
                    formats::BlockResult::text()
                } else {
                    result
                };
                let result = if cut && self.cfg.truncated {
                    without_cut_call(result, len, fmt.id())
                } else {
                    result
                };
                let had_calls = !result.calls.is_empty();
                self.place(data, pos, len, result, cut, sink);
                if had_calls {
                    // what introduces a later candidate is the text after
                    // this call
                    self.tail.bytes.clear();
                }
                if let Some(byte) = fmt.arms_after() {
                    self.arm(byte);
                }
                Step::Go(pos + len)
            }
        }
    }

    /// Emits `tool_call_start` as soon as the pending block's format can name
    /// the call from its first bytes.
    fn early_start(
        &mut self,
        fmt: &dyn BlockFormat,
        block: &[u8],
        pos: usize,
        sink: &mut dyn Sink,
    ) {
        if self.start_sent || !sink.wants_starts() {
            return;
        }
        let head = &block[..block.len().min(formats::EARLY_NAME_WINDOW)];
        if head.len() == self.start_tried {
            return; // nothing new in the window since the last try
        }
        self.start_tried = head.len();
        if let Some(name) = fmt.early_name(head) {
            let index = self.calls;
            let offset = self.base + pos as u64;
            let early = &mut self.early;
            derive_id_into(&mut early.id, self.salt, index, offset, &name);
            sink.event(Event::ToolCallStart {
                index,
                id: &early.id,
                name: &name,
            });
            early.key = Some((self.salt, index, offset));
            early.name = name;
            self.start_sent = true;
        }
    }

    /// Emits `n` bytes at `pos` as text after a candidate turned out not to be
    /// a block (the bytes are not scanned again for markers).
    fn not_block(&mut self, data: &[u8], pos: usize, n: usize, sink: &mut dyn Sink) -> Step {
        let n = n.min(data.len() - pos);
        // Never cut a UTF-8 character: extend to the next boundary.
        let mut end = pos + n;
        while end < data.len() && (data[end] & 0xC0) == 0x80 {
            end += 1;
        }
        self.emit_text(data, pos, end, sink);
        self.line_start = data[..end].last() == Some(&b'\n');
        Step::Go(end)
    }

    /// Emits the calls (or the text and errors) of a parsed block.
    /// `cut`: the input ended inside the block; then bytes that are not a
    /// call (a cut call's, a broken call's) are markup, never text.
    fn place(
        &mut self,
        data: &[u8],
        pos: usize,
        len: usize,
        result: formats::BlockResult,
        cut: bool,
        sink: &mut dyn Sink,
    ) {
        let formats::BlockResult {
            empty_list,
            mut calls,
            mut errors,
        } = result;
        if !self.cfg.repair && calls.iter().any(|c| !c.repairs.is_empty()) {
            // --no-repair: arguments that needed repair are errors, not calls
            // the message names the call and the offset points at the
            // fault, as a repaired-but-failing call's would
            let name = calls
                .iter()
                .find(|c| !c.repairs.is_empty())
                .map(|c| c.name.clone())
                .unwrap_or_default();
            errors.push(formats::BlockError {
                code: "TLP-002",
                message: format!(
                    "invalid JSON in the arguments of '{}' (repair is off)",
                    crate::scan::escape_terminal(&name)
                ),
                offset: json_fault(&data[pos..pos + len]),
                hint: Some("run without --no-repair to accept repaired arguments".into()),
            });
            calls.clear();
        }
        let had_errors = !errors.is_empty();
        // in document order: line_col counts lines forward only, and an
        // error before one already placed (the --no-repair error at offset
        // 0 after a later one) would otherwise get a wrapped column
        // a fault at the block's end (a call cut off by the end of input)
        // is placed after its last byte that is not a blank, on the last
        // line that has something to show, not on an empty line after it
        let block_end = data[pos..pos + len]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(len, |i| i + 1);
        let place = |offset: usize| {
            if offset >= len {
                block_end
            } else {
                offset
            }
        };
        errors.sort_by_key(|e| place(e.offset));
        let cap = self.cfg.max_block_errors.max(1);
        if errors.len() > cap {
            // each error record carries the block's bytes: K errors in a
            // block of B bytes would write K * B (a 1 MiB block of empty
            // call tokens, quadratic output); the rest become one record
            let rest = errors.split_off(cap - 1);
            let first = &rest[0];
            errors.push(formats::BlockError {
                code: first.code,
                message: format!(
                    "{} more errors in this block, the first: {}",
                    rest.len(),
                    first.message
                ),
                offset: first.offset,
                hint: first.hint.clone(),
            });
        }
        for e in errors {
            let at = pos + place(e.offset);
            let (line, column) = self.line_col(data, at);
            sink.event(Event::Error(ErrorRecord {
                kind: "error",
                code: e.code,
                message: e.message,
                doc: self.cfg.doc.clone(),
                span: self.span(pos, pos + len),
                raw: crate::scan::lossy(&data[pos..pos + len]).into_owned(),
                offset: self.base + at as u64,
                line,
                column,
                hint: e.hint,
                turn: self.turn,
            }));
        }
        if calls.is_empty() {
            self.start_sent = false;
            if (cut && had_errors) || (empty_list && !had_errors) {
                self.emit_markup(data, pos, pos + len, sink);
            } else {
                self.emit_text(data, pos, pos + len, sink);
            }
            self.line_start = data[..pos + len].last() == Some(&b'\n');
            return;
        }
        // repair offsets: block-relative from the format, absolute here
        let block_abs = (self.base + pos as u64) as usize;
        for c in &mut calls {
            for r in &mut c.repairs {
                r.offset += block_abs;
            }
        }
        let n = calls.len();
        // A block whose tail was cut off after its last complete call: the
        // tail is text (its error was emitted above), the calls stay calls.
        let tail_from = match calls.last() {
            Some(last) if had_errors && last.end > 0 && last.end < len => pos + last.end,
            _ => pos + len,
        };
        let mut from = pos;
        let started = std::mem::take(&mut self.start_sent);
        let tally = !sink.wants_records();
        for (k, c) in calls.drain(..).enumerate() {
            let to = if k + 1 == n {
                tail_from
            } else {
                (pos + c.end).clamp(from, tail_from)
            };
            let call = if tally {
                self.tally_call(from, to, c)
            } else {
                let spare = sink.spare_call();
                self.make_call(data, from, to, c, spare)
            };
            if !(k == 0 && started) {
                sink.event(Event::ToolCallStart {
                    index: call.index,
                    id: &call.id,
                    name: &call.name,
                });
            }
            sink.event(Event::ToolCall(call));
            from = to;
        }
        // the emptied list serves the next block (a few calls' worth at
        // most is kept: a block of thousands does not pin its list)
        if calls.capacity() <= 16 && calls.capacity() > self.spare_calls.capacity() {
            self.spare_calls = calls;
        }
        if tail_from < pos + len {
            if cut {
                self.emit_markup(data, tail_from, pos + len, sink);
            } else {
                self.emit_text(data, tail_from, pos + len, sink);
            }
        }
        self.line_start = data[..pos + len].last() == Some(&b'\n');
    }

    /// The record of a parsed call, written into the strings of `spare`
    /// when the sink handed one back ([`Sink::spare_call`]).
    fn make_call(
        &mut self,
        data: &[u8],
        from: usize,
        to: usize,
        c: ParsedCall,
        spare: Option<ToolCall>,
    ) -> ToolCall {
        let index = self.calls;
        self.calls += 1;
        let span = self.span(from, to);
        let (mut doc, mut id, mut raw, mut extra) = match spare {
            Some(old) => (old.doc, old.id, old.raw, old.extra),
            None => Default::default(),
        };
        refill(&mut doc, &self.cfg.doc);
        match c.id {
            Some(given) => id = given,
            // the id `tool_call_start` carried, when it was derived from
            // the same document, index, offset and name: the same hash
            None if self.early.key == Some((self.salt, index, span[0]))
                && self.early.name == c.name =>
            {
                std::mem::swap(&mut id, &mut self.early.id);
                self.early.key = None;
            }
            None => derive_id_into(&mut id, self.salt, index, span[0], &c.name),
        }
        refill(&mut raw, &scan::lossy(&data[from..to]));
        extra.clear();
        crate::call::add_server_fields(&c.name, &mut extra);
        let format = match &self.cfg.format {
            FormatChoice::Only(f) => f.as_str(),
            FormatChoice::Auto => c.format.as_str(),
        };
        ToolCall {
            kind: "tool_call",
            doc,
            index,
            id,
            name: c.name,
            arguments: c.arguments,
            format,
            span,
            raw,
            repairs: c.repairs,
            in_reasoning: false,
            turn: self.turn,
            extra,
        }
    }

    /// A call as a sink that only counts calls gets it
    /// ([`Sink::wants_records`]): where it is, no strings.
    fn tally_call(&mut self, from: usize, to: usize, c: ParsedCall) -> ToolCall {
        let index = self.calls;
        self.calls += 1;
        let format = match &self.cfg.format {
            FormatChoice::Only(f) => f.as_str(),
            FormatChoice::Auto => c.format.as_str(),
        };
        ToolCall {
            kind: "tool_call",
            doc: String::new(),
            index,
            id: String::new(),
            name: String::new(),
            arguments: crate::record::Arguments::empty(),
            format,
            span: self.span(from, to),
            raw: String::new(),
            repairs: c.repairs,
            in_reasoning: false,
            turn: self.turn,
            extra: serde_json::Map::new(),
        }
    }

    // ----- code --------------------------------------------------------------

    fn step_fence(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let Mode::Fence { ticks, byte } = self.mode else {
            return Step::Wait(pos);
        };
        let len = data.len();
        let mut i = pos;
        let mut at_ls = self.line_start;
        loop {
            if at_ls {
                let m = skip_blank(data, i);
                let mut t = m;
                while t < len && data[t] == byte {
                    t += 1;
                }
                if t == len && !eof {
                    // Could still become the closing fence: hold the line.
                    let to = self.emit_text_utf8(data, pos, i, eof, sink);
                    self.line_start = true;
                    return Step::Wait(to);
                }
                if t - m >= ticks {
                    // Closing fence: the rest of its line is text too.
                    let end = match memchr::memchr(b'\n', &data[t..]) {
                        Some(k) => t + k + 1,
                        None if eof => len,
                        None => {
                            let to = self.emit_text_utf8(data, pos, i, eof, sink);
                            self.line_start = true;
                            return Step::Wait(to);
                        }
                    };
                    self.emit_text(data, pos, end, sink);
                    self.mode = Mode::Text;
                    self.line_start = data[end - 1] == b'\n';
                    return Step::Go(end);
                }
            }
            match memchr::memchr(b'\n', &data[i..]) {
                Some(k) => {
                    i += k + 1;
                    at_ls = true;
                }
                None => break,
            }
        }
        let to = self.emit_text_utf8(data, pos, len, eof, sink);
        self.line_start = false;
        if eof {
            self.mode = Mode::Text;
        }
        Step::Wait(to)
    }

    fn step_inline(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let Mode::InlineCode { ticks } = self.mode else {
            return Step::Wait(pos);
        };
        let len = data.len();
        let mut i = pos;
        while i < len {
            let Some(k) = memchr::memchr2(b'`', b'\n', &data[i..]) else {
                break;
            };
            let at = i + k;
            if data[at] == b'\n' {
                self.emit_text(data, pos, at, sink);
                self.mode = Mode::Text;
                self.line_start = false;
                return Step::Go(at);
            }
            let mut t = at;
            while t < len && data[t] == b'`' {
                t += 1;
            }
            if t == len && !eof {
                let to = self.emit_text_utf8(data, pos, at, eof, sink);
                return Step::Wait(to);
            }
            if t - at == ticks {
                self.emit_text(data, pos, t, sink);
                self.mode = Mode::Text;
                self.line_start = false;
                return Step::Go(t);
            }
            i = t;
        }
        let to = self.emit_text_utf8(data, pos, len, eof, sink);
        if eof {
            self.mode = Mode::Text;
        }
        Step::Wait(to)
    }

    fn step_verbatim(&mut self, data: &[u8], pos: usize, eof: bool, sink: &mut dyn Sink) -> Step {
        let Mode::Verbatim { close, through } = self.mode else {
            return Step::Wait(pos);
        };
        let len = data.len();
        let mut hold = len;
        let mut i = pos;
        while let Some(k) = data[i..].iter().position(|b| {
            close
                .iter()
                .chain(through.iter())
                .any(|c| c.first() == Some(b))
        }) {
            let at = i + k;
            let mut partial = false;
            for c in close {
                match scan::prefix(&data[at..], c) {
                    scan::Prefix::Full => {
                        self.emit_text(data, pos, at, sink);
                        self.mode = Mode::Text;
                        self.line_start = false;
                        return Step::Go(at);
                    }
                    scan::Prefix::Partial => partial = true,
                    scan::Prefix::No => {}
                }
            }
            for c in through {
                match scan::prefix(&data[at..], c) {
                    scan::Prefix::Full => {
                        let end = at + c.len();
                        self.emit_text(data, pos, end, sink);
                        self.mode = Mode::Text;
                        self.line_start = c.last() == Some(&b'\n');
                        return Step::Go(end);
                    }
                    scan::Prefix::Partial => partial = true,
                    scan::Prefix::No => {}
                }
            }
            if partial && !eof {
                hold = at;
                break;
            }
            i = at + 1;
        }
        let to = self.emit_text_utf8(data, pos, hold, eof, sink);
        if eof {
            self.mode = Mode::Text;
        }
        Step::Wait(to)
    }
}

/// Passes events on with the hidden prefix (the end of the generation
/// prompt the engine still held) cut off: offsets shifted back by its
/// length, bytes before it dropped, lines and columns counted from the end
/// of the prompt.
struct Unhide<'a> {
    hidden: Hidden,
    sink: &'a mut dyn Sink,
}

impl Unhide<'_> {
    /// The span with the hidden bytes cut off, and how many bytes were cut
    /// from its start; `None` when all of it is hidden.
    fn cut(&self, span: Span) -> Option<(Span, usize)> {
        let h = self.hidden.len;
        if span[1] <= h && span[1] > span[0] {
            return None;
        }
        let cut = h.saturating_sub(span[0]) as usize;
        Some(([span[0].max(h) - h, span[1].saturating_sub(h)], cut))
    }

    fn line_col(&self, offset: u64, line: u64, column: u64) -> (u64, u64) {
        let h = self.hidden;
        if offset < h.len {
            return (1, 1);
        }
        let line = line.saturating_sub(h.lines).max(1);
        let column = if line == 1 {
            column.saturating_sub(h.last_line).max(1)
        } else {
            column
        };
        (line, column)
    }
}

/// `bytes` without its first `cut` bytes (whole characters kept whole).
fn after(bytes: &[u8], cut: usize) -> &[u8] {
    bytes.get(cut..).unwrap_or_default()
}

impl Sink for Unhide<'_> {
    fn wants_starts(&self) -> bool {
        self.sink.wants_starts()
    }

    fn wants_records(&self) -> bool {
        self.sink.wants_records()
    }

    fn spare_call(&mut self) -> Option<ToolCall> {
        self.sink.spare_call()
    }

    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Text { span, bytes } => {
                if let Some((span, cut)) = self.cut(span) {
                    self.sink.event(Event::Text {
                        span,
                        bytes: after(bytes, cut),
                    });
                }
            }
            Event::Markup { span, bytes } => {
                if let Some((span, cut)) = self.cut(span) {
                    self.sink.event(Event::Markup {
                        span,
                        bytes: after(bytes, cut),
                    });
                }
            }
            Event::Reasoning { span, content } => {
                if let Some((span, _)) = self.cut(span) {
                    let visible = (span[1] - span[0]) as usize;
                    let content = &content[content.len().saturating_sub(visible)..];
                    self.sink.event(Event::Reasoning { span, content });
                }
            }
            Event::ToolCall(mut call) => {
                let (span, cut) = self.cut(call.span).unwrap_or(([0, 0], call.raw.len()));
                call.span = span;
                call.raw = crate::scan::lossy(after(call.raw.as_bytes(), cut)).into_owned();
                for r in &mut call.repairs {
                    r.offset = r.offset.saturating_sub(self.hidden.len as usize);
                }
                self.sink.event(Event::ToolCall(call));
            }
            Event::Error(mut e) => {
                let (line, column) = self.line_col(e.offset, e.line, e.column);
                let (span, cut) = self.cut(e.span).unwrap_or(([0, 0], e.raw.len()));
                e.span = span;
                e.raw = crate::scan::lossy(after(e.raw.as_bytes(), cut)).into_owned();
                e.offset = e.offset.saturating_sub(self.hidden.len);
                e.line = line;
                e.column = column;
                self.sink.event(Event::Error(e));
            }
            other => self.sink.event(other),
        }
    }
}

/// The newline walk of [`Engine::next_interesting_line`] over `hay`, which
/// starts at `data[from]`: the start of the first line that needs a look
/// (if any), how many newlines it passed (that one included) and where the
/// last of them is. Not inlined into the engine's big loop, so that its few
/// values stay in registers.
///
/// On x86-64 CPUs with AVX2 (checked once, then read from a flag) the walk
/// is compiled a second time for them ([`scan::NewlineMasker`]): the mask
/// of 64 bytes is two 32-byte compares instead of four 16-byte ones, and
/// the bit scans are single instructions.
#[inline(never)]
fn walk_lines(data: &[u8], from: usize, hay: &[u8]) -> (Option<usize>, u64, usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(wide) = scan::NewlineMasker::avx2() {
        return wide.run(|| walk_lines_by(data, from, hay, |b| wide.mask(b)));
    }
    walk_lines_by(data, from, hay, scan::newline_mask)
}

/// [`walk_lines`] with the block mask `mask` (a [`scan::newline_mask`]).
#[inline(always)]
fn walk_lines_by(
    data: &[u8],
    from: usize,
    hay: &[u8],
    mask_of: impl Fn(&[u8; 64]) -> u64,
) -> (Option<usize>, u64, usize) {
    let look = registry::line_pair_look_table();
    let mut walk = Walk {
        pairs: look.pair_table(),
        lines: 0,
        last_at: 0,
        last_mask: 0,
    };
    let (blocks, tail) = hay.as_chunks::<64>();
    let mut at = from;
    let mut found = None;
    for block in blocks {
        let mask = mask_of(block);
        if mask != 0 {
            found = walk.block(data, look, block, 64, mask, at);
            if found.is_some() {
                break;
            }
        }
        at += 64;
    }
    if found.is_none() && !tail.is_empty() {
        // padded with bytes that are no newline
        let mut block = [0u8; 64];
        block[..tail.len()].copy_from_slice(tail);
        let mask = mask_of(&block);
        if mask != 0 {
            found = walk.block(data, look, &block, tail.len(), mask, at);
        }
    }
    let last_nl = match walk.last_mask {
        0 => usize::MAX,
        m => walk.last_at + 63 - m.leading_zeros() as usize,
    };
    (found, walk.lines, last_nl)
}

/// The newlines [`walk_lines`] passed: how many, and the last (the highest
/// bit of `last_mask`, a block's mask, in the block at `last_at`; found
/// once at the end).
struct Walk<'t> {
    pairs: &'t [u8; 1 << 16],
    lines: u64,
    last_at: usize,
    last_mask: u64,
}

impl Walk<'_> {
    /// Walks the newlines of one block's `mask` (not zero; the block, whose
    /// first `valid` bytes are `data[at..at + valid]`, starts at
    /// `data[at]`): the start of the first line that needs a look.
    ///
    /// A line's first three bytes are read from the block itself when they
    /// are in it (all but the last few newlines of a block), so a line of
    /// prose costs a bit scan and one or two table look-ups.
    #[inline(always)]
    fn block(
        &mut self,
        data: &[u8],
        look: &registry::LineLook,
        block: &[u8; 64],
        valid: usize,
        mask: u64,
        at: usize,
    ) -> Option<usize> {
        let mut rest = mask;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // counted one by one: a population count is a long sequence of
            // instructions on baseline x86-64 (no `popcnt`)
            self.lines += 1;
            // most lines: two first bytes that begin no marker's literal
            // (and no blank), then, for most pairs that pass, the third byte
            let ruled_out = if p + 3 < valid {
                let set = self.pairs[usize::from(u16::from_be_bytes([block[p + 1], block[p + 2]]))];
                set == registry::LineLook::NONE
                    || (set != registry::LineLook::ANY && !look.third(set, block[p + 3]))
            } else {
                Self::ruled_out_at(data, look, at + p)
            };
            if ruled_out {
                continue;
            }
            if line_needs_look(data, at + p + 1) {
                self.last_at = at;
                self.last_mask = 1 << p;
                return Some(at + p + 1);
            }
        }
        self.last_at = at;
        self.last_mask = mask;
        None
    }

    /// [`Walk::block`]'s test for the line after the newline at
    /// `data[nl]`, reading its first bytes from `data` (near a block's end).
    #[inline(never)]
    fn ruled_out_at(data: &[u8], look: &registry::LineLook, nl: usize) -> bool {
        let Some(&[b0, b1]) = data.get(nl + 1..nl + 3) else {
            return false;
        };
        let set = look.pair(b0, b1);
        if set == registry::LineLook::NONE {
            return true;
        }
        if set == registry::LineLook::ANY {
            return false;
        }
        data.get(nl + 3).is_some_and(|&b2| !look.third(set, b2))
    }
}

/// Whether the line starting at `data[start]` needs a line-start look: its
/// first byte after blanks may begin a marker, or only blanks are left.
#[inline(never)]
fn line_needs_look(data: &[u8], start: usize) -> bool {
    let m = skip_blank(data, start);
    m >= data.len()
        || (registry::line_interest_table()[usize::from(data[m])]
            && registry::may_open_line(&data[m..]))
}

/// Bytes where text scanning stops: a newline or [`is_special`].
static TEXT_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\n' as usize] = true;
    t[b'<' as usize] = true;
    t[b'[' as usize] = true;
    t[b'`' as usize] = true;
    t
};

/// [`TEXT_STOPS`] over a short slice: eight bytes at a time (SWAR: one
/// 64-bit word compared against the four stop bytes at once), then byte by
/// byte.
#[inline]
fn first_text_stop(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    #[inline]
    fn zero_bytes(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x & HIGHS
    }
    let mut words = rest.chunks_exact(8);
    let mut off = 0;
    for chunk in &mut words {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        let hits = zero_bytes(w ^ (ONES * u64::from(b'\n')))
            | zero_bytes(w ^ (ONES * u64::from(b'<')))
            | zero_bytes(w ^ (ONES * u64::from(b'[')))
            | zero_bytes(w ^ (ONES * u64::from(b'`')));
        if hits != 0 {
            // The lowest mark is exact (false marks only sit above a true one).
            return Some(off + (hits.trailing_zeros() / 8) as usize);
        }
        off += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| TEXT_STOPS[b as usize])
        .map(|k| off + k)
}

#[inline]
fn is_special(b: u8) -> bool {
    matches!(b, b'<' | b'[' | b'`')
}

/// The next byte at or after `from` that can start a marker anywhere in a
/// line (plus the `armed` byte), or `usize::MAX`.
#[inline]
fn find_special(buf: &[u8], from: usize, armed: Option<u8>) -> usize {
    if from >= buf.len() {
        return usize::MAX;
    }
    let rest = &buf[from..];
    let hit = match armed {
        None if rest.len() < 16 => rest.iter().position(|&b| is_special(b)),
        None => memchr::memchr3(b'<', b'[', b'`', rest),
        Some(a) => rest.iter().position(|&b| is_special(b) || b == a),
    };
    match hit {
        Some(k) => from + k,
        None => usize::MAX,
    }
}

/// The next `byte` at or after `from`, or `usize::MAX`.
#[inline]
fn find_byte(buf: &[u8], from: usize, byte: u8) -> usize {
    match buf.get(from..).and_then(|rest| memchr::memchr(byte, rest)) {
        Some(k) => from + k,
        None => usize::MAX,
    }
}

#[inline]
fn find_nl(buf: &[u8], from: usize) -> usize {
    if from >= buf.len() {
        return usize::MAX;
    }
    let rest = &buf[from..];
    let hit = if rest.len() < 16 {
        rest.iter().position(|&b| b == b'\n')
    } else {
        memchr::memchr(b'\n', rest)
    };
    match hit {
        Some(k) => from + k,
        None => usize::MAX,
    }
}

/// What the nested engine reports while it reads reasoning: calls are
/// kept in `found`; `last` says whether the reasoning so far ends with one
/// (prose after a call clears it, blanks and markup do not).
fn note_drafted(ev: Event<'_>, found: &mut Vec<ToolCall>, last: &mut bool) {
    match ev {
        Event::ToolCall(c) => {
            found.push(c);
            *last = true;
        }
        Event::Text { bytes, .. } if !bytes.iter().all(u8::is_ascii_whitespace) => *last = false,
        Event::Reasoning { .. } => *last = false,
        _ => {}
    }
}

/// Index of the first byte in `hay` that starts any of the closing markers.
fn find_any_first(hay: &[u8], close: &[Close]) -> Option<usize> {
    let mut firsts = [0u8; 3];
    let mut n = 0;
    for c in close {
        let b = c.lit[0];
        if !firsts[..n].contains(&b) && n < 3 {
            firsts[n] = b;
            n += 1;
        }
    }
    match n {
        1 => memchr::memchr(firsts[0], hay),
        2 => memchr::memchr2(firsts[0], firsts[1], hay),
        _ => memchr::memchr3(firsts[0], firsts[1], firsts[2], hay),
    }
}

/// Whether a block's calls, or the faults it was read with, are a
/// format's documentation (`docs/recovery.md`, "Evidence"): the text
/// before presents it as a format or quotes its opening in code. A
/// documented block that could not be read (an escaped body in a prompt
/// held in code, `<function=f>{\"k\": …}`) is text too, not an error
/// that takes the rest of the page with it. Names are not looked at: a
/// tallying sink's calls may have none.
fn documented(result: &formats::BlockResult, block: &[u8], cx: &formats::ParseCx) -> bool {
    (!result.calls.is_empty() || !result.errors.is_empty())
        && formats::shared::evidence::documents_block(cx.before, block)
}

/// Whether a block's calls fill a template's blanks rather than call a
/// tool (`docs/recovery.md`, "Evidence"): a call whose name is a
/// placeholder no tools file declares and whose arguments are all
/// placeholders (`<tool_call>{"name": "function_name", "arguments":
/// {"arg1": "value1"}}</tool_call>`, `<function=function_name>`). A
/// tallying sink's calls may have no names, so a block that could hold
/// blanks is read again with them; one that cannot is not, nor one whose
/// parse read its names and found no placeholder
/// ([`formats::ParseCx::names_clear`]).
fn template_blanks(
    fmt: &dyn formats::BlockFormat,
    result: &formats::BlockResult,
    block: &[u8],
    cx: &formats::ParseCx,
) -> bool {
    use formats::shared::evidence;
    if result.calls.is_empty() || cx.names_clear.get() || !evidence::may_hold_blanks(block) {
        return false;
    }
    let blank = |r: &formats::BlockResult| r.calls.iter().any(|c| evidence::blank_call(c, cx.cfg));
    if !cx.tally {
        return blank(result);
    }
    let spare = std::cell::Cell::default();
    let named = formats::ParseCx {
        tally: false,
        spare: &spare,
        ..*cx
    };
    blank(&fmt.parse(block, &named))
}

/// The result of a block cut at the model's token limit (finish reason
/// `length`): the call the cut happened in (the last, reaching the block's
/// end, or completed by repair) is not a call but a truncation error; the
/// complete calls before it stay.
fn without_cut_call(
    mut r: formats::BlockResult,
    len: usize,
    format: FormatId,
) -> formats::BlockResult {
    use crate::repair::RepairKind;
    let cut_at = r
        .calls
        .iter()
        .position(|c| c.end >= len || c.repairs.iter().any(|x| x.kind == RepairKind::MissingClose));
    if let Some(k) = cut_at {
        let from = if k == 0 { 0 } else { r.calls[k - 1].end };
        r.calls.truncate(k);
        if r.errors.is_empty() {
            r.errors.push(formats::BlockError {
                code: "TLP-002",
                message: format!(
                    "{format} call cut off: the output stopped at its token limit (finish reason length)"
                ),
                offset: from.min(len),
                hint: Some(
                    "raise the model's token limit (max_tokens / num_predict)".into(),
                ),
            });
        }
        if let Some(last) = r.calls.last_mut() {
            // the calls end where the cut call began
            last.end = from;
        }
    }
    r
}

/// Where strict JSON parsing fails in a block, from its first `{`: the
/// offset of the fault in the block (0 when there is no JSON to blame).
fn json_fault(block: &[u8]) -> usize {
    let Some(start) = memchr::memchr(b'{', block) else {
        return 0;
    };
    let json = &block[start..];
    let mut values =
        serde_json::Deserializer::from_slice(json).into_iter::<serde::de::IgnoredAny>();
    let Some(Err(e)) = values.next() else {
        return 0;
    };
    // serde_json's line and column are 1-based, the column in bytes
    let mut line_start = 0usize;
    for _ in 1..e.line() {
        match memchr::memchr(b'\n', &json[line_start..]) {
            Some(i) => line_start += i + 1,
            None => return 0,
        }
    }
    (start + line_start + e.column().saturating_sub(1)).min(block.len())
}

/// FNV-1a over `parts`, from `h`.
fn fnv1a(mut h: u64, parts: &[&[u8]]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    for part in parts {
        for &b in *part {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }
    h
}

/// The part of a derived call id that names the document: a 64-bit FNV-1a
/// hash of its name (`doc`, its length first) and its turn
/// ([`Config::turn`]). Computed once per document.
pub fn id_salt(doc: &str, turn: u64) -> u64 {
    let len = (doc.len() as u64).to_le_bytes();
    fnv1a(
        0xcbf2_9ce4_8422_2325,
        &[&len, doc.as_bytes(), &turn.to_le_bytes()],
    )
}

/// A deterministic id for a call that came without one: `call_` and 8 hex
/// digits, a 64-bit FNV-1a hash of the document ([`id_salt`]: its name and
/// turn), the call's index, its offset and its name, folded to 32 bits.
/// It does not depend on the call's body, so `tool_call_start` can carry it
/// before the body has arrived; it does depend on the document, so the
/// same call in two documents (files, `--lines` records, `loop` turns) gets
/// two ids.
pub fn derive_id(salt: u64, index: usize, offset: u64, name: &str) -> String {
    let mut id = String::with_capacity(13);
    derive_id_into(&mut id, salt, index, offset, name);
    id
}

/// The id a `tool_call_start` carried and what [`derive_id`] made it of,
/// so that the call's record takes it instead of hashing again (its
/// strings are reused from call to call).
#[derive(Default)]
struct EarlyId {
    /// The salt, index and offset it was derived from; `None` once taken.
    key: Option<(u64, usize, u64)>,
    /// The name it was derived from.
    name: String,
    /// The id.
    id: String,
}

/// [`derive_id`] written into `id` (cleared first; its capacity kept).
fn derive_id_into(id: &mut String, salt: u64, index: usize, offset: u64, name: &str) {
    let (index, offset) = ((index as u64).to_le_bytes(), offset.to_le_bytes());
    let h = fnv1a(salt, &[&index, &offset, name.as_bytes()]);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let folded = (h ^ (h >> 32)) as u32;
    // a new string is made to measure (growing an empty one costs more)
    if id.capacity() < 13 {
        *id = String::with_capacity(13);
    } else {
        id.clear();
    }
    id.push_str("call_");
    for shift in (0..8).rev() {
        id.push(char::from(HEX[((folded >> (shift * 4)) & 0xf) as usize]));
    }
}

/// Sets `s` to `text`, in its own allocation when that is large enough;
/// a larger one is allocated afresh rather than grown (growing would copy
/// the old bytes, which are about to be overwritten).
fn refill(s: &mut String, text: &str) {
    if s.capacity() < text.len() {
        *s = String::with_capacity(text.len().max(2 * s.capacity()));
    } else {
        s.clear();
    }
    s.push_str(text);
}

#[cfg(test)]
mod tests {
    use super::{first_text_stop, walk_lines, walk_lines_by, TEXT_STOPS};
    use crate::scan;

    #[test]
    fn the_walk_gives_the_same_answers_whichever_mask_it_takes() {
        // lines that pass and fail the pair and third-byte look-ups, blank
        // lines and newlines in a block's last bytes, at every start and
        // length a chunk may have
        let pieces: [&[u8]; 10] = [
            b"plain prose here ",
            b"\n",
            b"\nto the",
            b"\nto=functions.f ",
            b"\n  <tool_call>",
            b"\n\n",
            b"\ncall: x",
            b"\n{\"name\"",
            "\n\u{e9}t\u{e9} ".as_bytes(),
            b"\nan",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            let mut data = Vec::new();
            while data.len() < 400 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                data.extend_from_slice(pieces[(seed % 10) as usize]);
            }
            for from in [0, 1, 5, 63, 64, 130] {
                for limit in [from, from + 3, from + 64, from + 200, data.len()] {
                    let hay = &data[from..limit.min(data.len())];
                    assert_eq!(
                        walk_lines(&data, from, hay),
                        walk_lines_by(&data, from, hay, scan::newline_mask),
                        "{from} {limit} {data:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn first_text_stop_matches_a_byte_loop() {
        // Every stop byte at every position of every short length, with
        // bytes around it that trip naive SWAR tricks (0x80+, 0x01, just
        // above and below the stops).
        let fillers = [
            b'a',
            0x01,
            0x7f,
            0x80,
            0xff,
            b'\n' + 1,
            b'<' - 1,
            b'[' + 1,
            b'`' - 1,
        ];
        for len in 0..16 {
            for filler in fillers {
                for at in 0..=len {
                    for stop in [b'\n', b'<', b'[', b'`', b'x'] {
                        let mut v = vec![filler; len];
                        if at < len {
                            v[at] = stop;
                        }
                        let naive = v.iter().position(|&b| TEXT_STOPS[b as usize]);
                        assert_eq!(first_text_stop(&v), naive, "{v:?}");
                    }
                }
            }
        }
    }
}
