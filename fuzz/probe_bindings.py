#!/usr/bin/env python3
"""Hostile-input probes for the Python bindings (and, with --node, the
Node package): every public function gets deep nesting, huge strings,
invalid UTF-8, NUL, escapes, self-referencing containers and wrong types.

Each case runs in a child interpreter, so a crash (a signal, an abort, a
stack overflow) is seen as such rather than killing the prober. A case
passes when the child exits normally: the call returned or raised an
exception that is a toolcall error (or a plain TypeError/ValueError for
a wrong type). It fails on a signal, a timeout, a non-toolcall
exception, or an interpreter exit other than 0.

    pip install ./python        # the extension must be importable
    python3 fuzz/probe_bindings.py [--python PY] [--only SUBSTRING] [--node]

The Node cases need the addon built (cd node && npm ci && npm run build).
"""

import argparse
import os
import subprocess
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)

DEEP = 200_000
BIG = 64 << 20

# Each case: (name, Python source of one expression or statement block).
# `tc` is the module; `deep_list(n)`, `cyclic()` are helpers defined below.
PRELUDE = r'''
import sys, toolcall as tc
sys.setrecursionlimit(10_000)
def deep_list(n):
    x = []
    for _ in range(n):
        x = [x]
    return x
def deep_dict(n):
    x = {}
    for _ in range(n):
        x = {"a": x}
    return x
def cyclic():
    a = []
    a.append(a)
    return a
def cyclic_dict():
    d = {}
    d["a"] = d
    return d
class Odd:
    def __str__(self):
        raise RuntimeError("no str")
DEEPJ = '<tool_call>{"name":"f","arguments":{"a":' + "[" * %(deep)d + "]" * %(deep)d + "}}</tool_call>"
DEEPJ_OPEN = '<tool_call>{"name":"f","arguments":{"a":' + "[" * %(deep)d
TOOLS = '[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]'
ESC = "\x1b]0;pwned\x07\x1b[2J"
ALLOWED = (tc.ToolcallError, TypeError, ValueError, OverflowError, RecursionError)
''' % {"deep": DEEP}

