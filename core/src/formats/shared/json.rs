//! JSON call bodies: finding where one ends, reading calls out of it, and
//! naming the call early from its first bytes.

use crate::call::{Evidence, ParsedCall};
use crate::formats::{BlockEnd, BlockResult, FormatId, ParseCx, Scanner};
use crate::scan;
use crate::scan::balance::{End, JsonEnd};

/// The value of the first top-level `"name"` key (or `"function": {"name"`)
/// of a JSON object starting at or after `from`, once its string has closed.
pub fn early_json_name(head: &[u8], from: usize) -> Option<String> {
    let s = scan::skip_space(head, from);
    if head.get(s) != Some(&b'{') {
        return None;
    }
    let mut depth = 0u32;
    let mut i = s;
    let mut in_function = false;
    while i < head.len() {
        match head[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                in_function = false;
                if depth == 0 {
                    return None;
                }
            }
            b'[' => return None,
            b'"' => {
                let (key, end) = json_string(head, i)?;
                i = end;
                let after = scan::skip_space(head, i);
                if head.get(after) != Some(&b':') {
                    continue;
                }
                let v = scan::skip_space(head, after + 1);
                let at_name_level = depth == 1 || (depth == 2 && in_function);
                if at_name_level && key == "name" {
                    if head.get(v) != Some(&b'"') {
                        return None;
                    }
                    let (name, _) = json_string(head, v)?;
                    let name = name.trim().to_string();
                    return (!name.is_empty()).then_some(name);
                }
                if depth == 1 && key == "function" && head.get(v) == Some(&b'{') {
                    in_function = true;
                } else if depth == 1 && head.get(v) == Some(&b'"') {
                    // skip a string value
                    let (_, e) = json_string(head, v)?;
                    i = e;
                    continue;
                }
                i = after + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A JSON string starting at `at` (a `"`): its decoded value and the index
/// after its closing quote; `None` while it has not closed.
fn json_string(b: &[u8], at: usize) -> Option<(std::borrow::Cow<'_, str>, usize)> {
    let mut i = at + 1;
    let mut escaped = false;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                escaped = true;
                i += 2;
            }
            b'"' => {
                let v = if escaped {
                    let raw = std::str::from_utf8(&b[at..=i]).ok()?;
                    std::borrow::Cow::Owned(serde_json::from_str(raw).ok()?)
                } else {
                    std::borrow::Cow::Borrowed(std::str::from_utf8(&b[at + 1..i]).ok()?)
                };
                return Some((v, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

/// Finds the end of a block that is a tag, a JSON value and an optional
/// closing tag (ASCII case ignored): the value's end when the tag does not
/// follow it after blanks. An empty closing tag: the block ends with its
/// JSON value.
pub struct JsonThenClose {
    close: &'static [u8],
    /// Where the body starts (the probe read the tag before it).
    body: usize,
    /// A value that never closed ends at the first closing tag after the
    /// body when there is one (the JSON is broken: odd quotes).
    broken_ends_at_close: bool,
    /// Objects joined by commas are one body (a body of calls).
    commas: bool,
    /// Read a body that starts with `{` as the plain call envelope first
    /// ([`Self::reads_envelope`]).
    envelope: bool,
    /// The body read as the plain call envelope, for the parse.
    plain: Option<crate::formats::PlainBody>,
    phase: JsonPhase,
}

/// Where a [`JsonThenClose`] scan is.
enum JsonPhase {
    /// Blanks so far, up to `from`.
    Lead { from: usize },
    /// Inside the value that begins at `start`.
    Value { start: usize, json: JsonEnd },
    /// The value ended at `end`: a closing tag may follow after blanks.
    Close { end: usize },
}

impl JsonThenClose {
    /// A scan of the body that starts at `body`, closed by `close`.
    pub fn new(body: usize, close: &'static [u8]) -> Self {
        JsonThenClose {
            close,
            body,
            broken_ends_at_close: false,
            commas: false,
            envelope: false,
            plain: None,
            phase: JsonPhase::Lead { from: body },
        }
    }

    /// Objects joined by commas (`{call}, {call}`) are one body: read with
    /// [`json_calls_end`].
    pub fn calls_joined_by_commas(mut self) -> Self {
        self.commas = true;
        self
    }

    /// A value that never closes ends at the closing tag when one follows.
    pub fn broken_ends_at_close(mut self) -> Self {
        self.broken_ends_at_close = true;
        self
    }

    /// A body that starts with `{` is first read as the plain call
    /// envelope ([`crate::scan::compact::envelope_at`]): when it is one,
    /// that check's end is the value's (a plain envelope is strict JSON
    /// without escapes, where the end scan stops at the same `}`), and
    /// [`Self::plain_body`] hands what it read to the parse, which then
    /// need not read the body again. Otherwise (or when the body is not all
    /// there yet) the value is scanned as without it.
    pub fn reads_envelope(mut self) -> Self {
        self.envelope = true;
        self
    }

    /// The body read as the plain call envelope ([`Self::reads_envelope`]).
    pub fn plain_body(&self) -> Option<crate::formats::PlainBody> {
        self.plain
    }

    /// Where the block ends (see [`Scanner::scan`]).
    pub fn step(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        use crate::scan::balance::End;
        let cut = BlockEnd::cut_off(block);
        if let JsonPhase::Lead { from } = self.phase {
            let s = scan::skip_space(block, from);
            if s == block.len() {
                self.phase = JsonPhase::Lead { from: s };
                return if eof { self.cut(block) } else { BlockEnd::More };
            }
            self.phase = match self.plain_at(block, s) {
                Some(end) => JsonPhase::Close { end },
                None => JsonPhase::Value {
                    start: s,
                    json: self.value_scanner(),
                },
            };
        }
        if let JsonPhase::Value {
            start,
            ref mut json,
        } = self.phase
        {
            match json.scan(&block[start..]) {
                End::At(k) => self.phase = JsonPhase::Close { end: start + k },
                End::More if eof => return self.cut(block),
                End::More => return BlockEnd::More,
                End::NotValue => self.phase = JsonPhase::Close { end: start },
            }
        }
        let JsonPhase::Close { end } = self.phase else {
            return cut;
        };
        // `{call}, {call}` in one block: a comma, then the next object
        if self.commas && !self.close.is_empty() && end > 0 && block[end - 1] == b'}' {
            let c = scan::skip_space(block, end);
            if block.get(c) == Some(&b',') {
                let o = scan::skip_space(block, c + 1);
                match block.get(o) {
                    Some(b'{') => {
                        // the body is more than the first object
                        self.plain = None;
                        self.phase = JsonPhase::Value {
                            start: o,
                            json: self.value_scanner(),
                        };
                        return self.step(block, eof);
                    }
                    None if !eof => return BlockEnd::More,
                    _ => {}
                }
            } else if c == block.len() && !eof {
                return BlockEnd::More;
            }
        }
        if self.close.is_empty() {
            // no closing tag: the block ends with its JSON
            return BlockEnd::done(end);
        }
        super::end::close_after_value(block, end, self.close, eof)
    }

    /// With [`Self::reads_envelope`], the plain call envelope read at `s`
    /// (the body's first byte), noted for the parse: where it ends.
    #[inline]
    fn plain_at(&mut self, block: &[u8], s: usize) -> Option<usize> {
        if !self.envelope || block[s] != b'{' {
            return None;
        }
        let envelope = crate::scan::compact::envelope_at(&block[s..]);
        let u = |n: usize| u32::try_from(n).ok();
        // (offsets past 4 GiB: no note, the parse reads the body)
        self.plain = Some(crate::formats::PlainBody {
            start: u(s)?,
            found: envelope.is_some(),
            end: u(envelope.map_or(block.len(), |e| e.end))?,
            name: u(envelope.map_or(0, |e| e.name.0))?,
            arguments: envelope.map_or(Some((0, 0)), |e| {
                Some((u(e.arguments.0)?, u(e.arguments.1)?))
            })?,
            non_ascii: envelope.is_some_and(|e| e.non_ascii),
        });
        Some(s + envelope?.end)
    }

    /// The scanner of one value: with [`Self::broken_ends_at_close`], a
    /// closing tag outside a string ends a value that never closed, so the
    /// block is decided there and not held to the end of input (a body
    /// missing its `}` before `</tool_call>`, many times over, would else
    /// be scanned again to the end for each block: quadratic time).
    fn value_scanner(&self) -> JsonEnd {
        if self.broken_ends_at_close && !self.close.is_empty() {
            JsonEnd::stop_at(self.close)
        } else {
            JsonEnd::new()
        }
    }

    /// The input ended inside the body.
    fn cut(&self, block: &[u8]) -> BlockEnd {
        if self.broken_ends_at_close && !self.close.is_empty() {
            if let Some(k) = scan::find_ci(block, self.body, self.close) {
                return BlockEnd::done(k + self.close.len());
            }
        }
        BlockEnd::cut_off(block)
    }
}

impl Scanner for JsonThenClose {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        self.step(block, eof)
    }

    fn consumed(&self) -> usize {
        self.body
    }
}

/// Turns a parsed JSON body into calls, with `end` set to `block_len`.
pub fn calls_from_json_body(
    body: &str,
    format: FormatId,
    ev: crate::call::Evidence,
    block_len: usize,
    body_offset: usize,
    cx: &ParseCx,
) -> BlockResult {
    use crate::call::{calls_from_owned, Shape};
    if let Some(r) = plain_result(body, format, block_len, cx) {
        return r;
    }
    let (value, repairs) = match cx.parse_json(body) {
        Ok(v) => v,
        Err(e) => {
            if ev == crate::call::Evidence::Strong {
                if let Some(r) = calls_per_element(body, format, block_len, body_offset, cx) {
                    return r;
                }
            }
            return BlockResult::error(
                "TLP-003",
                format!(
                    "{format} body is not valid JSON and could not be repaired: {}",
                    e.message
                ),
                body_offset + e.offset.min(body.len()),
            );
        }
    };
    let empty_array = value.as_array().is_some_and(Vec::is_empty);
    match calls_from_owned(value, ev) {
        Ok(parts) => BlockResult::calls(
            parts
                .into_iter()
                .map(|p| {
                    let mut reps = repairs.clone();
                    reps.extend(p.repairs);
                    for r in &mut reps {
                        r.offset += body_offset;
                    }
                    ParsedCall {
                        id: p.id,
                        repairs: reps,
                        end: block_len,
                        ..ParsedCall::new(p.name, p.arguments, format)
                    }
                })
                .collect(),
        ),
        // a marked body that is an empty list says "no calls": markup
        Err(Shape::NotCall) if empty_array && ev == crate::call::Evidence::Strong => BlockResult {
            empty_list: true,
            ..BlockResult::default()
        },
        Err(shape) if ev == crate::call::Evidence::Strong && body.trim_start().starts_with('[') => {
            let lead = body.len() - body.trim_start().len();
            let list = body[lead..].trim_end();
            calls_per_element(list, format, block_len, body_offset + lead, cx).unwrap_or_else(
                || match shape {
                    Shape::NotCall => BlockResult::error(
                        "TLP-001",
                        format!("{format} body has no function name"),
                        body_offset,
                    ),
                    Shape::Broken(code, msg) => BlockResult::error(code, msg, body_offset),
                },
            )
        }
        Err(Shape::NotCall) => match ev {
            crate::call::Evidence::Weak => BlockResult::text(),
            crate::call::Evidence::Strong => BlockResult::error(
                "TLP-001",
                format!("{format} body has no function name"),
                body_offset,
            ),
        },
        Err(Shape::Broken(code, msg)) => BlockResult::error(code, msg, body_offset),
    }
}

/// A marked array of calls that does not parse as a whole, or whose
/// elements are not all calls, read element by element: one malformed call
/// (`{"time": 15:30}`) or a stray value (`"junk"`) is an error of its own
/// and does not take its well-formed siblings with it. `None` when the body
/// is not an array of at least two elements or no element is a call.
fn calls_per_element(
    body: &str,
    format: FormatId,
    block_len: usize,
    body_offset: usize,
    cx: &ParseCx,
) -> Option<BlockResult> {
    let bytes = body.as_bytes();
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let elements = array_elements(bytes);
    if elements.len() < 2 {
        return None;
    }
    let mut out = BlockResult::default();
    for (start, end) in elements {
        if bytes.get(start) != Some(&b'{') {
            // a string, a number… in a list of calls: an error of its own
            out.errors.push(super::super::BlockError {
                code: "TLP-001",
                message: format!("{format} array element is not a call"),
                offset: body_offset + start,
                hint: None,
            });
            continue;
        }
        let element = body.get(start..end)?;
        let r = calls_from_json_body(
            element,
            format,
            crate::call::Evidence::Strong,
            body_offset + end,
            body_offset + start,
            cx,
        );
        out.calls.extend(r.calls);
        out.errors.extend(r.errors);
    }
    if out.calls.is_empty() {
        return None;
    }
    if let Some(last) = out.calls.last_mut() {
        last.end = block_len;
    }
    Some(out)
}

/// When a JSON array body produced several calls, gives each call the end
/// offset of its own array element so the calls' spans tile the block.
pub fn split_array_ends(r: &mut BlockResult, block: &[u8], body_start: usize) {
    if r.calls.len() < 2 {
        return;
    }
    let ends = array_element_ends(&block[body_start..]);
    if ends.len() == r.calls.len() {
        for (c, e) in r.calls.iter_mut().zip(ends) {
            c.end = body_start + e;
        }
        if let Some(last) = r.calls.last_mut() {
            last.end = block.len();
        }
    }
}

/// The spans of the top-level elements of the (possibly broken) JSON array
/// at the start of `b`, blanks around them left out: each ends at the comma
/// after it or at the closing bracket, strings and nested brackets skipped.
fn array_elements(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut esc) = (0u32, 0u8, false);
    let mut start = None;
    let push = |from: Option<usize>, to: usize, out: &mut Vec<(usize, usize)>| {
        if let Some(from) = from {
            let mut to = to;
            while to > from && matches!(b[to - 1], b' ' | b'\t' | b'\r' | b'\n') {
                to -= 1;
            }
            out.push((from, to));
        }
    };
    for (i, &c) in b.iter().enumerate() {
        if quote != 0 {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == quote {
                quote = 0;
            }
            continue;
        }
        let blank = matches!(c, b' ' | b'\t' | b'\r' | b'\n');
        if depth == 1 && start.is_none() && !blank && c != b',' && c != b']' {
            start = Some(i);
        }
        match c {
            b'"' => quote = c,
            b'[' | b'{' => depth += 1,
            b',' if depth == 1 => push(start.take(), i, &mut out),
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    push(start.take(), i, &mut out);
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

/// End offsets (exclusive) of the top-level objects and arrays of the JSON
/// array at the start of `b` ([`array_elements`], scalars left out).
fn array_element_ends(b: &[u8]) -> Vec<usize> {
    array_elements(b)
        .into_iter()
        .filter(|&(start, _)| matches!(b[start], b'{' | b'['))
        .map(|(_, end)| end)
        .collect()
}

/// Where the JSON body starting at or after `from` ends: after its balanced
/// value, else (broken JSON) at the first `close` tag, else at the end.
pub fn json_body_end(block: &[u8], from: usize, close: &[u8]) -> usize {
    use crate::scan::balance::{End, JsonEnd};
    let s = scan::skip_space(block, from);
    match JsonEnd::new().scan(&block[s..]) {
        End::At(k) => s + k,
        _ if close.is_empty() => block.len(),
        _ => scan::find_ci(block, s, close).unwrap_or(block.len()),
    }
}

/// [`json_body_end`] for a body of calls, where objects joined by commas
/// (`{call}, {call}`, which [`JsonThenClose::calls_joined_by_commas`]
/// reads as one block) end with the last of them.
pub fn json_calls_end(block: &[u8], from: usize, close: &[u8]) -> usize {
    use crate::scan::balance::{End, JsonEnd};
    let mut end = json_body_end(block, from, close);
    while !close.is_empty() && end > 0 && block[end - 1] == b'}' {
        let c = scan::skip_space(block, end);
        if block.get(c) != Some(&b',') {
            break;
        }
        let o = scan::skip_space(block, c + 1);
        if block.get(o) != Some(&b'{') {
            break;
        }
        match JsonEnd::new().scan(&block[o..]) {
            End::At(k) => end = o + k,
            _ => return scan::find_ci(block, o, close).unwrap_or(block.len()),
        }
    }
    end
}

/// `block[from..to]`, blanks aside, as exactly one plain call object
/// (`{"name": …, "arguments": {…}}`): what [`json_block`] gives for it,
/// without looking for where the JSON ends first. `None` for anything else.
/// With [`ParseCx::tally`] the call has no name or arguments.
pub fn plain_block(
    block: &[u8],
    from: usize,
    to: usize,
    format: FormatId,
    cx: &ParseCx,
) -> Option<BlockResult> {
    if let Some(answer) = plain_read(block, from, to, cx) {
        let (name, arguments) = answer?;
        return Some(plain_call_result(name, arguments, format, block.len(), cx));
    }
    let body = std::str::from_utf8(&block[from..to]).ok()?;
    // The scanner found no envelope where the body starts, over all the
    // bytes it has: none in the body either (it reads no byte past an
    // envelope), so only the decoder is asked.
    let no_envelope = cx.plain.is_some_and(|p| {
        !p.found
            && block.len() <= p.end as usize
            && scan::skip_space(block, from) == p.start as usize
    });
    if no_envelope {
        let (name, arguments) = crate::call::plain_call_read(body.trim(), cx.tally, false)?;
        return Some(plain_call_result(name, arguments, format, block.len(), cx));
    }
    plain_result(body.trim(), format, block.len(), cx)
}

/// [`crate::call::plain_call`] of `block[from..to]` (blanks aside) from what
/// the block's scanner read ([`ParseCx::plain`]), without reading the
/// envelope again: `None` when the scanner read none or not this one
/// (then the caller reads the body), else `plain_call`'s answer.
///
/// The scanner's envelope is the body when only ASCII blanks stand
/// between it and `from` and `to` (all of which `str::trim` takes), and
/// the body is UTF-8 when the envelope is (all else is ASCII): then
/// `plain_call`'s check of the body reads the same bytes as the
/// scanner's did ([`crate::scan::compact::envelope_at`]).
fn plain_read(
    block: &[u8],
    from: usize,
    to: usize,
    cx: &ParseCx,
) -> Option<Option<(String, crate::record::Arguments)>> {
    let envelope = cx.plain.filter(|p| p.found)?;
    let start = envelope.start as usize;
    let end = start + envelope.end as usize;
    let blank = |b: &[u8]| b.iter().all(|&c| scan::is_space(c));
    if !blank(block.get(from..start)?) || !blank(block.get(end..to)?) {
        return None;
    }
    let value = &block[start..end];
    if envelope.non_ascii && simdutf8::basic::from_utf8(value).is_err() {
        return None;
    }
    if cx.tally {
        let name = name_of(value, envelope.name)?;
        // a string holds no control byte: of ASCII, only the space is blank
        let blank = if envelope.non_ascii {
            std::str::from_utf8(name).ok()?.trim().is_empty()
        } else {
            name.iter().all(|&b| b == b' ')
        };
        if blank {
            return Some(None);
        }
        // the call's name, which the tally leaves empty, is this one
        // trimmed: when it is no placeholder, the engine need not read the
        // block again for a template's blanks
        if super::evidence::ascii_name_is_no_placeholder(name) {
            cx.names_clear.set(true);
        }
        return Some(Some((String::new(), crate::record::Arguments::empty())));
    }
    // the name and the arguments as `plain_call` takes them from the body
    let name = std::str::from_utf8(name_of(value, envelope.name)?)
        .ok()?
        .trim();
    if name.is_empty() {
        return Some(None);
    }
    let (a0, a1) = envelope.arguments;
    let arguments = value.get(a0 as usize..a1 as usize)?;
    let text = String::from_utf8(crate::scan::compact::compact_read(arguments)).ok()?;
    Some(Some((
        name.to_string(),
        crate::record::Arguments::from_compact(text),
    )))
}

/// `body` as exactly one plain call object: the block's one call, ending
/// at `block_len`, with no repairs. `None` for anything else.
fn plain_result(
    body: &str,
    format: FormatId,
    block_len: usize,
    cx: &ParseCx,
) -> Option<BlockResult> {
    let (name, arguments) = crate::call::plain_call(body, cx.tally)?;
    Some(plain_call_result(name, arguments, format, block_len, cx))
}

/// The name's string in an envelope's `value`, from where it starts to
/// its closing quote.
fn name_of(value: &[u8], from: u32) -> Option<&[u8]> {
    let name = value.get(from as usize..)?;
    Some(&name[..memchr::memchr(b'"', name)?])
}

/// A block whose one call is `name` and `arguments`, ending at `block_len`.
fn plain_call_result(
    name: String,
    arguments: crate::record::Arguments,
    format: FormatId,
    block_len: usize,
    cx: &ParseCx,
) -> BlockResult {
    let mut calls = cx.call_list();
    calls.push(ParsedCall {
        end: block_len,
        ..ParsedCall::new(name, arguments, format)
    });
    BlockResult::calls(calls)
}

/// Parses `block[from..to]` as a JSON call body with strong evidence,
/// handling a body cut off at end of input.
pub fn json_block(
    block: &[u8],
    from: usize,
    to: usize,
    format: FormatId,
    cx: &ParseCx,
) -> BlockResult {
    let body = crate::scan::lossy(&block[from..to]);
    let trimmed = body.trim();
    if trimmed.is_empty() {
        if cx.cut {
            return BlockResult::truncated(format, block.len());
        }
        return BlockResult::error("TLP-001", format!("empty {format} call"), from);
    }
    let lead = body.len() - body.trim_start().len();
    // a body whose value is complete lost only the closing marker after it
    let complete =
        || matches!(JsonEnd::new().scan(trimmed.as_bytes()), End::At(k) if k == trimmed.len());
    if cx.cut && !complete() {
        match crate::call::close_truncated(trimmed) {
            Some((closed, at)) => {
                let mut r = calls_from_json_body(
                    &closed,
                    format,
                    Evidence::Strong,
                    block.len(),
                    from + lead,
                    cx,
                );
                for c in &mut r.calls {
                    c.repairs.push(crate::repair::Repair {
                        kind: crate::repair::RepairKind::MissingClose,
                        offset: from + lead + at,
                    });
                }
                return r;
            }
            None => return BlockResult::truncated(format, block.len()),
        }
    }
    let mut r = calls_from_json_body(
        trimmed,
        format,
        Evidence::Strong,
        block.len(),
        from + lead,
        cx,
    );
    split_array_ends(&mut r, block, from + lead);
    r
}

/// A valid JSON object starting after blanks at `from`, and where the
/// blanks after it end.
pub fn json_body(
    b: &[u8],
    from: usize,
) -> Option<(serde_json::Map<String, serde_json::Value>, usize)> {
    let s = scan::skip_space(b, from);
    if b.get(s) != Some(&b'{') {
        return None;
    }
    let End::At(k) = JsonEnd::new().scan(&b[s..]) else {
        return None;
    };
    let text = crate::scan::lossy(&b[s..s + k]);
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::Object(m)) => Some((m, scan::skip_space(b, s + k))),
        _ => None,
    }
}
