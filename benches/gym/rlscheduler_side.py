"""RLScheduler's own environment (HPCEnv of DIR-LAB/deep-batch-scheduler,
HPCSimPickJobs.py) on given sequences, for benches/gym/bench.py: run by an
interpreter with numpy < 2 and gym < 0.26 (0.25.2: the last whose
`np_random.randint` RLScheduler's reset calls), from RLScheduler's source
directory. HPCSimPickJobs.py imports tensorflow and scipy.signal at its
top for its training helpers, which the environment never calls: a stub
module stands in for tensorflow. Nothing of RLScheduler is copied here.

Usage: python rlscheduler_side.py SOURCE_DIR LOG.swf BACKFIL STARTS_JSON
Prints one JSON object: per sequence, the first job, steps, -reward (mean
bsld), seconds in reset and in the steps.
"""

import json
import os
import sys
import time
import types

source, log, backfil, starts = sys.argv[1], sys.argv[2], sys.argv[3] == "1", json.loads(sys.argv[4])
sys.modules["tensorflow"] = types.ModuleType("tensorflow")  # unused by the environment
sys.path.insert(0, source)
devnull = open(os.devnull, "w")
stdout, sys.stdout = sys.stdout, devnull  # HPCEnv prints as it loads
from HPCSimPickJobs import HPCEnv  # noqa: E402

env = HPCEnv(backfil=backfil, job_score_type=0)
env.seed(0)
env.my_init(workload_file=log)
sys.stdout = stdout


class Start:
    """Stands in for env.np_random: reset's start is the one given."""

    def __init__(self, s):
        self.s = s

    def randint(self, low, high):
        assert low <= self.s < high, (low, self.s, high)
        return self.s


out = []
for s in starts:
    env.np_random = Start(s)
    t0 = time.perf_counter()
    obs, _ = env.reset()
    t1 = time.perf_counter()
    steps, done = 0, False
    while not done:
        o, r, done, _, _, _ = env.step(0)
        steps += 1
    t2 = time.perf_counter()
    out.append({"start": s, "first_job": env.loads[s].job_id, "steps": steps, "bsld": -r,
                "reset_s": t1 - t0, "steps_s": t2 - t1})
print(json.dumps(out))
