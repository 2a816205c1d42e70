//! Served model names, read into their parts and resolved to the model
//! table.
//!
//! A name as a server, a hub or a file gives it (Ollama's `qwen3:8b-q4_K_M`
//! and `llama3.1:70b-instruct-q8_0`, Hugging Face's
//! `Qwen/Qwen3-30B-A3B-Instruct-2507`, a GGUF file's
//! `Meta-Llama-3.1-8B-Instruct-Q5_K_M.gguf`) is split into words, and each
//! word is classified: a size (`8b`, `0.6b`, `270m`, `30b`+`a3b`, `8x7b`,
//! `e2b`, `16e`), a quantisation or packaging tag (`q4_k_m`, `fp8`, `awq`,
//! `4bit`, `gguf`, `mlx`), a date (`2507`, `0528`, `12-2024`), `latest`, a
//! version (`3`, `3.1`, `v3.1`, `r1`, `k2.5`, `m2`) or a name word. Sizes,
//! quantisations and dates are never versions. The family is the name word
//! of a known family (the first word of a model-table row) nearest before
//! the first version; the words before it (an organisation, a base model a
//! tuner named first: `Meta-`, `Llama-xLAM-`) are its prefix, and the name
//! words after it are its variants (`coder`, `thinking`, `instruct`, `oss`).
//!
//! [`resolve`] then picks the table row the parse names: same family, the
//! row's variants all among the name's, and the same version: equal, or,
//! for a row naming only a major version (`granite-3`, `glm-5`), any minor
//! of that major unless the table tells that family's minors apart (it
//! lists `qwen3.5` beside `qwen3`, so `qwen3.7` names nothing). The most
//! specific row wins: an exact version over a major, a major over none,
//! then the most variants. A name whose family, version or variants fit no
//! row resolves to nothing, never to a neighbour: [`suggest`] gives the
//! "did you mean".

use super::{FormatId, FORMATS};

/// A model name read into its parts (all ASCII lowercase).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelName {
    /// The organisation before the last `/` (`qwen` in `Qwen/Qwen3-8B`).
    pub org: Option<String>,
    /// Name words before the family (`meta` in `Meta-Llama-3.1-8B`).
    pub prefix: Vec<String>,
    /// The family word (`qwen`, `llama`, `deepseek`, `gpt`): the name word of
    /// a known family nearest before the first version, else the first name
    /// word. Empty when the name has no name word.
    pub family: String,
    /// The first version after the family (`3`, `3.1`, `v3.1`, `r1`, `k2`).
    pub version: Option<String>,
    /// Variant and other words after the family, in order (`coder`,
    /// `thinking`, `instruct`, `it`, `oss`; a later version such as the
    /// `3.1` of `Hermes-3-Llama-3.1-8B` is kept here too).
    pub variants: Vec<String>,
    /// Sizes (`8b`, `30b`, `a3b`, `8x7b`, `e2b`, `16e`).
    pub sizes: Vec<String>,
    /// Quantisation and packaging tags (`q4_k_m`, `fp8`, `awq`, `gguf`).
    pub quants: Vec<String>,
    /// A release date (`2507`, `0528`, `12-2024`).
    pub date: Option<String>,
    /// The tag was `latest`.
    pub latest: bool,
}

/// One word of a name, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Word {
    Name(String),
    Version(String),
    Size(String),
    Quant(String),
    Date(String),
    Latest,
}

/// Words written before a model's own name that are neither a family nor a
/// size and must not be read letter by letter (`c4ai` is not `c`, `4`, `ai`).
const VENDOR_SEGMENTS: &[&str] = &["c4ai"];

