//! The types a format is made of: its descriptor ([`Format`]), its openers
//! ([`Opener`]: a literal plus a probe deciding what begins there) and its
//! block scanner and parser ([`BlockFormat`]).

pub use super::id::FormatId;
use crate::call::ParsedCall;
use crate::config::Config;
use crate::scan::Prefix;
use std::cell::Cell;

/// Everything about one format, in one place: what `toolcall formats`
/// prints, the openers the engine tries, the names `--format` takes, and
/// the rules that typing and rendering follow.
pub struct Format {
    /// The format id.
    pub id: FormatId,
    /// The model families that write it.
    pub families: &'static str,
    /// Its markers, as `toolcall formats` shows them.
    pub markers: &'static [&'static str],
    /// One line on the body.
    pub body: &'static str,
    /// The models known to write it: `--model NAME` takes the format and the
    /// model's generation prompt from here, and `--format` takes the names.
    pub models: &'static [Model],
    /// The literals that may begin its markup, with their probes.
    pub openers: &'static [Opener],
    /// Other formats under whose `--format` its blocks are reported too
    /// (a `<tool_calls>` JSON block of jamba under `--format minimax`).
    pub admitted_under: &'static [FormatId],
    /// A probe run at the document's first byte whatever that byte is, for
    /// a reply whose first marker may be missing.
    pub doc_start: Option<DocStart>,
    /// A byte that the model writes right before an opener's literal and
    /// that belongs to the marker (MiniMax-M3's `]<]minimax[>[`).
    pub lead: Option<Lead>,
    /// A second lead that starts at a line's start, its literal empty
    /// (Kimi's `NAME:INDEX` before `<|tool_call_argument_begin|>`).
    pub line_lead: Option<Lead>,
    /// How its argument values are written.
    pub values: Values,
    /// For a format that writes its bodies inside harmony's message headers
    /// (`<|start|>assistant to=NAME<|message|>…`): how such a header goes
    /// on, read by harmony's opener ([`HeaderBody`]).
    pub header_body: Option<HeaderBody>,
    /// Its calls carry no marker (a bare JSON value): a `{` in the middle
    /// of a line of prose is inline JSON, not a call to run.
    pub unmarked: bool,
    /// The turn headers of its family's chat template (ChatML's
    /// `<|im_start|>ROLE`, Mistral's `[INST]`): read by
    /// `formats::turns` whatever `--format` says.
    pub turns: &'static [TurnMarker],
    /// The other special tokens of its family's chat template that a tool's
    /// output could use to end its message or open a turn or a call
    /// (MiniMax's `<end_of_sentence>`, Seed-OSS's `<seed:bos>`): with the
    /// `turns` literals, what `render result` breaks in that output.
    pub template_tokens: &'static [&'static str],
    /// The prompt side: tools block, results and calls as the family writes
    /// them (`toolcall render`); `None` when there is none.
    pub render: Option<crate::render::Prompt>,
}

