//! `pythonic`: `[get_weather(city="Oslo"), get_time(tz="CET")]`.
//!
//! Llama 3.2 / Llama 4 pythonic templates, ToolACE, Granite's pythonic
//! variant and many small fine-tunes write a Python list literal of call
//! expressions with keyword arguments. Llama 4 may wrap it in
//! `<|python_start|>` … `<|python_end|>`.
//!
//! What other formats reuse lives in `shared/python/`: the Python-literal
//! parser (`literal.rs`: `parse_call_list`, `parse_call_sequence`,
//! `parse_literal`; strings in both quote styles, numbers, `True`/`None`,
//! lists, dicts, tuples and sets, dotted names, keyword names such as
//! `from=`), `PyScan` (`scan.rs`), the resumable end scanner that knows
//! triple-quoted strings, and `parse_wrapped` (`calls.rs`): a block that is
//! an opening marker, a pythonic (or JSON) body and an optional closer.
//!
//! The unmarked list is a call only when it *starts a line*, begins with
//! `[` + identifier + `(`, parses entirely as a list of calls and is followed
//! only by blanks up to the end of its line (or an end-of-turn token).
//! Anything else (`[x(i) for i in y]`, markdown `[f(x)](http://…)`) is text.
//! A call with positional arguments cannot be named without the schema: it
//! is reported as a `TLP-002` error record, not a call.

use super::shared::evidence;
use super::shared::python::*;
use super::shared::wrapped::LineValueScan;
use super::Model;
use super::{ids, Blocks, DocStart, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::render::{results, tools, Prompt};
use crate::repair::Repair;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::PYTHONIC,
    "Llama 3.2 1B/3B, Llama 4 (pythonic template), ToolACE, Granite pythonic, small fine-tunes",
    &[
        "[ + NAME( at the start of a line",
        "<|python_start|>",
        "<|python_end|>",
    ],
    "Python list literal of calls with keyword arguments",
)
.models(&[Model::new(
    "llama-4",
    "<|header_start|>assistant<|header_end|>\n\n",
)])
.openers(&[
    OPENER_PYTHON_START,
    OPENER_PYTHON_END,
    OPENER_LIST,
    OPENER_INLINE_LIST,
    OPENER_STRING_LIST,
])
.admitted_under(&[ids::LFM2])
.doc_start(DocStart {
    forced_only: false,
    probe: probe_bare,
})
.render(
    Prompt::new(
        "Llama 3.2 / Llama 4 pythonic",
        crate::render::calls::py_list,
    )
    .template(tools::pythonic, results::ipython_output),
);

// ----- the pythonic block formats ---------------------------------------------

/// The unmarked `[f(a=1)]` list at the start of a line.
pub static PY_LIST: Blocks = Blocks::new(ids::PYTHONIC, parse_py_list);

/// Llama 4's `<|python_start|>` … `<|python_end|>`.
pub static PY_START: Blocks = Blocks::new(ids::PYTHONIC, |block, cx| {
    parse_wrapped(block, cx, &START_WRAP, ids::PYTHONIC)
});

const START_WRAP: Wrap = Wrap::new(b"<|python_start|>", b"<|python_end|>").seq();

fn parse_py_list(block: &[u8], cx: &ParseCx) -> BlockResult {
    // a list shown as an example of the format is never a call
    if evidence::example_lead(cx.before) {
        return BlockResult::text();
    }
    let text = crate::scan::lossy(block);
    let exact = matches!(text, std::borrow::Cow::Borrowed(_));
    match parse_call_list(&text, cx.cut) {
        Ok(pc) => checked(pc, Vec::new(), block.len(), exact, cx),
        // cut off inside what so far is a call list
        Err(PyError::Eof) if cx.cut => BlockResult::truncated(ids::PYTHONIC, block.len()),
        // written loosely: wrapped in code or emphasis, a closer too many
        Err(_) if !cx.cut => loose_list(&text, block.len(), cx, false),
        // anything that is not entirely a list of calls is text
        Err(_) => BlockResult::text(),
    }
}

