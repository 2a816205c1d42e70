//! `<invoke name="NAME">` blocks with `<parameter name="K">V</parameter>`
//! children (MiniMax-M2) or parameters named by their tags, each tag
//! possibly behind MiniMax-M3's namespace token `]<]minimax[>[`.

use super::json::json_body;
use crate::call::{strip_value_framing, ParsedCall};
use crate::formats::{BlockEnd, BlockResult, FormatId, ParseCx};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// MiniMax-M3's namespace token, skipped wherever it appears between tags.
pub const NS: &[u8] = b"]<]minimax[>[";

/// One `<invoke>` read from a block.
pub struct Invoke {
    /// The function name (may be empty).
    pub name: String,
    /// The arguments.
    pub arguments: Map<String, Value>,
    /// End of the invoke's markup.
    pub end: usize,
    /// Closed by `</invoke>`, or its parameters all closed.
    pub complete: bool,
}

/// Skips white space and namespace tokens.
fn skip_ns(b: &[u8], mut i: usize) -> usize {
    loop {
        i = scan::skip_space(b, i);
        if scan::prefix(&b[i..], NS) == Prefix::Full {
            i += NS.len();
        } else if scan::prefix(&b[i..], &NS[1..]) == Prefix::Full {
            i += NS.len() - 1;
        } else {
            return i;
        }
    }
}

/// `name="X"`, `name='X'`, `name=X` or `="X"`: the name. A quoted name
/// ends at its closing quote and an unquoted one at a blank, so attributes
/// after it (`name="f" id="1"`) are not part of it.
fn attr_name(raw: &[u8]) -> String {
    let s = crate::scan::lossy(raw);
    let s = s.trim();
    let s = s.strip_prefix("name").map(str::trim_start).unwrap_or(s);
    let s = s.strip_prefix('=').unwrap_or(s).trim();
    let s = s.strip_suffix('/').unwrap_or(s).trim();
    match s.chars().next() {
        Some(q @ ('"' | '\'')) => {
            let inner = &s[1..];
            inner
                .find(q)
                .map_or(inner, |e| &inner[..e])
                .trim()
                .to_string()
        }
        _ => s.split_whitespace().next().unwrap_or_default().to_string(),
    }
}

/// A value's text without namespace tokens at its edges, typed.
fn value(raw: &[u8]) -> Value {
    let mut r = raw;
    loop {
        let t = r.len();
        if r.ends_with(NS) {
            r = &r[..r.len() - NS.len()];
        }
        if r.starts_with(NS) {
            r = &r[NS.len()..];
        } else if r.starts_with(&NS[1..]) {
            r = &r[NS.len() - 1..];
        }
        if r.len() == t {
            break;
        }
    }
    let text = crate::scan::lossy(r);
    super::xml::decode_value(&strip_value_framing(&text))
}

/// Claude 2's prompt-based tool use names the function in a child
/// (`<invoke><tool_name>f</tool_name><parameters><k>v</k></parameters>`):
/// a nameless invoke whose children are `tool_name` and `parameters` is the
/// call `f` with the `parameters` members as arguments.
fn legacy_claude(name: String, mut args: Map<String, Value>) -> (String, Map<String, Value>) {
    if !name.is_empty() || !args.keys().all(|k| k == "tool_name" || k == "parameters") {
        return (name, args);
    }
    let Some(Value::String(tool)) = args.remove("tool_name") else {
        return (name, args);
    };
    match args.remove("parameters") {
        Some(Value::Object(params)) => (tool, params),
        None => (tool, Map::new()),
        // `<parameters></parameters>` or text: no arguments to read
        Some(_) => (tool, Map::new()),
    }
}

/// The `string="true|false"` attribute DeepSeek's DSML parameters carry
/// (also when a server strips the `｜DSML｜` tokens): `Some(true)` for a
/// value that is text as written, `Some(false)` for JSON.
fn string_attr(attrs: &[u8]) -> Option<bool> {
    let at = scan::find(attrs, 0, b"string=")?;
    let v = attrs[at + 7..]
        .strip_prefix(b"\"")
        .unwrap_or(&attrs[at + 7..]);
    if v.starts_with(b"true") {
        Some(true)
    } else if v.starts_with(b"false") {
        Some(false)
    } else {
        None
    }
}

