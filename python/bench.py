"""Benchmark: toolcall against the Python tools it replaces, in one process
on the same inputs.

* ``repair_json`` against ``json_repair.repair_json`` (pip install
  json_repair) on a 1 MB valid document, the same document with errors and
  a cut tail, and 10,000 small broken argument objects (the inputs of
  ``benches/repair.rs``);
* ``parse`` against a plain ``re``-based hermes parser (one regular
  expression and ``json.loads`` per call, as most Python code does it) on
  the 4 MB transcript of ``benches/engine.rs``.

Usage (from the repository root)::

    python python/bench.py [--transcript FILE] [--repeat N]

Without ``--transcript`` the transcript is generated with
``cargo run --release --example transcript -- 4``. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import subprocess
import sys
import time
from typing import Any, Callable, List

ROOT = pathlib.Path(__file__).resolve().parents[1]
# `python python/bench.py` puts python/ first on the path, where the
# package's sources lie without the compiled extension: import the
# installed package instead
sys.path = [p for p in sys.path if pathlib.Path(p or ".").resolve() != ROOT / "python"]

import toolcall  # noqa: E402


def valid_doc() -> str:
    """A ~1 MB array of tool-call-like objects (benches/repair.rs)."""
    parts: List[str] = []
    size = 2
    i = 0
    while size < 1_000_000:
        item = (
            '  {"id": "call_%08x", "name": "get_weather", "arguments": {"city": "Paris \\"%d\\"", '
            '"unit": "celsius", "days": %d, "lat": 48.8566, "lon": 2.3522, '
            '"tags": ["a", "b\\n", "caf\\u00e9"], '
            '"note": "lorem ipsum dolor sit amet, consectetur adipiscing elit"}, "ok": true, "extra": null}'
        ) % (i, i, i % 14)
        parts.append(item)
        size += len(item) + 2
        i += 1
    return "[\n" + ",\n".join(parts) + "\n]\n"


def broken_doc(valid: str) -> str:
    """The same with trailing commas near the start and the middle and a
    cut tail."""
    s = valid
    for frac in (10, 2):
        at = len(s) // frac
        p = s.find('"ok": true', at)
        if p >= 0:
            end = p + len('"ok": true')
            s = s[:end] + "," + s[end:]
    return s[: len(s) - 200]


SMALL = [
    '{"city": "Paris", "unit": "celsius",}',
    '{"query": "hotels in Rome", "max": 5',
    "{city: 'Paris', days: 3}",
    '{"a": True, "b": None}',
    '{"text": "He said "hi" to me"}',
    '{"path": "/tmp/x", "lines": [1, 2, 3',
    '{"name": "search" "q": "rust"}',
    '```json\n{"x": 1}\n```',
]


def small_objects() -> List[str]:
    return [SMALL[i % len(SMALL)] for i in range(10_000)]


HERMES = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


def regex_hermes(text: str) -> list:
    """The usual Python hermes parser: a regex and json.loads per call."""
    calls = []
    for body in HERMES.findall(text):
        try:
            obj = json.loads(body)
        except ValueError:
            continue
        calls.append((obj.get("name"), obj.get("arguments")))
    return calls


def best(fn: Callable[[], Any], repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds of wall time."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def best_cpu(fn: Callable[[], Any], repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds of this process's CPU time
    (on a machine shared with other jobs, less disturbed than wall time)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def best_fresh(fn: Callable[[Any], Any], make: Callable[[], Any], repeat: int, clock: Callable[[], float]) -> float:
    """The fastest of `repeat` runs of `fn` on a new object from `make`
    each time (made outside the timing)."""
    times = []
    for _ in range(repeat):
        arg = make()
        t = clock()
        fn(arg)
        times.append(clock() - t)
    return min(times)


def read_calls(doc: Any) -> list:
    """What the regex parser gives: every call's name and arguments."""
    return [(c.name, c.arguments) for c in doc.calls]


