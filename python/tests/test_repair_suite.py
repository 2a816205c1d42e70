"""json_repair's own test vectors, scored through `toolcall.repair_json` and
through `toolcall repair`: the same verdict on every vector (one engine).

Scoring: an answer is compared with the expected value as parsed JSON,
types strict (1 is not 1.0's bool, a dict's keys must match); an expected
`""` means "nothing to repair" and wants a refusal; an expected output equal
to the input wants the input back byte for byte. Vectors run with options
that change the output (stream_stable, schema, logging …) are left out;
`return_objects` only changes the type and is kept.
"""

import json
import subprocess

import pytest

import toolcall
from conftest import DATA

REFUSED = object()

# the score `toolcall repair` reached when this test was written; a change
# of the repairer that lowers it fails here (raise it when it improves)
FLOOR = 177


def vectors():
    rows = [json.loads(l) for l in (DATA / "json_repair-vectors.jsonl").read_text().splitlines() if l.strip()]
    return [r for r in rows if set(r.get("options") or {}) <= {"return_objects"}]


def strict_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def verdict(case, answer):
    """True when `answer` (the repaired text, or REFUSED) passes `case`."""
    value = REFUSED
    if answer is not REFUSED:
        try:
            value = json.loads(answer)
        except ValueError:
            return False
    expected_text = case.get("expected_output")
    if "expected_value" in case:
        if case["expected_value"] == "":
            return value is REFUSED
        return value is not REFUSED and strict_equal(value, case["expected_value"])
    if expected_text == "":
        return value is REFUSED
    if expected_text == case["input"]:
        return answer is not REFUSED and answer.rstrip("\n") == case["input"].rstrip("\n")
    if value is REFUSED:
        return False
    return strict_equal(value, json.loads(expected_text))


def through_python(case):
    out = toolcall.repair_json(case["input"])
    return REFUSED if out == "" else out


def through_cli(binary, case):
    # repair_json keeps json_repair's reading of prose (a string): the CLI
    # does so under --text-as-string
    p = subprocess.run([str(binary), "repair", "--text-as-string"], input=case["input"].encode("utf-8", "surrogatepass"),
                       capture_output=True, timeout=30)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else REFUSED


def test_repair_json_scores_as_the_cli(toolcall_bin):
    cases = vectors()
    assert len(cases) >= 190
    py = [verdict(c, through_python(c)) for c in cases]
    cli = [verdict(c, through_cli(toolcall_bin, c)) for c in cases]
    differ = [c["id"] for c, a, b in zip(cases, py, cli) if a != b]
    assert differ == [], f"verdicts differ on {differ}"
    score = sum(py)
    print(f"json_repair suite: {score}/{len(cases)} through repair_json and toolcall repair")
    assert score >= FLOOR


def test_return_objects_gives_the_value():
    for case in vectors():
        if "expected_value" in case and case["expected_value"] != "":
            got = toolcall.repair_json(case["input"], return_objects=True)
            text = toolcall.repair_json(case["input"])
            assert got == (json.loads(text) if text else ""), case["id"]


# small broken argument objects of the kinds the core's fast path for short
# documents writes itself (and a few it hands back to the full repair)
SMALL_BROKEN = [
    '{"city": "Paris", "days": 3,}',
    '{"city": "Paris", "days": 3',
    "{city: 'Paris', days: 3}",
    '{"ok": True, "v": None, "n": False}',
    '{"a": 1 "b": 2}',
    '{"q": "say "hi" now"}',
    '```json\n{"a": [1, 2,]}\n```',
    '{"a": {"b": [1, {"c": "d',
    '{"é": "ü", "k": \'x\'',
    '[1, 2, 3,]',
    '{"a": 1} trailing words',
    "not json at all, just a sentence of words",
    "",
]


def test_repair_json_is_the_full_repairs_text():
    """`repair_json` (the core's fast path first) writes the very bytes of
    `repair(text_as_string=True)` (the full repair), and refuses alike."""
    inputs = SMALL_BROKEN + [c["input"] for c in vectors()]
    for text in inputs:
        try:
            json.loads(text)
            continue  # valid: repair_json gives it back unchanged
        except ValueError:
            pass
        try:
            full = toolcall.repair(text, max_depth=10_000, timeout_ms=0, text_as_string=True)[0]
        except toolcall.RepairError:
            full = ""
        assert toolcall.repair_json(text) == full, repr(text)
        assert toolcall.repair_json(text.encode("utf-8", "surrogatepass")) == full, repr(text)
