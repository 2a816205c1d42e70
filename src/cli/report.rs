//! What `validate` reports besides its records: the formats CI systems
//! read (`--output-format github|sarif|junit|json`), statistics
//! (`--stats`, a `summary` record) and the data findings that are not
//! a call's own (a repaired call, a conversation without tools).
//!
//! `validate` hands each judged call to [`Report::call`] and each
//! document-level finding to [`Report::finding`]; [`Report::finish`]
//! writes what the chosen format wants at the end. In the default
//! `records` format nothing is kept but counts, so memory stays
//! constant; the other formats keep one small entry per finding (JUnit
//! and JSON: per call).

use crate::validate::{shapes, Issue, Verdict};
use crate::ToolCall;
use clap::Args;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Report format and statistics flags of `validate`.
#[derive(Args, Debug, Clone, Default)]
pub struct ReportArgs {
    /// What stdout carries: `records` (a `validation` record per call),
    /// `github` (GitHub Actions annotations), `sarif` (SARIF 2.1.0, for
    /// code scanning), `junit` (JUnit XML: GitLab, Jenkins) or `json` (one
    /// summary object with every finding). Diagnostics on stderr and the
    /// exit status are the same in every format.
    ///
    /// Example:
    ///
    ///   toolcall validate --output-format sarif data/ > toolcall.sarif
    #[arg(long, value_name = "FORMAT", default_value = "records",
          value_parser = ["records", "github", "sarif", "junit", "json"], verbatim_doc_comment)]
    pub output_format: String,

    /// After the records, one `summary` record: documents read and
    /// skipped (and why), conversations, calls, valid and invalid, counts
    /// per code, calls per conversation, calls per tool name.
    ///
    /// Example:
    ///
    ///   toolcall validate --stats --no-diagnostics data.jsonl | tail -n 1 | jq .codes
    #[arg(hide_short_help = true, long, verbatim_doc_comment)]
    pub stats: bool,

    /// Write the rows (JSONL lines, or whole JSON documents) whose
    /// conversations are all valid (`valid`), or those with a finding
    /// (`invalid`), back out byte for byte instead of records: a dataset
    /// is cleaned in one pass.
    ///
    /// Example:
    ///
    ///   toolcall validate --keep valid --no-diagnostics data.jsonl > clean.jsonl
    #[arg(hide_short_help = true, long, value_name = "WHICH", value_parser = ["valid", "invalid"], verbatim_doc_comment)]
    pub keep: Option<String>,

    /// Write each conversation converted to FORMAT instead of records:
    /// `openai`, one OpenAI chat row a line (`{"messages": [...], "tools":
    /// [...]}`, calls as `tool_calls` with ids, results as `tool`
    /// messages linked to them, double-encoded arguments decoded, calls
    /// written as text lifted out of it, split messages merged, tools
    /// declared in a system prompt as the row's `tools`). Diagnostics and
    /// the exit status are validate's; with --keep, only the rows of
    /// conversations with that verdict.
    ///
    /// Example:
    ///
    ///   toolcall validate --convert openai --keep valid data.json > train.jsonl
    #[arg(hide_short_help = true, long, value_name = "FORMAT", conflicts_with = "output_format",
          value_parser = crate::validate::convert::FORMATS, verbatim_doc_comment)]
    pub convert: Option<String>,

    /// Most bytes of one JSON conversation read whole: a document (a
    /// large top-level array is read an element at a time, each element
    /// bounded so). A larger one is a TLP-007 error, not read: a
    /// conversation held takes some 30 times its size in memory. Write
    /// one conversation a line (JSONL) to check larger ones.
    ///
    /// Example:
    ///
    ///   toolcall validate --max-conversation 134217728 trajectory.json
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = 32 << 20,
          value_parser = crate::cli::common::input_size_parser(), verbatim_doc_comment)]
    pub max_conversation: u64,

    /// After each conversation's records, one `conversation` record: its
    /// `doc`, `pointer`, `shape`, `calls`, `invalid` (findings) and
    /// `valid`; clean conversations included, so every row of a dataset
    /// has a verdict.
    ///
    /// Example:
    ///
    ///   toolcall validate --verdicts data.jsonl | jq -c 'select(.type == "conversation")'
    #[arg(hide_short_help = true, long, verbatim_doc_comment)]
    pub verdicts: bool,
}