def fmt_time(s: float) -> str:
    return f"{s * 1000:.1f} ms" if s < 10 else f"{s:.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--transcript", type=pathlib.Path)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    try:
        import json_repair  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("bench: pip install json_repair first")

    if a.transcript:
        transcript = a.transcript.read_text(encoding="utf-8")
    else:
        out = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "--example", "transcript", "--", "4"],
            cwd=ROOT, check=True, capture_output=True,
        ).stdout
        transcript = out.decode("utf-8")

    valid = valid_doc()
    broken = broken_doc(valid)
    small = small_objects()
    rows = []

    def repair_row(name: str, size: int, ours: Callable[[], Any], theirs: Callable[[], Any]) -> None:
        t_ours = best(ours, a.repeat)
        t_theirs = best(theirs, max(1, a.repeat // 2))
        rows.append((name, size, "toolcall.repair_json", t_ours, "json_repair.repair_json", t_theirs))

    # the same work first: both recover every object of the broken document
    # (json_repair also drops the escaped newline of "b\n", which we keep)
    ours_ids = [o.get("id") for o in json.loads(toolcall.repair_json(broken))]
    theirs_ids = [o.get("id") for o in json.loads(json_repair.repair_json(broken))]
    assert ours_ids == theirs_ids, "the repairers disagree on the broken document"
    repair_row("1 MB valid JSON", len(valid.encode()),
               lambda: toolcall.repair_json(valid), lambda: json_repair.repair_json(valid))
    # the same in CPU time: on a busy machine a 30 ms run is interrupted
    # far more often than a 1 ms one, which inflates the wall-time ratio
    cpu_valid_ours = best_cpu(lambda: toolcall.repair_json(valid), a.repeat)
    cpu_valid_theirs = best_cpu(lambda: json_repair.repair_json(valid), max(1, a.repeat // 2))
    repair_row("1 MB broken JSON", len(broken.encode()),
               lambda: toolcall.repair_json(broken), lambda: json_repair.repair_json(broken))
    cpu_broken_ours = best_cpu(lambda: toolcall.repair_json(broken), a.repeat)
    cpu_broken_theirs = best_cpu(lambda: json_repair.repair_json(broken), max(1, a.repeat // 2))
    repair_row("10,000 small broken objects", sum(len(s) for s in small),
               lambda: [toolcall.repair_json(s) for s in small],
               lambda: [json_repair.repair_json(s) for s in small])
    cpu_small_ours = best_cpu(lambda: [toolcall.repair_json(s) for s in small], a.repeat)
    cpu_small_theirs = best_cpu(lambda: [json_repair.repair_json(s) for s in small], max(1, a.repeat // 2))

    ours = toolcall.parse(transcript).calls
    theirs = regex_hermes(transcript)
    assert [(c.name, c.arguments) for c in ours] == theirs, "the parsers disagree on the transcript"
    # A str keeps its UTF-8 form once made (CPython caches it), so parsing
    # the same str again skips the encoding: each run gets a new str, as
    # text fresh from a model would be.
    def fresh() -> str:
        return transcript.encode().decode()

    t_ours = best_fresh(toolcall.parse, fresh, a.repeat, time.perf_counter)
    t_theirs = best(lambda: regex_hermes(transcript), a.repeat)
    cpu_ours = best_fresh(toolcall.parse, fresh, a.repeat, time.process_time)
    cpu_again = best_cpu(lambda: toolcall.parse(transcript), a.repeat)
    cpu_theirs = best_cpu(lambda: regex_hermes(transcript), a.repeat)
    rows.append((f"4 MB transcript, {len(ours)} hermes calls, as `str`", len(transcript.encode()),
                 "toolcall.parse", t_ours, "re + json.loads", t_theirs))
    # The same text as bytes (read from a file in binary or a socket): a str
    # with non-ASCII characters is first encoded to UTF-8 by Python itself
    # (what `str.encode()` costs), which bytes skip.
    raw = transcript.encode()
    t_bytes = best(lambda: toolcall.parse(raw), a.repeat)
    cpu_bytes = best_cpu(lambda: toolcall.parse(raw), a.repeat)
    # the regex parser's whole work: every call's name and arguments read
    cpu_read = best_cpu(lambda: read_calls(toolcall.parse(raw)), a.repeat)
    cpu_encode = best_fresh(str.encode, fresh, a.repeat, time.process_time)
    rows.append((f"4 MB transcript, {len(ours)} hermes calls, as `bytes`", len(raw),
                 "toolcall.parse", t_bytes, "re + json.loads (on the str)", t_theirs))

    print(f"Python {sys.version.split()[0]}, best of {a.repeat} runs; MB/s are input megabytes (10^6 bytes) per second.\n")
    print("| input | toolcall | time | MB/s | other | time | MB/s | speed-up |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for name, size, on, t1, tn, t2 in rows:
        print(f"| {name} | `{on}` | {fmt_time(t1)} | {size / t1 / 1e6:,.0f} | `{tn}` | {fmt_time(t2)} "
              f"| {size / t2 / 1e6:,.1f} | {t2 / t1:,.1f}× |")
    size = len(transcript.encode())
    def cpu(t: float) -> str:
        return f"{t * 1000:.1f} ms ({size / t / 1e6:,.0f} MB/s)"

    print(f"\nIn CPU time (best of {a.repeat}): toolcall.parse {cpu(cpu_ours)} on a new `str`, "
          f"{cpu(cpu_again)} on a `str` parsed before, {cpu(cpu_bytes)} on `bytes`, "
          f"{cpu(cpu_read)} on `bytes` reading every call's name and arguments; "
          f"re + json.loads {cpu(cpu_theirs)}; Python's own `str.encode()` of a new `str` of the transcript "
          f"{cpu_encode * 1000:.1f} ms.")
    def pair(ours: float, theirs: float) -> str:
        return f"{ours * 1000:.2f} ms against {theirs * 1000:.1f} ms ({theirs / ours:,.1f}×)"

    print(f"\nIn CPU time (best of {a.repeat} and {max(1, a.repeat // 2)}), toolcall.repair_json against "
          f"json_repair.repair_json: the 1 MB valid JSON {pair(cpu_valid_ours, cpu_valid_theirs)}, the 1 MB "
          f"broken JSON {pair(cpu_broken_ours, cpu_broken_theirs)}, the 10,000 small broken objects "
          f"{pair(cpu_small_ours, cpu_small_theirs)} ({cpu_small_ours / len(small) * 1e6:.2f} µs a call).")


if __name__ == "__main__":
    main()
