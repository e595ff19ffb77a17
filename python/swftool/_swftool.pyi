"""Type stubs of swftool's Rust extension module (python/src/lib.rs).

The public API is the package :mod:`swftool`; these are the functions it
calls. Errors are raised as the classes of :mod:`swftool.errors`.
"""

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

__all__ = [
    "read_swf",
    "environments",
    "replay",
    "experiment",
    "replay_scored",
    "replay_controlled",
    "replay_min_min",
    "json_to_toml",
    "GymCore",
    "GymVecCore",
    "GYM_JOB_FEATURES",
    "GYM_MACHINE_FEATURES",
    "__version__",
]

__version__: str

def read_swf(log: str, lenient: bool = False) -> Dict[str, Any]:
    """Reads a log: ``jobs`` (the 18 SWF fields as [(name, numpy array of
    shape (jobs,))], int64 or float64, -1 where unknown), ``header`` (dict), ``name``, ``path``, ``sha256``, ``skipped``
    ({reason: count}), ``skipped_examples`` ([(line, reason)]),
    ``blank_lines``. Raises LogNotFoundError, LogError."""

def environments() -> List[Dict[str, Any]]:
    """Each environment as {env, title, log, heuristics: [(name, summary)],
    presets: [(name, summary)]}."""

def replay(argv: List[str]) -> None:
    """``swftool replay`` with these words (``--out`` included), quietly.
    Raises UsageError, LogNotFoundError, LogError, SwftoolError,
    KeyboardInterrupt."""

def experiment(
    argv: List[str], config_toml: Optional[str] = None, origin: Optional[str] = None
) -> str:
    """``swftool experiment`` with these words; with ``config_toml``, that
    configuration (named ``origin`` in messages). Returns the output
    directory."""

def replay_scored(argv: List[str], name: str, policy: Any, depth: Optional[int]) -> Dict[str, bytes]:
    """Replays a log in environment D under a PriorityPolicy (``policy``;
    ``depth`` None: no backfilling, else the reservation depth, 2**64-1 for
    all); ``argv`` are replay's words. Returns the tables jobs, summary,
    clean, suspensions as Parquet bytes. Raises PolicyError (the policy's
    own exception as its __cause__), UsageError, LogError,
    LogNotFoundError; KeyboardInterrupt as is."""

def replay_controlled(argv: List[str], name: str, policy: Any) -> Dict[str, bytes]:
    """Replays a log in environment D under a ControlPolicy (``policy``);
    as replay_scored, every pass handed to the policy's decide()."""

def replay_min_min(argv: List[str], name: str, policy: Any, place_holders: bool) -> Dict[str, bytes]:
    """Runs environment A's Min-Min loop with a MinMinPolicy's objective
    on the scenarios replay builds from ``argv``; returns the tables jobs,
    summary, timing as Parquet bytes. Raises as replay_scored."""

def json_to_toml(json: str) -> str:
    """A configuration given as JSON, as TOML text. Raises UsageError."""

GYM_JOB_FEATURES: List[str]
GYM_MACHINE_FEATURES: List[str]

class GymCore:
    """One job-selection environment (``swftool.gym.JobSelectionEnv`` wraps
    it). ``argv`` are ``replay --env classic`` words naming the log;
    ``settings`` a dict: window, episode_jobs, reservation_depth (None: no
    backfilling, or the depth, 2**64-1: all), metric ("bsld" | "wait" |
    "utilization"), reward ("end" | "step"), baselines. Raises UsageError,
    LogError, LogNotFoundError."""

    def __init__(self, argv: List[str], settings: Dict[str, Any], seed: int) -> None: ...
    @property
    def observation_len(self) -> int:
        """N * 8 + 3."""
    @property
    def log_jobs(self) -> int:
        """Jobs of the cleaned log."""
    @property
    def capacity(self) -> int:
        """Units of the machine."""
    @property
    def log_name(self) -> str:
        """The log's file name."""
    def reset(
        self, seed: Optional[int] = None, start: Optional[int] = None
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Starts an episode; (observation (N*8+3,), action mask (N,))."""
    def step(
        self, action: int
    ) -> Tuple[npt.NDArray[np.float32], float, bool, npt.NDArray[np.bool_]]:
        """(observation, reward, terminated, action mask). Raises
        UsageError for a masked or negative action, before reset, after
        the end."""
    def mask(self) -> npt.NDArray[np.bool_]:
        """The action mask, shape (N,)."""
    def info(self) -> Dict[str, Any]:
        """start, first_job, baselines {fcfs, sjf, f1}, metric (at the end)."""
    def starts(self) -> npt.NDArray[np.float64]:
        """Each job's start so far, s (inf while waiting), shape (K,)."""
    def now(self) -> Optional[float]:
        """The current decision's time, s on the log's clock."""

class GymVecCore:
    """``num_envs`` GymCore stepped in one call without the interpreter's
    lock (``swftool.gym.JobSelectionVectorEnv`` wraps it); environment e
    seeded ``seed + e``; next-step autoreset."""

    def __init__(self, argv: List[str], num_envs: int, settings: Dict[str, Any], seed: int) -> None: ...
    @property
    def observation_len(self) -> int:
        """N * 8 + 3."""
    def reset(
        self, seed: Optional[int] = None
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """(observations (n, N*8+3), masks (n, N))."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """(observations, rewards (n,), terminated (n,), masks (n, N),
        reset (n,)). Raises UsageError naming the environment."""
    def info(self, e: int) -> Dict[str, Any]:
        """Environment e's start, first_job, baselines, metric (at the end)."""
