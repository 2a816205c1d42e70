"""Hostile inputs the probes of `fuzz/probe_bindings.py` found faults with:
each case runs in a child interpreter, so a crash shows as a signal rather
than taking the test run down."""

import subprocess
import sys

import pytest

import toolcall

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


# An option's name is echoed in the message (serde's `unknown field`, the
# core's `unknown model`): it is escaped as the command escapes stderr, so
# printing the exception can neither drive a terminal nor forge a line.
ESC = "\x1b]0;pwn\x07\x1b[31mred\r\nforged\x00\u202e"
ESCAPED = "\\u{1b}]0;pwn\\u{7}\\u{1b}[31mred\\r\\nforged\\0\\u{202e}"
TOOLS = '[{"name": "f", "parameters": {"type": "object"}}]'


@pytest.mark.parametrize(
    "call",
    [
        lambda: toolcall.Tools(TOOLS, **{ESC: 1}),
        lambda: toolcall.parse("x", **{ESC: 1}),
        lambda: toolcall.StreamParser(**{ESC: 1}),
        lambda: toolcall.parse("x", model=ESC),
        lambda: toolcall.Tools(TOOLS, unknown_risk=ESC),
        lambda: toolcall.render_tools(ESC, TOOLS),
    ],
)
def test_option_errors_escape_what_they_echo(call):
    with pytest.raises(toolcall.OptionError) as e:
        call()
    message = str(e.value)
    assert ESCAPED in message, message
    assert not any(c in message for c in "\x1b\x07\r\n\x00\u202e"), repr(message)


def test_option_errors_keep_a_plain_name_as_it_is():
    with pytest.raises(toolcall.OptionError, match="unknown field `max_schema_dept`"):
        toolcall.Tools(TOOLS, max_schema_dept=4)


@pytest.mark.parametrize(
    "call, says",
    [
        # serde's own message named no option: "invalid value: integer
        # `-1`, expected usize"
        (lambda: toolcall.parse("x", max_block=-1), "max_block: invalid value: integer `-1`"),
        (lambda: toolcall.parse("x", max_block="big"), 'max_block: invalid type: string "big"'),
        (lambda: toolcall.parse("x", think_window=1.5), "think_window: invalid type: floating point `1.5`"),
        (lambda: toolcall.StreamParser(max_buffer=-5), "max_buffer: invalid value: integer `-5`"),
        (lambda: toolcall.split("x", repair=[1]), "repair: invalid type: sequence"),
        (lambda: toolcall.Tools(TOOLS, max_tools_size=-1), "max_tools_size: invalid value: integer `-1`"),
        (lambda: toolcall.Tools(TOOLS, strict="yes"), 'strict: invalid type: string "yes"'),
    ],
    ids=["parse-negative", "parse-string", "parse-float", "stream-negative", "split-list", "tools-negative", "tools-string"],
)
def test_a_bad_option_value_names_the_option(call, says):
    with pytest.raises(toolcall.OptionError) as e:
        call()
    assert str(e.value).startswith(says), str(e.value)


@pytest.mark.parametrize(
    "name, value, says",
    [
        # past i64/u64: was "int is not a JSON value"
        ("max_tools_size", 10**100, "max_tools_size: 1" + "0" * 39 + "…: out of range"),
        ("max_tools_size", -(10**30), "max_tools_size: -1" + "0" * 30 + ": out of range"),
        ("max_schema_checks", 2**64, "max_schema_checks: 18446744073709551616: out of range"),
        # past Python's digit limit for str() (3.11 on; before it, the digits)
        ("max_tools_size", 10**10000, "max_tools_size: "),
        # JSON has no NaN or infinity: was "invalid type: null, expected usize"
        ("max_json5_depth", float("nan"), "max_json5_depth: NaN: not a finite number"),
        ("max_schema_depth", float("inf"), "max_schema_depth: inf: not a finite number"),
        ("max_schema_depth", float("-inf"), "max_schema_depth: -inf: not a finite number"),
    ],
    ids=["1e100", "-1e30", "2**64", "1e10000", "nan", "inf", "-inf"],
)
def test_tools_option_numbers_json_cannot_hold_are_named(name, value, says):
    with pytest.raises(toolcall.OptionError) as e:
        toolcall.Tools(TOOLS, **{name: value})
    message = str(e.value)
    assert message.startswith(says), message
    assert message.endswith(("out of range (an integer between "
                             "-9223372036854775808 and 18446744073709551615)",
                             "not a finite number")), message
    assert "not a JSON value" not in message and "null" not in message, message


def test_parse_option_numbers_json_cannot_hold_are_named():
    with pytest.raises(toolcall.OptionError, match=r"^max_block: 1000.*…: out of range"):
        toolcall.parse("x", max_block=10**100)
    with pytest.raises(toolcall.OptionError, match=r"^think_window: NaN: not a finite number"):
        toolcall.parse("x", think_window=float("nan"))
    # in range, a float or a big int still reaches the core's own check
    assert toolcall.Tools(TOOLS, max_tools_size=2**63).names == ["f"]
