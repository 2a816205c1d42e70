//! Lookups over the format descriptors: by id or name, the opener table the
//! engine probes, and the facts the engine derives from the descriptors
//! (which bytes to look at at a line start, document-start probes, lead
//! bytes). Nothing here names a format.

use super::{Action, Format, FormatId, Opener, Probe, ProbeCx, FORMATS, STRUCTURAL};
use crate::config::Config;
use crate::formats::Place;
use crate::scan::{self, Prefix};
use std::sync::OnceLock;

impl FormatId {
    /// The format named `name`: its id, or one of its other names (a model
    /// name such as `qwen3`); ASCII case is ignored.
    pub fn lookup(name: &str) -> Option<FormatId> {
        by_name(name).map(|f| f.id)
    }

    /// The format whose id is exactly `id`.
    pub fn from_id(id: &str) -> Option<FormatId> {
        FORMATS.iter().find(|f| f.id == id).map(|f| f.id)
    }

    /// This format's descriptor.
    pub fn format(self) -> &'static Format {
        get(self)
    }
}

/// The descriptor of `id`.
pub fn get(id: FormatId) -> &'static Format {
    match FORMATS.iter().find(|f| f.id == id) {
        Some(f) => f,
        // ids are made only by the registry, from these descriptors
        None => unreachable!("format id {id} has no descriptor"),
    }
}

/// The format whose id or one of whose names is `name` (ASCII case ignored).
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS
        .iter()
        .find(|f| f.id.as_str().eq_ignore_ascii_case(name))
        .or_else(|| {
            FORMATS
                .iter()
                .find(|f| f.models.iter().any(|m| m.name.eq_ignore_ascii_case(name)))
        })
        .copied()
}

/// Every name `--format` accepts: the ids, then the other names.
pub fn all_names() -> impl Iterator<Item = &'static str> {
    FORMATS
        .iter()
        .map(|f| f.id.as_str())
        .chain(FORMATS.iter().flat_map(|f| {
            f.models
                .iter()
                .map(|m| m.name)
                .filter(move |n| *n != f.id.as_str())
        }))
}

/// The model a served model name names, with its format: the model-table
/// row [`model_name::resolve`](super::model_name::resolve) picks from the
/// name's family, version and variants (`qwen3:8b`,
/// `Qwen/Qwen3-8B-Instruct` → `qwen3`; `llama3.1:8b` → `llama-3.1`;
/// `gpt-oss-20b` → `gpt-oss`). Sizes, quantisations, dates and an `org/`
/// prefix never decide. `None` for a name no row fits, and for a row of
/// [`PROMPTED_MODELS`] (see [`prompted_model`]).
pub fn model(name: &str) -> Option<(&'static Format, &'static super::Model)> {
    let r = super::model_name::resolve(name)?;
    let f = get(r.format);
    f.models.iter().find(|m| m.name == r.name).map(|m| (f, m))
}

/// Models the format modules do not list because they have no tool-call
/// format of their own, with the format their prompted tool use writes and
/// the generation prompt of their chat template: `(name, format,
/// prompt)`. `--model` and the other flags that name a model read them
/// after the formats' own names.
///
/// Gemma 3 has no tool tokens; Google's function-calling guide for it, and
/// the Gemma 3 tool templates of vLLM, prompt it to answer with a Python
/// list of calls, `[get_weather(city="Paris")]`: the `pythonic` format.
pub const PROMPTED_MODELS: &[(&str, FormatId, &str)] =
    &[("gemma-3", super::ids::PYTHONIC, "<start_of_turn>model\n")];

/// The [`PROMPTED_MODELS`] entry a served model
/// name names, resolved as [`model`] resolves the formats' rows: its format
/// and generation prompt. `None` when the name resolves to a format's own
/// row or to nothing.
pub fn prompted_model(name: &str) -> Option<(FormatId, &'static str)> {
    let r = super::model_name::resolve(name)?;
    PROMPTED_MODELS
        .iter()
        .any(|&(known, _, _)| known == r.name)
        .then_some((r.format, r.prompt))
}

/// An opener with the format it belongs to.
pub struct Entry {
    /// The opener.
    pub opener: &'static Opener,
    /// Its format (`None`: structural, always on).
    pub owner: Option<FormatId>,
    /// The first sixteen bytes of its literal as two words, for the quick
    /// prefix test.
    head: Head,
}

/// Up to sixteen leading bytes of a literal (lowercased when ASCII case is
/// ignored) as two little-endian words, and which of their bytes are the
/// literal's. A probe compares them with the same words of its input
/// ([`Window`]): a byte that differs within both rules the opener out
/// with a few instructions, where the prefix test (a `memcmp`, then
/// folding each byte's case) costs dozens. The openers of `<t` share
/// `<tool_ca` and differ in the bytes after it (`<tool_call>`,
/// `<tool_calls>`, `<tool_call:`), hence sixteen bytes and not eight.
#[derive(Clone, Copy)]
struct Head {
    words: [u64; 2],
    mask: [u64; 2],
}

impl Head {
    fn of(op: &Opener) -> Head {
        let mut bytes = [0u8; 16];
        let n = op.lit.len().min(16);
        for (d, &s) in bytes.iter_mut().zip(&op.lit[..n]) {
            *d = if op.ci { s.to_ascii_lowercase() } else { s };
        }
        let (words, mask) = words_of(&bytes, n);
        Head { words, mask }
    }
}

