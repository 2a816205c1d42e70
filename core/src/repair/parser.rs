//! The tolerant parser: one left-to-right pass over one JSON value with an
//! explicit stack, recording edits and repairs instead of building a value.
//!
//! Every decision looks at most one token ahead, except the quote heuristic
//! (does this `"` end the string?), which looks past the next comma to the
//! token after it. A byte is therefore inspected a bounded number of times
//! and the pass is linear in the input.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use super::edits::Edit;
use super::text::{
    control_escape, curly_at, fence_body_start, ident_len, is_ident_start, is_unicode_ellipsis,
    non_ascii_space, skip_json_ws, Curly, Space,
};
use super::{Repair, RepairKind, RepairOptions, CODE_BUDGET, CODE_HOPELESS};

/// Why the parser gave up, before line and column are computed.
#[derive(Clone, Debug)]
pub(crate) struct Fail {
    pub code: &'static str,
    pub message: String,
    pub offset: usize,
}

impl Fail {
    fn hopeless(message: impl Into<String>, offset: usize) -> Self {
        Fail {
            code: CODE_HOPELESS,
            message: message.into(),
            offset,
        }
    }
}

/// A point the parser can roll back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    edits: usize,
    repairs: usize,
}

/// One open container.
#[derive(Clone, Copy, Debug)]
struct Frame {
    obj: bool,
    /// Where to start deleting if the current member (or element) turns out
    /// to have no value: its preceding comma, or just after the opener.
    del_start: usize,
    /// Edits and repairs recorded before the current member began.
    cp: Checkpoint,
    /// Offset of the current member's key (for the repair report).
    key_at: usize,
    /// Whether the container already holds a complete member or element.
    any: bool,
    /// A parenthesised group (`(1, 2)`, `NumberLong("2")`), closed by `)`:
    /// it becomes an array, or the value itself when it holds one value.
    paren: bool,
    /// Where the group's text starts: its function name, or the `(`.
    name_at: usize,
    /// Offset of the `(` (of the opener for other containers).
    open: usize,
    /// Whether a comma separated two elements of the group.
    multi: bool,
    /// An object that turned out to be a Python set (`{'a', 'b'}`): an
    /// array closed by `}`.
    set: bool,
}

/// The state of one [`Parser::value_inner`] walk, shared by its steps.
struct Walk {
    stack: Vec<Frame>,
    /// Open objects and arrays on the stack (groups not counted).
    objs: usize,
    arrs: usize,
    st: St,
    pos: usize,
    pending_comma: Option<usize>,
    last_end: usize,
    /// Where the last scalar began (a string followed by `:` in an array
    /// is a key).
    last_scalar: Option<usize>,
    /// The `]` of an array that was the last member value of an object
    /// (`"k": [1], [2]` continues it).
    last_array_close: Option<usize>,
}

/// What a step of the walk says: go on, or the value ended at this offset.
enum Flow {
    Next,
    Done(usize),
}

/// What the parser expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    /// A value (top level, after `:`, after `[` or after `,` in an array).
    Value,
    /// A key or `}` (after `{` or after `,` in an object).
    Key,
    /// The `:` after a key.
    Colon,
    /// A `,` or the closer, after a complete value.
    After,
}

/// Where a string sits; decides which following characters end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    Key,
    ObjValue,
    ArrValue,
    Top,
}

/// The quote style a string was opened with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quote {
    Double,
    Single,
    CurlyDouble,
    CurlySingle,
    /// `` ` ``, closed by `` ` ``, `´` or `'`.
    Back,
}

/// How many edits a parser makes room for at once (a small broken object
/// needs up to a dozen: two quotes per unquoted key, one per quote
/// replaced).
const EDITS_AT_ONCE: usize = 16;

/// The tolerant parser over one input.
pub(crate) struct Parser<'a> {
    pub b: &'a [u8],
    pub edits: Vec<Edit>,
    pub repairs: Vec<Repair>,
    max_depth: usize,
    /// Offset where nesting first went past `max_depth`.
    pub too_deep_at: Option<usize>,
    deadline: Option<Instant>,
    timeout_ms: u64,
    null_for_missing_values: bool,
    /// Unquoted text where a value belongs becomes a string.
    pub unquoted_strings: bool,
    /// The last key read was cut off by the end of input.
    key_cut: bool,
    /// The value being read is an element of a group `( … )`, so `)` is
    /// its container's closer.
    in_group: bool,
    /// A container is open where whitespace is being skipped.
    in_container: bool,
    /// Offset of the last line break in the input.
    last_newline: Option<usize>,
    /// A value inside a string's code fence is being parsed.
    in_fence: bool,
    /// The last search for a closing fence: from where, and what it found.
    fence_search: Option<(usize, Option<usize>)>,
    /// A fenced string before this offset already failed to hold JSON:
    /// strings that open before it are not tried again (linear time).
    fence_failed_until: usize,
    ticks: u32,
}

/// Bits of a per-string "already reported" mask.
fn kind_bit(kind: RepairKind) -> u32 {
    1u32 << ((kind as u32) & 31)
}

impl<'a> Parser<'a> {
    pub fn new(input: &'a str, opts: &RepairOptions) -> Self {
        let deadline = if opts.timeout_ms > 0 {
            Instant::now().checked_add(Duration::from_millis(opts.timeout_ms))
        } else {
            None
        };
        Parser {
            b: input.as_bytes(),
            // room for a small document's edits and repairs at once: a
            // Vec grown from empty reallocates at 4, 8 and 16 items, which
            // on a document of a few dozen bytes costs as much as a scan
            edits: Vec::with_capacity(EDITS_AT_ONCE),
            repairs: Vec::with_capacity(EDITS_AT_ONCE / 2),
            max_depth: opts.max_depth,
            too_deep_at: None,
            deadline,
            timeout_ms: opts.timeout_ms,
            null_for_missing_values: opts.null_for_missing_values,
            unquoted_strings: opts.unquoted_strings,
            key_cut: false,
            in_group: false,
            in_container: false,
            last_newline: memchr::memrchr(b'\n', input.as_bytes()),
            in_fence: false,
            fence_search: None,
            fence_failed_until: 0,
            ticks: 0,
        }
    }

    // ----- recording -------------------------------------------------------

    #[inline]
    pub fn edit(&mut self, start: usize, end: usize, text: impl Into<Cow<'static, str>>) {
        self.edits.push(Edit {
            start,
            end,
            text: text.into(),
            outer: false,
        });
    }

    /// Inserts an opening `text` at `at` that encloses whatever else is
    /// inserted there (applied before those insertions).
    pub fn edit_outer(&mut self, at: usize, text: &'static str) {
        self.edits.push(Edit {
            start: at,
            end: at,
            text: text.into(),
            outer: true,
        });
    }

    #[inline]
    pub fn delete(&mut self, start: usize, end: usize) {
        if end > start {
            self.edit(start, end, "");
        }
    }