impl Format {
    /// The descriptor of `id`: its families, markers and body as `toolcall
    /// formats` shows them; no models, no openers, JSON values, no prompt
    /// side. The methods below add the rest.
    pub const fn new(
        id: FormatId,
        families: &'static str,
        markers: &'static [&'static str],
        body: &'static str,
    ) -> Format {
        Format {
            id,
            families,
            markers,
            body,
            models: &[],
            openers: &[],
            admitted_under: &[],
            doc_start: None,
            lead: None,
            line_lead: None,
            values: Values::Json,
            header_body: None,
            unmarked: false,
            turns: &[],
            template_tokens: &[],
            render: None,
        }
    }

    /// The models known to write it.
    pub const fn models(mut self, models: &'static [Model]) -> Format {
        self.models = models;
        self
    }

    /// Its openers.
    pub const fn openers(mut self, openers: &'static [Opener]) -> Format {
        self.openers = openers;
        self
    }

    /// Other formats under whose `--format` its blocks are reported too.
    pub const fn admitted_under(mut self, ids: &'static [FormatId]) -> Format {
        self.admitted_under = ids;
        self
    }

    /// Its document-start probe.
    pub const fn doc_start(mut self, d: DocStart) -> Format {
        self.doc_start = Some(d);
        self
    }

    /// Its lead: bytes before a marker candidate that belong to it.
    pub const fn lead(mut self, lead: Lead) -> Format {
        self.lead = Some(lead);
        self
    }

    /// Its line lead: a run at a line's start (or the output's) before a
    /// marker candidate that belongs to it ([`Lead`] with an empty literal).
    pub const fn line_lead(mut self, lead: Lead) -> Format {
        self.line_lead = Some(lead);
        self
    }

    /// How its argument values are written.
    pub const fn values(mut self, values: Values) -> Format {
        self.values = values;
        self
    }

    /// How its body goes on inside another format's message header
    /// (harmony's, today).
    pub const fn header_body(mut self, h: HeaderBody) -> Format {
        self.header_body = Some(h);
        self
    }

    /// Its calls carry no marker.
    pub const fn unmarked(mut self) -> Format {
        self.unmarked = true;
        self
    }

    /// Its family's turn headers.
    pub const fn turns(mut self, turns: &'static [TurnMarker]) -> Format {
        self.turns = turns;
        self
    }

    /// The template's special tokens besides the `turns` literals (see
    /// the field).
    pub const fn template_tokens(mut self, tokens: &'static [&'static str]) -> Format {
        self.template_tokens = tokens;
        self
    }

    /// Its prompt side.
    pub const fn render(mut self, p: crate::render::Prompt) -> Format {
        self.render = Some(p);
        self
    }
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// A marker that opens a turn of a conversation (a role's header), and how
/// its role is read: see `formats::turns`.
#[derive(Clone, Copy, Debug)]
pub struct TurnMarker {
    /// The literal.
    pub open: &'static [u8],
    /// For a header that names its role: what ends the role word after
    /// the literal (empty for a marker of one role).
    pub then: &'static [u8],
    /// The role a marker of one role opens (empty for a naming header).
    pub role: &'static str,
    /// The turns opener reads the header (other roles' turns become
    /// verbatim text, the assistant's header markup); `false` when the
    /// format's own opener reads it and only its turn is noted.
    pub read: bool,
}

impl TurnMarker {
    /// A header that names its role: `open`, the role word, then `then`
    /// (`<|im_start|>` … `\n`).
    pub const fn named(open: &'static [u8], then: &'static [u8]) -> TurnMarker {
        TurnMarker {
            open,
            then,
            role: "",
            read: true,
        }
    }

    /// A literal that opens a turn of `role` (`<｜User｜>`, `[INST]`).
    pub const fn fixed(open: &'static [u8], role: &'static str) -> TurnMarker {
        TurnMarker {
            open,
            then: b"",
            role,
            read: true,
        }
    }

    /// Read by the format's own opener: the engine only notes the turn.
    pub const fn noted(mut self) -> TurnMarker {
        self.read = false;
        self
    }
}

/// How a message header (harmony's `<|start|>… to=NAME<|message|>`)
/// goes on as another format's body:
/// given the input, the header's recipient, whether it names a channel and
/// where the message body starts (right after `<|message|>`), the probe's
/// answer, or `None` when the message is not that format's. A header with
/// neither recipient nor channel is offered with the recipient `""`.
pub type HeaderBody = fn(&[u8], &str, bool, usize, &ProbeCx) -> Option<Probe>;

/// A model that writes a format.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    /// Its name, lowercase (`qwen3`, `gpt-oss`, `deepseek-v3.2`): a family,
    /// a version and the variants it needs; a served name such as
    /// `qwen3:8b` or `Qwen/Qwen3-8B` resolves to it by those
    /// ([`model_name`](super::model_name)).
    pub name: &'static str,
    /// The text its chat template appends after the last message by default
    /// (its generation prompt).
    pub prompt: &'static str,
}

impl Model {
    /// A model named `name` whose generation prompt is `prompt`.
    pub const fn new(name: &'static str, prompt: &'static str) -> Model {
        Model { name, prompt }
    }
}

