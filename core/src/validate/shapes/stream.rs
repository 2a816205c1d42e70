//! One JSON document that is one conversation, read a message at a time
//! as it is parsed (issue 43's one-document case).
//!
//! A document held whole as a parsed value costs some 20 to 30 times its
//! size; the conversation read from it costs its entries only. So the
//! document's message list (`messages`, or a ShareGPT `conversations`)
//! is deserialized an element at a time (serde's `DeserializeSeed` over
//! the array), each message handed to a [`messages::Incremental`] (the
//! reader [`messages::read_owned`] uses for a document parsed whole) and
//! dropped. The other keys of the document (`model`, `tools`, …) are
//! small and kept.
//!
//! The shape is decided from what the parse has seen, so that the
//! transcript is the one [`super::find`] and [`super::read`] give the
//! document parsed whole, record for record:
//!
//! * a key some shape before `chat` in [`SHAPES`] reads at the top
//!   (`request`, `contents`, `input`, `steps`, …), a second list, or a
//!   list element that such a shape could read (no string `role`, typed
//!   `parts`, Vercel AI SDK, Goose or Bedrock blocks) stops the parse;
//! * at the end the shapes before `chat` are asked about the document
//!   without its messages (none may claim it), and `chat` must read it
//!   in the shape the list was read in;
//! * tools whose names hold spaces (their calls are rewritten in the
//!   texts before they are read) stop it too.
//!
//! A stopped read gives `None`: the caller parses the document whole, as
//! before, so every document gives the records it gave. What is held
//! while the list is read is one message, the entries, one role per turn
//! and the first system message (where a system prompt's tools are
//! looked for).

use super::{chat_here, local, remapped, SHAPES};
use crate::config::Config;
use crate::validate::messages::{self, Incremental, Shape, Transcript};
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Top-level keys a shape before `chat` in [`SHAPES`] reads (a recording,
/// a batch result, a When2Call row, a LangSmith run, smolagents steps,
/// Gemini contents, an input/output row, a BFCL row, a Gemini CLI
/// session, an opencode part): a document holding one is read whole.
const OTHER_SHAPES: &[&str] = &[
    "request",
    "response",
    "custom_id",
    "question",
    "answers",
    "correct_answer",
    "run_type",
    "inputs",
    "outputs",
    "child_runs",
    "steps",
    "contents",
    "input",
    "output",
    "ground_truth",
    "sessionId",
    "messageID",
    "toolConfig",
];

/// Why a parse stopped (never shown: the document is then read whole).
const UNDECIDED: &str = "not a message list read a message at a time";

/// The one conversation of the JSON document `bytes` (an object with a
/// `messages` list, or a ShareGPT `conversations` list), read with `cfg`
/// a message at a time as it is parsed: the transcript [`super::find`]
/// and [`super::read_owned`] give the document parsed whole. `None` when
/// the document is not JSON, not such an object, or could be another
/// shape (see the module's documentation): the caller reads it whole.
pub fn stream(bytes: &[u8], cfg: &Config) -> Option<Transcript> {
    let mut st = State {
        cfg,
        skeleton: Map::new(),
        list: None,
        system: None,
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Top(&mut st).deserialize(&mut de).ok()?;
    de.end().ok()?;
    let (shape, inc) = st.list.take()?;
    let key = match shape {
        Shape::ShareGpt => "conversations",
        _ => "messages",
    };
    // the list's place holds its first system message, where
    // `system_text` looks for a system prompt's tools
    let first: Vec<Value> = st.system.take().into_iter().collect();
    st.skeleton.insert(key.into(), Value::Array(first));
    let doc = Value::Object(st.skeleton);
    // what the document read whole is: no shape before `chat`, then `chat`
    // in the shape the list was read in
    for (name, detect) in SHAPES {
        if *name == "chat" {
            break;
        }
        if detect(&doc, "").is_some() {
            return None;
        }
    }
    let found = chat_here(&doc, "")?;
    if messages::sniff(&doc) != Some(shape) {
        return None;
    }
    let t = local(&found, Some(doc), Some(inc), cfg)?;
    Some(remapped(&found, t))
}

/// Where the message list of a document [`stream`] would read opens
/// (the offset of its `[`), decided from the document's first bytes: the
/// document is an object whose first `messages` or `conversations` key
/// holds a list, and no key before it is one another shape reads at the
/// top. The keys before the list must be whole in `bytes`; `None` else.
/// `validate` reads a document larger than `--max-conversation` a message
/// at a time when it opens so (what [`stream`] then holds is the
/// document's bytes and one message at a time).
pub fn list_opens(bytes: &[u8]) -> Option<usize> {
    use messages::{value_end, ws};
    let mut i = ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i = ws(bytes, i + 1);
    loop {
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = value_end(bytes, i)?;
        let key: String = serde_json::from_slice(bytes.get(i..key_end)?).ok()?;
        i = ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = ws(bytes, i + 1);
        if OTHER_SHAPES.contains(&key.as_str()) {
            return None;
        }
        if matches!(key.as_str(), "messages" | "conversations") {
            return (bytes.get(i) == Some(&b'[')).then_some(i);
        }
        i = ws(bytes, value_end(bytes, i)?);
        match bytes.get(i) {
            Some(b',') => i = ws(bytes, i + 1),
            _ => return None,
        }
    }
}

/// The size in bytes of the largest element of the list opening at
/// `open` (a [`list_opens`] offset) in `bytes`: what one message costs
/// while [`stream`] parses it whole. `None` when the list does not end.
pub fn largest_element(bytes: &[u8], open: usize) -> Option<usize> {
    use messages::{value_end, ws};
    let mut i = ws(bytes, open + 1);
    let mut largest = 0usize;
    if bytes.get(i) == Some(&b']') {
        return Some(0);
    }
    loop {
        let end = value_end(bytes, i)?;
        largest = largest.max(end - i);
        i = ws(bytes, end);
        match bytes.get(i)? {
            b',' => i = ws(bytes, i + 1),
            b']' => return Some(largest),
            _ => return None,
        }
    }
}

/// What a document's parse has kept.
struct State<'c> {
    cfg: &'c Config,
    /// The document's keys but its list, in order.
    skeleton: Map<String, Value>,
    /// The list being read, and its shape.
    list: Option<(Shape, Incremental<'c>)>,
    /// The list's first message whose role is `system` or `developer`.
    system: Option<Value>,
}

/// The document: an object, its list read by [`List`].
struct Top<'s, 'c>(&'s mut State<'c>);

impl<'de> DeserializeSeed<'de> for Top<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Top<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let st = self.0;
        while let Some(key) = map.next_key::<String>()? {
            if OTHER_SHAPES.contains(&key.as_str()) {
                return Err(A::Error::custom(UNDECIDED));
            }
            let shape = match key.as_str() {
                "messages" => Shape::Chat,
                "conversations" => Shape::ShareGpt,
                _ => {
                    // as serde_json's `Value` keeps a repeated key: the last
                    // value, in the first one's place
                    let v = map.next_value::<Value>()?;
                    st.skeleton.insert(key, v);
                    continue;
                }
            };
            if st.list.is_some() {
                // a second list (or the same key twice): read whole
                return Err(A::Error::custom(UNDECIDED));
            }
            let inc = Incremental::new(shape, st.cfg).ok_or_else(|| A::Error::custom(UNDECIDED))?;
            st.list = Some((shape, inc));
            map.next_value_seed(List(&mut *st))?;
            // its place in the document's order (filled at the end)
            st.skeleton.insert(key, Value::Null);
        }
        Ok(())
    }
}

