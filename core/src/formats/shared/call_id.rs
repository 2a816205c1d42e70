//! The id of a Moonshot Kimi call, `functions.NAME:INDEX`, as it is left
//! when the special tokens around it were stripped: what tells it from a
//! bare function name glued to its JSON.

use crate::scan::Prefix;

/// The literal every Kimi call id starts with.
pub const STRIPPED_LIT: &[u8] = b"functions.";

/// Most bytes of a function name in a stripped call id.
const STRIPPED_NAME_MAX: usize = 128;

/// Most digits of a call index.
const STRIPPED_INDEX_MAX: usize = 6;

/// Most blanks between the id and its JSON (the stripped argument token
/// and the blanks around it).
const STRIPPED_GAP_MAX: usize = 8;

/// Whether `id` is a whole Kimi call id, `functions.NAME:INDEX` (blanks
/// after it allowed): another format's rule for a bare name glued to its
/// JSON leaves such an id to that format's lead.
pub fn is_stripped_id(id: &[u8]) -> bool {
    id.strip_prefix(STRIPPED_LIT)
        .is_some_and(|rest| stripped_id_rest(rest) == Prefix::Full)
}

/// Whether `b` (what follows `functions.`) is a call id's `NAME:INDEX`
/// and blanks ([`Prefix::Full`]), or begins one ([`Prefix::Partial`]).
pub fn stripped_id_rest(b: &[u8]) -> Prefix {
    let name = b
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        .count();
    if name > STRIPPED_NAME_MAX {
        return Prefix::No;
    }
    if name == b.len() {
        return Prefix::Partial;
    }
    if name == 0 || b[name] != b':' {
        return Prefix::No;
    }
    let digits = b[name + 1..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let gap = &b[name + 1 + digits..];
    if digits > STRIPPED_INDEX_MAX || gap.len() > STRIPPED_GAP_MAX {
        return Prefix::No;
    }
    if !gap.iter().all(|&c| c == b' ' || c == b'\t') {
        return Prefix::No;
    }
    if digits == 0 {
        // `functions.NAME:` with its index still to come
        return if gap.is_empty() {
            Prefix::Partial
        } else {
            Prefix::No
        };
    }
    Prefix::Full
}
