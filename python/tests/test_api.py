"""The package's surface: each function does what its docstring says."""

import json
import subprocess

import pytest

import toolcall

HERMES = (
    'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": '
    '{"city": "Paris", "days": 3}}\n</tool_call>'
)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]


def test_parse_gives_calls_text_and_spans():
    doc = toolcall.parse(HERMES)
    assert len(doc.calls) == 1
    call = doc.calls[0]
    assert call.name == "get_weather"
    assert call.arguments == {"city": "Paris", "days": 3}
    assert call.format == "hermes"
    assert HERMES.encode()[call.span[0] : call.span[1]].startswith(b"<tool_call>")
    assert call.id.startswith("call_")
    assert doc.text == "Let me look.\n"
    assert doc.errors == []
    assert json.loads(call.arguments_json) == call.arguments


def test_bytes_and_str_agree():
    a = toolcall.parse(HERMES)
    b = toolcall.parse(HERMES.encode())
    assert [c.arguments for c in a.calls] == [c.arguments for c in b.calls]


def test_str_of_every_width_reads_as_utf8():
    # ASCII, Latin-1, BMP and astral strs are stored differently by CPython;
    # each is read through its UTF-8 form, the same bytes as str.encode()
    for word in ["Paris", "Orl\u00e9ans", "\u6771\u4eac", "\U0001f600 Rome"]:
        text = HERMES.replace("Paris", word)
        doc = toolcall.parse(text)
        assert doc.calls[0].arguments["city"] == word
        assert doc.calls[0].span == toolcall.parse(text.encode()).calls[0].span
        assert doc.text == "Let me look.\n"
        # a second parse of the same object (its UTF-8 kept by CPython)
        assert toolcall.parse(text).calls[0].arguments == doc.calls[0].arguments


def test_str_with_a_lone_surrogate_is_refused():
    with pytest.raises(UnicodeEncodeError):
        toolcall.parse(HERMES + "\ud800")
    with pytest.raises(UnicodeEncodeError):
        toolcall.repair_json('{"a": "\ud800"}')


def test_call_fields_are_built_once_and_kept():
    call = toolcall.parse(HERMES.replace('"Paris"', "'Paris'")).calls[0]
    args = call.arguments
    assert call.arguments is args
    args["days"] = 4  # a dict like any other: the change stays
    assert call.arguments["days"] == 4
    assert call.repairs is call.repairs
    assert [r.kind for r in call.repairs] == ["single_quotes"]
    assert call.arguments_json == '{"city":"Paris","days":3}'
    assert "get_weather" in repr(call)


def test_reasoning_and_generation_prompt():
    out = "the user wants weather</think>" + HERMES
    doc = toolcall.parse(out, generation_prompt="<|im_start|>assistant\n<think>\n")
    assert doc.reasoning == "the user wants weather"
    assert doc.calls[0].name == "get_weather"
    # without the prompt a whole document judges the lone closer itself
    whole = toolcall.parse(out)
    assert whole.reasoning == "the user wants weather"
    # with the search off the closer is markup and the words are text
    plain = toolcall.parse(out, think_window=0)
    assert plain.reasoning == ""
    assert "the user wants weather" in plain.text


def test_model_selects_format_and_prompt():
    doc = toolcall.parse("thinking</think>" + HERMES, model="qwen3-thinking")
    assert doc.reasoning == "thinking"
    assert doc.calls[0].format == "hermes"
    with pytest.raises(toolcall.OptionError):
        toolcall.parse(HERMES, model="no-such-model-xyz")
    with pytest.raises(toolcall.OptionError):
        toolcall.parse(HERMES, format="no-such-format")
    with pytest.raises(ValueError):
        toolcall.parse(HERMES, finish_reason="maybe")


def test_finish_reason_length_makes_an_open_call_an_error():
    cut = 'Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Par'
    assert toolcall.parse(cut, finish_reason="length").calls == []
    assert toolcall.parse(cut, finish_reason="length").errors[0].code == "TLP-002"