/// The probe a format runs at the first byte of a document.
#[derive(Clone, Copy)]
pub struct DocStart {
    /// Only when `--format` names the format (never in auto mode).
    pub forced_only: bool,
    /// The probe.
    pub probe: fn(&[u8], &ProbeCx) -> Probe,
}

/// Bytes written right before a marker candidate that belong to the
/// marker: `]` before MiniMax M3's `<]minimax[>[`, `functools` before a
/// `[` inside a line of prose.
#[derive(Clone, Copy)]
pub struct Lead {
    /// The bytes. Empty for a line lead ([`Format::line_lead`]): the lead
    /// then starts at the start of a line (or of the output) and is all
    /// [`Lead::between`] run, which it must have.
    pub lit: &'static [u8],
    /// What follows them when they lead a marker.
    pub rest: &'static [u8],
    /// They must start a word: no letter, digit or `_` right before them.
    pub word: bool,
    /// The probe for the marker read from the lead on.
    pub probe: fn(&[u8], &ProbeCx) -> Probe,
    /// When the lead runs on past its literal: what may stand between the
    /// literal and the candidate (`NAME:INDEX` and blanks after Kimi's
    /// `functions.`), judged on those bytes: `Prefix::Full` when they
    /// are such a run, `Prefix::Partial` when they begin one. `None`:
    /// the literal ends right before the candidate.
    pub between: Option<fn(&[u8]) -> Prefix>,
}

/// The most bytes a lead with a [`Lead::between`] part spans, its literal
/// included: a longer run before a candidate is not looked at.
pub const MAX_LEAD: usize = 192;

/// How a format writes argument values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// As JSON: typed as written.
    Json,
    /// As text: a tool's schema types them (`--tools`).
    Text,
    /// As text, except values the markup declares strings, which stay
    /// strings (DeepSeek DSML's `string="true"`).
    TextUnlessDeclared,
}

/// Where an opener is tried among those of the same first byte: by rank,
/// then openers of no format, then by registry order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// Reasoning tags.
    Reasoning,
    /// Before the common tags (a spelling they would otherwise take).
    Early,
    /// Most openers.
    Normal,
    /// After the common tags (a tag shared with a more common format).
    Late,
    /// Structural openers: code fences, bare JSON.
    Structural,
    /// Catch-alls (end-of-turn tokens).
    Last,
}

/// Context for a probe.
pub struct ProbeCx<'a> {
    /// The position is the first non-blank byte of a line.
    pub line_start: bool,
    /// The position is the very start of the document.
    pub doc_start: bool,
    /// No more input will come.
    pub eof: bool,
    /// A byte armed by an earlier [`Action::Arm`] in this document.
    pub armed: Option<u8>,
    /// The literal of the last opener found whose probes all declined it
    /// (`<tool_call` before prose), until a block starts or another literal
    /// is declined: a closing tag after it closes that text, not a call.
    pub declined: Option<&'static [u8]>,
    /// How many bytes of this same position the probes were shown last
    /// time, when the answer was [`Probe::NeedMore`] (0 otherwise): a probe
    /// that searches ahead may resume its search there instead of reading
    /// again what it read. The registry stops at the first `NeedMore`, so
    /// a probe may rely on it only when no opener tried before it can match
    /// the same bytes (its literal is the only one that begins so).
    pub seen: usize,
    /// The engine settings.
    pub cfg: &'a Config,
}

impl ProbeCx<'_> {
    /// The offset of the first byte of `input` after the blanks from `at`:
    /// `Err` with the answer when there is none (more may come, or the
    /// input ended) or more than `max` blanks come first (not a marker).
    pub fn after_blanks(&self, input: &[u8], at: usize, max: usize) -> Result<usize, Probe> {
        let s = crate::scan::skip_space(input, at);
        if s - at > max || s == input.len() && self.eof {
            Err(Probe::NotMarker)
        } else if s == input.len() {
            Err(Probe::NeedMore)
        } else {
            Ok(s)
        }
    }

    /// Whether `input` starts with the marker `literal`: `Err` with the
    /// answer when it does not (not a marker) or cannot tell yet (a prefix
    /// of it, more may come).
    pub fn literal(&self, input: &[u8], literal: &[u8]) -> Result<(), Probe> {
        match crate::scan::prefix(input, literal) {
            crate::scan::Prefix::Full => Ok(()),
            crate::scan::Prefix::Partial if !self.eof => Err(Probe::NeedMore),
            _ => Err(Probe::NotMarker),
        }
    }
}

