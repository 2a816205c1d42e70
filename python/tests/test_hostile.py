"""Hostile inputs the probes of `fuzz/probe_bindings.py` found faults with:
each case runs in a child interpreter, so a crash shows as a signal rather
than taking the test run down."""

import subprocess
import sys

import pytest

PRELUDE = """
import toolcall
def deep(n):
    x = []
    for _ in range(n):
        x = [x]
    return x
def cyclic():
    a = []
    a.append(a)
    return a
def cyclic_dict():
    d = {}
    d["k"] = d
    return d
"""


def run_child(src: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + src], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "value", ["cyclic()", "cyclic_dict()", "deep(200_000)", "{'a': deep(1000)}"]
)
@pytest.mark.parametrize(
    "call",
    [
        "toolcall.parse('x', generation_prompt={v})",
        "toolcall.split('x', format={v})",
        "toolcall.StreamParser(model={v})",
        "toolcall.check_transcript('x', format={v})",
    ],
)
def test_option_values_nested_deeply_or_holding_themselves_raise(call, value):
    # An option value went through a recursive conversion with no depth
    # bound: a list holding itself, or 200,000 nested lists, overflowed the
    # stack (SIGSEGV). Now it is an OptionError.
    src = (
        "try:\n"
        f"    {call.format(v=value)}\n"
        "except toolcall.OptionError as e:\n"
        "    print('OptionError', e)\n"
    )
    r = run_child(src)
    assert r.returncode == 0, (r.returncode, r.stderr[-500:])
    assert r.stdout.startswith("OptionError"), r.stdout
    assert "nested deeper than 128 levels" in r.stdout


def test_option_values_within_the_depth_still_reach_the_engine():
    # a list nested a little is read (and refused by the option's type)
    r = run_child(
        "try:\n"
        "    toolcall.parse('x', format=deep(5))\n"
        "except toolcall.OptionError as e:\n"
        "    print('OptionError', e)\n"
    )
    assert r.returncode == 0, r.stderr
    assert "nested deeper" not in r.stdout
    assert r.stdout.startswith("OptionError")
