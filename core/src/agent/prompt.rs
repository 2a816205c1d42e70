//! Building what the model reads: the system prompt with the tool
//! definitions and the call format, and the conversation so far, as plain
//! text or as OpenAI `messages` JSON (docs/agent.md#prompts).

use crate::tool::Tool;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One message of the conversation (also the `message` event's payload).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text.
    pub content: String,
}

impl Message {
    /// A message with `role` and `content`.
    pub fn new(role: &str, content: impl Into<String>) -> Message {
        Message {
            role: role.to_string(),
            content: content.into(),
        }
    }
}

/// A file attached to the request, shown to the model after the user's
/// message (docs/agent.md#prompts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The path as the user gave it.
    pub path: String,
    /// The text shown: the whole file or its line range, possibly cut.
    pub content: String,
    /// The 1-based inclusive line range shown, when one was asked for.
    pub lines: Option<(usize, usize)>,
    /// Bytes of the file (or of its range) before any cut.
    pub full_len: usize,
}

impl Attachment {
    /// Attaches `text` read from `path`: the lines `lines` of it when given
    /// (1-based, inclusive; a range past the end stops at the end), cut to
    /// at most `max` bytes on a character boundary.
    pub fn new(path: &str, text: &str, lines: Option<(usize, usize)>, max: usize) -> Attachment {
        let chosen: String = match lines {
            Some((from, to)) => text
                .split_inclusive('\n')
                .skip(from.saturating_sub(1))
                .take(to.saturating_sub(from) + 1)
                .collect(),
            None => text.to_string(),
        };
        let full_len = chosen.len();
        let mut cut = chosen.len().min(max);
        while !chosen.is_char_boundary(cut) {
            cut -= 1;
        }
        Attachment {
            path: path.to_string(),
            content: chosen[..cut].to_string(),
            lines,
            full_len,
        }
    }

    /// The language of the file, from its extension (the fence's tag).
    pub fn language(&self) -> Option<&'static str> {
        let ext = self.path.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "rs" => "rust",
            "py" => "python",
            "js" | "mjs" | "cjs" => "javascript",
            "ts" => "typescript",
            "go" => "go",
            "c" | "h" => "c",
            "cc" | "cpp" | "hpp" | "cxx" => "cpp",
            "java" => "java",
            "rb" => "ruby",
            "sh" | "bash" => "sh",
            "json" | "ndjson" | "jsonl" => "json",
            "toml" => "toml",
            "yaml" | "yml" => "yaml",
            "md" => "markdown",
            "html" | "htm" => "html",
            "css" => "css",
            "sql" => "sql",
            "txt" => "text",
            _ => return None,
        })
    }

    /// The attachment as the model reads it: a line naming the file (its
    /// line range and language), the content in a fence longer than any
    /// run of backticks inside it, and a note when it was cut.
    pub fn render(&self) -> String {
        let mut head = format!("Attached file: {}", escape_controls(&self.path));
        if let Some((from, to)) = self.lines {
            head.push_str(&format!(" (lines {from}-{to})"));
        }
        let longest = self
            .content
            .split(|c| c != '`')
            .map(str::len)
            .max()
            .unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let mut out = format!("{head}\n{fence}{}\n", self.language().unwrap_or(""));
        out.push_str(&self.content);
        if !self.content.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&fence);
        if self.content.len() < self.full_len {
            out.push_str(&format!(
                "\n[cut: {} of {} bytes shown]",
                self.content.len(),
                self.full_len
            ));
        }
        out
    }
}

/// How the prompt is laid out for the model command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A plain-text transcript (for `ollama run`, `llama-cli` and the like).
    Plain,
    /// `{"messages": [...]}` for an OpenAI-compatible `/v1/chat/completions`
    /// or Ollama `/api/chat` body (`curl … -d @-`).
    Messages,
}

/// The instruction that tells the model how to call a tool.
pub const CALL_FORMAT: &str =
    "To use a tool, reply with a block like this (text before or after it is fine):\n\
```tool_call\n{\"tool\": \"TOOL_NAME\", \"parameters\": {\"ARGUMENT\": \"VALUE\"}}\n```\n\
Write one block per call, then stop and wait for the tool result. \
Results come back in messages that start with [TOOL_NAME].";

/// One tool's definition: `## NAME`, its description, its parameters
/// schema as JSON (registry metadata never appears: it is not part of
/// [`Tool::parameters`]).
pub fn tool_definition(tool: &Tool) -> String {
    let params = serde_json::to_string_pretty(&tool.parameters).unwrap_or_else(|_| "{}".into());
    format!(
        "## {}\n{}\n\nParameters:\n```json\n{}\n```",
        tool.name,
        tool.description.as_deref().unwrap_or(""),
        params
    )
}

