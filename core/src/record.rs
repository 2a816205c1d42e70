//! The NDJSON records the tool writes (docs/records.md).

use crate::ndjson::{write_span, write_str, write_u64, write_value};
use crate::repair::Repair;
use serde::Serialize;

/// A byte range `[start, end)` into the document as read.
pub type Span = [u64; 2];

/// A tool call found in the input (`"type": "tool_call"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCall {
    /// Always `"tool_call"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The document it came from (`-` for stdin).
    pub doc: String,
    /// The call's position among the document's calls, from 0.
    pub index: usize,
    /// The provider's id, or a deterministic one derived from the call.
    pub id: String,
    /// The function name.
    pub name: String,
    /// The arguments: always a JSON object.
    pub arguments: Arguments,
    /// The format id the call was written in.
    pub format: &'static str,
    /// Where the call's markup lies in the document.
    pub span: Span,
    /// The call's markup exactly as written (lossy UTF-8).
    pub raw: String,
    /// Repairs applied to make the arguments parse.
    pub repairs: Vec<Repair>,
    /// Set when the call was drafted inside reasoning (`--reasoning-calls`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_reasoning: bool,
    /// The turn of a transcript the call lies in (`None` in a document
    /// with no turn markers: one reply).
    #[serde(flatten)]
    pub turn: Option<Turn>,
    /// Fields added by validation against a tools file.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl ToolCall {
    /// Appends the call as one compact JSON object (no newline), the same
    /// bytes as `serde_json::to_writer`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"type\":");
        write_str(out, self.kind);
        out.extend_from_slice(b",\"doc\":");
        write_str(out, &self.doc);
        out.extend_from_slice(b",\"index\":");
        write_u64(out, self.index as u64);
        out.extend_from_slice(b",\"id\":");
        write_str(out, &self.id);
        out.extend_from_slice(b",\"name\":");
        write_str(out, &self.name);
        out.extend_from_slice(b",\"arguments\":");
        self.arguments.write_json(out);
        out.extend_from_slice(b",\"format\":");
        write_str(out, self.format);
        out.extend_from_slice(b",\"span\":");
        write_span(out, self.span);
        out.extend_from_slice(b",\"raw\":");
        write_str(out, &self.raw);
        out.extend_from_slice(b",\"repairs\":");
        if self.repairs.is_empty() {
            out.extend_from_slice(b"[]");
        } else {
            // a Vec never refuses a write, and repairs are plain data
            let _ = serde_json::to_writer(&mut *out, &self.repairs);
        }
        if self.in_reasoning {
            out.extend_from_slice(b",\"in_reasoning\":true");
        }
        if let Some(t) = self.turn {
            t.write_fields(out);
        }
        for (key, value) in &self.extra {
            out.push(b',');
            write_str(out, key);
            out.push(b':');
            write_value(out, value);
        }
        out.push(b'}');
    }
}

/// A candidate call that could not be recovered (`"type": "error"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorRecord {
    /// Always `"error"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// A `TLP-00N` code.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// The document it came from.
    pub doc: String,
    /// The candidate's byte range.
    pub span: Span,
    /// The candidate's bytes (lossy UTF-8).
    pub raw: String,
    /// Byte offset of the fault in the document.
    pub offset: u64,
    /// 1-based line of the fault.
    pub line: u64,
    /// 1-based byte column of the fault.
    pub column: u64,
    /// What probably caused it, when recognisable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The turn of a transcript the candidate lies in, as for calls.
    #[serde(flatten)]
    pub turn: Option<Turn>,
}

impl ErrorRecord {
    /// An error about a whole document (a conversation, a JSONL line)
    /// `text`: its span covers all of it, its `raw` the first 512 bytes.
    pub fn whole(doc: &str, text: &[u8], code: &'static str, message: String) -> ErrorRecord {
        ErrorRecord {
            kind: "error",
            code,
            message,
            doc: doc.to_string(),
            span: [0, text.len() as u64],
            raw: crate::scan::lossy(&text[..text.len().min(512)]).into_owned(),
            offset: 0,
            line: 1,
            column: 1,
            hint: None,
            turn: None,
        }
    }
}

/// A turn of a transcript: its index in the document and its role, as
/// its header names it (`"turn"` and `"role"` on the records inside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// 0-based, counting the turn headers of the document.
    #[serde(rename = "turn")]
    pub index: u32,
    /// `system`, `user`, `assistant`, `tool`, … (see `formats::turns`).
    pub role: &'static str,
}

impl Turn {
    /// Appends `,"turn":N,"role":"R"`: the fields as serde writes them.
    pub fn write_fields(self, out: &mut Vec<u8>) {
        out.extend_from_slice(b",\"turn\":");
        write_u64(out, u64::from(self.index));
        out.extend_from_slice(b",\"role\":");
        write_str(out, self.role);
    }

