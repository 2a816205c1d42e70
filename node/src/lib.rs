//! `toolcall` for Node.js: the native half of the npm package.
//!
//! Every function hands its input to the same engine, repairer, validator
//! and renderers the `toolcall` command runs; nothing parses on its own.
//! Results cross into JavaScript as the JSON text of the core's own records
//! (the bytes `toolcall split` and `toolcall stream` write), which the
//! package's JavaScript layer (`node/js/`) reads with `JSON.parse`: one
//! record schema, written by the core, and one string per call across the
//! boundary instead of one Node-API call per field.
//!
//! Options arrive as one object and go to the core's front door as one
//! value: [`toolcall_core::Options`] read by serde (unknown keys refused,
//! every default the core's), [`toolcall_core::Options::resolve`], then
//! [`toolcall_core::read`] or a [`toolcall_core::Reader`]. No option, name
//! or default is handled here. The `*Async` functions run the same work on
//! the libuv thread pool (napi `AsyncTask`) so a long input does not hold
//! up the event loop.

#[cfg(feature = "probes")]
mod probes;

use napi::bindgen_prelude::{
    AsyncTask, ClassInstance, Either, Env, FromNapiValue, FunctionCallContext, Latin1String,
    Object, Task, Utf16String,
};
use napi::{Error, Result, Status};
use napi::{JsString, JsValue};
use napi_derive::napi;
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use std::sync::Arc;
use toolcall_core::validate::registry::{Registry, ToolsLoadError, ToolsOptions};
use toolcall_core::validate::Policy;
use toolcall_core::{
    Event, Prose, Reader, RepairOptions, Resolved, Sink, StreamRecorder, ToolCall,
};

/// Text as JavaScript hands it: a string, or bytes (`Buffer`,
/// `Uint8Array`) read as UTF-8 by the engine. (Written out in each
/// signature: napi's declarations do not follow a type alias.)
type Input<'a> = Either<String, &'a [u8]>;

fn bytes_of<'a>(input: &'a Input<'_>) -> &'a [u8] {
    match input {
        Either::A(s) => s.as_bytes(),
        Either::B(b) => b,
    }
}

/// An error whose `code` the JavaScript layer maps to its error classes:
/// `OptionError`, `ToolsError`, `ToolcallError`.
fn err(kind: &str, message: impl std::fmt::Display) -> Error {
    Error::new(Status::GenericFailure, format!("{kind}\u{1}{message}"))
}

/// An `OptionError` whose message is escaped by the core's
/// `escape_terminal`, the escaping of the command's stderr: an option name
/// or value echoed in it (`unknown field`, `unknown model`) can neither
/// drive a terminal nor forge a line when the message is printed.
fn option_error(message: String) -> Error {
    err("OptionError", toolcall_core::escape_terminal(&message))
}

/// An options object the core could not read, as an `OptionError`
/// naming the option as JavaScript spells it (`options: maxBlock:
/// invalid value: integer -1, expected usize`).
fn read_error(e: toolcall_core::OptionError) -> Error {
    match e {
        toolcall_core::OptionError::Invalid { option, message } if option == "options" => {
            option_error(format!("options: {message}"))
        }
        toolcall_core::OptionError::Invalid { option, message } => {
            option_error(format!("options: {}: {message}", camel(&option)))
        }
        e => option_error(format!("options: {e}")),
    }
}

