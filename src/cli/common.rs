//! Flags and input handling shared by the subcommands.

use crate::engine::{Config, FormatChoice};
use crate::formats;
use crate::wire::{InputKind, WireConfig};
use anyhow::Context;
use clap::Args;
use std::io::Read;
use std::path::PathBuf;

/// Flags that configure the engine.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Format to look for: auto (detect per document) or a format id.
    ///
    /// `auto` detects the format from its markers. A format id or one of its
    /// model names (see `toolcall formats`) bypasses detection: only that
    /// format's markers are looked for. ASCII case is ignored.
    #[arg(
        long,
        short = 'f',
        value_name = "ID",
        default_value = "auto",
        value_parser = format_parser(),
        ignore_case = true,
        hide_possible_values = true
    )]
    pub format: FormatChoice,

    /// Do not treat call-shaped ```json fences as calls.
    ///
    /// By default a fenced JSON block whose value has the full shape of a call
    /// (a name and an arguments object) is a call; any other JSON in a fence
    /// is text.
    #[arg(long)]
    pub no_json_blocks: bool,

    /// Also look for call-shaped JSON inline in prose (least reliable).
    #[arg(long)]
    pub inline_json: bool,

    /// Do not repair broken argument JSON.
    ///
    /// Without repair, arguments that are not valid JSON give a TLP-002
    /// error record instead of a call.
    #[arg(long)]
    pub no_repair: bool,

    /// Largest broken argument JSON to repair, in bytes.
    ///
    /// Arguments that need repair and are larger give a TLP-007 error
    /// record; valid JSON of any size is taken as it is.
    #[arg(long, value_name = "BYTES", default_value_t = crate::repair::DEFAULT_MAX_INPUT_BYTES)]
    pub repair_max_size: usize,

    /// Also report calls drafted inside reasoning, flagged `in_reasoning`.
    ///
    /// A call inside `<think>…</think>` (or any reasoning span) is a draft,
    /// not a call, and is not reported by default. With this flag it is
    /// reported with `"in_reasoning": true`. Reasoning left open at the end
    /// of a document with no other call is always reported this way, so a
    /// call is never silently lost.
    #[arg(long)]
    pub reasoning_calls: bool,

    /// The output starts inside a think block opened by the prompt.
    ///
    /// Thinking templates of DeepSeek V3.1, Qwen3 and ERNIE put `<think>` in
    /// the prompt, so the model's output has only the closing `</think>`.
    /// With this flag everything up to the first `</think>` is reasoning.
    /// Without it, a stray `</think>` is markup and what precedes it is text.
    #[arg(long)]
    pub think_open: bool,

    /// The text the chat template appended after the last message.
    ///
    /// A chat template ends the prompt with a generation prompt such as
    /// `<|im_start|>assistant\n<think>\n` (Qwen3.5), `<|start|>assistant`
    /// (gpt-oss) or `<|assistant|><think>` (GLM-4.7); the model's output
    /// continues it. Parsing starts in the state that text leaves: inside
    /// reasoning, inside a message header, after a closed thought channel.
    /// The text is taken verbatim (write newlines with $'…\n' in a shell)
    /// and is not part of the document: offsets start after it.
    /// `--think-open` is the short form for a prompt ending in `<think>`.
    #[arg(long, value_name = "TEXT")]
    pub generation_prompt: Option<String>,

    /// The model that wrote the output: its format and default generation
    /// prompt.
    ///
    /// Known names (`toolcall formats --models` lists them) select the
    /// format as `--format` would and, unless `--generation-prompt` is
    /// given, the generation prompt the model's chat template appends by
    /// default. A served name such as `qwen3:8b` or `Qwen/Qwen3-8B` matches
    /// the longest known name it starts with.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,

    /// Why the output ended: `stop` (an end token) or `length` (the token
    /// limit).
    ///
    /// With `length` the output was cut at max tokens: a call still open at
    /// the end is not a call but a TLP-002 error saying it was truncated,
    /// its bytes are markup, and the complete calls before it are kept.
    /// Without it, a call cut at the end is recovered when its arguments
    /// can be closed (sloppy models do stop early). Wire inputs take it from
    /// `done_reason` / `finish_reason`.
    #[arg(long, value_name = "REASON", value_parser = ["stop", "length"])]
    pub finish_reason: Option<String>,

    /// Largest candidate block held back while undecided, in bytes.
    ///
    /// A block with no end within its first BYTES bytes is not a call:
    /// those bytes are given back as text with a TLP-007 error and the
    /// search for markers resumes after them (the same in `parse` and
    /// `stream`, however the input arrives).
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_block: usize,
}