/// A list written loosely ([`loose`]): the wrap run must match the text
/// before it, extra closers are dropped. With `keywords`, every call must
/// have keyword arguments only.
fn loose_list(text: &str, len: usize, cx: &ParseCx, keywords: bool) -> BlockResult {
    let Some((list, _)) = loose::unwrap(text, cx.before) else {
        return BlockResult::text();
    };
    match loose::call_list_dropping_extra(list) {
        Ok((pc, repairs)) if !keywords || pc.calls.iter().all(|c| c.positional == 0) => {
            checked(pc, repairs, len, false, cx)
        }
        _ => BlockResult::text(),
    }
}

/// The block result of a parsed unmarked list, unless a call's name is a
/// template placeholder (`[tool_name(arg="value")]`): then text. `repairs`
/// go on the first call.
fn checked(
    pc: PyCalls,
    repairs: Vec<Repair>,
    len: usize,
    exact: bool,
    cx: &ParseCx,
) -> BlockResult {
    if loose::placeholder_calls(pc.calls.iter().map(|c| c.name.clone()), cx) {
        return BlockResult::text();
    }
    let mut r = block_result(pc, ids::PYTHONIC, 0, len, exact);
    if let Some(first) = r.calls.first_mut() {
        first.repairs.extend(repairs);
    }
    r
}

/// The `[f(a=1)]` list inside a line of prose (`Here you go: [f(a=1)]`):
/// calls only when the list ends its line, every call has keyword
/// arguments only and the list is complete. Anything else is text.
pub struct PyInlineList;

/// The shared instance.
pub static PY_INLINE_LIST: PyInlineList = PyInlineList;

impl BlockFormat for PyInlineList {
    fn id(&self) -> FormatId {
        ids::PYTHONIC
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if cx.cut || evidence::example_lead(cx.before) {
            return BlockResult::text();
        }
        let text = crate::scan::lossy(block);
        let exact = matches!(text, std::borrow::Cow::Borrowed(_));
        match parse_call_list(&text, false) {
            Ok(pc) if pc.calls.iter().all(|c| c.positional == 0) => {
                checked(pc, Vec::new(), block.len(), exact, cx)
            }
            Ok(_) => BlockResult::text(),
            Err(_) => loose_list(&text, block.len(), cx, true),
        }
    }
}

/// A reply that is one bare call, without the list brackets
/// (`get_weather(city="Oslo")`), a sloppy variant the catalog lists. Only
/// at the start of the document, alone on its line, and with keyword
/// arguments: prose such as `Note(the following)`, `print("hi")` or a
/// mention of `main()` stays text. With `--format pythonic` a call with no
/// arguments is read too, and positional arguments are reported as an
/// error instead.
pub struct PyBare;

/// The shared instance.
pub static PY_BARE: PyBare = PyBare;

impl BlockFormat for PyBare {
    fn id(&self) -> FormatId {
        ids::PYTHONIC
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let text = crate::scan::lossy(block);
        let exact = matches!(text, std::borrow::Cow::Borrowed(_));
        if loose::placeholder_calls(
            parse_call_sequence(&text, false)
                .map(|pc| pc.calls.into_iter().map(|c| c.name).collect::<Vec<_>>())
                .unwrap_or_default(),
            cx,
        ) {
            return BlockResult::text();
        }
        match parse_call_sequence(&text, cx.cut) {
            Ok(pc)
                if pc.calls.iter().any(|c| c.positional > 0) && !cx.cfg.is_only(ids::PYTHONIC) =>
            {
                BlockResult::text()
            }
            Ok(pc) => block_result(pc, ids::PYTHONIC, 0, block.len(), exact),
            Err(PyError::Eof) if cx.cut => cut_after_complete_lines(block, cx),
            Err(_) => BlockResult::text(),
        }
    }
}