/// The list: each element parsed, read and dropped.
struct List<'s, 'c>(&'s mut State<'c>);

impl<'de> DeserializeSeed<'de> for List<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for List<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let st = self.0;
        let Some((shape, inc)) = st.list.as_mut() else {
            return Err(A::Error::custom(UNDECIDED));
        };
        while let Some((mut m, calls)) = seq.next_element_seed(Message)? {
            if !plain(*shape, &m) {
                return Err(A::Error::custom(UNDECIDED));
            }
            let calls = match calls {
                // a message read a call at a time: what every other reader
                // of the message sees in the list's place is its first call
                Some(calls) if *shape == Shape::Chat && !is_system(&m) && calls.len() > 1 => {
                    let first = one_call(calls[0]).map_err(A::Error::custom)?;
                    m["tool_calls"] = Value::Array(vec![first]);
                    inc.push_calls(m, calls.into_iter().map(one_call))
                        .map_err(A::Error::custom)?;
                    continue;
                }
                other => other,
            };
            if let Some(calls) = calls {
                let list = calls
                    .into_iter()
                    .map(one_call)
                    .collect::<Result<Vec<Value>, _>>()
                    .map_err(A::Error::custom)?;
                m["tool_calls"] = Value::Array(list);
            }
            if st.system.is_none() && is_system(&m) {
                st.system = Some(m.clone());
            }
            inc.push(m);
        }
        Ok(())
    }
}

/// The deepest a call may nest to parse alone as it parses in its
/// document (serde_json's limit of 128 levels, less the document's
/// object, its list, the message and its `tool_calls` list).
const CALL_DEPTH: usize = 124;

