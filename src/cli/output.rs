//! The one buffered writer every record goes through.
//!
//! Records are written as one JSON object per line. `stream` flushes after
//! every record; the other subcommands flush per record when stdout is a
//! terminal and block-buffer otherwise. A closed pipe is reported as
//! [`std::io::ErrorKind::BrokenPipe`] and turned into a quiet exit by `main`.

use std::io::{self, IsTerminal, Write};

static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Checks, first thing, whether stdout was closed when toolcall started
/// (`toolcall … >&-`). Rust's runtime puts `/dev/null` on a closed standard
/// descriptor before `main`, so every record would vanish with exit 0. On
/// Linux that descriptor is recognisable: `/dev/null` opened read-write,
/// which no shell redirection of stdout does (`>/dev/null` opens it
/// write-only). Then every write to stdout fails with "standard output is
/// closed" (exit 2, as grep does).
pub fn guard_stdout() {
    if stdout_was_closed() {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    if std::fs::read_link("/proc/self/fd/1").ok().as_deref()
        != Some(std::path::Path::new("/dev/null"))
    {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o2) // O_ACCMODE == O_RDWR
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// The writer behind a closed stdout: every write fails.
struct Closed;

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other(
            "writing output: standard output is closed",
        ))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

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
/// `toolcall_core::ndjson` append to a vector, which costs a capacity check
/// per piece, not a trait call) and handed to the writer once the vector
/// holds a block, so it never holds more than a block plus one record.
pub struct Output {
    buf: Vec<u8>,
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
        if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
            return Self::new(Box::new(Closed), policy);
        }
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

    /// Writes a tool call record: the same bytes as [`Output::record`],
    /// written straight into the buffer.
    pub fn tool_call(&mut self, call: &crate::record::ToolCall) -> io::Result<()> {
        if self.quiet || self.pretty {
            return self.record(call);
        }
        call.write_json(&mut self.buf);
        self.end_record()
    }

    /// Writes a `{"type":KIND,"FIELD":VALUE,"span":[a,b]}` record (`stream`'s
    /// text, reasoning and markup): the same bytes as serializing it.
    pub fn text_record(
        &mut self,
        kind: &str,
        field: &str,
        value: &str,
        span: crate::record::Span,
    ) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.pretty {
            let mut rec = serde_json::Map::new();
            rec.insert("type".into(), kind.into());
            rec.insert(field.into(), value.into());
            rec.insert("span".into(), serde_json::json!(span));
            return self.record(&rec);
        }
        toolcall_core::ndjson::write_text_record(&mut self.buf, kind, field, value, span);
        self.end_record()
    }

    /// Writes `stream`'s `tool_call_start` record: the same bytes as
    /// serializing it.
    pub fn call_start(&mut self, index: usize, id: &str, name: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.pretty {
            let rec = serde_json::json!({"type": "tool_call_start", "index": index, "id": id, "name": name});
            return self.record(&rec);
        }
        toolcall_core::ndjson::write_call_start(&mut self.buf, index, id, name);
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
        } else if self.buf.len() >= BLOCK {
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
        if self.buf.capacity() > 4 * BLOCK {
            // one huge record does not pin its memory for the rest of the run
            self.buf.shrink_to(BLOCK);
        }
        result
    }

    /// Writes raw bytes (e.g. repaired JSON, `split --text`).
    pub fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        if self.buf.len() + bytes.len() <= BLOCK {
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
