//! Conversations: JSONL read a line at a time, whole documents and
//! session logs, each conversation's items judged in turn.

use super::judge::paint;
use super::{Run, ValidateArgs};
use crate::cli::tools::Tools;
use crate::validate::diag::{self, Located, Severity};
use crate::validate::items::{
    conversation_line, each_transcript_item, is_conversation, Item, Spans, Text, Where,
};
use crate::validate::{messages, session, shapes, Issue};
use crate::wire::InputKind;
use crate::Config;
use anyhow::Context;
use serde_json::Value;
use std::rc::Rc;

/// A document coming from a reader (a large file, stdin): when its first
/// non-blank line is a conversation, its lines are judged one at a time as
/// they are read (memory: one line) and `None` is returned; otherwise the
/// whole document is read and returned.
pub(super) fn conversation_lines(
    run: &mut Run<'_>,
    r: Box<dyn std::io::Read + Send>,
    name: &str,
    cfg: &Config,
    explicit: bool,
    args: &ValidateArgs,
) -> anyhow::Result<Option<Vec<u8>>> {
    let max_line = args.wire.max_buffer;
    let mut r = std::io::BufReader::with_capacity(64 << 10, r);
    // the first line is looked at without reading past --max-buffer: an
    // input with no line end (/dev/zero) is read whole, up to --max-input
    let crate::cli::common::FirstLine {
        prefix,
        mut line,
        mut number,
        whole,
    } = crate::cli::common::first_line(&mut r, max_line, name)?;
    let first = line.trim_ascii();
    let event = whole
        && first.len() <= max_line
        && serde_json::from_slice::<Value>(first).is_ok_and(|v| shapes::is_event(&v));
    if event {
        // a session log: read a session at a time
        drop(line);
        run.session_stream(prefix, r, name, cfg)?;
        return Ok(None);
    }
    let lines = whole
        && first.len() <= max_line
        && serde_json::from_slice::<Value>(first).is_ok_and(|v| is_conversation(&v, explicit));
    if !lines {
        let first = super::big::First {
            line,
            number,
            whole,
        };
        let Some((prefix, r)) = super::big::document(run, prefix, first, r, name, cfg, args)?
        else {
            return Ok(None);
        };
        // the bytes looked at, then the rest: one limit for the whole
        let all = std::io::Read::chain(std::io::Cursor::new(prefix), r);
        let prefix =
            crate::cli::common::read_limited(all, name, args.input.max_input, "--max-input")?;
        crate::cli::common::refuse_tools_file(name, &prefix)?;
        return Ok(Some(prefix));
    }
    drop(prefix);
    loop {
        judge_line(run, &line, number, name, cfg, max_line)?;
        loop {
            let more = crate::cli::common::read_line_limited(&mut r, &mut line, max_line)
                .with_context(|| format!("reading {name}"))?;
            if !more {
                return Ok(None);
            }
            number += 1;
            if !line.trim_ascii().is_empty() {
                break;
            }
        }
    }
}

/// Judges the conversations of a JSONL document held in memory.
pub(super) fn judge_lines(
    run: &mut Run<'_>,
    bytes: &[u8],
    name: &str,
    cfg: &Config,
    args: &ValidateArgs,
) -> anyhow::Result<()> {
    for (k, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !line.trim_ascii().is_empty() {
            judge_line(run, line, k + 1, name, cfg, args.wire.max_buffer)?;
        }
    }
    Ok(())
}

/// Judges line `number` of a JSONL of conversations: its document is
/// `NAME:LINE`, its diagnostics point into the file's lines.
pub(super) fn judge_line(
    run: &mut Run<'_>,
    line: &[u8],
    number: usize,
    name: &str,
    cfg: &Config,
    max_line: usize,
) -> anyhow::Result<()> {
    let original = line;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let doc = format!("{name}:{number}");
    run.invalid_before = run.invalid;
    match conversation_line(line, number, name, max_line) {
        (text, Ok(v)) => run.conversation(v, &text, name, &doc, cfg)?,
        (_, Err(item)) => run.judge(item, cfg)?,
    }
    // the row as read, with its line end
    run.keep(original)
}

