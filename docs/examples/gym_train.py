"""Trains a masked PPO policy on swftool.gym and compares it with the
baselines on held-out sequences (docs/gym.md). Needs torch and sb3-contrib,
which swftool does not install:

    pip install sb3-contrib        # pulls torch and stable-baselines3
    python3 docs/examples/gym_train.py
"""
import numpy as np
from sb3_contrib import MaskablePPO

import swftool.gym

# Episodes of 64 jobs, the reward each step (-bsld_j / K for the jobs that
# started), 32 job slots: small enough to learn something in minutes.
env = swftool.gym.JobSelectionEnv("lublin_256", window=32, episode_jobs=64, reward="step", seed=0)
model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, gamma=1.0, seed=0, verbose=0)
model.learn(total_timesteps=50_000)

test = swftool.gym.JobSelectionEnv("lublin_256", window=32, episode_jobs=64, seed=1)
rows = []
for start in np.random.default_rng(7).integers(0, 10_000 - 64, size=50):
    obs, info = test.reset(options={"start": int(start)})
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        obs, reward, done, truncated, info = test.step(action)
    rows.append([info["metric"], *info["baselines"].values()])
ppo, fcfs, sjf, f1 = np.mean(rows, axis=0)
print(f"mean bsld on 50 held-out sequences: PPO {ppo:.1f}, FCFS {fcfs:.1f}, SJF {sjf:.1f}, F1 {f1:.1f}")
