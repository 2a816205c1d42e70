//! Judging one item: its verdict, diagnostics on stderr, a retry through
//! the model command, and its `validation` record.

use super::Run;
use crate::cli::retry::{self, Attempt};
use crate::cli::tools::Tools;
use crate::validate::diag::{self, Severity};
use crate::validate::items::{
    evaluate, failure_of, issue_offset, issue_positions, item_verdict, Conv, Item,
};
use crate::validate::messages;
use crate::validate::retry::Usage;
use crate::validate::{Issue, Verdict};
use crate::{Config, PlacedIssue, ToolCall, Validation};
use serde_json::Value;

/// A rendered diagnostic with its location in bold, its severity and code
/// in red (error) or yellow (warning) and its caret in green. `file` is the
/// escaped file name the diagnostic starts with.
pub(super) fn paint(rendered: &str, file: &str, sev: Severity) -> String {
    const BOLD: &str = "\x1b[1m";
    const RESET: &str = "\x1b[0m";
    let color = match sev {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
    };
    let Some(rest) = rendered.strip_prefix(file) else {
        return rendered.to_string();
    };
    // rest: ":LINE:COL: SEV[CODE]: MESSAGE\n…"
    let (Some(loc_end), Some(tag_end)) = (rest.find(": "), rest.find("]: ")) else {
        return rendered.to_string();
    };
    if tag_end < loc_end {
        return rendered.to_string();
    }
    let mut out = format!(
        "{BOLD}{file}{}{RESET}: {color}{}{RESET}:",
        &rest[..loc_end],
        &rest[loc_end + 2..=tag_end]
    );
    let after = &rest[tag_end + 2..];
    match after.rfind('^') {
        Some(caret) if after[caret..].trim_end() == "^" => {
            out.push_str(&after[..caret]);
            out.push_str("\x1b[1;32m^");
            out.push_str(RESET);
            out.push_str(&after[caret + 1..]);
        }
        _ => out.push_str(after),
    }
    out
}

