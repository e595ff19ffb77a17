"""The Python package's costs on the real logs (a documented bench command,
not a test: `python3 benches/python_api.py` after `pip install .`, from the
checkout so that ../shared/traces is found).

Prints, each as the best of --repeat runs (wall clock, this process):
- read_swf on Curie, against `swftool info curie` (the reader alone plus
  its report) and, when pandas is installed, pandas.read_csv of the same
  file (the usual way into Python);
- replay of the main job (one Curie day, maxvpr-ph) from Python, against
  the command;
- environment A on the main job's day: the heuristic's time per mapping
  event of native maxvpr-ph and of the same loop with its objective in
  Python (MinMinPolicy);
- environment D on the whole KTH-SP2 log: native EASY, and a Python
  PriorityPolicy scoring by submit time (the same schedule), with the cost
  of a scheduling pass in Python.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

import swftool
from swftool.policy import MinMinPolicy, PriorityPolicy, fcfs, max_vpr, sjf

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / "target" / "release" / "swftool"


def best(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measure; the best is shown (default 3)")
    a = ap.parse_args()
    rows = []
    log = swftool.read_swf("curie")
    rows.append(("read_swf('curie')", best(lambda: swftool.read_swf("curie"), a.repeat), f"{log.jobs.height} jobs"))
    if BIN.exists():
        rows.append(("swftool info curie (process)", best(lambda: subprocess.run([str(BIN), "info", "curie"], capture_output=True, check=True), a.repeat), ""))
    try:
        import pandas as pd

        names = [f"f{i}" for i in range(18)]
        rows.append((
            "pandas.read_csv(curie)",
            best(lambda: pd.read_csv(log.path, sep=r"\s+", comment=";", header=None, names=names), a.repeat),
            "",
        ))
    except ImportError:
        rows.append(("pandas.read_csv(curie)", float("nan"), "pandas not installed"))
    rows.append((
        "replay('curie', heuristic='maxvpr-ph')",
        best(lambda: swftool.replay("curie", heuristic="maxvpr-ph"), a.repeat),
        "one day",
    ))
    if BIN.exists():
        rows.append((
            "swftool replay curie -H maxvpr-ph (process)",
            best(lambda: subprocess.run([str(BIN), "replay", "curie", "-H", "maxvpr-ph", "--out", "/tmp/swftool-bench-replay"], capture_output=True, check=True), a.repeat),
            "",
        ))
    r = swftool.replay("curie", heuristic=["maxvpr-ph", MinMinPolicy(max_vpr, place_holders=True)])
    per_event = r.timing["heuristic_seconds_mean"].to_list()
    rows.append(("Curie day, maxvpr-ph native: heuristic per event", per_event[0], f"{per_event[0] * 1e3:.3f} ms/event"))
    rows.append(("Curie day, MinMinPolicy(max_vpr, ph): per event", per_event[1], f"{per_event[1] * 1e3:.3f} ms/event"))
    native = swftool.replay("kth-sp2", env="classic", heuristic="easy")
    passes = native.summary["passes"][0]
    rows.append(("KTH-SP2 whole log, native easy", best(lambda: swftool.replay("kth-sp2", env="classic", heuristic="easy"), a.repeat), f"{passes} passes"))
    for score in [fcfs, sjf]:
        t = best(lambda: swftool.replay("kth-sp2", env="classic", heuristic=PriorityPolicy(score, 1)), a.repeat)
        rows.append((f"KTH-SP2 whole log, PriorityPolicy({score.__name__}, 1)", t, f"{t / passes * 1e6:.1f} µs/pass"))
    width = max(len(r[0]) for r in rows)
    for name, t, note in rows:
        shown = f"{t:8.3f} s" if t >= 0.01 or t != t else f"{t * 1e3:8.3f} ms"
        print(f"{name:{width}}  {shown}  {note}")


if __name__ == "__main__":
    main()