/// A value whose parameter declared its kind: text exactly as written, or
/// JSON (typed like any value when it does not parse).
fn declared_value(raw: &[u8], string: bool) -> Value {
    let text = crate::scan::lossy(raw);
    if string {
        return Value::String(text.into_owned());
    }
    serde_json::from_str(text.trim()).unwrap_or_else(|_| value(raw))
}

/// Reads every `<invoke name="…">` in `b`: parameters are
/// `<parameter name="KEY">V</parameter>` or `<KEY>V</KEY>` (MiniMax-M3),
/// with namespace tokens skipped.
pub fn invokes(b: &[u8]) -> Vec<Invoke> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut boundaries = Boundaries::default();
    while let Some(p) = scan::find(b, i, b"<invoke") {
        let Some(gt) = memchr::memchr(b'>', &b[p..]).map(|k| p + k) else {
            out.push(Invoke {
                name: String::new(),
                arguments: Map::new(),
                end: b.len(),
                complete: false,
            });
            break;
        };
        let mut name = attr_name(&b[p + 7..gt]);
        let invoke_end = boundaries.find(b, 2, gt);
        // a nameless invoke around an element named for the tool
        // (`<invoke><exec><cmd>date</cmd></exec></invoke>`, MiniMax-M2.1
        // without its parameter tags): the element's tag is the name and
        // its children the parameters; its closing tag is skipped
        let mut wrapper_close: Option<Vec<u8>> = None;
        let mut j = gt + 1;
        if name.is_empty() && scan::trim(&b[p + 7..gt]).is_empty() {
            if let Some((tool, after)) = tool_element(b, gt + 1, invoke_end) {
                wrapper_close = Some(format!("</{tool}>").into_bytes());
                name = tool;
                j = after;
            }
        }
        // bytes nested values may search for closing tags: linear in the
        // invoke however its tags nest or fail to close
        let mut budget = 4 * invoke_end.saturating_sub(gt).max(64);
        let mut args = Map::new();
        let mut closed = false;
        let mut params_closed = true;
        let mut any = false;
        let mut end = b.len();
        // a JSON object instead of parameters (`<invoke name="f">{"q": 1}
        // </invoke>`, as some models write it): the arguments
        if let Some((m, after)) = json_body(b, j) {
            if scan::prefix(&b[after..], b"</invoke>") == Prefix::Full {
                out.push(Invoke {
                    name,
                    arguments: m,
                    end: after + 9,
                    complete: true,
                });
                i = after + 9;
                continue;
            }
        }
        loop {
            j = skip_ns(b, j);
            if j >= b.len() {
                break;
            }
            if b[j] != b'<' {
                // stray text between parameters
                j = memchr::memchr(b'<', &b[j..]).map_or(b.len(), |k| j + k);
                continue;
            }
            let rest = &b[j..];
            if scan::prefix(rest, b"</invoke>") == Prefix::Full {
                closed = true;
                end = j + 9;
                break;
            }
            if let Some(wc) = wrapper_close.as_deref().filter(|wc| rest.starts_with(wc)) {
                j += wc.len();
                continue;
            }
            if rest.starts_with(b"</") || rest.starts_with(b"<invoke") {
                end = j;
                break;
            }
            let Some(tg) = memchr::memchr(b'>', rest).map(|k| j + k) else {
                params_closed = false;
                break;
            };
            if tg >= invoke_end {
                // a `<` whose `>` lies past the invoke's `</invoke>` opens
                // no tag: it is stray text (a tag swallowing the close would
                // put the value's start after the value's bound)
                j += 1;
                continue;
            }
            // `<parameter name=…>`, not a tag that merely starts so
            // (Claude 2's `<parameters>`)
            let parameter_tag = rest.starts_with(b"<parameter")
                && matches!(
                    rest.get(10),
                    Some(b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'=')
                );
            let mut declared = None;
            let (key, close) = if parameter_tag {
                declared = string_attr(&b[j + 10..tg]);
                (attr_name(&b[j + 10..tg]), b"</parameter>".to_vec())
            } else {
                let k = crate::scan::lossy(&b[j + 1..tg]).trim().to_string();
                let c = format!("</{k}>").into_bytes();
                (k, c)
            };
            any = true;
            let vf = tg + 1;
            // MiniMax-M3 nests tags: children named `item` are an array's
            // elements, other children an object's members
            if !parameter_tag {
                if let Some((v, after)) = nested(b, vf, &close, invoke_end, 0, &mut budget) {
                    insert(&mut args, key, v);
                    j = after;
                    continue;
                }
            }
            // the close is looked for only up to the next parameter or
            // invoke boundary, so a run of unclosed values stays linear
            let bound = boundaries.next(b, vf).min(invoke_end);
            let window = (bound + close.len()).min(b.len());
            match scan::find(&b[..window], vf, &close).filter(|&c| c < bound || bound == b.len()) {
                Some(c) => {
                    let c = last_close(b, c, &close, bound);
                    let v = match declared {
                        Some(string) => declared_value(&b[vf..c], string),
                        None => value(&b[vf..c]),
                    };
                    insert(&mut args, key, v);
                    j = c + close.len();
                }
                None => {
                    // missing close: the value ends at the next tag
                    params_closed = false;
                    let next = bound;
                    insert(&mut args, key, value(&b[vf..next]));
                    j = next;
                }
            }
        }
        let (name, args) = legacy_claude(name, args);
        out.push(Invoke {
            name,
            arguments: args,
            end,
            complete: closed || (params_closed && any),
        });
        if end >= b.len() {
            break;
        }
        i = end.max(p + 1);
    }
    out
}

