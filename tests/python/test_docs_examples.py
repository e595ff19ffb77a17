"""The Python examples of README.md and docs/tour.md, run as written.

An example is a ```python block followed by a ```text block: the script is
run on its own (a fresh interpreter, in a temporary directory holding
`traces`, a link to the real logs, with SWFTOOL_TRACES removed, as the
command examples are run by tests/it/docs_examples.rs), must succeed, and
what it prints on standard output must match the text block under the
same rules: lines are compared field by field (fields are separated by
white space), a field written `…` matches any one field (every wall-clock
figure is written so), and a line `...` matches any number of lines. Every
```python block of those two documents must be such an example."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRACES = (ROOT.parent / "shared" / "traces").resolve()
DOCS = ["README.md", "docs/tour.md"]


def fences(text):
    """Every fenced block: (info, first content line 1-based, lines)."""
    out, open_ = [], None
    for i, raw in enumerate(text.splitlines()):
        stripped = raw.lstrip()
        if open_ is None:
            if stripped.startswith("```"):
                words = stripped[3:].split()
                open_ = (words[0] if words else "", i + 2, [])
        elif stripped.startswith("```"):
            out.append(open_)
            open_ = None
        else:
            open_[2].append(raw)
    assert open_ is None, "a fenced block is not closed"
    return out


def examples():
    """(id, code, expected lines) of every Python example."""
    found = []
    for doc in DOCS:
        blocks = fences((ROOT / doc).read_text())
        for k, (info, line, lines) in enumerate(blocks):
            if info != "python":
                continue
            nxt = blocks[k + 1] if k + 1 < len(blocks) else None
            assert nxt is not None and nxt[0] == "text", (
                f"{doc}:{line}: a python block must be followed by a text block of what it prints"
            )
            expected = list(nxt[2])
            while expected and not expected[-1].strip():
                expected.pop()
            found.append((f"{doc}:{line}", "\n".join(lines) + "\n", expected))
    return found


def line_matches(shown, printed):
    a, b = shown.split(), printed.split()
    return len(a) == len(b) and all(x == "…" or x == y for x, y in zip(a, b))


def lines_match(shown, printed):
    n, m = len(shown), len(printed)
    memo = {}

    def match(i, j):
        if (i, j) not in memo:
            if i == n:
                r = j == m
            elif shown[i].strip() == "...":
                r = match(i + 1, j) or (j < m and match(i, j + 1))
            else:
                r = j < m and line_matches(shown[i], printed[j]) and match(i + 1, j + 1)
            memo[(i, j)] = r
        return memo[(i, j)]

    return match(0, 0)


def test_matching_rules():
    assert line_matches("a  b … d", "a b 0.147 d")
    assert not line_matches("a b … d", "a b 0.147 e")
    assert lines_match(["x", "...", "z"], ["x", "z"])
    assert lines_match(["x", "...", "z"], ["x", "1", "2", "z"])
    assert not lines_match(["x", "...", "z"], ["x", "1"])


def test_the_readme_shows_each_python_entry_point():
    code = "".join(c for where, c, _ in examples() if where.startswith("README.md"))
    for entry in ["swftool.read_swf(", "swftool.replay(", "PriorityPolicy(", "swftool.gym"]:
        assert entry in code, f"no Python example of README.md uses {entry}"


@pytest.mark.parametrize("where,code,expected", examples(), ids=[e[0] for e in examples()])
def test_example_prints_what_the_doc_shows(where, code, expected, tmp_path):
    os.symlink(TRACES, tmp_path / "traces")
    env = {k: v for k, v in os.environ.items() if k != "SWFTOOL_TRACES"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{where}: the example failed:\n{done.stderr}"
    printed = done.stdout.splitlines()
    while printed and not printed[-1].strip():
        printed.pop()
    assert lines_match(expected, printed), (
        f"{where}: the example printed\n" + "\n".join(printed) + "\n--- where the document shows\n" + "\n".join(expected)
    )
