//! The one buffered writer every record goes through.
//!
//! Records are written as one JSON object per line. `stream` flushes after
//! every read of its input; the other subcommands flush per record when
//! stdout is a terminal and block-buffer otherwise. A closed pipe is reported as
//! [`std::io::ErrorKind::BrokenPipe`] and turned into a quiet exit by `main`.
//!
//! A stdout that was closed when toolcall started (`>&-`) behaves as
//! `/dev/null`, as in every Rust program: the runtime reopens a closed
//! standard descriptor on `/dev/null` before `main`, and that descriptor
//! cannot be told apart from the `/dev/null` a caller hands on purpose
//! (Python's `subprocess.DEVNULL`, systemd's `StandardOutput=null`), so no
//! guess is made from how it was opened.

use std::io::{self, IsTerminal, Write};

use crate::Turn;

/// When the writer flushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushPolicy {
    /// Flush after every record.
    PerRecord,
    /// Flush only when the buffer is full and at exit.
    Block,
}

impl FlushPolicy {
    /// Per record on a terminal, block-buffered otherwise, unless overridden.
    pub fn choose(line_buffered: bool, block_buffered: bool, default_per_record: bool) -> Self {
        if line_buffered {
            FlushPolicy::PerRecord
        } else if block_buffered {
            FlushPolicy::Block
        } else if default_per_record || io::stdout().is_terminal() {
            FlushPolicy::PerRecord
        } else {
            FlushPolicy::Block
        }
    }
}

/// How many bytes the buffer gathers before they are written out.
const BLOCK: usize = 64 * 1024;

/// Buffered stdout (or any writer) that writes NDJSON records and raw bytes.
///
/// Records are appended to one `Vec<u8>` (the record writers in
/// the core's record writers append to a vector, which costs a capacity check
/// per piece, not a trait call) and handed to the writer once the vector
/// holds a block, so it never holds more than a block plus one record.
pub struct Output {
    buf: Vec<u8>,
    /// The buffer is written out once it holds this many bytes.
    block: usize,
    inner: Box<dyn Write>,
    policy: FlushPolicy,
    quiet: bool,
    pretty: bool,
}