impl EngineArgs {
    /// The engine configuration for a document named `doc`.
    pub fn config(&self, doc: &str) -> anyhow::Result<Config> {
        let mut format = self.format;
        let mut generation_prompt = self.generation_prompt.clone().map(String::into_bytes);
        if let Some(name) = &self.model {
            let Some((f, model)) = formats::registry::model(name) else {
                anyhow::bail!(
                    "unknown model '{name}' (toolcall formats --models lists the known ones; \
                     --format and --generation-prompt say the same for any model)"
                );
            };
            if format == FormatChoice::Auto {
                format = FormatChoice::Only(f.id);
            }
            if generation_prompt.is_none() {
                generation_prompt = Some(model.prompt.as_bytes().to_vec());
            }
        }
        Ok(Config {
            doc: doc.to_string(),
            format,
            json_blocks: !self.no_json_blocks,
            inline_json: self.inline_json,
            reasoning_calls: self.reasoning_calls,
            max_block: self.max_block,
            repair: !self.no_repair,
            repair_timeout_ms: crate::repair::DEFAULT_TIMEOUT_MS,
            repair_max_bytes: self.repair_max_size,
            think_open: self.think_open,
            generation_prompt,
            truncated: self.finish_reason.as_deref() == Some("length"),
        })
    }
}

/// `--format`: `auto`, a format id, or one of a format's other names; clap
/// lists them for completion and suggests the nearest on a typo.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = FormatChoice> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let mut values = vec![PossibleValue::new("auto").help("detect the format per document")];
    for f in formats::FORMATS {
        values.push(
            PossibleValue::new(f.id.as_str()).help(f.families).aliases(
                f.models
                    .iter()
                    .map(|m| m.name)
                    .filter(|n| *n != f.id.as_str()),
            ),
        );
    }
    PossibleValuesParser::new(values).map(|name: String| {
        formats::FormatId::lookup(&name).map_or(FormatChoice::Auto, FormatChoice::Only)
    })
}

/// What the input is: model text, or a server's wire format.
#[derive(Args, Debug, Clone)]
pub struct WireArgs {
    /// Input kind: auto, text, terminal, ollama, openai or llama-server.
    ///
    /// `auto` sniffs the first non-empty bytes: Ollama NDJSON, OpenAI
    /// objects, chunks or SSE (chat completions and the Responses API),
    /// llama-server `/completion` streams, terminal output (`ollama run`: an
    /// escape sequence or a `Thinking...` line first), else text. `text` is
    /// raw model text. With a wire kind, spans are offsets into the decoded
    /// model text; calls the server parsed itself have an empty span where
    /// they arrived (see the README, "Wire inputs").
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = InputKind::from_str_arg)]
    pub input: InputKind,

    /// Most bytes held for one wire line, the open streamed calls together,
    /// or an undecided line.
    ///
    /// Past it, an error record (TLP-007) and the stream goes on.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_buffer: usize,
}

impl WireArgs {
    /// The wire configuration.
    pub fn config(&self) -> WireConfig {
        WireConfig {
            input: self.input,
            max_buffer: self.max_buffer,
        }
    }
}

/// Where documents come from.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files, each one document (`-` or none: stdin); a directory
    /// stands for the files below it.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Each input line is its own document.
    #[arg(long)]
    pub lines: bool,

    /// Each input line is a JSON record; the document is the string at PATH.
    ///
    /// PATH is a jq-like path of keys and indices, e.g. `.message.content`,
    /// `.choices.0.message.content` or `.response`. Lines that are not JSON
    /// or have no string there are skipped. Implies `--lines`.
    #[arg(long, value_name = "PATH")]
    pub field: Option<String>,

    /// Process this many files in parallel (output stays in input order).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,

    /// How directories given as input are walked.
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// How a directory given as input is walked, as ripgrep walks it: sorted by
/// path, hidden entries and what `.gitignore`/`.ignore` files exclude left
/// out, symbolic links not followed, only regular text files read.
#[derive(Args, Debug, Clone, Default)]
pub struct WalkArgs {
    /// Follow symbolic links found in directories (loops are detected).
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// Also read hidden files and directories (names starting with `.`).
    #[arg(long)]
    pub hidden: bool,

