"""The golden files of the CLI (fixtures/<format>/NAME.parse.ndjson) give
the same calls and errors through `toolcall.parse`."""

import json

import pytest

import toolcall
from conftest import ROOT

# `.args` flags and the parse() keyword each maps to (value flags take the
# next word)
FLAGS = {
    "--format": ("format", str),
    "--input": ("input", str),
    "--think-window": ("think_window", int),
    "--tools": ("tools", None),
}
SWITCHES = {
    "--inline-json": ("inline_json", True),
    "--no-json-blocks": ("json_blocks", False),
    "--no-repair": ("repair", False),
    "--think-open": ("think_open", True),
    "--reasoning-calls": ("reasoning_calls", True),
}


def options(case):
    args = case.with_suffix(".args")
    words = args.read_text().split() if args.exists() else []
    # the CLI sniffs wire inputs unless told; so does this test
    kw = {"input": "auto"}
    it = iter(words)
    for w in it:
        if w in SWITCHES:
            key, value = SWITCHES[w]
            kw[key] = value
        elif w in FLAGS:
            key, conv = FLAGS[w]
            value = next(it)
            if key == "tools":
                kw[key] = (ROOT / value).read_text()
            else:
                kw[key] = conv(value)
        else:
            return None  # a flag this test does not map: not compared
    return kw


def cases():
    return sorted(p.with_name(p.name[: -len(".parse.ndjson")] + ".txt")
                  for p in (ROOT / "fixtures").rglob("*.parse.ndjson"))


def record_of(call):
    rec = {
        "type": "tool_call",
        "index": call.index,
        "id": call.id,
        "name": call.name,
        "arguments": call.arguments,
        "format": call.format,
        "span": list(call.span),
        "raw": call.raw,
        "repairs": [{"kind": r.kind, "offset": r.offset} for r in call.repairs],
    }
    if call.in_reasoning:
        rec["in_reasoning"] = True
    if call.turn is not None:
        rec["turn"] = call.turn
        rec["role"] = call.role
    if call.validation:
        rec.update(call.validation)
    return rec


def error_of(e):
    rec = {"type": "error", "code": e.code, "message": e.message, "span": list(e.span),
           "raw": e.raw, "offset": e.offset, "line": e.line, "column": e.column}
    if e.hint is not None:
        rec["hint"] = e.hint
    if e.turn is not None:
        rec["turn"] = e.turn
        rec["role"] = e.role
    return rec


def test_goldens_are_found():
    assert len(cases()) > 400


@pytest.mark.parametrize("case", cases(), ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_same_records_as_the_cli(case):
    kw = options(case)
    if kw is None:
        pytest.skip("flags not mapped")
    golden = [json.loads(l) for l in case.with_name(case.name[:-4] + ".parse.ndjson").read_text().splitlines() if l.strip()]
    for rec in golden:
        rec.pop("doc", None)
    doc = toolcall.parse(case.read_bytes(), **kw)
    got = [record_of(c) for c in doc.calls] + [error_of(e) for e in doc.errors]
    # the CLI writes calls and errors merged in document order
    got.sort(key=lambda r: r["span"][0])
    golden.sort(key=lambda r: r["span"][0])
    assert got == golden