/// A run of bare calls whose last line is cut off by the end of input: the
/// calls on the lines before it, then the cut-off error.
fn cut_after_complete_lines(block: &[u8], cx: &ParseCx) -> BlockResult {
    let cut = BlockResult::truncated(ids::PYTHONIC, block.len());
    let Some(nl) = memchr::memrchr(b'\n', block) else {
        return cut;
    };
    let complete = &block[..nl];
    let text = crate::scan::lossy(complete);
    let exact = matches!(text, std::borrow::Cow::Borrowed(_));
    match parse_call_sequence(&text, false) {
        Ok(pc) if pc.calls.iter().all(|c| c.positional == 0) || cx.cfg.is_only(ids::PYTHONIC) => {
            let mut result = block_result(pc, ids::PYTHONIC, 0, complete.len(), exact);
            result.errors.extend(cut.errors);
            result
        }
        _ => cut,
    }
}

/// The end of a bare call: a value that ends its line. The next line may
/// be another bare call with keyword arguments (Granite's pythonic replies
/// put one call per line); any other Python code after it
/// (`plt.figure(figsize=(8, 6))` then `plt.plot(x)`) makes every line of
/// it text.
struct BareScan {
    line: LineValueScan,
}

impl Scanner for BareScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            let len = match self.line.scan(block, eof) {
                BlockEnd::Done { len, cut: false } => len,
                other => return other,
            };
            let s = skip_space_bounded(block, len);
            if s > len + MAX_GAP {
                return BlockEnd::Done { len, cut: false };
            }
            match code_line_head(&block[s..]) {
                None if !eof => return BlockEnd::More,
                Some(true) => match bare_call_head(&block[s..], false) {
                    Some(true) => self.line = LineValueScan::with(PyScan::at(s)),
                    None if !eof => return BlockEnd::More,
                    _ => return BlockEnd::NotBlock { text_len: len },
                },
                _ => return BlockEnd::Done { len, cut: false },
            }
        }
    }
}

/// At the start of `input`: a (dotted) name, `(`, then a keyword
/// argument's `name =` (or `)` when `empty` calls count). `Some(true)` yes,
/// `Some(false)` no, `None` when the input ends first. Bounded: it looks at
/// a few hundred bytes at most.
fn bare_call_head(input: &[u8], empty: bool) -> Option<bool> {
    let ident_end = |from: usize, dots: bool| {
        let mut i = from;
        while i < input.len()
            && i < from + 128
            && (is_ident_byte(input[i]) || (dots && input[i] == b'.'))
        {
            i += 1;
        }
        i
    };
    if !is_ident_start(*input.first()?) {
        return Some(false);
    }
    let i = ident_end(0, true);
    match input.get(i)? {
        b'(' => {}
        _ => return Some(false),
    }
    let j = skip_space_bounded(input, i + 1);
    match *input.get(j)? {
        b')' => return Some(empty),
        c if is_ident_start(c) => {}
        _ => return Some(false),
    }
    let k = ident_end(j, false);
    let k = skip_space_bounded(input, k);
    match input.get(k)? {
        b'=' => Some(input.get(k + 1)? != &b'='),
        _ => Some(false),
    }
}

/// Whether a line starting at `input` reads as Python code: a (dotted)
/// name followed by `(`, `[`, `=` or `.`, or a keyword such as `import`,
/// `for`, `def`. `None` when the input ends first.
fn code_line_head(input: &[u8]) -> Option<bool> {
    let &first = input.first()?;
    if !is_ident_start(first) {
        return Some(false);
    }
    let mut i = 0;
    while i < input.len() && i < 128 && is_ident_byte(input[i]) {
        i += 1;
    }
    let word = &input[..i];
    if matches!(
        word,
        b"import" | b"from" | b"for" | b"def" | b"class" | b"if" | b"while" | b"with" | b"return"
    ) && matches!(input.get(i), Some(b' '))
    {
        return Some(true);
    }
    let j = skip_space_bounded(input, i);
    match input.get(j)? {
        b'(' | b'[' | b'.' => Some(true),
        b'=' => Some(input.get(j + 1)? != &b'='),
        _ => Some(false),
    }
}