/// `bytes` as two little-endian words, and the mask of their first `n`
/// bytes.
#[inline]
fn words_of(bytes: &[u8; 16], n: usize) -> ([u64; 2], [u64; 2]) {
    let (lo, hi) = bytes.split_at(8);
    let word = |half: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(half);
        u64::from_le_bytes(w)
    };
    let ones = |k: usize| match k {
        0 => 0,
        8.. => u64::MAX,
        k => (1u64 << (8 * k)) - 1,
    };
    (
        [word(lo), word(hi)],
        [ones(n.min(8)), ones(n.saturating_sub(8))],
    )
}

/// ASCII `A`–`Z` in each byte of `w` made lowercase, every other byte
/// unchanged (as [`u8::to_ascii_lowercase`] on each).
#[inline]
fn ascii_lower_word(w: u64) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low7 = w & !HIGH;
    // the high bit of each byte: its low seven bits are at least `A`, more
    // than `Z` (no carry crosses a byte: each sum stays below 0x100)
    let ge_a = low7 + 0x3f3f_3f3f_3f3f_3f3f;
    let gt_z = low7 + 0x2525_2525_2525_2525;
    let upper = ge_a & !gt_z & !w & HIGH;
    w | (upper >> 2)
}

/// A probe's input as [`Head`] reads a literal: its first sixteen bytes
/// (fewer when the input is shorter) as written and lowercased.
struct Window {
    raw: [u64; 2],
    lower: [u64; 2],
    mask: [u64; 2],
}

impl Window {
    #[inline]
    fn of(input: &[u8]) -> Window {
        let (raw, mask) = match input.first_chunk::<16>() {
            Some(bytes) => words_of(bytes, 16),
            None => {
                let mut bytes = [0u8; 16];
                bytes[..input.len()].copy_from_slice(input);
                words_of(&bytes, input.len())
            }
        };
        Window {
            raw,
            lower: [ascii_lower_word(raw[0]), ascii_lower_word(raw[1])],
            mask,
        }
    }

    /// False when a byte both hold differs: the prefix test would answer
    /// [`Prefix::No`]. True says nothing (the prefix test decides).
    #[inline]
    fn may_start(&self, head: &Head, ci: bool) -> bool {
        let w = if ci { self.lower } else { self.raw };
        ((w[0] ^ head.words[0]) & head.mask[0] & self.mask[0])
            | ((w[1] ^ head.words[1]) & head.mask[1] & self.mask[1])
            == 0
    }
}

impl Entry {
    /// True when the opener is on under `cfg`'s format choice.
    #[inline]
    fn on(&self, cfg: &Config) -> bool {
        match self.owner {
            None => true,
            Some(id) => cfg.allows(id) || self.opener.also.iter().any(|&a| cfg.allows(a)),
        }
    }
}

struct Tables {
    /// Openers by the first byte of their literal, in probe order.
    by_byte: Vec<Vec<Entry>>,
    /// Bytes that begin a line-start opener.
    line_start: [bool; 256],
    /// `line_start` plus the bytes that can begin a marker anywhere.
    line_interest: [bool; 256],
    /// By a line's first two bytes: whether the line may need a look, and
    /// on which third bytes (see [`line_pair_look_table`]).
    line_pair_look: LineLook,
    /// By a line's first two bytes (`b0 << 8 | b1`): whether an opener's
    /// literal may begin with them (see [`may_open_line`]).
    line_pairs: Vec<bool>,
    /// By first byte: its openers by the second byte ([`pairs`]).
    pairs: Vec<OnceLock<Pairs>>,
    /// The bytes [`extra_stop`] may answer, ascending: each byte other than
    /// the text scanner's own with the openers found anywhere that begin
    /// with it (the 256 rows are looked through once, not per engine).
    anywhere: Vec<(u8, Vec<usize>)>,
    /// By first byte: the first four bytes (or fewer) of its openers'
    /// literals, each once, with whether ASCII case is ignored
    /// ([`may_open_line`]).
    heads: Vec<Vec<([u8; 4], usize, bool)>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        // (rank, group, position) orders every opener
        let mut all: Vec<((super::Rank, usize, usize), Entry)> = Vec::new();
        for (k, op) in STRUCTURAL.iter().flat_map(|g| g.iter()).enumerate() {
            all.push((
                (op.rank, 0, k),
                Entry {
                    opener: op,
                    owner: None,
                    head: Head::of(op),
                },
            ));
        }
        for (g, f) in FORMATS.iter().enumerate() {
            for (k, op) in f.openers.iter().enumerate() {
                let owner = Some(f.id);
                let head = Head::of(op);
                all.push((
                    (op.rank, g + 1, k),
                    Entry {
                        opener: op,
                        owner,
                        head,
                    },
                ));
            }
        }
        all.sort_by_key(|(key, _)| *key);
        let mut by_byte: Vec<Vec<Entry>> = (0..256).map(|_| Vec::new()).collect();
        let mut line_start = [false; 256];
        for (_, e) in all {
            let first = e.opener.lit[0];
            let mut bytes = vec![first];
            if e.opener.ci && first.is_ascii_alphabetic() {
                bytes.push(first ^ 0x20);
            }
            for b in bytes {
                if e.opener.place == Place::LineStart {
                    line_start[b as usize] = true;
                }
                by_byte[b as usize].push(Entry {
                    opener: e.opener,
                    owner: e.owner,
                    head: e.head,
                });
            }
        }
        let mut line_interest = line_start;
        for b in [b'<', b'[', b'`'] {
            line_interest[usize::from(b)] = true;
        }
        let mut line_pairs = vec![false; 1 << 16];
        let cases = |b: u8, ci: bool| {
            if ci && b.is_ascii_alphabetic() {
                vec![b.to_ascii_lowercase(), b.to_ascii_uppercase()]
            } else {
                vec![b]
            }
        };
        for (b0, entries) in by_byte.iter().enumerate() {
            let row = &mut line_pairs[b0 << 8..(b0 + 1) << 8];
            if matches!(b0 as u8, b'<' | b'[' | b'`') {
                row.fill(true);
                continue;
            }
            for e in entries {
                match e.opener.lit.get(1) {
                    Some(&b1) => {
                        for c in cases(b1, e.opener.ci) {
                            row[usize::from(c)] = true;
                        }
                    }
                    None => row.fill(true),
                }
            }
        }
        let anywhere = (0..=u8::MAX)
            .filter(|&b| !matches!(b, b'<' | b'[' | b'`' | b'\n'))
            .map(|b| {
                let at = by_byte[usize::from(b)]
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.opener.place == Place::Anywhere)
                    .map(|(k, _)| k)
                    .collect::<Vec<_>>();
                (b, at)
            })
            .filter(|(_, at)| !at.is_empty())
            .collect();
        let heads: Vec<Vec<([u8; 4], usize, bool)>> = by_byte
            .iter()
            .enumerate()
            .map(|(b, entries)| {
                let mut heads: Vec<([u8; 4], usize, bool)> = Vec::new();
                // a line beginning with one of these may always open
                if matches!(b as u8, b'<' | b'[' | b'`') {
                    return heads;
                }
                for e in entries {
                    let lit = e.opener.lit;
                    let n = lit.len().min(4);
                    let mut head = [0u8; 4];
                    head[..n].copy_from_slice(&lit[..n]);
                    let h = (head, n, e.opener.ci);
                    if !heads.contains(&h) {
                        heads.push(h);
                    }
                }
                heads
            })
            .collect();
        let line_pair_look = LineLook::new(&line_interest, &line_pairs, &heads);
        Tables {
            heads,
            by_byte,
            line_start,
            line_pair_look,
            line_interest,
            line_pairs,
            pairs: (0..256).map(|_| OnceLock::new()).collect(),
            anywhere,
        }
    })
}