    /// Do not honour `.gitignore`, `.ignore` and git's exclude files.
    #[arg(long)]
    pub no_ignore: bool,

    /// Only read files in directories whose path matches GLOB (`!GLOB`
    /// excludes); repeatable. Files named on the command line are always read.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Also read binary files found in directories (a NUL byte in the first
    /// 8 KiB marks a file binary; they are skipped by default).
    #[arg(short = 'a', long)]
    pub binary: bool,
}

/// Output buffering flags.
#[derive(Args, Debug, Clone)]
pub struct BufferArgs {
    /// Flush after every record.
    #[arg(long, conflicts_with = "block_buffered")]
    pub line_buffered: bool,
    /// Buffer output in blocks even on a terminal.
    #[arg(long)]
    pub block_buffered: bool,
}

/// One document: its name and its bytes, in memory or still to be read.
pub struct Document {
    /// `-` for stdin, else the path (with `:LINE` under `--lines`).
    pub name: String,
    /// The bytes.
    pub body: Body,
}

/// A document's bytes.
pub enum Body {
    /// Read into memory.
    Bytes(Vec<u8>),
    /// A whole file or stdin not read yet, for a command that feeds the
    /// engine chunk by chunk and so never holds the document.
    Reader(Box<dyn Read + Send>),
}

/// Chunk size for documents fed from a reader.
const READ_CHUNK: usize = 64 << 10;

impl Document {
    /// The whole document in memory.
    pub fn into_bytes(self) -> anyhow::Result<Vec<u8>> {
        match self.body {
            Body::Bytes(b) => Ok(b),
            Body::Reader(mut r) => {
                let mut bytes = Vec::new();
                r.read_to_end(&mut bytes)
                    .with_context(|| format!("reading {}", self.name))?;
                Ok(bytes)
            }
        }
    }

    /// Hands the bytes to `feed`: all at once when in memory, in chunks of
    /// 64 KiB as they are read otherwise (the engine's answer is the same
    /// either way: stream == batch).
    pub fn feed(self, mut feed: impl FnMut(&[u8])) -> anyhow::Result<()> {
        match self.body {
            Body::Bytes(b) => feed(&b),
            Body::Reader(mut r) => {
                let mut buf = vec![0u8; READ_CHUNK];
                loop {
                    let n = match r.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e).with_context(|| format!("reading {}", self.name)),
                    };
                    feed(&buf[..n]);
                }
            }
        }
        Ok(())
    }
}

/// Whether a command can take documents as readers ([`Body::Reader`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every document is read into memory first.
    Whole,
    /// A whole file or stdin comes as a reader; `--lines` documents are
    /// always read one line at a time.
    Streamed,
}

/// Reads every document named by the input flags, calling `each` in order.
pub fn for_each_document(
    input: &InputArgs,
    reading: Reading,
    mut each: impl FnMut(Document) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    run_documents(input, reading, Ok, |doc| each(doc).map(|()| true))
}

/// The documents of one source, split as `--lines` / `--field` ask, read
/// lazily: a file of a million lines is never in memory at once.
pub fn documents_of(
    input: &InputArgs,
    path: &PathBuf,
    reading: Reading,
) -> anyhow::Result<Box<dyn Iterator<Item = anyhow::Result<Document>> + Send>> {
    let (name, reader) = open_source(path)?;
    if !input.lines && input.field.is_none() {
        let body = match reading {
            Reading::Streamed => Body::Reader(reader),
            Reading::Whole => Document {
                name: name.clone(),
                body: Body::Reader(reader),
            }
            .into_bytes()
            .map(Body::Bytes)?,
        };
        return Ok(Box::new(std::iter::once(Ok(Document { name, body }))));
    }
    let field = input.field.clone();
    let mut reader = std::io::BufReader::with_capacity(READ_CHUNK, reader);
    let mut line = Vec::new();
    let mut k = 0usize;
    Ok(Box::new(std::iter::from_fn(move || loop {
        line.clear();
        match std::io::BufRead::read_until(&mut reader, b'\n', &mut line) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => return Some(Err(anyhow::Error::new(e).context(format!("reading {name}")))),
        }
        k += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        let bytes = match &field {
            None => text.to_vec(),
            Some(path) => match field_of(text, path) {
                Some(value) => value.into_bytes(),
                None => continue,
            },
        };
        return Some(Ok(Document {
            name: format!("{name}:{k}"),
            body: Body::Bytes(bytes),
        }));
    })))
}