    #[inline]
    pub fn note(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair { kind, offset });
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            edits: self.edits.len(),
            repairs: self.repairs.len(),
        }
    }

    pub fn rollback(&mut self, cp: Checkpoint) {
        self.edits.truncate(cp.edits);
        self.repairs.truncate(cp.repairs);
    }

    /// Drops the edits and notes made since `cp` that apply at or after
    /// offset `at` (those since `cp` are in offset order).
    fn rollback_from(&mut self, cp: Checkpoint, at: usize) {
        let e = cp.edits + self.edits[cp.edits..].partition_point(|e| e.start < at);
        let r = cp.repairs + self.repairs[cp.repairs..].partition_point(|r| r.offset < at);
        self.rollback(Checkpoint {
            edits: e,
            repairs: r,
        });
    }

    /// Budget check, every 1024 tokens; also stops early once the input is
    /// known to be both too deep and in need of repair.
    #[inline]
    fn tick(&mut self, pos: usize) -> Result<(), Fail> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks & 1023 != 0 {
            return Ok(());
        }
        if let Some(at) = self.too_deep_at {
            if !self.edits.is_empty() {
                return Err(self.too_deep(at));
            }
        }
        if let Some(deadline) = self.deadline {
            if Instant::now() > deadline {
                return Err(Fail {
                    code: CODE_BUDGET,
                    message: format!("repair budget of {} ms exceeded", self.timeout_ms),
                    offset: pos,
                });
            }
        }
        Ok(())
    }

    pub fn too_deep(&self, at: usize) -> Fail {
        Fail {
            code: CODE_BUDGET,
            message: format!(
                "nesting deeper than {} levels needs repair (raise the depth limit)",
                self.max_depth
            ),
            offset: at,
        }
    }

    // ----- whitespace and comments ----------------------------------------

    /// Skips JSON whitespace, removes comments and non-ASCII spaces, and
    /// returns the position of the next token (or `end`).
    #[inline]
    pub fn skip_ws(&mut self, mut pos: usize, end: usize) -> usize {
        let b = self.b;
        pos = skip_json_ws(b, pos, end);
        if pos >= end {
            return end;
        }
        let c = b[pos];
        if c != b'/' && c != b'#' && c < 0x80 {
            return pos;
        }
        self.skip_ws_slow(pos, end)
    }

    /// [`Parser::skip_ws`] when a comment or non-ASCII byte is in the way.
    #[cold]
    fn skip_ws_slow(&mut self, mut pos: usize, end: usize) -> usize {
        let b = self.b;
        loop {
            pos = skip_json_ws(b, pos, end);
            if pos >= end {
                return end;
            }
            let c = b[pos];
            if c == b'/' && pos + 1 < end && b[pos + 1] == b'/' || c == b'#' {
                let mut stop = memchr::memchr(b'\n', &b[pos..end]).map_or(end, |i| pos + i);
                if c == b'#'
                    && stop == end
                    && self.in_container
                    && self.last_newline.is_none_or(|n| n < pos)
                {
                    // `{"a": 1 # note }`: a `#` note on the last line does
                    // not hide the closers written after it on that line
                    // (a `//` comment runs to the line end, as in JavaScript)
                    if let Some(i) = memchr::memchr2(b'}', b']', &b[pos..end]) {
                        stop = pos + i;
                    }
                }
                self.delete(pos, stop);
                self.note(RepairKind::Comment, pos);
                pos = stop;
            } else if c == b'/' && pos + 1 < end && b[pos + 1] == b'*' {
                let stop =
                    memchr::memmem::find(&b[pos + 2..end], b"*/").map_or(end, |i| pos + 2 + i + 2);
                self.delete(pos, stop);
                self.note(RepairKind::Comment, pos);
                pos = stop;
            } else if c >= 0x80 {
                match non_ascii_space(b, pos, end) {
                    Some((len, Space::Space)) => {
                        self.edit(pos, pos + len, " ");
                        self.note(RepairKind::NonAsciiWhitespace, pos);
                        pos += len;
                    }
                    Some((len, Space::ZeroWidth)) => {
                        self.delete(pos, pos + len);
                        self.note(RepairKind::NonAsciiWhitespace, pos);
                        pos += len;
                    }
                    None => return pos,
                }
            } else {
                return pos;
            }
        }
    }

    // ----- values -----------------------------------------------------------

    /// Parses one value starting at `start` (a token position) and ending at
    /// or before `end`. Returns the offset just after the value; a value cut
    /// off by `end` is completed there and `end` is returned.
    pub fn value(&mut self, start: usize, end: usize) -> Result<usize, Fail> {
        let r = self.value_inner(start, end);
        self.in_container = false;
        r
    }

    fn value_inner(&mut self, start: usize, end: usize) -> Result<usize, Fail> {
        let mut w = Walk {
            stack: Vec::new(),
            objs: 0,
            arrs: 0,
            st: St::Value,
            pos: start,
            pending_comma: None,
            last_end: start,
            last_scalar: None,
            last_array_close: None,
        };
        loop {
            self.tick(w.pos)?;
            self.in_container = !w.stack.is_empty();
            w.pos = self.skip_ws(w.pos, end);
            if w.pos >= end {
                return self.walk_end(&mut w, start, end);
            }
            let c = self.b[w.pos];
            let flow = if c == b')' {
                self.walk_paren(&mut w)?
            } else if c == b'`' && !w.stack.is_empty() && self.b[w.pos..end].starts_with(b"```") {
                // A closing code fence ends the document (`{"a": 1```).
                return self.value_end_at(&mut w.stack, w.st, w.pending_comma, w.pos);
            } else if c == b'}' || c == b']' {
                // Closers are handled alike in every state.
                self.walk_closer(&mut w, c, end)?
            } else {
                match w.st {
                    St::Value => self.walk_value(&mut w, c, end)?,
                    St::Key => self.walk_key(&mut w, c, end)?,
                    St::Colon => self.walk_colon(&mut w, c, end)?,
                    St::After => self.walk_after(&mut w, c, end)?,
                }
            };
            if let Flow::Done(at) = flow {
                return Ok(at);
            }
        }
    }

    /// The input ended at `end`: closes what is open, or fails when nothing is.
    fn walk_end(&mut self, w: &mut Walk, start: usize, end: usize) -> Result<usize, Fail> {
        if w.stack.is_empty() {
            return Err(Fail::hopeless("no JSON value found", start.min(end)));
        }
        self.before_close(&mut w.stack, w.st, w.pending_comma, end);
        let mut closers = String::with_capacity(w.stack.len());
        for f in w.stack.iter().rev() {
            if f.paren {
                closers.push_str(self.close_paren(f, end, false));
            } else {
                closers.push(if f.obj { '}' } else { ']' });
            }
        }
        self.edit(end, end, closers);
        self.note(RepairKind::MissingClose, end);
        Ok(end)
    }

    /// A `)` at `w.pos`: closes a group, or is a stray closer.
    fn walk_paren(&mut self, w: &mut Walk) -> Result<Flow, Fail> {
        if w.stack.last().is_some_and(|f| f.paren) {
            self.before_close(&mut w.stack, w.st, w.pending_comma, w.pos);
            w.pending_comma = None;
            let Some(frame) = w.stack.pop() else {
                return Err(Fail::hopeless("internal: empty stack", w.pos));
            };
            self.close_paren(&frame, w.pos, true);
            w.pos += 1;
            w.last_end = w.pos;
            w.last_scalar = None;
            w.st = St::After;
            match w.stack.last_mut() {
                Some(parent) => parent.any = true,
                None => return Ok(Flow::Done(w.pos)),
            }
            return Ok(Flow::Next);
        }
        if w.stack.is_empty() {
            return Err(Fail::hopeless(
                "unexpected ')' where a value was expected",
                w.pos,
            ));
        }
        self.delete(w.pos, w.pos + 1);
        self.note(RepairKind::ExtraClose, w.pos);
        w.pos += 1;
        Ok(Flow::Next)
    }

    /// A `}` or `]` at `w.pos` (`c`), in any state.
    fn walk_closer(&mut self, w: &mut Walk, c: u8, end: usize) -> Result<Flow, Fail> {
        let want_obj = c == b'}';
        let matches_top = w
            .stack
            .last()
            .is_some_and(|f| f.obj == want_obj && !f.paren || f.set && want_obj);
        let matches_below = matches_top || if want_obj { w.objs > 0 } else { w.arrs > 0 };
        if !matches_below {
            // Nothing to close: a stray closer. At the top level the
            // caller deals with it.
            if w.stack.is_empty() {
                return Err(Fail::hopeless(
                    format!("unexpected '{}' where a value was expected", c as char),
                    w.pos,
                ));
            }
            self.delete(w.pos, w.pos + 1);
            self.note(RepairKind::ExtraClose, w.pos);
            w.pos += 1;
            return Ok(Flow::Next);
        }
        if matches_top
            && want_obj
            && w.stack.len() == 1
            && w.st == St::After
            && self.members_follow(w.pos + 1, end)
        {
            // `{"a": 1}, "b": 2}`: the object goes on after a
            // brace written too early.
            self.delete(w.pos, w.pos + 1);
            self.note(RepairKind::ExtraClose, w.pos);
            w.pos += 1;
            return Ok(Flow::Next);
        }
        self.before_close(&mut w.stack, w.st, w.pending_comma, w.pos);
        w.pending_comma = None;
        let Some(frame) = w.stack.pop() else {
            return Err(Fail::hopeless("internal: empty stack", w.pos));
        };
        if !frame.paren {
            if frame.obj {
                w.objs -= 1;
            } else {
                w.arrs -= 1;
            }
        }
        w.last_array_close = None;
        w.last_scalar = None;
        if matches_top {
            if frame.set && want_obj {
                self.edit(w.pos, w.pos + 1, "]");
            } else if !frame.obj && w.stack.last().is_some_and(|f| f.obj) {
                w.last_array_close = Some(w.pos);
            }
            w.pos += 1;
        } else if frame.paren {
            let text = self.close_paren(&frame, w.pos, false);
            self.edit(w.pos, w.pos, text);
        } else {
            // `{"a": [1}`: the array is closed before the brace.
            self.edit(w.pos, w.pos, if frame.obj { "}" } else { "]" });
            self.note(RepairKind::MissingClose, w.pos);
        }
        w.last_end = w.pos;
        w.st = St::After;
        match w.stack.last_mut() {
            Some(parent) => parent.any = true,
            None => return Ok(Flow::Done(w.pos)),
        }
        Ok(Flow::Next)
    }

    /// A value is expected: `c` at `w.pos` begins one (or is a comma, a stray token…).
    fn walk_value(&mut self, w: &mut Walk, c: u8, end: usize) -> Result<Flow, Fail> {
        let b = self.b;
        let in_obj = w.stack.last().map(|f| f.obj);
        if c == b',' {
            match in_obj {
                Some(false) => {
                    // `[,1]` or `[1,,2]`
                    self.delete(w.pos, w.pos + 1);
                    self.note(RepairKind::TrailingComma, w.pos);
                    w.pos += 1;
                    return Ok(Flow::Next);
                }
                Some(true) => {
                    // `{"a": , "b": 1}`: the member has no value.
                    self.comma_after_valueless_member(w, true);
                    return Ok(Flow::Next);
                }
                None => {
                    return Err(Fail::hopeless(
                        "unexpected ',' where a value was expected",
                        w.pos,
                    ));
                }
            }
        }
        if let Some(dots) = self.ellipsis_len(w.pos, end) {
            if in_obj.is_none() {
                return Err(Fail::hopeless("an ellipsis is not a JSON value", w.pos));
            }
            self.delete(w.pos, w.pos + dots);
            self.note(RepairKind::Ellipsis, w.pos);
            if in_obj == Some(false) {
                if let Some(p) = w.pending_comma.take() {
                    // `[1, 2, ...]`: drop the comma before it too.
                    self.delete(p, p + 1);
                    w.st = St::After;
                } else {
                    // `[..., 3]`: drop the comma after it.
                    let k = skip_json_ws(b, w.pos + dots, end);
                    if k < end && b[k] == b',' {
                        self.delete(k, k + 1);
                        w.pos = k + 1;
                        return Ok(Flow::Next);
                    }
                }
            }
            w.pos += dots;
            return Ok(Flow::Next);
        }
        // A value starts here: a pending comma in an array is now
        // a real separator.
        w.pending_comma = None;
        let ctx = match in_obj {
            Some(true) => Ctx::ObjValue,
            Some(false) => Ctx::ArrValue,
            None => Ctx::Top,
        };
        self.in_group = w.stack.last().is_some_and(|f| f.paren);
        // `(1, 2)`, or with unquoted text allowed a call
        // wrapping a value: `NumberLong("2")`, `callback(…)`
        let group = if c == b'(' {
            Some(w.pos)
        } else if self.unquoted_strings && is_ident_start(c) {
            call_paren(b, w.pos, end)
        } else {
            None
        };
        if c == b'{' || c == b'[' || group.is_some() {
            let obj = c == b'{';
            let depth = w.stack.len() + 1;
            if depth > self.max_depth && self.too_deep_at.is_none() {
                self.too_deep_at = Some(w.pos);
            }
            let open = group.unwrap_or(w.pos);
            w.stack.push(Frame {
                obj,
                del_start: open + 1,
                cp: self.checkpoint(),
                key_at: open + 1,
                any: false,
                paren: group.is_some(),
                name_at: w.pos,
                open,
                multi: false,
                set: false,
            });
            if obj {
                w.objs += 1;
                w.st = St::Key;
            } else {
                if group.is_none() {
                    w.arrs += 1;
                }
                w.st = St::Value;
            }
            w.pos = open + 1;
            return Ok(Flow::Next);
        }
        w.last_array_close = None;
        match self.scalar(w.pos, end, ctx)? {
            Some(after) => {
                w.last_scalar = Some(w.pos);
                w.pos = after;
                w.last_end = after;
                w.st = St::After;
                match w.stack.last_mut() {
                    Some(f) => f.any = true,
                    None => return Ok(Flow::Done(after)),
                }
            }
            None => {
                // Nothing usable before the end (a lone `-`):
                // drop the slot with its comma.
                match w.stack.last_mut() {
                    Some(f) if f.obj => self.drop_member(f, end),
                    Some(f) => {
                        self.rollback(f.cp);
                        self.delete(f.del_start, end);
                        self.note(
                            if matches!(c, b'"' | b'\'') {
                                RepairKind::TruncatedString
                            } else {
                                RepairKind::TruncatedNumber
                            },
                            w.pos,
                        );
                        f.cp = self.checkpoint();
                    }
                    None => {}
                }
                w.st = St::After;
                w.pos = end;
            }
        }
        Ok(Flow::Next)
    }

    /// A key or `}` is expected (after `{` or a comma in an object).
    fn walk_key(&mut self, w: &mut Walk, c: u8, end: usize) -> Result<Flow, Fail> {
        let merge = match (c, w.last_array_close, w.pending_comma) {
            (b'[', Some(q), Some(p)) if skip_json_ws(self.b, q + 1, end) == p => Some((q, p)),
            _ => None,
        };
        if let Some((q, p)) = merge {
            // `{"k": [1], [2]}`: the array goes on (only the comma
            // between: not after a later member, `[1], "e":, [`)
            self.delete(q, q + 1);
            self.note(RepairKind::ExtraClose, q);
            // an element cut to nothing (`[1],[ "`) takes the comma and
            // this `[` with it: its slot starts at the comma
            let cp = self.checkpoint();
            self.delete(w.pos, w.pos + 1);
            // the comma now separates elements of the one array:
            // still pending, so it goes if no element follows
            w.last_array_close = None;
            w.arrs += 1;
            w.stack.push(Frame {
                obj: false,
                del_start: p,
                cp,
                key_at: w.pos + 1,
                any: true,
                paren: false,
                name_at: q,
                open: q,
                multi: true,
                set: false,
            });
            w.st = St::Value;
            w.pos += 1;
            return Ok(Flow::Next);
        }
        if c == b'{' && self.object_in_array(&w.stack) {
            // `[{"i": 1, {"i": 2}]`, `[{{]`: the object was
            // never closed; the brace starts the next element.
            w.stack.pop();
            w.objs -= 1;
            match w.pending_comma.take() {
                Some(p) => self.edit(p, p, "}"),
                None => self.edit(w.pos, w.pos, "},"),
            }
            self.note(RepairKind::MissingClose, w.pos);
            if let Some(parent) = w.stack.last_mut() {
                parent.any = true;
            }
            w.st = St::Value;
            return Ok(Flow::Next);
        }
        if c == b',' {
            // `{,` or `{"a": 1,,`
            self.delete(w.pos, w.pos + 1);
            self.note(RepairKind::TrailingComma, w.pos);
            w.pos += 1;
            return Ok(Flow::Next);
        }
        if let Some(dots) = self.ellipsis_len(w.pos, end) {
            self.delete(w.pos, w.pos + dots);
            self.note(RepairKind::Ellipsis, w.pos);
            if let Some(p) = w.pending_comma.take() {
                self.delete(p, p + 1);
                w.st = St::After;
            }
            w.pos += dots;
            return Ok(Flow::Next);
        }
        w.pending_comma = None;
        if let Some(f) = w.stack.last_mut() {
            f.key_at = w.pos;
        }
        w.pos = self.key(w.pos, end)?;
        w.st = St::Colon;
        Ok(Flow::Next)
    }

    /// The `:` after a key is expected.
    fn walk_colon(&mut self, w: &mut Walk, c: u8, end: usize) -> Result<Flow, Fail> {
        let b = self.b;
        if c == b':' {
            w.pos += 1;
            w.st = St::Value;
        } else if c == b',' && self.set_follows(&w.stack, w.pos, end) {
            // `{'a', 'b'}`: a Python set, an array
            if let Some(f) = w.stack.last_mut() {
                f.obj = false;
                f.set = true;
                f.any = true;
                self.edit(f.open, f.open + 1, "[");
                self.note(RepairKind::PythonSet, f.open);
            }
            w.objs -= 1;
            w.arrs += 1;
            w.st = St::After;
        } else if c == b',' {
            // `{"a", "b": 1}`: a key without a value.
            self.comma_after_valueless_member(w, false);
        } else if self.starts_value(w.pos, end) {
            self.edit(w.pos, w.pos, ":");
            self.note(RepairKind::MissingColon, w.pos);
            w.st = St::Value;
        } else {
            return Err(Fail::hopeless(
                format!(
                    "expected ':' after an object key, found {}",
                    describe(b, w.pos, end)
                ),
                w.pos,
            ));
        }
        Ok(Flow::Next)
    }

    /// A comma at `w.pos` after a member that has no value (`had_colon`:
    /// its colon was written): the member is given a value or dropped
    /// (`fill_or_drop_member`); when dropped and the comma now
    /// follows `{`, the comma goes too.
    fn comma_after_valueless_member(&mut self, w: &mut Walk, had_colon: bool) {
        let filled = match w.stack.last_mut() {
            Some(f) => self.fill_or_drop_member(f, w.pos, had_colon),
            None => false,
        };
        if filled {
            w.last_end = w.pos;
            w.st = St::After;
            return;
        }
        w.st = after_or_key(&w.stack);
        if w.st == St::Key {
            // The comma now follows `{`: superfluous.
            self.delete(w.pos, w.pos + 1);
            self.note(RepairKind::TrailingComma, w.pos);
            w.pos += 1;
        }
    }

    /// A value has ended: a comma, a closer or what stands for them is expected.
    fn walk_after(&mut self, w: &mut Walk, c: u8, end: usize) -> Result<Flow, Fail> {
        let b = self.b;
        if c == b'{' && self.object_in_array(&w.stack) {
            // `[{"i": 1 {"i": 2}]`
            w.stack.pop();
            w.objs -= 1;
            self.edit(w.last_end, w.last_end, "},");
            self.note(RepairKind::MissingClose, w.last_end);
            w.st = St::Value;
            return Ok(Flow::Next);
        }
        if let Some(key) = w.last_scalar.filter(|&s| {
            c == b':'
                && matches!(b[s], b'"' | b'\'')
                && w.stack.last().is_some_and(|f| !f.obj && !f.paren)
        }) {
            // `["key": "value"]`: the element is a key, and an
            // object was meant around the member
            self.edit(key, key, "{");
            self.note(RepairKind::MissingOpen, key);
            w.objs += 1;
            w.stack.push(Frame {
                obj: true,
                del_start: key,
                cp: self.checkpoint(),
                key_at: key,
                any: false,
                paren: false,
                name_at: key,
                open: key,
                multi: false,
                set: false,
            });
            w.st = St::Value;
            w.pos += 1;
            return Ok(Flow::Next);
        }
        let Some(top) = w.stack.last_mut() else {
            return Ok(Flow::Done(w.last_end));
        };
        if c == b',' {
            top.del_start = w.pos;
            top.cp = Checkpoint {
                edits: self.edits.len(),
                repairs: self.repairs.len(),
            };
            top.key_at = w.pos + 1;
            top.multi = true;
            w.pending_comma = Some(w.pos);
            w.st = if top.obj { St::Key } else { St::Value };
            w.pos += 1;
            return Ok(Flow::Next);
        }
        if let Some(dots) = self.ellipsis_len(w.pos, end) {
            // `[1, 2 ...]`
            self.delete(w.pos, w.pos + dots);
            self.note(RepairKind::Ellipsis, w.pos);
            w.pos += dots;
            return Ok(Flow::Next);
        }
        let obj = top.obj;
        if obj && !top.paren && !top.set {
            if let Some(brace) = self.words_before_brace(w.pos, end) {
                // `{"b": "x" note}`: words after the last value
                self.delete(w.last_end, brace);
                self.note(RepairKind::StrayText, w.pos);
                w.pos = brace;
                return Ok(Flow::Next);
            }
        }
        let next_ok = if obj {
            self.starts_key(w.pos, end)
        } else {
            self.starts_value(w.pos, end)
        };
        if next_ok {
            // `{"a": 1 "b": 2}`: insert the comma after the value.
            top.del_start = w.last_end;
            top.cp = Checkpoint {
                edits: self.edits.len(),
                repairs: self.repairs.len(),
            };
            top.key_at = w.pos;
            self.edit(w.last_end, w.last_end, ",");
            self.note(RepairKind::MissingComma, w.last_end);
            w.st = if obj { St::Key } else { St::Value };
            return Ok(Flow::Next);
        }
        Err(Fail::hopeless(
            format!(
                "expected ',' or '{}' after a value, found {}",
                if obj { '}' } else { ']' },
                describe(b, w.pos, end)
            ),
            w.pos,
        ))
    }

    /// Closes the group `f` at `at`: `(`/`name(` becomes `[` and the `)` at
    /// `at` a `]` (`has_closer`), or both go when the group holds exactly
    /// one value. Returns the closer text still to insert at `at` when
    /// there is no `)`.
    fn close_paren(&mut self, f: &Frame, at: usize, has_closer: bool) -> &'static str {
        let kind = if f.name_at < f.open {
            RepairKind::FunctionWrapper
        } else {
            RepairKind::Tuple
        };
        self.note(kind, f.name_at);
        if f.any && !f.multi {
            self.delete(f.name_at, f.open + 1);
            if has_closer {
                self.delete(at, at + 1);
            }
            return "";
        }
        self.edit(f.name_at, f.open + 1, "[");
        if has_closer {
            self.edit(at, at + 1, "]");
            ""
        } else {
            "]"
        }
    }

    /// At a `,` right after the first key of an object (with no colon):
    /// the object is a Python set when the key was quoted and the next
    /// item is a quoted string followed by `,` or `}` (only where missing
    /// values would get `null`, the repair subcommand).
    fn set_follows(&self, stack: &[Frame], comma: usize, end: usize) -> bool {
        let b = self.b;
        let Some(f) = stack.last() else {
            return false;
        };
        if !self.null_for_missing_values || f.any || f.paren || !matches!(b[f.key_at], b'"' | b'\'')
        {
            return false;
        }
        let k = skip_json_ws(b, comma + 1, end);
        if k >= end || !matches!(b[k], b'"' | b'\'') {
            return false;
        }
        let q = b[k];
        let Some(c) = (k + 1..end.min(k + 1 + 128)).find(|&m| b[m] == q || b[m] == b'\\') else {
            return false;
        };
        let m = skip_json_ws(b, c + 1, end);
        b[c] == q && m < end && matches!(b[m], b',' | b'}')
    }

    /// True when the top frame is an object directly inside an array.
    fn object_in_array(&self, stack: &[Frame]) -> bool {
        let n = stack.len();
        n >= 2 && stack[n - 1].obj && !stack[n - 2].obj && !stack[n - 2].paren
    }

    /// After a `}` that would close the document's object: `, "key":` (or
    /// `, "key" "value"`) follows, so the object goes on.
    fn members_follow(&self, after: usize, end: usize) -> bool {
        let b = self.b;
        let j = skip_json_ws(b, after, end);
        if j >= end || b[j] != b',' {
            return false;
        }
        let k = skip_json_ws(b, j + 1, end);
        if k >= end || b[k] != b'"' {
            return false;
        }
        let Some(q) =
            (k + 1..end.min(k + 1 + 128)).find(|&m| matches!(b[m], b'"' | b'\\') || b[m] < 0x20)
        else {
            return false;
        };
        let m = skip_json_ws(b, q + 1, end);
        b[q] == b'"' && m < end && matches!(b[m], b':' | b'"')
    }

    /// Closes every open container at `at` (a closing code fence there
    /// ends the document) and returns `at`.
    fn value_end_at(
        &mut self,
        stack: &mut [Frame],
        st: St,
        pending_comma: Option<usize>,
        at: usize,
    ) -> Result<usize, Fail> {
        self.before_close(stack, st, pending_comma, at);
        let mut closers = String::with_capacity(stack.len());
        for f in stack.iter().rev() {
            if f.paren {
                closers.push_str(self.close_paren(f, at, false));
            } else {
                closers.push(if f.obj { '}' } else { ']' });
            }
        }
        self.edit(at, at, closers);
        self.note(RepairKind::MissingClose, at);
        Ok(at)
    }

    /// Fixes what the current state leaves unfinished before the top
    /// container is closed at `at` (by a closer or by the end of input).
    fn before_close(
        &mut self,
        stack: &mut [Frame],
        st: St,
        pending_comma: Option<usize>,
        at: usize,
    ) {
        let Some(top) = stack.last_mut() else {
            return;
        };
        match st {
            St::Value if top.obj => {
                self.fill_or_drop_member(top, at, true);
            }
            St::Colon => {
                self.fill_or_drop_member(top, at, false);
            }
            St::Value | St::Key => {
                if let Some(p) = pending_comma {
                    self.delete(p, p + 1);
                    self.note(RepairKind::TrailingComma, p);
                }
            }
            St::After => {}
        }
    }

    /// A member whose key is complete but whose value is missing, at `at`:
    /// `null` goes there (after a `:` when `colon` is false) when the options
    /// ask for it; otherwise the member is dropped. True when it was filled.
    fn fill_or_drop_member(&mut self, f: &mut Frame, at: usize, colon: bool) -> bool {
        if self.null_for_missing_values && (colon || !self.key_cut) {
            self.edit(at, at, if colon { "null" } else { ":null" });
            self.note(RepairKind::MissingValue, at);
            f.any = true;
            true
        } else {
            self.drop_member(f, at);
            false
        }
    }

    /// Removes the current member of object `f` (from its preceding comma or
    /// the opener up to `upto`), discarding what was recorded inside it.
    fn drop_member(&mut self, f: &mut Frame, upto: usize) {
        self.rollback(f.cp);
        // Edits recorded before the checkpoint can still lie inside the
        // member (its key's quote, fixed as the key began): they go too, or
        // a fixed quote would outlive the key it belonged to. They become
        // empty insertions rather than leaving the list, so every
        // checkpoint's count still holds; the walk back stops at the first
        // edit before the member (edits are recorded roughly in offset
        // order), so each is passed over at most once.
        let start = f.del_start;
        for e in self.edits.iter_mut().rev() {
            if e.start < start {
                break;
            }
            let inside = e.end <= upto && (e.end > e.start || (e.start > start && e.start < upto));
            if inside {
                e.end = e.start;
                e.text = Cow::Borrowed("");
            }
        }
        self.delete(start, upto);
        self.note(RepairKind::DroppedPartialKey, f.key_at);
        f.cp = self.checkpoint();
        f.del_start = upto;
    }

    /// Length of an ellipsis placeholder (`...`, more dots, or `…`) at `pos`.
    #[inline]
    fn ellipsis_len(&self, pos: usize, end: usize) -> Option<usize> {
        let b = self.b;
        if b[pos] != b'.' && b[pos] != 0xE2 {
            return None;
        }
        if b[pos] == b'.' {
            let mut i = pos;
            while i < end && b[i] == b'.' {
                i += 1;
            }
            return (i - pos >= 2 && !(i < end && b[i].is_ascii_digit())).then_some(i - pos);
        }
        is_unicode_ellipsis(b, pos, end).then_some(3)
    }

    /// Whether a value can start at `pos`.
    fn starts_value(&self, pos: usize, end: usize) -> bool {
        let c = self.b[pos];
        matches!(c, b'"' | b'\'' | b'{' | b'[' | b'(' | b'-' | b'0'..=b'9')
            || c.is_ascii_alphabetic()
            || backtick_at(self.b, pos, end)
            || matches!(
                curly_at(self.b, pos, end),
                Some(Curly::LeftDouble | Curly::LeftSingle | Curly::RightDouble)
            )
    }

    /// Whether an object key can start at `pos`.
    fn starts_key(&self, pos: usize, end: usize) -> bool {
        let c = self.b[pos];
        c == b'"'
            || c == b'\''
            || curly_at(self.b, pos, end).is_some()
            || backtick_at(self.b, pos, end)
            || (is_ident_start(c) && ident_len(self.b, pos, end) > 0)
            || (c.is_ascii_digit() && self.bare_key_at(pos, end))
    }

    /// Where unquoted text that starts a value at `pos` (its first word
    /// ends at `word_end`) ends: at the next `,`, the container's closer or
    /// the line end (trailing blanks left out); at the top, only a document
    /// that is one line of text with no brackets or quotes qualifies. `None`
    /// when it is not such text (a call like `NumberLong(` is not).
    ///
    /// Returns the end of the text and where parsing resumes: past a `"`
    /// that ends the text right before a separator (`foo",`, `abc"` at the
    /// end), which is the text's closing quote whose opening one is missing.
    fn unquoted_end(
        &self,
        pos: usize,
        word_end: usize,
        end: usize,
        ctx: Ctx,
    ) -> Option<(usize, usize)> {
        let b = self.b;
        if b.get(word_end) == Some(&b'(') {
            return None;
        }
        let stop = match ctx {
            Ctx::Top => {
                let rest = &b[pos..end];
                let body = match memchr::memchr(b'"', rest) {
                    // `abc"`: one quote, the last thing written
                    Some(q) if skip_json_ws(b, pos + q + 1, end) >= end => &rest[..q],
                    _ => rest,
                };
                if body
                    .iter()
                    .any(|&c| matches!(c, b'{' | b'[' | b'"' | b'\n' | b'\r'))
                {
                    return None;
                }
                pos + body.len()
            }
            Ctx::ObjValue | Ctx::ArrValue => {
                let closer = if ctx == Ctx::ObjValue { b'}' } else { b']' };
                // brackets opened inside the text (`words{in brackets}`)
                // are closed inside it too
                let mut depth = 0usize;
                let mut k = pos;
                // In an object, text may run past commas to a quote that
                // closes it (`{"a": x, y, z",}`); looked for within a
                // bounded distance, the first comma ends it otherwise.
                let mut first_comma: Option<usize> = None;
                while k < end {
                    let c = b[k];
                    if let Some(fc) = first_comma {
                        if k >= fc + 256 || c == b':' {
                            k = fc;
                            break;
                        }
                    }
                    if matches!(c, b'{' | b'[') {
                        depth += 1;
                    } else if depth > 0 && matches!(c, b'}' | b']') {
                        depth -= 1;
                    } else if c == b',' && depth == 0 && ctx == Ctx::ObjValue {
                        first_comma.get_or_insert(k);
                    } else if matches!(c, b',' | b'"' | b'\n' | b'\r') && depth == 0
                        || c == closer
                        // the other container's closer, unmatched in the
                        // text: it closes something around (`["v", x: 1}]`)
                        || (depth == 0 && matches!(c, b'}' | b']'))
                        || matches!(c, b'"' | b'\n' | b'\r')
                    {
                        if let Some(fc) = first_comma {
                            let m = skip_json_ws(b, k + 1, end);
                            let closing = c == b'"' && (m >= end || matches!(b[m], b',' | b'}'));
                            if !closing {
                                k = fc;
                            }
                        }
                        break;
                    }
                    k += 1;
                }
                if k >= end {
                    k = first_comma.unwrap_or(k);
                }
                k
            }
            Ctx::Key => return None,
        };
        let quote_ends = stop < end && b[stop] == b'"' && {
            let k = skip_json_ws(b, stop + 1, end);
            k >= end || matches!(b[k], b',' | b'}' | b']')
        };
        let raw_stop = stop;
        let mut stop = stop;
        while stop > pos && matches!(b[stop - 1], b' ' | b'\t') {
            stop -= 1;
        }
        let resume = if quote_ends { raw_stop + 1 } else { stop };
        (stop > pos).then_some((stop, resume))
    }

    /// Quotes the unquoted text `pos..stop` found by
    /// [`Parser::unquoted_end`]; a closing quote at `resume - 1` is taken
    /// in. Returns where parsing resumes.
    fn quote_unquoted(
        &mut self,
        pos: usize,
        stop: usize,
        resume: usize,
        kind: RepairKind,
    ) -> usize {
        self.quote_text(pos, stop);
        // the quote that ends the text (and blanks before it) goes
        self.delete(stop, resume);
        if resume > stop {
            self.note(RepairKind::MissingOpenQuote, pos);
        } else {
            self.note(kind, pos);
        }
        resume.max(stop)
    }

    /// Replaces `b[pos..stop]` by the JSON string of that text.
    fn quote_text(&mut self, pos: usize, stop: usize) {
        let text = String::from_utf8_lossy(&self.b[pos..stop]);
        let quoted = serde_json::Value::String(text.into_owned()).to_string();
        self.edit(pos, stop, quoted);
    }

    // ----- keys ---------------------------------------------------------------

    /// Parses an object key at `pos`; returns the offset after it. A key cut
    /// off by the end returns `end` (the caller then drops the member).
    fn key(&mut self, pos: usize, end: usize) -> Result<usize, Fail> {
        let b = self.b;
        let c = b[pos];
        if c == b'"' || c == b'\'' || curly_at(b, pos, end).is_some() || backtick_at(b, pos, end) {
            let after = self.string(pos, end, Ctx::Key);
            self.key_cut = after.is_none();
            return Ok(after.unwrap_or(end));
        }
        if is_ident_start(c) || c.is_ascii_digit() {
            if let Some(q) = self.key_after_stray_text(pos, end) {
                // `{"a": 1, COMMENT "b": 2}`: words before a quoted key
                self.delete(pos, q);
                self.note(RepairKind::StrayText, pos);
                return self.key(q, end);
            }
            let len = ident_len(b, pos, end);
            if len > 0 {
                let after = pos + len;
                if after < end && b[after] == b'"' {
                    let k = skip_json_ws(b, after + 1, end);
                    if k < end && b[k] == b':' {
                        // `{a": 1}`: the key lost its opening quote
                        self.key_cut = false;
                        self.edit(pos, pos, "\"");
                        self.note(RepairKind::MissingOpenQuote, pos);
                        return Ok(after + 1);
                    }
                }
                let k = skip_json_ws(b, after, end);
                let value_next = k > after
                    && k < end
                    && (matches!(b[k], b'"' | b'\'' | b'{' | b'[' | b'-' | b'0'..=b'9')
                        || curly_at(b, k, end).is_some());
                if k >= end || b[k] == b':' || value_next {
                    // an unquoted key the end cuts may be part of a word
                    self.key_cut = after >= end;
                    self.edit(pos, pos, "\"");
                    self.edit(after, after, "\"");
                    self.note(RepairKind::UnquotedKey, pos);
                    return Ok(after);
                }
                return Err(Fail::hopeless(
                    format!(
                        "expected ':' after the unquoted key, found {}",
                        describe(b, k, end)
                    ),
                    k,
                ));
            }
        }
        Err(Fail::hopeless(
            format!("expected an object key, found {}", describe(b, pos, end)),
            pos,
        ))
    }

    /// For words at `pos` where a key belongs: when they are followed, on
    /// the same line and after a blank, by a quoted key and its `:`
    /// (`COMMENT "b": 2`), the offset of that key's quote.
    fn key_after_stray_text(&self, pos: usize, end: usize) -> Option<usize> {
        let b = self.b;
        let limit = end.min(pos + 256);
        let q = (pos..limit).find(|&k| {
            matches!(
                b[k],
                b'"' | b'\'' | b':' | b',' | b'{' | b'}' | b'[' | b']' | b'\n' | b'\r'
            )
        })?;
        if b[q] != b'"' || !matches!(b[q - 1], b' ' | b'\t') {
            return None;
        }
        let close =
            (q + 1..end.min(q + 1 + 128)).find(|&m| matches!(b[m], b'"' | b'\\') || b[m] < 0x20)?;
        let colon = skip_json_ws(b, close + 1, end);
        (b[close] == b'"' && close > q + 1 && colon < end && b[colon] == b':').then_some(q)
    }

    // ----- scalars -------------------------------------------------------------

    /// Parses a string, number or literal at `pos`. `None` means the value
    /// was cut off so early that nothing of it is kept (it was deleted).
    fn scalar(&mut self, pos: usize, end: usize, ctx: Ctx) -> Result<Option<usize>, Fail> {
        let b = self.b;
        let c = b[pos];
        if c == b'"' || c == b'\'' || curly_at(b, pos, end).is_some() || backtick_at(b, pos, end) {
            if c == b'"'
                && !self.in_fence
                && matches!(ctx, Ctx::ObjValue | Ctx::ArrValue)
                && b[pos + 1..end].starts_with(b"```")
            {
                if let Some(after) = self.fenced_in_string(pos, end)? {
                    return Ok(Some(after));
                }
            }
            if matches!(ctx, Ctx::Top | Ctx::ArrValue)
                && matches!(c, b'"' | b'\'')
                && skip_json_ws(b, pos + 1, end) >= end
            {
                // `["`, `"`: a quote the end follows at once began no value
                return Ok(None);
            }
            let mut after = self.string(pos, end, ctx);
            // `"a" + "b"`: one string
            while let Some(close) = after {
                let cp = self.checkpoint();
                let j = self.skip_ws(close, end);
                let k = if j < end && b[j] == b'+' {
                    self.skip_ws(j + 1, end)
                } else {
                    end
                };
                if k >= end || !(matches!(b[k], b'"' | b'\'') || curly_at(b, k, end).is_some()) {
                    self.rollback(cp);
                    break;
                }
                let open_len = if b[k] >= 0x80 { 3 } else { 1 };
                // a closing `'` or `”` rewritten as `"` goes with the rest
                if self
                    .edits
                    .last()
                    .is_some_and(|e| e.end == close && e.start < close && e.text == "\"")
                {
                    self.edits.pop();
                }
                let quote_len = if b[close - 1] >= 0x80 { 3 } else { 1 };
                self.delete(close - quote_len, k + open_len);
                self.note(RepairKind::StringConcatenation, j);
                after = self.string(k, end, ctx);
            }
            return Ok(Some(after.unwrap_or(end)));
        }
        if c == b'/' && self.unquoted_strings {
            if let Some(stop) = regex_end(b, pos, end) {
                self.quote_text(pos, stop);
                self.note(RepairKind::RegexLiteral, pos);
                return Ok(Some(stop));
            }
        }
        if c == b'-' || c == b'+' || c == b'.' || c.is_ascii_digit() {
            let after = self.number(pos, end, ctx)?;
            if let Some(e) = after.filter(|&e| {
                matches!(ctx, Ctx::ObjValue | Ctx::ArrValue) && e < end && b[e] == b'"'
            }) {
                let k = skip_json_ws(b, e + 1, end);
                if k >= end || matches!(b[k], b',' | b'}' | b']') {
                    // `"n": 12345",`: a stray quote after a number
                    self.delete(e, e + 1);
                    self.note(RepairKind::StrayText, e);
                    return Ok(Some(e + 1));
                }
            }
            return Ok(after);
        }
        if c.is_ascii_alphabetic() {
            return self.word(pos, end, ctx).map(Some);
        }
        Err(Fail::hopeless(
            format!("expected a JSON value, found {}", describe(b, pos, end)),
            pos,
        ))
    }

    /// A string value opened at `open` whose content is a code fence
    /// around an object or array, closed by the string's quote
    /// (`"```json {"a": 1}```"`): the fence and the quotes go, and the
    /// JSON inside is the value. Returns the offset after the closing
    /// quote, or `None` (nothing recorded) when the string is not such.
    fn fenced_in_string(&mut self, open: usize, end: usize) -> Result<Option<usize>, Fail> {
        let b = self.b;
        if open < self.fence_failed_until {
            return Ok(None);
        }
        let body = fence_body_start(b, open + 4, end);
        // the first fence at or after `body`, remembered so that many
        // strings opening with a fence search the input once
        let close = match self.fence_search {
            Some((from, found)) if from <= body && found.is_none_or(|f| body <= f) => found,
            _ => {
                let found = memchr::memmem::find(&b[body..end], b"```").map(|i| body + i);
                self.fence_search = Some((body, found));
                found
            }
        };
        let Some(close) = close else {
            return Ok(None);
        };
        let q = skip_json_ws(b, close + 3, end);
        let v = skip_json_ws(b, body, close);
        if q >= end || b[q] != b'"' || v >= close || !matches!(b[v], b'{' | b'[') {
            return Ok(None);
        }
        let cp = self.checkpoint();
        self.in_fence = true;
        let r = self.value(v, close);
        self.in_fence = false;
        match r {
            Ok(e) if skip_json_ws(b, e, close) >= close => {
                self.delete(open, v);
                self.delete(e, q + 1);
                self.note(RepairKind::CodeFence, open + 1);
                Ok(Some(q + 1))
            }
            Err(f) if f.code == CODE_BUDGET => Err(f),
            _ => {
                self.rollback(cp);
                self.fence_failed_until = close;
                Ok(None)
            }
        }
    }

    /// Parses a number, fixing what JSON does not allow. Keeps the original
    /// digits: no number is ever re-formatted.
    fn number(&mut self, pos: usize, end: usize, ctx: Ctx) -> Result<Option<usize>, Fail> {
        let b = self.b;
        // Digits, with single `_` between two digits (`82_461_110`).
        let digits = |mut i: usize| {
            while i < end
                && (b[i].is_ascii_digit()
                    || (b[i] == b'_'
                        && i > pos
                        && b[i - 1].is_ascii_digit()
                        && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            i
        };
        let mut i = pos;
        let plus = b[i] == b'+';
        if plus || b[i] == b'-' {
            i += 1;
            // `-Infinity`, `+Infinity`, `-NaN`: JavaScript values, no number.
            for word in [&b"Infinity"[..], b"NaN"] {
                if b[i..end].starts_with(word)
                    && !b
                        .get(i + word.len())
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    self.edit(pos, i + word.len(), "null");
                    self.note(RepairKind::NonJsonLiteral, pos);
                    return Ok(Some(i + word.len()));
                }
            }
        }
        let int_start = i;
        i = digits(i);
        let int_len = i - int_start;
        let mut dot = None;
        let mut frac_len = 0;
        if i < end && b[i] == b'.' {
            dot = Some(i);
            let fs = i + 1;
            i = digits(fs);
            frac_len = i - fs;
        }
        let mut exp = None;
        let mut exp_digits = 0;
        if i < end && (b[i] == b'e' || b[i] == b'E') && (int_len > 0 || frac_len > 0) {
            exp = Some(i);
            let mut j = i + 1;
            if j < end && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            let es = j;
            j = digits(es);
            exp_digits = j - es;
            if exp_digits == 0 && j < end && b[j].is_ascii_alphabetic() {
                // `1em`: not an exponent; leave the letter to the caller.
                exp = None;
            } else {
                i = j;
            }
        }
        let num_end = i;
        let at_end = skip_json_ws(b, num_end, end) >= end;
        if self.unquoted_strings {
            // `0789`, `0.0.1`, `1notanumber`, `2024-10-18T10:00Z`, `1/3`,
            // `-e5`: not a number; kept as the text that was written.
            let junk = num_end < end && number_junk(b, num_end, end);
            let zeros = int_len > 1 && b[int_start] == b'0';
            if junk || zeros {
                if let Some((stop, resume)) = self.unquoted_end(pos, num_end, end, ctx) {
                    let kind = RepairKind::NumberAsString;
                    return Ok(Some(self.quote_unquoted(pos, stop, resume, kind)));
                }
            }
        }
        if int_len == 0 && frac_len == 0 {
            let closed = at_end || {
                let k = skip_json_ws(b, num_end, end);
                matches!(b[k], b',' | b'}' | b']')
            };
            if closed && self.null_for_missing_values && num_end > pos {
                // `-` → `-0`, `.` → `0.0`: the sign or dot that was written
                // is kept as the number it began.
                if plus {
                    self.delete(pos, pos + 1);
                }
                if let Some(d) = dot {
                    self.edit(d, d, "0");
                    self.edit(d + 1, d + 1, "0");
                } else {
                    self.edit(num_end, num_end, "0");
                }
                self.note(RepairKind::TruncatedNumber, pos);
                return Ok(Some(num_end));
            }
            if at_end {
                // A lone sign (or `-.`) cut off by the end.
                self.delete(pos, num_end);
                self.note(RepairKind::TruncatedNumber, pos);
                return Ok(None);
            }
            return Err(Fail::hopeless(
                format!("expected a JSON value, found {}", describe(b, pos, end)),
                pos,
            ));
        }
        let mut kind = None;
        for u in memchr::memchr_iter(b'_', &b[pos..num_end]) {
            self.delete(pos + u, pos + u + 1);
            kind = Some(RepairKind::InvalidNumber);
        }
        if plus {
            self.delete(pos, pos + 1);
            kind = Some(RepairKind::InvalidNumber);
        }
        if int_len == 0 {
            self.edit(int_start, int_start, "0");
            kind = Some(RepairKind::InvalidNumber);
        } else if int_len > 1 && b[int_start] == b'0' {
            let mut z = int_start;
            while z + 1 < int_start + int_len && b[z] == b'0' {
                z += 1;
            }
            self.delete(int_start, z);
            kind = Some(RepairKind::InvalidNumber);
        }
        let mut truncated = false;
        if let Some(d) = dot {
            if frac_len == 0 {
                self.delete(d, d + 1);
                truncated |= exp.is_none();
                kind = Some(RepairKind::InvalidNumber);
            }
        }
        if let Some(e) = exp {
            if exp_digits == 0 {
                self.delete(e, num_end);
                truncated = true;
                kind = Some(RepairKind::InvalidNumber);
            }
        }
        if let Some(k) = kind {
            let k = if truncated && at_end {
                RepairKind::TruncatedNumber
            } else {
                k
            };
            self.note(k, pos);
        }
        Ok(Some(num_end))
    }

    /// Parses a bare word: JSON and Python literals, their truncations at the
    /// end of input, and `NaN`/`Infinity`/`undefined`.
    /// Truncated literals are completed only inside a container
    /// (`allow_truncated`): a bare `No` is prose, not `None` cut short.
    fn word(&mut self, pos: usize, end: usize, ctx: Ctx) -> Result<usize, Fail> {
        let allow_truncated = ctx != Ctx::Top;
        let b = self.b;
        let mut i = pos;
        // `$` continues a word as it does an unquoted string (`foo$`): a
        // literal glued to it (`false$`) is one word, not a literal.
        while i < end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$')) {
            i += 1;
        }
        let w = &b[pos..i];
        match w {
            b"true" | b"false" | b"null" => return Ok(i),
            b"True" | b"False" | b"None" => {
                let lit = match w[0] {
                    b'T' => "true",
                    b'F' => "false",
                    _ => "null",
                };
                self.edit(pos, i, lit);
                self.note(RepairKind::PythonLiteral, pos);
                return Ok(i);
            }
            b"NaN" | b"Infinity" | b"undefined" => {
                self.edit(pos, i, "null");
                self.note(RepairKind::NonJsonLiteral, pos);
                return Ok(i);
            }
            _ => {}
        }
        // Other capitalisations of the literals: `TRUE`, `Null`, `NONE`.
        for (spelling, lit) in [
            ("true", "true"),
            ("false", "false"),
            ("null", "null"),
            ("none", "null"),
        ] {
            if w.eq_ignore_ascii_case(spelling.as_bytes()) {
                self.edit(pos, i, lit);
                self.note(RepairKind::PythonLiteral, pos);
                return Ok(i);
            }
        }
        if allow_truncated && skip_json_ws(b, i, end) >= end {
            for lit in ["true", "false", "null", "True", "False", "None"] {
                if lit.len() > w.len() && lit.as_bytes().starts_with(w) {
                    let full = match lit.as_bytes()[0] {
                        b't' | b'T' => "true",
                        b'f' | b'F' => "false",
                        _ => "null",
                    };
                    if full.as_bytes().starts_with(w) {
                        self.edit(i, i, &full[w.len()..]);
                    } else {
                        self.edit(pos, i, full);
                    }
                    self.note(RepairKind::TruncatedLiteral, pos);
                    return Ok(i);
                }
            }
        }
        if self.unquoted_strings {
            if let Some((stop, resume)) = self.unquoted_end(pos, i, end, ctx) {
                return Ok(self.quote_unquoted(pos, stop, resume, RepairKind::UnquotedString));
            }
        }
        Err(Fail::hopeless(
            format!(
                "unexpected word '{}' where a value was expected",
                String::from_utf8_lossy(&w[..w.len().min(40)])
            ),
            pos,
        ))
    }

    // ----- strings ---------------------------------------------------------------

    /// Parses a string opened at `open` by `"`, `'` or a typographic quote.
    /// Returns the offset after the closing quote, or `None` when the end
    /// came first (then a closing `"` has been inserted at `end`).
    fn string(&mut self, open: usize, end: usize, ctx: Ctx) -> Option<usize> {
        let b = self.b;
        let (quote, open_len) = self.opening_quote(open, end);
        let mut seen = 0u32;
        let mut i = open + open_len;
        let content = self.checkpoint();
        // An odd number of inner quotes so far: the next quote most likely
        // closes an inner quotation (`"say "hi" now"`), not the string.
        let mut inner_open = false;
        // The opening quote was doubled (`""key""`): so may the closing be.
        let mut doubled = false;
        loop {
            // Fast scan to the next byte that matters.
            if quote == Quote::Double {
                i = scan_plain(b, i, end);
            }
            while i < end && !special(b[i], quote) {
                i += 1;
            }
            if i >= end {
                return self.string_ran_out(open + open_len, end, ctx, quote, content, &mut seen);
            }
            let c = b[i];
            if c == b'\\' {
                i = self.string_escape(i, end, quote, &mut seen);
                continue;
            }
            if c < 0x20 && ctx == Ctx::Key && quote == Quote::Double {
                let k = skip_json_ws(b, i, end);
                if k < end && b[k] == b'"' && self.closes(k + 1, end, ctx, inner_open) {
                    // `"key\n":`: raw blanks at the end of a key are no
                    // part of its name
                    self.delete(i, k);
                    self.note_once(&mut seen, RepairKind::ControlCharacter, i);
                    i = k;
                    continue;
                }
            }
            if c < 0x20 {
                self.edit(i, i + 1, control_escape(c));
                self.note_once(&mut seen, RepairKind::ControlCharacter, i);
                i += 1;
                continue;
            }
            // A quote character: maybe the closer.
            let closer_len = closer_len(b, i, end, quote);
            if closer_len == 0 {
                if c == b'"' {
                    // A double quote inside a string opened by another
                    // quote character: plain content, escape it.
                    self.edit(i, i, "\\");
                }
                i += 1;
                continue;
            }
            if matches!(quote, Quote::Double | Quote::Single) && ctx != Ctx::Top {
                if i == open + 1 && !self.closes(i + 1, end, ctx, false) {
                    // `""value"`: the opening quote was doubled
                    self.delete(i, i + 1);
                    self.note_once(&mut seen, RepairKind::DoubledQuote, i);
                    doubled = true;
                    i += 1;
                    continue;
                }
                if doubled
                    && i > open + 2
                    && b.get(i + 1) == Some(&c)
                    && self.closes(i + 2, end, ctx, false)
                {
                    // `"key""`: the closing quote was doubled
                    self.delete(i + 1, i + 2);
                    self.note_once(&mut seen, RepairKind::DoubledQuote, i + 1);
                    if quote != Quote::Double {
                        self.edit(i, i + 1, "\"");
                    }
                    return Some(i + 2);
                }
            }
            if self.closes(i + closer_len, end, ctx, inner_open) {
                if quote != Quote::Double {
                    self.edit(i, i + closer_len, "\"");
                }
                return Some(i + closer_len);
            }
            if ctx == Ctx::Key && quote == Quote::Double && i > open + 2 && b[i - 1] == b':' {
                // `{"key:"value"}`: the key's quote was forgotten before
                // its colon; this quote opens the value
                self.rollback_from(content, i - 1);
                self.edit(i - 1, i - 1, "\"");
                self.note(RepairKind::UnclosedString, i - 1);
                return Some(i - 1);
            }
            if matches!(ctx, Ctx::ObjValue | Ctx::ArrValue)
                && matches!(quote, Quote::Double | Quote::Single)
            {
                let comma = if ctx == Ctx::ObjValue {
                    self.comma_before_key(open + open_len, i, end)
                } else {
                    self.comma_before_item(open + open_len, i, end)
                };
                if let Some(comma) = comma {
                    // `"x, "b": 1`: the string lost its closing quote
                    // before the comma that leads to the next member;
                    // blanks after the comma were escaped as content.
                    self.rollback_from(content, comma);
                    self.edit(comma, comma, "\"");
                    self.note(RepairKind::UnclosedString, comma);
                    return Some(comma);
                }
            }
            if c == b'"' {
                self.edit(i, i, "\\");
                inner_open = !inner_open;
            }
            if quote != Quote::CurlyDouble && quote != Quote::CurlySingle {
                self.note_once(&mut seen, RepairKind::UnescapedQuote, i);
            }
            i += closer_len;
        }
    }

    /// The quote that opens the string at `open` and its length in bytes;
    /// a quote other than `"` is replaced by one and noted.
    fn opening_quote(&mut self, open: usize, end: usize) -> (Quote, usize) {
        let (quote, open_len) = match self.b[open] {
            b'"' => (Quote::Double, 1),
            b'\'' => (Quote::Single, 1),
            b'`' => (Quote::Back, 1),
            _ => match curly_at(self.b, open, end) {
                Some(Curly::LeftSingle | Curly::RightSingle) => (Quote::CurlySingle, 3),
                _ => (Quote::CurlyDouble, 3),
            },
        };
        let kind = match quote {
            Quote::Double => return (quote, open_len),
            Quote::Single => RepairKind::SingleQuotes,
            Quote::CurlyDouble | Quote::CurlySingle | Quote::Back => RepairKind::TypographicQuotes,
        };
        self.edit(open, open + open_len, "\"");
        self.note(kind, open);
        (quote, open_len)
    }

    /// The end came before the string's closing quote (its content starts
    /// at `content`): the quote goes where it was most likely forgotten
    /// (before a key's colon, before closers at the end) and that offset
    /// is returned, or at `end`, and then `None`.
    fn string_ran_out(
        &mut self,
        content: usize,
        end: usize,
        ctx: Ctx,
        quote: Quote,
        cp: Checkpoint,
        seen: &mut u32,
    ) -> Option<usize> {
        // `{"key:value}`: the key's quote was forgotten before its colon;
        // else blanks after the closers were escaped as string content
        let at = self
            .key_colon_value(content, end, ctx, quote)
            .or_else(|| self.closers_at_end(content, end, ctx));
        if let Some(at) = at {
            self.rollback_from(cp, at);
            self.edit(at, at, "\"");
            self.note(RepairKind::UnclosedString, at);
            return Some(at);
        }
        self.edit(end, end, "\"");
        self.note_once(seen, RepairKind::TruncatedString, end);
        None
    }

    /// A backslash at `i` inside a string: a valid escape is kept, `\'`
    /// loses its backslash, any other gets a second backslash, and one cut
    /// off by the end is dropped. Returns where the content goes on.
    fn string_escape(&mut self, i: usize, end: usize, quote: Quote, seen: &mut u32) -> usize {
        let b = self.b;
        if i + 1 >= end {
            self.delete(i, end);
            return end;
        }
        match b[i + 1] {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => return i + 2,
            b'\'' => {
                self.delete(i, i + 1);
                if quote != Quote::Single {
                    self.note_once(seen, RepairKind::InvalidEscape, i);
                }
                return i + 2;
            }
            b'u' => {
                let mut h = 0;
                while h < 4 && i + 2 + h < end && b[i + 2 + h].is_ascii_hexdigit() {
                    h += 1;
                }
                if h == 4 {
                    return i + 6;
                }
                if i + 2 + h >= end {
                    // `\u12` cut off by the end.
                    self.delete(i, end);
                    return end;
                }
            }
            _ => {}
        }
        self.edit(i, i, "\\");
        self.note_once(seen, RepairKind::InvalidEscape, i);
        i + 1
    }

    /// The offset of a `,` before `q` (blanks between), when it lies after
    /// `content`.
    fn comma_before(&self, content: usize, q: usize) -> Option<usize> {
        let b = self.b;
        let mut k = q;
        while k > content && matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r') {
            k -= 1;
        }
        (k > content && b[k - 1] == b',').then_some(k - 1)
    }

    /// For a quote at `q` inside a value string whose content starts at
    /// `content`: when the quote is preceded by `,` (and blanks) and opens a
    /// key (`"name"` then `:`), the offset of that comma. Edits made inside
    /// the string before the comma stay valid; those after it do not.
    fn comma_before_key(&self, content: usize, q: usize, end: usize) -> Option<usize> {
        let b = self.b;
        let comma = self.comma_before(content, q)?;
        let quote = b[q];
        let name_end = (q + 1..end.min(q + 1 + 128))
            .find(|&j| b[j] == quote || b[j] == b'\\' || b[j] < 0x20)?;
        if b[name_end] != quote || name_end == q + 1 {
            return None;
        }
        let colon = skip_json_ws(b, name_end + 1, end);
        (colon < end && b[colon] == b':').then_some(comma)
    }

    /// For a quote at `q` inside an array element whose content starts at
    /// `content`: when the quote directly follows a `,` (and blanks) and
    /// opens a short string that is itself a complete element (its quote
    /// is followed by `,`, `]` or the end), the offset of that comma: the
    /// element before lost its closing quote there (`["a, "b"]`).
    fn comma_before_item(&self, content: usize, q: usize, end: usize) -> Option<usize> {
        let b = self.b;
        let comma = self.comma_before(content, q)?;
        let close = (q + 1..end.min(q + 1 + 128))
            .find(|&j| b[j] == b'"' || b[j] == b'\\' || b[j] < 0x20)?;
        if b[close] != b'"' {
            return None;
        }
        let after = skip_json_ws(b, close + 1, end);
        (after >= end || matches!(b[after], b',' | b']')).then_some(comma)
    }

    /// For a string whose content from `content` runs to the end of input:
    /// when the input ends with the closer of the string's own container
    /// (`}` for an object value, `]` for an array element) and nothing but
    /// closers and blanks after it, the offset of that closer: the quote
    /// was forgotten there (`{"a": "x}`), it is not content cut off.
    fn closers_at_end(&self, content: usize, end: usize, ctx: Ctx) -> Option<usize> {
        let own = match ctx {
            Ctx::ObjValue => b'}',
            Ctx::ArrValue => b']',
            _ => return None,
        };
        let b = self.b;
        let mut k = end;
        let mut first = None;
        while k > content && matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r' | b'}' | b']' | b'`') {
            k -= 1;
            if matches!(b[k], b'}' | b']') {
                first = Some(k);
            }
        }
        let first = first?;
        // the content must not end in a backslash (it would escape the quote)
        (b[first] == own && k > content && b[k - 1] != b'\\').then_some(k)
    }

    /// For a key string whose content from `content` runs to the end of
    /// input: the offset of the first `:` in it when a value follows that
    /// colon (one that can be repaired: quoted, a number or a container,
    /// or any text when unquoted strings are allowed).
    fn key_colon_value(&self, content: usize, end: usize, ctx: Ctx, quote: Quote) -> Option<usize> {
        if ctx != Ctx::Key || quote != Quote::Double {
            return None;
        }
        let b = self.b;
        let colon = content + memchr::memchr(b':', &b[content..end])?;
        let v = skip_json_ws(b, colon + 1, end);
        let value = v < end
            && (self.unquoted_strings
                || matches!(b[v], b'"' | b'\'' | b'{' | b'[' | b'-' | b'0'..=b'9'));
        (colon > content && value && !b[content..colon].contains(&b'\\')).then_some(colon)
    }

    #[inline]
    fn note_once(&mut self, seen: &mut u32, kind: RepairKind, offset: usize) {
        let bit = kind_bit(kind);
        if *seen & bit == 0 {
            *seen |= bit;
            self.note(kind, offset);
        }
    }

    /// Does a quote followed by `b[after..]` end the string? Yes when the
    /// next token is the end, a closer, the `:` after a key, or a comma that
    /// is itself followed by something that can come next.
    fn closes(&self, after: usize, end: usize, ctx: Ctx, inner_open: bool) -> bool {
        let b = self.b;
        if after < end {
            // The common cases, without skipping whitespace.
            match (b[after], ctx) {
                (b':', Ctx::Key) | (b'}' | b']', Ctx::Key | Ctx::ObjValue | Ctx::ArrValue) => {
                    return true
                }
                (b')', Ctx::ArrValue) if self.in_group => return true,
                _ => {}
            }
        }
        let j = skip_json_ws(b, after, end);
        if j >= end {
            return true;
        }
        // `"a" + "b"` (concatenation), `"a"```` (a closing fence)
        if b[j] == b'+' {
            let k = skip_ws_comments(b, j + 1, end);
            if k < end && (matches!(b[k], b'"' | b'\'') || curly_at(b, k, end).is_some()) {
                return true;
            }
        }
        if b[j..end].starts_with(b"```") {
            return true;
        }
        if ctx == Ctx::Top {
            return false;
        }
        if ctx == Ctx::Key && j > after {
            // `{"a" true}`, `{“a” “b”}`: the key is followed by its value
            if curly_at(b, j, end).is_some() {
                return true;
            }
            let w = word_len(b, j, end);
            let lit = matches!(
                &b[j..j + w],
                b"true" | b"false" | b"null" | b"True" | b"False" | b"None"
            );
            let k = skip_json_ws(b, j + w, end);
            if lit && (k >= end || matches!(b[k], b',' | b'}')) {
                return true;
            }
        }
        match b[j] {
            b'}' | b']' => true,
            b':' => ctx == Ctx::Key || ctx == Ctx::ArrValue && !self.in_group,
            // after a value in an object only a key can follow (its comma
            // missing): `"no""}` is an inner quote, `"x" "b": 1` a close
            b'"' if ctx == Ctx::ObjValue => {
                let name_end = (j + 1..end.min(j + 1 + 128))
                    .find(|&m| b[m] == b'"' || b[m] == b'\\' || b[m] < 0x20);
                name_end.is_some_and(|m| {
                    let colon = skip_json_ws(b, m + 1, end);
                    b[m] == b'"' && (colon >= end || b[colon] == b':')
                })
            }
            // `["a" "b"]` lacks a comma, unless an inner quotation is open
            b'"' => ctx == Ctx::Key || !inner_open,
            // `{"a" 1}`: a key followed by a value lacks its colon.
            b'{' | b'[' | b'\'' | b'-' | b'0'..=b'9' if ctx == Ctx::Key => true,
            b'/' => j + 1 < end && matches!(b[j + 1], b'/' | b'*'),
            b')' => self.in_group,
            // `"x" # note`: a comment after the value
            b'#' => j > after && !inner_open && ctx != Ctx::Key,
            b',' => {
                if ctx == Ctx::Key {
                    return true;
                }
                let k = skip_json_ws(b, j + 1, end);
                if k >= end {
                    return true;
                }
                let n = b[k];
                match n {
                    b'"' | b'\'' | b'}' | b']' | b'`' => true,
                    b')' => self.in_group,
                    _ if curly_at(b, k, end).is_some() => true,
                    // `"a",/* note */"b"`
                    b'/' => k + 1 < end && matches!(b[k + 1], b'/' | b'*'),
                    b'{' | b'[' | b'-' => ctx == Ctx::ArrValue,
                    b'0'..=b'9' if ctx == Ctx::ArrValue => true,
                    _ if ctx == Ctx::ArrValue => {
                        let w = word_len(b, k, end);
                        matches!(
                            &b[k..k + w],
                            b"true" | b"false" | b"null" | b"True" | b"False" | b"None"
                        ) || (!inner_open && self.bare_item_at(k, end))
                    }
                    _ if is_ident_start(n) || n.is_ascii_digit() => {
                        self.bare_key_at(k, end) || self.key_after_stray_text(k, end).is_some()
                    }
                    _ => false,
                }
            }
            // A blank, then what can only be the next element or member:
            // the comma is missing (`["a" 2]`, `"x"\n  next: 1`).
            _ if j > after && !inner_open && ctx == Ctx::ArrValue => self.bare_item_at(j, end),
            _ if j > after && !inner_open && ctx == Ctx::ObjValue => {
                (is_ident_start(b[j]) || b[j].is_ascii_digit()) && self.bare_key_at(j, end)
                    || self.words_before_brace(j, end).is_some()
            }
            _ => false,
        }
    }

    /// Whether an unquoted key starts at `k`: a name, maybe the closing
    /// quote of a key that lost its opening one, then `:`.
    fn bare_key_at(&self, k: usize, end: usize) -> bool {
        let b = self.b;
        let len = ident_len(b, k, end);
        let mut m = k + len;
        if m < end && b[m] == b'"' {
            m += 1;
        }
        let m = skip_json_ws(b, m, end);
        len > 0 && m < end && b[m] == b':'
    }

    /// For words at `j` (letters, digits, blanks, `_ . -`) that run on one
    /// line straight to a `}`: the offset of that brace.
    fn words_before_brace(&self, j: usize, end: usize) -> Option<usize> {
        let b = self.b;
        if !b[j].is_ascii_alphanumeric() {
            return None;
        }
        let limit = end.min(j + 256);
        let k = (j..limit).find(|&k| {
            !(b[k].is_ascii_alphanumeric() || matches!(b[k], b' ' | b'\t' | b'_' | b'.' | b'-'))
        })?;
        (b[k] == b'}').then_some(k)
    }

    /// Whether an array element without quotes starts at `j` and ends
    /// within a short distance at a `,`, `]` or the end (`2]`, `foo) ,`),
    /// or at a quote that closes it (`value2",`).
    fn bare_item_at(&self, j: usize, end: usize) -> bool {
        let b = self.b;
        let c = b[j];
        if !(c.is_ascii_alphanumeric() || c == b'-') {
            return false;
        }
        let limit = end.min(j + 256);
        let Some(k) =
            (j..limit).find(|&k| matches!(b[k], b',' | b']' | b'"' | b'\n' | b'[' | b'{'))
        else {
            return limit == end;
        };
        match b[k] {
            b',' | b']' => true,
            b'"' => {
                let m = skip_json_ws(b, k + 1, end);
                m >= end || matches!(b[m], b',' | b']')
            }
            _ => false,
        }
    }
}