CASES = [
    # parse / split / repair: huge, deep, invalid UTF-8, NUL
    ("parse-deep", "tc.parse(DEEPJ)"),
    ("parse-deep-open", "tc.parse(DEEPJ_OPEN)"),
    ("parse-deep-bytes", "tc.parse(DEEPJ.encode())"),
    ("parse-invalid-utf8", "tc.parse(b'<tool_call>{\"name\":\"f\\xff\",\"arguments\":{\"a\":\"\\xfe\\x00\"}}</tool_call>' * 1000)"),
    ("parse-lone-surrogate-str", "tc.parse('<tool_call>{\"name\":\"f\\ud800\",\"arguments\":{}}</tool_call>')"),
    ("parse-huge", "tc.parse('x' * %d)" % BIG),
    ("parse-huge-arg", "d = tc.parse('<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":\"' + 'x' * %d + '\"}}</tool_call>'); [c.arguments for c in d.calls]" % (16 << 20)),
    ("parse-nul", "tc.parse('\\x00' * 1_000_000)"),
    ("parse-huge-number", "[c.arguments for c in tc.parse('<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":' + '9' * 100000 + '}}</tool_call>').calls]"),
    ("parse-huge-exp", "[c.arguments for c in tc.parse('<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1e' + '9' * 1000 + '}}</tool_call>').calls]"),
    ("parse-records", "[c.record() if hasattr(c, 'record') else c for c in tc.parse(DEEPJ).calls]"),
    ("parse-wrong-type", "tc.parse(12)"),
    ("parse-wrong-type-list", "tc.parse(['x'])"),
    ("parse-memoryview", "tc.parse(memoryview(b'<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>'))"),
    ("parse-bytearray", "tc.parse(bytearray(b'<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>'))"),
    ("split-deep", "tc.split(DEEPJ)"),
    ("split-invalid-utf8", "tc.split(b'\\xff\\xfe<think>\\x00' * 10000)"),
    ("repair-deep", "tc.repair('[' * %d)" % DEEP),
    ("repair-deep-closed", "tc.repair('[' * %d + ']' * %d)" % (DEEP, DEEP)),
    ("repair-json-deep", "tc.repair_json('[' * %d)" % DEEP),
    ("repair-json-deep-objects", "tc.repair_json('[' * %d, return_objects=True)" % DEEP),
    ("repair-json-deep-obj-objects", "tc.repair_json('{\"a\":' * %d, return_objects=True)" % DEEP),
    ("repair-json-invalid-utf8", "tc.repair_json(b'{\"a\":\"\\xff\\xfe\\x00\"}')"),
    ("repair-json-huge", "tc.repair_json('{\"a\":\"' + 'x' * %d)" % (16 << 20)),
    # the short-text fast path of repair_json (repair_text): deep, NUL,
    # lone surrogates, invalid bytes, at the lengths around its cut-over
    ("repair-fast-deep", "[tc.repair_json('[' * k) for k in (1, 63, 64, 65, 200, 255, 256, 257, 4096)]"),
    ("repair-fast-deep-obj", "[tc.repair_json('{\"a\":' * k) for k in (1, 40, 51, 52, 60, 200)]"),
    ("repair-fast-nul", "[tc.repair_json('{\"a\":\"' + '\\x00' * k) for k in (1, 100, 255, 256)]"),
    ("repair-fast-surrogate", "tc.repair_json('[\"\\ud800\", \\ud800')"),
    ("repair-fast-bytes", "tc.repair_json(b'{\"a\":\"\\xff\\xfe')"),
    ("repair-fast-wrong-type", "tc.repair_json(12)"),
    ("repair-fast-many", "[tc.repair_json('{\"a\":[1,2,' + str(i)) for i in range(200000)]"),
    ("repair-json-fd-huge", "import io; tc.repair_json(json_fd=io.StringIO('[' + '1,' * %d))" % (4 << 20)),
    ("repair-text-as-string-huge", "tc.repair('word ' * %d, text_as_string=True)" % (4 << 20)),
    # Tools options: out of range, huge, wrong types, each bound tripped
    # a bad engine option value: an OptionError naming the option (s55)
    ("parse-opt-neg", "tc.parse('x', max_block=-1)"),
    ("parse-opt-float", "tc.parse('x', think_window=1.5)"),
    ("parse-opt-string", "tc.split('x', max_errors_per_block='many')"),
    ("stream-opt-neg", "tc.StreamParser(max_buffer=-1)"),
    ("tools-opt-huge", "tc.Tools(TOOLS, max_tools_size=10**100)"),
    ("tools-opt-neg", "tc.Tools(TOOLS, max_schema_depth=-1)"),
    ("tools-opt-zero", "tc.Tools(TOOLS, max_schema_checks=0)"),
    ("tools-opt-nan", "tc.Tools(TOOLS, max_json5_depth=float('nan'))"),
    ("tools-opt-wrong-type", "tc.Tools(TOOLS, max_tools_size='big')"),
    ("tools-opt-cyclic", "tc.Tools(TOOLS, max_tools_size=cyclic())"),
    ("tools-opt-unknown", "tc.Tools(TOOLS, **{ESC: 1})"),
    ("tools-opt-size-tripped", "tc.Tools(TOOLS, max_tools_size=1)"),
    ("tools-opt-depth-tripped", "tc.Tools('[{\"name\":\"f\",\"parameters\":' + '{\"items\":' * 20 + '{}' + '}' * 20 + '}]', max_schema_depth=5)"),
    ("tools-opt-json5-tripped", "tc.Tools('// json5\\n' + '[' * 40 + ']' * 40, max_json5_depth=10)"),
    ("tools-opt-checks-tripped", "tc.Tools('{\"f\":{\"$defs\":{' + ','.join('\"d%d\":{\"anyOf\":[{\"$ref\":\"#/$defs/d%d\"},{\"$ref\":\"#/$defs/d%d\"}]}' % (i, i + 1, i + 1) for i in range(40)) + ',\"d40\":{}},\"$ref\":\"#/$defs/d0\"}}', max_schema_checks=1000)"),
    ("loads-deep", "tc.loads('[' * %d + ']' * %d)" % (DEEP, DEEP)),
    ("loads-deep-open", "tc.loads('{\"a\":' * %d)" % DEEP),
    # options: nested / cyclic values, wrong types
    ("options-cyclic", "tc.Options(format=cyclic())"),
    ("options-cyclic-dict", "tc.Options(format=cyclic_dict())"),
    ("options-deep-list", "tc.Options(format=deep_list(%d))" % DEEP),
    ("options-deep-dict", "tc.Options(generation_prompt=deep_dict(%d))" % DEEP),
    ("options-esc", "tc.Options(format=ESC)"),
    ("options-unknown-esc", "tc.Options(**{ESC: 1})"),
    ("options-huge-int", "tc.Options(max_block=10**100)"),
    ("options-neg", "tc.Options(max_block=-1)"),
    ("options-float-nan", "tc.Options(max_block=float('nan'))"),
    ("options-odd-key", "tc.Options(**{'format': Odd()})"),
    ("parse-options-cyclic", "tc.parse('x', format=cyclic())"),
    ("parse-options-deep", "tc.parse('x', generation_prompt=deep_list(%d))" % DEEP),
    # tools: deep, huge, invalid, cyclic
    ("tools-deep-json", "tc.Tools('[' * %d + ']' * %d)" % (DEEP, DEEP)),
    ("tools-deep-schema", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools='[{\"name\":\"f\",\"parameters\":' + '{\"items\":' * 50000 + '{}' + '}' * 50000 + '}]')"),
    ("tools-cyclic", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools=cyclic())"),
    ("tools-cyclic-dict", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools=[{'name': 'f', 'parameters': cyclic_dict()}])"),
    ("tools-deep-py", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools=[{'name': 'f', 'parameters': deep_dict(%d)}])" % DEEP),
    ("tools-esc", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools='[{\"name\":\"' + ESC + '\",\"oops\"')"),
    ("tools-path-missing", "tc.parse('x', tools='/nonexistent/' + ESC)"),
    ("tools-huge", "tc.validate([{'name': 'f', 'arguments': '{}'}], tools='[' + ','.join(['{\"name\":\"t%d\",\"parameters\":{}}' % i for i in range(200000)]) + ']')"),
    # validate: deep arguments, cyclic, huge
    ("validate-deep-args", "tc.validate([{'name': 'f', 'arguments': '[' * %d + ']' * %d}], tools=TOOLS)" % (DEEP, DEEP)),
    ("validate-cyclic-args", "tc.validate([{'name': 'f', 'arguments': cyclic()}], tools=TOOLS)"),
    ("validate-cyclic-call", "tc.validate([{'name': 'f', 'arguments': cyclic_dict()}], tools=TOOLS)"),
    ("validate-deep-py-args", "tc.validate([{'name': 'f', 'arguments': deep_dict(%d)}], tools=TOOLS)" % DEEP),
    ("validate-huge-args", "tc.validate([{'name': 'f', 'arguments': '{\"a\":\"' + 'x' * %d + '\"}'}], tools=TOOLS)" % (16 << 20)),
    ("validate-invalid-utf8", "tc.validate([{'name': b'f\\xff', 'arguments': b'{\"a\":\"\\xff\"}'}], tools=TOOLS)"),
    ("validate-surrogate", "tc.validate([{'name': 'f\\ud800', 'arguments': '{\"a\":\"\\ud800\"}'}], tools=TOOLS)"),
    ("validate-wrong-shape", "tc.validate([1, None, 'x'], tools=TOOLS)"),
    # stream parser: many feeds, deep, invalid bytes, feed after close
    ("stream-deep", "p = tc.StreamParser(); p.feed(DEEPJ); p.close()"),
    ("stream-bytes-split-utf8", "p = tc.StreamParser(); [p.feed(bytes([b])) for b in '<tool_call>{\"name\":\"é\",\"arguments\":{}}</tool_call>'.encode()]; p.close()"),
    ("stream-invalid-utf8", "p = tc.StreamParser(); p.feed(b'\\xff\\xfe\\x00' * 100000); p.close()"),
    ("stream-many-feeds", "p = tc.StreamParser(); [p.feed('<') for _ in range(200000)]; p.close()"),
    ("stream-feed-after-close", "p = tc.StreamParser(); p.close(); p.feed('x')"),
    ("stream-close-twice", "p = tc.StreamParser(); p.close(); p.close()"),
    ("stream-wrong-type", "p = tc.StreamParser(); p.feed(12)"),
    ("stream-wire-deep", "p = tc.StreamParser(input='openai'); p.feed('data: {\"choices\":[{\"delta\":{\"x\":' + '[' * %d + '\\n\\n'); p.close()" % DEEP),
    ("stream-wire-giant", "p = tc.StreamParser(input='ollama'); p.feed('{\"message\":{\"content\":\"' + 'x' * %d + '\"}}\\n'); p.close()" % (16 << 20)),
    ("stream-record-deep", "p = tc.StreamParser(); ev = p.feed(DEEPJ) + p.close(); [e.record() for e in ev]"),
    # transcripts and conversion
    ("transcript-deep", "tc.check_transcript('{\"messages\":' + '[' * %d + ']' * %d + '}', format='hermes')" % (DEEP, DEEP)),
    ("transcript-cyclic", "tc.check_transcript('x', format=cyclic())"),
    ("transcript-deep-py", "tc.check_transcript('x', format=deep_list(%d))" % DEEP),
    ("transcript-invalid-utf8", "tc.check_transcript(b'{\"messages\":[{\"role\":\"assistant\",\"content\":\"\\xff\"}]}')"),
    ("convert-deep", "tc.convert('{\"conversations\":' + '[' * %d + '\\n')" % DEEP),
    ("convert-cyclic", "tc.convert(cyclic())"),
    ("convert-invalid-utf8", "tc.convert(b'{\"conversations\":[{\"from\":\"gpt\",\"value\":\"\\xff\"}]}\\n')"),
    # render
    ("render-tools-deep", "tc.render_tools('hermes', '[{\"name\":\"f\",\"parameters\":' + '{\"items\":' * 50000 + '{}' + '}' * 50000 + '}]')"),
    ("render-tools-cyclic", "tc.render_tools('hermes', cyclic())"),
    ("render-tools-esc-family", "tc.render_tools(ESC, TOOLS)"),
    ("render-result-huge", "tc.render_result('hermes', {'id': 'c', 'name': 'f', 'content': 'x' * %d})" % (16 << 20)),
    ("render-result-cyclic", "tc.render_result('hermes', {'id': 'c', 'name': 'f', 'content': cyclic()})"),
    ("render-result-surrogate", "tc.render_result('hermes', {'id': '\\ud800', 'name': 'f', 'content': '\\ud800'})"),
]