/// One call of a message's `tool_calls`, parsed from its text; an error
/// when it nests deeper than it could in its document (so that the
/// document is read whole, as before).
fn one_call(raw: &RawValue) -> Result<Value, String> {
    let text = raw.get();
    if text.len() > 2 * CALL_DEPTH && depth(text.as_bytes()) > CALL_DEPTH {
        return Err(UNDECIDED.to_string());
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// How deep the JSON text `b` nests (strings skipped).
fn depth(b: &[u8]) -> usize {
    let (mut d, mut most, mut i) = (0usize, 0usize, 0usize);
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                i += 1;
                while let Some(&c) = b.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                continue;
            }
            b'[' | b'{' => {
                d += 1;
                most = most.max(d);
            }
            b']' | b'}' => d = d.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    most
}

/// One message: its keys parsed as serde_json's `Value` parses them, but
/// a `tool_calls` list, whose elements are kept as their text in the
/// document (and the list's place holds `null`).
struct Message;

/// A message and the texts of its `tool_calls` list.
type Parsed<'de> = (Value, Option<Vec<&'de RawValue>>);

impl<'de> DeserializeSeed<'de> for Message {
    type Value = Parsed<'de>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Parsed<'de>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Message {
    type Value = Parsed<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parsed<'de>, A::Error> {
        let mut m = Map::new();
        let mut calls = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "tool_calls" {
                if m.contains_key("tool_calls") {
                    // the same key twice: read whole
                    return Err(A::Error::custom(UNDECIDED));
                }
                let raw: &'de RawValue = map.next_value()?;
                let text: &'de str = raw.get();
                if text.starts_with('[') {
                    let list: Vec<&'de RawValue> =
                        serde_json::from_str(text).map_err(A::Error::custom)?;
                    calls = Some(list);
                    m.insert(key, Value::Null);
                } else {
                    let v: Value = serde_json::from_str(text).map_err(A::Error::custom)?;
                    m.insert(key, v);
                }
                continue;
            }
            let v = map.next_value::<Value>()?;
            m.insert(key, v);
        }
        Ok((Value::Object(m), calls))
    }
}

/// Whether `m` is a message no shape before `chat` reads a list holding
/// it as: an object (a ShareGPT turn); for a `messages` list, one with a
/// string `role` (not smolagents' `tool-call` / `tool-response`), no
/// `parts` (Vercel AI SDK UI messages, opencode), and a `content` that is
/// no list, or a list of typed blocks none of them a Vercel AI SDK
/// `tool-call` / `tool-result` or a Goose `toolRequest` / `toolResponse`
/// (untyped blocks are Bedrock's), and no text holding an Open WebUI
/// `<details type="tool_calls">` block.
fn plain(shape: Shape, m: &Value) -> bool {
    let Some(o) = m.as_object() else {
        return false;
    };
    if shape == Shape::ShareGpt {
        return true;
    }
    let role = o
        .get("role")
        .and_then(Value::as_str)
        .is_some_and(|r| !matches!(r, "tool-call" | "tool-response"));
    let typed = |b: &Value| {
        b.get("type").and_then(Value::as_str).is_some_and(|t| {
            !matches!(
                t,
                "tool-call" | "tool-result" | "toolRequest" | "toolResponse"
            )
        })
    };
    let content = match o.get("content") {
        Some(Value::Array(blocks)) => !blocks.is_empty() && blocks.iter().all(typed),
        Some(Value::String(text)) => !text.contains(super::agents::OWUI_OPEN),
        _ => true,
    };
    role && content && !o.contains_key("parts")
}