/// An option's snake_case name (the core's) in camelCase (the package's).
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut up = false;
    for c in name.chars() {
        if c == '_' && !out.is_empty() {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` made safe for a terminal by the core's `escape_terminal`: for
/// the messages the JavaScript layer writes with an option's name in them.
#[napi(js_name = "escapeTerminal")]
pub fn escape_terminal(text: String) -> String {
    toolcall_core::escape_terminal(&text).into_owned()
}

/// A tools definition loaded once: its schemas compiled, with the policy
/// calls are judged under.
#[napi]
pub struct Tools {
    inner: Arc<Loaded>,
}

/// The registry and policy, shared with work on other threads.
struct Loaded {
    registry: Registry,
    policy: Policy,
}

#[napi]
impl Tools {
    /// Loads tools from JSON (or JSON5) text in any shape `--tools` reads,
    /// under `options`: the core's `ToolsOptions` (the tools flags of the
    /// command line under their option names, `strict`, `unknown_risk`,
    /// `auto_approve`, `max_tools_size`, `max_schema_depth`,
    /// `max_schema_checks`, `max_json5_depth`; the JavaScript layer turns
    /// its camelCase keys into these). A missing option is the core's
    /// default; an unknown one or a value out of range is an
    /// `OptionError`, the definition past a limit a `ToolsError` with the
    /// command's message.
    #[napi(constructor)]
    pub fn new(text: String, options: Option<Value>) -> Result<Tools> {
        let options: ToolsOptions = match options {
            None | Some(Value::Null) => ToolsOptions::default(),
            Some(v) => ToolsOptions::from_value(v).map_err(read_error)?,
        };
        let (registry, policy) = options.load(&text).map_err(|e| match e {
            ToolsLoadError::Option(m) => option_error(m),
            e => err("ToolsError", e),
        })?;
        Ok(Tools {
            inner: Arc::new(Loaded { registry, policy }),
        })
    }

    /// The tool names, in the file's order.
    #[napi(getter)]
    pub fn names(&self) -> Vec<String> {
        self.inner
            .registry
            .tools()
            .iter()
            .map(|t| t.name.clone())
            .collect()
    }

    /// Warnings found while loading (duplicate names …).
    #[napi(getter)]
    pub fn warnings(&self) -> Vec<String> {
        self.inner.registry.warnings.clone()
    }

    /// How many tools.
    #[napi(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.inner.registry.len()).unwrap_or(u32::MAX)
    }
}

impl Loaded {
    /// Judges a call as `toolcall parse --tools` does (the core's
    /// `Registry::judge`: the text values of an XML-style format typed by
    /// the tool's schema first, then checked); the verdict's fields are
    /// added to the record.
    fn judge(&self, call: &mut ToolCall) {
        let (v, _typed) = self.registry.judge(call, &self.policy);
        v.write_into(&mut call.extra);
    }
}

/// One request: the options object resolved by the core, and the tools.
struct Setup {
    resolved: Resolved,
    tools: Option<Arc<Loaded>>,
}

impl Setup {
    fn new(options: Option<Value>, tools: Option<&Tools>) -> Result<Setup> {
        let options: toolcall_core::Options = match options {
            None | Some(Value::Null) => toolcall_core::Options::default(),
            Some(v) => toolcall_core::Options::from_value(v).map_err(read_error)?,
        };
        let mut resolved = options.resolve().map_err(|e| option_error(e.to_string()))?;
        let tools = tools.map(|t| Arc::clone(&t.inner));
        if let Some(t) = &tools {
            let names = t.registry.tools().iter().map(|t| t.name.clone());
            resolved = resolved.with_tool_names(names);
        }
        Ok(Setup { resolved, tools })
    }

    /// Reads a whole input into the `split` record's parts.
    fn parse(&self, bytes: &[u8]) -> Parsed {
        let (split, finish_reason) = read_split(bytes, &self.resolved, self.tools.as_deref());
        // the records as JSON text: the calls by the core's own writer (the
        // bytes `toolcall split` writes), the rest by serde
        let mut out = Vec::with_capacity(256 + split.tool_calls.len() * 256);
        out.extend_from_slice(b"{\"doc\":");
        json_into(&mut out, &split.doc);
        out.extend_from_slice(b",\"tool_calls\":");
        calls_into(&mut out, &split.tool_calls);
        out.extend_from_slice(b",\"errors\":");
        json_into(&mut out, &split.errors);
        out.extend_from_slice(b",\"segments\":");
        json_into(&mut out, &split.segments);
        out.extend_from_slice(b",\"finish_reason\":");
        json_into(&mut out, &finish_reason);
        out.push(b'}');
        Parsed {
            records: String::from_utf8(out).unwrap_or_default(),
            text: split.text,
            reasoning: split.reasoning,
            text_before: split.text_before,
            text_after: split.text_after,
        }
    }
}

/// Reads a whole input (the core's `read`, each call judged against the
/// tools when there are some): the `split` record and the finish reason.
fn read_split(
    bytes: &[u8],
    resolved: &Resolved,
    tools: Option<&Loaded>,
) -> (toolcall_core::Split, Option<String>) {
    let mut doc = toolcall_core::read(bytes, resolved);
    if let Some(t) = tools {
        for call in &mut doc.found.calls {
            t.judge(call);
        }
    }
    let finish_reason = doc.summary.finish_reason.take();
    (doc.into_split(), finish_reason)
}

/// Appends `value` as JSON: plain data into a `Vec`, which serde_json
/// cannot fail to write.
fn json_into<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let _ = serde_json::to_writer(&mut *out, value);
}

/// Appends the calls as a JSON array, each by the core's own writer (the
/// bytes `toolcall split` writes).
fn calls_into(out: &mut Vec<u8>, calls: &[ToolCall]) {
    out.push(b'[');
    for (k, call) in calls.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        call.write_json(out);
    }
    out.push(b']');
}

/// A whole input read: the records with the finish reason as the JSON text
/// of `{doc, tool_calls, errors, segments, finish_reason}`, and the
/// `split` record's long strings, each made a JavaScript string only when
/// read (a caller after the calls never pays for the prose of a long
/// document).
#[napi]
pub struct Parsed {
    records: String,
    text: String,
    reasoning: String,
    text_before: String,
    text_after: String,
}

#[napi]
impl Parsed {
    /// The JSON text of the records.
    #[napi(getter)]
    pub fn records(&self) -> String {
        self.records.clone()
    }

    /// All prose.
    #[napi(getter)]
    pub fn text(&self) -> String {
        self.text.clone()
    }

    /// All reasoning content.
    #[napi(getter)]
    pub fn reasoning(&self) -> String {
        self.reasoning.clone()
    }

    /// Prose before the first call.
    #[napi(getter)]
    pub fn text_before(&self) -> String {
        self.text_before.clone()
    }

    /// Prose after the last call.
    #[napi(getter)]
    pub fn text_after(&self) -> String {
        self.text_after.clone()
    }
}

/// Parses a whole model output (`toolcall split`).
#[napi(js_name = "parseRaw")]
pub fn parse_raw(
    input: Either<String, &[u8]>,
    options: Option<Value>,
    tools: Option<&Tools>,
) -> Result<Parsed> {
    let setup = Setup::new(options, tools)?;
    Ok(setup.parse(bytes_of(&input)))
}

/// `parseText(input, shape, options?, tools?)`: a short input read whole,
/// returned as one JSON text that `JSON.parse` turns straight into the
/// JavaScript value: `parse`'s Document (`shape` 0: `calls`, `errors`,
/// `text`, `reasoning`, `textBefore`, `textAfter`, `segments`,
/// `finishReason`) or the `split` record (`shape` 1, the command's keys and
/// order). The input is a string (read as UTF-16, see [`hand_exports`]) or
/// bytes.
///
/// Made for the call per model reply: one string across the boundary and
/// no wrapped native object left for the garbage collector (what
/// [`parse_raw`] returns keeps its prose native until read, which a long
/// document needs and a short one pays for).
fn parse_text(ctx: FunctionCallContext<'_>) -> Result<String> {
    let input: Either<Utf16String, &[u8]> = ctx.get(0)?;
    let shape: u32 = ctx.get(1)?;
    // the options as JSON text (the JavaScript layer's JSON.stringify: one
    // string read instead of a walk over the object's properties)
    let options: Option<String> = optional_arg(&ctx, 2)?;
    // a class instance, unwrapped: `&Tools` needs the borrow scope a
    // `#[napi]` function opens
    let tools: Option<ClassInstance<'_, Tools>> = optional_arg(&ctx, 3)?;
    let narrowed;
    let bytes = match &input {
        Either::A(units) => {
            narrowed = utf8_of(units);
            narrowed.as_bytes()
        }
        Either::B(b) => *b,
    };
    let (split, finish_reason) = match tools {
        None => with_resolved(options.as_deref().unwrap_or(""), |r| {
            read_split(bytes, r, None)
        })?,
        Some(tools) => {
            let options = match options.as_deref() {
                None | Some("") => None,
                Some(text) => Some(
                    serde_json::from_str(text)
                        .map_err(|e| option_error(format!("options: {e}")))?,
                ),
            };
            let setup = Setup::new(options, Some(&tools))?;
            read_split(bytes, &setup.resolved, setup.tools.as_deref())
        }
    };
    let mut out = Vec::with_capacity(
        128 + 2 * (split.text.len() + split.reasoning.len() + split.doc.len())
            + split.tool_calls.len() * 256,
    );
    if shape == SHAPE_SPLIT {
        out.extend_from_slice(b"{\"type\":\"split\",\"doc\":");
        json_into(&mut out, &split.doc);
        out.extend_from_slice(b",\"text_before\":");
        json_into(&mut out, &split.text_before);
        out.extend_from_slice(b",\"text_after\":");
        json_into(&mut out, &split.text_after);
        out.extend_from_slice(b",\"text\":");
        json_into(&mut out, &split.text);
        out.extend_from_slice(b",\"reasoning\":");
        json_into(&mut out, &split.reasoning);
        out.extend_from_slice(b",\"tool_calls\":");
        calls_into(&mut out, &split.tool_calls);
        out.extend_from_slice(b",\"errors\":");
        json_into(&mut out, &split.errors);
        out.extend_from_slice(b",\"segments\":");
        json_into(&mut out, &split.segments);
    } else {
        out.extend_from_slice(b"{\"calls\":");
        calls_into(&mut out, &split.tool_calls);
        out.extend_from_slice(b",\"errors\":");
        json_into(&mut out, &split.errors);
        out.extend_from_slice(b",\"text\":");
        json_into(&mut out, &split.text);
        out.extend_from_slice(b",\"reasoning\":");
        json_into(&mut out, &split.reasoning);
        out.extend_from_slice(b",\"textBefore\":");
        json_into(&mut out, &split.text_before);
        out.extend_from_slice(b",\"textAfter\":");
        json_into(&mut out, &split.text_after);
        out.extend_from_slice(b",\"segments\":");
        json_into(&mut out, &split.segments);
        out.extend_from_slice(b",\"finishReason\":");
        json_into(&mut out, &finish_reason);
    }
    out.push(b'}');
    // JSON written from strings and the core's writers: UTF-8
    String::from_utf8(out).map_err(|e| err("ToolcallError", e))
}

thread_local! {
    /// The options text `parseText` was last called with, and what it
    /// resolved to: an agent client passes the same options with every
    /// reply, and the empty text (no options) is the common case.
    static LAST_OPTIONS: RefCell<Option<(String, Resolved)>> = const { RefCell::new(None) };
}

/// Runs `f` with `options` (the JSON text of the core's `Options`, empty
/// for the defaults) resolved by the core, resolving only when the text
/// differs from the last call's.
fn with_resolved<R>(options: &str, f: impl FnOnce(&Resolved) -> R) -> Result<R> {
    LAST_OPTIONS.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((text, resolved)) = last.as_ref() {
            if text == options {
                return Ok(f(resolved));
            }
        }
        let parsed: toolcall_core::Options = if options.is_empty() {
            toolcall_core::Options::default()
        } else {
            // through a Value, as `Setup::new` reads an options object: the
            // same messages for an unknown key or a value of the wrong type
            let value: Value =
                serde_json::from_str(options).map_err(|e| option_error(format!("options: {e}")))?;
            toolcall_core::Options::from_value(value).map_err(read_error)?
        };
        let resolved = parsed.resolve().map_err(|e| option_error(e.to_string()))?;
        let out = f(&resolved);
        *last = Some((options.to_owned(), resolved));
        Ok(out)
    })
}

