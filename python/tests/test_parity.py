"""One front door: every fixture's flags, run through the `toolcall` binary
and through the Python package, give identical records.

The flags of each case (`<case>.args`) are mapped to `toolcall.parse`'s
options by name (`--think-window` is `think_window`, `--no-repair` is
`repair=False`), the names and their kinds taken from the engine's own
defaults (`_toolcall.default_options()`), so a new option needs no change
here. The records compared are the core's on both sides: the CLI writes
them, `Document.records()` and `toolcall.split()` return them.
"""

import json
import subprocess

import pytest

import toolcall
from toolcall import _toolcall
from conftest import ROOT, cli_binary

DEFAULTS = _toolcall.default_options()


def options(words):
    """`toolcall.parse` keyword arguments for CLI flags (tools as text)."""
    kw = {}
    it = iter(words)
    for w in it:
        assert w.startswith("--"), f"not a flag: {w}"
        name = w[2:].replace("-", "_")
        if name == "tools":
            kw["tools"] = (ROOT / next(it)).read_text()
        elif name.startswith("no_") and isinstance(DEFAULTS.get(name[3:]), bool):
            kw[name[3:]] = False
        elif isinstance(DEFAULTS.get(name), bool):
            kw[name] = True
        elif name in DEFAULTS:
            value = next(it)
            numeric = isinstance(DEFAULTS[name], int) or (
                DEFAULTS[name] is None and value.isdigit()
            )
            kw[name] = int(value) if numeric else value
        else:
            pytest.fail(f"flag {w} has no option of the same name")
    return kw


def flags(case):
    args = case.with_suffix(".args")
    return args.read_text().split() if args.exists() else []


def cli(sub, case, words):
    r = subprocess.run([str(cli_binary()), sub, *words], input=case.read_bytes(),
                       capture_output=True, cwd=ROOT)
    assert r.returncode in (0, 1, 2), r.stderr.decode()
    return [json.loads(line) for line in r.stdout.decode().splitlines() if line.strip()]


def text_cases():
    return sorted((ROOT / "fixtures").rglob("*.txt"))


def conversation_cases():
    d = ROOT / "fixtures" / "messages"
    return sorted([*d.glob("*.json"), *d.glob("*.jsonl")])


def test_the_cases_cover_the_front_door():
    words = [w for c in text_cases() for w in flags(c)]
    assert len(text_cases()) > 400
    for flag in ("--model", "--format", "--input", "--tools", "--think-window"):
        assert flag in words, f"no fixture uses {flag}"
    models = {w for c in text_cases() for w in flags(c)[1::2] if flags(c)[:1] == ["--model"]}
    assert "hermes" in models, "no fixture gives a format id as --model"
    assert len(conversation_cases()) > 20


def ids(p):
    return str(p.relative_to(ROOT / "fixtures"))


@pytest.mark.parametrize("case", text_cases(), ids=ids)
def test_parse_and_split_records_match_the_cli(case):
    words = flags(case)
    kw = options(words)
    doc = toolcall.parse(case.read_bytes(), **kw)
    assert doc.records() == cli("parse", case, words)
    split = cli("split", case, words)
    assert [toolcall.split(case.read_bytes(), **kw)] == split


@pytest.mark.parametrize("case", text_cases(), ids=ids)
def test_stream_events_are_the_cli_stream_records(case):
    # the events are written by the core's StreamRecorder, as `toolcall
    # stream`'s records are: the same records, the done record included
    words = flags(case)
    kw = options(words)
    if kw.get("input") == "messages":
        return  # `toolcall stream` reads no message lists
    p = toolcall.StreamParser(**kw)
    events = p.feed(case.read_bytes()) + p.close()
    assert [e.record() for e in events] == cli("stream", case, words)
    for e in events:
        rec = e.record()
        assert e.type == rec["type"]
        if e.type == "tool_call":
            assert e.call.record() == rec and e.name == rec["name"] and e.index == rec["index"]
        elif e.type == "error":
            assert e.error.code == rec["code"] and e.span == tuple(rec["span"])
        elif e.type in ("text", "reasoning", "markup"):
            assert e.text == rec["raw" if e.type == "markup" else "text"]
        elif e.type == "done":
            assert (e.calls, e.bytes) == (rec["calls"], rec["bytes"])