def test_repair_returns_text_and_repairs():
    text, repairs = toolcall.repair('{"city": "Paris",}')
    assert text == '{"city": "Paris"}'
    assert [r.kind for r in repairs] == ["trailing_comma"]
    with pytest.raises(toolcall.RepairError) as e:
        toolcall.repair("")
    assert e.value.code == "TLP-003"
    assert isinstance(e.value, ValueError)


def test_repair_json_mirrors_json_repair_arguments():
    assert toolcall.repair_json("{'a': 1,}") == '{"a": 1}'
    assert toolcall.repair_json("{'a': 1,}", return_objects=True) == {"a": 1}
    assert toolcall.repair_json('{"a": "é"}', ensure_ascii=True) == '{"a": "\\u00e9"}'
    assert toolcall.repair_json('{"a": 1}', indent=2) == '{\n  "a": 1\n}'
    value, log = toolcall.repair_json("{'a': 1,}", logging=True)
    assert value == {"a": 1} and [e["text"] for e in log] == ["single_quotes", "trailing_comma"]
    assert toolcall.repair_json('{"a": 1}', skip_json_loads=True) == '{"a": 1}'
    assert toolcall.repair_json("") == ""
    assert toolcall.loads("[1, 2,") == [1, 2]
    assert toolcall.repair_json("[123456789012345678901234567890]", return_objects=True) == [
        123456789012345678901234567890
    ]
    with pytest.raises(toolcall.RepairError):
        toolcall.repair_json("{'a': 1}", strict=True)


def test_repair_json_gives_valid_input_back():
    for text in ['{"a": [1, 2.5, "x"]}', '{"city": "Orl\u00e9ans \U0001f600"}', " [] "]:
        assert toolcall.repair_json(text) is text  # the very object: no copy
        assert toolcall.repair_json(text.encode()) == text
    assert toolcall.repair_json('{"a": 1,}'.encode()) == '{"a": 1}'


def test_validate_against_tools():
    doc = toolcall.parse(HERMES)
    (v,) = toolcall.validate(doc, TOOLS)
    assert v.valid and v.known and bool(v)
    (bad,) = toolcall.validate([{"name": "get_weather", "arguments": {"city": 3}}], TOOLS)
    assert not bad.valid
    assert bad.errors[0]["code"] == "TLP-004" and bad.errors[0]["path"] == "/city"
    (unknown,) = toolcall.validate(
        [{"function": {"name": "nope", "arguments": "{}"}}], TOOLS, strict=False
    )
    assert unknown.valid and unknown.warnings[0]["code"] == "TLP-005"
    with pytest.raises(toolcall.ToolsError):
        toolcall.validate(doc, "{not json at all")


def test_parse_with_tools_adds_validation():
    doc = toolcall.parse(HERMES, tools=TOOLS)
    assert doc.calls[0].validation["valid"] is True
    assert doc.calls[0].validation["tool_name"] == "get_weather"
    assert toolcall.parse(HERMES).calls[0].validation is None


def test_stream_events_and_done():
    p = toolcall.StreamParser()
    events = []
    for i in range(0, len(HERMES), 7):
        events += p.feed(HERMES[i : i + 7])
    events += p.close()
    types = [e.type for e in events]
    assert types[-1] == "done" and events[-1].calls == 1
    assert "tool_call_start" in types and types.count("tool_call") == 1
    call = next(e.call for e in events if e.type == "tool_call")
    assert call.arguments == {"city": "Paris", "days": 3}
    assert "".join(e.text for e in events if e.type == "text") == "Let me look.\n"
    with pytest.raises(toolcall.ToolcallError):
        p.feed("more")


def test_split_record():
    rec = toolcall.split(HERMES)
    assert rec["text_before"] == "Let me look.\n"
    assert rec["tool_calls"][0]["name"] == "get_weather"
    kinds = [s["kind"] for s in rec["segments"]]
    assert kinds == ["text", "tool_call"]
    assert rec["segments"][-1]["span"][1] == len(HERMES.encode())