/// `parseText`'s `shape` for the `split` record.
const SHAPE_SPLIT: u32 = 1;

/// Argument `index` of a hand-registered function, `None` when it is
/// missing, `undefined` or `null`.
fn optional_arg<T: FromNapiValue>(
    ctx: &FunctionCallContext<'_>,
    index: usize,
) -> Result<Option<T>> {
    if index < ctx.length() {
        ctx.get(index)
    } else {
        Ok(None)
    }
}

/// [`parse_raw`] on the thread pool.
pub struct ParseTask {
    setup: Setup,
    input: Vec<u8>,
}

impl Task for ParseTask {
    type Output = Parsed;
    type JsValue = Parsed;

    fn compute(&mut self) -> Result<Parsed> {
        Ok(self.setup.parse(&self.input))
    }

    fn resolve(&mut self, _env: Env, output: Parsed) -> Result<Parsed> {
        Ok(output)
    }
}

/// [`parse_raw`] off the main thread.
#[napi(js_name = "parseRawAsync", ts_return_type = "Promise<Parsed>")]
pub fn parse_raw_async(
    input: Either<String, &[u8]>,
    options: Option<Value>,
    tools: Option<&Tools>,
) -> Result<AsyncTask<ParseTask>> {
    let setup = Setup::new(options, tools)?;
    let input = match input {
        Either::A(s) => s.into_bytes(),
        Either::B(b) => b.to_vec(),
    };
    Ok(AsyncTask::new(ParseTask { setup, input }))
}

