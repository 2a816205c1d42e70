"""Normalising (issue 43): ``toolcall.convert`` gives the rows ``toolcall
validate --convert openai`` writes, byte for byte, from the same core
function, for every conversation fixture and collected sample; and the
rows convert to themselves."""

import json
import pathlib
import subprocess

import pytest

import toolcall

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = sorted(
    p
    for d in ("fixtures/convert", "fixtures/messages", "tests/conformance/data")
    for p in (ROOT / d).iterdir()
    if p.suffix in (".json", ".jsonl") and p.name != "expected.json"
)
GOLDEN = sorted(p for p in (ROOT / "fixtures" / "convert").iterdir() if p.suffix in (".json", ".jsonl"))


def cli_rows(binary, path):
    return subprocess.run(
        [str(binary), "validate", "--no-config", "--convert", "openai", "--no-diagnostics", str(path)],
        capture_output=True,
        check=False,
    ).stdout.decode()


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_same_rows_as_the_cli(path, toolcall_bin):
    got = toolcall.convert(path.read_bytes())
    assert got.jsonl() == cli_rows(toolcall_bin, path)
    assert got.rows == [json.loads(l) for l in got.jsonl().splitlines()]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_rows_and_idempotent(path):
    got = toolcall.convert(path.read_text(encoding="utf-8"))
    want = path.with_suffix(".openai.ndjson").read_text(encoding="utf-8")
    assert got.jsonl() == want
    assert toolcall.convert(got.jsonl()).jsonl() == want


def test_ids_added_and_linked_and_arguments_decoded():
    data = (
        '{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": '
        '[{"function": {"name": "f", "arguments": "\\"{\\\\\\"x\\\\\\": 1}\\""}}]}, '
        '{"role": "tool", "content": "1"}]}\n'
    )
    rows = toolcall.convert(data).rows
    call = rows[0]["messages"][1]["tool_calls"][0]
    assert call["id"] == "call_0_0"
    assert call["type"] == "function"
    assert call["function"]["arguments"] == '{"x":1}'
    assert rows[0]["messages"][2]["tool_call_id"] == "call_0_0"


def test_what_cannot_be_read_is_an_error_not_silence():
    data = '{"messages": [{"role": "user", "content": "a"}]}\n{"messages": [\n'
    got = toolcall.convert(data)
    assert len(got.rows) == 1
    assert [(e["code"], e["line"]) for e in got.errors] == [("TLP-008", 2)]
    assert toolcall.convert("just words").errors[0]["code"] == "TLP-008"
    with pytest.raises(toolcall.OptionError):
        toolcall.convert(data, "alpaca")