/// The openers whose literal can begin with byte `b`, in probe order.
pub fn openers_for(b: u8) -> &'static [Entry] {
    &tables().by_byte[b as usize]
}

/// Bytes that begin an opener looked for only at the start of a line.
#[inline]
pub fn is_line_start_byte(b: u8) -> bool {
    tables().line_start[b as usize]
}

/// Whether a line whose first byte after blanks starts `rest` (a byte of
/// [`line_interest_table`]) may begin a marker: `<`, `[` and backtick
/// always may; a letter only when some opener's literal begins with the
/// bytes there (`to=self<|message|>`, `call:`, `Action:`), or may once more
/// input arrives. Most prose lines begin with a letter that some
/// line-start literal also begins with; this keeps the text scanner's
/// newline walk from stopping at each of them.
#[inline]
pub fn may_open_line(rest: &[u8]) -> bool {
    let (b, b1) = match rest {
        [b, b1, ..] => (*b, *b1),
        _ => return true,
    };
    let t = tables();
    if !t.line_pairs[usize::from(b) << 8 | usize::from(b1)] {
        return false;
    }
    if matches!(b, b'<' | b'[' | b'`') {
        return true;
    }
    // the first four bytes decide (the probe reads the rest): those of
    // every opener beginning with `b`, each distinct head once
    t.heads[usize::from(b)].iter().any(|(head, n, ci)| {
        head[..*n]
            .iter()
            .zip(rest)
            .all(|(&l, &r)| l == r || (*ci && l.eq_ignore_ascii_case(&r)))
    })
}

/// Bytes that, first on a line after blanks, make the text scanner look at
/// that line start: the first bytes of line-start openers and the bytes
/// that can start a marker anywhere (`<`, `[`, backtick).
pub fn line_interest_table() -> &'static [bool; 256] {
    &tables().line_interest
}

/// Whether a line may need a line-start look, by its first two bytes and
/// then its third: see [`LineLook`].
pub fn line_pair_look_table() -> &'static LineLook {
    &tables().line_pair_look
}

/// The newline walk's filter: by a line's first two bytes (`b0 << 8 |
/// b1`), whether the line may need a line-start look (it begins with a
/// blank, or with a byte of [`line_interest_table`] that
/// [`may_open_line`]'s two-byte table lets through) and, for most such
/// pairs, by its third byte. A line it rules out needs no look: the text
/// scanner rules most prose lines out with one or two look-ups.
pub struct LineLook {
    /// By pair: [`LineLook::NONE`], [`LineLook::ANY`], or `k`: the third
    /// bytes that may follow are `thirds[k - 1]`.
    pairs: Box<[u8; 1 << 16]>,
    /// Sets of third bytes (256-bit masks), each once.
    thirds: Vec<[u64; 4]>,
}

impl LineLook {
    /// The pair begins no line that needs a look.
    pub const NONE: u8 = 0;
    /// The pair may begin one, whatever follows.
    pub const ANY: u8 = u8::MAX;