def test_to_openai_message():
    msg = toolcall.to_openai(toolcall.parse("hmm</think>" + HERMES, think_open=True))
    assert msg["role"] == "assistant"
    assert msg["content"] == "Let me look.\n"
    assert msg["reasoning_content"] == "hmm"
    (tc,) = msg["tool_calls"]
    assert tc["type"] == "function" and tc["function"]["name"] == "get_weather"
    assert json.loads(tc["function"]["arguments"]) == {"city": "Paris", "days": 3}
    only_call = toolcall.to_openai(toolcall.parse(HERMES[len("Let me look.\n") :]))
    assert only_call["content"] is None and only_call["reasoning_content"] is None


def test_formats_and_render():
    table = toolcall.formats()
    ids = [f["id"] for f in table]
    assert "hermes" in ids and "harmony" in ids
    assert all(f["type"] == "format" for f in table)
    assert any(m["name"] == "qwen3" and m["format"] == "hermes" for m in toolcall.models())
    block = toolcall.render_tools("hermes", TOOLS)
    assert "<tools>" in block and "get_weather" in block
    msg = toolcall.render_result("hermes", {"id": "c1", "name": "get_weather", "content": "sunny"})
    assert "<tool_response>" in msg and "sunny" in msg
    with pytest.raises(toolcall.OptionError):
        toolcall.render_tools("no-such-family", TOOLS)


def test_the_sample_consumer_runs():
    pytest.importorskip("openai")
    import runpy

    from conftest import ROOT

    ns = runpy.run_path(str(ROOT / "python" / "examples" / "consumer.py"))
    assert ns["names_as_they_stream"](ns["REPLY"]) == ["get_weather"]
    assert len(ns["history"](ns["REPLY"])) == 3


@pytest.mark.parametrize(
    "call",
    [
        lambda x: toolcall.parse(x),
        lambda x: toolcall.split(x),
        lambda x: toolcall.check_transcript(x),
        lambda x: toolcall.repair(x),
        lambda x: toolcall.StreamParser().feed(x),
    ],
    ids=["parse", "split", "check_transcript", "repair", "StreamParser.feed"],
)
def test_a_wrong_input_type_names_every_type_taken(call):
    # each takes str as well as bytes: the message must say so, not
    # "not an instance of 'bytes | bytearray'"
    with pytest.raises(TypeError) as e:
        call(5)
    msg = str(e.value)
    assert "str, bytes or bytearray" in msg, msg
    assert "got int" in msg, msg


def test_repair_json_of_plain_text_is_the_cli_text_as_string(toolcall_bin):
    # documented in repair_json's docstring: json_repair gives "" here
    import subprocess

    assert toolcall.repair_json("not json at all") == '"not json at all"'
    cli = subprocess.run(
        [str(toolcall_bin), "repair", "--text-as-string"],
        input=b"not json at all",
        capture_output=True,
        check=True,
    )
    assert cli.stdout.decode().rstrip("\n") == toolcall.repair_json("not json at all")
    assert "not json at all" in toolcall.repair_json.__doc__


@pytest.mark.parametrize(
    "text",
    ["She said: no way", "not json at all", "ES2020", "hello world", "{'a': 1,", "\ufeff[1, 2", "'a b c d'"],
)
def test_repair_reads_a_document_as_the_cli(toolcall_bin, text):
    # one core function (repair_document) for `toolcall repair`, repair()
    # and repair_json: prose is hopeless by default, one string with
    # text_as_string, and json_repair's reading in repair_json
    import subprocess

    for extra, kw in (([], {}), (["--text-as-string"], {"text_as_string": True})):
        cli = subprocess.run([str(toolcall_bin), "repair", *extra], input=text.encode(), capture_output=True)
        assert cli.returncode in (0, 1), cli.stderr
        if cli.returncode == 0:
            assert toolcall.repair(text, **kw)[0] == cli.stdout.decode().rstrip("\n"), (text, kw)
        else:
            with pytest.raises(toolcall.RepairError) as e:
                toolcall.repair(text, **kw)
            assert e.value.code == "TLP-003"
    as_string = subprocess.run([str(toolcall_bin), "repair", "--text-as-string"], input=text.encode(),
                               capture_output=True, check=True)
    assert toolcall.repair_json(text) == as_string.stdout.decode().rstrip("\n")
    assert toolcall.repair_json(text, return_objects=True) == json.loads(as_string.stdout)