    /// Appends the fields to a record already written (`out` ends with
    /// its closing brace); nothing when `turn` is `None`.
    pub fn append(turn: Option<Turn>, out: &mut Vec<u8>) {
        if let Some(t) = turn {
            if out.last() == Some(&b'}') {
                out.pop();
                t.write_fields(out);
                out.push(b'}');
            }
        }
    }
}

/// The kind of a segment of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentKind {
    /// Prose meant for the user.
    Text,
    /// Thinking content, markers included.
    Reasoning,
    /// A tool call's markup.
    ToolCall,
    /// Control tokens that delimit no call or reasoning (`<|eot_id|>`,
    /// `<|START_RESPONSE|>`, a stray `</tool_call>`): not text, not a call.
    Markup,
}

/// One piece of the document's exact tiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// What the bytes are.
    pub kind: SegmentKind,
    /// Where they are.
    pub span: Span,
}

/// A whole document separated into text, reasoning and calls (`"type": "split"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Split {
    /// Always `"split"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The document.
    pub doc: String,
    /// Text before the first call (all text when there is no call).
    pub text_before: String,
    /// Text after the last call.
    pub text_after: String,
    /// All text, with calls, reasoning and markup removed.
    pub text: String,
    /// The content of all reasoning spans.
    pub reasoning: String,
    /// The calls.
    pub tool_calls: Vec<ToolCall>,
    /// Candidates that could not be recovered.
    pub errors: Vec<ErrorRecord>,
    /// The exact tiling of the document.
    pub segments: Vec<Segment>,
}

/// A call's arguments: a JSON value (an object for every call the engine
/// finds), kept as the compact text it will be written as when that text
/// came straight from the input (`scan::compact`), and decoded
/// only when something asks for the value.
///
/// Most records are written and never looked into; for them the arguments
/// are never built as a `serde_json::Value`. Reading the value (`*args`,
/// `args.as_value()`) decodes it once; changing it (`&mut *args`) drops
/// the text, so what is written is always the current value.
#[derive(Clone, Default)]
pub struct Arguments {
    /// The compact JSON text, when the value has not been changed since.
    text: Option<String>,
    /// The value, decoded on first use when `text` is set.
    value: std::sync::OnceLock<serde_json::Value>,
}

impl Arguments {
    /// Arguments from compact JSON text that [`crate::scan::compact`]
    /// produced: decoding it gives a value whose compact writing is the
    /// text again.
    pub(crate) fn from_compact(text: String) -> Arguments {
        Arguments {
            text: Some(text),
            value: std::sync::OnceLock::new(),
        }
    }

    /// `{}`, allocating nothing and set up lazily: neither text nor value,
    /// which [`Arguments::as_value`] reads as an empty object.
    pub fn empty() -> Arguments {
        Arguments {
            text: None,
            value: std::sync::OnceLock::new(),
        }
    }

    /// The value, decoded from the kept text on first use.
    pub fn as_value(&self) -> &serde_json::Value {
        self.value.get_or_init(|| self.decoded())
    }

    /// The kept text decoded; an empty object when there is none
    /// ([`Arguments::empty`]: otherwise the value is set whenever the text
    /// is not).
    fn decoded(&self) -> serde_json::Value {
        // the text came from the compactor, which answers only for objects
        // serde_json reads
        self.text
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_else(|| serde_json::Value::Object(serde_json::Map::new()))
    }

    /// The value, to change: the kept text is dropped.
    pub fn value_mut(&mut self) -> &mut serde_json::Value {
        let value = match self.value.take() {
            Some(v) => v,
            None => self.decoded(),
        };
        self.text = None;
        self.value = std::sync::OnceLock::from(value);
        // set on the line above
        self.value.get_mut().expect("the value was just set")
    }

    /// The value, taken.
    pub fn into_value(mut self) -> serde_json::Value {
        self.as_value();
        self.value.take().unwrap_or(serde_json::Value::Null)
    }

    /// The object's entries (empty when the value is not an object).
    pub fn into_map(self) -> serde_json::Map<String, serde_json::Value> {
        match self.into_value() {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        }
    }

    /// The compact JSON text kept from the input, if any.
    pub fn compact_text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Appends the value as compact JSON: the kept text, or the value
    /// written out.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match &self.text {
            Some(text) => out.extend_from_slice(text.as_bytes()),
            None => write_value(out, self.as_value()),
        }
    }
}

impl From<serde_json::Value> for Arguments {
    fn from(value: serde_json::Value) -> Arguments {
        Arguments {
            text: None,
            value: std::sync::OnceLock::from(value),
        }
    }
}

impl From<serde_json::Map<String, serde_json::Value>> for Arguments {
    fn from(map: serde_json::Map<String, serde_json::Value>) -> Arguments {
        Arguments::from(serde_json::Value::Object(map))
    }
}

