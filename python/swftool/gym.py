"""swftool.gym: a Gymnasium environment for reinforcement-learning job
schedulers over environment D's engine (classic trace replay).

The agent picks, at each decision, one of the first N waiting jobs (an
observation window, as RLScheduler: Zhang et al., "RLScheduler: an
automated HPC batch job scheduler using reinforcement learning", SC 2020);
the chosen job starts now or takes the reservation, and the engine
backfills the other jobs around it at the configured reservation depth
until it starts. Episodes are K consecutive jobs of a cleaned log from a
seeded start; the reward is the negative mean bounded slowdown (or wait,
or the utilization) of the episode, at its end or step by step; FCFS, SJF
and F1 run on the same jobs at reset, with the same backfilling, and are
reported in ``info["baselines"]``.

Importing this module registers ``swftool/JobSelection-v0`` (with a vector
entry point)::

    import gymnasium as gym
    import swftool.gym
    env = gym.make("swftool/JobSelection-v0", log="lublin_256")
    envs = gym.make_vec("swftool/JobSelection-v0", num_envs=16,
                        vectorization_mode="vector_entry_point")

docs/gym.md gives the observation, action, reward and episode rules with
their sources, and an example that trains a policy. It needs gymnasium
(``pip install 'swftool[gym]'``).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("swftool.gym needs gymnasium 1.x: pip install 'swftool[gym]'") from e

from . import PathLike, _swftool
from .errors import UsageError
from .policy import _reservation_depth

__all__ = [
    "JobSelectionEnv",
    "JobSelectionVectorEnv",
    "JOB_FEATURES",
    "MACHINE_FEATURES",
    "ENV_ID",
]

#: The registered id.
ENV_ID = "swftool/JobSelection-v0"

#: The features of one job slot of the observation, in order (each in
#: [0, 1]): wait / 12 h (capped), requested time / the log's largest,
#: units / the machine's, user, group and queue id / the log's largest (1
#: when the log does not give them), 1 if the job fits now, 1 for a job
#: (0: empty slot, all zeros).
JOB_FEATURES: Tuple[str, ...] = tuple(_swftool.GYM_JOB_FEATURES)

#: The machine features after the N job slots: free units / units,
#: waiting jobs / N (capped at 1), jobs started / K.
MACHINE_FEATURES: Tuple[str, ...] = tuple(_swftool.GYM_MACHINE_FEATURES)


def __dir__() -> list:
    """The public API, :data:`__all__`."""
    return sorted(__all__)


def _core_args(
    log: PathLike = "lublin_256",
    *,
    window: int = 128,
    episode_jobs: int = 256,
    reservation_depth: Union[int, str, None] = 1,
    metric: str = "bsld",
    reward: str = "end",
    clean: str = "rlscheduler",
    baselines: bool = True,
    seed: int = 0,
    **flags: Any,
) -> Tuple[list, Dict[str, Any], int]:
    """The engine's arguments for :class:`JobSelectionEnv`'s settings (its
    docstring says each): ``replay --env classic`` words naming the log
    with the cleaning preset and the classic flags, the settings checked,
    the seed. Raises :class:`UsageError`."""
    from . import _flag_words

    for k in ("heuristic", "out", "env"):
        if k in flags:
            raise UsageError(f"{k}= does not apply to the environment: the agent schedules, nothing is written")
    # A built-in name only satisfies the parser (the one that takes every
    # classic flag, so that the flags of the built-in schedulers reach the
    # engine's own refusal); the agent replaces it.
    argv = [os.fspath(log), "--env", "classic", "--heuristic", "catalina-preempt", "--clean", clean]
    settings = {
        "window": _positive("window", window),
        "episode_jobs": _positive("episode_jobs", episode_jobs),
        "reservation_depth": _reservation_depth(reservation_depth),
        "metric": metric,
        "reward": reward,
        "baselines": bool(baselines),
    }
    return argv + _flag_words(flags), settings, _seed(seed)


class _MaskedDiscrete(spaces.Discrete):
    """Discrete(N) whose ``sample()`` without a mask draws among the slots
    holding a waiting job (the environment's current action mask), so that
    ``env.action_space.sample()`` is always a valid action (the random
    policy, Gymnasium's environment checker). ``contains`` accepts every
    slot: a masked one given to ``step`` raises :class:`UsageError`."""

    def __init__(self, n: int, core: Any) -> None:
        super().__init__(n)
        self._core = core

    def sample(self, mask: Optional[np.ndarray] = None, probability: Optional[np.ndarray] = None) -> np.int64:
        if mask is None and probability is None:
            m = self._core.mask()
            if m.any():
                mask = m.astype(np.int8)
        return super().sample(mask=mask, probability=probability)


class JobSelectionEnv(gym.Env):
    """Job selection on a replayed log, one decision per scheduled job.

    Args (all but ``log`` keywords):
        log: an SWF log (a path, or a short name of the shared traces such
            as ``"lublin_256"``, ``"kth"``).
        window: N, the job slots observed and the actions (default 128,
            RLScheduler's ``MAX_QUEUE_SIZE``).
        episode_jobs: K, jobs per episode (default 256, RLScheduler's
            ``JOB_SEQUENCE_SIZE``).
        reservation_depth: how the other jobs are served while the chosen
            one waits: ``None`` (no backfilling: nothing passes it, as
            RLScheduler's ``backfil=False``), 0 (greedy backfilling, no
            reservation), 1 (EASY, the default: the chosen job holds the
            reservation), k or ``"all"`` (the next k − 1 jobs, or all, hold
            one too).
        metric: ``"bsld"`` (mean bounded slowdown, τ = 10 s unless
            ``tau=`` is given), ``"wait"`` (mean wait, s) or
            ``"utilization"`` (busy unit-seconds / (units × (last end −
            first submit))).
        reward: ``"end"`` (the whole figure at the last step, 0 before, as
            RLScheduler) or ``"step"`` (at each step, −metric_j / K for the
            jobs started during it; not with utilization).
        clean: the cleaning preset (default ``"rlscheduler"``: RLScheduler's
            rules; docs/classic.md).
        baselines: replay FCFS, SJF and F1 on each episode's jobs at reset
            (``info["baselines"]``, in the metric's units).
        seed: seed of the episode starts until ``reset(seed=…)`` gives one
            (every draw comes from it: two environments built with the same
            seed give the same episodes).
        **flags: ``swftool replay --env classic`` flags as keywords
            (``exact_estimates=True``, ``whole_nodes=True``, ``tau=…``).

    Observation: ``float32``, shape ``(N * 8 + 3,)``, in [0, 1]:
    ``obs[:N*8].reshape(N, 8)`` are the first N waiting jobs in submit
    order (:data:`JOB_FEATURES`), ``obs[N*8:]`` the machine
    (:data:`MACHINE_FEATURES`).

    Action: ``Discrete(N)``, the slot of the job to schedule; the slots
    past the waiting jobs are masked (``info["action_mask"]``, bool shape
    ``(N,)``, and :meth:`action_masks` for sb3-contrib's MaskablePPO) and
    refused with :class:`swftool.UsageError`.

    ``info`` at reset: ``action_mask``, ``start`` (index of the episode's
    first job among the cleaned jobs in submit order), ``first_job`` (its
    SWF job number), ``baselines`` (``{"fcfs", "sjf", "f1"}``); at the last
    step also ``metric`` (the agent's figure, comparable with the
    baselines).

    Raises:
        UsageError: a setting out of range, a log with fewer jobs than an
            episode, a flag of the built-in schedulers.
        LogError, LogNotFoundError: the log cannot be read.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(self, log: PathLike = "lublin_256", **settings: Any) -> None:
        argv, checked, seed = _core_args(log, **settings)
        self._core = _swftool.GymCore(argv, checked, seed)
        self.window = checked["window"]
        self.episode_jobs = checked["episode_jobs"]
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self._core.observation_len,), dtype=np.float32)
        self.action_space = _MaskedDiscrete(self.window, self._core)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode: at a start drawn from the seeded generator
        (reseeded with ``seed`` when given), or at ``options["start"]`` (an
        index among the cleaned jobs in submit order, 0 to jobs − K).
        Returns (observation, info)."""
        super().reset(seed=seed)
        start = None if options is None else options.get("start")
        obs, mask = self._core.reset(None if seed is None else _seed(seed), start)
        info = self._core.info()
        info["action_mask"] = mask
        return obs, info

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Schedules the job in slot ``action``; returns (observation,
        reward, terminated, truncated = False, info)."""
        obs, reward, terminated, mask = self._core.step(int(action))
        if terminated:
            info = self._core.info()
            info["action_mask"] = mask
        else:
            info = {"action_mask": mask}
        return obs, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The current action mask, bool shape (N,) (the MaskablePPO hook)."""
        return self._core.mask()

    def starts(self) -> np.ndarray:
        """Each job's start in the current episode so far, s on the log's
        clock (inf while waiting), float64 shape (K,), jobs in submit order."""
        return self._core.starts()


class JobSelectionVectorEnv(VectorEnv):
    """``num_envs`` :class:`JobSelectionEnv` stepped in one call in Rust with
    the interpreter's lock released (the EnvPool pattern), Gymnasium's
    next-step autoreset: the step after an episode ends resets that
    environment (its action ignored, reward 0). Environment e's starts
    come from seed ``seed + e``.

    Observations ``float32 (num_envs, N * 8 + 3)``; actions an int array
    ``(num_envs,)``; ``infos["action_mask"]`` bool ``(num_envs, N)``; at an
    episode's end ``infos["metric"]`` and ``infos["baselines"]`` (arrays
    ``(num_envs,)``, with Gymnasium's ``_metric``/``_baselines`` masks).
    Takes :class:`JobSelectionEnv`'s arguments.
    """

    metadata: Dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 8, log: PathLike = "lublin_256", **settings: Any) -> None:
        argv, checked, seed = _core_args(log, **settings)
        self._core = _swftool.GymVecCore(argv, _positive("num_envs", num_envs), checked, seed)
        self.num_envs = num_envs
        self.window = checked["window"]
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(self._core.observation_len,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.window)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, self.window), dtype=bool)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Resets every environment (environment e reseeded ``seed + e``)."""
        super().reset(seed=seed)
        obs, masks = self._core.reset(None if seed is None else _seed(seed))
        self._masks = masks
        return obs, {"action_mask": masks}

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Steps every environment; returns (observations, rewards,
        terminations, truncations, infos)."""
        obs, rewards, terminated, masks, _reset = self._core.step(np.asarray(actions, dtype=np.int64).reshape(-1))
        self._masks = masks
        infos: Dict[str, Any] = {"action_mask": masks}
        if terminated.any():
            metric = np.zeros(self.num_envs)
            base = {k: np.zeros(self.num_envs) for k in ("fcfs", "sjf", "f1")}
            for e in np.flatnonzero(terminated):
                info = self._core.info(int(e))
                metric[e] = info["metric"]
                for k, v in info.get("baselines", {}).items():
                    base[k][e] = v
            infos["metric"] = metric
            infos["_metric"] = terminated.copy()
            infos["baselines"] = base
            infos["_baselines"] = terminated.copy()
        return obs, rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """The current action masks, bool (num_envs, N)."""
        return self._masks.copy()

    def sample_actions(self) -> np.ndarray:
        """One valid action per environment, drawn with the vector's seeded
        generator among the unmasked slots (a random policy)."""
        counts = self._masks.sum(axis=1)
        draws = self.np_random.integers(0, np.maximum(counts, 1))
        return draws.astype(np.int64)


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise UsageError(f"{name}={value!r}: give a whole number of at least 1")
    return int(value)


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < 2**64:
        raise UsageError(f"seed={value!r}: give a whole number from 0 to 2**64 - 1")
    return int(value)


if ENV_ID not in gym.registry:
    gym.register(
        id=ENV_ID,
        entry_point="swftool.gym:JobSelectionEnv",
        vector_entry_point="swftool.gym:JobSelectionVectorEnv",
        nondeterministic=False,
    )
