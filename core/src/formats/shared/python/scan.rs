//! Finding where Python expressions end: a resumable scanner that balances
//! brackets outside strings (triple-quoted ones too), call heads, and what
//! may follow a call list on its line.

use super::literal::{is_ident_byte, is_ident_start};
use crate::formats::shared::section::{match_any, Hit};
use crate::scan::{self, Prefix};

// ----- the resumable end scanner ---------------------------------------------

/// Resumable end-of-expression scanner for Python: balances `()[]{}`
/// outside strings, knows both quote styles, backslash escapes and
/// triple-quoted strings. `pos` is the resume position (absolute in the
/// block).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PyScan {
    /// Resume position.
    pub pos: usize,
    depth: usize,
    quote: u8,
    triple: bool,
    esc: bool,
    started: bool,
    list: bool,
    /// A closing tag that cannot stand outside a string inside a value
    /// (empty: none); see [`PyScan::stop_at`].
    stop: &'static [u8],
}

/// What [`PyScan::scan`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyEndAt {
    /// The expression ends just before this (absolute) index.
    At(usize),
    /// Not decided: more input is needed.
    More,
    /// A closing bracket with nothing open: not an expression.
    NotValue,
}

/// The deepest nesting the scanner follows.
const DEPTH_MAX: usize = (1 << 24) - 1;

impl PyScan {
    /// A scanner starting at `pos`.
    pub fn at(pos: usize) -> Self {
        PyScan {
            pos,
            ..PyScan::default()
        }
    }

    /// A scanner for an unmarked call list starting at `pos`: directly
    /// inside the list only names, dots, blanks, `(`, `,`, `]` and a stray
    /// `)` (one closer too many, which ends the scan) may appear
    /// (anything else is [`PyEndAt::NotValue`] at once, so prose with a stray
    /// quote is not held back to the end of the input).
    pub fn list_at(pos: usize) -> Self {
        PyScan {
            pos,
            list: true,
            ..PyScan::default()
        }
    }

    /// A scanner starting at `pos` that gives a value up
    /// ([`PyEndAt::NotValue`]) when `tag` stands outside a string while a
    /// bracket is still open: no Python value holds a bare closing tag, so
    /// the value is broken there. The block is then decided at once, not
    /// held to the end of the input (a body missing its `)` before its
    /// closing tag, many times over, would else be scanned again to the end
    /// for each block: quadratic time).
    pub fn stop_at(pos: usize, tag: &'static [u8]) -> Self {
        PyScan {
            pos,
            stop: tag,
            ..PyScan::default()
        }
    }