/// The element that opens a nameless invoke's body at `from` (blanks
/// skipped) when it names the tool: a tag starting with a letter or `_`,
/// not one of the children a call is written with (`parameter`,
/// `parameters`, Claude 2's `tool_name`). The name is the tag's leading
/// name bytes (`<exec">` is `exec`); also where the tag ends.
fn tool_element(b: &[u8], from: usize, limit: usize) -> Option<(String, usize)> {
    let k = skip_ns(b, from);
    if b.get(k) != Some(&b'<') || !b.get(k + 1).is_some_and(|&c| scan::is_name_start_byte(c)) {
        return None;
    }
    let tg = k + memchr::memchr(b'>', &b[k..])?;
    if tg >= limit {
        return None;
    }
    let mut e = k + 1;
    while e < tg && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'-' | b'.')) {
        e += 1;
    }
    let tool = crate::scan::lossy(&b[k + 1..e]).into_owned();
    if matches!(tool.as_str(), "parameter" | "parameters" | "tool_name") {
        return None;
    }
    Some((tool, tg + 1))
}

/// A value of child elements starting at `vf` (after its tag), up to
/// `close`: `<item>` children make an array, other children an object
/// (MiniMax-M3's `<argv><item>ls</item><item>-la</item></argv>`). `None`
/// when the value is not made of whole child elements (it is read as text).
fn nested(
    b: &[u8],
    vf: usize,
    close: &[u8],
    limit: usize,
    depth: usize,
    budget: &mut usize,
) -> Option<(Value, usize)> {
    if depth > 32 {
        return None;
    }
    let mut children: Vec<(String, Value)> = Vec::new();
    let mut j = vf;
    let end = loop {
        j = skip_ns(b, j);
        if j >= limit {
            return None;
        }
        let rest = &b[j..];
        if rest.starts_with(close) {
            break j + close.len();
        }
        if rest.first() != Some(&b'<') || rest.starts_with(b"</") {
            return None;
        }
        let tg = j + memchr::memchr(b'>', rest)?;
        if tg >= limit {
            return None;
        }
        let name = crate::scan::lossy(&b[j + 1..tg]).trim().to_string();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '=') {
            return None;
        }
        let child_close = format!("</{name}>").into_bytes();
        let k = skip_ns(b, tg + 1);
        let inner_tag = b.get(k) == Some(&b'<') && !b[k..].starts_with(b"</");
        let (v, after) = if inner_tag {
            nested(b, tg + 1, &child_close, limit, depth + 1, budget)?
        } else {
            // the search goes no further than the budget left
            let window = limit.min(tg + 1 + *budget);
            let found = scan::find(&b[..window], tg + 1, &child_close);
            let searched = found.map_or(window, |c| c + child_close.len()) - (tg + 1);
            *budget = budget.saturating_sub(searched);
            let c = found?;
            (value(&b[tg + 1..c]), c + child_close.len())
        };
        children.push((name, v));
        j = after;
    };
    if children.is_empty() {
        return None;
    }
    let v = if children.iter().all(|(n, _)| n == "item") {
        Value::Array(children.into_iter().map(|(_, v)| v).collect())
    } else {
        let mut m = Map::new();
        for (k, v) in children {
            insert(&mut m, k, v);
        }
        Value::Object(m)
    };
    Some((v, end))
}

