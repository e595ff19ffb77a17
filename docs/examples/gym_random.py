"""Random and first-come policies on swftool.gym, against the baselines
(docs/gym.md; run from the checkout: python3 docs/examples/gym_random.py)."""
import gymnasium as gym
import numpy as np

import swftool.gym  # registers swftool/JobSelection-v0

env = gym.make("swftool/JobSelection-v0", log="lublin_256")
env.action_space.seed(0)
for name, policy in [
    ("random", lambda obs, info: env.action_space.sample()),  # a valid slot
    ("slot 0", lambda obs, info: 0),  # the first waiting job
]:
    obs, info = env.reset(seed=42)
    scores, baselines = [], []
    for episode in range(10):
        if episode:
            obs, info = env.reset()
        baselines.append(info["baselines"])
        done = False
        while not done:
            obs, reward, done, truncated, info = env.step(policy(obs, info))
        scores.append(info["metric"])  # = -reward: mean bounded slowdown
    fcfs = np.mean([b["fcfs"] for b in baselines])
    sjf = np.mean([b["sjf"] for b in baselines])
    print(f"{name}: mean bsld {np.mean(scores):.1f} (FCFS {fcfs:.1f}, SJF {sjf:.1f})")

envs = swftool.gym.JobSelectionVectorEnv(16, "lublin_256", seed=7)
obs, infos = envs.reset(seed=7)
ended = 0
while ended < 32:
    obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions())
    ended += int(terminated.sum())
print(f"vector: {ended} episodes, last mean bsld {infos['metric'][terminated].mean():.1f}")
