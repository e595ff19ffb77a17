"""swftool.gym's speed (a documented bench command, not a test), and
RLScheduler's own environment on the same lublin_256 sequences in the same
run.

    python3 benches/gym/bench.py                       # swftool.gym only
    python3 benches/gym/bench.py --rlscheduler DIR --rls-python PY

DIR is a checkout of DIR-LAB/deep-batch-scheduler (HPCSimPickJobs.py,
job.py, cluster.py); PY an interpreter with numpy < 2, scipy and gym
0.25.2 (RLScheduler's reset calls `np_random.randint`, gone in gym 0.26):

    python3 -m venv /tmp/rls && /tmp/rls/bin/pip install "gym==0.25.2" "numpy<2" scipy

Run from the checkout after `pip install '.[gym]'` so that ../shared/traces
is found. Prints, each the best of --repeat runs on this process's wall
clock:

- one environment: µs per step and steps per second under two policies
  (slot 0, the first waiting job; random valid slots), µs per reset with
  and without the baselines (FCFS, SJF, F1 replayed at reset);
- the vector environment (16 and 64 environments, random valid slots):
  µs per call and environment steps per second;
- side by side on the same sequences (starts drawn from a seeded
  generator in RLScheduler's range, 256 … n − 258), slot 0 always, with
  no backfilling (RLScheduler `backfil=False`, swftool
  `reservation_depth=None`) and with it (`backfil=True`, EASY): µs per
  step and per reset of each, the ratios, and on how many sequences the
  two give the same mean bounded slowdown (they must when no backfilling
  and the window never fills: both are then FCFS).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import swftool.gym as sg

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT.parent / "shared" / "traces"
LOG = "lublin_256"


def best(f, repeat: int):
    """The best wall-clock seconds of `repeat` calls, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def episodes(env, starts, policy):
    """Runs one episode per start; gives (steps, seconds in steps, seconds
    in resets, metrics, whether the window was ever full)."""
    steps, t_steps, t_resets, metrics, full = 0, 0.0, 0.0, [], []
    for s in starts:
        t = time.perf_counter()
        obs, info = env.reset(options={"start": int(s)})
        t_resets += time.perf_counter() - t
        done, filled = False, bool(info["action_mask"].all())
        t = time.perf_counter()
        while not done:
            obs, r, done, _, info = env.step(policy(info))
            steps += 1
            filled = filled or bool(info["action_mask"].all())
        t_steps += time.perf_counter() - t
        metrics.append(info["metric"])
        full.append(filled)
    return steps, t_steps, t_resets, metrics, full


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sequences", type=int, default=50)
    ap.add_argument("--rlscheduler", type=Path, help="a checkout of DIR-LAB/deep-batch-scheduler")
    ap.add_argument("--rls-python", default="python3", help="an interpreter with gym 0.25.2 and numpy < 2")
    a = ap.parse_args()
    os.environ.setdefault("SWFTOOL_TRACES", str(TRACES))

    env = sg.JobSelectionEnv(LOG)
    n = env.unwrapped._core.log_jobs
    rng = np.random.default_rng(2024)
    starts = sorted(rng.integers(256, n - 257, size=a.sequences).tolist())
    print(f"{LOG}: {n} jobs, episodes of 256, window 128, EASY, {a.sequences} sequences (seed 2024)")

    slot0 = lambda info: 0  # noqa: E731
    random_rng = np.random.default_rng(0)
    rand = lambda info: int(random_rng.integers(0, info["action_mask"].sum()))  # noqa: E731
    nobase = sg.JobSelectionEnv(LOG, baselines=False)
    for name, policy in [("slot 0", slot0), ("random", rand)]:
        secs, (steps, t_steps, _, _, _) = best(lambda: episodes(nobase, starts, policy), a.repeat)
        print(f"one env, {name:6}: {t_steps / steps * 1e6:6.2f} µs/step ({steps / t_steps:,.0f} steps/s, {steps} steps)")
    for name, e in [("with baselines", env), ("without", nobase)]:
        secs, _ = best(lambda: [e.reset(options={"start": s}) for s in starts], a.repeat)
        per = secs / len(starts)
        print(f"one env, reset {name}: {per * 1e6:8.1f} µs ({1 / per:,.0f} resets/s)")

    for num in (16, 64):
        vec = sg.JobSelectionVectorEnv(num, LOG, baselines=False, seed=1)
        vec.reset(seed=1)
        calls = 2000
        secs, _ = best(lambda: [vec.step(vec.sample_actions()) for _ in range(calls)], a.repeat)
        print(f"vector of {num}: {secs / calls * 1e6:7.1f} µs per call, {num * calls / secs:,.0f} env steps/s (random slots, autoreset)")

    if a.rlscheduler is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "lublin_256.swf"
        plain.write_bytes(gzip.decompress((TRACES / "lublin_256.swf.gz").read_bytes()))
        for backfil, depth, label in [(False, None, "no backfilling"), (True, 1, "EASY")]:
            ours = sg.JobSelectionEnv(LOG, reservation_depth=depth)
            secs, (steps, t_steps, t_resets, mine, full) = best(lambda: episodes(ours, starts, slot0), a.repeat)
            runs = []
            for _ in range(a.repeat):
                out = subprocess.run(
                    [a.rls_python, str(Path(__file__).with_name("rlscheduler_side.py")), str(a.rlscheduler),
                     str(plain), "1" if backfil else "0", json.dumps(starts)],
                    check=True, capture_output=True, text=True,
                )
                runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
            theirs = min(runs, key=lambda r: sum(x["steps_s"] for x in r))
            their_steps = sum(x["steps"] for x in theirs)
            their_step = sum(x["steps_s"] for x in theirs) / their_steps
            their_reset = min(sum(x["reset_s"] for x in r) for r in runs) / len(starts)
            our_step, our_reset = t_steps / steps, t_resets / len(starts)
            same = [abs(m - x["bsld"]) <= 1e-9 * max(1.0, m) for m, x in zip(mine, theirs)]
            open_ = [not f for f in full]
            same_open = sum(s and o for s, o in zip(same, open_))
            assert all(ours.reset(options={"start": s})[1]["first_job"] == x["first_job"] for s, x in zip(starts, theirs))
            print(f"{label}: swftool.gym {our_step * 1e6:.2f} µs/step, {our_reset * 1e6:.0f} µs/reset; "
                  f"RLScheduler {their_step * 1e6:.1f} µs/step, {their_reset * 1e3:.1f} ms/reset; "
                  f"{their_step / our_step:.0f}× per step, {their_reset / our_reset:.0f}× per reset; "
                  f"steps {steps} vs {their_steps}; same mean bsld on {sum(same)}/{len(starts)} sequences, "
                  f"{same_open}/{sum(open_)} where the window never filled")


if __name__ == "__main__":
    main()