    fn new(
        interest: &[bool; 256],
        line_pairs: &[bool],
        heads: &[Vec<([u8; 4], usize, bool)>],
    ) -> Self {
        // zeroed by the allocator (a boxed array literal is written out)
        let mut pairs: Box<[u8; 1 << 16]> = match vec![0u8; 1 << 16].into_boxed_slice().try_into() {
            Ok(table) => table,
            Err(_) => unreachable!("the vector has the array's length"),
        };
        let mut thirds: Vec<[u64; 4]> = Vec::new();
        let cases = |b: u8, ci: bool| {
            let other = if ci && b.is_ascii_alphabetic() {
                b ^ 0x20
            } else {
                b
            };
            [b, other]
        };
        for (b0, row) in pairs.chunks_exact_mut(256).enumerate() {
            if matches!(b0 as u8, b' ' | b'\t' | b'<' | b'[' | b'`') {
                // blanks: the look skips them; the others may always open
                if matches!(b0 as u8, b' ' | b'\t') || interest[b0] {
                    row.fill(Self::ANY);
                }
                continue;
            }
            if !interest[b0] {
                continue;
            }
            // what `may_open_line` answers for three bytes `b0 b1 b2`: a
            // head of one, two bytes, or matching on those, opens whatever
            // the third; a longer head opens on its own third byte
            let mut masks: Vec<(u8, [u64; 4])> = Vec::new();
            // second bytes that open whatever the third (`all`: every one)
            let (mut all, mut any) = (false, Vec::new());
            for &(head, n, ci) in &heads[b0] {
                if !cases(head[0], ci).contains(&(b0 as u8)) {
                    continue;
                }
                if n < 2 {
                    all = true;
                    continue;
                }
                for b1 in cases(head[1], ci) {
                    if n < 3 {
                        any.push(b1);
                        continue;
                    }
                    let k = match masks.iter().position(|(b, _)| *b == b1) {
                        Some(k) => k,
                        None => {
                            masks.push((b1, [0; 4]));
                            masks.len() - 1
                        }
                    };
                    for b2 in cases(head[2], ci) {
                        masks[k].1[usize::from(b2 >> 6)] |= 1 << (b2 & 63);
                    }
                }
            }
            // only the pairs the two-byte table lets through (a pair no
            // head begins with stays NONE, as `may_open_line` says no)
            let through = &line_pairs[b0 << 8..(b0 + 1) << 8];
            if all {
                for (cell, &on) in row.iter_mut().zip(through) {
                    if on {
                        *cell = Self::ANY;
                    }
                }
                continue;
            }
            for (b1, mask) in masks {
                if through[usize::from(b1)] && !any.contains(&b1) {
                    row[usize::from(b1)] = match thirds.iter().position(|m| *m == mask) {
                        Some(k) => u8::try_from(k + 1).unwrap_or(Self::ANY),
                        None if thirds.len() + 1 < usize::from(Self::ANY) => {
                            thirds.push(mask);
                            thirds.len() as u8
                        }
                        // more sets than fit: no filter on the third byte
                        None => Self::ANY,
                    };
                }
            }
            for b1 in any {
                if through[usize::from(b1)] {
                    row[usize::from(b1)] = Self::ANY;
                }
            }
        }
        LineLook { pairs, thirds }
    }

    /// By a line's first two bytes: [`LineLook::NONE`], [`LineLook::ANY`]
    /// or a set of third bytes for [`LineLook::third`].
    #[inline(always)]
    pub fn pair(&self, b0: u8, b1: u8) -> u8 {
        self.pairs[usize::from(u16::from_be_bytes([b0, b1]))]
    }

    /// The table [`LineLook::pair`] reads, by `b0 << 8 | b1`: for a loop
    /// that keeps it in a register across calls.
    #[inline(always)]
    pub fn pair_table(&self) -> &[u8; 1 << 16] {
        &self.pairs
    }

    /// Whether `b2` may follow a pair whose [`LineLook::pair`] answer is
    /// `set` (neither `NONE` nor `ANY`) on a line that needs a look.
    #[inline(always)]
    pub fn third(&self, set: u8, b2: u8) -> bool {
        self.thirds
            .get(usize::from(set) - 1)
            .is_none_or(|m| m[usize::from(b2 >> 6)] >> (b2 & 63) & 1 == 1)
    }
}

/// The byte the engine's text scanner must stop at mid-line besides its own
/// (`<`, `[`, backtick, newline, an armed byte): the first byte of an
/// opener looked for anywhere in a line that is on under `cfg` (today `{`,
/// for JSON objects inline in prose).
pub fn extra_stop(cfg: &Config) -> Option<u8> {
    let t = tables();
    t.anywhere.iter().find_map(|(b, at)| {
        let entries = &t.by_byte[usize::from(*b)];
        at.iter()
            .any(|&k| entries.get(k).is_some_and(|e| e.on(cfg)))
            .then_some(*b)
    })
}

/// True when a block of format `id` may be reported under `cfg`.
pub fn allows_block(cfg: &Config, id: FormatId) -> bool {
    cfg.allows(id) || get(id).admitted_under.iter().any(|&a| cfg.is_only(a))
}

/// The document-start probe in force under `cfg`, if any.
pub fn doc_start(cfg: &Config) -> Option<fn(&[u8], &ProbeCx) -> Probe> {
    FORMATS.iter().find_map(|f| {
        let d = f.doc_start?;
        let on = if d.forced_only {
            cfg.is_only(f.id)
        } else {
            cfg.allows(f.id)
        };
        on.then_some(d.probe)
    })
}