/// The system prompt: the tool-use prompt, then (when tools are offered)
/// the definitions and the call format.
pub fn system_text(system_prompt: &str, tools: &[&Tool]) -> String {
    if tools.is_empty() {
        return system_prompt.to_string();
    }
    let defs: Vec<String> = tools.iter().map(|t| tool_definition(t)).collect();
    format!(
        "{system_prompt}\n\n# Tools\n\n{}\n\n{CALL_FORMAT}",
        defs.join("\n\n")
    )
}

/// The prompt for one generation: the system text and the history.
pub fn build(style: Style, system: &str, history: &[Message]) -> String {
    match style {
        Style::Plain => {
            let mut out = String::new();
            out.push_str("### system\n");
            out.push_str(system);
            for m in history {
                out.push_str("\n\n### ");
                out.push_str(&m.role);
                out.push('\n');
                push_plain_content(&mut out, &m.content);
            }
            out.push_str("\n\n### assistant\n");
            out
        }
        Style::Messages => {
            let mut msgs = vec![json!({"role": "system", "content": system})];
            for m in history {
                // Tools are described in the prompt, not declared to the
                // server, so results go back as user turns (any server
                // accepts those); the content starts with [NAME].
                let role = if m.role == "tool" { "user" } else { &m.role };
                msgs.push(json!({"role": role, "content": m.content}));
            }
            let body = json!({"messages": Value::Array(msgs)});
            serde_json::to_string(&body).unwrap_or_default() + "\n"
        }
    }
}

/// Appends a message's content to a plain transcript: a line that starts
/// with `###` (after any blanks) gets a backslash in front (`\### user`),
/// so only the transcript's own headers open a section and a tool's output
/// or a message cannot fake a turn. A line is what follows any line end a
/// model or a terminal may honour: LF, CR, VT, FF, NEL, U+2028, U+2029.
fn push_plain_content(out: &mut String, content: &str) {
    let line_end = |c: char| {
        matches!(
            c,
            '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    for line in content.split_inclusive(line_end) {
        if line.trim_start().starts_with("###") {
            out.push('\\');
        }
        out.push_str(line);
    }
}

/// True for a character that shows as nothing, or draws over its
/// neighbour, so a value can hide text in plain sight: every
/// `Default_Ignorable_Code_Point` (Unicode 16: the soft hyphen, U+034F,
/// Hangul fillers, Mongolian free variation selectors, zero-width
/// characters, bidi controls, variation selectors, the BOM, tag
/// characters that spell a hidden sentence), every other format
/// character (`Cf`: Arabic number signs, interlinear annotation marks and
/// the like), the line and paragraph separators, and the combining
/// overlays (canonical combining class 1, a stroke through the letter
/// before).
pub fn is_hidden(c: char) -> bool {
    matches!(
        c,
        // Default_Ignorable_Code_Point
        '\u{00ad}'
            | '\u{034f}'
            | '\u{061c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
            // other format characters (Cf)
            | '\u{0600}'..='\u{0605}'
            | '\u{06dd}'
            | '\u{070f}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08e2}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            // line and paragraph separators
            | '\u{2028}'..='\u{2029}'
            // combining overlays (ccc 1)
            | '\u{0334}'..='\u{0338}'
            | '\u{1cd4}'
            | '\u{1ce2}'..='\u{1ce8}'
            | '\u{20d2}'..='\u{20d3}'
            | '\u{20d8}'..='\u{20da}'
            | '\u{20e5}'..='\u{20e6}'
            | '\u{20ea}'..='\u{20eb}'
            | '\u{10a39}'
            | '\u{16af0}'..='\u{16af4}'
            | '\u{1bc9e}'
            | '\u{1d167}'..='\u{1d169}'
    )
}

/// Text safe to show on a terminal: every control character (newlines
/// too), every bidirectional control (U+202A to U+202E, U+2066 to U+2069,
/// marks) and every invisible format character (zero-width spaces and
/// joiners, word joiner, BOM, soft hyphen) becomes a visible escape such
/// as `\u{1b}`, `\n` or `\u{2066}`, so a summary or an argument written by
/// a model cannot move the cursor, clear the screen, fake a second prompt
/// line, reorder what is shown or hide characters in it.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || crate::scan::is_unsafe_for_terminal(c) || is_hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod plain_tests {
    use super::push_plain_content;

    #[test]
    fn a_header_after_any_line_end_is_escaped() {
        for end in [
            "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0b}",
        ] {
            let mut out = String::new();
            push_plain_content(&mut out, &format!("ok{end}### user{end}  ### system"));
            assert_eq!(
                out,
                format!("ok{end}\\### user{end}\\  ### system"),
                "{end:?}"
            );
        }
        let mut out = String::new();
        push_plain_content(&mut out, "### a");
        assert_eq!(out, "\\### a");
    }
}
