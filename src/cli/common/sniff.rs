//! Telling a tools file (tool definitions) from model output, so that one
//! given as input is refused or skipped instead of read as calls.

/// Largest file looked at as a possible tools file given as input: tools
/// files are kilobytes; model output that large is streamed as it is.
pub(super) const TOOLS_SNIFF: u64 = 4 << 20;

/// Whether `path` (or stdin for `-`) is a regular file of at most
/// `TOOLS_SNIFF` bytes: such a file is read whole before parsing (a pipe
/// or a terminal never is, so a live stream is parsed as it arrives).
pub fn small_regular_file(path: &std::path::Path) -> bool {
    let meta = if path.as_os_str() == "-" {
        stdin_metadata()
    } else {
        std::fs::metadata(path).ok()
    };
    meta.is_some_and(|m| m.is_file() && m.len() <= TOOLS_SNIFF)
}

#[cfg(unix)]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    std::fs::File::from(fd).metadata().ok()
}

#[cfg(not(unix))]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    None
}

/// A tools file (tool definitions, not calls) given where model output is
/// expected is refused with a hint, instead of its definitions being read
/// as calls: `toolcall parse tools.json reply.txt` meant `--tools`.
pub fn refuse_tools_file(name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    if bytes.len() as u64 <= TOOLS_SNIFF && looks_like_tools(bytes) {
        let file = if name == "-" { "FILE" } else { name };
        anyhow::bail!(
            "{name}: this is a tools file (tool definitions with JSON Schemas), not model \
             output; did you mean --tools {file}?"
        );
    }
    Ok(())
}

/// True for a JSON array of tool definitions, or an object whose `tools`
/// is one (an MCP `tools/list` result, also inside a JSON-RPC response; a
/// request body with no messages yet) and that carries no text. A definition has a name and a parameter schema (`parameters`,
/// `inputSchema` or `input_schema`, on it or on its `function`) that is an
/// object schema with `properties`; call arguments never look like that.
pub fn looks_like_tools(bytes: &[u8]) -> bool {
    use serde_json::Value;
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if !matches!(first, Some(b'[' | b'{')) {
        return false;
    }
    let Ok(v) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    fn is_schema(v: Option<&Value>) -> bool {
        v.is_some_and(|s| {
            s.get("type").and_then(Value::as_str) == Some("object")
                && s.get("properties").is_some_and(Value::is_object)
        })
    }
    fn is_definition(t: &Value) -> bool {
        let inner = t.get("function").filter(|f| f.is_object()).unwrap_or(t);
        inner.get("name").is_some_and(Value::is_string)
            && inner.get("arguments").is_none()
            && ["parameters", "inputSchema", "input_schema"]
                .iter()
                .any(|k| is_schema(inner.get(*k)))
    }
    fn tools_list(v: &Value) -> Option<&Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            Value::Object(o) => {
                // a JSON-RPC response around a tools/list result
                if let Some(result) = o.get("result").filter(|r| r.is_object()) {
                    return tools_list(result);
                }
                // a request or a reply that carries text is not a tools file
                // (a request body with no messages yet is)
                const TEXT: [&str; 8] = [
                    "messages",
                    "choices",
                    "message",
                    "output",
                    "response",
                    "content",
                    "input",
                    "conversations",
                ];
                let empty = |v: &Value| v.as_array().is_some_and(Vec::is_empty);
                if TEXT.iter().any(|k| o.get(*k).is_some_and(|v| !empty(v))) {
                    return None;
                }
                o.get("tools").and_then(Value::as_array)
            }
            _ => None,
        }
    }
    tools_list(&v).is_some_and(|list| !list.is_empty() && list.iter().all(is_definition))
}
