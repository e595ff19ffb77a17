"""swftool.gym: Gymnasium's checker passes; always picking slot 0 is the
native scheduler job for job (FCFS, EASY, Conservative) on the same jobs;
a seed gives one episode to the byte; masked actions and bad settings are
refused with clear errors; the vector environment is the single one,
environment by environment; the per-step rewards add up to the end reward;
the random-policy example of docs/gym.md runs as written."""

import re
import runpy
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import swftool
import swftool.gym as sg
from swftool import UsageError

ROOT = Path(__file__).resolve().parents[2]
LOG = "lublin_256"


def episode(env, policy, seed=None, options=None):
    """Runs one episode; gives (observations, rewards, infos) stacked."""
    obs, info = env.reset(seed=seed, options=options)
    seen, rewards, infos = [obs], [], [info]
    done = False
    while not done:
        obs, r, done, truncated, info = env.step(policy(info))
        assert not truncated
        seen.append(obs)
        rewards.append(r)
        infos.append(info)
    return np.stack(seen), np.array(rewards), infos


def test_gymnasium_checker_passes():
    env = gym.make(sg.ENV_ID, log=LOG, episode_jobs=64)
    check_env(env.unwrapped)
    check_env(sg.JobSelectionEnv(LOG, episode_jobs=32, reservation_depth=None, reward="step"), skip_render_check=True)


@pytest.mark.parametrize("depth,native", [(1, "easy"), (None, "fcfs"), ("all", "conservative")])
def test_slot_zero_is_the_native_scheduler_job_for_job(depth, native):
    env = sg.JobSelectionEnv(LOG, reservation_depth=depth)
    for start in [300, 6032, 9000]:
        _, rewards, infos = episode(env, lambda info: 0, options={"start": start})
        starts = env.starts()
        ref = swftool.replay(
            LOG, env="classic", heuristic=native, clean="rlscheduler", window_jobs=256, window_start=start
        )["jobs"]
        assert ref["job_number"][0] == infos[0]["first_job"]
        np.testing.assert_array_equal(starts, ref["start_s"].to_numpy())
        mean_bsld = ref["bounded_slowdown"].mean()
        assert infos[-1]["metric"] == pytest.approx(mean_bsld, rel=1e-12)
        assert rewards[-1] == pytest.approx(-mean_bsld, rel=1e-12)
        assert (rewards[:-1] == 0).all()
        # FCFS with the same backfilling is the first baseline.
        assert infos[0]["baselines"]["fcfs"] == pytest.approx(mean_bsld, rel=1e-12)


def test_the_same_seed_gives_the_same_episodes_to_the_byte():
    def run(seed):
        env = sg.JobSelectionEnv(LOG, episode_jobs=64)
        env.action_space.seed(seed)
        out = []
        for k in range(3):
            obs, rewards, infos = episode(env, lambda info: env.action_space.sample(), seed=seed if k == 0 else None)
            out.append((obs.tobytes(), rewards.tobytes(), infos[0]["start"], infos[-1]["metric"]))
        return out

    a, b, c = run(11), run(11), run(12)
    assert a == b
    assert [x[2] for x in a] != [x[2] for x in c]
    # Two environments built with one seed draw the same starts.
    e1, e2 = sg.JobSelectionEnv(LOG, seed=5), sg.JobSelectionEnv(LOG, seed=5)
    assert [e1.reset()[1]["start"] for _ in range(4)] == [e2.reset()[1]["start"] for _ in range(4)]