/// Name words of fine-tunes and derived lines that bring their own chat
/// template, and of models that have none (embedders, rerankers): one in a
/// name whose family is another (`Llama-3.1-Nemotron`, `dolphin-mixtral`,
/// `llama-guard-3`, `Qwen3-Embedding-8B`) makes it name no row of that
/// family.
const OWN_TEMPLATE_LINES: &[&str] = &[
    "dolphin",
    "embed",
    "embedding",
    "firefunction",
    "functionary",
    "gorilla",
    "groq",
    "guard",
    "guardian",
    "hammer",
    "hermes",
    "nemotron",
    "nexusraven",
    "openhermes",
    "rerank",
    "reranker",
    "toolace",
    "tulu",
    "watt",
    "xlam",
];

/// Quantisation and packaging words matched whole.
const QUANT_WORDS: &[&str] = &[
    "awq", "bf16", "bnb", "dwq", "exl2", "exl3", "f16", "f32", "fp16", "fp32", "fp4", "fp8",
    "gguf", "gptq", "hqq", "int4", "int8", "mlx", "mxfp4", "nvfp4", "qat", "ud", "onnx",
];

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `3`, `3.1`, `2.5`: digits with dots between.
fn is_dotted(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(is_digits)
}

/// A decimal number then one unit byte: `8b`, `0.6b`, `270m`.
fn number_unit(s: &str, units: &[u8]) -> bool {
    match s.as_bytes().split_last() {
        Some((u, rest)) if units.contains(u) => {
            let n = std::str::from_utf8(rest).unwrap_or("");
            is_dotted(n) && n.split('.').count() <= 2
        }
        _ => false,
    }
}

/// A size: total (`8b`, `0.6b`, `270m`, `1t`), active (`a3b`, `a1.8b`),
/// effective (`e2b`), experts (`8x7b`, `16e`).
fn is_size(s: &str) -> bool {
    if number_unit(s, b"bmkt") {
        return true;
    }
    if let Some(rest) = s.strip_prefix('a').or_else(|| s.strip_prefix('e')) {
        if number_unit(rest, b"b") {
            return true;
        }
    }
    if let Some((n, m)) = s.split_once('x') {
        if is_digits(n) && number_unit(m, b"b") {
            return true;
        }
    }
    number_unit(s, b"e") && is_digits(&s[..s.len() - 1])
}

/// A quantisation or packaging tag: `q4_k_m`, `q8_0`, `iq4_xs`, `4bit`,
/// `w4a16`, `fp8`, `awq` ….
fn is_quant(s: &str) -> bool {
    if QUANT_WORDS.contains(&s) {
        return true;
    }
    let ggml = |rest: &str| {
        let mut parts = rest.split('_');
        parts.next().is_some_and(is_digits) && parts.all(|p| !p.is_empty())
    };
    if let Some(rest) = s.strip_prefix("iq").or_else(|| s.strip_prefix('q')) {
        if ggml(rest) {
            return true;
        }
    }
    if let Some(n) = s.strip_suffix("bit") {
        return is_digits(n);
    }
    // w4a16, w8a8
    if let Some(rest) = s.strip_prefix('w') {
        if let Some((w, a)) = rest.split_once('a') {
            return is_digits(w) && is_digits(a);
        }
    }
    false
}

/// A version written with a letter: `v3.1`, `r1`, `k2.5`, `m2`.
fn is_letter_version(s: &str) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_lowercase()) && is_dotted(&s[1..])
}

/// Splits `name` into segments: at `/`, `:`, `-`, `_` (unless the segment
/// is a quantisation such as `q4_k_m`), blanks, brackets, and at a `.` not
/// between two digits.
fn segments(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut coarse: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let dot_in_number = c == '.'
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        let sep = match c {
            '.' => !dot_in_number,
            '-' | ':' | '/' | '(' | ')' | '[' | ']' | ',' | '+' | '@' => true,
            _ => c.is_whitespace(),
        };
        if sep {
            if !cur.is_empty() {
                coarse.push(std::mem::take(&mut cur));
            }
        } else {
            cur.extend(c.to_lowercase());
        }
    }
    if !cur.is_empty() {
        coarse.push(cur);
    }
    let mut out = Vec::new();
    for seg in coarse {
        if seg.contains('_') && !is_quant(&seg) {
            out.extend(seg.split('_').filter(|s| !s.is_empty()).map(str::to_string));
        } else {
            out.push(seg);
        }
    }
    out
}

