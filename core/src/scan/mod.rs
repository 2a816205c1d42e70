//! The shared, byte-level scanning core.
//!
//! Everything here works on raw bytes and knows nothing of formats or JSON
//! semantics beyond what is needed to find where a value ends. The scanners
//! are *resumable*: they keep their position and state between calls, so a
//! block that arrives one byte at a time is still scanned once in total.

pub mod balance;
pub mod compact;
pub mod valid;

/// `bytes` as text, invalid UTF-8 replaced by U+FFFD: what
/// `String::from_utf8_lossy` gives, but valid input (nearly all of it) is
/// checked with SIMD (`simdutf8`), which keeps its pace over non-ASCII
/// text where `str::from_utf8` drops to a byte at a time, instead of the
/// lossy decoder's byte-at-a-time loop.
#[inline]
pub fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether `c` must not reach a terminal as it is: a control character
/// (C0 with NUL, BEL, ESC, CR and LF, DEL, C1 with CSI and OSC) other than
/// tab, or an invisible bidirectional control that reorders what is shown.
#[inline]
pub fn is_unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The one escaping function for text bound for a terminal (everything
/// `toolcall` writes on stderr that came from a model, a server or a file:
/// tool and property names, file names, messages, log lines).
///
/// Every character for which `is_unsafe_for_terminal` holds is written as a
/// visible Rust escape (`\n`, `\r`, `\0`, `\u{1b}`, `\u{202e}`), so such text can
/// neither drive the terminal (colours, titles, cursor moves, a bell) nor
/// forge a line of output; everything else, tabs and all printable Unicode,
/// stays as it is. Borrowed when there is nothing to escape.
pub fn escape_terminal(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_unsafe_for_terminal) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe_for_terminal(c) {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\0' => out.push_str("\\0"),
                _ => out.extend(c.escape_unicode()),
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// How a literal compares to the input at some position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    /// The whole literal is there.
    Full,
    /// The input ends before the literal does, and what is there matches.
    Partial,
    /// The input differs from the literal.
    No,
}

/// Compares `lit` with the start of `input`, byte for byte.
#[inline]
pub fn prefix(input: &[u8], lit: &[u8]) -> Prefix {
    if input.len() >= lit.len() {
        if &input[..lit.len()] == lit {
            Prefix::Full
        } else {
            Prefix::No
        }
    } else if lit.starts_with(input) {
        Prefix::Partial
    } else {
        Prefix::No
    }
}

/// Like [`prefix`], ignoring ASCII case.
#[inline]
pub fn prefix_ci(input: &[u8], lit: &[u8]) -> Prefix {
    let n = input.len().min(lit.len());
    if !eq_ci(&input[..n], &lit[..n]) {
        Prefix::No
    } else if n == lit.len() {
        Prefix::Full
    } else {
        Prefix::Partial
    }
}

/// `a == b` ignoring ASCII case. The bytes are compared as they are
/// first: markers are mostly written as their literal, and one `memcmp` is
/// several times cheaper than folding each byte's case.
#[inline]
pub fn eq_ci(a: &[u8], b: &[u8]) -> bool {
    a == b || a.eq_ignore_ascii_case(b)
}

/// True for the bytes of an identifier-like name (`a-z`, `0-9`, `_`, `-`, `.`,
/// and any non-ASCII byte, so names in other scripts survive).
#[inline]
pub fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':' | b'/' | b'$') || b >= 0x80
}

/// True for a byte that can start an identifier: an ASCII letter, `_`, or
/// a byte of a non-ASCII character.
#[inline]
pub fn is_name_start_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// True for space, tab, carriage return and newline.
#[inline]
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Index of the first byte at or after `from` that is not ASCII white space.
#[inline]
pub fn skip_space(input: &[u8], mut from: usize) -> usize {
    while from < input.len() && is_space(input[from]) {
        from += 1;
    }
    from
}

/// Index of the first byte at or after `from` that is neither space nor tab.
#[inline]
pub fn skip_blank(input: &[u8], mut from: usize) -> usize {
    while from < input.len() && matches!(input[from], b' ' | b'\t') {
        from += 1;
    }
    from
}

/// Trims ASCII white space from both ends.
pub fn trim(input: &[u8]) -> &[u8] {
    let start = skip_space(input, 0);
    let mut end = input.len();
    while end > start && is_space(input[end - 1]) {
        end -= 1;
    }
    &input[start..end]
}

/// The length of the UTF-8 character a lead byte opens (1 for an ASCII
/// byte, and for a byte that opens none).
pub fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The length of the longest prefix of `input` that ends on a UTF-8 character
/// boundary, assuming `input` is otherwise valid: an incomplete multi-byte
/// sequence at the very end is excluded (at most 3 bytes).
pub fn utf8_complete_len(input: &[u8]) -> usize {
    let n = input.len();
    if n == 0 || input[n - 1] < 0x80 {
        return n;
    }
    let lookback = n.min(4);
    for back in 1..=lookback {
        let b = input[n - back];
        if b & 0xC0 == 0x80 {
            continue; // continuation byte: keep looking for the lead
        }
        let need = if b < 0x80 {
            1
        } else if b & 0xE0 == 0xC0 {
            2
        } else if b & 0xF0 == 0xE0 {
            3
        } else if b & 0xF8 == 0xF0 {
            4
        } else {
            1 // invalid lead byte: treat as complete, it is replaced later
        };
        return if need > back { n - back } else { n };
    }
    n
}

