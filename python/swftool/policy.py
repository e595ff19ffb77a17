"""Your own scheduler in environment D (the whole log on its own machine).

A :class:`PriorityPolicy` is a Python function that, at every scheduling
pass (never once per job), receives the waiting jobs as numpy arrays (a
:class:`Queue`) and returns one score per job. swftool orders the queue by
score, lowest first (ties to the earlier submit, then the lower job
number), and serves it as its native schedulers do: without backfilling
(``reservation_depth=None``: in order while jobs fit, the first that does
not blocks the rest, as ``fcfs``) or with backfilling at a reservation
depth (0 greedy, 1 EASY after Lifka 1995, ``"all"`` Conservative after
Mu'alem & Feitelson 2001; reservations are kept from pass to pass and
compressed, docs/classic.md). A policy scoring by submit time is therefore
swftool's ``fcfs``, ``easy`` or ``conservative``, job for job.

Run one with :func:`swftool.replay`::

    import swftool
    from swftool.policy import PriorityPolicy, sjf

    r = swftool.replay("kth-sp2", env="classic",
                       heuristic=["easy", PriorityPolicy(sjf, reservation_depth=1)])
    r.summary.select("heuristic", "wait_mean_s", "bsld_mean")

The baselines of RLScheduler (Zhang et al., SC 2020) are here as examples:
:func:`fcfs`, :func:`sjf`, :func:`wfp3`, :func:`unicep`, :func:`f1`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Union

import numpy as np

from .errors import PolicyError, UsageError

__all__ = [
    "Queue",
    "PriorityPolicy",
    "State",
    "ControlPolicy",
    "Candidates",
    "MinMinPolicy",
    "fcfs",
    "sjf",
    "wfp3",
    "unicep",
    "f1",
    "max_value",
    "max_vpr",
    "Score",
]


@dataclass(frozen=True)
class Queue:
    """The waiting jobs at one scheduling pass, each array of shape (jobs,),
    in queue order (read-only).

    Attributes:
        now: the pass's time, s on the log's clock.
        free: units free now.
        capacity: units of the machine (processors, or nodes with
            ``whole_nodes=True``).
        pass_number: the pass's number, 1 for the first.
        job_number: SWF job numbers (int64).
        submit: submit times, s (float64).
        wait: seconds waited so far, ``now - submit`` (float64).
        requested_time: the run time the scheduler plans with, s: the
            user's estimate (SWF field 9 after cleaning), or the run time
            with ``exact_estimates=True`` (float64).
        processors: processors requested (int64).
        units: units the job holds: processors, or whole nodes (int64).
        user: SWF user ids (int64).
        group: SWF group ids (int64).
        queue: SWF queue numbers (int64).
    """

    now: float
    free: int
    capacity: int
    pass_number: int
    job_number: np.ndarray
    submit: np.ndarray
    wait: np.ndarray
    requested_time: np.ndarray
    processors: np.ndarray
    units: np.ndarray
    user: np.ndarray
    group: np.ndarray
    queue: np.ndarray

    def __len__(self) -> int:
        return len(self.job_number)


#: A priority policy's score: the queue in, one number per waiting job out
#: (the lowest first).
Score = Callable[[Queue], "np.typing.ArrayLike"]


def __dir__() -> list:
    """The public API, :data:`__all__`."""
    return sorted(__all__)


def _reservation_depth(value: Union[int, str, None]) -> Optional[int]:
    """A ``reservation_depth`` argument as the engine takes it: ``None`` (no
    backfilling), 0, 1, … or ``"all"`` (2**64 − 1). Raises
    :class:`UsageError` for anything else."""
    if value == "all":
        return 2**64 - 1
    if value is None:
        return None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0:
        return int(value)
    raise UsageError(f"reservation_depth={value!r}: give None (no backfilling), 0, 1, … or \"all\"")


class PriorityPolicy:
    """A priority policy for environment D: ``score(queue)`` gives one
    number per waiting job (lowest runs first); swftool orders and serves
    the queue.

    Args:
        score: called once per scheduling pass with a :class:`Queue`;
            returns a sequence or array of ``len(queue)`` numbers (±inf
            allowed, NaN not).
        reservation_depth: ``None`` for no backfilling; 0, 1, … or
            ``"all"`` for backfilling with that many reservations.
        name: the name in the ``heuristic`` column (default: the
            function's name).

    Raises:
        UsageError: a depth that is not None, a non-negative int or "all";
            a name that is empty or has a comma.
    """

    def __init__(
        self,
        score: Score,
        reservation_depth: Union[int, str, None] = 1,
        name: Optional[str] = None,
    ) -> None:
        if not callable(score):
            raise UsageError(f"score must be a function of a Queue; got {type(score).__name__}")
        depth = _reservation_depth(reservation_depth)
        name = name if name is not None else getattr(score, "__name__", "policy")
        if not name or "," in name:
            raise UsageError(f"policy name {name!r}: give a non-empty name without commas")
        self.score = score
        self.reservation_depth = reservation_depth
        self.depth = depth
        self.name = name

    def __repr__(self) -> str:
        return f"PriorityPolicy({self.name}, reservation_depth={self.reservation_depth!r})"


def _numbers(name: str, out: object, n: int, what: str, per: str) -> np.ndarray:
    """A policy's answer as a float64 array of shape (n,)-or-so (the
    engine checks the length and NaN), or a PolicyError saying why not."""
    if out is None:
        raise PolicyError(f"policy {name} returned None, not numbers: return one {what} per {per}")
    try:
        a = np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise PolicyError(f"policy {name} returned {type(out).__name__}, not numbers: {e}") from e
    if a.ndim != 1:
        raise PolicyError(f"policy {name} returned {what}s of shape {a.shape}; give one per {per}, shape ({n},)")
    return np.ascontiguousarray(a)


def _score(policy: PriorityPolicy, now: float, free: int, capacity: int, pass_number: int, cols: dict) -> np.ndarray:
    """Called by the engine at each pass: builds the Queue, calls the
    user's function, checks that the answer is one-dimensional numbers."""
    for a in cols.values():
        a.flags.writeable = False
    q = Queue(now=now, free=free, capacity=capacity, pass_number=pass_number, **cols)
    return _numbers(policy.name, policy.score(q), len(q), "score", "waiting job")


