//! The documents of the inputs (split by `--lines` / `--field`) and the run
//! over them, in input order, in parallel over files with `-j`.

use super::input_flags::InputArgs;
use super::read::{
    open_source, read_limited_sized, read_line_limited, Body, Bytes, Document, READ_CHUNK,
};
use super::sniff::{looks_like_tools, refuse_tools_file, small_regular_file, TOOLS_SNIFF};
use super::walk::{expand_dirs, note};
use std::path::PathBuf;

/// What stops the documents (`emit`'s answer in [`run_documents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    More,
    /// This document has given what was asked (`-m N`): stop reading it and
    /// go on with the next.
    NextDocument,
    /// Everything asked for is known (`-q`): stop reading altogether.
    Stop,
}

/// Whether a command can take documents as readers ([`Body::Reader`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every document is read into memory first.
    Whole,
    /// A whole file or stdin comes as a reader; `--lines` documents are
    /// always read one line at a time.
    Streamed,
    /// As `Streamed`, but a large regular file is mapped ([`Body::Bytes`]
    /// of [`Bytes::Mapped`], see [`super::MAP_MIN`]): for commands that
    /// feed the engine slices and hold nothing of the document.
    Mapped,
}

/// Reads every document named by the input flags, calling `each` in order;
/// `max_line` bounds a `--lines` / `--field` line (`--max-buffer`).
pub fn for_each_document(
    input: &InputArgs,
    reading: Reading,
    max_line: usize,
    mut each: impl FnMut(Document) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    run_documents(
        input,
        reading,
        max_line,
        |doc, push| push(doc).map(|_| ()),
        |doc| each(doc).map(|()| Flow::More),
    )
}

/// The documents of one source, split as `--lines` / `--field` ask, read
/// lazily: a file of a million lines is never in memory at once.
///
/// A line longer than `max_line` is skipped with a note on stderr, without
/// holding more than `max_line` bytes of it, and the run ends with exit 2.
pub fn documents_of(
    input: &InputArgs,
    path: &PathBuf,
    reading: Reading,
    max_line: usize,
) -> anyhow::Result<Box<dyn Iterator<Item = anyhow::Result<Document>> + Send>> {
    if !input.lines && input.field.is_none() {
        let mapped = if reading == Reading::Streamed {
            None
        } else {
            mapped(path, input.max_input)
        };
        let (name, body) = match mapped {
            Some((name, map)) => (name, Body::Bytes(Bytes::Mapped(map))),
            None => {
                let (name, reader) = open_source(path)?;
                // a small regular file is read whole: nothing to stream, and
                // a tools file given as input can be recognised (one larger
                // than --max-input is streamed: `validate` reads a JSONL
                // whose first line is too long, the rest is refused as before)
                let small = small_regular_file(path)
                    && (path.as_os_str() == "-"
                        || std::fs::metadata(path).is_ok_and(|m| m.len() <= input.max_input));
                if reading == Reading::Whole || small {
                    let size = std::fs::metadata(path)
                        .ok()
                        .filter(|m| m.is_file() && path.as_os_str() != "-")
                        .map(|m| m.len());
                    let bytes =
                        read_limited_sized(reader, &name, input.max_input, "--max-input", size)?;
                    (name, Body::Bytes(Bytes::Owned(bytes)))
                } else {
                    (name, Body::Reader(reader))
                }
            }
        };
        if let Body::Bytes(bytes) = &body {
            // an input named on the command line (or stdin) is refused (exit
            // 2); a tools file met while walking a directory is skipped with
            // a note, as a binary file is
            let named = input.files.is_empty() || input.files.iter().any(|f| f == path);
            if named {
                refuse_tools_file(&name, bytes)?;
            } else if bytes.len() as u64 <= TOOLS_SNIFF && looks_like_tools(bytes) {
                note(&format!("skipping {name}: a tools file (--tools reads it)"));
                return Ok(Box::new(std::iter::empty()));
            }
        }
        return Ok(Box::new(std::iter::once(Ok(Document { name, body }))));
    }
    let (name, reader) = open_source(path)?;
    let field = input.field.clone();
    let mut reader = std::io::BufReader::with_capacity(READ_CHUNK, reader);
    let mut line = Vec::new();
    let mut k = 0usize;
    let mut done = false;
    // --field: lines read and lines where the path held a string
    let (mut records, mut matched) = (0usize, 0usize);
    Ok(Box::new(std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        match read_line_limited(&mut reader, &mut line, max_line) {
            Ok(false) => {
                done = true;
                if let (Some(path), true, 0) = (&field, records > 0, matched) {
                    super::report(&format!(
                        "{name}: --field {path} matched none of its {records} line{} \
                         (no string at that path)",
                        if records == 1 { "" } else { "s" }
                    ));
                }
                return None;
            }
            Ok(true) => {}
            Err(e) => {
                done = true;
                return Some(Err(anyhow::Error::new(e).context(format!("reading {name}"))));
            }
        }
        k += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        if text.len() > max_line {
            super::report(&format!(
                "{name}:{k}: line longer than --max-buffer ({max_line} bytes); skipped"
            ));
            LONG_LINES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            continue;
        }
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        let bytes = match &field {
            None => text.to_vec(),
            Some(path) => {
                records += 1;
                match field_of(text, path) {
                    Some(value) => {
                        matched += 1;
                        value.into_bytes()
                    }
                    None => continue,
                }
            }
        };
        return Some(Ok(Document {
            name: format!("{name}:{k}"),
            body: Body::Bytes(Bytes::Owned(bytes)),
        }));
    })))
}