RUNNER = PRELUDE + r'''
import traceback
src = sys.argv[1]
try:
    exec(src)
except ALLOWED as e:
    print("raised", type(e).__name__, str(e)[:200].encode("unicode_escape").decode())
except BaseException as e:
    print("UNEXPECTED", type(e).__name__, str(e)[:200].encode("unicode_escape").decode())
    sys.exit(3)
else:
    print("returned")
'''


# --sweep: the entry points that read model text, at N, 2N, 4N and 8N
# units of each hostile input (a child process per size: CPU seconds and
# peak RSS are that size's own). Linear is x2 per doubling.
SWEEP_UNITS = [
    ("tiny-calls", "'<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\\n'", 40_000),
    ("open-markers", "'<tool_call> [TOOL_CALLS] <|python_tag|> <function= <|tool_calls_section_begin|> '", 8_000),
    ("think-flood", "'<think></think></think>'", 40_000),
    ("harmony-headers", "'<|start|>assistant<|channel|>analysis<|message|>x<|end|>'", 20_000),
    ("long-line", "'a<b[c{d'", 200_000),
]
SWEEP_CALLS = [
    ("parse", "tc.parse(doc)"),
    ("split", "tc.split(doc)"),
    ("stream-1", "p = tc.StreamParser()\nfor i in range(len(doc)): p.feed(doc[i])\np.close()"),
]
SWEEP_RUNNER = r"""
import resource, sys, time, toolcall as tc
doc = eval(sys.argv[1]) * int(sys.argv[2])
t = time.process_time()
exec(sys.argv[3])
print(time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def sweep(args):
    bad = 0
    for uname, unit, n in SWEEP_UNITS:
        for cname, code in SWEEP_CALLS:
            name = f"{cname}-{uname}"
            if args.only and not any(o in name for o in args.only):
                continue
            m = max(1, int(n * (args.scale if cname != "stream-1" else args.scale / 8)))
            rows = []
            for k in (1, 2, 4, 8):
                p = subprocess.run([args.python, "-c", SWEEP_RUNNER, unit, str(m * k), code],
                                   capture_output=True, timeout=args.timeout * 4)
                out = p.stdout.decode().split()
                rows.append((float(out[0]), float(out[1])) if p.returncode == 0 and len(out) == 2 else (float("nan"), 0.0))
            ratio = rows[3][0] / rows[2][0] if rows[2][0] > 0.02 else 0.0
            flag = ratio > 2.3 and rows[3][0] > 0.3 or any(r[0] != r[0] for r in rows)
            bad += flag
            print(f"{'FAIL' if flag else 'ok':4} {name:28} N={m:<7} cpu " + " ".join(f"{r[0]:6.2f}" for r in rows)
                  + f"  x{ratio:.2f} | rss " + " ".join(f"{r[1]:5.0f}" for r in rows), flush=True)
    print(f"{bad} case(s) flagged", file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--node", action="store_true", help="also run fuzz/probe_bindings.cjs")
    ap.add_argument("--sweep", action="store_true", help="N to 8N of parse, split and a 1-character StreamParser")
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    if args.sweep:
        return sweep(args)
    bad = 0
    for name, src in CASES:
        if args.only and not any(o in name for o in args.only):
            continue
        try:
            p = subprocess.run([args.python, "-c", RUNNER, src], capture_output=True, timeout=args.timeout)
            status = p.returncode
            out = (p.stdout.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
            err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        except subprocess.TimeoutExpired:
            status, out, err = "TIMEOUT", "", []
        ok = status == 0
        if not ok:
            bad += 1
        detail = out if ok or out else (err[-1] if err else "")
        print(f"{'ok' if ok else 'FAIL':4} {name:32} {status!s:>8}  {detail[:140]}", flush=True)
    if args.node:
        st = subprocess.run(["node", os.path.join(FUZZ, "probe_bindings.cjs")] + sum((["--only", o] for o in args.only), []))
        bad += st.returncode != 0
    print(f"{bad} case(s) flagged", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