/// Probes the start of the document for a [`PyBare`] call.
pub(crate) fn probe_bare(input: &[u8], cx: &ProbeCx) -> Probe {
    if !cx.doc_start || !cx.cfg.allows(ids::PYTHONIC) {
        return Probe::NotMarker;
    }
    match bare_call_head(input, cx.cfg.is_only(ids::PYTHONIC)) {
        Some(true) => Probe::Match(Action::Block {
            fmt: &PY_BARE,
            scanner: crate::formats::BlockScanner::new(BareScan {
                line: LineValueScan::new(),
            }),
        }),
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `[` + blanks + a (dotted) identifier + `(`.
fn probe_list(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = skip_space_bounded(input, 1);
    if s > MAX_GAP {
        return Probe::NotMarker;
    }
    if s == input.len() {
        return if cx.eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        };
    }
    match call_head(input, s) {
        Some(true) => {
            let scan = LineValueScan::with(PyScan::list_at(0)).loose();
            // LFM2's list whose opening token is in the prompt (or dropped)
            // starts the reply and may end with its closing token
            let scan = if cx.doc_start {
                scan.also_before(LFM2_END)
            } else {
                scan
            };
            Probe::Match(Action::Block {
                fmt: &PY_LIST,
                scanner: crate::formats::BlockScanner::new(scan),
            })
        }
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `[` + blanks + `NAME(KEY=` inside a line: a [`PyInlineList`] when the
/// list ends its line.
fn probe_inline_list(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = skip_space_bounded(input, 1);
    if s > MAX_GAP {
        return Probe::NotMarker;
    }
    match input.get(s..).and_then(|rest| bare_call_head(rest, false)) {
        Some(true) => Probe::Match(Action::Block {
            fmt: &PY_INLINE_LIST,
            scanner: crate::formats::BlockScanner::new(
                LineValueScan::with(PyScan::list_at(0)).loose(),
            ),
        }),
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// A JSON array of call strings (`["f(a=1)", "g(b=2)"]`) or of `[name,
/// {args}]` pairs standing as the reply (or naming declared tools), on
/// lines of its own.
pub struct PyStringList;

/// The shared instance.
pub static PY_STRING_LIST: PyStringList = PyStringList;

impl BlockFormat for PyStringList {
    fn id(&self) -> FormatId {
        ids::PYTHONIC
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if cx.cut || evidence::example_lead(cx.before) {
            return BlockResult::text();
        }
        match loose::string_list_calls(block, ids::PYTHONIC, cx) {
            Some(r) if cx.reply_start || r.calls.iter().all(|c| cx.cfg.declares(&c.name)) => r,
            _ => BlockResult::text(),
        }
    }
}

/// `[` (or `[[`), then `"NAME(` or `"NAME",` at the start of a line.
fn probe_string_list(input: &[u8], cx: &ProbeCx) -> Probe {
    let mut i = skip_space_bounded(input, 1);
    if input.get(i) == Some(&b'[') {
        i = skip_space_bounded(input, i + 1);
    }
    if i > MAX_GAP {
        return Probe::NotMarker;
    }
    let need = if cx.eof {
        Probe::NotMarker
    } else {
        Probe::NeedMore
    };
    match input.get(i) {
        None => return need,
        Some(b'"') => {}
        Some(_) => return Probe::NotMarker,
    }
    let s = i + 1;
    let mut e = s;
    while e < input.len() && e - s <= 128 && (is_ident_byte(input[e]) || input[e] == b'.') {
        e += 1;
    }
    if e == s || !input.get(s).copied().is_some_and(is_ident_start) {
        return if e == input.len() {
            need
        } else {
            Probe::NotMarker
        };
    }
    let named = match input.get(e) {
        None => return need,
        Some(b'(') => true,
        Some(b'"') => {
            let k = skip_space_bounded(input, e + 1);
            match input.get(k) {
                None => return need,
                Some(b',') => true,
                Some(_) => false,
            }
        }
        Some(_) => false,
    };
    if !named {
        return Probe::NotMarker;
    }
    Probe::Match(Action::Block {
        fmt: &PY_STRING_LIST,
        scanner: crate::formats::BlockScanner::new(LineValueScan::new()),
    })
}

/// `["NAME(…)", …]` or `["NAME", {…}]` at the start of a line.
pub const OPENER_STRING_LIST: Opener = Opener::new(b"[", probe_string_list).line_start();

/// `[NAME(KEY=` inside a line.
pub const OPENER_INLINE_LIST: Opener = Opener::new(b"[", probe_inline_list);

/// `[NAME(` at the start of a line (on under `--format lfm2` too: LFM2's
/// list when its opening token is missing).
pub const OPENER_LIST: Opener = Opener::new(b"[", probe_list)
    .line_start()
    .also(&[ids::LFM2]);

/// Llama 4's `<|python_start|>`.
pub const OPENER_PYTHON_START: Opener =
    Opener::new(START_WRAP.open, |_, _| START_WRAP.block(&PY_START));

/// A stray `<|python_end|>` is markup.
pub const OPENER_PYTHON_END: Opener = Opener::markup(b"<|python_end|>");

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn list(s: &str) -> Vec<(String, Value)> {
        parse_call_list(s, false)
            .expect("parses")
            .calls
            .into_iter()
            .map(|c| (c.name, Value::Object(c.arguments)))
            .collect()
    }

    #[test]
    fn literals() {
        let got = list(
            r#"[f(a="x", b='y', c=-3, d=1.5, e=True, f=None, g=[1, (2, 3)], h={'k': "v"}, i=1_000, j=0x1F, k=(), l=(4,), m={1, 2})]"#,
        );
        assert_eq!(
            got[0].1,
            json!({"a": "x", "b": "y", "c": -3, "d": 1.5, "e": true, "f": null,
                   "g": [1, [2, 3]], "h": {"k": "v"}, "i": 1000, "j": 31, "k": [], "l": [4], "m": [1, 2]})
        );
    }

    #[test]
    fn strings_escapes_and_raw_newlines() {
        let got = list("[f(a='it\\'s', b=\"line1\nline2\", c='\\u00e9\\n\\x41', d=r'\\d+', e=\"\"\"tri\"ple\"\"\", f='a' 'b')]");
        assert_eq!(
            got[0].1,
            json!({"a": "it's", "b": "line1\nline2", "c": "é\nA", "d": "\\d+", "e": "tri\"ple", "f": "ab"})
        );
    }

    #[test]
    fn names_and_keywords() {
        let got = list("[ns.sub.func(from='a', class=2), get_current_user(), 天気(都市='東京')]");
        assert_eq!(got[0].0, "ns.sub.func");
        assert_eq!(got[0].1, json!({"from": "a", "class": 2}));
        assert_eq!(got[1], ("get_current_user".to_string(), json!({})));
        assert_eq!(got[2].1, json!({"都市": "東京"}));
    }

    #[test]
    fn not_call_lists() {
        for s in [
            "[x(i) for i in y]",
            "[f(x)](http://example.org)",
            "[]",
            "[f(a=b)]",
            "[f(a=1) g(b=2)]",
            "[f(a=1)] and more",
        ] {
            assert!(parse_call_list(s, false).is_err(), "{s}");
        }
        let pc = parse_call_list("[f(1, b=2)]", false).expect("parses");
        assert_eq!(pc.calls[0].positional, 1);
    }

    #[test]
    fn truncation() {
        assert_eq!(parse_call_list("[f(a='x'", false), Err(PyError::Eof));
        let pc = parse_call_list("[f(a='x'", true).expect("closed");
        assert_eq!(pc.closed_at_eof, Some(8));
        assert_eq!(parse_call_list("[f(a='x", true), Err(PyError::Eof));
        assert_eq!(parse_call_list("[f(a=1", true), Err(PyError::Eof));
        assert_eq!(parse_call_list("[f(a='x',", true), Err(PyError::Eof));
    }

    #[test]
    fn sequences_and_print() {
        let pc = parse_call_sequence("f(a=1)\ng(b=[1, 2]); h()", false).expect("parses");
        assert_eq!(pc.calls.len(), 3);
        let pc = parse_call_sequence("print(get_weather(city=\"Paris\"))", false).expect("parses");
        let c = unwrap_print(pc.calls[0].clone());
        assert_eq!(c.name, "get_weather");
        assert_eq!(Value::Object(c.arguments), json!({"city": "Paris"}));
    }

    #[test]
    fn quotes_that_cannot_end_a_string_are_part_of_it() {
        let args = |s: &str| {
            let pc = parse_call_list(s, false).expect(s);
            let calls: Vec<Value> = pc
                .calls
                .into_iter()
                .map(|c| Value::Object(c.arguments))
                .collect();
            (calls, pc.inner_quotes_at)
        };
        let (calls, at) = args("[f(unit='c', city='Xi'an')]");
        assert_eq!(calls, vec![json!({"city": "Xi'an", "unit": "c"})]);
        assert_eq!(at, vec![21]);
        let (calls, _) = args("[f(q='sed -n '1,5p' f.py')]");
        assert_eq!(calls, vec![json!({"q": "sed -n '1,5p' f.py"})]);
        let (calls, at) = args("[f(q='x 'y'), g(c='p 'q')]");
        assert_eq!(calls, vec![json!({"q": "x 'y"}), json!({"c": "p 'q"})]);
        assert_eq!(at.len(), 2);
        // strict readings are untouched: nothing is recorded
        assert!(args("[f(a='x', b=\"it's\")]").1.is_empty());
        // two readings, or one that swallows a sibling's value: refused
        for s in [
            "[f(city='Xi'an', unit='c')]",
            "[f(a='x'y), g(b='z')]",
            "[f(q='x 'y' 'z), g(c='p 'q' 'r)]",
        ] {
            assert!(parse_call_list(s, false).is_err(), "{s}");
        }
    }

    #[test]
    fn dict_unpacking_gives_keyword_arguments() {
        let pc = parse_call_list("[f(**{'q': 'x'}, n=2)]", false).expect("parses");
        assert_eq!(
            Value::Object(pc.calls[0].arguments.clone()),
            json!({"q": "x", "n": 2})
        );
        assert!(parse_call_list("[f(**[1, 2])]", false).is_err());
        assert!(parse_call_list("[f(**kw)]", false).is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let s = format!("[f(a={}{})]", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse_call_list(&s, false).is_err());
    }

    #[test]
    fn scanner_resumes_and_knows_triple_quotes() {
        let s = br#"[f(a="""x")"y""", b='(')] tail"#;
        let whole = PyScan::at(0).scan(s, true);
        let mut sc = PyScan::at(0);
        let mut got = PyEndAt::More;
        for n in 0..=s.len() {
            got = sc.scan(&s[..n], n == s.len());
            if got != PyEndAt::More {
                break;
            }
        }
        assert_eq!(got, whole);
        assert_eq!(whole, PyEndAt::At(s.len() - 5));
    }

    #[test]
    fn list_mode_rejects_prose_early() {
        let s = b"[Update (v2): it's ready\nmore text";
        assert_eq!(PyScan::list_at(0).scan(s, false), PyEndAt::NotValue);
        let s = b"[\n  f(a='x'),\n  g.h(b=[1, 2])\n] tail";
        assert_eq!(PyScan::list_at(0).scan(s, false), PyEndAt::At(31));
    }

    #[test]
    fn python_literal_dicts() {
        assert_eq!(
            parse_literal("[{'name': 'f', 'arguments': {'q': 'x', 'n': None}}]").expect("parses"),
            json!([{"name": "f", "arguments": {"q": "x", "n": null}}])
        );
    }
}