/// The string at a jq-like `path` (`.a.b.0.c`) in a JSON record.
pub fn field_of(record: &[u8], path: &str) -> Option<String> {
    let mut v: serde_json::Value = serde_json::from_slice(record).ok()?;
    for key in path.split('.').filter(|k| !k.is_empty()) {
        v = match v {
            serde_json::Value::Object(mut m) => m.remove(key)?,
            serde_json::Value::Array(mut a) => {
                let i: usize = key.parse().ok()?;
                if i >= a.len() {
                    return None;
                }
                a.swap_remove(i)
            }
            _ => return None,
        };
    }
    match v {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    }
}

/// Runs `work` on every document (in parallel over files with `-j`) and
/// hands the results to `emit` in input order; `emit` returns `false` to
/// stop early (`-q` after the first call). A file that cannot be read is
/// reported on stderr and the others are still processed; the run then
/// ends with an error (exit 2), as grep does.
pub fn run_documents<T: Send>(
    input: &InputArgs,
    reading: Reading,
    work: impl Fn(Document) -> anyhow::Result<T> + Sync,
    mut emit: impl FnMut(T) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let sources: Vec<PathBuf> = if input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        expand_dirs(&input.files, &input.walk)?
    };
    let process = |path: &PathBuf| -> anyhow::Result<Vec<T>> {
        documents_of(input, path, reading)?
            .map(|doc| doc.and_then(&work))
            .collect()
    };
    let mut failed = 0usize;
    let mut report = |e: anyhow::Error| -> anyhow::Result<()> {
        if super::is_broken_pipe(&e) {
            return Err(e);
        }
        eprintln!("toolcall: {}", super::sanitize(&format!("{e:#}")));
        failed += 1;
        Ok(())
    };
    let jobs = input.jobs.max(1).min(sources.len());
    if jobs <= 1 {
        // One at a time: each document's result goes out before the next
        // document is read.
        'outer: for path in &sources {
            let docs = match documents_of(input, path, reading) {
                Ok(docs) => docs,
                Err(e) => {
                    report(e)?;
                    continue;
                }
            };
            for doc in docs {
                match doc.and_then(&work) {
                    Ok(r) => {
                        if !emit(r)? {
                            break 'outer;
                        }
                    }
                    Err(e) => {
                        report(e)?;
                        continue 'outer;
                    }
                }
            }
        }
    } else {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<Vec<T>>)>();
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, stop, sources, process) = (&next, &stop, &sources, &process);
                scope.spawn(move || loop {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = sources.get(i) else { break };
                    if tx.send((i, process(path))).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut pending = std::collections::BTreeMap::new();
            let mut want = 0usize;
            let mut result = Ok(());
            'recv: for (i, r) in rx {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    match r {
                        Ok(results) => {
                            for item in results {
                                match emit(item) {
                                    Ok(true) => {}
                                    Ok(false) => {
                                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                                        break 'recv;
                                    }
                                    Err(e) => {
                                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                                        result = Err(e);
                                        break 'recv;
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            if let Err(e) = report(e) {
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                                result = Err(e);
                                break 'recv;
                            }
                        }
                    }
                }
            }
            result
        })?;
    }
    if failed > 0 {
        anyhow::bail!(
            "{failed} input{} could not be read",
            if failed == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Replaces each directory by the files below it (see [`WalkArgs`]); other
/// paths stay as given. What is skipped inside a directory (a FIFO, a
/// socket, a device, a binary file, an entry that cannot be read) is noted on
/// stderr unless it is only hidden or ignored.
pub fn expand_dirs(paths: &[PathBuf], walk: &WalkArgs) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" || !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut builder = ignore::WalkBuilder::new(p);
        builder
            .follow_links(walk.follow)
            .hidden(!walk.hidden)
            .ignore(!walk.no_ignore)
            .git_ignore(!walk.no_ignore)
            .git_global(!walk.no_ignore)
            .git_exclude(!walk.no_ignore)
            .parents(!walk.no_ignore)
            .require_git(false)
            .sort_by_file_path(|a, b| a.cmp(b));
        if !walk.globs.is_empty() {
            let mut globs = ignore::overrides::OverrideBuilder::new(p);
            for g in &walk.globs {
                globs
                    .add(g)
                    .map_err(|e| anyhow::anyhow!("invalid --glob {g:?}: {e}"))?;
            }
            let globs = globs
                .build()
                .map_err(|e| anyhow::anyhow!("invalid --glob: {e}"))?;
            builder.overrides(globs);
        }
        for entry in builder.build() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    note(&format!("skipping: {e}"));
                    continue;
                }
            };
            let Some(kind) = entry.file_type() else {
                continue; // stdin, never produced for a directory
            };
            if kind.is_dir() {
                continue;
            }
            let path = entry.into_path();
            if kind.is_symlink() {
                continue; // only reached without -L
            }
            if !kind.is_file() {
                note(&format!("skipping {}: not a regular file", path.display()));
                continue;
            }
            if !walk.binary && is_binary(&path) {
                note(&format!(
                    "skipping {}: binary file (-a reads it)",
                    path.display()
                ));
                continue;
            }
            out.push(path);
        }
    }
    Ok(out)
}