@pytest.mark.parametrize("case", conversation_cases(), ids=ids)
def test_conversation_records_match_the_cli(case):
    words = flags(case)
    if "messages" not in words:
        words += ["--input", "messages"]
    doc = toolcall.parse(case.read_bytes(), **options(words))
    assert doc.records() == cli("parse", case, words)
    assert doc.records(), "a conversation fixture with no call"


def test_conversation_calls_stream_as_they_parse():
    case = ROOT / "fixtures" / "messages" / "openai-ok.json"
    whole = toolcall.parse(case.read_bytes(), input="messages")
    with toolcall.StreamParser(input="messages") as p:
        events = []
        data = case.read_bytes()
        for k in range(0, len(data), 100):
            events += p.feed(data[k:k + 100])
        events += p.close()
    calls = [e.call.record() for e in events if e.type == "tool_call"]
    assert calls == whole.records()


def test_format_and_model_tables_match_the_cli():
    def table(*words):
        r = subprocess.run([str(cli_binary()), "formats", *words], capture_output=True, check=True)
        return [json.loads(line) for line in r.stdout.decode().splitlines()]

    assert toolcall.formats() == table("--json")
    assert toolcall.models() == table("--models", "--json")


def test_options_defaults_are_the_engines():
    # what the CLI's flags default to is what parse() gets when not given
    assert DEFAULTS["input"] == "auto" and DEFAULTS["format"] == "auto"
    with pytest.raises(toolcall.OptionError, match="unknown model 'qwen4'; did you mean 'qwen3'"):
        toolcall.parse("x", model="qwen4")
    with pytest.raises(toolcall.OptionError):
        toolcall.parse("x", modle="qwen3")  # type: ignore[call-arg]


@pytest.mark.parametrize("name", ["chatml-unanswered", "chatml-orphan-result", "chatml-ok"])
def test_transcript_checks_match_validate(name):
    case = ROOT / "fixtures" / "messages" / f"{name}.chatml"
    found = toolcall.check_transcript(case.read_bytes())
    r = subprocess.run([str(cli_binary()), "validate", *flags(case), str(case)],
                       capture_output=True, cwd=ROOT)
    cli_found = [(e["code"], e["message"]) for line in r.stdout.decode().splitlines()
                 if line.strip() for e in json.loads(line).get("errors", [])
                 if e["code"] in ("TLP-009", "TLP-010")]
    assert [(f["code"], f["message"]) for f in found] == cli_found
    assert bool(found) == (name != "chatml-ok")
    assert toolcall.check_transcript(case.read_bytes(), allow=["TLP-009", "TLP-010"]) == []


def test_refused_documents_count_as_in_the_cli(tmp_path):
    # a JSONL of two conversations, a line that is not JSON and one that
    # is JSON but no conversation: the CLI counts 4 calls and 2 refused
    # lines (TLP-008, "other findings", not calls); Python's parse gives
    # the same 4 calls and 2 TLP-008 errors, and validate judges 4 calls
    ok = ROOT / "fixtures" / "messages" / "xlam-ok.jsonl"
    tools = ROOT / "fixtures" / "validate" / "tools" / "openai-chat.json"
    data = tmp_path / "rows.jsonl"
    row = ok.read_text().splitlines()[0]
    data.write_text("\n".join([row, "not json", '{"not": 1}', row]) + "\n")
    r = subprocess.run([str(cli_binary()), "validate", "--no-config", "--output-format", "json",
                        str(data)], capture_output=True, cwd=ROOT)
    summary = json.loads(r.stdout)
    doc = toolcall.parse(data.read_bytes(), input="messages")
    refused = [e for e in doc.errors if e.code == "TLP-008"]
    assert summary["calls"] == len(doc.calls) == 4
    assert summary["codes"].get("TLP-008") == len(refused) == 2
    assert len(toolcall.validate(doc, tools.read_text())) == summary["calls"]