impl Output {
    /// Wraps stdout. On Unix the writer owns a duplicate of descriptor 1:
    /// `io::stdout()` is line-buffered inside, and would search every block
    /// this writer hands it for its last newline (a tenth of `stream`'s time
    /// on large text). Everything goes through this one writer, so nothing
    /// else buffers stdout.
    pub fn stdout(policy: FlushPolicy) -> Self {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
                return Self::new(Box::new(std::fs::File::from(fd)), policy);
            }
        }
        Self::new(Box::new(io::stdout()), policy)
    }

    /// Wraps any writer (tests use a `Vec<u8>`).
    pub fn new(w: Box<dyn Write>, policy: FlushPolicy) -> Self {
        Output {
            buf: Vec::with_capacity(BLOCK),
            block: BLOCK,
            inner: w,
            policy,
            quiet: false,
            pretty: false,
        }
    }

    /// Suppresses all output (`-q`).
    pub fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    /// Gathers up to `bytes` (at least the default 64 KiB) before writing
    /// the buffer out: `stream` flushes after every read, and a block as
    /// large as what one read gives makes that one write per read instead
    /// of one per 64 KiB and one more at the flush.
    pub fn set_block(&mut self, bytes: usize) {
        self.block = bytes.max(BLOCK);
    }

    /// Indents records over several lines (`--pretty`).
    pub fn set_pretty(&mut self, pretty: bool) {
        self.pretty = pretty;
    }

    /// Writes one record as a JSON line (indented with `--pretty`).
    pub fn record<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        let mark = self.buf.len();
        let written = if self.pretty {
            serde_json::to_writer_pretty(&mut self.buf, value)
        } else {
            serde_json::to_writer(&mut self.buf, value)
        };
        if let Err(e) = written {
            // a value that cannot be serialized leaves no half record behind
            self.buf.truncate(mark);
            return Err(io::Error::from(e));
        }
        self.end_record()
    }

    /// Writes one record that `write` puts into a buffer as compact JSON
    /// (the core's `StreamRecorder` does): straight into the output buffer
    /// as a line, or pretty printed. `write` returns false when it wrote
    /// no record. It is called even when the output is quiet, so the
    /// writer's state follows every event.
    pub fn json_record_with(&mut self, write: impl FnOnce(&mut Vec<u8>) -> bool) -> io::Result<()> {
        if self.quiet || self.pretty {
            let mut json = Vec::new();
            if !write(&mut json) || self.quiet {
                return Ok(());
            }
            let value: serde_json::Value =
                serde_json::from_slice(&json).map_err(io::Error::from)?;
            return self.record(&value);
        }
        let mark = self.buf.len();
        if !write(&mut self.buf) {
            self.buf.truncate(mark);
            return Ok(());
        }
        self.end_record()
    }

    /// Writes a tool call record: the same bytes as [`Output::record`],
    /// written straight into the buffer.
    pub fn tool_call(&mut self, call: &crate::ToolCall) -> io::Result<()> {
        if self.quiet || self.pretty {
            return self.record(call);
        }
        call.write_json(&mut self.buf);
        self.end_record()
    }

    /// Writes a `{"type":KIND,"FIELD":VALUE,"span":[a,b]}` record (`stream`'s
    /// text, reasoning and markup), with the transcript turn's `turn` and
    /// `role` when there is one: the same bytes as serializing it.
    pub fn text_record(
        &mut self,
        kind: &str,
        field: &str,
        value: &str,
        span: crate::Span,
        turn: Option<Turn>,
    ) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.pretty {
            let mut rec = serde_json::Map::new();
            rec.insert("type".into(), kind.into());
            rec.insert(field.into(), value.into());
            rec.insert("span".into(), serde_json::json!(span));
            add_turn(&mut rec, turn);
            return self.record(&rec);
        }
        toolcall_core::write_text_record(&mut self.buf, kind, field, value, span);
        Turn::append(turn, &mut self.buf);
        self.end_record()
    }

    /// Writes `stream`'s `tool_call_start` record (with `turn` and `role`
    /// as for text): the same bytes as serializing it.
    pub fn call_start(
        &mut self,
        index: usize,
        id: &str,
        name: &str,
        turn: Option<Turn>,
    ) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.pretty {
            let mut rec = serde_json::Map::new();
            rec.insert("type".into(), "tool_call_start".into());
            rec.insert("index".into(), index.into());
            rec.insert("id".into(), id.into());
            rec.insert("name".into(), name.into());
            add_turn(&mut rec, turn);
            return self.record(&rec);
        }
        toolcall_core::write_call_start(&mut self.buf, index, id, name);
        Turn::append(turn, &mut self.buf);
        self.end_record()
    }

    fn end_record(&mut self) -> io::Result<()> {
        self.buf.push(b'\n');
        self.after_write()
    }

    /// Writes the buffer out when the policy says so or it holds a block.
    fn after_write(&mut self) -> io::Result<()> {
        if self.policy == FlushPolicy::PerRecord {
            self.flush()
        } else if self.buf.len() >= self.block {
            self.write_buffer()
        } else {
            Ok(())
        }
    }

    /// Hands the buffer to the writer and empties it. On an error the
    /// buffer is emptied too: what failed to go out is not retried.
    fn write_buffer(&mut self) -> io::Result<()> {
        let result = self.inner.write_all(&self.buf);
        self.buf.clear();
        if self.buf.capacity() > 4 * self.block {
            // one huge record does not pin its memory for the rest of the run
            self.buf.shrink_to(self.block);
        }
        result
    }

    /// Writes raw bytes (e.g. repaired JSON, `split --text`).
    pub fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.buf.len() + bytes.len() <= self.block {
            self.buf.extend_from_slice(bytes);
        } else {
            // large pieces go straight through, after what is buffered
            if !self.buf.is_empty() {
                self.write_buffer()?;
            }
            self.inner.write_all(bytes)?;
        }
        self.after_write()
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.write_buffer()?;
        }
        self.inner.flush()
    }
}

impl Drop for Output {
    /// Writes out what is left, as `BufWriter` does; errors here have no
    /// one to go to (every subcommand flushes, and reports, before it ends).
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Adds a transcript turn's `turn` and `role` to a record being built.
fn add_turn(rec: &mut serde_json::Map<String, serde_json::Value>, turn: Option<Turn>) {
    if let Some(t) = turn {
        rec.insert("turn".into(), t.index.into());
        rec.insert("role".into(), t.role.into());
    }
}

/// A `Write` into a buffer that stays readable after the writer is boxed
/// into an [`Output`]: a file's output held on a worker thread (`-j`)
/// until the files before it are written.
#[derive(Clone, Default)]
pub struct Kept(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Kept {
    /// An output writing into this buffer, flushed only when full or asked.
    pub fn output(&self) -> Output {
        Output::new(Box::new(self.clone()), FlushPolicy::Block)
    }

    /// The bytes written so far (the buffer is left empty).
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl Write for Kept {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