/// Classifies one segment, splitting glued words (`qwen3` → `qwen`, `3`;
/// `r7b` → `r`, size `7b`; `2.5vl` → `2.5`, `vl`).
fn classify(seg: &str, out: &mut Vec<Word>) {
    if seg == "latest" {
        out.push(Word::Latest);
        return;
    }
    if is_quant(seg) {
        out.push(Word::Quant(seg.to_string()));
        return;
    }
    if is_size(seg) {
        out.push(Word::Size(seg.to_string()));
        return;
    }
    if is_digits(seg) && seg.len() >= 4 {
        out.push(Word::Date(seg.to_string()));
        return;
    }
    if is_dotted(seg) || is_letter_version(seg) {
        out.push(Word::Version(seg.to_string()));
        return;
    }
    if !seg.bytes().any(|b| b.is_ascii_digit()) || VENDOR_SEGMENTS.contains(&seg) {
        out.push(Word::Name(seg.to_string()));
        return;
    }
    // runs of letters and of digits (with their dots)
    let mut runs: Vec<String> = Vec::new();
    for c in seg.chars() {
        let digitish = c.is_ascii_digit() || c == '.';
        match runs.last_mut() {
            Some(r)
                if r.chars()
                    .last()
                    .is_some_and(|p| (p.is_ascii_digit() || p == '.') == digitish) =>
            {
                r.push(c);
            }
            _ => runs.push(c.to_string()),
        }
    }
    let mut i = 0;
    while i < runs.len() {
        let run = &runs[i];
        let next = runs.get(i + 1);
        if is_dotted(run) {
            // a number and a unit that ends the segment: a size (`r7b`)
            if let Some(unit) = next.filter(|u| i + 2 == runs.len() && u.len() == 1) {
                let glued = format!("{run}{unit}");
                if is_size(&glued) {
                    out.push(Word::Size(glued));
                    i += 2;
                    continue;
                }
            }
            out.push(if run.len() >= 4 && is_digits(run) {
                Word::Date(run.clone())
            } else {
                Word::Version(run.clone())
            });
        } else {
            out.push(Word::Name(run.clone()));
        }
        i += 1;
    }
}

/// The first words of the model table's rows: the families a name can be
/// of.
fn known_families() -> &'static [String] {
    static FAMILIES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FAMILIES.get_or_init(|| {
        let mut v: Vec<String> = Vec::new();
        for (name, _, _) in rows() {
            let words = words(name);
            if let Some(Word::Name(first)) = words.into_iter().next() {
                if !v.contains(&first) {
                    v.push(first);
                }
            }
        }
        v
    })
}

/// The classified words of `name`, with the organisation and a file
/// extension dropped.
fn words(name: &str) -> Vec<Word> {
    let name = name.trim();
    let name = name
        .strip_suffix(".gguf")
        .or_else(|| name.strip_suffix(".GGUF"))
        .unwrap_or(name);
    let mut out = Vec::new();
    for seg in segments(name) {
        classify(&seg, &mut out);
    }
    // a month right before a year is part of the date (`12-2024`)
    let mut merged: Vec<Word> = Vec::with_capacity(out.len());
    for w in out {
        if let (Word::Date(d), Some(Word::Version(v))) = (&w, merged.last()) {
            if v.len() <= 2 && is_digits(v) && d.len() == 4 && d.starts_with("20") {
                let date = format!("{v}-{d}");
                merged.pop();
                merged.push(Word::Date(date));
                continue;
            }
        }
        merged.push(w);
    }
    merged
}

