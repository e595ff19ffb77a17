"""Shared fixtures of the Python tests: the real logs in ../shared/traces
and the `swftool` command built by `cargo test --release` (or `cargo build
--release`), run beside the package to check that both give the same
tables."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRACES = (ROOT.parent / "shared" / "traces").resolve()


@pytest.fixture(scope="session", autouse=True)
def traces_on_path():
    """Short names (curie, kth-sp2, …) resolve wherever pytest runs from."""
    os.environ["SWFTOOL_TRACES"] = str(TRACES)
    yield


@pytest.fixture(scope="session")
def swftool_bin() -> Path:
    """The command-line binary of this checkout (built if missing)."""
    exe = ROOT / "target" / "release" / "swftool"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
    return exe


@pytest.fixture()
def cli(swftool_bin, tmp_path):
    """Runs `swftool ARGS…` in a temporary directory and gives that directory."""

    def run(*args: str) -> Path:
        subprocess.run(
            [str(swftool_bin), *args],
            cwd=tmp_path,
            check=True,
            stdout=subprocess.DEVNULL,
            env={**os.environ, "SWFTOOL_TRACES": str(TRACES)},
        )
        return tmp_path

    return run