/// Finds `needle` in `haystack` starting at `from`.
#[inline]
pub fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > haystack.len() {
        return None;
    }
    let hay = &haystack[from..];
    let Some(&first) = needle.first() else {
        return Some(from);
    };
    // Building a two-way finder costs more than most searches here (the
    // needle is usually close): try the first byte's hits, and only after
    // many false ones hand the rest to memmem, so the worst case stays linear.
    let mut at = 0;
    for _ in 0..FIRST_BYTE_TRIES {
        let hit = at + memchr::memchr(first, &hay[at..])?;
        if hay[hit..].starts_with(needle) {
            return Some(from + hit);
        }
        at = hit + 1;
    }
    memchr::memmem::find(&hay[at..], needle).map(|i| from + at + i)
}

/// False first-byte hits [`find`] checks before it builds a memmem finder.
const FIRST_BYTE_TRIES: usize = 16;

/// Finds `needle` ignoring ASCII case (the needle must be lowercase ASCII).
pub fn find_ci(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let upper = first.to_ascii_uppercase();
    let mut at = from;
    while at < haystack.len() {
        let hit = memchr::memchr2(first, upper, &haystack[at..])? + at;
        if prefix_ci(&haystack[hit..], needle) == Prefix::Full {
            return Some(hit);
        }
        at = hit + 1;
    }
    None
}

/// Number of `\n` bytes in `bytes`.
#[inline]
pub fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// The newlines of a 64-byte block as a bit mask: bit `i` is set when
/// `block[i]` is `\n`. Four sixteen-byte compares and byte masks (SSE2 on
/// x86-64, NEON on aarch64, plain code elsewhere), so a walk over the lines
/// of prose visits each newline with a few bit operations instead of one
/// search per line.
#[inline]
pub fn newline_mask(block: &[u8; 64]) -> u64 {
    use wide::u8x16;
    let nl = u8x16::splat(b'\n');
    let (lanes, _) = block.as_chunks::<16>();
    lanes.iter().enumerate().fold(0, |mask, (k, lane)| {
        let bits = u8x16::new(*lane).simd_eq(nl).to_bitmask() & 0xffff;
        mask | u64::from(bits) << (16 * k)
    })
}

/// [`newline_mask`] with AVX2, chosen at run time: a token that exists
/// only on a CPU that has it (`pulp`'s `V3`, the x86-64-v3 level: AVX2,
/// BMI1/2, `popcnt`, `lzcnt`), and code compiled for it inside
/// [`NewlineMasker::run`]. The checks and the `unsafe` of calling code
/// compiled for those features are `pulp`'s; this crate stays free of
/// `unsafe`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct NewlineMasker(pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl NewlineMasker {
    /// The masker, when this CPU has AVX2 (the first call asks the CPU,
    /// later ones read the answer it kept); `None` otherwise.
    #[inline]
    pub fn avx2() -> Option<Self> {
        pulp::x86::V3::try_new().map(Self)
    }

    /// Runs `f` as code compiled for AVX2: what `f` inlines (marked
    /// `#[inline(always)]`) uses the wide compares.
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.0.vectorize(f)
    }

    /// [`newline_mask`] of `block`, 32 bytes a compare: bit `i` is set
    /// when `block[i]` is `\n`. Only fast inside [`NewlineMasker::run`].
    #[inline(always)]
    pub fn mask(self, block: &[u8; 64]) -> u64 {
        use core::arch::x86_64::__m256i;
        let v = self.0;
        let [lo, hi]: [__m256i; 2] = pulp::bytemuck::cast(*block);
        let nl = v.avx._mm256_set1_epi8(b'\n' as i8);
        let lo = v
            .avx2
            ._mm256_movemask_epi8(v.avx2._mm256_cmpeq_epi8(lo, nl));
        let hi = v
            .avx2
            ._mm256_movemask_epi8(v.avx2._mm256_cmpeq_epi8(hi, nl));
        // the movemasks' 32 bits, as unsigned
        u64::from(lo as u32) | u64::from(hi as u32) << 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_mask_marks_exactly_the_newlines() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for round in 0..2000 {
            let mut block = [0u8; 64];
            for b in &mut block {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // newlines, bytes next to them and bytes with the high bit
                *b = match seed % 5 {
                    0 => b'\n',
                    1 => b'\n' + 1,
                    2 => 0x8a,
                    _ => (seed >> 8) as u8,
                };
            }
            if round == 0 {
                block = [b'\n'; 64];
            }
            let want = block
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .fold(0u64, |m, (i, _)| m | 1 << i);
            assert_eq!(newline_mask(&block), want, "{block:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(wide) = NewlineMasker::avx2() {
                assert_eq!(wide.run(|| wide.mask(&block)), want, "{block:?}");
                assert_eq!(wide.mask(&block), want, "{block:?}");
            }
        }
    }

    #[test]
    fn prefix_full_partial_no() {
        assert_eq!(prefix(b"<tool_call>", b"<tool_call>"), Prefix::Full);
        assert_eq!(prefix(b"<tool_c", b"<tool_call>"), Prefix::Partial);
        assert_eq!(prefix(b"<tool_x", b"<tool_call>"), Prefix::No);
        assert_eq!(prefix_ci(b"<Tool_Call>", b"<tool_call>"), Prefix::Full);
    }

    #[test]
    fn utf8_tail_is_held() {
        let s = "a｜".as_bytes();
        assert_eq!(utf8_complete_len(s), s.len());
        assert_eq!(utf8_complete_len(&s[..2]), 1);
        assert_eq!(utf8_complete_len(&s[..3]), 1);
        assert_eq!(utf8_complete_len(b""), 0);
    }

    #[test]
    fn find_ci_matches_any_case() {
        assert_eq!(find_ci(b"xx</TOOL_CALL>", 0, b"</tool_call>"), Some(2));
        assert_eq!(find_ci(b"xx</tool", 0, b"</tool_call>"), None);
    }
}