/// Reads `name` into its parts. Never fails: a name with no name word has
/// an empty family.
pub fn parse(name: &str) -> ModelName {
    let trimmed = name.trim();
    let (org, rest) = match trimmed.rsplit_once('/') {
        Some((org, rest)) => {
            let org = org.rsplit('/').next().unwrap_or(org).to_ascii_lowercase();
            (Some(org), rest)
        }
        None => (None, trimmed),
    };
    let words = words(rest);
    let known = known_families();
    let first_version = words
        .iter()
        .position(|w| matches!(w, Word::Version(_)))
        .unwrap_or(words.len());
    let is_known = |w: &Word| matches!(w, Word::Name(n) if known.contains(n));
    let family_at = words[..first_version]
        .iter()
        .rposition(is_known)
        .or_else(|| words.iter().position(|w| matches!(w, Word::Name(_))));
    let mut m = ModelName {
        org,
        ..ModelName::default()
    };
    for (i, w) in words.into_iter().enumerate() {
        let before = family_at.is_none_or(|f| i < f);
        match w {
            Word::Name(n) if family_at == Some(i) => m.family = n,
            Word::Name(n) if before => m.prefix.push(n),
            Word::Name(n) => m.variants.push(n),
            Word::Version(v) if m.version.is_none() && !before => m.version = Some(v),
            Word::Version(v) if before => m.prefix.push(v),
            Word::Version(v) => m.variants.push(v),
            Word::Size(s) => m.sizes.push(s),
            Word::Quant(q) => m.quants.push(q),
            Word::Date(d) => m.date = Some(d),
            Word::Latest => m.latest = true,
        }
    }
    m
}

/// Every row of the model table: the formats' models, then the prompted
/// models ([`PROMPTED_MODELS`](crate::PROMPTED_MODELS)), as (name, format,
/// generation prompt).
pub fn rows() -> impl Iterator<Item = (&'static str, FormatId, &'static str)> + Clone {
    FORMATS
        .iter()
        .flat_map(|f| f.models.iter().map(move |m| (m.name, f.id, m.prompt)))
        .chain(super::registry::PROMPTED_MODELS.iter().copied())
}

/// A table row a name resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The row's name (`qwen3`, `llama-3.1`).
    pub name: &'static str,
    /// The format the model writes.
    pub format: FormatId,
    /// The generation prompt of its chat template.
    pub prompt: &'static str,
}

/// The model table's rows, parsed once.
fn parsed_rows() -> &'static [(ModelName, Resolved)] {
    static ROWS: std::sync::OnceLock<Vec<(ModelName, Resolved)>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        rows()
            .map(|(name, format, prompt)| {
                let r = Resolved {
                    name,
                    format,
                    prompt,
                };
                (parse(name), r)
            })
            .collect()
    })
}

/// How well a row's version fits a name's: 2 equal, 1 the row names the
/// major the name's version is a minor of, 0 the row names none; `None`
/// when it does not fit.
fn version_fit(row: Option<&str>, name: Option<&str>, minors_listed: bool) -> Option<u8> {
    match (row, name) {
        (None, _) => Some(0),
        (Some(_), None) => None,
        (Some(r), Some(n)) if r == n => Some(2),
        (Some(r), Some(n)) => {
            let minor = !r.contains('.') && n.strip_prefix(r).is_some_and(|t| t.starts_with('.'));
            (minor && !minors_listed).then_some(1)
        }
    }
}