/// The leads of the formats on under `cfg` (bytes before a marker
/// candidate that belong to the marker, [`super::Lead`]).
pub fn leads(cfg: &Config) -> Vec<super::Lead> {
    FORMATS
        .iter()
        .filter(|f| cfg.allows(f.id))
        .flat_map(|f| f.lead.into_iter().chain(f.line_lead))
        .collect()
}

/// A byte that continues a word: a lead that must start a word may not
/// follow it.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True when `lead` may start at `start` of `data`, whose bytes from
/// `from` on are not yet emitted: a word lead needs a non-word byte before
/// it (or the first byte not yet emitted, whose predecessor was checked
/// when it was held back).
fn lead_starts(lead: &super::Lead, data: &[u8], from: usize, start: usize) -> bool {
    !lead.word || start == from || !is_word_byte(data[start - 1])
}

/// How many bytes right before index `at` of `data` (not before `from`)
/// must be held back because they are, or begin, one of `leads`: the
/// longest such run, 0 when none. `line_at_from`: `data[from]` starts a
/// line (or the output), for a line lead.
pub fn lead_tail(
    leads: &[super::Lead],
    data: &[u8],
    from: usize,
    at: usize,
    line_at_from: bool,
) -> usize {
    let mut hold = 0;
    for lead in leads {
        if lead.between.is_some() {
            let start = long_lead_start(lead, data, (from, line_at_from), at, Prefix::Partial);
            if let Some(start) = start {
                hold = hold.max(at - start);
            }
        }
        for k in (hold + 1..=lead.lit.len().min(at.saturating_sub(from))).rev() {
            if data[at - k..at] == lead.lit[..k] && lead_starts(lead, data, from, at - k) {
                hold = k;
                break;
            }
        }
    }
    hold
}

/// Where a lead with a [`super::Lead::between`] part starts when it ends
/// at `at`: its literal's last occurrence within [`super::MAX_LEAD`]
/// bytes before `at` (and not before `from`), when the bytes from there
/// to `at` are a whole run (`want` [`Prefix::Full`]) or at least begin
/// one (`want` [`Prefix::Partial`]).
fn long_lead_start(
    lead: &super::Lead,
    data: &[u8],
    (from, line_at_from): (usize, bool),
    at: usize,
    want: Prefix,
) -> Option<usize> {
    let between = lead.between?;
    let lo = from.max(at.saturating_sub(super::MAX_LEAD));
    let start = if lead.lit.is_empty() {
        // a line lead: from the start of the line `at` is in
        match memchr::memrchr(b'\n', &data[lo..at]) {
            Some(k) => lo + k + 1,
            None if lo == from && line_at_from => from,
            None => return None,
        }
    } else {
        lo + memchr::memmem::rfind(&data[lo..at], lead.lit)?
    };
    if !lead_starts(lead, data, from, start) {
        return None;
    }
    match (between(&data[start + lead.lit.len()..at]), want) {
        (Prefix::Full, _) | (Prefix::Partial, Prefix::Partial) => Some(start),
        _ => None,
    }
}

/// The lead of a marker whose literal starts at index `at` of `data` and
/// whose lead ends right before it (at or after `from`, not yet emitted):
/// where the lead starts, and the lead (whose probe the engine reads the
/// marker with from there).
pub fn lead_probe<'a>(
    leads: &'a [super::Lead],
    data: &[u8],
    (from, line_at_from): (usize, bool),
    at: usize,
) -> Option<(usize, &'a super::Lead)> {
    leads.iter().find_map(|lead| {
        if lead.between.is_some() {
            if !data[at..].starts_with(lead.rest) {
                return None;
            }
            let start = long_lead_start(lead, data, (from, line_at_from), at, Prefix::Full)?;
            return Some((start, lead));
        }
        let start = at.checked_sub(lead.lit.len())?;
        (start >= from
            && data[start..at] == *lead.lit
            && data[at..].starts_with(lead.rest)
            && lead_starts(lead, data, from, start))
        .then_some((start, lead))
    })
}

/// Decides what begins at the start of `input`, trying every opener whose
/// literal matches, in probe order: the first definite answer wins, and a
/// "need more" from an earlier opener holds everything back.
pub fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    probe_noting(input, cx, &mut None)
}

/// One opener of [`probe_noting`]'s list at the start of `input`: its
/// answer, or `None` to try the next.
#[inline(always)]
fn try_opener(
    e: &Entry,
    input: &[u8],
    window: &Window,
    cx: &ProbeCx,
    declined: &mut Option<&'static [u8]>,
) -> Option<Probe> {
    let op = e.opener;
    match op.place {
        Place::LineStart if !cx.line_start => return None,
        Place::Armed(b) if cx.armed != Some(b) => return None,
        _ => {}
    }
    if !window.may_start(&e.head, op.ci) {
        return None;
    }
    if !e.on(cx.cfg) {
        return None;
    }
    let p = if op.ci {
        scan::prefix_ci(input, op.lit)
    } else {
        scan::prefix(input, op.lit)
    };
    match p {
        Prefix::No => return None,
        Prefix::Partial => {
            if cx.eof {
                return None;
            }
            return Some(Probe::NeedMore);
        }
        Prefix::Full => {}
    }
    if op.markup {
        return Some(Probe::Match(Action::Markup { len: op.lit.len() }));
    }
    match (op.probe)(input, cx) {
        Probe::NotMarker => {
            // the longest: `<tool_call`, not a catch-all `<`
            if declined.is_none_or(|d| op.lit.len() > d.len()) {
                *declined = Some(op.lit);
            }
            None
        }
        Probe::Match(Action::Block { fmt, .. }) if !allows_block(cx.cfg, fmt.id()) => None,
        other => Some(other),
    }
}