class State:
    """What a :class:`ControlPolicy` sees at one scheduling pass, and how it
    acts: :meth:`start` and :meth:`reserve`, by position in the queue.

    Attributes:
        queue: the waiting jobs (a :class:`Queue`: arrays of shape (jobs,)
            in submit order, then job number), with ``now``, ``capacity``
            and ``pass_number``.
        free: units free now, less the units of the jobs started so far in
            this pass.
        running_job_number, running_start, running_predicted_end,
        running_units: the running jobs (shape (running,), by predicted
            end): their start (s), their end as the scheduler predicts it
            from the estimate (s; doubled past it when a job outruns its
            estimate, docs/classic.md), their units.
        profile_time, profile_free: the availability profile of the running
            jobs as a step function: ``profile_free[i]`` units are free from
            ``profile_time[i]`` (s) on, ``profile_time[0]`` being now (jobs
            started in this pass not included).
    """

    def __init__(self, queue: Queue, running: dict, profile: dict) -> None:
        self.queue = queue
        self.now = queue.now
        self.capacity = queue.capacity
        self.pass_number = queue.pass_number
        self.free = queue.free
        self.running_job_number = running["job_number"]
        self.running_start = running["start"]
        self.running_predicted_end = running["predicted_end"]
        self.running_units = running["units"]
        self.profile_time = profile["time"]
        self.profile_free = profile["free"]
        self._actions: list = []
        self._started: set = set()

    def _position(self, k: int) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < len(self.queue):
            raise PolicyError(
                f"queue position {k!r} does not exist: {len(self.queue)} jobs wait (positions 0 to {len(self.queue) - 1})"
            )
        k = int(k)
        if k in self._started:
            raise PolicyError(f"job {self.queue.job_number[k]} (position {k}) was already started in this pass")
        return k

    def start(self, k: int) -> None:
        """Starts the waiting job at queue position ``k`` now.

        Raises:
            PolicyError: no such position, a job already started in this
                pass, or one that needs more units than are free.
        """
        k = self._position(k)
        units = int(self.queue.units[k])
        if units > self.free:
            raise PolicyError(
                f"job {self.queue.job_number[k]} (position {k}) needs {units} units and {self.free} are free "
                f"at t = {self.now} s: a job starts only where it fits"
            )
        self.free -= units
        self._started.add(k)
        self._actions.append((0, k, 0.0))

    def reserve(self, k: int, at: float) -> None:
        """Promises that the job at queue position ``k`` starts by ``at``
        (s, after now). The first promise a job gets is recorded
        (``first_reservation_s``) and a scheduling pass is held at that
        time; the policy itself starts the job (swftool does not). Like the
        native backfilling's, the promise is checked on the finished
        schedule: a job started later, while no job ran past its estimate,
        is a ``PolicyError`` naming it.

        Raises:
            PolicyError: no such position, a job started in this pass, a
                time that is not finite and after now.
        """
        k = self._position(k)
        at = float(at)
        if not np.isfinite(at) or at <= self.now:
            raise PolicyError(f"reserve job {self.queue.job_number[k]} at t = {at} s: give a finite time after now ({self.now} s)")
        self._actions.append((1, k, at))


