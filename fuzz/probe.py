#!/usr/bin/env python3
"""Hostile-input probes: runs the release binary on adversarial inputs at two
sizes (N and 4N) and reports time, peak RSS and what went wrong.

Each probe builds an input of size N and of size 4N, runs toolcall on each
with a timeout, and flags:

* a panic (status 101, or "panicked" on stderr), a signal, a timeout;
* an exit status outside 0/1/2;
* raw control characters (ESC, other C0 except tab/newline, DEL, C1) on
  stderr: everything on stderr that came from input must be escaped;
* superlinear growth: 4N taking more than 10x the time of N (when N took
  long enough to measure) or more than 8x the extra memory.

It is a tool for looking, not a test: faults it finds become binary tests
in tests/suite/. Run from anywhere (the binary must be built):

    cargo build --release
    python3 fuzz/probe.py [--only SUBSTRING] [--scale F] [--bin PATH]

Output: one line per probe with status, seconds and MiB at N and 4N.
"""

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)

ESC = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"
CTRL_RE = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")

TOOLS = b"""[{"type":"function","function":{"name":"f","parameters":{"type":"object",
"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}}}]"""


def run(binary, argv, stdin, timeout, cwd):
    """Runs one case under GNU time (so the peak RSS is the binary's own, not
    this script's inherited at fork); returns (status, seconds, peak RSS MiB,
    stderr bytes)."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as err, open(
        os.devnull, "wb"
    ) as out, tempfile.NamedTemporaryFile("r") as tf:
        inp.write(stdin)
        inp.seek(0)
        t0 = time.monotonic()
        p = subprocess.Popen(
            ["/usr/bin/time", "-f", "%U %S %M", "-o", tf.name, binary] + argv,
            stdin=inp, stdout=out, stderr=err, cwd=cwd, start_new_session=True,
        )
        status = None
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            status = "TIMEOUT"
        secs = time.monotonic() - t0
        report = tf.read().split()
        rss = int(report[-1]) / 1024.0 if report and report[-1].isdigit() else 0.0
        try:
            cpu = float(report[-3]) + float(report[-2])
        except (IndexError, ValueError):
            cpu = secs
        CPU[0] = cpu
        if status is None:
            text = " ".join(report)
            m = re.search(r"terminated by signal (\d+)", text)
            status = "SIG" + m.group(1) if m else p.returncode
        err.seek(0)
        return status, secs, rss, err.read()


# the binary probed (for probes that ask it what it knows)
BIN = [os.path.join(ROOT, "target", "release", "toolcall")]

# CPU seconds (user + system) of the last run, for --sweep: on shared
# cores wall time measures the neighbours as much as toolcall
CPU = [0.0]


# ----- generators: each takes n and returns the stdin bytes -------------------

def rep(s):
    return lambda n: s * n


def nested(open_, close_, pre=b"", post=b"", closed=True):
    def g(n):
        return pre + open_ * n + (close_ * n if closed else b"") + post
    return g


FORMAT_BODIES = {
    # format id: (prefix, suffix) around a JSON call body
    "hermes": (b'<tool_call>{"name":"f","arguments":{"a":', b"}}</tool_call>"),
    "mistral": (b'[TOOL_CALLS][{"name":"f","arguments":{"a":', b"}}]"),
    "deepseek-v3": (
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\":".encode(),
        "}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>".encode(),
    ),
    "fenced-json": (b'```json\n{"name":"f","arguments":{"a":', b"}}\n```"),
    "bare-json": (b'{"name":"f","arguments":{"a":', b"}}"),
    "llama3-json": (b'{"name":"f","parameters":{"a":', b"}}"),
    "xlam": (b'[{"name":"f","arguments":{"a":', b"}}]"),
    "functionary": (b'<function=f>{"a":', b"}</function>"),
    "qwen3-coder-xml": (b"<tool_call>\n<function=f>\n<parameter=a>\n", b"\n</parameter>\n</function>\n</tool_call>"),
    "pythonic": (b"[f(a=", b")]"),
    "harmony": (
        b"<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\":",
        b"}<|call|>",
    ),
    "kimi-k2": (
        b"<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":",
        b"}<|tool_call_end|><|tool_calls_section_end|>",
    ),
    "glm4-moe": (b"<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>", b"</arg_value>\n</tool_call>"),
    "minimax-m2": (
        b'<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">',
        b"</parameter>\n</invoke>\n</minimax:tool_call>",
    ),
    "cohere": (b'<|START_ACTION|>[{"tool_name":"f","parameters":{"a":', b"}}]<|END_ACTION|>"),
    "gemini-function-call": (b"```tool_code\nf(a=", b")\n```"),
    "granite": (b'<|tool_call|>[{"name":"f","arguments":{"a":', b"}}]"),
}


def in_body(fmt, inner):
    pre, post = FORMAT_BODIES[fmt]
    return lambda n: pre + inner(n) + post


def probes():
    """(name, argv, generator, N, files) — files: {name: generator or bytes}."""
    P = []
    deep = 100_000
    # 1. deep nesting in every format's call body, closed and unclosed
    for fmt in FORMAT_BODIES:
        for kind, o, c in (("arr", b"[", b"]"), ("obj", b'{"k":', b"}")):
            P.append((f"deep-{kind}-{fmt}", ["parse", "-f", fmt],
                      in_body(fmt, nested(o, c)), deep // 4, None))
            P.append((f"deep-{kind}-open-{fmt}", ["parse", "-f", fmt],
                      in_body(fmt, nested(o, c, closed=False)), deep // 4, None))
    P.append(("deep-auto-hermes", ["parse"], in_body("hermes", nested(b"[", b"]")), deep // 4, None))
    P.append(("deep-split", ["split"], in_body("hermes", nested(b"[", b"]")), deep // 4, None))
    P.append(("deep-stream", ["stream"], in_body("hermes", nested(b"[", b"]")), deep // 4, None))
    P.append(("deep-stream-open", ["stream"], in_body("hermes", nested(b"[", b"]", closed=False)), deep // 4, None))
    P.append(("deep-pythonic-paren", ["parse", "-f", "pythonic"],
              nested(b"[f(a=", b")]"), deep // 4, None))
    # repair
    for kind, o, c in (("arr", b"[", b"]"), ("obj", b'{"k":', b"}"), ("mix", b'[{"k":', b"}]")):
        P.append((f"repair-deep-{kind}", ["repair"], nested(o, c), deep // 4, None))
        P.append((f"repair-deep-open-{kind}", ["repair"], nested(o, c, closed=False), deep // 4, None))
        P.append((f"repair-report-deep-open-{kind}", ["repair", "--report"], nested(o, c, closed=False), deep // 4, None))
    P.append(("repair-lines-deep", ["repair", "--lines"], lambda n: (b"[" * 1000 + b"\n") * n, 50, None))
    P.append(("repair-many-commas", ["repair"], lambda n: b"[" + b"," * n + b"]", 250_000, None))
    P.append(("repair-many-colons", ["repair"], lambda n: b"{" + b":" * n + b"}", 250_000, None))
    P.append(("repair-unterminated-str", ["repair"], lambda n: b'{"a":"' + b"x\\" * n, 250_000, None))
    P.append(("repair-many-keys-no-values", ["repair"], lambda n: b"{" + b'"k",' * n, 100_000, None))
    P.append(("repair-python-lits", ["repair"], lambda n: b"[" + b"True,None,False," * n, 100_000, None))
    P.append(("repair-comments", ["repair"], lambda n: b"[" + b"/*" * n, 100_000, None))
    P.append(("repair-linecomments", ["repair"], lambda n: b"[1" + b"//x\n" * n + b"]", 100_000, None))
    P.append(("repair-quotes", ["repair"], lambda n: b"{" + b"'" * n, 200_000, None))
    P.append(("repair-backslash-u", ["repair"], lambda n: b'["' + b"\\ud800" * n + b'"]', 100_000, None))
    P.append(("repair-bad-u", ["repair"], lambda n: b'["' + b"\\u12" * n + b'"]', 100_000, None))
    P.append(("repair-huge-num", ["repair"], lambda n: b"[1e" + b"9" * n + b"]", 250_000, None))
    P.append(("repair-huge-int", ["repair"], lambda n: b"[" + b"9" * n + b"]", 250_000, None))
    P.append(("repair-ident-run", ["repair"], lambda n: b"{a:" + b"b" * n, 250_000, None))
    P.append(("repair-markdown-fences", ["repair"], lambda n: b"```json\n" * n, 50_000, None))
    P.append(("repair-text-as-string", ["repair", "--text-as-string"], lambda n: b"hello {" * n, 100_000, None))
    P.append(("repair-concat", ["repair"], lambda n: b"{}" * n, 100_000, None))
    P.append(("repair-mixed-brackets", ["repair"], lambda n: b"[}" * n, 100_000, None))
    P.append(("repair-close-only", ["repair"], lambda n: b"]}" * n, 100_000, None))
    P.append(("repair-nul", ["repair"], lambda n: b'{"a":"' + b"\x00" * n + b'"}', 250_000, None))
    P.append(("repair-invalid-utf8", ["repair"], lambda n: b'{"a":"' + b"\xff\xfe\xc0\x80" * n + b'"}', 100_000, None))
    P.append(("repair-bom", ["repair"], lambda n: b"\xef\xbb\xbf" * n + b"{}", 100_000, None))
    P.append(("repair-esc-report", ["repair", "--report"], lambda n: (ESC.encode() + b"{") * n, 1000, None))
    # 2. long runs of partial markers
    markers = {
        "tool_call-open": b"<tool_call",
        "tool_call-full-open": b"<tool_call>",
        "tool_call-nl": b"<tool_call>\n",
        "ds-begin": "<｜tool▁calls▁begin｜>".encode(),
        "ds-frag": "<｜tool▁calls".encode(),
        "ds-call-begin": "<｜tool▁call▁begin｜>function<｜tool▁sep｜>".encode(),
        "TOOL_CALLS": b"[TOOL_CALLS",
        "TOOL_CALLS-full": b"[TOOL_CALLS]",
        "TOOL_CALLS-args": b"[TOOL_CALLS]f[ARGS]",
        "function=": b"<function=",
        "function=f": b"<function=f>",
        "function-name": b'<function name="',
        "parameter=": b"<tool_call>\n<function=f>\n<parameter=",
        "fence": b"```",
        "fence-json": b"```json\n",
        "fence-tool": b"```tool_call\n",
        "think": b"<think>",
        "think-close": b"</think>",
        "lt": b"<",
        "lbrace": b"{",
        "lbrace-nl": b"\n{",
        "name-key": b'{"name":',
        "name-key-nl": b'\n{"name": "f", "arguments": ',
        "lbracket-nl": b"\n[",
        "pythonic-start": b"[f(",
        "pythonic-start-nl": b"\n[f(a=",
        "harmony": b"<|start|>assistant<|channel|>commentary to=functions.f",
        "harmony-msg": b"<|channel|>commentary to=functions.f <|message|>",
        "kimi": b"<|tool_calls_section_begin|>",
        "kimi-call": b"<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>",
        "minimax-invoke": b'<minimax:tool_call><invoke name="',
        "minimax-m3": b"]<]minimax[>[<tool_call>",
        "START_ACTION": b"<|START_ACTION|>",
        "python_tag": b"<|python_tag|>",
        "glm-argkey": b"<tool_call>f\n<arg_key>",
        "hunyuan": b"<tool_calls:",
        "dsml": "<｜DSML｜function_calls>".encode(),
        "quote": b'"',
        "backslash": b"\\",
        "action": b"Action: ```json\n",
        "granite": b"<|tool_call|>",
        "functools": b"functools[",
        "tool_code": b"```tool_code\n",
        "json-lbrace": b'{"name": "f", "arguments": {"a": "',
    }
    for name, m in markers.items():
        P.append((f"markers-{name}", ["parse"], rep(m), 50_000, None))
        P.append((f"markers-stream-{name}", ["stream"], rep(m), 50_000, None))
    for fmt in ("hermes", "mistral", "deepseek-v3", "qwen3-coder-xml", "functionary", "pythonic",
                "harmony", "kimi-k2", "minimax-m2", "glm4-moe", "llama3-json", "bare-json", "xlam",
                "granite", "cohere", "fenced-tool-call", "gemini-function-call", "prompt-wrapper",
                "deepseek-dsml", "hunyuan-v4", "minimax-m3", "seed-oss", "llama-python-tag"):
        for name in ("tool_call-open", "lt", "lbrace-nl", "lbracket-nl", "fence", "name-key-nl",
                     "function=", "pythonic-start-nl", "think"):
            P.append((f"markers-{fmt}-{name}", ["parse", "-f", fmt], rep(markers[name]), 50_000, None))
    P.append(("think-open-unclosed", ["parse", "--think-open"], lambda n: b"x" * n + b'<tool_call>{"name":"f","arguments":{}}</tool_call>', 2_000_000, None))
    P.append(("think-unclosed-calls", ["parse", "--reasoning-calls"],
              lambda n: b"<think>" + b'<tool_call>{"name":"f","arguments":{}}</tool_call>' * n, 20_000, None))
    P.append(("think-nested", ["parse"], lambda n: b"<think>" * n + b"</think>" * n, 20_000, None))
    P.append(("unterminated-str-hermes", ["parse"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + b"x" * n, 2_000_000, None))
    P.append(("unterminated-str-hermes-esc", ["parse"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + b'\\"' * n, 1_000_000, None))
    P.append(("unterminated-str-stream", ["stream"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + b"x" * n, 2_000_000, None))
    P.append(("unterminated-fence", ["parse"], lambda n: b"```json\n{" + b'"a":1,' * n, 200_000, None))
    # 3. many tiny calls
    P.append(("many-calls-hermes", ["parse"], rep(b'<tool_call>{"name":"f","arguments":{}}</tool_call>'), 20_000, None))
    P.append(("many-calls-hermes-stream", ["stream"], rep(b'<tool_call>{"name":"f","arguments":{}}</tool_call>'), 20_000, None))
    P.append(("many-calls-split", ["split"], rep(b'<tool_call>{"name":"f","arguments":{}}</tool_call>'), 20_000, None))
    P.append(("many-calls-mistral", ["parse", "-f", "mistral"], lambda n: b"[TOOL_CALLS][" + b'{"name":"f","arguments":{}},' * n + b"]", 20_000, None))
    P.append(("many-calls-pythonic", ["parse", "-f", "pythonic"], lambda n: b"[" + b"f(a=1)," * n + b"]", 20_000, None))
    P.append(("many-calls-xlam", ["parse", "-f", "xlam"], lambda n: b"[" + b'{"name":"f","arguments":{}},' * n + b"]", 20_000, None))
    P.append(("many-calls-validate", ["validate", "--tools", "@tools.json"],
              rep(b'<tool_call>{"name":"f","arguments":{"b":"x"}}</tool_call>\n'), 5_000, {"tools.json": TOOLS}))
    P.append(("many-args-one-call", ["parse"], lambda n: b'<tool_call>{"name":"f","arguments":{' + b",".join(b'"k%d":1' % i for i in range(n)) + b"}}</tool_call>", 50_000, None))
    P.append(("dup-keys-one-call", ["parse"], lambda n: b'<tool_call>{"name":"f","arguments":{' + b'"k":1,' * n + b'"k":2}}</tool_call>', 100_000, None))
    P.append(("many-params-qwen-xml", ["parse", "-f", "qwen3-coder-xml"], lambda n: b"<tool_call>\n<function=f>\n" + b"<parameter=a>\n1\n</parameter>\n" * n + b"</function>\n</tool_call>", 20_000, None))
    P.append(("many-params-dup-qwen-xml", ["parse", "-f", "qwen3-coder-xml"], lambda n: b"<tool_call>\n<function=f>\n" + b"".join(b"<parameter=a%d>\n1\n</parameter>\n" % i for i in range(n)) + b"</function>\n</tool_call>", 20_000, None))
    P.append(("many-args-glm", ["parse", "-f", "glm4-moe"], lambda n: b"<tool_call>f\n" + b"".join(b"<arg_key>a%d</arg_key><arg_value>1</arg_value>" % i for i in range(n)) + b"</tool_call>", 20_000, None))
    P.append(("many-params-minimax", ["parse", "-f", "minimax-m2"], lambda n: b'<minimax:tool_call><invoke name="f">' + b"".join(b'<parameter name="a%d">1</parameter>' % i for i in range(n)) + b"</invoke></minimax:tool_call>", 20_000, None))
    P.append(("pythonic-many-kwargs", ["parse", "-f", "pythonic"], lambda n: b"[f(" + b",".join(b"a%d=1" % i for i in range(n)) + b")]", 20_000, None))
    # 4. huge single arguments / long lines
    P.append(("huge-arg", ["parse"], in_body("hermes", lambda n: b'"' + b"x" * n + b'"'), 4_000_000, None))
    P.append(("huge-arg-esc", ["parse"], in_body("hermes", lambda n: b'"' + b"\\n" * n + b'"'), 2_000_000, None))
    P.append(("huge-arg-uesc", ["parse"], in_body("hermes", lambda n: b'"' + b"\\u00e9" * n + b'"'), 500_000, None))
    P.append(("huge-arg-surrogate", ["parse"], in_body("hermes", lambda n: b'"' + b"\\ud800" * n + b'"'), 500_000, None))
    P.append(("huge-arg-lowsurrogate", ["parse"], in_body("hermes", lambda n: b'"' + b"\\udc00\\ud800x" * n + b'"'), 300_000, None))
    P.append(("huge-number", ["parse"], in_body("hermes", lambda n: b"1" * n), 1_000_000, None))
    P.append(("huge-exponent", ["parse"], in_body("hermes", lambda n: b"1e" + b"9" * n), 1_000_000, None))
    P.append(("huge-exponent-small", ["parse"], in_body("hermes", lambda n: b"1e99999999999999999999"), 1, None))
    P.append(("huge-number-validate", ["validate", "--tools", "@tools.json"],
              lambda n: b'<tool_call>{"name":"f","arguments":{"a":"x","b":1' + b"0" * n + b"}}</tool_call>", 500_000, {"tools.json": TOOLS}))
    P.append(("huge-exp-validate", ["validate", "--tools", "@tools.json"],
              lambda n: b'<tool_call>{"name":"f","arguments":{"a":"x","b":1e' + b"9" * n + b"}}</tool_call>", 500_000, {"tools.json": TOOLS}))
    P.append(("huge-float-validate", ["validate", "--tools", "@tools.json"],
              lambda n: b'<tool_call>{"name":"f","arguments":{"a":"x","b":0.' + b"1" * n + b"}}</tool_call>", 500_000, {"tools.json": TOOLS}))
    P.append(("long-line-text", ["parse"], lambda n: b"x" * n, 8_000_000, None))
    P.append(("long-line-lines", ["parse", "--lines"], lambda n: b"x" * n, 500_000, None))
    P.append(("long-line-field", ["parse", "--field", "content"], lambda n: b'{"content":"' + b"x" * n + b'"}', 500_000, None))
    P.append(("long-name", ["parse"], lambda n: b'<tool_call>{"name":"' + b"f" * n + b'","arguments":{}}</tool_call>', 1_000_000, None))
    P.append(("long-name-validate", ["validate", "--tools", "@tools.json"], lambda n: b'<tool_call>{"name":"' + b"f" * n + b'","arguments":{}}</tool_call>', 1_000_000, {"tools.json": TOOLS}))
    P.append(("long-key-validate", ["validate", "--tools", "@tools.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"' + b"k" * n + b'":1}}</tool_call>', 1_000_000, {"tools.json": TOOLS}))
    P.append(("long-line-validate-frame", ["validate", "--tools", "@tools.json"], lambda n: b"x" * n + b'<tool_call>{"name":"f","arguments":{"b":"' + b"y" * n + b'"}}</tool_call>' + b"z" * n, 1_000_000, {"tools.json": TOOLS}))
    # 5. NUL, invalid UTF-8, BOM, CRLF, mixed formats
    P.append(("nul-text", ["parse", "-a"], rep(b"\x00"), 2_000_000, None))
    P.append(("nul-in-call", ["parse"], lambda n: b'<tool_call>{"name":"f\x00","arguments":{"a":"' + b"\x00" * n + b'"}}</tool_call>', 1_000_000, None))
    P.append(("invalid-utf8", ["parse"], lambda n: b"<tool_call>" + b"\xff\xc0\x80\xed\xa0\x80" * n + b"</tool_call>", 300_000, None))
    P.append(("invalid-utf8-args", ["parse"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + b"\xff\xed\xa0\x80" * n + b'"}}</tool_call>', 300_000, None))
    P.append(("invalid-utf8-name-validate", ["validate", "--tools", "@tools.json"], lambda n: b'<tool_call>{"name":"\xff' + b"\xfe" * n + b'","arguments":{}}</tool_call>', 300_000, {"tools.json": TOOLS}))
    P.append(("bom-runs", ["parse"], rep(b"\xef\xbb\xbf<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\r\n"), 20_000, None))
    P.append(("crlf-runs", ["parse"], rep(b"\r\n"), 1_000_000, None))
    P.append(("cr-only", ["parse", "--lines"], rep(b"\r"), 1_000_000, None))
    P.append(("mixed-formats", ["parse"], rep(
        b'<tool_call>{"name":"f","arguments":{}}</tool_call>[TOOL_CALLS][{"name":"g","arguments":{}}]'
        + "<｜tool▁calls▁begin｜>".encode() + b'```json\n{"name":"h","arguments":{}}\n```\n<function=f>{}</function>'), 5_000, None))
    P.append(("mixed-formats-stream", ["stream"], rep(
        b'<tool_call>{"name":"f","arguments":{}}</tool_call>[TOOL_CALLS][{"name":"g","arguments":{}}]'
        + "<｜tool▁calls▁begin｜>".encode() + b'```json\n{"name":"h","arguments":{}}\n```\n<function=f>{}</function>'), 5_000, None))
    P.append(("esc-in-name-parse-v", ["parse", "-v"], rep(('<tool_call>{"name":"' + ESC.replace("\x1b", "\\u001b") + '","arguments":{}}</tool_call><tool_call>' + ESC + "{").encode()), 100, None))
    P.append(("esc-raw-in-name-validate", ["validate", "--tools", "@tools.json"], rep(('<tool_call>{"name":"f' + ESC + '","arguments":{"a":"' + ESC + '"}}</tool_call>\n').encode()), 50, {"tools.json": TOOLS}))
    P.append(("esc-json-in-name-validate", ["validate", "--tools", "@tools.json"], rep(('<tool_call>{"name":"f' + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") + '","arguments":{"a":1}}</tool_call>\n').encode()), 50, {"tools.json": TOOLS}))
    P.append(("esc-key-validate", ["validate", "--tools", "@tools.json", "--color", "always"], rep(('<tool_call>{"name":"f","arguments":{"' + ESC + '":1,"a":"' + ESC + '"}}\n' + ESC + '</tool_call>\n').encode()), 50, {"tools.json": TOOLS}))
    P.append(("esc-errors-parse", ["parse", "-v", "--fail-on-error"], rep(("<tool_call>{" + ESC + "\n</tool_call>").encode()), 50, None))
    # 6. wire streams
    def sse(payload):
        return b"data: " + payload + b"\n\n"
    oa_call = b'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}'
    for kind in ("openai", "ollama", "llama-server", "auto"):
        P.append((f"wire-{kind}-huge-event", ["parse", "--input", kind], lambda n: b"data: " + b"x" * n + b"\n\n", 2_000_000, None))
        P.append((f"wire-{kind}-no-newline", ["parse", "--input", kind], lambda n: b"data: " + b"{" * n, 2_000_000, None))
        P.append((f"wire-{kind}-deep", ["parse", "--input", kind], lambda n: b"data: " + b"[" * n + b"]" * n + b"\n\n", 200_000, None))
        P.append((f"wire-{kind}-many-events", ["parse", "--input", kind], rep(sse(oa_call)), 20_000, None))
        P.append((f"wire-{kind}-garbled", ["parse", "--input", kind], rep(b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":99999999,\"function\":{\"arguments\":\"x\"}}]}}]}\n\nevent: error\ndata: " + ESC.encode() + b"\n\n:\n\x00\xff\n"), 5_000, None))
        P.append((f"wire-{kind}-stream-no-newline", ["stream", "--input", kind], lambda n: b"data: " + b"{" * n, 2_000_000, None))
        P.append((f"wire-{kind}-many-indices", ["parse", "--input", kind], lambda n: b"".join(sse(b'{"choices":[{"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"f","arguments":"{"}}]}}]}' % (i, i)) for i in range(n)), 20_000, None))
        P.append((f"wire-{kind}-arg-fragments", ["parse", "--input", kind], lambda n: sse(b'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}}]}') + rep(sse(b'{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"["}}]}}]}'))(n), 20_000, None))
    P.append(("wire-ollama-ndjson-content", ["parse", "--input", "ollama"], rep(b'{"message":{"content":"<tool_call"},"done":false}\n'), 20_000, None))
    P.append(("wire-openai-content-markers", ["parse", "--input", "openai"], rep(sse(b'{"choices":[{"delta":{"content":"<tool_call>{\\"a\\":["}}]}')), 20_000, None))
    P.append(("wire-ollama-deep-args", ["parse", "--input", "ollama"], lambda n: b'{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}}]}}\n", 100_000, None))
    P.append(("wire-esc-error", ["parse", "--input", "openai", "-v"], rep(b"event: error\ndata: {\"error\":{\"message\":\"" + ESC.replace("\x1b", "\\u001b").encode() + b"\"}}\n\n"), 100, None))
    P.append(("wire-esc-error-raw", ["parse", "--input", "openai", "-v"], rep(b"event: error\ndata: {\"error\":{\"message\":\"" + ESC.encode() + b"\"}}\n\n"), 100, None))
    # 7. tools files
    def tools_file(params):
        return b'[{"name":"f","parameters":' + params + b"}]"
    P.append(("tools-ref-loop", ["validate", "--tools", "@t.json"], rep(b'<tool_call>{"name":"f","arguments":{"a":{"a":{}}}}</tool_call>\n'), 100,
              {"t.json": tools_file(b'{"type":"object","properties":{"a":{"$ref":"#"}},"$defs":{"x":{"$ref":"#/$defs/y"},"y":{"$ref":"#/$defs/x"}}}')}))
    P.append(("tools-ref-self", ["validate", "--tools", "@t.json"], rep(b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n'), 100,
              {"t.json": tools_file(b'{"$ref":"#/$defs/x","$defs":{"x":{"$ref":"#/$defs/x"}}}')}))
    P.append(("tools-ref-chain", ["validate", "--tools", "@t.json"], rep(b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n'), 100,
              {"t.json": (lambda n: tools_file(b'{"$ref":"#/$defs/d0","$defs":{' + b",".join(b'"d%d":{"$ref":"#/$defs/d%d"}' % (i, i + 1) for i in range(2000)) + b',"d2000":{"type":"object"}}}'))}))
    P.append(("tools-ref-fanout", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n', 1,
              {"t.json": (lambda n: tools_file(b'{"$ref":"#/$defs/d0","$defs":{' + b",".join(b'"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}' % (i, i + 1, i + 1) for i in range(40)) + b',"d40":{"type":"string"}}}'))}))
    P.append(("tools-anyof-deep-fanout", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":' + b'{"a":' * 30 + b"1" + b"}" * 30 + b"}</tool_call>\n", 1,
              {"t.json": tools_file(b'{"$ref":"#/$defs/n","$defs":{"n":{"anyOf":[{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}},{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"required":["zz"]}]}}}')}))
    P.append(("tools-huge-enum", ["validate", "--tools", "@t.json"], rep(b'<tool_call>{"name":"f","arguments":{"a":"nope"}}</tool_call>\n'), 50,
              {"t.json": (lambda n: tools_file(b'{"type":"object","properties":{"a":{"enum":[' + b",".join(b'"v%d"' % i for i in range(200_000)) + b"]}}}"))}))
    P.append(("tools-huge-enum-scale", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"nope"}}</tool_call>\n', 1,
              {"t.json": (lambda n: tools_file(b'{"type":"object","properties":{"a":{"enum":[' + b",".join(b'"v%d"' % i for i in range(n * 50_000)) + b"]}}}"))}))
    for pat, subj in ((b"^(a+)+$", b"a" * 40 + b"!"), (b"^(a|a)*$", b"a" * 40 + b"!"), (b"^(a|aa)+$", b"a" * 60 + b"!"),
                      (b"(x+x+)+y", b"x" * 40), (b"^(\\\\w+\\\\s?)*$", b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"),
                      (b"^(?=(a+))*b", b"a" * 40), (b"(a*)*\\\\1b", b"a" * 40)):
        P.append((f"tools-redos-{pat.decode()}", ["validate", "--tools", "@t.json"],
                  lambda n, subj=subj: b'<tool_call>{"name":"f","arguments":{"a":"' + subj * n + b'"}}</tool_call>\n', 1,
                  {"t.json": tools_file(b'{"type":"object","properties":{"a":{"type":"string","pattern":"' + pat + b'"}}}')}))
        P.append((f"tools-redos-patprops-{pat.decode()}", ["validate", "--tools", "@t.json"],
                  lambda n, subj=subj: b'<tool_call>{"name":"f","arguments":{"' + subj * n + b'":1}}</tool_call>\n', 1,
                  {"t.json": tools_file(b'{"type":"object","patternProperties":{"' + pat + b'":{"type":"string"}}}')}))
    P.append(("tools-huge-regex", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"x"}}</tool_call>\n', 1,
              {"t.json": (lambda n: tools_file(b'{"type":"object","properties":{"a":{"type":"string","pattern":"' + b"(a{1000}){1000}" * n + b'"}}}'))}))
    P.append(("tools-regex-repeat-bomb", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":"x"}}</tool_call>\n', 1,
              {"t.json": tools_file(b'{"type":"object","properties":{"a":{"type":"string","pattern":"((((a{100}){100}){100}){100})"}}}')}))
    P.append(("tools-deep-schema", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 1,
              {"t.json": (lambda n: tools_file(b'{"type":"object","properties":{"a":' + b'{"items":' * (n * 25_000) + b"{}" + b"}" * (n * 25_000) + b"}}"))}))
    P.append(("tools-deep-json", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 1,
              {"t.json": (lambda n: b"[" * (n * 50_000) + b"]" * (n * 50_000))}))
    P.append(("tools-deep-json5", ["validate", "--tools", "@t.json5"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 1,
              {"t.json5": (lambda n: b"[" * (n * 50_000) + b"]" * (n * 50_000))}))
    P.append(("tools-deep-yaml", ["validate", "--tools", "@t.yaml"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 1,
              {"t.yaml": (lambda n: b"[" * (n * 50_000) + b"]" * (n * 50_000))}))
    P.append(("tools-yaml-bomb", ["validate", "--tools", "@t.yaml"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 1,
              {"t.yaml": b"a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"}))
    P.append(("tools-many-tools", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"nope","arguments":{}}</tool_call>\n', 1,
              {"t.json": (lambda n: b"[" + b",".join(b'{"name":"t%d","parameters":{"type":"object"}}' % i for i in range(n * 20_000)) + b"]")}))
    P.append(("tools-dup-names", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"t","arguments":{}}</tool_call>\n', 1,
              {"t.json": (lambda n: b"[" + b",".join(b'{"name":"t","parameters":{"type":"object"}}' for i in range(n * 20_000)) + b"]")}))
    P.append(("tools-esc-names", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"nope","arguments":{"a":1}}</tool_call>\n', 1,
              {"t.json": ('[{"name":"' + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") + '","description":"\\u001b[31m","parameters":{"type":"object","properties":{"\\u001b[2J":{"type":"string"}},"required":["\\u001b[2J"]}},{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string","description":"\\u001b]0;x\\u0007"}},"required":["\\u001b[2Jb"]}}]').encode()}))
    P.append(("tools-esc-names-f", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n', 1,
              {"t.json": ('[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"\\u001b[31m","enum":["\\u001b[2J"]}},"required":["\\u001b[2Jb"]}}]').encode()}))
    P.append(("tools-esc-bad-schema", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n', 1,
              {"t.json": ('[{"name":"f\\u001b[31m","parameters":{"type":"\\u001b[2Jobject","properties":{"a":{"pattern":"(\\u001b[31m"}}}}]').encode()}))
    P.append(("tools-esc-raw-invalid", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n', 1,
              {"t.json": ("[{\"name\":\"f\"," + ESC + "\n oops}]").encode()}))
    P.append(("render-tools-deep", ["render", "tools", "--family", "hermes"], lambda n: b'[{"name":"f","parameters":' + b'{"items":' * (n * 25_000) + b"{}" + b"}" * (n * 25_000) + b"}]", 1, None))
    P.append(("render-tools-esc", ["render", "tools", "--family", "harmony"], lambda n: ('[{"name":"f' + ESC.replace("\x1b", "\\u001b") + '","parameters":{"type":"objec"}},' + ESC + "]").encode(), 1, None))
    P.append(("render-call-deep", ["render", "call", "--family", "pythonic"], lambda n: b'{"type":"tool_call","name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}\n", 100_000, None))
    P.append(("render-call-many", ["render", "call", "--family", "mistral"], rep(b'{"type":"tool_call","name":"f","arguments":{}}\n'), 20_000, None))
    P.append(("render-result-huge", ["render", "result", "--family", "hermes", "--id", "c", "--name", "f"], lambda n: b"x" * n, 4_000_000, None))
    P.append(("render-result-esc", ["render", "result", "--family", "hermes", "--id", "c\x1b[2J", "--name", "f\x1b]0;x\x07"], lambda n: b"x", 1, None))
    # 8. conversations / datasets
    P.append(("conv-million-messages", ["validate", "--tools", "@tools.json"], lambda n: b'{"messages":[' + b",".join([b'{"role":"user","content":"x"}'] * n) + b"]}", 250_000, {"tools.json": TOOLS}))
    P.append(("conv-million-calls", ["validate", "--tools", "@tools.json"], lambda n: b'{"messages":[{"role":"assistant","tool_calls":[' + b",".join([b'{"function":{"name":"f","arguments":"{}"}}'] * n) + b"]}]}", 100_000, {"tools.json": TOOLS}))
    P.append(("conv-deep", ["validate", "--tools", "@tools.json"], lambda n: b'{"messages":[{"role":"assistant","content":' + b"[" * n + b"]" * n + b"}]}", 100_000, {"tools.json": TOOLS}))
    P.append(("conv-deep-open", ["validate", "--tools", "@tools.json"], lambda n: b'{"messages":' + b"[" * n, 100_000, {"tools.json": TOOLS}))
    P.append(("conv-jsonl-many", ["validate", "--tools", "@tools.json"], rep(b'{"messages":[{"role":"assistant","content":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{\\"a\\":1}}</tool_call>"}]}\n'), 5_000, {"tools.json": TOOLS}))
    P.append(("conv-esc-role", ["validate", "--tools", "@tools.json"], rep(('{"messages":[{"role":"' + ESC.replace("\x1b", "\\u001b") + '","content":1}]}\n').encode()), 20, {"tools.json": TOOLS}))
    P.append(("loop-history-million", ["loop", "--model-cmd", "true", "--history", "@h.json", "--max-iterations", "1"], lambda n: b"hi", 1,
              {"h.json": (lambda n: b"[" + b",".join([b'{"role":"user","content":"x"}'] * (n * 200_000)) + b"]")}))
    P.append(("loop-history-deep", ["loop", "--model-cmd", "true", "--history", "@h.json", "--max-iterations", "1"], lambda n: b"hi", 1,
              {"h.json": (lambda n: b"[" * (n * 50_000) + b"]" * (n * 50_000))}))
    P.append(("loop-history-esc", ["loop", "--model-cmd", "true", "--history", "@h.json", "--max-iterations", "1"], lambda n: b"hi", 1,
              {"h.json": ('[{"role":"' + ESC.replace("\x1b", "\\u001b") + '"},' + ESC + "]").encode()}))
    # 9. --field / --lines
    P.append(("field-long-path", ["parse", "--field", "@FIELD"], lambda n: b'{"a":1}\n', 1, {"FIELD": (lambda n: b".".join([b"a"] * (n * 10_000)))}))
    P.append(("field-long-path-validate", ["validate", "--tools", "@tools.json", "--field", "@FIELD"], lambda n: b'{"a":1}\n', 1, {"tools.json": TOOLS, "FIELD": (lambda n: b".".join([b"a"] * (n * 10_000)))}))
    P.append(("field-deep-record", ["parse", "--field", "a.b"], lambda n: b'{"a":' + b"[" * n + b"]" * n + b"}\n", 100_000, None))
    P.append(("field-many-lines", ["parse", "--field", "content"], rep(b'{"content":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}\n'), 20_000, None))
    P.append(("field-esc-bad-lines", ["parse", "--field", "content", "-v"], rep(("{" + ESC + "\n").encode()), 100, None))
    P.append(("messages-at-long", ["validate", "--tools", "@tools.json", "--messages-at", "@FIELD"], lambda n: b'{"a":1}\n', 1, {"tools.json": TOOLS, "FIELD": (lambda n: b"/a" * (n * 10_000))}))
    P.append(("validate-records-deep", ["validate", "--tools", "@tools.json"], lambda n: b'{"type":"tool_call","name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}\n", 100_000, {"tools.json": TOOLS}))
    P.append(("validate-retry-prompt-esc", ["validate", "--tools", "@tools.json", "--retry-prompt"], rep(('<tool_call>{"name":"f' + ESC.replace("\x1b", "\\u001b") + '","arguments":{"' + ESC.replace("\x1b", "\\u001b") + '":1}}</tool_call>\n').encode()), 10, {"tools.json": TOOLS}))
    # 10. exec
    P.append(("exec-esc-prompt", ["exec", "--tools", "@tools.json", "--approve", "deny", "--bind", "f=true"], rep(('<tool_call>{"name":"f' + ESC.replace("\x1b", "\\u001b") + '","arguments":{"a":"' + ESC.replace("\x1b", "\\u001b") + '"}}</tool_call>\n').encode()), 5, {"tools.json": TOOLS}))
    P.append(("exec-esc-prompt-known", ["exec", "--tools", "@tools.json", "--approve", "deny", "--unknown-risk", "high", "--bind", "f=true"], rep(('<tool_call>{"name":"f","arguments":{"a":"' + ESC.replace("\x1b", "\\u001b") + '\\n\\r"}}</tool_call>\n').encode()), 5, {"tools.json": TOOLS}))
    P.append(("exec-many-calls-dry", ["exec", "--tools", "@tools.json", "--dry-run"], rep(b'<tool_call>{"name":"f","arguments":{"a":"x"}}</tool_call>\n'), 2_000, {"tools.json": TOOLS}))
    P.append(("exec-deep-args-dry", ["exec", "--tools", "@tools.json", "--dry-run"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}</tool_call>\n", 100_000, {"tools.json": TOOLS}))
    # 11. config files
    P.append(("config-deep", ["parse", "--config", "@c.toml"], lambda n: b"x", 1, {"c.toml": (lambda n: b"a = " + b"[" * (n * 25_000) + b"]" * (n * 25_000) + b"\n")}))
    P.append(("config-esc", ["parse", "--config", "@c.toml"], lambda n: b"x", 1, {"c.toml": ('max_buffer_size = "' + ESC.replace("\x1b", "\\u001b") + '"\n' + ESC + "\n").encode()}))
    P.append(("config-huge", ["parse", "--config", "@c.toml"], lambda n: b"x", 1, {"c.toml": (lambda n: b"# " + b"x" * (n * 4_000_000) + b"\n")}))
    P.append(("config-inline-tables", ["parse", "--config", "@c.toml"], lambda n: b"x", 1, {"c.toml": (lambda n: b"a = " + b"{b = " * (n * 25_000) + b"1" + b"}" * (n * 25_000) + b"\n")}))
    # 12. directory walks
    P.append(("dir-symlink-loop", ["parse", "-L", "@DIR"], lambda n: b"", 1, {"DIR/": "symloop"}))
    P.append(("dir-esc-names", ["parse", "-v", "@DIR"], lambda n: b"", 1, {"DIR/": "escnames"}))
    # 16. the evidence rules' inputs (runs of what they read back over), and
    # one byte per chunk through `stream`: every marker run, broken UTF-8
    # at each border
    for name in ("tool_call-full-open", "TOOL_CALLS-full", "lt", "lbrace-nl", "lbracket-nl",
                 "pythonic-start", "ds-begin", "kimi-call", "fence-json", "python_tag"):
        P.append((f"markers-stream1-{name}", ["stream", "--chunk-size", "1"], rep(markers[name]), 20_000, None))
    P.append(("stream1-utf8-borders", ["stream", "--chunk-size", "1"],
              lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + ("\u00e9\u65e5\U0001F600".encode() + b"\xe6\x97") * n + b'"}}</tool_call>', 20_000, None))
    P.append(("stream1-utf8-markers", ["stream", "--chunk-size", "1"],
              rep("<\uff5ctool\u2581calls\u2581begin\uff5c>\xe6<tool_call>\xff".encode()), 10_000, None))
    for name, unit in (("quote-marker", b"'<tool_call>"),
                       ("quote-call", b"x = '<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>'\n"),
                       ("assign-object", b'x = {"name":"f","arguments":{}}\n'),
                       ("open-bracket-object", b'[\n{"name":"f","arguments":{}}\n'),
                       ("cjk-label", "\u671f\u671b\u683c\u5f0f\uff1a\n\u6a21\u5f0f A\uff1a<tool_call>x</tool_call>\n".encode()),
                       ("label-no-lead", b"Mode A: <tool_call>f</tool_call>\n"),
                       ("comment-lead", b'// out\n{"name":"f","arguments":{}}\n')):
        P.append((f"evidence-{name}", ["parse"], rep(unit), 20_000, None))
        P.append((f"evidence-stream-{name}", ["stream"], rep(unit), 20_000, None))
    P.append(("pythonic-nested-calls", ["parse", "-f", "pythonic"], lambda n: b"[f(a=" + b"g(a=" * n + b"1" + b")" * n + b")]", 20_000, None))
    P.append(("pythonic-nested-calls-open", ["parse"], lambda n: b"[f(a=" + b"g(a=" * n, 20_000, None))
    P.append(("huge-exponent-arg", ["parse"], in_body("hermes", lambda n: b"1e" + b"9" * n), 1_000_000, None))
    P += wire_probes() + command_probes() + agent_probes()
    return P


# ----- 13. server streams (stream --input KIND, and auto) ----------------------

def sse(obj):
    return b"data: " + obj + b"\n\n"


def oa_content(c):
    return b'{"choices":[{"index":0,"delta":{"content":"' + c + b'"}}]}'


def oa_call(i, name, args, cid=b"c"):
    return (b'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"' % i + cid
            + b'","type":"function","function":{"name":"' + name + b'","arguments":"' + args + b'"}}]}}]}')


def ol(content=b"", extra=b"", done=b"false"):
    return (b'{"model":"m","message":{"role":"assistant","content":"' + content + b'"' + extra
            + b'},"done":' + done + b"}\n")


WIRE_INPUTS = ("openai", "ollama", "llama-server", "auto")


def wire_probes():
    """Hostile server streams: giant lines, no newlines, deep nesting,
    invalid UTF-8, NUL, huge numbers, duplicate keys, many calls."""
    P = []
    for kind in ("openai", "auto"):
        a = ["stream", "--input", kind]
        P.append((f"wire-{kind}-giant-data-line", a, lambda n: sse(oa_content(b"x" * n)), 4_000_000, None))
        P.append((f"wire-{kind}-giant-data-line-esc", a, lambda n: sse(oa_content(b"\\u001b[2J" * n)), 500_000, None))
        P.append((f"wire-{kind}-no-newlines", a, rep(b"data: " + oa_content(b"x")), 50_000, None))
        P.append((f"wire-{kind}-deep", a, lambda n: sse(b'{"choices":[{"delta":{"content":"x","x":' + b"[" * n + b"]" * n + b"}}]}"), 100_000, None))
        P.append((f"wire-{kind}-deep-open", a, lambda n: sse(b'{"choices":[{"delta":{"x":' + b"[" * n), 100_000, None))
        P.append((f"wire-{kind}-invalid-utf8", a, rep(sse(oa_content(b"\xff\xfe\xc0\x80x"))), 20_000, None))
        P.append((f"wire-{kind}-nul", a, rep(sse(oa_content(b"\x00x")) + b"\x00"), 20_000, None))
        P.append((f"wire-{kind}-huge-index", a, lambda n: sse(b'{"choices":[{"delta":{"tool_calls":[{"index":' + b"9" * n + b',"function":{"name":"f","arguments":"{}"}}]}}]}'), 250_000, None))
        P.append((f"wire-{kind}-huge-float", a, lambda n: sse(b'{"choices":[{"delta":{"content":"x"}}],"usage":{"total_tokens":1e' + b"9" * n + b"}}"), 250_000, None))
        P.append((f"wire-{kind}-dup-keys", a, lambda n: sse(b"{" + b'"choices":[{"delta":{"content":"x"}}],' * n + b'"id":"i"}'), 50_000, None))
        P.append((f"wire-{kind}-many-call-indices", a, lambda n: b"".join(sse(oa_call(i, b"f", b"{}", b"c%d" % i)) for i in range(n)), 10_000, None))
        P.append((f"wire-{kind}-sparse-call-indices", a, lambda n: b"".join(sse(oa_call(i * 1_000_000, b"f", b"{}", b"c%d" % i)) for i in range(n)), 5_000, None))
        P.append((f"wire-{kind}-arg-fragments", a, lambda n: sse(oa_call(0, b"f", b"")) + b"".join(sse(oa_call(0, b"", b"[")) for _ in range(n)), 20_000, None))
        P.append((f"wire-{kind}-name-fragments", a, lambda n: b"".join(sse(oa_call(0, b"f", b"")) for _ in range(n)), 20_000, None))
        P.append((f"wire-{kind}-id-churn", a, lambda n: b"".join(sse(oa_call(0, b"f", b"{}", b"c%d" % i)) for i in range(n)), 10_000, None))
        P.append((f"wire-{kind}-giant-args", a, lambda n: sse(oa_call(0, b"f", b'{\\"a\\":\\"' + b"x" * n + b'\\"}')), 4_000_000, None))
        P.append((f"wire-{kind}-multiline-data", a, lambda n: b'data: {"choices":[{"delta":{"content":\n' + b'data: "x"\n' * 1 + b"data: \n" * n + b"data: }}]}\n\n", 100_000, None))
        P.append((f"wire-{kind}-comments", a, lambda n: b": keepalive\n" * n + sse(oa_content(b"x")), 200_000, None))
        P.append((f"wire-{kind}-event-fields", a, lambda n: b"event: " + b"e" * n + b"\nid: " + b"i" * n + b"\nretry: " + b"9" * n + b"\n" + sse(oa_content(b"x")), 1_000_000, None))
        P.append((f"wire-{kind}-error-esc", a, rep(sse(b'{"error":{"message":"\\u001b]0;pwned\\u0007\\u001b[2J' + b'"}}')), 100, None))
        P.append((f"wire-{kind}-raw-esc", a, rep(b"data: " + ESC.encode() + b"\n\n"), 1_000, None))
        P.append((f"wire-{kind}-responses-items", a, lambda n: b"".join(
            b"event: response.function_call_arguments.delta\n" + sse(b'{"type":"response.function_call_arguments.delta","item_id":"i%d","output_index":%d,"delta":"{}"}' % (i, i)) for i in range(n)), 10_000, None))
        P.append((f"wire-{kind}-responses-deltas", a, lambda n: sse(b'{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"i","call_id":"c","name":"f","arguments":""}}') + b"".join(
            sse(b'{"type":"response.function_call_arguments.delta","item_id":"i","output_index":0,"delta":"["}') for _ in range(n)), 20_000, None))
    for kind in ("ollama", "auto"):
        a = ["stream", "--input", kind]
        P.append((f"wire-{kind}-nd-giant-line", a, lambda n: ol(b"x" * n), 4_000_000, None))
        P.append((f"wire-{kind}-nd-no-newlines", a, rep(ol(b"x")[:-1]), 50_000, None))
        P.append((f"wire-{kind}-nd-deep", a, lambda n: ol(b"x", b',"x":' + b"[" * n + b"]" * n), 100_000, None))
        P.append((f"wire-{kind}-nd-deep-open", a, lambda n: b'{"model":"m","message":{"x":' + b"[" * n + b"\n", 100_000, None))
        P.append((f"wire-{kind}-nd-invalid-utf8", a, rep(ol(b"\xff\xfe\xc0\x80x")), 20_000, None))
        P.append((f"wire-{kind}-nd-nul", a, rep(ol(b"\x00x") + b"\x00\n"), 20_000, None))
        P.append((f"wire-{kind}-nd-many-calls", a, lambda n: ol(b"", b',"tool_calls":[' + b",".join([b'{"function":{"name":"f","arguments":{"a":1}}}'] * n) + b"]"), 20_000, None))
        P.append((f"wire-{kind}-nd-deep-args", a, lambda n: ol(b"", b',"tool_calls":[{"function":{"name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}}]"), 100_000, None))
        P.append((f"wire-{kind}-nd-huge-num", a, lambda n: ol(b"x", b',"eval_count":' + b"9" * n), 250_000, None))
        P.append((f"wire-{kind}-nd-dup-keys", a, lambda n: b'{"model":"m",' + b'"message":{"role":"assistant","content":"x"},' * n + b'"done":false}\n', 50_000, None))
        P.append((f"wire-{kind}-nd-error-esc", a, rep(b'{"error":"\\u001b]0;pwned\\u0007\\u001b[2J"}\n'), 10, None))
        P.append((f"wire-{kind}-nd-garbage-lines", a, rep(b"{" + ESC.encode() + b"\n" + ol(b"x")), 5_000, None))
    a = ["stream", "--input", "llama-server"]
    P.append(("wire-llama-giant-line", a, lambda n: sse(b'{"content":"' + b"x" * n + b'","stop":false}'), 4_000_000, None))
    P.append(("wire-llama-deep", a, lambda n: sse(b'{"content":"x","x":' + b"[" * n + b"]" * n + b"}"), 100_000, None))
    P.append(("wire-llama-many", a, rep(sse(b'{"content":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>","stop":false}')), 10_000, None))
    a = ["stream", "--input", "terminal"]
    P.append(("wire-terminal-escapes", a, rep(b"\x1b[" + b"1;" * 10 + b"m\x1b[2K\rx"), 100_000, None))
    P.append(("wire-terminal-long-csi", a, lambda n: b"\x1b[" + b"1;" * n + b"mx", 500_000, None))
    P.append(("wire-terminal-osc-open", a, lambda n: b"\x1b]0;" + b"x" * n, 1_000_000, None))
    P.append(("wire-terminal-thinking", a, lambda n: b"Thinking...\n" + b"x" * n + b"\n...done thinking.\n" + b'<tool_call>{"name":"f","arguments":{}}</tool_call>', 2_000_000, None))
    P.append(("wire-terminal-spinner", a, rep("\x1b[?25l⠋ \x1b[?25h\x1b[K".encode()), 100_000, None))
    for cmd in ("parse", "validate"):
        extra = ["--tools", "@tools.json"] if cmd == "validate" else []
        P.append((f"messages-{cmd}-deep", [cmd, "--input", "messages"] + extra, lambda n: b'{"messages":[{"role":"assistant","content":' + b"[" * n + b"]" * n + b"}]}", 100_000, {"tools.json": TOOLS}))
        P.append((f"messages-{cmd}-invalid-utf8", [cmd, "--input", "messages"] + extra, rep(b'{"messages":[{"role":"assistant","content":"\xff\xfe<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}]}\n'), 5_000, {"tools.json": TOOLS}))
        P.append((f"messages-{cmd}-huge-content", [cmd, "--input", "messages"] + extra, lambda n: b'{"messages":[{"role":"assistant","content":"' + b"x" * n + b'"}]}', 4_000_000, {"tools.json": TOOLS}))
        P.append((f"messages-{cmd}-esc-lines", [cmd, "--input", "messages", "-v"] + extra, rep(b"{" + ESC.encode() + b"\n"), 100, {"tools.json": TOOLS}))
    return P


# ----- 14. split, validate (sessions, --convert), render, names -----------------

def claude_line(i, sid=b"s1"):
    return (b'{"type":"assistant","sessionId":"' + sid + b'","uuid":"a%d","message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"f","input":{"a":"x"}}]}}\n' % (i, i, i))


def command_probes():
    P = []
    P.append(("split-invalid-utf8", ["split"], rep(b"\xff\xfe<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\x00"), 20_000, None))
    P.append(("split-giant-text", ["split"], lambda n: b"x" * n, 8_000_000, None))
    P.append(("split-think-nested", ["split"], lambda n: b"<think>" * n, 50_000, None))
    P.append(("split-lines", ["split", "--lines"], rep(b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n'), 20_000, None))
    P.append(("validate-session-many", ["validate"], lambda n: b"".join(claude_line(i) for i in range(n)), 20_000, None))
    P.append(("validate-session-many-ids", ["validate"], lambda n: b"".join(claude_line(i, b"s%d" % i) for i in range(n)), 10_000, None))
    P.append(("validate-session-one-message-many-lines", ["validate"], lambda n: b"".join(claude_line(0) for i in range(n)), 20_000, None))
    P.append(("validate-codex-many", ["validate"], lambda n: b'{"type":"session_meta","payload":{"id":"r1"}}\n' + b"".join(
        b'{"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c%d"}}\n' % i for i in range(n)), 20_000, None))
    P.append(("validate-session-esc", ["validate", "-v"], rep(('{"type":"assistant","sessionId":"' + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") + '","message":{"role":"' + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") + '","content":[{"type":"tool_use","name":"\\u001b[2J","input":1}]}}\n').encode()), 20, None))
    P.append(("convert-many", ["validate", "--convert", "openai"], rep(b'{"conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}]}\n'), 5_000, None))
    P.append(("convert-deep", ["validate", "--convert", "openai"], lambda n: b'{"conversations":[{"from":"gpt","value":' + b"[" * n + b"]" * n + b"}]}\n", 100_000, None))
    P.append(("convert-huge-value", ["validate", "--convert", "openai"], lambda n: b'{"conversations":[{"from":"gpt","value":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{\\"a\\":\\"' + b"x" * n + b'\\"}}</tool_call>"}]}\n', 2_000_000, None))
    P.append(("convert-invalid-utf8", ["validate", "--convert", "openai"], rep(b'{"conversations":[{"from":"gpt","value":"\xff\xfe\x00"}]}\n'), 5_000, None))
    P.append(("convert-esc", ["validate", "--convert", "openai", "-v"], rep(b"{" + ESC.encode() + b"\n"), 100, None))
    P.append(("convert-many-tools", ["validate", "--convert", "openai"], lambda n: b'{"conversations":[{"from":"system","value":"<tools>[' + b",".join(b'{\\"name\\":\\"t%d\\",\\"parameters\\":{}}' % i for i in range(n)) + b']</tools>"},{"from":"gpt","value":"hi"}]}\n', 10_000, None))
    P.append(("render-result-invalid-utf8", ["render", "result", "--family", "hermes", "--id", "c", "--name", "f"], rep(b"\xff\x00\x1b[2J"), 100_000, None))
    P.append(("render-result-ndjson-many", ["render", "result", "--family", "hermes", "--ndjson"], rep(b'{"type":"tool_result","id":"c","name":"f","content":"x"}\n'), 20_000, None))
    P.append(("render-result-ndjson-esc", ["render", "result", "--family", "hermes", "--ndjson"], rep(b"{" + ESC.encode() + b"\n"), 100, None))
    P.append(("render-call-esc-lines", ["render", "call", "--family", "hermes"], rep(b"{" + ESC.encode() + b"\n"), 100, None))
    P.append(("render-tools-invalid-utf8", ["render", "tools", "--family", "hermes"], lambda n: b'[{"name":"f\xff","parameters":{}}]', 1, None))
    P.append(("render-tools-many", ["render", "tools", "--family", "qwen3-coder"], lambda n: b"[" + b",".join(b'{"name":"t%d","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}' % i for i in range(n)) + b"]", 10_000, None))
    # file names with escapes and invalid UTF-8: on the command line
    for cmd in (["parse"], ["stream"], ["split"], ["repair"], ["validate", "--tools", "@tools.json"], ["render", "result", "--family", "hermes", "--id", "c", "--name", "f"], ["exec", "--tools", "@tools.json", "--dry-run"]):
        P.append((f"filename-esc-{cmd[0]}-{cmd[-1] if cmd[0] in ('render', 'exec') else ''}", cmd + ["@BADNAME"], lambda n: b"", 1, {"tools.json": TOOLS, "BADNAME": "missing"}))
    P.append(("filename-esc-tools", ["validate", "--tools", "@BADNAME"], lambda n: b"x", 1, {"BADNAME": "missing"}))
    P.append(("filename-esc-config", ["parse", "--config", "@BADNAME"], lambda n: b"x", 1, {"BADNAME": "missing"}))
    P.append(("filename-esc-history", ["loop", "--model-cmd", "true", "--history", "@BADNAME"], lambda n: b"x", 1, {"BADNAME": "missing"}))
    P.append(("filename-esc-tool-dir", ["exec", "--tools", "@tools.json", "--tool-dir", "@BADNAME", "--approve", "yes"], rep(b'<tool_call>{"name":"f","arguments":{"a":"x"}}</tool_call>\n'), 1, {"tools.json": TOOLS, "BADNAME": "missing"}))
    P.append(("filename-esc-existing", ["parse", "-v", "@BADNAME"], lambda n: b"", 1, {"BADNAME": "present"}))
    P.append(("filename-esc-dir", ["parse", "@BADNAME"], lambda n: b"", 1, {"BADNAME": "dir"}))
    P.append(("flag-value-esc", ["parse", "-f", ESC], lambda n: b"x", 1, None))
    P.append(("flag-value-esc-field", ["parse", "--field", ESC + "\udcff"], lambda n: b"{}", 1, None))
    P.append(("flag-value-esc-model", ["parse", "--model", ESC], lambda n: b"x", 1, None))
    P.append(("flag-value-esc-bind", ["exec", "--tools", "@tools.json", "--bind", ESC], lambda n: b"x", 1, {"tools.json": TOOLS}))
    P.append(("flag-value-esc-allow", ["exec", "--tools", "@tools.json", "--allow", ESC + ":" + ESC], lambda n: b"x", 1, {"tools.json": TOOLS}))
    P.append(("flag-value-esc-render", ["render", "tools", "--family", ESC], lambda n: b"[]", 1, None))
    return P


# ----- 15. the agent: the model (or its reply) is the attacker ----------------

AGENT_TOOLS = b"""[{"type":"function","function":{"name":"f","parameters":{"type":"object",
"properties":{"a":{"type":"string"}},"required":["a"]}},"x-toolcall":{"risk":"safe","exec":["sh","-c","wc -c"]}}]"""


def agent_probes():
    P = []
    loop = ["loop", "--tools", "@tools.json", "--model-cmd", "cat reply", "--max-iterations", "2", "--delay", "0", "--approve", "deny"]
    T = {"tools.json": AGENT_TOOLS}
    def with_reply(gen):
        return dict(T, reply=gen)
    call = lambda name, args: b'<tool_call>{"name":"' + name + b'","arguments":' + args + b"}</tool_call>"
    P.append(("loop-reply-giant-line", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: b"x" * (n * 4_000_000))))
    P.append(("loop-reply-many-calls", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: call(b"f", b'{"a":"x"}') * (n * 2_000))))
    P.append(("loop-reply-many-unknown", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: b"".join(call(b"g%d" % i, b"{}") for i in range(n * 2_000)))))
    P.append(("loop-reply-huge-arg", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: call(b"f", b'{"a":"' + b"x" * (n * 4_000_000) + b'"}'))))
    P.append(("loop-reply-deep-arg", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: call(b"f", b'{"a":' + b"[" * (n * 25_000) + b"]" * (n * 25_000) + b"}"))))
    P.append(("loop-reply-invalid-utf8", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: b"\xff\x00" * (n * 100_000) + call(b"f", b'{"a":"\xff"}'))))
    P.append(("loop-reply-esc-names", loop + ["hi"], lambda n: b"", 1, with_reply(lambda n: call(("../" + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007")).encode(), ('{"' + ESC.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") + '":1}').encode()) + ESC.encode())))
    P.append(("loop-reply-wire-giant", loop + ["--input", "openai", "hi"], lambda n: b"", 1, with_reply(lambda n: sse(oa_content(b"x" * (n * 4_000_000))))))
    P.append(("loop-reply-wire-many-calls", loop + ["--input", "openai", "hi"], lambda n: b"", 1, with_reply(lambda n: b"".join(sse(oa_call(i, b"f", b'{\\"a\\":\\"x\\"}', b"c%d" % i)) for i in range(n * 2_000)))))
    P.append(("loop-reply-error-esc", loop + ["--input", "openai", "hi"], lambda n: b"", 1, with_reply(sse(b'{"error":{"message":"\\u001b]0;pwned\\u0007\\u001b[2J"}}'))))
    P.append(("loop-message-huge", loop + ["-"], lambda n: b"x" * n, 4_000_000, with_reply(b"ok")))
    P.append(("loop-message-esc", loop + [ESC + "\xff"], lambda n: b"", 1, with_reply(b"ok")))
    # The model command's own stderr is the user's program's and reaches the
    # terminal as it is (docs/agent.md); what toolcall says of it is escaped.
    P.append(("loop-model-fails-esc", ["loop", "--tools", "@tools.json", "--model-cmd", "printf '\\033]0;pwned\\007'; exit 3", "--max-iterations", "1", "hi"], lambda n: b"", 1, T))
    ex = ["exec", "--tools", "@tools.json", "--approve", "yes"]
    P.append(("exec-huge-arg-run", ex, lambda n: call(b"f", b'{"a":"' + b"x" * n + b'"}'), 4_000_000, T))
    P.append(("exec-tool-output-esc", ["exec", "--tools", "@t2.json", "--approve", "yes", "-v"], rep(call(b"f", b'{"a":"x"}') + b"\n"), 5,
              {"t2.json": b'[{"name":"f","parameters":{"type":"object"},"x-toolcall":{"risk":"safe","exec":["sh","tool.sh"]}}]',
               "tool.sh": b"printf '\\033]0;pwned\\007\\377' >&2; printf '\\033[2J\\377'; exit 3\n"}))
    P.append(("exec-many-refused", ["exec", "--tools", "@tools.json", "--approve", "deny", "--unknown-risk", "high"], rep(call(b"g", b"{}") + b"\n"), 2_000, T))
    # a model command that echoes its prompt (llama-cli does): the echo, a
    # 4N-byte user message, is dropped, not re-read; a tool whose output is
    # call markup, with a model that echoes, runs once
    P.append(("loop-echo-giant-message", ["loop", "--tools", "@tools.json", "--model-cmd", "cat", "--max-iterations", "1", "--delay", "0", "-"], lambda n: b"<tool_call>" * n, 300_000, T))
    echo_tools = b'[{"name":"f","parameters":{"type":"object"},"x-toolcall":{"risk":"safe","exec":["sh","-c","printf \'<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>\'"]}}]'
    P.append(("loop-echo-tool-markup", ["loop", "--tools", "@t3.json", "--model-cmd", "if [ \"$TOOLCALL_ITERATION\" = 1 ]; then printf '<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>'; else cat; fi", "--max-iterations", "3", "--delay", "0", "--approve", "yes", "hi"], lambda n: b"", 1, {"t3.json": echo_tools}))
    # an echo re-spaced (blanks aside it is still dropped) and an echo cut
    # by a byte (then every call in it is a piece of the prompt: each is
    # checked against the prompt's fingerprints, and asked about)
    P.append(("loop-echo-respaced-giant", ["loop", "--tools", "@tools.json", "--model-cmd", "sed 's/^/  /'", "--max-iterations", "1", "--delay", "0", "-"], lambda n: b"<tool_call>\n" * n, 200_000, T))
    P.append(("loop-echo-cut-many-calls", ["loop", "--tools", "@tools.json", "--model-cmd", "tail -c +2", "--max-iterations", "1", "--delay", "0", "--approve", "deny", "--max-tool-runs", "100000", "-"], lambda n: b"".join(b'<tool_call>{"name":"f","arguments":{"a":"%d"}}</tool_call>\n' % i for i in range(n)), 2_000, T))
    # paths a tool reads otherwise than their normalised form: NUL, blanks
    P.append(("exec-path-nul-blank", ex + ["--allow", "f:/p=/tmp/**"], lambda n: b"".join(call(b"f", b'{"p":"%s"}' % v) for v in (b"/tmp/../etc/x\\u0000/../../../tmp/y", b" /../../../tmp/y", b"/tmp/y\\n")) * n, 1, T))
    P.append(("exec-path-names", ex + ["--tool-dir", "."], lambda n: b"".join(call(nm, b"{}") for nm in (b"../reply", b"./reply", b"/bin/sh", b"..", b".", b"reply/", b"-h", b"--help", b"f;sh", b"f\\u0000", b"f\\n"))* n, 1, T))
    # approval widening, again (the hostile round of s55): duplicate keys
    # where one copy passes and the other runs, tool names that differ by
    # case, namespace, blanks, NUL or a confusable, a found-upward config
    # with duplicate or escaped keys; each must run nothing past the rules
    dup = [{"name": "write", "parameters": {"type": "object"}, "x-toolcall": {"risk": "critical", "exec": ["sh", "-c", "cat"]}},
           {"name": "Write", "parameters": {"type": "object"}, "x-toolcall": {"risk": "safe", "exec": ["sh", "-c", "cat"]}},
           {"name": "w", "parameters": {"type": "object"}, "x-toolcall": {"risk": "safe", "exec": ["sh", "-c", "cat"]}},
           {"name": "w", "parameters": {"type": "object"}, "x-toolcall": {"risk": "critical", "exec": ["sh", "-c", "cat"]}}]
    import json as _json
    T4 = {"t4.json": _json.dumps(dup).encode()}
    names = ("write", "Write", "WRITE", "wr\u0456te", "functions.write", " write", "write\u0000", "write\u200b", "\uff57rite", "w")
    P.append(("approve-name-variants", ["exec", "--tools", "@t4.json", "--auto-approve", "low", "--deny", "write"],
              lambda n: b"".join(call(nm.encode(), b'{"path":"/etc/x"}') for nm in names) * n, 1, T4))
    P.append(("approve-dup-keys", ex + ["--allow", "f:/p=/tmp/**"], lambda n: b"".join(
        call(b"f", a) for a in (b'{"p":"/etc/x","p":"/tmp/y"}', b'{"p":"/tmp/y","p":"/etc/x"}', b'"{\\"p\\":\\"/tmp/y\\",\\"p\\":\\"/etc/x\\"}"')) * n, 1, T))
    P.append(("approve-config-found-upward", ["exec", "--tools", "@tools.json"], rep(call(b"f", b'{"a":"x"}')), 1,
              dict(T, **{".toolcall.json5": b'{auto_approval_threshold: "safe", "auto\\u005fapproval_threshold": "critical", unknown_tool_risk: "safe", unknown_tool_risk: "safe"}'})))
    P.append(("approve-path-variants", ["exec", "--tools", "@tools.json", "--approve", "deny", "--allow", "f:/p=/tmp/**"], lambda n: b"".join(
        call(b"f", b'{"p":%s}' % v) for v in (b'"/tmp/x\\n"', b'"/tmp/x\\r"', b'["/etc/x"]', b'{"a":"/etc/x"}', b'"//tmp/../etc/x"', b'"/tmp//../etc/x"', b'"/tmp\\\\/../etc"', b"123", b"null")) * n, 1, T))
    return P


# ----- 16. the size-doubling sweep (--sweep): every subcommand -----------------

def format_markers():
    """{format id: [markers]} from `toolcall formats --json` (the binary the
    sweep runs), so every format's markers are swept."""
    out = {}
    try:
        text = subprocess.run([BIN[0], "formats", "--json"], capture_output=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return out
    import json
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        out[r["id"]] = [m for m in r.get("markers", []) if m]
    return out


def sweep_probes():
    """Inputs for every subcommand, swept at N, 2N, 4N and 8N (`--sweep`)."""
    P = []
    M = format_markers()
    every = sorted({m for ms in M.values() for m in ms})
    openers = "".join(m + " " for m in every).encode()
    almost = "".join(m[:-1] + " " for m in every if len(m) > 1).encode()
    call = b'<tool_call>{"name":"f","arguments":{"a":"x"}}</tool_call>\n'
    # model text, whole documents and streams
    for cmd in (["parse"], ["split"], ["stream", "--chunk-size", "1"], ["validate", "--tools", "@tools.json"]):
        tag = cmd[0] + ("1" if "1" in cmd else "")
        small = 4 if cmd[0] in ("stream",) else 1
        P.append((f"sweep-{tag}-all-openers", cmd, rep(openers), 1_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-almost-markers", cmd, rep(almost), 1_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-tiny-calls", cmd, rep(call), 20_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-long-line", cmd, lambda n: b"a<b[c{d" * n, 200_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-think-open", cmd, rep(b"<think>"), 20_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-think-close", cmd, rep(b"</think>"), 20_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-think-pairs", cmd, rep(b"<think>r</think>t"), 20_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-harmony-headers", cmd, rep(b"<|start|>assistant<|channel|>analysis<|message|>x<|end|>"), 5_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-harmony-open", cmd, rep(b"<|channel|>commentary to=functions.f "), 5_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-deep", cmd, lambda n: b'<tool_call>{"name":"f","arguments":{"a":' + b"[" * n + b"]" * n + b"}}</tool_call>", 50_000 // small, {"tools.json": TOOLS}))
        P.append((f"sweep-{tag}-long-name", cmd, lambda n: b'<tool_call>{"name":"' + b"n" * n + b'","arguments":{}}</tool_call>', 100_000 // small, {"tools.json": TOOLS}))
    # each format alone, its markers run together
    for fid, ms in sorted(M.items()):
        unit = "".join(m + " " for m in ms).encode()
        P.append((f"sweep-format-{fid}", ["parse", "-f", fid], rep(unit), 2_000, None))
    # many documents
    P.append(("sweep-parse-lines", ["parse", "--lines"], rep(call), 20_000, None))
    P.append(("sweep-parse-field", ["parse", "--field", ".text"], rep(b'{"text":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}\n'), 20_000, None))
    P.append(("sweep-stream-openai-long-id", ["stream", "--input", "openai"], lambda n: sse(oa_call(0, b"f", b"{}", b"c" * n)), 16_000, None))
    # conversations
    P.append(("sweep-validate-messages-many", ["validate", "--tools", "@tools.json"], lambda n: b'{"messages":[' + b",".join(
        b'{"role":"assistant","tool_calls":[{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c%d","content":"x"}' % (i, i) for i in range(n)) + b"]}", 10_000, {"tools.json": TOOLS}))
    P.append(("sweep-validate-conversations-lines", ["validate", "--tools", "@tools.json"], rep(b'{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}]}\n'), 10_000, {"tools.json": TOOLS}))
    P.append(("sweep-convert-many", ["validate", "--convert", "openai"], rep(b'{"conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"<tool_call>{\\"name\\":\\"f\\",\\"arguments\\":{}}</tool_call>"}]}\n'), 5_000, None))
    # tools: many, huge schemas, duplicate and case-differing names
    many_tools = lambda n: b"[" + b",".join(b'{"name":"t%d","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}' % i for i in range(n)) + b"]"
    huge_schema = lambda n: b'[{"name":"f","parameters":{"type":"object","properties":{' + b",".join(b'"p%d":{"type":"string","pattern":"^a+$"}' % i for i in range(n)) + b"}}}]"
    dup_tools = lambda n: b"[" + b",".join(b'{"name":"%s","parameters":{"type":"object"}}' % (b"F" if i % 2 else b"f") for i in range(n)) + b"]"
    one = lambda n: b'<tool_call>{"name":"t1","arguments":{"a":"x"}}</tool_call>\n'
    P.append(("sweep-validate-many-tools", ["validate", "--tools", "@t.json"], one, 5_000, {"t.json": many_tools}))
    P.append(("sweep-validate-huge-schema", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{' + b",".join(b'"p%d":"a"' % i for i in range(n)) + b"}}</tool_call>", 2_000, {"t.json": huge_schema}))
    P.append(("sweep-validate-dup-tools", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{}}</tool_call>\n', 5_000, {"t.json": dup_tools}))
    P.append(("sweep-validate-calls-many-tools", ["validate", "--tools", "@t.json"], lambda n: b"".join(b'<tool_call>{"name":"t%d","arguments":{"a":"x"}}</tool_call>\n' % i for i in range(n)), 2_000, {"t.json": many_tools}))
    P.append(("sweep-validate-dup-keys", ["validate", "--tools", "@tools.json"], lambda n: b'<tool_call>{"name":"f","arguments":{' + b'"a":"x",' * n + b'"b":1}}</tool_call>', 20_000, {"tools.json": TOOLS}))
    # repair: pathological JSON and JSON5
    for tag, unit in (("open-arrays", b"["), ("open-objects", b'{"a":'), ("quotes", b"'"), ("comments", b"/*"),
                      ("json5-keys", b"{a:1,"), ("escapes", b'"\\'), ("literals", b"tru "), ("commas", b",,"),
                      ("python", b"{'a': True, "), ("unclosed-strings", b'["x'), ("line-comments", b"//\n[")):
        P.append((f"sweep-repair-{tag}", ["repair"], rep(unit), 20_000, None))
        P.append((f"sweep-repair-report-{tag}", ["repair", "--report", "--max-depth", "10000"], rep(unit), 20_000, None))
    # render
    P.append(("sweep-render-tools", ["render", "tools", "--family", "hermes"], many_tools, 2_000, None))
    P.append(("sweep-render-call", ["render", "call", "--family", "hermes"], rep(b'{"name":"f","arguments":{"a":"x"}}\n'), 5_000, None))
    P.append(("sweep-render-result", ["render", "result", "--family", "hermes", "--ndjson"], rep(b'{"type":"tool_result","id":"c","name":"f","content":"x"}\n'), 5_000, None))
    # exec and loop: refused calls (no process per call), many tools
    P.append(("sweep-exec-refused", ["exec", "--tools", "@tools.json", "--approve", "deny"], rep(call), 2_000, {"tools.json": TOOLS}))
    P.append(("sweep-exec-unknown", ["exec", "--tools", "@tools.json", "--approve", "deny"], lambda n: b"".join(b'<tool_call>{"name":"g%d","arguments":{}}</tool_call>\n' % i for i in range(n)), 2_000, {"tools.json": TOOLS}))
    P.append(("sweep-exec-many-tools", ["exec", "--tools", "@t.json", "--approve", "deny"], one, 5_000, {"t.json": many_tools}))
    loop = ["loop", "--tools", "@tools.json", "--model-cmd", "cat reply", "--max-iterations", "1", "--delay", "0", "--approve", "deny", "--max-tool-runs", "100000", "hi"]
    P.append(("sweep-loop-many-calls", loop, lambda n: b"", 1_000, {"tools.json": AGENT_TOOLS, "reply": lambda n: call.replace(b'"f"', b'"g"') * n}))
    P.append(("sweep-loop-echo-calls", ["loop", "--tools", "@tools.json", "--model-cmd", "sed \"s/\\\"/'/g\"", "--max-iterations", "1", "--delay", "0", "--approve", "deny", "--max-tool-runs", "100000", "-"],
              lambda n: b"".join(b'<tool_call>{"name":"f","arguments":{"a":"%d"}}</tool_call>\n' % i for i in range(n)), 500, {"tools.json": AGENT_TOOLS}))
    # the newest paths (s56): Kimi K2 line leads (a line's first word held
    # at most 128 bytes until the argument token decides), lines of 127-129
    # bytes, Qwen3-Coder values holding tags, slot labels and template
    # blanks read back over, chat-template turns, one-document
    # conversations whose shape flips late, backtracking patterns
    arg = b"<|tool_call_argument_begin|>"
    kimi = ["parse", "-f", "kimi-k2"]
    for cmd, tag, small in ((["parse"], "parse", 1), (["stream", "--chunk-size", "1"], "stream1", 4), (kimi, "kimi", 1),
                            (["stream", "--chunk-size", "1", "-f", "kimi-k2"], "stream1-kimi", 4)):
        P.append((f"sweep-{tag}-line-leads", cmd, rep(b"functions.get_weather:12 then prose\n"), 20_000 // small, None))
        P.append((f"sweep-{tag}-headless-calls", cmd, rep(b'get_weather:0' + arg + b'{"city":"Paris"}\n'), 20_000 // small, None))
        P.append((f"sweep-{tag}-headless-open", cmd, rep(b"f:0" + arg + b'{"a":"\n'), 20_000 // small, None))
        P.append((f"sweep-{tag}-lines-127-129", cmd, rep(b"n" * 125 + b":0\n" + b"n" * 126 + b":0\n" + b"n" * 127 + b":0" + arg + b"\n"), 2_000 // small, None))
        P.append((f"sweep-{tag}-lead-runs", cmd, lambda n: b"a:0" * n + arg + b"{}", 100_000 // small, None))
    qwen = ["parse", "-f", "qwen3-coder-xml"]
    for cmd, tag, small in ((qwen, "qwen", 1), (["stream", "--chunk-size", "1", "-f", "qwen3-coder-xml"], "stream1-qwen", 4), (["parse"], "parse-qwen", 1)):
        head = b"<tool_call>\n<function=f>\n<parameter=a>\n"
        tail = b"\n</parameter>\n</function>\n</tool_call>"
        P.append((f"sweep-{tag}-nested-open", cmd, lambda n, h=head, t=tail: h + b"<parameter=b><function=g>" * n + t, 20_000 // small, None))
        P.append((f"sweep-{tag}-nested-closed", cmd, lambda n, h=head, t=tail: h + b"<parameter=b>x</parameter>" * n + t, 20_000 // small, None))
        P.append((f"sweep-{tag}-nested-calls", cmd, lambda n, h=head, t=tail: h + b"<tool_call><function=g><parameter=c>" * n + t, 20_000 // small, None))
        P.append((f"sweep-{tag}-many-params", cmd, lambda n, t=tail: b"<tool_call>\n<function=f>\n" + b"<parameter=a>\n<b>\n" * n + t, 20_000 // small, None))
    for cmd, tag, small in ((["parse"], "parse", 1), (["stream", "--chunk-size", "1"], "stream1", 4)):
        P.append((f"sweep-{tag}-slot-labels", cmd, rep(b"Action:\n" + call), 10_000 // small, None))
        P.append((f"sweep-{tag}-example-slot-labels", cmd, rep(b"So the output should look like this:\nTool call:\n" + call), 10_000 // small, None))
        P.append((f"sweep-{tag}-template-blanks", cmd, rep(b'<tool_call>{"name":"function_name","arguments":{"arg1":"value1","<param>":"..."}}</tool_call>\n'), 10_000 // small, None))
        P.append((f"sweep-{tag}-blank-bytes", cmd, lambda n: b'<tool_call>{"name":"f","arguments":{"a":"' + b'...<value ' * n + b'"}}</tool_call>', 50_000 // small, None))
        P.append((f"sweep-{tag}-chat-turns", cmd, rep(b"<|im_start|>assistant\n" + call + b"<|im_end|>\n<|im_start|>user\n" + call + b"<|im_end|>\n"), 5_000 // small, None))
    msg = b'{"role":"assistant","tool_calls":[{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c%d","content":"x"}'
    msgs = lambda n: b",".join(msg % (i, i) for i in range(n))
    for tag, doc in (("messages", lambda n: b'{"messages":[' + msgs(n) + b"]}"),
                     ("flip-parts", lambda n: b'{"messages":[' + msgs(n) + b',{"role":"user","parts":[{"text":"x"}]}]}'),
                     ("flip-key", lambda n: b'{"messages":[' + msgs(n) + b'],"contents":[]}'),
                     ("flip-second-list", lambda n: b'{"messages":[' + msgs(n) + b'],"conversations":[]}'),
                     ("flip-cut", lambda n: b'{"messages":[' + msgs(n) + b',{"role":"assistant","content":"<tool_call>')):
        P.append((f"sweep-validate-conversation-{tag}", ["validate", "--tools", "@tools.json"], doc, 5_000, {"tools.json": TOOLS}))
        P.append((f"sweep-parse-conversation-{tag}", ["parse", "--input", "messages"], doc, 5_000, None))
    # a pattern fancy-regex runs by backtracking (a look-around), against
    # many arguments: bounded by its backtracking limit per value
    bt = b"^(?=a)(a|a)*(?!a)\\\\w"
    bt_tools = b'[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"' + bt + b'"}}},"patternProperties":{"^p":{"type":"string","pattern":"' + bt + b'"}}}}]'
    P.append(("sweep-validate-backtrack-items", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{"a":[' + b",".join([b'"' + b"a" * 25 + b'!"'] * n) + b"]}}</tool_call>", 500, {"t.json": bt_tools}))
    P.append(("sweep-validate-backtrack-props", ["validate", "--tools", "@t.json"], lambda n: b'<tool_call>{"name":"f","arguments":{' + b",".join(b'"p%d":"%s!"' % (i, b"a" * 25) for i in range(n)) + b"}}</tool_call>", 500, {"t.json": bt_tools}))
    P.append(("sweep-validate-backtrack-calls", ["validate", "--tools", "@t.json"], rep(b'<tool_call>{"name":"f","arguments":{"p":"' + b"a" * 25 + b'!"}}</tool_call>\n'), 25, {"t.json": bt_tools}))
    return P


def materialise(files, n, tmp):
    """Writes the case's files for size n; returns {placeholder: path}."""
    paths = {}
    for name, content in (files or {}).items():
        if name.endswith("/"):
            d = os.path.join(tmp, name.rstrip("/"))
            os.makedirs(d, exist_ok=True)
            if content == "symloop":
                os.makedirs(os.path.join(d, "a", "b"), exist_ok=True)
                for i, target in enumerate(("..", "../..", d, "a")):
                    try:
                        os.symlink(target, os.path.join(d, "a", "b", f"loop{i}"))
                    except FileExistsError:
                        pass
                with open(os.path.join(d, "a", "x.txt"), "wb") as f:
                    f.write(b'<tool_call>{"name":"f","arguments":{}}</tool_call>')
            elif content == "escnames":
                for nm in ("a" + ESC.replace("/", "") + ".txt", "b\n\r.txt"):
                    with open(os.path.join(d, nm), "wb") as f:
                        f.write(b'<tool_call>{"name":"f","arguments":{}}</tool_call>\x00\xff')
                os.symlink("/nonexistent" + ESC, os.path.join(d, "dangling" + ESC.replace("/", "")))
            paths["@" + name.rstrip("/")] = d
            continue
        if name == "BADNAME":
            bad = os.path.join(tmp.encode(), b"n\x1b]0;pwned\x07\x1b[2J\xff\r\n.txt")
            if content == "present":
                with open(bad, "wb") as f:
                    f.write(b"x")
            elif content == "dir":
                os.makedirs(bad)
                with open(os.path.join(bad, b"\x1b[31m\xfe.txt"), "wb") as f:
                    f.write(b'<tool_call>{"name":"f","arguments":{}}</tool_call>')
            paths["@" + name] = os.fsdecode(bad)
            continue
        data = content(n) if callable(content) else content
        if name.isupper():
            paths["@" + name] = data.decode("latin-1")
            continue
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        paths["@" + name] = p
    return paths


def sweep(args):
    """N, 2N, 4N, 8N of each sweep probe: CPU seconds and peak RSS, and
    the growth of the last doubling (time past startup; memory past a run
    of nothing). Linear is 2; a probe whose 4N-to-8N growth passes 2.3
    (and that takes long enough to measure) is flagged."""
    bad = 0
    base_cpu, base_rss = 0.0, 4.0
    if args.markdown:
        print("| probe | command | N | CPU s at N | 2N | 4N | 8N | time ratio | RSS MiB at 8N | RSS ratio |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    for name, argv, gen, n, files in sweep_probes():
        if args.only and not any(o in name for o in args.only):
            continue
        if args.list:
            print(name)
            continue
        n = max(1, int(n * args.scale))
        rows = []
        for size in (n, 2 * n, 4 * n, 8 * n):
            tmp = tempfile.mkdtemp(prefix="tcsweep-")
            try:
                paths = materialise(files, size, tmp)
                av = [paths.get(a, a) for a in argv]
                stdin = gen(size)
                status, secs, rss, err = run(args.bin, av, stdin, args.timeout, tmp)
                rows.append((status, CPU[0], rss, err))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        problems = []
        for k, (status, cpu, rss, err) in enumerate(rows):
            if status not in (0, 1, 2):
                problems.append(f"status {status} at {2 ** k}N")
            if b"panicked" in err:
                problems.append(f"panic at {2 ** k}N")
        t = [max(r[1] - base_cpu, 0.0) for r in rows]
        m = [max(r[2] - base_rss, 0.0) for r in rows]
        tr = t[3] / t[2] if t[2] > 0.02 else 0.0
        mr = m[3] / m[2] if m[2] > 4 else 0.0
        if tr > 2.3 and t[3] > 0.3:
            problems.append(f"time x{tr:.2f} per doubling")
        if mr > 2.3 and rows[3][2] > 64:
            problems.append(f"rss x{mr:.2f} per doubling")
        if problems:
            bad += 1
        cmd = " ".join(a for a in argv if not a.startswith("@"))[:60]
        if args.markdown:
            print(f"| `{name}` | `{cmd}` | {n} | {rows[0][1]:.2f} | {rows[1][1]:.2f} | {rows[2][1]:.2f} | {rows[3][1]:.2f} | "
                  f"{tr:.2f} | {rows[3][2]:.0f} | {mr:.2f} |" + (f" **{'; '.join(problems)}**" if problems else ""), flush=True)
        else:
            print(f"{'FAIL' if problems else 'ok':4} {name:44} N={n:<7} cpu " + " ".join(f"{r[1]:6.2f}" for r in rows)
                  + f"  x{tr:.2f} | rss " + " ".join(f"{r[2]:6.0f}" for r in rows) + f"  x{mr:.2f}"
                  + (f"  [{'; '.join(problems)}]" if problems else ""), flush=True)
    print(f"{bad} probe(s) flagged", file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "toolcall"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--sweep", action="store_true",
                    help="the size-doubling sweep: N, 2N, 4N, 8N of the sweep- probes, flagging growth past 2.3x per doubling")
    ap.add_argument("--markdown", action="store_true", help="with --sweep: the table rows for docs/performance.md")
    args = ap.parse_args()
    BIN[0] = args.bin
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if args.sweep:
        return sweep(args)
    bad = 0
    for name, argv, gen, n, files in probes():
        if args.only and not any(o in name for o in args.only):
            continue
        if args.list:
            print(name)
            continue
        n = max(1, int(n * args.scale))
        results = []
        for size in (n, 4 * n):
            tmp = tempfile.mkdtemp(prefix="tcprobe-")
            try:
                paths = materialise(files, size, tmp)
                av = [paths.get(a, a) for a in argv]
                if any(a.startswith("@") and a in paths for a in argv) is False:
                    pass
                stdin = gen(size)
                status, secs, rss, err = run(args.bin, av, stdin, args.timeout, tmp)
                results.append((size, len(stdin), status, secs, rss, err))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        problems = []
        for size, ln, status, secs, rss, err in results:
            if status not in (0, 1, 2):
                problems.append(f"status {status} at {size}")
            if b"panicked" in err or b"RUST_BACKTRACE" in err:
                problems.append(f"panic at {size}")
            if "always" in argv:
                err = re.sub(rb"\x1b\[[0-9;]*m", b"", err)  # toolcall's own colours
            m = CTRL_RE.search(err)
            if m:
                problems.append(f"raw control {m.group()!r} on stderr at {size}")
        (n1, l1, s1, t1, r1, e1), (n4, l4, s4, t4, r4, e4) = results
        base = 4.0  # MiB a run of nothing takes
        if t1 > 0.05 and t4 / t1 > 10:
            problems.append(f"time x{t4 / t1:.1f}")
        if t4 > 2 and t1 <= 0.05:
            problems.append(f"time {t4:.2f}s at 4N")
        if (r4 - base) > 8 * max(r1 - base, 4) and r4 > 64:
            problems.append(f"rss x{(r4 - base) / max(r1 - base, 1):.1f}")
        if r4 > 1024:
            problems.append(f"rss {r4:.0f} MiB")
        flag = "FAIL" if problems else "ok"
        if problems:
            bad += 1
        first = (e4 or e1).decode("utf-8", "replace").strip().splitlines()
        msg = first[0][:100] if first else ""
        print(f"{flag:4} {name:48} N={n1:<8} {s1!s:>4} {t1:6.2f}s {r1:7.1f}M | 4N {s4!s:>4} {t4:6.2f}s {r4:7.1f}M"
              + (f"  [{'; '.join(problems)}]" if problems else "") + f"  {msg}", flush=True)
    print(f"{bad} probe(s) flagged", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