/// `St::After` when the top object already holds a member, else `St::Key`.
fn after_or_key(stack: &[Frame]) -> St {
    match stack.last() {
        Some(f) if f.any => St::After,
        Some(f) if f.obj => St::Key,
        _ => St::After,
    }
}

/// [`skip_json_ws`] that also skips `//` and `/* */` comments, without
/// recording anything (for lookahead).
fn skip_ws_comments(b: &[u8], mut pos: usize, end: usize) -> usize {
    loop {
        pos = skip_json_ws(b, pos, end);
        if pos + 1 >= end || b[pos] != b'/' {
            return pos;
        }
        pos = match b[pos + 1] {
            b'/' => memchr::memchr(b'\n', &b[pos..end]).map_or(end, |i| pos + i),
            b'*' => memchr::memmem::find(&b[pos + 2..end], b"*/").map_or(end, |i| pos + 2 + i + 2),
            _ => return pos,
        };
    }
}

/// Whether a string quoted with backticks (`` `a` ``, `` `a´ ``) opens at
/// `pos`: one backtick, not a code fence.
fn backtick_at(b: &[u8], pos: usize, end: usize) -> bool {
    b[pos] == b'`' && !(pos + 1 < end && b[pos + 1] == b'`')
}

/// For a regular expression literal at `pos` (`/ab+c/i`, on one line),
/// the offset after it and its flags.
fn regex_end(b: &[u8], pos: usize, end: usize) -> Option<usize> {
    let mut i = pos + 1;
    if i < end && matches!(b[i], b'/' | b'*') {
        return None;
    }
    while i < end && !matches!(b[i], b'/' | b'\n' | b'\r') {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    if i >= end || b[i] != b'/' || i == pos + 1 {
        return None;
    }
    i += 1;
    while i < end && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    Some(i)
}

/// For a name at `pos` directly followed by `(` (`NumberLong(`,
/// `callback_1(`), the offset of the `(`.
fn call_paren(b: &[u8], pos: usize, end: usize) -> Option<usize> {
    let mut i = pos;
    while i < end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$' | b'.')) {
        i += 1;
    }
    (i > pos && i < end && b[i] == b'(').then_some(i)
}

