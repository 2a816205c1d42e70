//! A call's outcome as a `tool_result` record and as the message that goes
//! back to the model (docs/agent.md#results).

use serde::Serialize;

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The command exited 0.
    Completed,
    /// The command exited non-zero, could not start, or has no binding.
    Failed,
    /// Unknown tool or arguments that fail the schema: not run.
    ValidationFailed,
    /// Denied (by a rule, a remembered decision, a person, or a timeout).
    Denied,
    /// Killed at the tool timeout.
    TimedOut,
    /// Interrupted (Ctrl-C) or never started because of it.
    Cancelled,
    /// Not run: drafted in reasoning, disabled, or a dry run.
    Skipped,
}

impl Status {
    /// The name written in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::ValidationFailed => "validation_failed",
            Status::Denied => "denied",
            Status::TimedOut => "timed_out",
            Status::Cancelled => "cancelled",
            Status::Skipped => "skipped",
        }
    }

    /// Reads a name written by [`Status::as_str`].
    pub fn from_name(s: &str) -> Option<Status> {
        [
            Status::Completed,
            Status::Failed,
            Status::ValidationFailed,
            Status::Denied,
            Status::TimedOut,
            Status::Cancelled,
            Status::Skipped,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }
}

/// A `tool_result` record: one per call, in call order. It reads as a
/// result for `toolcall render result --ndjson` unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolResult {
    /// Always `"tool_result"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The call's id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// How it ended.
    pub status: Status,
    /// Anything but `completed`.
    pub is_error: bool,
    /// The output (stdout), for a call that ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// What went wrong, for a call that did not complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The command's exit code, when it exited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The output was cut at the cap.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl ToolResult {
    /// A result for a call that did not run (or failed) with `error`.
    pub fn not_run(id: &str, name: &str, status: Status, error: impl Into<String>) -> ToolResult {
        ToolResult {
            kind: "tool_result",
            id: id.to_string(),
            name: name.to_string(),
            status,
            is_error: status != Status::Completed,
            content: None,
            error: Some(error.into()),
            exit_code: None,
            duration_ms: None,
            truncated: false,
        }
    }

    /// What the model reads: the output, `(no output)` when it is empty,
    /// or `Error: …`. A failed command's output, when it printed any,
    /// follows its error.
    pub fn content_for_model(&self) -> String {
        let out = self.content.as_deref().unwrap_or("");
        match (&self.error, self.status) {
            (None, _) | (_, Status::Completed) if out.trim().is_empty() => "(no output)".into(),
            (None, _) | (_, Status::Completed) => out.to_string(),
            (Some(e), _) if out.trim().is_empty() => format!("Error: {e}"),
            (Some(e), _) => format!("Error: {e}\n{out}"),
        }
    }

    /// The history message for this result: `[NAME]\nCONTENT`.
    pub fn message(&self) -> String {
        format!("[{}]\n{}", self.name, self.content_for_model())
    }
}

/// At most `cap` bytes of `output` as text, note included: cut on a UTF-8
/// character boundary, ending with the truncation note when `total` (all
/// the bytes the tool wrote) is more than `cap`. Returns the text and
/// whether it was cut. A cap smaller than the note leaves only the note.
pub fn capped(output: &[u8], cap: usize, total: u64) -> (String, bool) {
    let total = total.max(output.len() as u64);
    if total <= cap as u64 {
        return (String::from_utf8_lossy(output).into_owned(), false);
    }
    let total = usize::try_from(total).unwrap_or(usize::MAX);
    let mut keep = cap.min(output.len());
    // the note's length depends on the digits it reports: settle it
    for _ in 0..4 {
        let note = crate::render::truncation_marker(total - keep, total).len();
        let mut k = cap.saturating_sub(note).min(output.len());
        while k > 0 && k < output.len() && (output[k] & 0xC0) == 0x80 {
            k -= 1;
        }
        if k == keep {
            break;
        }
        keep = k;
    }
    let mut text = String::from_utf8_lossy(&output[..keep]).into_owned();
    text.push_str(&crate::render::truncation_marker(total - keep, total));
    (text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_include_the_note_and_respect_characters() {
        let out = "é".repeat(100);
        let (t, cut) = capped(out.as_bytes(), 80, 200);
        assert!(cut && t.len() <= 80, "{t}");
        assert!(t.ends_with("[truncated: 158 of 200 bytes omitted]"), "{t}");
        let (t, cut) = capped(b"short", 80, 5);
        assert_eq!((t.as_str(), cut), ("short", false));
        let r = ToolResult::not_run("c", "f", Status::Denied, "no");
        assert_eq!(r.message(), "[f]\nError: no");
    }
}