/// Collects one feed's events as `toolcall stream` records (the core's
/// [`StreamRecorder`], which writes the command's records too), in one
/// JSON array.
struct Records<'a> {
    out: Vec<u8>,
    starts: bool,
    tools: Option<&'a Loaded>,
    recorder: &'a mut StreamRecorder,
}

impl Records<'_> {
    fn finish(mut self) -> String {
        if self.out.is_empty() {
            self.out.push(b'[');
        }
        self.out.push(b']');
        String::from_utf8(self.out).unwrap_or_default()
    }

    /// Opens the next array element (its `[` or `,`); returns where, so
    /// that an event that writes no record can take it back.
    fn element(&mut self) -> usize {
        let mark = self.out.len();
        self.out.push(if self.out.is_empty() { b'[' } else { b',' });
        mark
    }

    fn done(&mut self, summary: &toolcall_core::wire::Summary) {
        self.element();
        toolcall_core::write_done(summary, &mut self.out);
    }
}

impl Sink for Records<'_> {
    fn wants_starts(&self) -> bool {
        self.starts
    }

    fn event(&mut self, ev: Event<'_>) {
        let mark = self.element();
        let tools = self.tools;
        let judge = |call: &mut ToolCall| {
            if let Some(t) = tools {
                t.judge(call);
            }
        };
        if !self.recorder.record(ev, judge, &mut self.out) {
            self.out.truncate(mark);
        }
    }
}