/// Finds, for increasing positions, the next tag that starts a parameter
/// or ends an invoke: `<parameter`, `<invoke`, `</invoke>`, or a namespace
/// token before an opening tag. Positions are cached so the total work over
/// one block is linear.
#[derive(Default)]
struct Boundaries {
    /// Cached next occurrence (and the position it was searched from) per
    /// literal: `<parameter`, `<invoke`, `</invoke>`, namespace token.
    cache: [(usize, Option<usize>); 4],
    primed: [bool; 4],
}

impl Boundaries {
    const LITS: [&'static [u8]; 4] = [b"<parameter", b"<invoke", b"</invoke>", NS];

    fn find(&mut self, b: &[u8], k: usize, from: usize) -> usize {
        let (at, hit) = self.cache[k];
        if self.primed[k] && from >= at && hit.is_none_or(|h| from <= h) {
            return hit.unwrap_or(b.len());
        }
        let hit = scan::find(b, from, Self::LITS[k]);
        self.cache[k] = (from, hit);
        self.primed[k] = true;
        hit.unwrap_or(b.len())
    }

    fn next(&mut self, b: &[u8], from: usize) -> usize {
        let mut best = b.len();
        for k in 0..3 {
            best = best.min(self.find(b, k, from));
        }
        // a namespace token counts only before an opening tag
        let mut at = from;
        loop {
            let p = self.find(b, 3, at);
            if p >= best {
                break;
            }
            if b.get(p + NS.len()..p + NS.len() + 2) != Some(&b"</"[..]) {
                best = p;
                break;
            }
            at = p + 1;
        }
        best
    }
}

/// The last `close` that starts at or after `first` and ends by `bound`
/// (the next parameter or invoke tag): a value that quotes its own
/// closing tag (`…contains </parameter> in it</parameter>`) runs to the
/// last one, so none of its text is dropped. A well-formed value has one
/// close before the boundary, and the search ends there.
fn last_close(b: &[u8], first: usize, close: &[u8], bound: usize) -> usize {
    let hay = &b[..bound.min(b.len())];
    let mut c = first;
    while let Some(n) = scan::find(hay, c + close.len(), close) {
        c = n;
    }
    c
}

fn insert(args: &mut Map<String, Value>, key: String, v: Value) {
    if !key.is_empty() {
        args.insert(key, v);
    }
}

/// Where a wrapper block without its closing tag ends, at end of input:
/// after the last complete invoke (then `cut` is false unless it runs to the
/// end), else at the end (cut).
pub fn end_without_close(block: &[u8]) -> BlockEnd {
    let found = invokes(block);
    match found.iter().rposition(|c| c.complete) {
        Some(k) if k + 1 == found.len() => BlockEnd::Done {
            len: found[k].end,
            cut: found[k].end == block.len(),
        },
        Some(k) => BlockEnd::done(found[k].end),
        None => BlockEnd::cut_off(block),
    }
}

/// Turns a block's invokes into calls labelled `format`.
pub fn parse_invokes(block: &[u8], format: FormatId, cx: &ParseCx) -> BlockResult {
    let found = invokes(block);
    let n = found.len();
    let mut r = BlockResult::default();
    for (k, c) in found.into_iter().enumerate() {
        if cx.cut && k + 1 == n && !c.complete {
            if r.calls.is_empty() {
                return BlockResult::truncated(format, block.len());
            }
            r.errors
                .extend(BlockResult::truncated(format, c.end).errors);
            continue;
        }
        if c.name.is_empty() {
            r.errors.extend(
                BlockResult::error("TLP-001", format!("{format} invoke has no name"), c.end).errors,
            );
            continue;
        }
        r.calls.push(ParsedCall {
            end: c.end,
            ..ParsedCall::new(crate::call::clean_name(&c.name), c.arguments, format)
        });
    }
    if r.calls.is_empty() && r.errors.is_empty() {
        if cx.cut {
            return BlockResult::truncated(format, block.len());
        }
        return BlockResult::error("TLP-001", format!("{format} block has no <invoke>"), 0);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(b: &str) -> Vec<(String, Value, bool)> {
        invokes(b.as_bytes())
            .into_iter()
            .map(|i| (i.name, Value::Object(i.arguments), i.complete))
            .collect()
    }

    #[test]
    fn declared_strings_and_json() {
        let got = args(
            r#"<invoke name="f"><parameter name="s" string="true"> 5 </parameter><parameter name="n" string="false">5</parameter><parameter name="t">5</parameter></invoke>"#,
        );
        assert_eq!(
            got,
            [("f".into(), json!({"s": " 5 ", "n": 5, "t": 5}), true)]
        );
    }

    #[test]
    fn claude_2_tool_name_and_parameters() {
        let got = args("<invoke>\n<tool_name>get</tool_name>\n<parameters>\n<city>Oslo</city>\n<days>3</days>\n</parameters>\n</invoke>");
        assert_eq!(
            got,
            [("get".into(), json!({"city": "Oslo", "days": 3}), true)]
        );
        // a named invoke keeps such children as arguments
        let got = args("<invoke name=\"f\"><tool_name>x</tool_name></invoke>");
        assert_eq!(got, [("f".into(), json!({"tool_name": "x"}), true)]);
    }

    #[test]
    fn nested_tags_are_arrays_and_objects() {
        let ns = std::str::from_utf8(NS).expect("ASCII");
        let b = format!(
            "<invoke name=\"shell\">{ns}<argv>{ns}<item>ls{ns}</item>{ns}<item>-la{ns}</item>{ns}</argv>\
             {ns}<opts>{ns}<depth>2{ns}</depth>{ns}<all>true{ns}</all>{ns}</opts>{ns}<cwd>/tmp{ns}</cwd>{ns}</invoke>"
        );
        assert_eq!(
            args(&b),
            vec![(
                "shell".into(),
                json!({"argv": ["ls", "-la"], "opts": {"depth": 2, "all": true}, "cwd": "/tmp"}),
                true
            )]
        );
        // children that never close are read flat, as before
        let b = format!("<invoke name=\"f\">{ns}<a>{ns}<b>x{ns}<a>{ns}<b>y{ns}</invoke>");
        assert_eq!(args(&b)[0].1, json!({"a": "", "b": "y"}));
    }

    #[test]
    fn two_invokes_typed_values() {
        let got = args(
            "<invoke name=\"a\">\n<parameter name=\"n\">3</parameter>\n<parameter name=\"o\">{\"x\": [1]}</parameter>\n</invoke>\n<invoke name='b'><parameter name=\"q\">\nhi there\n</parameter></invoke>",
        );
        assert_eq!(
            got,
            vec![
                ("a".into(), json!({"n": 3, "o": {"x": [1]}}), true),
                ("b".into(), json!({"q": "hi there"}), true),
            ]
        );
    }

    #[test]
    fn namespaced_tag_parameters() {
        let got = args("]<]minimax[>[<invoke name=\"search\">]<]minimax[>[<query>字节 AI</query>]<]minimax[>[<limit>6]<]minimax[>[</limit>]<]minimax[>[</invoke>");
        assert_eq!(
            got,
            vec![(
                "search".into(),
                json!({"query": "字节 AI", "limit": 6}),
                true
            )]
        );
    }

    #[test]
    fn a_value_quoting_its_close_runs_to_the_last_one() {
        let got = args("<invoke name=\"f\"><parameter name=\"c\">has </parameter> in it</parameter>\n<parameter name=\"d\">2</parameter></invoke>");
        assert_eq!(
            got,
            vec![(
                "f".into(),
                json!({"c": "has </parameter> in it", "d": 2}),
                true
            )]
        );
    }

    #[test]
    fn missing_parameter_close() {
        let got = args("<invoke name=\"a\"><parameter name=\"x\">1<parameter name=\"y\">2</parameter></invoke>");
        assert_eq!(got, vec![("a".into(), json!({"x": 1, "y": 2}), true)]);
    }

    #[test]
    fn cut_value_is_incomplete() {
        let got = args("<invoke name=\"a\"><parameter name=\"x\">hel");
        assert!(!got[0].2);
    }
}