impl Run<'_> {
    /// Judges one conversation: each call (its schema and the conversation
    /// checks), and each result no call asked for. `text` is the JSON it
    /// was read from, `file` the name diagnostics carry, `doc` the records'.
    pub(super) fn conversation(
        &mut self,
        v: Value,
        text: &Text,
        file: &str,
        doc: &str,
        cfg: &Config,
    ) -> anyhow::Result<()> {
        let cfg = cfg.for_doc(doc);
        // a document's calls are numbered from 0 (a JSONL line is one)
        self.next_index = 0;
        let explicit = self.args.wire.input == InputKind::Messages;
        let at = self.args.messages_at.as_deref();
        // converted first: reading drops the conversation as it goes
        let found: Vec<(messages::Transcript, Option<Value>)> = shapes::find_owned(v, at, explicit)
            .into_iter()
            .filter_map(|f| {
                let row = self.convert(&f, &cfg);
                let t = shapes::read_owned(f, &cfg)?;
                Some((t, row))
            })
            .collect();
        if found.is_empty() {
            let item = Item::refused_document(
                crate::validate::records::stand_in(doc, "", [0, 0]),
                Issue::call(
                    "TLP-008",
                    "the document is JSON but no conversation (messages, conversations, \
                     input, output, choices or message)",
                ),
                file,
                text,
                0,
            );
            return self.judge(item, &cfg);
        }
        for (t, row) in found {
            self.transcript(t, text, file, doc, &cfg, None, row)?;
        }
        Ok(())
    }

    /// Judges a document that is one conversation's message list as
    /// [`Run::conversation`] judges it parsed whole, reading it a message
    /// at a time as it is parsed ([`shapes::stream`]): the parsed document
    /// is never held. `Some(bytes)` hands a document that is no such list
    /// (or read with `--messages-at` or `--convert`, which need it whole)
    /// back.
    pub(super) fn streamed(
        &mut self,
        bytes: Vec<u8>,
        name: &str,
        cfg: &Config,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        if !super::big::streams(self.args) {
            self.listed = false;
            return Ok(Some(bytes));
        }
        // a document larger than --max-conversation came here because it
        // opens as one message list (`big::object`): each message must be
        // within the bound, and it is never parsed whole
        let cap = super::big::cap(self.args);
        let large = std::mem::take(&mut self.listed) && bytes.len() > cap;
        let mut bytes = bytes;
        if large {
            let largest =
                shapes::list_opens(&bytes).and_then(|open| shapes::largest_element(&bytes, open));
            let message = match largest {
                Some(n) if n > cap => format!(
                    "a message of {n} bytes, larger than --max-conversation ({cap} bytes): \
                     not read (a message is held whole while it is read, at some 20 times \
                     its size); raise --max-conversation"
                ),
                Some(_) => String::new(),
                None => super::big::too_large(cap),
            };
            if !message.is_empty() {
                bytes.truncate(super::big::HEAD);
                super::big::refuse(self, bytes, name, cfg, "TLP-007", message)?;
                return Ok(None);
            }
        }
        let doc_cfg = cfg.for_doc(name);
        let Some(t) = shapes::stream(&bytes, &doc_cfg) else {
            if large {
                // another shape after all: not parsed whole past the bound
                bytes.truncate(super::big::HEAD);
                super::big::refuse(
                    self,
                    bytes,
                    name,
                    cfg,
                    "TLP-007",
                    super::big::too_large(cap),
                )?;
                return Ok(None);
            }
            return Ok(Some(bytes));
        };
        let cfg = doc_cfg;
        let text = Rc::new(Located::new(bytes));
        self.invalid_before = self.invalid;
        self.next_index = 0;
        self.transcript(t, &text, name, name, &cfg, None, None)?;
        self.keep(text.bytes())?;
        Ok(None)
    }

    /// Judges the conversations of a per-event session log held in memory
    /// (one event a line), a session at a time as [`Run::session_stream`]
    /// reads one from a reader: the same records and diagnostics.
    pub(super) fn session(
        &mut self,
        bytes: Vec<u8>,
        name: &str,
        cfg: &Config,
    ) -> anyhow::Result<()> {
        let cfg = cfg.for_doc(name);
        self.next_index = 0;
        let cap = super::big::cap(self.args);
        session::for_each_block(&bytes, cap, |b| self.session_block(b, name, &cfg, cap))
    }

    /// Judges a per-event session log read from `r` a session at a time
    /// ([`session::Sessions`]): memory is bounded by the largest session
    /// (a session larger than `--max-conversation` is one TLP-007 error,
    /// and the next one is read), not by the log. `prefix` holds the bytes
    /// already read (whole lines).
    pub(super) fn session_stream(
        &mut self,
        prefix: Vec<u8>,
        mut r: impl std::io::BufRead,
        name: &str,
        cfg: &Config,
    ) -> anyhow::Result<()> {
        let cfg = cfg.for_doc(name);
        self.next_index = 0;
        let cap = super::big::cap(self.args);
        let mut sessions = session::Sessions::new(cap);
        let (mut k, mut offset) = (0usize, 0usize);
        for line in prefix.split_inclusive(|&b| b == b'\n') {
            if let Some(b) = sessions.line(k, offset, line, true) {
                self.session_block(b, name, &cfg, cap)?;
            }
            k += 1;
            offset += line.len();
        }
        let mut line = Vec::new();
        while let Some((len, whole)) =
            crate::cli::common::read_line_counted(&mut r, &mut line, cap.saturating_add(1))
                .with_context(|| format!("reading {name}"))?
        {
            if let Some(b) = sessions.line(k, offset, &line, whole) {
                self.session_block(b, name, &cfg, cap)?;
            }
            k += 1;
            offset += len;
        }
        match sessions.finish() {
            Some(b) => self.session_block(b, name, &cfg, cap),
            None => Ok(()),
        }
    }

    /// Judges one session of a session log: its conversations, the lines
    /// of it that are not JSON, or one TLP-007 error when it was too large
    /// to hold.
    fn session_block(
        &mut self,
        b: session::Block,
        name: &str,
        cfg: &Config,
        cap: usize,
    ) -> anyhow::Result<()> {
        let first = b.first_line;
        let text = Rc::new(Located::at_line(b.text, first as u64 + 1));
        if b.too_large {
            let message = format!(
                "session {}starting at line {} is larger than --max-conversation ({cap} bytes): \
                 not read (a conversation held takes some 30 times its size); raise \
                 --max-conversation to check it",
                b.session.map_or(String::new(), |s| format!("'{s}' ")),
                first + 1
            );
            let raw = crate::lossy(&text.bytes()[..text.bytes().len().min(512)]).into_owned();
            let mut call = crate::validate::records::stand_in(name, &raw, [0, 0]);
            call.index = self.next_index;
            self.next_index += 1;
            let item =
                Item::refused_document(call, Issue::call("TLP-007", message), name, &text, 0);
            self.invalid_before = self.invalid;
            return self.judge(item, cfg);
        }
        for f in &b.conversations {
            if let Some(t) = shapes::read(f, cfg) {
                let row = self.convert(f, cfg);
                self.transcript(t, &text, name, name, cfg, Some(first), row)?;
            }
        }
        super::big::bad_lines(self, &text, name, cfg, b.bad)
    }

    /// `--convert`: the conversation `f` converted (the next in the
    /// document), else `None`.
    pub(super) fn convert(&mut self, f: &shapes::Found, cfg: &Config) -> Option<Value> {
        self.args.report.convert.as_ref()?;
        let row = crate::validate::convert::openai(f, self.converted, cfg)?;
        self.converted += 1;
        Some(row)
    }

    /// Judges one conversation read: each call (its schema and the
    /// conversation checks), and each result no call asked for. `lines`:
    /// `text` is lines of a session log, the first of them line N (0-based)
    /// of its file, and the pointers start with a line index of the file.
    /// `row`: the conversation converted (`--convert`), written after it
    /// is judged when `--keep` wants its verdict.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn transcript(
        &mut self,
        mut t: messages::Transcript,
        text: &Text,
        file: &str,
        doc: &str,
        cfg: &Config,
        lines: Option<usize>,
        row: Option<Value>,
    ) -> anyhow::Result<()> {
        let calls = shapes::calls(&t).count();
        self.report.conversation(calls);
        if t.tools.is_none() && self.tools.registry.is_none() {
            self.no_tools(&t, text, file);
        }
        let own_tools = self.tools.registry.is_none() && t.tools.is_some();
        self.doc_tools = match (&t.tools, own_tools) {
            (Some(list), true) => self.conversation_tools(list, file),
            _ => None,
        };
        let base = self.element.as_ref().map(|(base, _)| base.clone());
        let spans = match (&base, lines) {
            (_, Some(first)) => Spans::Lines(first),
            (Some(base), None) => Spans::Element(base),
            (None, None) => Spans::Document,
        };
        let (pointer, source) = (std::mem::take(&mut t.pointer), t.source);
        let allow = self.args.allow.clone();
        let at = Where {
            text,
            file,
            doc,
            own_tools,
            spans,
            first: self.next_index,
        };
        let invalid_before = self.invalid;
        // each item judged as it is made: the conversation is held once
        let n = each_transcript_item(t, &at, &allow, |item| self.judge(item, cfg))?;
        self.next_index += n;
        self.doc_tools = None;
        if let Some(row) = row {
            let valid = self.invalid == invalid_before;
            let wanted = self
                .args
                .report
                .keep
                .as_deref()
                .is_none_or(|k| (k == "valid") == valid);
            if wanted {
                self.out.raw(format!("{row}\n").as_bytes())?;
            }
        }
        if self.args.report.verdicts && self.report.records() {
            let invalid = self.invalid - invalid_before;
            self.out.record(&serde_json::json!({
                "type": "conversation",
                "doc": doc,
                "pointer": pointer,
                "shape": source,
                "calls": calls,
                "invalid": invalid,
                "valid": invalid == 0,
            }))?;
        }
        Ok(())
    }

    /// `--keep valid|invalid`: writes the row just judged (its bytes as
    /// read) when its verdict is the one kept.
    pub(super) fn keep(&mut self, row: &[u8]) -> anyhow::Result<()> {
        let Some(keep) = self.args.report.keep.as_deref() else {
            return Ok(());
        };
        if self.args.report.convert.is_some() {
            // the rows written are the conversions, per conversation
            return Ok(());
        }
        let valid = self.invalid == self.invalid_before;
        if (keep == "valid") == valid {
            self.out.raw(row)?;
        }
        Ok(())
    }

    /// Says once per document that a conversation offers no tools, so
    /// "valid" is not taken for "checked" (TLP-015, a warning).
    fn no_tools(&mut self, t: &messages::Transcript, text: &Text, file: &str) {
        if self.warned_no_tools.as_deref() == Some(file)
            || shapes::calls(t).next().is_none()
            || self.args.allow.iter().any(|a| a == shapes::NO_TOOLS)
        {
            return;
        }
        self.warned_no_tools = Some(file.to_string());
        let issue = Issue::call(
            shapes::NO_TOOLS,
            "the conversation offers no tools (no `tools`, no list beside it, none in its \
             system prompt): its calls are checked for shape only; give --tools FILE",
        );
        let text = self.element.as_ref().map_or(text, |(_, head)| head);
        let pos = text.position(0);
        self.report
            .finding(file, pos.line, pos.column, &issue, false);
        if !self.args.quiet && !self.args.no_diagnostics && !self.args.retry.retry_prompt {
            let rendered = diag::render_in(file, Some(text), 0, Severity::Warning, &issue);
            if self.colored {
                crate::cli::to_stderr(&paint(
                    &rendered,
                    &crate::cli::sanitize(file),
                    Severity::Warning,
                ));
            } else {
                crate::cli::to_stderr(&rendered);
            }
        }
    }

    /// The tools a conversation offers, as a registry (the last list's is
    /// kept: the lines of a dataset usually share one). `None`, with a
    /// note, when they cannot be read as tool definitions.
    fn conversation_tools(&mut self, list: &Value, file: &str) -> Option<Rc<Tools>> {
        if let Some((last, built)) = &self.tools_cache {
            if last == list {
                return built.clone();
            }
        }
        let built = match crate::validate::registry::Registry::from_value(
            list,
            self.tools.policy.strict,
        ) {
            Ok(registry) => Some(Rc::new(Tools {
                registry: Some(registry),
                policy: self.tools.policy,
                verbose: self.tools.verbose,
                ..Tools::default()
            })),
            Err(e) => {
                if !self.args.quiet {
                    crate::cli::report(&format!(
                        "{file}: the conversation's tools are not read ({e}); calls are not checked against schemas"
                    ));
                }
                None
            }
        };
        self.tools_cache = Some((list.clone(), built.clone()));
        built
    }
}