/// The engine fed chunk by chunk (`toolcall stream`): each `feed` returns
/// the JSON text of an array of the records its chunk decided.
#[napi]
pub struct NativeStream {
    reader: Option<Reader>,
    tools: Option<Arc<Loaded>>,
    starts: bool,
    recorder: StreamRecorder,
}

#[napi]
impl NativeStream {
    /// A parser in the state `options` describe; `starts: false` asks for
    /// no `tool_call_start` records.
    #[napi(constructor)]
    pub fn new(
        options: Option<Value>,
        tools: Option<&Tools>,
        starts: Option<bool>,
    ) -> Result<Self> {
        let setup = Setup::new(options, tools)?;
        Ok(NativeStream {
            // read as it arrives: the stream's think window unless given
            reader: Some(Reader::new(&setup.resolved.clone().streaming())),
            tools: setup.tools,
            starts: starts.unwrap_or(true),
            recorder: StreamRecorder::new(),
        })
    }

    /// Feeds a chunk (a string, or bytes that may split a UTF-8
    /// character); returns the records it decided.
    #[napi]
    pub fn feed(&mut self, chunk: Either<String, &[u8]>) -> Result<String> {
        let Some(reader) = self.reader.as_mut() else {
            return Err(err("ToolcallError", "feed() after close()"));
        };
        let mut recs = Records {
            out: Vec::new(),
            starts: self.starts,
            tools: self.tools.as_deref(),
            recorder: &mut self.recorder,
        };
        reader.feed(bytes_of(&chunk), &mut recs);
        Ok(recs.finish())
    }

    /// Ends the input: the last records, then a `done` record.
    #[napi]
    pub fn close(&mut self) -> Result<String> {
        let Some(mut reader) = self.reader.take() else {
            return Err(err("ToolcallError", "close() called twice"));
        };
        let mut recs = Records {
            out: Vec::new(),
            starts: self.starts,
            tools: self.tools.as_deref(),
            recorder: &mut self.recorder,
        };
        reader.finish(&mut recs);
        recs.done(&reader.summary());
        Ok(recs.finish())
    }

    /// Bytes held back, undecided, so far.
    #[napi(getter)]
    pub fn held(&self) -> u32 {
        let held = self.reader.as_ref().map_or(0, Reader::held);
        u32::try_from(held).unwrap_or(u32::MAX)
    }

    /// True once `close()` was called.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.reader.is_none()
    }
}

/// Judges calls against tools (`toolcall validate`): `calls` is a JSON
/// array of `[name, argumentsJsonText]` pairs; returns the JSON text of
/// one verdict per call.
#[napi(js_name = "validateJson")]
pub fn validate_json(calls: String, tools: &Tools) -> Result<String> {
    let pairs: Vec<(String, String)> =
        serde_json::from_str(&calls).map_err(|e| err("ToolcallError", e))?;
    let mut out = Vec::with_capacity(pairs.len());
    for (name, args) in pairs {
        let value: Value = serde_json::from_str(&args)
            .map_err(|e| err("ToolcallError", format!("arguments of {name}: {e}")))?;
        let v = tools
            .inner
            .registry
            .check(&name, &value, &tools.inner.policy);
        let issues = |list: &[toolcall_core::validate::Issue]| -> Value {
            list.iter()
                .map(|i| {
                    serde_json::json!({
                        "code": i.code, "path": i.path, "message": i.message,
                        "expected": i.expected, "actual": i.actual,
                    })
                })
                .collect()
        };
        out.push(serde_json::json!({
            "name": name,
            "valid": v.valid,
            "errors": issues(&v.errors),
            "warnings": issues(&v.warnings),
            "known": v.known,
            "tool_name": v.tool_name,
            "risk": v.risk.as_str(),
            "requires_approval": v.requires_approval,
            "summary": v.summary,
        }));
    }
    Ok(Value::Array(out).to_string())
}