/// `path`'s name and map when it is a large regular file that maps (never
/// stdin or a directory); `None` to open and read it as before.
fn mapped(path: &PathBuf, max: u64) -> Option<(String, super::map::Mapped)> {
    if path.as_os_str() == "-" {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let map = super::map::map_regular(&file, max)?;
    Some((path.display().to_string(), map))
}

/// Lines longer than the line limit skipped so far (`--lines`, `--field`).
static LONG_LINES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

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
/// hands its results to `emit` in input order. `work` gives a document's
/// results through `push` as they come (a document read from a pipe gives
/// them while it is read), and stops reading it when `push` returns `false`;
/// `emit` answers with a [`Flow`] (`-q` stops at the first call, `-m N`
/// moves on to the next document). A file that cannot be read is reported
/// on stderr and the others are still processed; the run then ends with an
/// error (exit 2), as grep does.
pub fn run_documents<T: Send>(
    input: &InputArgs,
    reading: Reading,
    max_line: usize,
    work: impl Fn(Document, &mut dyn FnMut(T) -> anyhow::Result<bool>) -> anyhow::Result<()> + Sync,
    mut emit: impl FnMut(T) -> anyhow::Result<Flow>,
) -> anyhow::Result<()> {
    let sources: Vec<PathBuf> = if input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        expand_dirs(&input.files, &input.walk)?
    };
    let split = Split {
        input,
        reading,
        max_line,
    };
    let mut failures = Failures { input, count: 0 };
    let jobs = input.jobs.max(1).min(sources.len());
    if jobs <= 1 {
        one_at_a_time(&split, &sources, &work, &mut emit, &mut failures)?;
    } else {
        in_parallel(&split, &sources, jobs, &work, &mut emit, &mut failures)?;
    }
    failures.finish()
}

/// How the inputs are split into documents (the arguments of
/// [`documents_of`] but the path).
struct Split<'a> {
    input: &'a InputArgs,
    reading: Reading,
    max_line: usize,
}

impl Split<'_> {
    /// The documents of `path`.
    fn of(
        &self,
        path: &PathBuf,
    ) -> anyhow::Result<Box<dyn Iterator<Item = anyhow::Result<Document>> + Send>> {
        documents_of(self.input, path, self.reading, self.max_line)
    }
}

/// The inputs that could not be read so far: each input's name and why.
static UNREADABLE: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The inputs that could not be read so far in this run, in input order
/// (their name and why): `validate`'s JSON summary lists them.
pub fn unreadable() -> Vec<(String, String)> {
    UNREADABLE.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// The inputs that could not be read, reported as they are met.
struct Failures<'a> {
    input: &'a InputArgs,
    count: usize,
}

impl Failures<'_> {
    /// Reports an input that could not be read on stderr (not with `-s`
    /// when it is an I/O error) and counts it; a broken pipe ends the run.
    /// The input and why are kept for a report ([`unreadable`]).
    fn report(&mut self, path: &std::path::Path, e: anyhow::Error) -> anyhow::Result<()> {
        if super::is_broken_pipe(&e) {
            return Err(e);
        }
        UNREADABLE
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((path.display().to_string(), format!("{e:#}")));
        let unreadable = e
            .chain()
            .any(|c| c.downcast_ref::<std::io::Error>().is_some());
        if !(self.input.no_messages && unreadable) {
            super::report(&format!("{e:#}"));
        }
        self.count += 1;
        Ok(())
    }

    /// At the end of the run: an error (exit 2) when an input could not be
    /// read or a line was skipped as too long.
    fn finish(self) -> anyhow::Result<()> {
        use std::sync::atomic::Ordering::Relaxed;
        let failed = self.count;
        if failed > 0 && self.input.no_messages {
            super::fail_later();
        } else if failed > 0 {
            anyhow::bail!(
                "{failed} input{} could not be read",
                if failed == 1 { "" } else { "s" }
            );
        }
        let long = LONG_LINES.load(Relaxed);
        if long > 0 {
            anyhow::bail!(
                "{long} line{} longer than --max-buffer {} skipped",
                if long == 1 { "" } else { "s" },
                if long == 1 { "was" } else { "were" }
            );
        }
        Ok(())
    }
}