/// One finding, where it points.
#[derive(Clone, Debug)]
struct Finding {
    file: String,
    line: u64,
    column: u64,
    code: String,
    error: bool,
    message: String,
}

/// One judged call (kept for JUnit and JSON).
#[derive(Clone, Debug)]
struct Case {
    file: String,
    doc: String,
    index: usize,
    name: String,
    pointer: Option<String>,
    findings: Vec<Finding>,
    valid: bool,
}

/// What `validate` has judged so far, for the report at the end.
#[derive(Default)]
pub struct Report {
    format: String,
    stats: bool,
    keep: bool,
    findings: Vec<Finding>,
    cases: Vec<Case>,
    calls: usize,
    invalid: usize,
    documents: usize,
    skipped: Vec<(String, String)>,
    conversations: usize,
    per_conversation: BTreeMap<usize, usize>,
    codes: BTreeMap<String, usize>,
    tools: BTreeMap<String, usize>,
}

impl Report {
    /// A report in `args`' format.
    pub fn new(args: &ReportArgs) -> Report {
        Report {
            format: args.output_format.clone(),
            stats: args.stats,
            keep: args.keep.is_some() || args.convert.is_some(),
            ..Report::default()
        }
    }

    /// Whether stdout carries `validation` records (the default format,
    /// without `--keep` or `--convert`).
    pub fn records(&self) -> bool {
        self.format == "records" && !self.keep
    }

    fn keeps_findings(&self) -> bool {
        self.format != "records"
    }

    fn keeps_cases(&self) -> bool {
        matches!(self.format.as_str(), "junit" | "json")
    }

    /// Adds what `other` saw after what this report saw: the report of a
    /// file checked on another thread (`-j`), taken in input order.
    pub fn absorb(&mut self, other: Report) {
        // every field named: a new one must be merged here too
        let Report {
            format: _,
            stats: _,
            keep: _,
            findings,
            cases,
            calls,
            invalid,
            documents,
            skipped,
            conversations,
            per_conversation,
            codes,
            tools,
        } = other;
        self.findings.extend(findings);
        self.cases.extend(cases);
        self.calls += calls;
        self.invalid += invalid;
        self.documents += documents;
        self.skipped.extend(skipped);
        self.conversations += conversations;
        for (k, n) in per_conversation {
            *self.per_conversation.entry(k).or_default() += n;
        }
        for (k, n) in codes {
            *self.codes.entry(k).or_default() += n;
        }
        for (k, n) in tools {
            *self.tools.entry(k).or_default() += n;
        }
    }

    /// A document was read.
    pub fn document(&mut self) {
        self.documents += 1;
    }

    /// A document was not checked, and why.
    pub fn skipped(&mut self, file: &str, why: &str) {
        self.skipped.push((file.to_string(), why.to_string()));
    }

    /// The files not checked.
    pub fn skipped_files(&self) -> Vec<&str> {
        self.skipped.iter().map(|(f, _)| f.as_str()).collect()
    }

    /// A conversation was read, with this many calls.
    pub fn conversation(&mut self, calls: usize) {
        self.conversations += 1;
        *self.per_conversation.entry(calls).or_default() += 1;
    }

    /// A finding that is not a call's (a conversation without tools).
    pub fn finding(&mut self, file: &str, line: u64, column: u64, issue: &Issue, error: bool) {
        *self.codes.entry(issue.code.to_string()).or_default() += 1;
        if self.keeps_findings() {
            self.findings.push(Finding {
                file: file.to_string(),
                line,
                column,
                code: issue.code.to_string(),
                error,
                message: issue.message.clone(),
            });
        }
    }