/// The conversation checks of a raw transcript (`TLP-009`, `TLP-010`), as
/// `toolcall validate` runs them (the core's
/// `validate::turns::check_transcript`): the JSON text of an array of
/// findings (`code`, `message`, `doc`, `span`, `turn`, `role`); the codes
/// in `allow` are off.
#[napi(js_name = "checkTranscriptJson")]
pub fn check_transcript_json(
    input: Either<String, &[u8]>,
    options: Option<Value>,
    allow: Option<Vec<String>>,
) -> Result<String> {
    let setup = Setup::new(options, None)?;
    let r = &setup.resolved;
    let found = toolcall_core::validate::turns::check_transcript(
        bytes_of(&input),
        &r.config,
        &r.wire,
        &allow.unwrap_or_default(),
    );
    serde_json::to_string(&found).map_err(|e| err("ToolcallError", e))
}

/// The tools block a family's chat template writes (`toolcall render
/// tools`); `family` is a format id or model name.
#[napi(js_name = "renderTools")]
pub fn render_tools(family: String, tools: &Tools) -> Result<String> {
    let fam = render_family(&family)?;
    Ok(toolcall_core::render_tools(
        fam,
        tools.inner.registry.tools(),
    ))
}

/// The message carrying results back (`toolcall render result`): `results`
/// is a JSON array of result objects; returns `[pre, body, post]`.
#[napi(js_name = "renderResult")]
pub fn render_result(
    family: String,
    results: String,
    max_tokens: Option<u32>,
) -> Result<Vec<String>> {
    let fam = render_family(&family)?;
    let values: Vec<Value> = serde_json::from_str(&results)
        .map_err(|e| err("ToolcallError", format!("results: {e}")))?;
    let mut parsed = Vec::with_capacity(values.len());
    for v in &values {
        parsed.push(toolcall_core::ToolResult::from_value(v).map_err(|e| err("ToolcallError", e))?);
    }
    let max = usize::try_from(max_tokens.unwrap_or(0)).unwrap_or(usize::MAX);
    let m = toolcall_core::render_results(fam, &parsed, max);
    Ok(vec![m.pre, m.body, m.post])
}

/// Calls as a family's model writes them (`toolcall render call`):
/// `calls` is JSON the core's call reader takes (`{name, arguments, id?}`
/// objects, `tool_call` records, OpenAI wrappers, or an array of these).
#[napi(js_name = "renderCalls")]
pub fn render_calls(family: String, calls: String) -> Result<String> {
    let fam = render_family(&family)?;
    let value: Value =
        serde_json::from_str(&calls).map_err(|e| err("ToolcallError", format!("calls: {e}")))?;
    let specs = toolcall_core::CallSpec::from_value(value).map_err(|e| err("ToolcallError", e))?;
    Ok(toolcall_core::render_calls(fam, &specs))
}

/// The rendering family of a format id or model name (the core resolves
/// the name, as `toolcall render --family` does).
fn render_family(name: &str) -> Result<&'static toolcall_core::Family> {
    let named = toolcall_core::resolve_name(name).ok_or_else(|| {
        option_error(toolcall_core::OptionError::unknown_name("format", name).to_string())
    })?;
    let id = named.format.as_str();
    toolcall_core::family(id).ok_or_else(|| {
        option_error(format!(
            "'{name}' writes the {id} format, which has no prompt-side templates"
        ))
    })
}

/// The format records (`toolcall formats --json`), as a JSON array.
#[napi(js_name = "formatsJson")]
pub fn formats_json() -> String {
    let records: Vec<toolcall_core::FormatRecord> = toolcall_core::format_records().collect();
    serde_json::to_string(&records).unwrap_or_default()
}

/// The model records (`toolcall formats --models --json`), as a JSON
/// array.
#[napi(js_name = "modelsJson")]
pub fn models_json() -> String {
    let records: Vec<toolcall_core::ModelRecord> = toolcall_core::models().collect();
    serde_json::to_string(&records).unwrap_or_default()
}

/// What a repair returns across the boundary: the text and its repairs,
/// or the error's fields.
#[derive(Serialize)]
#[serde(untagged)]
enum RepairOut {
    Done {
        text: String,
        changed: bool,
        repairs: Vec<toolcall_core::Repair>,
    },
    Failed {
        error: ErrorOut,
    },
}