/// The table row `name` names, if any (see the module docs).
pub fn resolve(name: &str) -> Option<Resolved> {
    let m = parse(name);
    if m.family.is_empty() {
        return None;
    }
    let words_of =
        |m: &ModelName| -> Vec<String> { m.prefix.iter().chain(&m.variants).cloned().collect() };
    let others = words_of(&m);
    if others
        .iter()
        .any(|w| *w != m.family && OWN_TEMPLATE_LINES.contains(&w.as_str()))
    {
        return None;
    }
    let parsed = parsed_rows();
    let mut best: Option<((u8, usize), Resolved)> = None;
    for (row, r) in parsed {
        if row.family != m.family || !row.variants.iter().all(|v| m.variants.contains(v)) {
            continue;
        }
        // the table tells this family's minors of the row's major apart
        let minors_listed = row.version.as_deref().is_some_and(|rv| {
            parsed.iter().any(|(o, _)| {
                o.family == row.family
                    && o.variants.is_empty()
                    && o.version
                        .as_deref()
                        .and_then(|ov| ov.strip_prefix(rv))
                        .is_some_and(|t| t.starts_with('.'))
            })
        });
        let Some(fit) = version_fit(row.version.as_deref(), m.version.as_deref(), minors_listed)
        else {
            continue;
        };
        let score = (fit, row.variants.len());
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, *r));
        }
    }
    best.map(|(_, r)| r)
}