/// A first byte with more openers than this has its openers indexed by
/// the second byte too ([`pairs`]).
const PAIRED: usize = 8;

/// The openers of one first byte by the second byte of the input: for
/// each byte, the positions in [`openers_for`]'s list (in probe order) of
/// the openers whose literal may go on with it (a one-byte literal always
/// may). Built on first use, for the few first bytes (`<`, `[`) with many
/// openers: a probe then tries a handful instead of all of them.
struct Pairs {
    /// `at[start[b]..start[b + 1]]` are the openers for second byte `b`.
    start: Box<[u32; 257]>,
    at: Vec<u16>,
}

impl Pairs {
    fn with_second(&self, b: u8) -> &[u16] {
        let b = usize::from(b);
        &self.at[self.start[b] as usize..self.start[b + 1] as usize]
    }
}

fn pairs(first: u8) -> &'static Pairs {
    let t = tables();
    t.pairs[usize::from(first)].get_or_init(|| {
        let entries = &t.by_byte[usize::from(first)];
        // the second bytes an opener's literal may go on with: any (a
        // one-byte literal), its second byte, or both its cases
        let seconds = |e: &Entry| -> ([u8; 2], bool) {
            match e.opener.lit.get(1) {
                None => ([0, 0], true),
                Some(&l) if e.opener.ci => {
                    ([l.to_ascii_lowercase(), l.to_ascii_uppercase()], false)
                }
                Some(&l) => ([l, l], false),
            }
        };
        // a counting sort by second byte, stable: each list in probe order
        let mut start = Box::new([0u32; 257]);
        for e in entries {
            match seconds(e) {
                (_, true) => start[1..].iter_mut().for_each(|n| *n += 1),
                ([a, b], false) => {
                    start[usize::from(a) + 1] += 1;
                    if b != a {
                        start[usize::from(b) + 1] += 1;
                    }
                }
            }
        }
        for b in 1..257 {
            start[b] += start[b - 1];
        }
        let mut next = *start;
        let mut at = vec![0u16; start[256] as usize];
        let mut put = |b: usize, k: usize| {
            // a few hundred openers in all
            at[next[b] as usize] = u16::try_from(k).unwrap_or(u16::MAX);
            next[b] += 1;
        };
        for (k, e) in entries.iter().enumerate() {
            match seconds(e) {
                (_, true) => (0..256).for_each(|b| put(b, k)),
                ([a, b], false) => {
                    put(usize::from(a), k);
                    if b != a {
                        put(usize::from(b), k);
                    }
                }
            }
        }
        Pairs { start, at }
    })
}