#[derive(Serialize)]
struct ErrorOut {
    code: &'static str,
    message: String,
    offset: usize,
    line: usize,
    column: usize,
}

/// How `textAsString` asks a document of prose to be read.
fn prose(text_as_string: Option<bool>) -> Prose {
    if text_as_string.unwrap_or(false) {
        Prose::AsString
    } else {
        Prose::Refuse
    }
}

fn repair_out(bytes: &[u8], opts: &RepairOptions, prose: Prose) -> String {
    let out = match toolcall_core::repair_document(bytes, opts, prose) {
        Ok(r) => RepairOut::Done {
            text: r.output,
            changed: r.changed,
            repairs: r.repairs,
        },
        Err(e) => RepairOut::Failed {
            error: ErrorOut {
                code: e.code,
                message: e.message,
                offset: e.offset,
                line: e.line,
                column: e.column,
            },
        },
    };
    serde_json::to_string(&out).unwrap_or_default()
}

/// `jsonrepair`'s limits: none on depth, size or time.
const UNBOUNDED: RepairOptions = RepairOptions::unbounded();

/// Repairs one JSON document (`toolcall repair`, the core's
/// `repair_document`): the JSON text of `{"text", "changed", "repairs"}`
/// or `{"error": {code, message, offset, line, column}}`. Without limits
/// the repair is `jsonrepair`'s: no depth, size or time bound. A sentence
/// of prose is hopeless unless `textAsString`.
#[napi(js_name = "repairJson")]
pub fn repair_json(
    input: Either<String, &[u8]>,
    max_depth: Option<u32>,
    timeout_ms: Option<u32>,
    max_size: Option<f64>,
    text_as_string: Option<bool>,
) -> String {
    let mut opts = UNBOUNDED;
    if let Some(d) = max_depth {
        opts.max_depth = usize::try_from(d).unwrap_or(usize::MAX).max(1);
    }
    if let Some(t) = timeout_ms {
        opts.timeout_ms = u64::from(t);
    }
    if let Some(s) = max_size {
        // a JS number: whole bytes, saturating
        opts.max_input_bytes = if s >= 0.0 { s as usize } else { 0 };
    }
    repair_out(bytes_of(&input), &opts, prose(text_as_string))
}

/// Functions registered by hand on the module's exports rather than by
/// `#[napi]`: `repairText` and `repairTextUtf8`, the entry called once per
/// small input.
///
/// A `#[napi]` function with arguments opens napi-rs's per-call borrow
/// scope (an `Arc` allocated, thread-local stacks pushed and popped) and
/// reads a string argument as UTF-8 in two Node-API calls (V8 measures the
/// UTF-8 length, then encodes). A function made by
/// `Env::create_function_from_closure` has no such scope, and `repairText`
/// has V8 write the string into a stack buffer in one call
/// (`short_text`). On 10,000 small objects the call with its read costs
/// 0.076 µs, where a `#[napi]` function's took 0.18 µs. From 256
/// characters on the JavaScript layer calls `repairTextUtf8`, which takes
/// the string as UTF-8 into an allocated buffer. Their
/// declarations are in `src/exports.d.ts`, which the build appends to the
/// generated ones.
#[napi(module_exports)]
pub fn hand_exports(mut exports: Object<'_>, env: Env) -> Result<()> {
    let f = env.create_function_from_closure::<String, _, _>("repairText", repair_text)?;
    exports.set("repairText", f)?;
    let f = env.create_function_from_closure::<String, _, _>("repairTextUtf8", repair_text_utf8)?;
    exports.set("repairTextUtf8", f)?;
    let f = env.create_function_from_closure::<String, _, _>("parseText", parse_text)?;
    exports.set("parseText", f)?;
    #[cfg(feature = "probes")]
    probes::register(&mut exports, &env)?;
    Ok(())
}