class ControlPolicy:
    """A full-control policy for environment D: ``decide(state)`` is called
    once per scheduling pass with a :class:`State` and starts jobs with
    ``state.start(k)`` (and plans with ``state.reserve(k, at)``); whatever
    it does not start waits for the next pass (at the next arrival, end,
    or reservation time). swftool applies the actions in order, refuses
    one that breaks a rule (a job that does not fit, one not waiting) with
    a :class:`~swftool.errors.PolicyError` naming the job, stops a policy
    that never starts the waiting jobs, and checks the finished schedule
    with its invariant checker (capacity, and every promise of
    :meth:`State.reserve` kept).

    Args:
        decide: called with a :class:`State`; its return value is ignored.
        name: the name in the ``heuristic`` column (default: the
            function's name).
    """

    def __init__(self, decide: Callable[[State], object], name: Optional[str] = None) -> None:
        if not callable(decide):
            raise UsageError(f"decide must be a function of a State; got {type(decide).__name__}")
        name = name if name is not None else getattr(decide, "__name__", "policy")
        if not name or "," in name:
            raise UsageError(f"policy name {name!r}: give a non-empty name without commas")
        self.decide = decide
        self.name = name

    def __repr__(self) -> str:
        return f"ControlPolicy({self.name})"


def _decide(policy: ControlPolicy, now: float, free: int, capacity: int, pass_number: int,
            cols: dict, running: dict, profile: dict) -> list:
    """Called by the engine at each pass: builds the State, calls the
    user's function, gives back its actions as (kind, position, time)."""
    for d in (cols, running, profile):
        for a in d.values():
            a.flags.writeable = False
    q = Queue(now=now, free=free, capacity=capacity, pass_number=pass_number, **cols)
    state = State(q, running, profile)
    policy.decide(state)
    return state._actions


@dataclass(frozen=True)
class Candidates:
    """The choices Min-Min weighs at one mapping event of environment A,
    each array of shape (candidates,), read-only: every mappable task on
    every cluster where it has a slot, in its earliest slot there, that
    earns some value (choices that earn nothing are never weighed).

    Attributes:
        now: the mapping event's time, s (the day's clock).
        task: the task's index in the scenario (int64).
        job_number: its SWF job number (int64).
        arrival: its arrival, s (float64).
        cores: cores it asks for (int64).
        cluster: the cluster's index (int64).
        nodes: nodes it takes on that cluster (int64).
        start: the slot's start, s (float64; ``start == now``: it starts now).
        completion: start + its ETC there, s (float64).
        etc: its estimated time to compute there, s (float64).
        value: its value at ``completion`` (value units, > 0).
        resources: ETC × NC, core-seconds charged (float64; NC the cores
            it is charged, whole nodes).
        counted: whether it counts in the day's metrics (bool).
    """

    now: float
    task: np.ndarray
    job_number: np.ndarray
    arrival: np.ndarray
    cores: np.ndarray
    cluster: np.ndarray
    nodes: np.ndarray
    start: np.ndarray
    completion: np.ndarray
    etc: np.ndarray
    value: np.ndarray
    resources: np.ndarray
    counted: np.ndarray

    def __len__(self) -> int:
        return len(self.task)