/// [`probe`], also noting in `declined` the longest literal of an opener
/// that was found in full but that its probe declined.
pub fn probe_noting(input: &[u8], cx: &ProbeCx, declined: &mut Option<&'static [u8]>) -> Probe {
    let Some(&first) = input.first() else {
        return Probe::NotMarker;
    };
    let entries = openers_for(first);
    let window = Window::of(input);
    match input.get(1) {
        // only the openers whose literal may go on with the second byte
        // (the prefix test would rule the others out)
        Some(&second) if entries.len() > PAIRED => {
            for &k in pairs(first).with_second(second) {
                if let Some(p) = try_opener(&entries[usize::from(k)], input, &window, cx, declined)
                {
                    return p;
                }
            }
        }
        _ => {
            for e in entries {
                if let Some(p) = try_opener(e, input, &window, cx, declined) {
                    return p;
                }
            }
        }
    }
    if cx.doc_start && cx.line_start {
        // every document-start probe in force, in registry order: the first
        // that does not decline decides
        for f in FORMATS {
            let Some(d) = f.doc_start else { continue };
            let on = if d.forced_only {
                cx.cfg.is_only(f.id)
            } else {
                cx.cfg.allows(f.id)
            };
            if on {
                match (d.probe)(input, cx) {
                    Probe::NotMarker => {}
                    other => return other,
                }
            }
        }
    }
    Probe::NotMarker
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_as_each_byte_is() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut words = Vec::new();
        for b in 0..=u8::MAX {
            for at in 0..8 {
                words.push(u64::from(b) << (8 * at) | 0x4161_7a5a_5b40_60c1);
            }
        }
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            words.push(seed);
        }
        for w in words {
            let want = u64::from_le_bytes(w.to_le_bytes().map(|b| b.to_ascii_lowercase()));
            assert_eq!(ascii_lower_word(w), want, "{w:#x}");
        }
    }

    /// The quick test rules an opener out only where the prefix test
    /// answers no: on each literal, its prefixes, its case changed, longer
    /// inputs, and each byte of the first seventeen changed.
    #[test]
    fn the_quick_prefix_test_never_rules_out_a_prefix() {
        let full = |e: &Entry, input: &[u8]| {
            if e.opener.ci {
                scan::prefix_ci(input, e.opener.lit)
            } else {
                scan::prefix(input, e.opener.lit)
            }
        };
        let mut ruled_out = 0usize;
        for first in 0..=u8::MAX {
            for e in openers_for(first) {
                let lit = e.opener.lit;
                let mut inputs: Vec<Vec<u8>> = Vec::new();
                for n in 1..=lit.len() {
                    inputs.push(lit[..n].to_vec());
                    inputs.push(lit[..n].to_ascii_uppercase());
                    inputs.push(lit[..n].iter().map(|b| b ^ 0x20).collect());
                }
                for tail in [&b"x"[..], b"{\"name\": 1}", b"\n", b"s>abcdefghijklmnop"] {
                    inputs.push([lit, tail].concat());
                }
                for at in 0..17 {
                    for b in [b'a', b'A', b'>', b'_', b':', 0x80, 0xc4, 0] {
                        let mut v = [lit, b"0123456789abcdefgh"].concat();
                        if let Some(x) = v.get_mut(at) {
                            *x = b;
                        }
                        inputs.push(v.clone());
                        inputs.push(v[..at.min(v.len())].to_vec());
                    }
                }
                for input in inputs {
                    if input.first() != Some(&first) {
                        continue;
                    }
                    let quick = Window::of(&input).may_start(&e.head, e.opener.ci);
                    if !quick {
                        ruled_out += 1;
                        assert_eq!(
                            full(e, &input),
                            Prefix::No,
                            "{:?} on {:?}",
                            String::from_utf8_lossy(lit),
                            String::from_utf8_lossy(&input)
                        );
                    }
                }
            }
        }
        // the check means something
        assert!(ruled_out > 1000, "{ruled_out}");
    }

    /// `extra_stop` from its precomputed rows answers what a walk over
    /// every byte's openers does, under auto and under each format alone.
    #[test]
    fn extra_stop_is_the_walk_over_every_byte() {
        let walk = |cfg: &Config| {
            (0..=u8::MAX).find(|&b| {
                !matches!(b, b'<' | b'[' | b'`' | b'\n')
                    && openers_for(b)
                        .iter()
                        .any(|e| e.opener.place == Place::Anywhere && e.on(cfg))
            })
        };
        let mut cfgs = vec![Config::default()];
        for f in FORMATS {
            cfgs.push(Config {
                format: crate::config::FormatChoice::Only(f.id),
                ..Config::default()
            });
        }
        let mut seen = std::collections::BTreeSet::new();
        for cfg in &cfgs {
            let got = extra_stop(cfg);
            assert_eq!(got, walk(cfg), "{:?}", cfg.format);
            seen.insert(got);
        }
        // the check means something: some choice has a stop, some none
        assert!(seen.len() > 1, "{seen:?}");
    }

    #[test]
    fn openers_by_second_byte_are_those_the_prefix_test_keeps_in_order() {
        for first in 0..=u8::MAX {
            let entries = openers_for(first);
            if entries.len() <= PAIRED {
                continue;
            }
            for second in 0..=u8::MAX {
                let want: Vec<usize> = entries
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        let op = e.opener;
                        op.lit.get(1).is_none_or(|&l| {
                            l == second || (op.ci && l.eq_ignore_ascii_case(&second))
                        })
                    })
                    .map(|(k, _)| k)
                    .collect();
                let got: Vec<usize> = pairs(first)
                    .with_second(second)
                    .iter()
                    .map(|&k| usize::from(k))
                    .collect();
                assert_eq!(got, want, "{:?} {:?}", first as char, second as char);
            }
        }
    }

    #[test]
    fn word_leads_are_held_back_and_found_only_at_a_word_start() {
        let leads = leads(&Config::default());
        let tail = |s: &str| lead_tail(&leads, s.as_bytes(), 0, s.len(), false);
        // a trailing `functools`, or the start of it, may lead a `[`
        assert_eq!(tail("Sure. functools"), 9);
        assert_eq!(tail("Sure. func"), 4);
        assert_eq!(tail("Sure. f"), 1);
        // not inside a word, not past the bytes already emitted
        assert_eq!(tail("myfunctools"), 0);
        assert_eq!(tail("Sure. funk"), 0);
        assert_eq!(lead_tail(&leads, b"Sure. func", 6, 10, false), 4);
        assert_eq!(lead_tail(&leads, b"Sure. func", 8, 10, false), 0);
        // MiniMax M3's `]` leads whatever precedes it
        assert_eq!(tail("x]"), 1);
        let probe =
            |s: &str| lead_probe(&leads, s.as_bytes(), (0, false), s.len() - 1).map(|(at, _)| at);
        assert_eq!(probe("Sure. functools["), Some(6));
        assert_eq!(probe("functools["), Some(0));
        assert_eq!(probe("myfunctools["), None);
        assert_eq!(probe("Sure. functools ["), None);
    }

    #[test]
    fn line_leads_start_at_a_line_start_only() {
        let leads = leads(&Config::default());
        const ARG: &str = "<|tool_call_argument_begin|>";
        // Kimi's id at a line's start is held while it may still be one
        let tail = |s: &str, ls: bool| lead_tail(&leads, s.as_bytes(), 0, s.len(), ls);
        assert_eq!(tail("Sure.\nchannel_reply:0", false), 15);
        assert_eq!(tail("channel_rep", true), 11);
        // not when the line did not start in the bytes not yet emitted
        assert_eq!(tail("channel_rep", false), 0);
        // nor once it cannot be an id any more
        assert_eq!(tail("Sure.\nchannel reply", false), 0);
        assert_eq!(tail("Sure.\n  channel_reply:0", false), 0);
        let probe = |s: &str, ls: bool| {
            let at = s.find(ARG).expect("the token");
            lead_probe(&leads, s.as_bytes(), (0, ls), at).map(|(at, _)| at)
        };
        assert_eq!(probe(&format!("Ok.\nreply:0{ARG}{{}}"), false), Some(4));
        assert_eq!(probe(&format!("functions.reply:0{ARG}{{}}"), true), Some(0));
        assert_eq!(probe(&format!("reply:0{ARG}{{}}"), false), None);
        assert_eq!(probe(&format!("Ok. reply:0{ARG}{{}}"), true), None);
        assert_eq!(probe(&format!("Ok.\nreply{ARG}{{}}"), false), None);
    }

    #[test]
    fn line_filter_passes_every_line_start_literal_and_little_prose() {
        // every opener's literal, and each of its prefixes, may open a line
        for entries in &tables().by_byte {
            for e in entries {
                let lit = e.opener.lit;
                for n in 1..=lit.len() {
                    assert!(
                        may_open_line(&lit[..n]),
                        "{:?}",
                        String::from_utf8_lossy(lit)
                    );
                }
            }
        }
        assert!(may_open_line(b"<x"));
        assert!(may_open_line(b"t"), "too short to tell");
        assert!(!may_open_line(b"to the store"));
        assert!(!may_open_line(b"the answer"));
        assert!(!may_open_line(b"care about it"));
    }

    #[test]
    fn line_heads_decide_as_the_openers_literals_do() {
        // the definition: a line may open when some opener beginning with
        // its first byte matches its first four bytes (or fewer)
        let by_openers = |rest: &[u8]| {
            let [b, b1, ..] = rest else { return true };
            if !tables().line_pairs[usize::from(*b) << 8 | usize::from(*b1)] {
                return false;
            }
            matches!(b, b'<' | b'[' | b'`')
                || openers_for(*b).iter().any(|e| {
                    let ci = e.opener.ci;
                    e.opener
                        .lit
                        .iter()
                        .zip(rest)
                        .take(4)
                        .all(|(&l, &r)| l == r || (ci && l.eq_ignore_ascii_case(&r)))
                })
        };
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for e in tables().by_byte.iter().flatten() {
            let lit = e.opener.lit;
            for n in 1..=lit.len().min(6) {
                let mut l = lit[..n].to_vec();
                lines.push(l.clone());
                l.make_ascii_uppercase();
                lines.push(l.clone());
                if let Some(last) = l.last_mut() {
                    *last ^= 0x01;
                }
                lines.push(l);
            }
        }
        for w in [
            "to the store",
            "tools",
            "today",
            "and so",
            "analysed",
            "assist",
            "call",
            "care",
        ] {
            lines.push(w.as_bytes().to_vec());
        }
        for line in &lines {
            assert_eq!(
                may_open_line(line),
                by_openers(line),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn a_line_the_pair_table_rules_out_needs_no_look() {
        // the newline walk skips a line on this table alone: it must never
        // skip one that the full check would stop at (a longer line is
        // checked on more bytes, so two bytes are the widest case)
        let look = line_pair_look_table();
        let interest = line_interest_table();
        let (mut skipped, mut by_third, mut third_skipped) = (0, 0, 0);
        for k in 0..1usize << 16 {
            let (b0, b1) = ((k >> 8) as u8, k as u8);
            let needs = matches!(b0, b' ' | b'\t')
                || (interest[usize::from(b0)] && may_open_line(&[b0, b1]));
            let set = look.pair(b0, b1);
            assert!(set != LineLook::NONE || !needs, "{b0:#x} {b1:#x}");
            skipped += usize::from(set == LineLook::NONE);
            if set == LineLook::NONE || set == LineLook::ANY {
                continue;
            }
            by_third += 1;
            // ruled out on its third byte: the full check on those three
            // bytes says no (so it does on any longer line), and the
            // filter lets through exactly what it says yes to
            for b2 in 0..=u8::MAX {
                let needs = interest[usize::from(b0)] && may_open_line(&[b0, b1, b2]);
                assert_eq!(look.third(set, b2), needs, "{b0:#x} {b1:#x} {b2:#x}");
                third_skipped += usize::from(!needs);
            }
        }
        assert!(
            skipped > 60_000,
            "the table rules out most pairs: {skipped}"
        );
        // the filter means something: the pairs of the line-start words
        // (`to`, `an`, `ca`, …) have one, and it rules out most third bytes
        assert!(
            by_third >= 10,
            "{by_third} pairs filtered on the third byte"
        );
        assert!(
            third_skipped > by_third * 200,
            "{third_skipped} of {by_third} × 256"
        );
    }

    #[test]
    fn ids_and_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for n in all_names() {
            assert!(seen.insert(n.to_ascii_lowercase()), "{n} names two formats");
        }
    }

    #[test]
    fn every_format_is_found_by_its_id_and_names() {
        for f in FORMATS {
            assert_eq!(by_name(f.id.as_str()).map(|g| g.id), Some(f.id));
            for m in f.models {
                assert_eq!(by_name(m.name).map(|g| g.id), Some(f.id), "{}", m.name);
            }
        }
        assert!(by_name("no-such-format").is_none());
    }

    #[test]
    fn anywhere_openers_begin_with_a_byte_the_engine_stops_at() {
        // mid-line, the text scanner stops only at `<`, `[` and backticks,
        // at `{` with --inline-json and at a byte an Arm action armed (`>`)
        for e in tables().by_byte.iter().flatten() {
            let b = e.opener.lit[0];
            assert!(
                match e.opener.place {
                    Place::LineStart => true,
                    Place::Armed(a) => a == b,
                    Place::Anywhere => matches!(b, b'<' | b'[' | b'`' | b'{'),
                },
                "{:?}",
                crate::scan::lossy(e.opener.lit)
            );
        }
    }
}