/// A probe's answer.
pub enum Probe {
    /// No marker begins here.
    NotMarker,
    /// Cannot tell yet: hold these bytes back until more arrive.
    NeedMore,
    /// A marker begins here.
    Match(Action),
}

impl Probe {
    /// No marker matched: [`Probe::NeedMore`] when one may still (a
    /// `partial` match before the end of input), else [`Probe::NotMarker`].
    pub fn unmatched(partial: bool, cx: &ProbeCx) -> Probe {
        if partial && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        }
    }
}

/// What a marker starts.
pub enum Action {
    /// A candidate call block, held back until its end is found.
    Block {
        /// The block's format.
        fmt: &'static dyn BlockFormat,
        /// What finds the block's end.
        scanner: BlockScanner,
    },
    /// A reasoning span.
    Reasoning {
        /// Length of the opening marker.
        open_len: usize,
        /// The markers that end it.
        close: &'static [Close],
    },
    /// Control tokens that are neither text nor a call.
    Markup {
        /// Their length.
        len: usize,
    },
    /// Markup that also makes `byte` a marker candidate anywhere in a line
    /// for the rest of the document (a format whose markers are glued to
    /// prose once the document has shown it is in that format).
    Arm {
        /// Length of the markup.
        len: usize,
        /// The byte to look for from now on.
        byte: u8,
    },
    /// An ordinary code fence: text in which no markers are looked for.
    Fence {
        /// Length of the opening fence line, newline included.
        header_len: usize,
        /// Number of fence bytes that close it.
        ticks: usize,
        /// The fence byte: a backtick, or `~` (CommonMark's other fence).
        byte: u8,
    },
    /// Markup, then text in which no markers are looked for up to the first
    /// of `close` (which is not part of it): a message body that its header
    /// declares prose (harmony's `final` channel).
    Verbatim {
        /// Length of the markup before the text.
        header_len: usize,
        /// The markers that end the text.
        close: &'static [&'static [u8]],
        /// Markers that end the text and are its last bytes: the closing
        /// words of a prompt the output echoed.
        through: &'static [&'static [u8]],
    },
    /// Inline code: text in which no markers are looked for.
    InlineCode {
        /// Number of backticks that close it.
        ticks: usize,
    },
}

/// A marker that ends a reasoning span.
pub struct Close {
    /// The marker. One ending in `:` is a tag with a suffix: the marker
    /// runs on to the `>` that ends `SUFFIX>` (up to 80 bytes, no blanks).
    pub lit: &'static [u8],
    /// Whether the marker belongs to the span (else it starts what follows).
    pub consume: bool,
}

impl Close {
    /// `lit` ends the span and belongs to it.
    pub const fn consumed(lit: &'static [u8]) -> Close {
        Close { lit, consume: true }
    }

    /// `lit` ends the span and starts what follows it.
    pub const fn ahead(lit: &'static [u8]) -> Close {
        Close {
            lit,
            consume: false,
        }
    }
}

/// What finds a block's end, as a probe hands it to the engine: the
/// commonest scanner (a JSON body then a closing tag: hermes and its kin)
/// held inline, any other boxed. A probe runs for every candidate block,
/// so the inline case saves an allocation per call (issue 48).
pub enum BlockScanner {
    /// A JSON body, then a closing tag.
    Json(crate::formats::shared::json::JsonThenClose),
    /// Any other scanner.
    Boxed(Box<dyn Scanner>),
}

impl BlockScanner {
    /// `scanner`, boxed.
    pub fn new(scanner: impl Scanner + 'static) -> Self {
        BlockScanner::Boxed(Box::new(scanner))
    }
}

impl From<crate::formats::shared::json::JsonThenClose> for BlockScanner {
    fn from(scanner: crate::formats::shared::json::JsonThenClose) -> Self {
        BlockScanner::Json(scanner)
    }
}