/// Whether `m` is a system prompt's message, as `system_text` finds one.
fn is_system(m: &Value) -> bool {
    matches!(
        m.get("role")
            .or_else(|| m.get("from"))
            .and_then(Value::as_str),
        Some("system" | "developer")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_known_to_open_from_the_first_bytes() {
        let doc = br#"{"model":"m","tools":[{"a":{"b":[1,"]"]}}], "messages" : [{"role":"user","content":"x"},{"role":"assistant","content":"yy"}]}"#;
        let open = list_opens(doc).expect("opens");
        assert_eq!(doc[open], b'[');
        assert_eq!(
            largest_element(doc, open),
            Some(r#"{"role":"assistant","content":"yy"}"#.len())
        );
        // cut before the list: not known
        assert_eq!(list_opens(&doc[..20]), None);
        // cut inside the list: known, with no largest element
        assert!(list_opens(&doc[..open + 5]).is_some());
        assert_eq!(largest_element(&doc[..open + 5], open), None);
        assert!(list_opens(br#"{"conversations":[]}"#).is_some());
        assert_eq!(largest_element(br#"{"conversations":[ ]}"#, 17), Some(0));
        for other in [
            &br#"{"input":[],"messages":[]}"#[..],
            br#"{"messages":{"a":1}}"#,
            br#"[{"messages":[]}]"#,
            br#"{"request":{"messages":[]}}"#,
        ] {
            assert_eq!(
                list_opens(other),
                None,
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }

    /// The transcripts of `bytes` parsed whole, as `validate` read a
    /// document before it was streamed.
    fn whole(bytes: &[u8], cfg: &Config) -> Vec<Transcript> {
        let Ok(v) = serde_json::from_slice::<Value>(bytes) else {
            return Vec::new();
        };
        super::super::find_owned(v, None, true)
            .into_iter()
            .filter_map(|f| super::super::read_owned(f, cfg))
            .collect()
    }

    /// `bytes` read a message at a time gives what it gives parsed whole
    /// (when it is read so); whether it was.
    fn same(bytes: &[u8], what: &str) -> bool {
        let cfg = Config {
            doc: what.to_string(),
            ..Config::default()
        };
        let Some(t) = stream(bytes, &cfg) else {
            return false;
        };
        let w = whole(bytes, &cfg);
        assert_eq!(w.len(), 1, "{what}: one conversation");
        assert_eq!(format!("{t:?}"), format!("{:?}", w[0]), "{what}");
        true
    }

    /// Every document of the message fixtures and the conformance data
    /// (and every line of their JSONL files) read a message at a time is
    /// the document read whole, and the plain ones are read so.
    #[test]
    fn a_streamed_document_reads_as_the_whole_document() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let (mut streamed, mut docs) = (0, 0);
        for dir in [
            "fixtures/messages",
            "tests/conformance/data",
            "fixtures/convert",
        ] {
            let Ok(list) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            let mut paths: Vec<_> = list.filter_map(|e| Some(e.ok()?.path())).collect();
            paths.sort();
            for path in paths {
                let name = path.display().to_string();
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                let mut pieces = vec![bytes.clone()];
                if name.ends_with(".jsonl") {
                    pieces = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                }
                for piece in pieces {
                    docs += 1;
                    streamed += usize::from(same(&piece, &name));
                }
            }
        }
        assert!(docs > 100, "{docs} documents");
        assert!(streamed > 30, "{streamed} of {docs} documents streamed");
    }

    /// Documents that start as plain messages and turn out to be another
    /// shape (a later element, a later key, tools whose names have
    /// spaces) are not read a message at a time, or read as they are
    /// whole.
    #[test]
    fn a_document_decided_late_reads_as_the_whole_document() {
        let user = r#"{"role":"user","content":"hi"}"#;
        let cases = [
            // an AI SDK tool part after plain messages
            format!(
                r#"{{"messages":[{user},{{"role":"assistant","content":[{{"type":"tool-call","toolCallId":"a","toolName":"f","input":{{}}}}]}}]}}"#
            ),
            // a Goose block
            format!(
                r#"{{"messages":[{user},{{"role":"assistant","created":1,"content":[{{"type":"toolRequest","id":"a","toolCall":{{"status":"success","value":{{"name":"f","arguments":{{}}}}}}}}]}}]}}"#
            ),
            // Bedrock blocks and its tool configuration after the list
            r#"{"messages":[{"role":"user","content":[{"text":"hi"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"f","input":{}}}]}],"toolConfig":{}}"#.to_string(),
            // ShareGPT turns beside the messages: ShareGPT is read
            format!(r#"{{"messages":[{user}],"conversations":[{{"from":"human","value":"x"}}]}}"#),
            // tools after the list, one name with spaces
            format!(
                r#"{{"messages":[{user},{{"role":"assistant","content":"[Get Weather(city=\"Paris\")]"}}],"tools":[{{"name":"Get Weather","parameters":{{}}}}]}}"#
            ),
            // an empty content list (Bedrock reads untyped blocks)
            r#"{"messages":[{"role":"user","content":[]}],"toolConfig":{}}"#.to_string(),
            // a role that is not a string
            r#"{"messages":[{"role":5,"content":"x"}]}"#.to_string(),
            // the list twice: the last one counts
            format!(
                r#"{{"messages":[{user}],"messages":[{{"role":"assistant","tool_calls":[{{"function":{{"name":"f","arguments":"{{}}"}}}}]}}]}}"#
            ),
            // not JSON after the list
            format!(r#"{{"messages":[{user}], x}}"#),
            // a system prompt declaring tools, after other messages
            format!(
                r#"{{"messages":[{user},{{"role":"system","content":"<tools>[{{\"name\":\"f\",\"parameters\":{{}}}}]</tools>"}},{{"role":"assistant","content":"<tool_call>{{\"name\":\"g\",\"arguments\":{{}}}}</tool_call>"}}]}}"#
            ),
        ];
        for (k, doc) in cases.iter().enumerate() {
            same(doc.as_bytes(), &format!("case {k}"));
        }
        // a plain one is read a message at a time
        let plain = format!(
            r#"{{"model":"m","messages":[{user},{{"role":"assistant","content":null,"tool_calls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}]}}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{{}}}}}}]}}"#
        );
        assert!(same(plain.as_bytes(), "plain"));
        // the system prompt's tools are the conversation's
        assert!(same(cases[9].as_bytes(), "system"));
    }
}