/// One file at a time: results go out as they come, so that `-q` on an
/// endless pipe stops at the first call and nothing piles up.
fn one_at_a_time<T>(
    split: &Split<'_>,
    sources: &[PathBuf],
    work: &impl Fn(Document, &mut dyn FnMut(T) -> anyhow::Result<bool>) -> anyhow::Result<()>,
    emit: &mut impl FnMut(T) -> anyhow::Result<Flow>,
    failures: &mut Failures<'_>,
) -> anyhow::Result<()> {
    'outer: for path in sources {
        let of_path = match split.of(path) {
            Ok(of_path) => of_path,
            Err(e) => {
                failures.report(path, e)?;
                continue;
            }
        };
        for doc in of_path {
            let mut flow = Flow::More;
            let mut emit_err = None;
            let r = doc.and_then(|doc| {
                work(doc, &mut |t| {
                    if flow != Flow::More || emit_err.is_some() {
                        return Ok(false);
                    }
                    match emit(t) {
                        Ok(f) => {
                            flow = f;
                            Ok(f == Flow::More)
                        }
                        Err(e) => {
                            emit_err = Some(e);
                            Ok(false)
                        }
                    }
                })
            });
            if let Some(e) = emit_err {
                return Err(e);
            }
            if let Err(e) = r {
                failures.report(path, e)?;
                continue 'outer;
            }
            if flow == Flow::Stop {
                break 'outer;
            }
        }
    }
    Ok(())
}

/// `jobs` threads take files in turn; each file's results are held until
/// the files before it have been emitted, so the output keeps input order.
/// A thread does not start file `i` before file `i - jobs` is emitted: at
/// most `jobs` files' results are held at once, however slow one file is.
fn in_parallel<T: Send>(
    split: &Split<'_>,
    sources: &[PathBuf],
    jobs: usize,
    work: &(impl Fn(Document, &mut dyn FnMut(T) -> anyhow::Result<bool>) -> anyhow::Result<()> + Sync),
    emit: &mut impl FnMut(T) -> anyhow::Result<Flow>,
    failures: &mut Failures<'_>,
) -> anyhow::Result<()> {
    use std::sync::atomic::Ordering::Relaxed;
    let stop = std::sync::atomic::AtomicBool::new(false);
    // a file's results, per document
    let process = |path: &PathBuf| -> anyhow::Result<Vec<Vec<T>>> {
        let mut all = Vec::new();
        for doc in split.of(path)? {
            let mut results = Vec::new();
            work(doc?, &mut |t| {
                results.push(t);
                Ok(!stop.load(Relaxed))
            })?;
            all.push(results);
        }
        Ok(all)
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    // files emitted so far, and a wake-up for the threads waiting on it
    let emitted = (std::sync::Mutex::new(0usize), std::sync::Condvar::new());
    let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<Vec<Vec<T>>>)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, stop, process, emitted) = (&next, &stop, &process, &emitted);
            scope.spawn(move || loop {
                if stop.load(Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Relaxed);
                let Some(path) = sources.get(i) else { break };
                {
                    let (lock, cvar) = emitted;
                    let mut done = lock.lock().unwrap_or_else(|p| p.into_inner());
                    while i >= *done + jobs && !stop.load(Relaxed) {
                        done = cvar.wait(done).unwrap_or_else(|p| p.into_inner());
                    }
                }
                if stop.load(Relaxed) || tx.send((i, process(path))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let result = (|| {
            let mut pending = std::collections::BTreeMap::new();
            let mut want = 0usize;
            for (i, r) in rx {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    let flow = match r {
                        Ok(docs) => emit_file(docs, emit),
                        Err(e) => {
                            let path = sources
                                .get(want - 1)
                                .map_or(std::path::Path::new("-"), |p| p.as_path());
                            failures.report(path, e).map(|()| Flow::More)
                        }
                    };
                    {
                        let (lock, cvar) = &emitted;
                        *lock.lock().unwrap_or_else(|p| p.into_inner()) = want;
                        cvar.notify_all();
                    }
                    match flow {
                        Ok(Flow::Stop) => return Ok(()),
                        Ok(_) => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Ok(())
        })();
        // wake the threads waiting for their turn: the run is over
        stop.store(true, Relaxed);
        let (lock, cvar) = &emitted;
        drop(lock.lock().unwrap_or_else(|p| p.into_inner()));
        cvar.notify_all();
        result
    })
}

/// Hands one file's results to `emit`, document by document: `Flow::Stop`
/// when everything asked for is known.
fn emit_file<T>(
    docs: Vec<Vec<T>>,
    emit: &mut impl FnMut(T) -> anyhow::Result<Flow>,
) -> anyhow::Result<Flow> {
    for results in docs {
        for item in results {
            match emit(item)? {
                Flow::More => {}
                Flow::NextDocument => break,
                Flow::Stop => return Ok(Flow::Stop),
            }
        }
    }
    Ok(Flow::More)
}