impl BlockScanner {
    /// What the scanner read of the body, when it read the plain call
    /// envelope ([`ParseCx::plain`]).
    #[inline]
    pub fn plain_body(&self) -> Option<PlainBody> {
        match self {
            BlockScanner::Json(s) => s.plain_body(),
            BlockScanner::Boxed(_) => None,
        }
    }
}

impl Scanner for BlockScanner {
    #[inline]
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        match self {
            BlockScanner::Json(s) => s.scan(block, eof),
            BlockScanner::Boxed(s) => s.scan(block, eof),
        }
    }

    #[inline]
    fn consumed(&self) -> usize {
        match self {
            BlockScanner::Json(s) => s.consumed(),
            BlockScanner::Boxed(s) => s.consumed(),
        }
    }
}

/// Finds where one block ends: the state its scan keeps between chunks.
pub trait Scanner: Send {
    /// Where the block ends. `block` starts at the marker's first byte and
    /// grows between calls; `eof` means it will not grow again (then the
    /// answer must not be `More`). The answer must depend only on the bytes,
    /// never on how they were chunked.
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd;

    /// How many bytes at the block's start the probe already read: the
    /// engine never cuts a block (`--max-block`) shorter than that.
    fn consumed(&self) -> usize {
        0
    }
}

/// Where a block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockEnd {
    /// Not known yet.
    More,
    /// The block is `len` bytes; `cut` when the input ended inside it.
    Done {
        /// Length of the block.
        len: usize,
        /// The input ended before the block's end marker.
        cut: bool,
    },
    /// It turned out not to be a block: emit `text_len` bytes as text.
    NotBlock {
        /// How many bytes are plain text.
        text_len: usize,
    },
}

impl BlockEnd {
    /// The block is `len` bytes, its end marker found.
    pub fn done(len: usize) -> BlockEnd {
        BlockEnd::Done { len, cut: false }
    }

    /// The block is all of `block`, cut off by the end of input.
    pub fn cut_off(block: &[u8]) -> BlockEnd {
        BlockEnd::Done {
            len: block.len(),
            cut: true,
        }
    }

    /// No end marker in `block`: cut off at the end of input (`eof`), else
    /// not known yet.
    pub fn unended(block: &[u8], eof: bool) -> BlockEnd {
        if eof {
            BlockEnd::cut_off(block)
        } else {
            BlockEnd::More
        }
    }
}

/// Context for parsing a complete block.
#[derive(Clone, Copy)]
pub struct ParseCx<'a> {
    /// The engine settings.
    pub cfg: &'a Config,
    /// The input ended inside the block.
    pub cut: bool,
    /// The document's text right before the block (its last bytes, at most
    /// a few hundred): the words that introduce an unmarked candidate.
    pub before: &'a [u8],
    /// No text but blanks came before the block in this reply (markup,
    /// reasoning and calls may have): an unmarked candidate stands as the
    /// reply.
    pub reply_start: bool,
    /// The engine's sink only counts calls ([`crate::Sink::wants_records`]
    /// said no): the engine keeps of each call only where it is, so a
    /// format may leave its name and arguments empty, and skip the work and
    /// allocations of building them. Whether the block gives calls, how
    /// many, their ends, repairs and errors must be what they are without
    /// it. `false` is always correct.
    pub tally: bool,
    /// An empty list the engine lends for the block's calls and takes back
    /// once they are placed, so that a block's result need not allocate
    /// its own (blocks are parsed once per call: issue 48).
    /// [`ParseCx::call_list`] takes it. `&Cell::default()` is always correct.
    pub spare: &'a Cell<Vec<ParsedCall>>,
    /// What the block's scanner read of its body: the plain call envelope
    /// at a known place, or that there is none ([`PlainBody`]), so the
    /// parse need not read it again. `None` is always correct.
    pub plain: Option<PlainBody>,
    /// Set by a tallying parse ([`ParseCx::tally`]) that read the name of
    /// each call it gives and found none a template's placeholder
    /// (`evidence::placeholder_name`): then no
    /// call of the block fills a template's blanks, and the engine need
    /// not look for them in the block's bytes or parse it again with
    /// names (issue 48). Never setting it is always correct;
    /// `&Cell::default()` lends one.
    pub names_clear: &'a Cell<bool>,
}