/// The known name nearest to a name that resolves to nothing, for a "did
/// you mean": a row of the same family, the one whose version shares the
/// longest start with the name's (`deepseek-r2` → `deepseek-r1`; `qwen4` →
/// `qwen3`, the first of the family on a tie), else a row or format id whose
/// first word begins as the name's family does (`qwenx` → `qwen3`). `None`
/// when nothing is close.
pub fn suggest(name: &str) -> Option<(&'static str, FormatId)> {
    let m = parse(name);
    if m.family.is_empty() {
        return None;
    }
    let shared = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let mut best: Option<(usize, &'static str, FormatId)> = None;
    for (row, r) in parsed_rows() {
        let (n, f) = (r.name, r.format);
        if row.family != m.family {
            continue;
        }
        let v = match (row.version.as_deref(), m.version.as_deref()) {
            (Some(a), Some(b)) => shared(a, b),
            _ => 0,
        };
        let overlap = row
            .variants
            .iter()
            .filter(|w| m.variants.contains(w))
            .count();
        let score = 4 + v * 2 + overlap;
        if best.is_none_or(|(s, _, _)| score > s) {
            best = Some((score, n, f));
        }
    }
    if best.is_none() {
        let ids = FORMATS.iter().map(|f| (f.id.as_str(), f.id));
        for (n, f) in rows().map(|(n, f, _)| (n, f)).chain(ids) {
            let first = parse(n).family;
            let close = !first.is_empty()
                && (first.starts_with(m.family.as_str()) || m.family.starts_with(first.as_str()));
            if close {
                return Some((n, f));
            }
        }
    }
    best.map(|(_, n, f)| (n, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str) -> ModelName {
        parse(name)
    }

    #[test]
    fn sizes_and_quantisations_are_never_versions() {
        let m = p("qwen3:8b-q4_K_M");
        assert_eq!(m.family, "qwen");
        assert_eq!(m.version.as_deref(), Some("3"));
        assert_eq!(m.sizes, ["8b"]);
        assert_eq!(m.quants, ["q4_k_m"]);
        let m = p("llama3.1:70b-instruct-q8_0");
        assert_eq!(
            (m.family.as_str(), m.version.as_deref()),
            ("llama", Some("3.1"))
        );
        assert_eq!(m.variants, ["instruct"]);
        assert_eq!(m.quants, ["q8_0"]);
        let m = p("Qwen/Qwen3-30B-A3B-Thinking-2507");
        assert_eq!(m.org.as_deref(), Some("qwen"));
        assert_eq!(m.sizes, ["30b", "a3b"]);
        assert_eq!(m.variants, ["thinking"]);
        assert_eq!(m.date.as_deref(), Some("2507"));
        let m = p("Meta-Llama-3.1-8B-Instruct-Q5_K_M.gguf");
        assert_eq!(m.prefix, ["meta"]);
        assert_eq!(
            (m.family.as_str(), m.version.as_deref()),
            ("llama", Some("3.1"))
        );
        let m = p("mixtral:8x7b");
        assert_eq!((m.family.as_str(), m.version.as_deref()), ("mixtral", None));
        assert_eq!(m.sizes, ["8x7b"]);
        let m = p("gemma3n:e4b");
        assert_eq!(m.version.as_deref(), Some("3"));
        assert_eq!(m.sizes, ["e4b"]);
        let m = p("command-r7b-12-2024");
        assert_eq!(m.family, "command");
        assert_eq!(m.variants, ["r"]);
        assert_eq!(m.sizes, ["7b"]);
        assert_eq!(m.date.as_deref(), Some("12-2024"));
        let m = p("mistral-7b-instruct-v0.2.Q4_K_M.gguf");
        assert_eq!(m.version.as_deref(), Some("v0.2"));
        assert_eq!(m.quants, ["q4_k_m"]);
        assert!(p("qwen3:latest").latest);
        let m = p("deepseek-v3:671b");
        assert_eq!(
            (m.family.as_str(), m.version.as_deref()),
            ("deepseek", Some("v3"))
        );
    }

    #[test]
    fn every_row_resolves_to_itself() {
        for (n, f, prompt) in rows() {
            let r = resolve(n).unwrap_or_else(|| panic!("{n} resolves to nothing"));
            assert_eq!((r.format, r.prompt), (f, prompt), "{n} → {}", r.name);
        }
    }

    #[test]
    fn a_size_tag_never_picks_another_row() {
        for n in [
            "qwen3:8b",
            "Qwen/Qwen3-8B",
            "qwen3-8b-instruct",
            "qwen3:8b-q4_K_M",
        ] {
            assert_eq!(resolve(n).map(|r| r.name), Some("qwen3"), "{n}");
        }
        assert_eq!(
            resolve("deepseek-v3:671b").map(|r| r.format.as_str()),
            Some("deepseek-v3")
        );
        for n in ["qwen2:7b", "qwen3.7", "glm4:9b", "llama3:8b", "phi4"] {
            assert_eq!(resolve(n), None, "{n}");
        }
    }

    #[test]
    fn any_text_is_read_without_panicking() {
        for name in [
            "",
            " ",
            "/",
            "org/",
            ":",
            "...",
            "é",
            "Qwen3-8B-Ωmega",
            "v",
            "8b",
            "a",
            "1.2.3.4",
            "q4_k_m",
            "__",
            "-x-",
            "deepseek-v3.",
            "llama3..1",
            "x\u{0}y",
            "🦙3.1:8b",
        ] {
            let _ = parse(name);
            let _ = resolve(name);
            let _ = suggest(name);
        }
    }

    #[test]
    fn size_quantisation_and_tag_suffixes_keep_every_row() {
        for (n, f, prompt) in rows() {
            for tag in [
                ":8b",
                "-8B",
                ":70b-instruct-q8_0",
                "-30B-A3B-Instruct-2507",
                "-Q4_K_M.gguf",
                ":latest",
                "-AWQ",
                "-4bit",
                ":e2b",
                "-8x7B",
            ] {
                let served = format!("{n}{tag}");
                let r = resolve(&served).map(|r| (r.format, r.prompt));
                assert_eq!(r, Some((f, prompt)), "{served}");
                let org = format!("org/{}", served.to_ascii_uppercase());
                let r = resolve(&org).map(|r| (r.format, r.prompt));
                assert_eq!(r, Some((f, prompt)), "{org}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_is_read_without_panicking(name in "\\PC{0,40}") {
            let _ = parse(&name);
            let _ = resolve(&name);
            let _ = suggest(&name);
        }
    }

    #[test]
    fn suggestions_follow_the_family() {
        assert_eq!(suggest("qwen4").map(|s| s.0), Some("qwen3"));
        assert_eq!(suggest("deepseek-r2").map(|s| s.0), Some("deepseek-r1"));
        assert_eq!(suggest("deepsek"), None);
    }
}
