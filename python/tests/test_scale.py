"""Memory stays flat on a long stream; threads parse side by side."""

import resource
import sys
import threading

import pytest

import toolcall

CALL = '<tool_call>{"name": "lookup", "arguments": {"q": "rust", "n": 3}}</tool_call>'
PROSE = "The quick brown fox jumps over the lazy dog while the model thinks. " * 20


def block(kb: int = 4) -> bytes:
    """4 KB of prose with a call in it."""
    unit = (PROSE + CALL + "\n").encode()
    data = (unit * (kb * 1024 // len(unit) + 1))[: kb * 1024]
    return data


def rss_kb() -> int:
    # ru_maxrss: peak resident set, KiB on Linux (bytes on macOS)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


def test_100_mb_in_4_kb_chunks_keeps_memory_constant():
    chunk = block(4)
    p = toolcall.StreamParser()
    n = (100 << 20) // len(chunk)
    calls = 0
    before = None
    for i in range(n):
        for e in p.feed(chunk):
            calls += e.type == "tool_call"
        if i == n // 10:
            # the first 10 MB: every buffer has reached its working size
            before = rss_kb()
    for e in p.close():
        calls += e.type == "tool_call"
    after = rss_kb()
    assert calls > 10_000
    # 90 MB more input may not grow the peak by more than 16 MiB
    assert after - before < 16 * 1024, f"peak RSS grew {after - before} KiB over 90 MB of input"


def test_four_threads_agree():
    text = block(256).decode("utf-8", "ignore") * 4  # ~1 MB: parsed with the GIL released
    expected = toolcall.parse(text)
    want = [(c.name, c.arguments, c.span) for c in expected.calls]
    assert len(want) > 100
    results = [None] * 4
    errors = []

    def work(k: int) -> None:
        try:
            got = []
            for _ in range(5):
                doc = toolcall.parse(text)
                got.append([(c.name, c.arguments, c.span) for c in doc.calls])
            p = toolcall.StreamParser()
            events = []
            for i in range(0, len(text), 4096):
                events += p.feed(text[i : i + 4096])
            events += p.close()
            got.append([(e.call.name, e.call.arguments, e.call.span) for e in events if e.type == "tool_call"])
            results[k] = got
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for got in results:
        assert got is not None
        for calls in got:
            assert calls == want


def test_one_parser_shared_by_threads_stays_consistent():
    # feeds from several threads are serialised: the calls come out whole
    p = toolcall.StreamParser()
    unit = (PROSE + CALL + "\n").encode()
    out = []

    def work() -> None:
        for _ in range(200):
            out.extend(e for e in p.feed(unit) if e.type == "tool_call")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tail = [e for e in p.close() if e.type == "tool_call"]
    assert len(out) + len(tail) == 800
    assert all(e.call.arguments == {"q": "rust", "n": 3} for e in out + tail)


def test_ctrl_c_during_a_long_parse_raises_keyboard_interrupt():
    # a parse of a large input runs with the GIL released; a Ctrl-C that
    # arrives meanwhile is raised when the GIL is taken back (issue 47)
    import _thread
    import time

    doc = b"plain prose without a call, " * (1 << 19)  # 14 MB

    def interrupt() -> None:
        time.sleep(0.05)
        _thread.interrupt_main()

    t = threading.Thread(target=interrupt)
    with pytest.raises(KeyboardInterrupt):
        t.start()
        for _ in range(400):
            toolcall.parse(doc)
    t.join()