impl std::ops::Deref for Arguments {
    type Target = serde_json::Value;
    fn deref(&self) -> &serde_json::Value {
        self.as_value()
    }
}

impl std::ops::DerefMut for Arguments {
    fn deref_mut(&mut self) -> &mut serde_json::Value {
        self.value_mut()
    }
}

impl PartialEq for Arguments {
    fn eq(&self, other: &Arguments) -> bool {
        self.as_value() == other.as_value()
    }
}

impl PartialEq<serde_json::Value> for Arguments {
    fn eq(&self, other: &serde_json::Value) -> bool {
        self.as_value() == other
    }
}

impl std::fmt::Debug for Arguments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_value().fmt(f)
    }
}

impl Serialize for Arguments {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_value().serialize(s)
    }
}

/// Compact JSON, as a record carries it.
impl std::fmt::Display for Arguments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = Vec::new();
        self.write_json(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

/// A `validation` record: one call (or one broken candidate) judged
/// against the tools file, as `toolcall validate` writes it
/// (docs/records.md). The fields are borrowed from the call, its verdict
/// and its conversation; the optional ones are left out when absent.
#[derive(Debug, Serialize)]
pub struct Validation<'a> {
    /// Always `"validation"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The document's name.
    pub doc: &'a str,
    /// The call's index in its document.
    pub index: usize,
    /// The call's id (empty for a broken candidate).
    pub id: &'a str,
    /// The name the model wrote (empty when it wrote none).
    pub name: &'a str,
    /// Whether the call passed every check.
    pub valid: bool,
    /// The problems found, each with the place its diagnostic points at.
    pub errors: Vec<PlacedIssue<'a>>,
    /// The tool's display name (for a named call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<&'a str>,
    /// The call's risk level (for a named call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<&'static str>,
    /// Whether running it needs approval (for a named call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// The tool's summary template filled in, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<&'a str>,
    /// The arguments, for a call that has an id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<&'a serde_json::Value>,
    /// The format the call was written in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'a str>,
    /// The conversation turn it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
    /// The role of that turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'a str>,
    /// The JSON Pointer of the call in its conversation document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<&'a str>,
    /// The call was found in a message's text content, not in its
    /// structured tool calls.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_content: bool,
    /// Repairs made to the call (calls read from conversations).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub repairs: &'a [Repair],
    /// The line the record's first diagnostic points at (from 1).
    pub line: u64,
    /// The column it points at (from 1).
    pub column: u64,
    /// The attempts of a retry through the model (`--retry-cmd`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<&'a [crate::validate::retry::Attempt]>,
    /// Token usage summed over those attempts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<crate::validate::retry::Usage>,
    /// The model's last reply, when the retries ran out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_output: Option<&'a str>,
}

/// An issue of a [`Validation`] with the line and column its diagnostic
/// points at.
#[derive(Debug, Serialize)]
pub struct PlacedIssue<'a> {
    /// The issue's fields (`code`, `path`, `message`, `expected`,
    /// `actual`).
    #[serde(flatten)]
    pub issue: &'a crate::validate::Issue,
    /// The line (from 1).
    pub line: u64,
    /// The column (from 1).
    pub column: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::RepairKind;
    use proptest::prelude::*;

    fn call(doc: &str, name: &str, raw: &str, repairs: bool, reasoning: bool) -> ToolCall {
        let mut extra = serde_json::Map::new();
        if reasoning {
            extra.insert("valid".into(), serde_json::json!(false));
            extra.insert("errors".into(), serde_json::json!([{"path": raw}]));
        }
        ToolCall {
            kind: "tool_call",
            doc: doc.into(),
            index: raw.len(),
            id: format!("call_{name}"),
            name: name.into(),
            arguments: serde_json::json!({ "q": raw, "n": [1, 2.5, null], "b": {"c": true} })
                .into(),
            format: "hermes",
            span: [u64::MAX - 1, 7],
            raw: raw.into(),
            repairs: if repairs {
                vec![Repair {
                    kind: RepairKind::TrailingComma,
                    offset: 3,
                }]
            } else {
                Vec::new()
            },
            in_reasoning: reasoning,
            // the turn's fields, written by hand, against serde's
            turn: repairs.then_some(Turn {
                index: raw.len() as u32,
                role: "assistant",
            }),
            extra,
        }
    }

    proptest! {
        #[test]
        fn tool_calls_match_serde_json(
            doc in any::<String>(),
            name in any::<String>(),
            raw in "[ -~\\n\\t\\u{0}-\\u{1f}é日]{0,80}",
            repairs: bool,
            reasoning: bool,
        ) {
            let c = call(&doc, &name, &raw, repairs, reasoning);
            let mut v = Vec::new();
            c.write_json(&mut v);
            prop_assert_eq!(String::from_utf8(v).unwrap(), serde_json::to_string(&c).unwrap());
        }
    }
}