    /// Scans `block` from the resume position.
    pub fn scan(&mut self, block: &[u8], eof: bool) -> PyEndAt {
        let mut i = self.pos;
        let len = block.len();
        while i < len {
            let b = block[i];
            if self.quote != 0 {
                let q = self.quote;
                if self.esc {
                    self.esc = false;
                    i += 1;
                    continue;
                }
                if b == b'\\' {
                    self.esc = true;
                    i += 1;
                    continue;
                }
                if b == q {
                    if self.triple {
                        if i + 2 >= len && !eof {
                            break; // wait: `"` `""` may still follow
                        }
                        if block.get(i + 1) == Some(&q) && block.get(i + 2) == Some(&q) {
                            self.quote = 0;
                            self.triple = false;
                            i += 3;
                        } else {
                            i += 1;
                        }
                    } else {
                        self.quote = 0;
                        i += 1;
                    }
                    continue;
                }
                match memchr::memchr2(q, b'\\', &block[i + 1..]) {
                    Some(k) => i += k + 1,
                    None => i = len,
                }
                continue;
            }
            if self.list
                && self.depth == 1
                && !(is_ident_byte(b)
                    || matches!(
                        b,
                        b'.' | b'-' | b' ' | b'\t' | b'\r' | b'\n' | b'(' | b',' | b']' | b')'
                    ))
            {
                self.pos = i;
                return PyEndAt::NotValue;
            }
            if self.depth > 0 && self.stop.first() == Some(&b) {
                match scan::prefix(&block[i..], self.stop) {
                    Prefix::Full => {
                        self.pos = i;
                        return PyEndAt::NotValue;
                    }
                    // the tag may be cut by the chunk's end: look again
                    Prefix::Partial if !eof => {
                        self.pos = i;
                        return PyEndAt::More;
                    }
                    _ => {}
                }
            }
            match b {
                b'"' | b'\'' => {
                    if i + 2 >= len && !eof {
                        break; // wait: a triple quote may be forming
                    }
                    self.quote = b;
                    if block.get(i + 1) == Some(&b) && block.get(i + 2) == Some(&b) {
                        self.triple = true;
                        i += 3;
                    } else {
                        i += 1;
                    }
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    self.started = true;
                    self.depth += 1;
                    if self.depth > DEPTH_MAX {
                        self.pos = i;
                        return PyEndAt::NotValue;
                    }
                }
                b')' | b']' | b'}' => {
                    if self.depth == 0 {
                        self.pos = i;
                        return PyEndAt::NotValue;
                    }
                    self.depth -= 1;
                    if self.depth == 0 && self.started {
                        self.pos = i + 1;
                        return PyEndAt::At(i + 1);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.pos = i;
        PyEndAt::More
    }
}

/// Longest run of white space a probe looks across (probes rescan from the
/// marker on every chunk, so what they read must stay bounded).
pub const MAX_GAP: usize = 256;

/// `scan::skip_space` that stops after [`MAX_GAP`] bytes (returning an
/// index past `from + MAX_GAP` when the run is longer).
pub fn skip_space_bounded(input: &[u8], from: usize) -> usize {
    let limit = input.len().min(from + MAX_GAP + 1);
    let mut i = from;
    while i < limit && scan::is_space(input[i]) {
        i += 1;
    }
    i
}

/// At `s`: an identifier (dotted), blanks, then `(`? `Some(true)` yes,
/// `Some(false)` no, `None` when the input ends first.
pub fn call_head(block: &[u8], s: usize) -> Option<bool> {
    let mut i = s;
    match block.get(i) {
        None => return None,
        Some(&c) if is_ident_start(c) => {}
        Some(_) => return Some(false),
    }
    let limit = s + 256;
    while i < block.len()
        && (is_ident_byte(block[i])
            || block[i] == b'.'
            || (block[i] == b'-' && block.get(i + 1).is_none_or(|&c| is_ident_start(c))))
    {
        i += 1;
        if i > limit {
            return Some(false);
        }
    }
    while i < block.len() && matches!(block[i], b' ' | b'\t') {
        i += 1;
    }
    match block.get(i) {
        None => None,
        Some(b'(') => Some(true),
        Some(_) => Some(false),
    }
}

/// LFM2's closing token, which may follow an unmarked list that starts the
/// document (its opening token was written by the prompt, or dropped).
pub const LFM2_END: &[u8] = b"<|tool_call_end|>";

/// Tokens that may follow an unmarked list on its line.
const TRAILERS: &[&[u8]] = &[
    b"<|eot_id|>",
    b"<|eom_id|>",
    // Llama 4's end of turn and end of message
    b"<|eot|>",
    b"<|eom|>",
    b"<|python_end|>",
    b"<|im_end|>",
    b"<|end|>",
    b"<|endoftext|>",
    b"<|end_of_text|>",
    b"<end_of_turn>",
    b"</s>",
    // Gemma's end of sequence, left in by servers that do not stop on it
    b"<eos>",
];

/// After a value ending at `end`: only blanks up to the end of the line (or
/// an end-of-turn token, or `also`). `Some(true)` yes, `Some(false)` no,
/// `None` undecided.
pub fn rest_of_line_blank(block: &[u8], end: usize, eof: bool, also: &[u8]) -> Option<bool> {
    let s = scan::skip_blank(block, end);
    match block.get(s) {
        None => {
            if eof {
                Some(true)
            } else {
                None
            }
        }
        Some(b'\n' | b'\r') => Some(true),
        Some(b'<') => match match_any(&block[s..], TRAILERS) {
            Hit::Full(_) => Some(true),
            Hit::Partial if !eof => None,
            _ if also.is_empty() => Some(false),
            _ => match scan::prefix(&block[s..], also) {
                scan::Prefix::Full => Some(true),
                scan::Prefix::Partial if !eof => None,
                _ => Some(false),
            },
        },
        Some(_) => Some(false),
    }
}