/// Whether the byte at `i`, right after a number, shows the token is no
/// number (`1notanumber`, `0.0.1`, `10-20`, `1/3`); a comment (`1//x`) is
/// not such a byte.
fn number_junk(b: &[u8], i: usize, end: usize) -> bool {
    let c = b[i];
    if c == b'/' {
        return !(i + 1 < end && matches!(b[i + 1], b'/' | b'*'));
    }
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'+' | b'_')
}

/// Length of the ASCII word at `pos`.
fn word_len(b: &[u8], pos: usize, end: usize) -> usize {
    let mut i = pos;
    while i < end && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    i - pos
}

/// Skips string content that needs no attention (anything but `"`, `\\`
/// and control characters), eight bytes at a time.
#[inline]
fn scan_plain(b: &[u8], mut i: usize, end: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while i + 8 <= end {
        let Some(chunk) = b.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) else {
            break;
        };
        let w = u64::from_le_bytes(chunk);
        let q = w ^ (LO * u64::from(b'"'));
        let bs = w ^ (LO * u64::from(b'\\'));
        let found = (q.wrapping_sub(LO) & !q)
            | (bs.wrapping_sub(LO) & !bs)
            | (w.wrapping_sub(LO * 0x20) & !w);
        let found = found & HI;
        if found != 0 {
            // The lowest flagged byte is exact (borrows only run upwards).
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The length of the quote at `i` when it can close a string opened by
/// `quote` (a curly quote of either side closes a curly string, an acute
/// accent or apostrophe a backtick one), else 0.
fn closer_len(b: &[u8], i: usize, end: usize, quote: Quote) -> usize {
    match (quote, b[i]) {
        (Quote::Double, b'"') | (Quote::Single, b'\'') => 1,
        (Quote::CurlyDouble, 0xE2) => match curly_at(b, i, end) {
            Some(Curly::RightDouble | Curly::LeftDouble) => 3,
            _ => 0,
        },
        (Quote::CurlySingle, 0xE2) => match curly_at(b, i, end) {
            Some(Curly::RightSingle | Curly::LeftSingle) => 3,
            _ => 0,
        },
        (Quote::Back, b'`' | b'\'') => 1,
        (Quote::Back, 0xC2) if b.get(i + 1) == Some(&0xB4) => 2,
        _ => 0,
    }
}

/// Bytes the string scanner must stop at.
#[inline(always)]
fn special(c: u8, quote: Quote) -> bool {
    c < 0x20
        || c == b'"'
        || c == b'\\'
        || match quote {
            Quote::Double => false,
            Quote::Single => c == b'\'',
            Quote::CurlyDouble | Quote::CurlySingle => c == 0xE2,
            Quote::Back => c == b'`' || c == b'\'' || c == 0xC2,
        }
}

/// A short, printable description of the character at `pos` for messages.
pub(crate) fn describe(b: &[u8], pos: usize, end: usize) -> String {
    if pos >= end {
        return "the end of input".into();
    }
    let c = b[pos];
    if c.is_ascii_graphic() {
        format!("'{}'", c as char)
    } else if c < 0x80 {
        format!("byte 0x{c:02x}")
    } else {
        let s = String::from_utf8_lossy(&b[pos..(pos + 4).min(end)]);
        match s.chars().next() {
            Some(ch) if ch != '\u{fffd}' && !ch.is_control() => format!("'{ch}'"),
            _ => format!("byte 0x{c:02x}"),
        }
    }
}
