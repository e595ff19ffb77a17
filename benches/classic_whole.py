"""Whole-process replays of a real log under environment D's schedulers.

The wall time a user waits for `swftool replay --env classic LOG -H X`
(parse, clean, simulate, check, write every table and figure), best of
`--runs` runs, and each scheduler's ratio to EASY:

    python3 benches/classic_whole.py [--log curie] [--runs 3] [easy conservative catalina]

Uses target/release/swftool (`cargo build --release` first; `--swftool PATH`
times another build, e.g. one from before a change) and the logs of
SWFTOOL_TRACES (default ../shared/traces).
"""

import argparse
import os
import pathlib
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("schedulers", nargs="*", default=["easy", "conservative", "catalina"])
    ap.add_argument("--log", default="curie")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--swftool", default=str(ROOT / "target" / "release" / "swftool"),
                    help="the binary to time (default target/release/swftool)")
    args = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("SWFTOOL_TRACES", str(ROOT.parent / "shared" / "traces"))
    binary = args.swftool
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as out:
        for h in args.schedulers:
            for _ in range(args.runs):
                start = time.perf_counter()
                subprocess.run(
                    [binary, "replay", "--env", "classic", args.log, "-H", h, "--out", f"{out}/{h}"],
                    check=True,
                    env=env,
                    stdout=subprocess.DEVNULL,
                )
                t = time.perf_counter() - start
                best[h] = min(best.get(h, t), t)
    easy = best.get("easy")
    for h, t in best.items():
        ratio = f"  {t / easy:5.2f} x EASY" if easy else ""
        print(f"{h:<14} {t:7.2f} s{ratio}")


if __name__ == "__main__":
    main()