/// A block's JSON body that its scanner read as the plain call envelope
/// (`{"name": "…", "arguments": {…}}`, `scan::compact::envelope_at`):
/// where in the block it starts, and what the check found from there.
/// Offsets are `u32` (a probe's answer holds it, and stays small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainBody {
    /// The body's `{`, as an offset in the block.
    pub start: u32,
    /// The check found the envelope: `false` when the block's first
    /// `end` bytes hold none at `start` (then `name` and `arguments` say
    /// nothing).
    pub found: bool,
    /// Found: the envelope's end, counted from `start` (the check's
    /// answer, `scan::compact::Envelope`). Not found: how many
    /// bytes of the block the scanner had when it read.
    pub end: u32,
    /// Where the name's string starts (after its quote), from `start`:
    /// it ends at the next quote (it has no escape).
    pub name: u32,
    /// The arguments' object, from `start`.
    pub arguments: (u32, u32),
    /// Some string held a byte at or above 0x80.
    pub non_ascii: bool,
}

impl ParseCx<'_> {
    /// An empty list for the block's calls: the one the engine lent
    /// ([`ParseCx::spare`]) the first time, a new one after that.
    pub fn call_list(&self) -> Vec<ParsedCall> {
        let mut calls = self.spare.take();
        calls.clear();
        calls
    }

    /// Parses argument JSON, repairing it within the settings' budget.
    pub fn parse_json(
        &self,
        text: &str,
    ) -> Result<(serde_json::Value, Vec<crate::repair::Repair>), crate::repair::RepairError> {
        crate::call::parse_json(text, &self.cfg.repair_options())
    }
}

/// A problem found in a block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockError {
    /// A `TLP-00N` code.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// Offset of the fault within the block.
    pub offset: usize,
    /// What probably caused it.
    pub hint: Option<String>,
}

/// What a block held.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockResult {
    /// The calls, in order (each with its end offset in the block).
    pub calls: Vec<ParsedCall>,
    /// Problems. A block with no calls is given back as text.
    pub errors: Vec<BlockError>,
    /// The body is an explicit empty list of calls (`[]`): no calls and no
    /// error, and the block is markup rather than text.
    pub empty_list: bool,
}

impl BlockResult {
    /// No calls and no errors: plain text.
    pub fn text() -> Self {
        BlockResult::default()
    }

    /// These calls and no errors.
    pub fn calls(calls: Vec<ParsedCall>) -> Self {
        BlockResult {
            empty_list: false,
            calls,
            errors: Vec::new(),
        }
    }

    /// One call and no errors.
    pub fn one(call: ParsedCall) -> Self {
        BlockResult::calls(vec![call])
    }

    /// This error and no calls.
    pub fn failed(error: BlockError) -> Self {
        BlockResult {
            empty_list: false,
            calls: Vec::new(),
            errors: vec![error],
        }
    }

    /// One error and no calls.
    pub fn error(code: &'static str, message: impl Into<String>, offset: usize) -> Self {
        BlockResult::failed(BlockError {
            code,
            message: message.into(),
            offset,
            hint: None,
        })
    }

    /// The error a block cut off by the end of input gets.
    pub fn truncated(format: FormatId, offset: usize) -> Self {
        BlockResult::failed(BlockError {
            code: "TLP-002",
            message: format!("{format} call cut off at end of input"),
            offset,
            hint: Some(
                "the output ends inside the call: raise the model's token limit (max_tokens / num_predict)"
                    .into(),
            ),
        })
    }
}

/// A format's block scanner and parser.
pub trait BlockFormat: Sync {
    /// The format id reported by default.
    fn id(&self) -> FormatId;
    /// Parses a complete block.
    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult;
    /// The call's name, once the first bytes of the block make it certain
    /// (for an early `tool_call_start` while the body is still arriving).
    /// `head` is at most [`EARLY_NAME_WINDOW`] bytes; the answer must not
    /// change once it is `Some` as `head` grows.
    fn early_name(&self, _head: &[u8]) -> Option<String> {
        None
    }