class MinMinPolicy:
    """A value-based heuristic of your own for environment A: Khemka et
    al.'s Min-Min loop (2015, §IV.C–D; docs/parallel.md) with your
    objective. ``objective(candidates)`` gives one number per candidate
    (higher is better; ``-inf``: never chosen). Phase 1 keeps each task's
    best candidate (ties to the earliest completion, then the lower
    cluster); phase 2 places the task whose best is highest (ties to the
    earlier arrival), started now, or else reserved — or place-held for the
    rest of the event with ``place_holders=True``; the candidates whose
    slot a placement moved are weighed again (one call for all of them),
    until every task is placed or has no candidate left.

    ``objective=lambda c: c.value`` is swftool's ``maxvalue``;
    ``lambda c: c.value / c.resources`` is ``maxvpr`` (and ``maxvpr-ph``
    with ``place_holders=True``), schedule for schedule.

    Args:
        objective: called with a :class:`Candidates`; returns
            ``len(candidates)`` numbers (NaN refused).
        place_holders: future slots are place-holders, not reservations.
        name: the name in the ``heuristic`` column (default: the
            function's name).
    """

    def __init__(self, objective: Callable[[Candidates], "np.typing.ArrayLike"], place_holders: bool = False,
                 name: Optional[str] = None) -> None:
        if not callable(objective):
            raise UsageError(f"objective must be a function of Candidates; got {type(objective).__name__}")
        name = name if name is not None else getattr(objective, "__name__", "policy")
        if not name or "," in name:
            raise UsageError(f"policy name {name!r}: give a non-empty name without commas")
        self.objective = objective
        self.place_holders = bool(place_holders)
        self.name = name

    def __repr__(self) -> str:
        return f"MinMinPolicy({self.name}, place_holders={self.place_holders})"


def _objectives(policy: MinMinPolicy, now: float, cols: dict) -> np.ndarray:
    """Called by the engine: builds the Candidates, calls the user's
    objective, checks that the answer is one-dimensional numbers."""
    for a in cols.values():
        a.flags.writeable = False
    c = Candidates(now=now, **cols)
    return _numbers(policy.name, policy.objective(c), len(c), "objective", "candidate")


def max_value(c: Candidates) -> np.ndarray:
    """Maximum Value (Khemka et al. 2015, §IV.C): the value at completion."""
    return c.value


def max_vpr(c: Candidates) -> np.ndarray:
    """Maximum Value-per-Resource (Khemka et al. 2015, §IV.D): value at
    completion / (ETC × NC)."""
    return c.value / c.resources


def fcfs(q: Queue) -> np.ndarray:
    """First come, first served: the submit time."""
    return q.submit


def sjf(q: Queue) -> np.ndarray:
    """Shortest job first: the requested time (ties to the earlier submit)."""
    return q.requested_time


def wfp3(q: Queue) -> np.ndarray:
    """WFP3 (Tang et al., 2009, as RLScheduler uses it): −(wait / requested
    time)³ × processors: long-waiting, short and wide jobs first."""
    return -np.power(q.wait / q.requested_time, 3) * q.processors


def unicep(q: Queue) -> np.ndarray:
    """UNICEP (Tang et al., 2009, as RLScheduler uses it): −wait /
    (log2(processors) × requested time), with RLScheduler's 1e-15 guards
    (serial jobs, log2(1) = 0, come first)."""
    return -(q.wait + 1e-15) / (np.log2(q.processors + 1e-15) * q.requested_time)


def f1(q: Queue) -> np.ndarray:
    """F1 (Carastan-Santos & de Camargo, SC 2017): log10(requested time) ×
    processors + 870 × log10(submit), times ≤ 0 taken as 0.1 as
    RLScheduler does."""
    r = np.where(q.requested_time > 0, q.requested_time, 0.1)
    s = np.where(q.submit > 0, q.submit, 0.1)
    return np.log10(r) * q.processors + 870 * np.log10(s)
