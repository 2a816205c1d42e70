"""Shared paths for the toolcall Python tests."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(__file__).resolve().parent / "data"


def cli_binary() -> pathlib.Path:
    """The `toolcall` binary built from this checkout (TOOLCALL_BIN, else
    target/release/toolcall under CARGO_TARGET_DIR or the repository)."""
    if os.environ.get("TOOLCALL_BIN"):
        return pathlib.Path(os.environ["TOOLCALL_BIN"])
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "toolcall"


@pytest.fixture(scope="session")
def toolcall_bin() -> pathlib.Path:
    path = cli_binary()
    if not path.exists():
        pytest.fail(f"{path} not found: build it with `cargo build --release` (or set TOOLCALL_BIN)")
    return path