/// The UTF-8 text of a JavaScript string read as UTF-16 code units: a lone
/// surrogate becomes U+FFFD, as V8 writes it in UTF-8.
fn utf8_of(units: &[u16]) -> String {
    let mut bytes = Vec::with_capacity(units.len());
    for &u in units {
        if u >= 0x80 {
            return String::from_utf16_lossy(units);
        }
        // ASCII: each unit is its byte
        bytes.push((u & 0x7f) as u8);
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// `repairText(text, textAsString?)`, `repairJson`'s common case (the
/// core's `repair_document_text`: its fast path for short documents, else
/// the full repair with valid input checked once): `null` when the text
/// is already valid JSON (the caller keeps its own string), else the
/// repaired text; throws with the error's fields as JSON text when
/// nothing can be made of it. A short string is written by V8 into a
/// stack buffer ([`short_text`]); a longer one is read as UTF-16.
fn repair_text(ctx: FunctionCallContext<'_>) -> Result<Option<Either<Latin1String, String>>> {
    let mut buf = [0u8; SHORT_BYTES];
    if let Some(text) = short_text(&ctx, &mut buf) {
        return repair_text_of(text, &ctx);
    }
    let units: Utf16String = ctx.get(0)?;
    repair_text_of(&utf8_of(&units), &ctx)
}

/// Room for the UTF-8 of a string of up to 255 UTF-16 units (3 bytes
/// each at most) and V8's terminating NUL: the JavaScript layer sends
/// shorter strings than `UTF16_BELOW` (256) to `repairText`.
const SHORT_BYTES: usize = 1024;

/// The first argument's text written by V8 as UTF-8 straight into `buf`
/// (one Node-API call, no allocation), or `None` when it is no string or
/// may not have fit (the caller then reads it the safe way).
///
/// napi-rs reads a string in two calls (its length, then the text) into a
/// vector it allocates; on the 10,000 small objects that read was a third
/// of `repairJson`'s time, and this one call the difference between 9.5×
/// and 10× `jsonrepair` (`bench/boundary.mjs`). It is the one `unsafe`
/// block of the crate.
fn short_text<'b>(
    ctx: &FunctionCallContext<'_>,
    buf: &'b mut [u8; SHORT_BYTES],
) -> Option<&'b str> {
    let arg: JsString<'_> = ctx.get(0).ok()?;
    let raw = arg.value();
    let mut written = 0usize;
    // SAFETY: `raw.env` and `raw.value` are the handles of the call in
    // progress (valid until it returns); `buf` is writable for its whole
    // length, which is the size passed, and V8 writes at most that many
    // bytes (the text, cut to fit, and a NUL) and their count to `written`.
    let status = unsafe {
        napi::sys::napi_get_value_string_utf8(
            raw.env,
            raw.value,
            buf.as_mut_ptr().cast(),
            SHORT_BYTES,
            &mut written,
        )
    };
    // V8 cuts a text that does not fit before the first character that
    // would overflow (up to 4 bytes) and the NUL: any count that leaves
    // less room than that may be a cut text, read the safe way instead.
    if status != napi::sys::Status::napi_ok || written + 4 >= SHORT_BYTES {
        return None;
    }
    std::str::from_utf8(buf.get(..written)?).ok()
}

/// `repairTextUtf8(text, textAsString?)`: [`repair_text`] with the string
/// read as UTF-8 by V8, for long strings (V8 measures and encodes a
/// one-byte string faster than it is widened to UTF-16 and narrowed here).
fn repair_text_utf8(ctx: FunctionCallContext<'_>) -> Result<Option<Either<Latin1String, String>>> {
    let text: String = ctx.get(0)?;
    repair_text_of(&text, &ctx)
}

/// The repair of `text` (the core's `repair_document_text`: short
/// documents take its fast path). An ASCII result is handed to V8 as
/// Latin-1, which it copies without decoding (measured cheaper than UTF-8
/// on small objects, `bench/boundary.mjs`).
fn repair_text_of(
    text: &str,
    ctx: &FunctionCallContext<'_>,
) -> Result<Option<Either<Latin1String, String>>> {
    let prose = prose(Some(ctx.length() > 1 && ctx.get::<bool>(1)?));
    match toolcall_core::repair_document_text(text, &UNBOUNDED, prose) {
        Ok(r) => Ok(r.map(|out| {
            if out.is_ascii() {
                Either::A(Latin1String::from(out))
            } else {
                Either::B(out)
            }
        })),
        Err(e) => Err(err(
            "RepairError",
            serde_json::json!({
                "code": e.code, "message": e.message, "offset": e.offset,
                "line": e.line, "column": e.column,
            }),
        )),
    }
}

/// `repairText`'s work on the thread pool (`repairJsonAsync`).
pub struct RepairTask {
    input: String,
    prose: Prose,
}

impl Task for RepairTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        Ok(repair_out(self.input.as_bytes(), &UNBOUNDED, self.prose))
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// [`repair_json`] without limits, off the main thread.
#[napi(js_name = "repairJsonAsync", ts_return_type = "Promise<string>")]
pub fn repair_json_async(input: String, text_as_string: Option<bool>) -> AsyncTask<RepairTask> {
    AsyncTask::new(RepairTask {
        input,
        prose: prose(text_as_string),
    })
}

/// The engine's version.
#[napi]
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