impl Run<'_> {
    pub(super) fn judge(&mut self, mut item: Item, cfg: &Config) -> anyhow::Result<()> {
        let broken = item.broken.as_ref().map(|b| b.code);
        if broken.is_some_and(|c| self.args.allow.iter().any(|a| a == c)) {
            return Ok(());
        }
        // a refused document or a result without a call is no call
        // (TLP-008 also for a line of `tool_call` records that is none)
        self.counted =
            !item.refused_document && !matches!(broken, Some("TLP-008" | messages::ORPHAN_RESULT));
        if self.counted {
            self.total += 1;
        } else {
            self.other += 1;
        }
        if self.file != item.file {
            self.file.clone_from(&item.file);
        }
        let doc_tools = self.doc_tools.clone();
        let tools: &Tools = doc_tools.as_deref().unwrap_or(self.tools);
        let verdict = item_verdict(
            &mut item,
            tools.registry.as_ref(),
            &tools.policy,
            |call| tools.judge(call),
            &self.args.allow,
            self.args.tools.strict,
        );
        let pos = item
            .text
            .as_deref()
            .map(|t| t.position(item.offset))
            .unwrap_or(diag::Pos { line: 1, column: 1 });
        let diags = Diags {
            on: !self.args.no_diagnostics && !self.args.quiet && !self.args.retry.retry_prompt,
            colored: self.colored,
        };
        diags.print(&item, Severity::Warning, &verdict.warnings, &item.call);
        if verdict.valid {
            return self.write(&item.call, &verdict, pos, &[], None, item.conv.as_ref());
        }
        // the prompt names the place the first diagnostic points at
        let first = issue_positions(&verdict.errors, &item.call, &item)
            .first()
            .copied()
            .unwrap_or(pos);
        let failure = failure_of(&item, &verdict, first, tools.registry.as_ref());
        if self.args.retry.retry_prompt {
            if self.prompts > 0 {
                self.out.raw(b"\n")?;
            }
            self.out.raw(
                crate::validate::retry::prompt(self.template.as_deref(), &failure).as_bytes(),
            )?;
            self.prompts += 1;
            self.invalid += 1;
            return Ok(());
        }
        let Some(cmd) = self.args.retry.retry_cmd.clone() else {
            diags.print(&item, Severity::Error, &verdict.errors, &item.call);
            self.invalid += 1;
            let locs = issue_positions(&verdict.errors, &item.call, &item);
            return self.write(&item.call, &verdict, pos, &locs, None, item.conv.as_ref());
        };
        let doc = item.call.doc.clone();
        let retry_cfg = cfg.for_doc(&doc);
        let retried = retry::retry(
            &cmd,
            self.max_retries,
            self.limits,
            self.template.as_deref(),
            failure,
            |text| {
                let judge = |call: &mut ToolCall| tools.judge(call);
                evaluate(text, &retry_cfg, tools.registry.as_ref(), judge, &item.call)
            },
            |msg| tools.log(&doc, 1, msg),
        )?;
        self.write_retried(&item, verdict, retried, pos, diags)
    }

    /// Writes an invalid item after `--retry-cmd`: the model's fixed call,
    /// or the item with a TLP-006 error when the retries ran out.
    fn write_retried(
        &mut self,
        item: &Item,
        verdict: Verdict,
        retried: retry::Retried<(ToolCall, Verdict)>,
        pos: diag::Pos,
        diags: Diags,
    ) -> anyhow::Result<()> {
        let max = self.max_retries;
        match retried.outcome {
            Ok((call, v)) => {
                diags.print(item, Severity::Warning, &verdict.errors, &item.call);
                if diags.on {
                    crate::cli::to_stderr(&format!(
                        "{}:{}:{}: note: fixed by the model on attempt {} of {max}\n",
                        crate::cli::sanitize(&item.file),
                        pos.line,
                        pos.column,
                        retried.attempts.len()
                    ));
                }
                let mut call = call;
                call.index = item.call.index;
                call.doc = item.call.doc.clone();
                call.span = item.call.span;
                let extra = (&retried.attempts[..], retried.usage, None);
                self.write(&call, &v, pos, &[], Some(extra), item.conv.as_ref())
            }
            Err(last) => {
                let mut errors = verdict.errors.clone();
                let n = retried.attempts.len();
                errors.push(Issue {
                    code: "TLP-006",
                    path: String::new(),
                    message: format!(
                        "retries exhausted: {n} attempt{} failed; last: {}: {}",
                        if n == 1 { "" } else { "s" },
                        last.code,
                        last.errors.first().map(String::as_str).unwrap_or("")
                    ),
                    expected: "a valid call".into(),
                    actual: crate::validate::check::compact(
                        &Value::String(retried.last_output.clone()),
                        200,
                    ),
                });
                diags.print(item, Severity::Error, &errors, &item.call);
                self.invalid += 1;
                let locs = issue_positions(&errors, &item.call, item);
                let v = Verdict {
                    valid: false,
                    errors,
                    ..verdict
                };
                let extra = (
                    &retried.attempts[..],
                    retried.usage,
                    Some(retried.last_output.as_str()),
                );
                self.write(&item.call, &v, pos, &locs, Some(extra), item.conv.as_ref())
            }
        }
    }

    fn write(
        &mut self,
        call: &ToolCall,
        v: &Verdict,
        pos: diag::Pos,
        locs: &[diag::Pos],
        retry: Option<(&[Attempt], Usage, Option<&str>)>,
        conv: Option<&Conv>,
    ) -> anyhow::Result<()> {
        if self.args.retry.retry_prompt {
            return Ok(());
        }
        let errors: Vec<PlacedIssue> = v
            .errors
            .iter()
            .enumerate()
            .map(|(k, issue)| {
                let at = locs.get(k).copied().unwrap_or(pos);
                PlacedIssue {
                    issue,
                    line: at.line,
                    column: at.column,
                }
            })
            .collect();
        // the record points where its first diagnostic does
        let pos = locs.first().copied().unwrap_or(pos);
        let named = !call.name.is_empty();
        let rec = Validation {
            kind: "validation",
            doc: &call.doc,
            index: call.index,
            id: &call.id,
            name: &call.name,
            valid: v.valid,
            errors,
            tool_name: named.then_some(v.tool_name.as_str()),
            risk: named.then_some(v.risk.as_str()),
            requires_approval: named.then_some(v.requires_approval),
            summary: (!v.summary.is_empty()).then_some(v.summary.as_str()),
            arguments: (!call.id.is_empty()).then_some(&call.arguments),
            format: (!call.format.is_empty()).then_some(call.format),
            turn: conv.map(|c| c.turn).or(call.turn.map(|t| t.index as usize)),
            role: conv.map(|c| c.role.as_str()).or(call.turn.map(|t| t.role)),
            pointer: conv.and_then(|c| c.pointer.as_deref()),
            in_content: conv.is_some_and(|c| c.in_content),
            repairs: if conv.is_some() { &call.repairs } else { &[] },
            line: pos.line,
            column: pos.column,
            attempts: retry.map(|r| r.0),
            usage: retry.map(|r| r.1),
            last_output: retry.and_then(|r| r.2),
        };
        let counted = self.counted;
        let placed: Vec<(u64, u64)> = rec.errors.iter().map(|e| (e.line, e.column)).collect();
        self.report.call(
            &self.file,
            call,
            rec.pointer,
            v,
            &placed,
            (rec.line, rec.column),
            counted,
        );
        if self.report.records() {
            self.out.record(&rec)?;
        }
        Ok(())
    }
}

/// Whether diagnostics are printed on stderr, and in color.
#[derive(Clone, Copy)]
struct Diags {
    on: bool,
    colored: bool,
}

impl Diags {
    /// Prints a diagnostic for each issue of the item's call.
    fn print(self, item: &Item, sev: Severity, issues: &[Issue], call: &ToolCall) {
        if !self.on {
            return;
        }
        for i in issues {
            let off = issue_offset(i, call, item);
            let text = diag::render_in(&item.file, item.text.as_deref(), off, sev, i);
            if self.colored {
                crate::cli::to_stderr(&paint(&text, &crate::cli::sanitize(&item.file), sev));
            } else {
                crate::cli::to_stderr(&text);
            }
        }
    }
}