/// Writes a note about a skipped path to stderr, control characters escaped.
fn note(msg: &str) {
    eprintln!("toolcall: {}", super::sanitize(msg));
}

/// A NUL byte in the first 8 KiB, as grep and ripgrep decide.
fn is_binary(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(f) = std::fs::File::open(path) else {
        return false; // reported when it is read
    };
    let mut head = Vec::with_capacity(8192);
    if f.take(8192).read_to_end(&mut head).is_err() {
        return false;
    }
    memchr::memchr(0, &head).is_some()
}

/// grep's habits: `-q`, `-m`, `-c`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// No output; exit status only (0: a call was found).
    ///
    /// Stops at the first call, like `grep -q`: "did the model call a tool?"
    #[arg(short, long)]
    pub quiet: bool,

    /// Stop after N calls per document (`-m1`: the first call).
    #[arg(short = 'm', long, value_name = "N")]
    pub max_count: Option<usize>,

    /// Print only the number of calls per document (`NAME:COUNT` when there
    /// are several documents).
    #[arg(short, long)]
    pub count: bool,
}

/// The shape of `tool_call` records.
#[derive(Args, Debug, Clone)]
pub struct ShapeArgs {
    /// Record shape: native (ours), openai or ollama.
    ///
    /// `openai` writes `{"id","type":"function","function":{"name",
    /// "arguments":"<json string>"}}` and `ollama` writes `{"function":
    /// {"name","arguments":{…}}}`, so records drop straight into the next
    /// request's `tool_calls`.
    #[arg(long, value_name = "SHAPE", default_value = "native", value_parser = ["native", "openai", "ollama"])]
    pub shape: String,
}

impl ShapeArgs {
    /// A `tool_call` record in the chosen shape.
    pub fn shaped(&self, call: &crate::record::ToolCall) -> serde_json::Value {
        use serde_json::json;
        match self.shape.as_str() {
            "openai" => json!({
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": serde_json::to_string(&call.arguments).unwrap_or_default(),
                },
            }),
            "ollama" => json!({
                "function": {"name": call.name, "arguments": call.arguments},
            }),
            _ => serde_json::to_value(call).unwrap_or(serde_json::Value::Null),
        }
    }
}

/// Reads a whole file, or stdin for `-`.
pub fn read_source(path: &PathBuf) -> anyhow::Result<(String, Vec<u8>)> {
    let (name, reader) = open_source(path)?;
    let bytes = Document {
        name: name.clone(),
        body: Body::Reader(reader),
    }
    .into_bytes()?;
    Ok((name, bytes))
}

/// Opens a file, or stdin for `-`, without reading it.
pub fn open_source(path: &PathBuf) -> anyhow::Result<(String, Box<dyn Read + Send>)> {
    if path.as_os_str() == "-" {
        Ok(("-".to_string(), Box::new(std::io::stdin())))
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        Ok((path.display().to_string(), Box::new(file)))
    }
}
