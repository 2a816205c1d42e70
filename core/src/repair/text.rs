//! Small byte-level helpers shared by the parser and the document driver.

/// 1-based line and column (in characters) of byte `offset` in `input`.
pub(crate) fn line_column(input: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(input.len());
    let bytes = input.as_bytes();
    let before = &bytes[..offset];
    let line = 1 + memchr::memchr_iter(b'\n', before).count();
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
    // Count characters: every byte that is not a UTF-8 continuation byte.
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    (line, column)
}

/// Skips the info string of a code fence (```` ```json ````) and the end of
/// its line.
pub(crate) fn fence_body_start(b: &[u8], mut i: usize, len: usize) -> usize {
    while i < len
        && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'+' | b'-' | b'.' | b'`'))
    {
        i += 1;
    }
    while i < len && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    if i < len && b[i] == b'\r' {
        i += 1;
    }
    if i < len && b[i] == b'\n' {
        i += 1;
    }
    i
}

/// JSON whitespace.
#[inline]
pub(crate) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// First position at or after `pos` (before `end`) that is not JSON
/// whitespace.
#[inline]
pub(crate) fn skip_json_ws(b: &[u8], mut pos: usize, end: usize) -> usize {
    while pos < end && is_json_ws(b[pos]) {
        pos += 1;
    }
    pos
}

/// What a non-ASCII whitespace character at a position should become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    /// A visible space: replace it with `' '`.
    Space,
    /// A zero-width character: delete it.
    ZeroWidth,
}

/// If a non-ASCII whitespace character starts at `pos`, its length and what
/// to do with it.
#[inline]
pub(crate) fn non_ascii_space(b: &[u8], pos: usize, end: usize) -> Option<(usize, Space)> {
    let c0 = b[pos];
    if c0 < 0xC2 {
        return None;
    }
    let c1 = *b.get(pos + 1)?;
    if c0 == 0xC2 {
        // U+0085 NEL, U+00A0 NO-BREAK SPACE
        return (matches!(c1, 0x85 | 0xA0) && pos + 2 <= end).then_some((2, Space::Space));
    }
    if pos + 3 > end {
        return None;
    }
    let c2 = *b.get(pos + 2)?;
    let kind = match (c0, c1, c2) {
        (0xE1, 0x9A, 0x80) => Space::Space,     // U+1680 OGHAM SPACE MARK
        (0xE1, 0xA0, 0x8E) => Space::ZeroWidth, // U+180E MONGOLIAN VOWEL SEPARATOR
        (0xE2, 0x80, 0x80..=0x8A) => Space::Space, // U+2000..U+200A
        (0xE2, 0x80, 0x8B) => Space::ZeroWidth, // U+200B ZERO WIDTH SPACE
        (0xE2, 0x80, 0xA8 | 0xA9) => Space::Space, // U+2028, U+2029
        (0xE2, 0x80, 0xAF) => Space::Space,     // U+202F NARROW NO-BREAK SPACE
        (0xE2, 0x81, 0x9F) => Space::Space,     // U+205F MEDIUM MATHEMATICAL SPACE
        (0xE2, 0x81, 0xA0) => Space::ZeroWidth, // U+2060 WORD JOINER
        (0xE3, 0x80, 0x80) => Space::Space,     // U+3000 IDEOGRAPHIC SPACE
        (0xEF, 0xBB, 0xBF) => Space::ZeroWidth, // U+FEFF (BOM inside the text)
        _ => return None,
    };
    Some((3, kind))
}

/// Typographic quote characters (all three bytes long, starting `E2 80`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Curly {
    /// U+2018 ‘
    LeftSingle,
    /// U+2019 ’
    RightSingle,
    /// U+201C “
    LeftDouble,
    /// U+201D ”
    RightDouble,
}

/// The typographic quote starting at `pos`, if any.
#[inline]
pub(crate) fn curly_at(b: &[u8], pos: usize, end: usize) -> Option<Curly> {
    if pos + 3 > end || b[pos] != 0xE2 || b[pos + 1] != 0x80 {
        return None;
    }
    match b[pos + 2] {
        0x98 => Some(Curly::LeftSingle),
        0x99 => Some(Curly::RightSingle),
        0x9C => Some(Curly::LeftDouble),
        0x9D => Some(Curly::RightDouble),
        _ => None,
    }
}

/// True if the horizontal ellipsis `…` (U+2026) starts at `pos`.
#[inline]
pub(crate) fn is_unicode_ellipsis(b: &[u8], pos: usize, end: usize) -> bool {
    pos + 3 <= end && b[pos] == 0xE2 && b[pos + 1] == 0x80 && b[pos + 2] == 0xA6
}

/// Characters an unquoted key may contain: ASCII letters, digits, `_`, `$`,
/// `-`, `.`, and any non-ASCII byte (checked separately for quotes and
/// spaces by the caller).
#[inline]
pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-' | b'.') || b >= 0x80
}

/// Characters an unquoted key may start with.
#[inline]
pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || matches!(b, b'_' | b'$') || b >= 0x80
}

/// Length of the identifier starting at `pos` (stopping before typographic
/// quotes and non-ASCII spaces).
pub(crate) fn ident_len(b: &[u8], pos: usize, end: usize) -> usize {
    let mut i = pos;
    while i < end && is_ident_byte(b[i]) {
        if b[i] >= 0x80 && (curly_at(b, i, end).is_some() || non_ascii_space(b, i, end).is_some()) {
            break;
        }
        i += 1;
    }
    i - pos
}

/// The JSON escape for a control character.
pub(crate) fn control_escape(c: u8) -> std::borrow::Cow<'static, str> {
    match c {
        b'\n' => "\\n".into(),
        b'\t' => "\\t".into(),
        b'\r' => "\\r".into(),
        0x08 => "\\b".into(),
        0x0C => "\\f".into(),
        _ => format!("\\u{c:04x}").into(),
    }
}

/// Case-insensitive ASCII prefix test.
pub(crate) fn starts_with_ci(b: &[u8], pos: usize, prefix: &[u8]) -> bool {
    b.len() >= pos + prefix.len() && b[pos..pos + prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("abc", 0), (1, 1));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é\nüx", 5), (2, 2));
        assert_eq!(line_column("abc", 99), (1, 4));
    }

    #[test]
    fn spaces() {
        let s = "\u{a0}\u{200b}\u{3000}x";
        let b = s.as_bytes();
        assert_eq!(non_ascii_space(b, 0, b.len()), Some((2, Space::Space)));
        assert_eq!(non_ascii_space(b, 2, b.len()), Some((3, Space::ZeroWidth)));
        assert_eq!(non_ascii_space(b, 5, b.len()), Some((3, Space::Space)));
        assert_eq!(non_ascii_space(b, 8, b.len()), None);
    }
}
