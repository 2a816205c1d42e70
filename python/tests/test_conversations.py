"""Conversations (issue 43): the package reads every shape of data through
the core's one table, as the CLI does: the same calls, at the same
pointers, for every conversation fixture and every collected sample."""

import json
import pathlib
import subprocess

import pytest

import toolcall

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = sorted(
    [p for p in (ROOT / "fixtures" / "messages").iterdir() if p.suffix in (".json", ".jsonl")]
    + [p for p in (ROOT / "tests" / "conformance" / "data").iterdir() if p.suffix in (".json", ".jsonl")]
)


def cli_calls(binary, path):
    out = subprocess.run(
        [str(binary), "parse", "--no-config", "--input", "messages", str(path)],
        capture_output=True,
        check=False,
    ).stdout.decode()
    recs = [json.loads(l) for l in out.splitlines() if l.strip()]
    return [
        (r["name"], r["arguments"], r.get("pointer"))
        for r in recs
        if r.get("type") == "tool_call"
    ], [(r["code"], r["line"]) for r in recs if r.get("type") == "error"]


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_same_calls_as_the_cli(path, toolcall_bin):
    want_calls, want_errors = cli_calls(toolcall_bin, path)
    doc = toolcall.parse(path.read_bytes(), input="messages")
    got = [(c.name, c.arguments, c.pointer) for c in doc.calls]
    assert got == want_calls
    assert [(e.code, e.line) for e in doc.errors] == want_errors