def test_masked_actions_and_misuse_are_refused_with_clear_errors():
    env = sg.JobSelectionEnv(LOG, episode_jobs=16)
    with pytest.raises(UsageError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    obs, info = env.reset(options={"start": 300})
    waiting = int(info["action_mask"].sum())
    assert info["action_mask"][:waiting].all() and not info["action_mask"][waiting:].any()
    with pytest.raises(UsageError, match=rf"action 127 is masked: {waiting} job\(s\) wait, so the valid actions are 0\.\.{waiting}"):
        env.step(127)
    with pytest.raises(UsageError, match="action -1 is negative"):
        env.step(-1)
    # Nothing changed: the same decision is still open.
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    done = False
    while not done:
        _, _, done, _, info = env.step(0)
    with pytest.raises(UsageError, match=r"the episode is over: call reset\(\)"):
        env.step(0)
    assert not info["action_mask"].any()
    with pytest.raises(UsageError, match="start 99999 leaves fewer than 16 jobs: starts go from 0 to"):
        env.reset(options={"start": 99999})


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"window": 0}, r"window=0: give a whole number of at least 1"),
        ({"metric": "makespan"}, r'metric "makespan": use "bsld", "wait" or "utilization"'),
        ({"reward": "often"}, r'reward "often": use "end" or "step"'),
        ({"metric": "utilization", "reward": "step"}, r"utilisation is a figure of the whole episode"),
        ({"episode_jobs": 10**6}, r"has \d+ job\(s\), fewer than an episode's 1000000"),
        ({"reservation_depth": -1}, r"reservation_depth=-1: give None"),
        ({"heuristic": "easy"}, r"heuristic= does not apply"),
        ({"preempting_above": 4}, r"--preempting-above applies to the built-in schedulers"),
        ({"seed": -3}, r"seed=-3: give a whole number from 0"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(UsageError, match=message):
        sg.JobSelectionEnv(LOG, **kwargs)


def test_step_rewards_add_up_to_the_end_reward():
    for metric in ["bsld", "wait"]:
        policy = lambda info: int(info["action_mask"].sum()) - 1  # the last waiting job  # noqa: E731
        end = sg.JobSelectionEnv(LOG, metric=metric)
        step = sg.JobSelectionEnv(LOG, metric=metric, reward="step")
        _, r_end, i_end = episode(end, policy, options={"start": 4000})
        _, r_step, i_step = episode(step, policy, options={"start": 4000})
        assert len(r_end) == len(r_step)
        assert r_step.sum() == pytest.approx(r_end[-1], rel=1e-9)
        assert (r_step[:-1] != 0).any()
        assert i_step[-1]["metric"] == i_end[-1]["metric"]
    util = sg.JobSelectionEnv(LOG, metric="utilization")
    _, r, infos = episode(util, lambda info: 0, options={"start": 4000})
    assert 0 < r[-1] <= 1 and r[-1] == infos[-1]["metric"]
    for b in infos[0]["baselines"].values():
        assert 0 < b <= 1


def test_the_vector_environment_is_the_single_one_env_by_env():
    n, seed = 3, 21
    vec = sg.JobSelectionVectorEnv(n, LOG, episode_jobs=32)
    singles = [sg.JobSelectionEnv(LOG, episode_jobs=32) for _ in range(n)]
    obs, infos = vec.reset(seed=seed)
    assert obs.shape == (n, 128 * 8 + 3) and obs.dtype == np.float32
    last = []
    for e, env in enumerate(singles):
        o, info = env.reset(seed=seed + e)
        np.testing.assert_array_equal(obs[e], o)
        last.append(info)
    ended = np.zeros(n, dtype=bool)
    finished = 0
    for _ in range(400):
        actions = vec.sample_actions()
        obs, rewards, term, trunc, infos = vec.step(actions)
        assert not trunc.any()
        for e, env in enumerate(singles):
            if ended[e]:  # next-step autoreset: the action is ignored
                o, info = env.reset()
                r, t = 0.0, False
            else:
                o, r, t, _, info = env.step(actions[e])
            np.testing.assert_array_equal(obs[e], o)
            np.testing.assert_array_equal(infos["action_mask"][e], info["action_mask"])
            assert rewards[e] == r and term[e] == t
            if t:
                finished += 1
                assert infos["_metric"][e] and infos["metric"][e] == info["metric"]
                assert infos["baselines"]["sjf"][e] == info["baselines"]["sjf"]
        ended = term
    assert finished >= n
    with pytest.raises(UsageError, match=r"2 action\(s\) for 3 environments"):
        vec.step(np.zeros(2, dtype=np.int64))
    envs = gym.make_vec(sg.ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", log=LOG, episode_jobs=16)
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (2, 1027)


def test_the_random_policy_example_of_the_docs_runs_as_written():
    example = ROOT / "docs" / "examples" / "gym_random.py"
    text = example.read_text()
    doc = (ROOT / "docs" / "gym.md").read_text()
    # docs/gym.md shows the example's code verbatim.
    body = text.split('"""', 2)[2].strip()
    assert body in doc
    runpy.run_path(str(example), run_name="__main__")
    assert re.search(r"python3 docs/examples/gym_random\.py", doc)