    /// A judged call (or candidate): its verdict and where each error
    /// points. `counted` is false for what is not a call (a refused
    /// document, a result without a call).
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        file: &str,
        call: &ToolCall,
        pointer: Option<&str>,
        v: &Verdict,
        errors: &[(u64, u64)],
        at: (u64, u64),
        counted: bool,
    ) {
        if counted {
            self.calls += 1;
            if !v.valid {
                self.invalid += 1;
            }
            if !call.name.is_empty() {
                *self.tools.entry(call.name.clone()).or_default() += 1;
            }
        }
        let mut found = Vec::new();
        for (k, e) in v.errors.iter().enumerate() {
            *self.codes.entry(e.code.to_string()).or_default() += 1;
            let (line, column) = errors.get(k).copied().unwrap_or(at);
            found.push(Finding {
                file: file.to_string(),
                line,
                column,
                code: e.code.to_string(),
                error: true,
                message: issue_text(e),
            });
        }
        for w in &v.warnings {
            *self.codes.entry(w.code.to_string()).or_default() += 1;
            found.push(Finding {
                file: file.to_string(),
                line: at.0,
                column: at.1,
                code: w.code.to_string(),
                error: false,
                message: issue_text(w),
            });
        }
        if self.keeps_findings() {
            self.findings.extend(found.iter().cloned());
        }
        if self.keeps_cases() {
            self.cases.push(Case {
                file: file.to_string(),
                doc: call.doc.clone(),
                index: call.index,
                name: call.name.clone(),
                pointer: pointer.map(str::to_string),
                findings: found,
                valid: v.valid,
            });
        }
    }

    /// The `summary` record (`--stats`, and the `json` format's body).
    fn summary(&self) -> Value {
        json!({
            "type": "summary",
            "documents": self.documents,
            "skipped": self.skipped.iter()
                .map(|(f, why)| json!({"file": f, "why": why}))
                .collect::<Vec<_>>(),
            "conversations": self.conversations,
            "calls": self.calls,
            "valid": self.calls - self.invalid.min(self.calls),
            "invalid": self.invalid,
            "codes": self.codes,
            "calls_per_conversation": self.per_conversation.iter()
                .map(|(k, v)| (k.to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
            "tools": self.tools,
            // inputs that could not be read (the run ends with exit 2)
            "unreadable": crate::cli::common::unreadable().iter()
                .map(|(f, why)| json!({"file": f, "why": why}))
                .collect::<Vec<_>>(),
        })
    }

    /// What goes on stdout at the end, in the chosen format (`None`:
    /// nothing).
    pub fn finish(&self) -> Option<String> {
        match self.format.as_str() {
            "github" => Some(self.github()),
            "sarif" => Some(format!("{:#}\n", self.sarif())),
            "junit" => Some(self.junit()),
            "json" => {
                let mut v = self.summary();
                v["findings"] = self.findings.iter().map(finding_json).collect();
                Some(format!("{v}\n"))
            }
            _ if self.stats && !self.keep => Some(format!("{}\n", self.summary())),
            _ => None,
        }
    }

    /// GitHub Actions workflow commands, one per finding.
    fn github(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            out.push_str(&format!(
                "::{} file={},line={},col={},title={}::{}\n",
                if f.error { "error" } else { "warning" },
                gh_property(&f.file),
                f.line,
                f.column,
                gh_property(&format!("toolcall {}", f.code)),
                gh_data(&f.message)
            ));
        }
        out
    }

    /// A SARIF 2.1.0 log: one run, one result per finding.
    fn sarif(&self) -> Value {
        let mut rules: BTreeMap<&str, ()> = BTreeMap::new();
        for f in &self.findings {
            rules.insert(&f.code, ());
        }
        let rules: Vec<Value> = rules
            .keys()
            .map(|code| {
                json!({"id": code, "name": code.replace('-', ""),
                    "shortDescription": {"text": describe(code)}})
            })
            .collect();
        let results: Vec<Value> = self
            .findings
            .iter()
            .map(|f| {
                json!({
                    "ruleId": f.code,
                    "level": if f.error { "error" } else { "warning" },
                    "message": {"text": f.message},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": uri(&f.file)},
                        "region": {"startLine": f.line.max(1), "startColumn": f.column.max(1)}
                    }}]
                })
            })
            .collect();
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "toolcall",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules
                }},
                "results": results
            }]
        })
    }

    /// JUnit XML: a test suite per file, a test case per call, a
    /// `<failure>` per error.
    fn junit(&self) -> String {
        let mut suites: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        for c in &self.cases {
            suites.entry(&c.file).or_default().push(c);
        }
        let failures = self.cases.iter().filter(|c| !c.valid).count();
        let mut out = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"toolcall validate\" tests=\"{}\" failures=\"{failures}\">\n",
            self.cases.len()
        );
        for (file, cases) in suites {
            let failed = cases.iter().filter(|c| !c.valid).count();
            out.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\">\n",
                xml(file),
                cases.len()
            ));
            for c in cases {
                let name = match &c.pointer {
                    Some(p) => format!("{} {} {}", c.doc, p, c.name),
                    None => format!("{}#{} {}", c.doc, c.index, c.name),
                };
                out.push_str(&format!(
                    "    <testcase name=\"{}\" classname=\"{}\"",
                    xml(name.trim_end()),
                    xml(file)
                ));
                let errors: Vec<&Finding> = c.findings.iter().filter(|f| f.error).collect();
                if errors.is_empty() {
                    out.push_str("/>\n");
                    continue;
                }
                out.push_str(">\n");
                for f in errors {
                    out.push_str(&format!(
                        "      <failure type=\"{}\" message=\"{}\">{}:{}:{}: {}</failure>\n",
                        xml(&f.code),
                        xml(&f.message),
                        xml(&f.file),
                        f.line,
                        f.column,
                        xml(&f.message)
                    ));
                }
                out.push_str("    </testcase>\n");
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

fn issue_text(i: &Issue) -> String {
    if i.path.is_empty() {
        i.message.clone()
    } else {
        format!("{}: {}", i.path, i.message)
    }
}

fn finding_json(f: &Finding) -> Value {
    json!({"file": f.file, "line": f.line, "column": f.column, "code": f.code,
        "severity": if f.error { "error" } else { "warning" }, "message": f.message})
}

/// One line on what a code means (SARIF rules).
fn describe(code: &str) -> &'static str {
    match code {
        "TLP-001" => "the function name is missing or empty",
        "TLP-002" => "the arguments are not a usable JSON object",
        "TLP-003" => "the call's JSON cannot be read, even repaired",
        "TLP-004" => "the arguments fail the tool's JSON Schema",
        "TLP-005" => "the tool is not in the tools file",
        "TLP-006" => "retries exhausted",
        "TLP-007" => "a budget was exceeded",
        "TLP-008" => "the input does not fit together (no conversation, a bad line)",
        "TLP-009" => "a call is not answered before the next assistant turn",
        "TLP-010" => "a result answers no call",
        "TLP-011" => "a call id is used twice",
        "TLP-012" => "a call to a tool the conversation does not offer",
        "TLP-013" => "arguments that are a JSON string which does not parse",
        "TLP-014" => "a call left as text in an assistant's content",
        shapes::NO_TOOLS => "the conversation offers no tools: calls are checked for shape only",
        shapes::REPAIRED => "a call in the data had to be repaired to be read",
        _ => "toolcall finding",
    }
}

/// A file name as a SARIF artifact URI (relative paths stay relative).
fn uri(file: &str) -> String {
    let mut out = String::new();
    for b in file.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A workflow command's message, escaped as the runner reads it.
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped as the runner reads it.
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Text escaped for XML content and attributes.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // characters XML 1.0 cannot hold
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(gh_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(gh_data("x\ny"), "x%0Ay");
        assert_eq!(xml("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(uri("dir/a b.json"), "dir/a%20b.json");
    }
}