    /// A byte that becomes a marker candidate anywhere in a line once a
    /// block of this format has ended (as [`Action::Arm`] does): a format
    /// whose segments the model glues onto what came before.
    fn arms_after(&self) -> Option<u8> {
        None
    }
}

/// A block format that is its id and a parse function, for the formats
/// that need nothing else of [`BlockFormat`] (no early name, no armed
/// byte).
pub struct Blocks {
    /// The format id.
    pub id: FormatId,
    /// Parses a complete block.
    pub parse: fn(&[u8], &ParseCx) -> BlockResult,
}

impl Blocks {
    /// The block format of `id` whose blocks `parse` reads.
    pub const fn new(id: FormatId, parse: fn(&[u8], &ParseCx) -> BlockResult) -> Blocks {
        Blocks { id, parse }
    }
}

impl BlockFormat for Blocks {
    fn id(&self) -> FormatId {
        self.id
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        (self.parse)(block, cx)
    }
}

/// One literal that may begin a marker.
#[derive(Clone, Copy)]
pub struct Opener {
    /// The literal.
    pub lit: &'static [u8],
    /// Compare ignoring ASCII case.
    pub ci: bool,
    /// Where in a line it is looked for.
    pub place: Place,
    /// Where it is tried among the openers of the same first byte.
    pub rank: Rank,
    /// Other formats under whose `--format` this opener is on as well (it
    /// is always on in auto mode and under its own format's id; an opener
    /// of no format, such as a reasoning tag, is always on).
    pub also: &'static [FormatId],
    /// Decides what begins here once the literal matched.
    pub probe: fn(&[u8], &ProbeCx) -> Probe,
    /// The literal is markup whatever follows it (a stray closing tag, a
    /// special token): no probe runs ([`Opener::markup`]).
    pub markup: bool,
}

impl Opener {
    /// An opener of `lit` that `probe` decides: ASCII case compared, looked
    /// for anywhere in a line, [`Rank::Normal`], on only under its own
    /// format. The methods below change one of these.
    pub const fn new(lit: &'static [u8], probe: fn(&[u8], &ProbeCx) -> Probe) -> Opener {
        Opener {
            lit,
            ci: false,
            place: Place::Anywhere,
            rank: Rank::Normal,
            also: &[],
            probe,
            markup: false,
        }
    }

    /// An opener of `lit` that is markup wherever it stands: a closing tag
    /// or special token met outside its block, left behind by a template
    /// or a cut block, is never text. The methods below apply as to
    /// [`Opener::new`].
    pub const fn markup(lit: &'static [u8]) -> Opener {
        let mut op = Opener::new(lit, |_, _| Probe::NotMarker);
        op.markup = true;
        op
    }

    /// The literal is compared ignoring ASCII case.
    pub const fn ci(mut self) -> Opener {
        self.ci = true;
        self
    }

    /// Looked for only at the first non-blank byte of a line.
    pub const fn line_start(self) -> Opener {
        self.place(Place::LineStart)
    }

    /// Looked for at `place`.
    pub const fn place(mut self, place: Place) -> Opener {
        self.place = place;
        self
    }

    /// Tried at `rank` among the openers of the same first byte.
    pub const fn rank(mut self, rank: Rank) -> Opener {
        self.rank = rank;
        self
    }

    /// On under these formats' `--format` as well.
    pub const fn also(mut self, also: &'static [FormatId]) -> Opener {
        self.also = also;
        self
    }
}

/// Where in a line an [`Opener`] is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Only at the first non-blank byte of a line.
    LineStart,
    /// Anywhere in a line: the engine's text scanner stops at its first
    /// byte.
    Anywhere,
    /// Anywhere in a line once an [`Action::Arm`] armed this byte in the
    /// document (functionary v3.2's `>>>` after a `>>>all` header).
    Armed(u8),
}

/// How many bytes of a block [`BlockFormat::early_name`] may look at.
pub const EARLY_NAME_WINDOW: usize = 512;
