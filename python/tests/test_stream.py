"""StreamParser fed one byte at a time gives what parse gives, on every
CanIToolCall fixture (tests/conformance/canitoolcall/*/*.jsonl)."""

import json

import pytest

import toolcall
from conftest import ROOT

SUITE = ROOT / "tests" / "conformance" / "canitoolcall"


def fixtures():
    out = []
    for path in sorted(SUITE.glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


def default_prompts():
    """Per family: each reference model's default generation prompt."""
    prompts = {}
    for fam in SUITE.glob("*/family.json"):
        meta = json.loads(fam.read_text(encoding="utf-8"))
        prompts[fam.parent.name] = {
            m.get("repo", ""): m.get("default_generation_prompt") or ""
            for m in meta.get("reference_models", [])
        }
    return prompts


PROMPTS = default_prompts()
FIXTURES = fixtures()


def kwargs(fx):
    """The options the conformance test gives `split` and `stream`."""
    kw = {}
    prompt = fx.get("generation_prompt")
    if prompt is None:
        family = PROMPTS.get(fx["family"], {})
        prompt = next((family[m] for m in fx.get("models", []) if m in family), "")
    if prompt:
        kw["generation_prompt"] = prompt
    if "truncated" in (fx.get("tags") or []):
        kw["finish_reason"] = "length"
    return kw


def test_fixtures_are_found():
    assert len(FIXTURES) > 100


@pytest.mark.parametrize("fx", FIXTURES, ids=[f["id"] for f in FIXTURES])
def test_byte_by_byte_stream_equals_parse(fx):
    raw = fx["raw_output"].encode("utf-8")
    kw = kwargs(fx)
    doc = toolcall.parse(raw, **kw)
    # under the same settings: parse judges a lone closer by the whole
    # document (within max_block), the stream parser only when told to
    p = toolcall.StreamParser(think_window=1 << 20, **kw)
    events = []
    for i in range(len(raw)):
        events += p.feed(raw[i : i + 1])
    events += p.close()
    calls = [e.call for e in events if e.type == "tool_call"]
    assert [(c.name, c.arguments, c.span, c.id) for c in calls] == [
        (c.name, c.arguments, c.span, c.id) for c in doc.calls
    ]
    assert "".join(e.text for e in events if e.type == "text") == doc.text
    assert "".join(e.text for e in events if e.type == "reasoning") == doc.reasoning
    assert [e.error.code for e in events if e.type == "error"] == [e.code for e in doc.errors]
    done = events[-1]
    assert done.type == "done" and done.calls == len(doc.calls) and done.bytes == len(raw)
    # the pieces tile the input: every byte in exactly one event's span
    spans = sorted(e.span for e in events if e.type in ("text", "reasoning", "markup", "tool_call"))
    spans = [s for s in spans if s[0] != s[1]]
    assert spans[0][0] == 0 if spans else raw == b""
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        assert a1 == b0