def _deep_schema_tools(levels):
    schema = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return json.dumps([{"name": "f", "parameters": schema}])


def _fanout_tools(levels):
    # each definition anyOf the next twice: 2**levels checks of one value
    defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    schema = {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}
    return json.dumps([{"name": "f", "parameters": schema}])


def _cli_tools_error(toolcall_bin, tmp_path, text, *flags):
    """The message `toolcall validate --tools FILE FLAGS` gives for the
    definition, after `toolcall: FILE: ` (`toolcall: FILE:` before the
    `line:column:` of a syntax error)."""
    path = tmp_path / "tools.json"
    path.write_text(text)
    r = subprocess.run(
        [str(toolcall_bin), "validate", "--tools", str(path), *flags],
        input=b"",
        capture_output=True,
    )
    assert r.returncode == 2, r.stderr
    line = r.stderr.decode().strip()
    prefix = f"toolcall: {path}:"
    assert line.startswith(prefix), line
    rest = line[len(prefix) :]
    return rest[1:] if rest.startswith(" ") else rest


@pytest.mark.parametrize(
    "text, option, value, flag",
    [
        (_deep_schema_tools(40), "max_schema_depth", 30, "--max-schema-depth"),
        (_fanout_tools(12), "max_schema_checks", 1000, "--max-schema-checks"),
        (
            "[{name: 'f', parameters: "
            + "{type: 'object', properties: {a: " * 30
            + "{}"
            + "}}" * 30
            + "}]",
            "max_json5_depth",
            20,
            "--max-json5-depth",
        ),
        (_deep_schema_tools(2), "max_tools_size", 40, "--max-tools-size"),
    ],
)
def test_tools_limits_are_the_cli_flags(toolcall_bin, tmp_path, text, option, value, flag):
    # under the defaults the definition loads; under the lower limit it is
    # refused with the command's message for the same flag
    assert toolcall.Tools(text).names == ["f"]
    with pytest.raises(toolcall.ToolsError) as e:
        toolcall.Tools(text, **{option: value})
    assert str(e.value) == _cli_tools_error(toolcall_bin, tmp_path, text, flag, str(value))
    assert flag in str(e.value)
    # validate() and parse(tools=...) take a loaded Tools as it is
    with pytest.raises(toolcall.ToolsError):
        toolcall.Tools(text, strict=False, **{option: value})


def test_tools_limits_raised_and_out_of_range():
    # JSON5 nested 152 levels: past the default, read under a raised bound
    deep = "[{name: 'f', parameters: " + "{type: 'object', properties: {a: " * 75 + "{}" + "}}" * 75 + "}]"
    with pytest.raises(toolcall.ToolsError, match="--max-json5-depth"):
        toolcall.Tools(deep)
    assert toolcall.Tools(deep, max_json5_depth=200).names == ["f"]
    # the core checks the ranges and knows the names
    with pytest.raises(toolcall.OptionError, match="max_schema_depth"):
        toolcall.Tools(deep, max_schema_depth=0)
    with pytest.raises(toolcall.OptionError, match="max_schema_checks"):
        toolcall.Tools(deep, max_schema_checks=100_000_001)
    with pytest.raises(toolcall.OptionError, match="max_schema_dept"):
        toolcall.Tools(deep, max_schema_dept=400)  # a misspelt name
    with pytest.raises(toolcall.OptionError, match="nope"):
        toolcall.Tools(deep, unknown_risk="nope")
    # None is the default, as everywhere in the package
    assert toolcall.Tools(_deep_schema_tools(2), max_schema_depth=None).names == ["f"]
