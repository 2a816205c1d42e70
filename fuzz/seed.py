#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets into fuzz/seeds/<target>/.

Sources: every fixtures/**/*.txt (with the flags its .args file asks for),
the "input" fields of the *.jsonl files of an optional directory of
conformance cases given as the argument (a case with a "format" field is
also seeded with that format forced; files named repair* feed the repair
target), and the JSON bodies of
the fixtures' calls for the repair target. For the validate target: the
fixtures/validate/**/*.log transcripts against every fixture tools file
(fixed registries and the same files supplied inline), the text-format
fixtures with a tools map inferred from their .parse.ndjson, argument
objects checked directly, and a few hand-written calls that exercise typing.
The crafted inputs of CRAFTED (shapes that once cost quadratic time) seed
parse, stream and wire. Each seed carries the header its
target expects (see README.md). Run from anywhere:

    python3 fuzz/seed.py [path/to/conformance-cases]
"""

import hashlib
import json
import os
import re
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
CONFORMANCE = sys.argv[1] if len(sys.argv) > 1 else None
MAX = 16 * 1024  # larger seeds slow the fuzzer down and add little

# The format ids in FORMATS order (`toolcall formats` prints them in that order).
def format_ids():
    """The ids of the `registry!` table in core/src/formats/mod.rs, in order."""
    src = open(os.path.join(ROOT, "core", "src", "formats", "mod.rs")).read()
    table = src.split("registry! {", 1)[1].split("}", 1)[0]
    return re.findall(r'^\s*\w+:\s*\w+\s*=\s*"([^"]+)"', table, re.M)


IDS = format_ids()


def flags_for(args):
    flags, fmt = 0, 0
    it = iter(args)
    for a in it:
        if a in ("--format", "-f"):
            f = next(it, "auto")
            if f != "auto" and f in IDS:
                flags |= 64
                fmt = IDS.index(f)
        elif a == "--no-json-blocks":
            flags |= 1
        elif a == "--inline-json":
            flags |= 2
        elif a == "--reasoning-calls":
            flags |= 4
        elif a == "--think-open":
            flags |= 8
        elif a == "--no-repair":
            flags |= 16
    return flags, fmt


KINDS = ["auto", "text", "terminal", "ollama", "openai", "llama-server"]


def write(target, data):
    if len(data) > MAX + 8:
        return
    d = os.path.join(FUZZ, "seeds", target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def texts():
    for dirpath, _, files in os.walk(os.path.join(ROOT, "fixtures")):
        for fn in sorted(files):
            if not fn.endswith(".txt"):
                continue
            p = os.path.join(dirpath, fn)
            args_p = p[:-4] + ".args"
            args = open(args_p).read().split() if os.path.exists(args_p) else []
            yield p, open(p, "rb").read(), args


# Crafted inputs that once cost quadratic time or unbounded memory (issue
# 47): unclosed harmony JSON bodies, one after another (also with headers
# quoted in strings), a run of name bytes at the start of a document (the
# functionary NAME{ probe), repeated Gemma 4 <|channel> tokens, stripped
# harmony analysis, and a plain-prompt user turn after CR, U+2028 and NEL.
CRAFTED = [
    b"<|start|>assistant<|channel|>commentary to=functions.f<|message|>{" * 200,
    b'<|start|>assistant<|channel|>commentary to=functions.f<|message|>{"a":"x","' * 200,
    b'<|start|>assistant<|channel|>commentary to=functions.f<|message|>{"x\\"' * 200,
    b"x" * 8000,
    b"<function=" + b"x" * 8000,
    b"x" * 8000 + b"{}</function>",
    b"<|channel>" * 1000,
    b"analysis" + b"x" * 8000,
    b"analysis<" * 1000,
    b"hi\r### user\nrun it",
    "hi\u2028### user\nrun it".encode(),
    "hi\u0085### user\nrun it".encode(),
    # issue 47: conversations whose fields have the wrong types
    b'{"messages": [{"role": "assistant", "tool_calls": [null, 1, "x", {}]}]}',
    b'{"messages": [{"role": "assistant", "content": 5}]}',
    b'{"messages": [{"role": ["assistant"], "content": "hi"}]}',
    b'{"messages": [{"role": "assistant", "tool_calls": "notalist"}]}',
    b'{"messages": [{"role": "user", "content": "caf\xe9 \xff"}]}',
    # an echoed prompt (llama.cpp without --no-display-prompt), then the reply
    b"# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    b"You are provided with function signatures within <tools></tools> XML tags:\n"
    b'<tools>\n{"type": "function", "function": {"name": "f", "parameters": {}}}\n</tools>\n\n'
    b"For each function call, return a json object with function name and arguments "
    b"within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    b'{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n\n'
    b'Q?\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
    b"text [end of text]\n",
    b"</think>",
    b"<think></think>hi",
]


def main():
    for body in CRAFTED:
        write("parse", bytes([0, 0]) + body)
        write("stream", bytes([0, 0, 1, 31]) + body)  # chunks of 32
        write("stream", bytes([0, 0, 0]) + body)  # 1-byte chunks
        write("wire", bytes([1, 0, 1, 31]) + body)  # --input text
        for fmt in ("harmony", "functionary", "gemini-function-call"):
            if fmt in IDS:
                write("parse", bytes([64, IDS.index(fmt)]) + body)
    for p, body, args in texts():
        flags, fmt = flags_for(args)
        if os.sep + "wire" + os.sep in p:
            kind = "auto"
            if "--input" in args:
                kind = args[args.index("--input") + 1]
            k = KINDS.index(kind) if kind in KINDS else 0
            write("wire", bytes([k, 0, 1, 7]) + body)  # chunks of 8
            write("wire", bytes([0, 0, 1, 0]) + body)  # auto, 1-byte chunks
        else:
            write("parse", bytes([flags, fmt]) + body)
            write("stream", bytes([flags, fmt, 1, 7]) + body)
            write("stream", bytes([flags, fmt, 2, 2, 12]) + body)
            write("wire", bytes([1, flags & 0x3E, 1, 15]) + body)  # --input text
            for m in re.finditer(rb"\{.*\}", body, re.S):
                write("repair", m.group(0))
    for fn in sorted(os.listdir(CONFORMANCE)) if CONFORMANCE else []:
        if not fn.endswith(".jsonl"):
            continue
        for line in open(os.path.join(CONFORMANCE, fn), encoding="utf-8"):
            line = line.strip()
            if not line:
                continue
            case = json.loads(line)
            inp = case.get("input")
            if not isinstance(inp, str):
                continue
            data = inp.encode("utf-8")
            if fn.startswith("repair"):
                write("repair", data)
                continue
            flags, fmt = 0, 0
            if case.get("format") in IDS:
                flags, fmt = 64, IDS.index(case["format"])
            write("parse", bytes([0, 0]) + data)
            write("parse", bytes([flags, fmt]) + data)
            write("stream", bytes([flags, fmt, 1, 2]) + data)
            write("stream", bytes([0, 0, 0]) + data)


# validate: [sel, vflags, eflags, fmt, rest...]; sel 0-5 are these files (the
# order of FIXTURES in fuzz_targets/validate.rs), 6 the built-in registry,
# 7 inline tools text, NUL, document.
TOOLS = ["anthropic.json5", "map.json5", "mcp.json", "ollama.json", "openai-chat.json", "responses.json"]
TEXT_FORMATS = ["qwen3-coder-xml", "glm4-moe", "minimax-m2", "step3", "seed-oss",
                "deepseek-dsml", "kimi-k3", "minimax-m3"]

# calls to the built-in registry's tools (see BUILTIN in validate.rs)
HAND = [
    b"<tool_call>\n<function=search>\n<parameter=q>\nhello world\n</parameter>\n"
    b"<parameter=n>\n 42 \n</parameter>\n<parameter=opts>\n{\"deep\": true}\n</parameter>\n"
    b"<parameter=when>\nnull\n</parameter>\n<parameter=safe>\nTrue\n</parameter>\n"
    b"<parameter=mode>\n1\n</parameter>\n</function>\n</tool_call>",
    b"<tool_call>\n<function=search>\n<parameter=q>\nHELLO\n</parameter>\n"
    b"<parameter=tags>\n[\"a\", \"a\"]\n</parameter>\n<parameter=ratio>\n0.75\n</parameter>\n"
    b"<parameter=lang>\nde\n</parameter>\n</function>\n</tool_call>",
    b"<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"/tmp/x\", \"content\": \"\", \"mode\": 420}}</tool_call>",
    b"<tool_call>{\"name\": \"merge\", \"arguments\": {\"a\": 1, \"b\": {\"c\": null}, \"z\": 0}}</tool_call>",
    b"<tool_call>{\"name\": \"noop\", \"arguments\": {\"x\": 1}}</tool_call>\n"
    b"<tool_call>{\"name\": \"never\", \"arguments\": {\"x\": 1}}</tool_call>",
    b"<tool_call>{\"name\": \"serch\", \"arguments\": {\"q\": \"x\"}}</tool_call>",
    b"<tool_call>{\"name\": \" \", \"arguments\": {}}</tool_call>",
]
DIRECT = [  # whole documents that are argument objects, fmt picks the tool
    (0, b'{"q": "hello", "n": 3, "opts": {"deep": false}}'),
    (0, b'{"q": "", "n": 100, "when": "2024-01-01", "mode": "slow"}'),
    (1, b'{"path": "a", "content": "b", "mode": 1.5}'),
    (2, b'{"a": "1", "b": {"c": 1}}'),
    (4, b'{"x": null}'),
    (5, b'["not", "an", "object"]'),
]


def schema_of(v):
    if isinstance(v, bool):
        return {"type": "boolean"}
    if isinstance(v, int):
        return {"type": "integer"}
    if isinstance(v, float):
        return {"type": "number"}
    if isinstance(v, str):
        t = v.strip()
        if re.fullmatch(r"-?\d+", t):
            return {"type": "integer"}
        if t.lower() in ("true", "false"):
            return {"type": "boolean"}
        if t.startswith("{"):
            return {"type": "object"}
        return {"type": "string"}
    if isinstance(v, list):
        return {"type": "array"}
    if isinstance(v, dict):
        return {"type": "object"}
    return {"type": "null"}


def validate_seeds():
    vdir = os.path.join(ROOT, "fixtures", "validate")
    tools = [open(os.path.join(vdir, "tools", t), "rb").read() for t in TOOLS]
    logs = []
    for dirpath, _, files in os.walk(vdir):
        for fn in sorted(files):
            if fn.endswith(".log"):
                logs.append(open(os.path.join(dirpath, fn), "rb").read())
    for body in logs:
        for sel in range(6):
            write("validate", bytes([sel, 0, 0, 0]) + body)
        write("validate", bytes([1, 1, 0, 0]) + body)             # lenient
        write("validate", bytes([4, 0b0110101, 0, 0]) + body)     # lenient, risks
        write("validate", bytes([7, 0, 0, 0]) + tools[len(body) % 6] + b"\0" + body)
    for t in tools:
        write("validate", bytes([7, 0, 0, 0]) + t)                # registry only
    for body in HAND:
        write("validate", bytes([6, 0, 0, 0]) + body)
        write("validate", bytes([6, 1, 0, 0]) + body)
    for fmt, body in DIRECT:
        write("validate", bytes([6, 0, 0, fmt]) + body)
        write("validate", bytes([6, 1, 0, fmt]) + body)
    # text formats: a tools map inferred from the expected records, so that
    # calls are known and their text values typed
    for dirpath, _, files in os.walk(os.path.join(ROOT, "fixtures")):
        if os.path.basename(dirpath) not in TEXT_FORMATS:
            continue
        for fn in sorted(files):
            if not fn.endswith(".parse.ndjson"):
                continue
            txt = os.path.join(dirpath, fn[: -len(".parse.ndjson")] + ".txt")
            if not os.path.exists(txt):
                continue
            m = {}
            for line in open(os.path.join(dirpath, fn), encoding="utf-8"):
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if r.get("type") != "tool_call" or not isinstance(r.get("arguments"), dict):
                    continue
                props = {k: schema_of(v) for k, v in r["arguments"].items()}
                m.setdefault(r["name"] or "_", {"type": "object", "properties": props,
                                                "required": sorted(props)})
            if not m:
                continue
            args_p = txt[:-4] + ".args"
            flags, fmt = flags_for(open(args_p).read().split() if os.path.exists(args_p) else [])
            body = open(txt, "rb").read()
            tools_text = json.dumps(m).encode()
            write("validate", bytes([7, 0, flags, fmt]) + tools_text + b"\0" + body)
            write("validate", bytes([7, 1, flags, fmt]) + tools_text + b"\0" + body)


main()
validate_seeds()
