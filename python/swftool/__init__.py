"""swftool for Python: read SWF logs, replay them through every environment's
schedulers and get the results as polars DataFrames.

The engine is swftool's Rust core, in-process: the same flag parser, checks,
simulations and table writers as the ``swftool`` command, so a table here is
equal to the file the command writes for the same flags and seed.

Functions:
    read_swf(log, lenient=False) -> SwfLog
    heuristics(env=None) -> polars.DataFrame
    environments() -> list[Environment]
    replay(log=None, *, heuristic, env="parallel", out=None, **flags) -> Result
    experiment(config, *, out=None, **flags) -> Result

The environments (docs/: parallel.md, serial.md, energy.md, classic.md):
A ``parallel``, value-based heterogeneous clusters with place-holders
(Khemka et al. 2015); B ``serial``, serial tasks with utility functions and
preemption (Machovec et al. 2017); C ``energy``, utility under a daily
energy budget (Khemka et al.); D ``classic``, the whole log on its own
machine with FCFS/EASY/Conservative and SDSC's Catalina (Margo et al. 2008).

Errors are the exceptions of :mod:`swftool.errors`. docs/python.md is the
guide, with examples and what each table holds (docs/outputs.md).
:mod:`swftool.gym` (imported on its own; needs gymnasium) is a Gymnasium
environment over environment D's engine for reinforcement learning
(docs/gym.md).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import polars as pl

from . import _swftool, errors, policy
from .errors import LogError, LogNotFoundError, PolicyError, SwftoolError, UsageError
from .policy import ControlPolicy, MinMinPolicy, PriorityPolicy

__version__: str = _swftool.__version__

#: The public API: what ``from swftool import *`` gives and ``dir(swftool)``
#: lists (with ``__version__``, and ``gym`` once imported); the modules
#: imported for the implementation (``np``, ``os``, ``json``, …) are not
#: part of it.
__all__ = [
    "read_swf",
    "heuristics",
    "environments",
    "replay",
    "experiment",
    "SwfLog",
    "SwfHeader",
    "HeaderValue",
    "Environment",
    "Result",
    "PriorityPolicy",
    "ControlPolicy",
    "MinMinPolicy",
    "SwftoolError",
    "PolicyError",
    "UsageError",
    "LogError",
    "LogNotFoundError",
    "PathLike",
    "Policy",
    "errors",
    "policy",
]

#: A log or folder given as a path: a string or an ``os.PathLike``.
PathLike = Union[str, "os.PathLike[str]"]
#: A scheduler written in Python, given to :func:`replay` as ``heuristic``.
Policy = Union[PriorityPolicy, ControlPolicy, MinMinPolicy]


def __dir__() -> List[str]:
    """The public API (:data:`__all__`), ``__version__``, and ``gym`` once
    imported."""
    return sorted({*__all__, "__version__"} | ({"gym"} & globals().keys()))


@dataclass(frozen=True)
class HeaderValue:
    """One ``; Key: value`` header value of an SWF log.

    Attributes:
        raw: the value as written, trimmed (continuation lines joined by a newline).
        number: its leading integer, if it starts with one (``MaxProcs: 93312``).
        text: the free text after the leading integer, or the whole value.
    """

    raw: str
    number: Optional[int]
    text: str


@dataclass(frozen=True)
class SwfHeader:
    """The typed header of an SWF log (PWA SWF v2.2, "Header Comments").

    Attributes:
        keys: every single-valued key present, under its SWF name
            (``"MaxProcs"``, ``"UnixStartTime"``, ``"TimeZoneString"``, …).
        information: the ``Information:`` URLs.
        queues: the ``Queue: <number> <name>`` lines as (number, name).
        partitions: the ``Partition: <number> <name>`` lines.
        notes: the ``Note:`` texts.
        other: unknown and repeated keys as (key, value), in file order.
        free_text: comment lines with no key.
        lines: every header line verbatim.
    """

    keys: Dict[str, HeaderValue]
    information: List[str]
    queues: List[Tuple[int, str]]
    partitions: List[Tuple[int, str]]
    notes: List[str]
    other: List[Tuple[str, str]]
    free_text: List[str]
    lines: List[str]

    def get(self, key: str) -> Optional[HeaderValue]:
        """The value of ``key`` (its SWF name, any case), or ``None``."""
        for k, v in self.keys.items():
            if k.lower() == key.lower():
                return v
        return None

    def _number(self, key: str) -> Optional[int]:
        v = self.get(key)
        return None if v is None else v.number

    @property
    def max_procs(self) -> Optional[int]:
        """``MaxProcs``: processors (cores) of the machine, or ``None``."""
        return self._number("MaxProcs")

    @property
    def max_nodes(self) -> Optional[int]:
        """``MaxNodes``: nodes of the machine, or ``None``."""
        return self._number("MaxNodes")

    @property
    def unix_start_time(self) -> Optional[int]:
        """``UnixStartTime``: epoch second (UTC) of the log's time 0, or ``None``."""
        return self._number("UnixStartTime")

    @property
    def time_zone_string(self) -> Optional[str]:
        """``TimeZoneString``: the site's IANA time zone, or ``None``."""
        v = self.get("TimeZoneString")
        return None if v is None else v.raw


@dataclass(frozen=True)
class SwfLog:
    """A log read by :func:`read_swf`.

    Attributes:
        jobs: one row per job (data line) in file order, shape (jobs, 18):
            the 18 SWF fields in field order, ``job_number``,
            ``submit_time`` (s), ``wait_time`` (s), ``run_time`` (s),
            ``allocated_processors``, ``average_cpu_time`` (s),
            ``used_memory`` (KB), ``requested_processors``,
            ``requested_time`` (s), ``requested_memory`` (KB), ``status``,
            ``user_id``, ``group_id``, ``executable_number``,
            ``queue_number``, ``partition_number``,
            ``preceding_job_number``, ``think_time`` (s); times Float64,
            the rest Int64; -1 (unknown, in the format) is null.
        header: the typed header.
        name: the file name.
        path: where it was read from.
        sha256: SHA-256 of the decompressed text (hex).
        skipped: lenient reading: lines skipped, by reason.
        skipped_examples: the first few skipped lines as (line, reason).
        blank_lines: whitespace-only lines seen.
    """

    jobs: pl.DataFrame
    header: SwfHeader
    name: str
    path: Path
    sha256: Optional[str]
    skipped: Dict[str, int]
    skipped_examples: List[Tuple[int, str]]
    blank_lines: int


def _jobs_frame(columns: list[tuple[str, np.ndarray]]) -> pl.DataFrame:
    """The jobs frame from the reader's columns (numpy int64 and float64
    arrays, -1 where the log says unknown): -1 becomes null."""
    frame = pl.DataFrame(dict(columns))
    return frame.with_columns(pl.when(pl.col(c) != -1).then(pl.col(c)).alias(c) for c in frame.columns)


def read_swf(log: PathLike, lenient: bool = False) -> SwfLog:
    """Reads an SWF log, plain or gzip-compressed.

    Args:
        log: a path to a ``.swf`` or ``.swf.gz`` file, or a short name
            (``curie``, ``datastar``, ``sdsc-sp2``, ``hpc2n``, ``ctc-sp2``,
            ``kth-sp2``, ``lublin256``) looked up in ``$SWFTOOL_TRACES``,
            ``./traces``, ``../shared/traces`` and the user cache
            (``~/.cache/swftool/traces``).
        lenient: skip lines that do not parse (counted by reason in
            ``skipped``) instead of raising.

    Returns:
        The jobs as a DataFrame (see :class:`SwfLog`) and the header.

    Raises:
        LogNotFoundError: no such file, or a short name not found.
        LogError: strict reading, a line that does not parse; its ``file``
            and ``line`` say where (the message says what).
    """
    raw = _swftool.read_swf(os.fspath(log), lenient)
    h = raw["header"]
    header = SwfHeader(
        keys={k: HeaderValue(**v) for k, v in h["keys"].items()},
        information=list(h["information"]),
        queues=[tuple(q) for q in h["queues"]],
        partitions=[tuple(p) for p in h["partitions"]],
        notes=list(h["notes"]),
        other=[tuple(o) for o in h["other"]],
        free_text=list(h["free_text"]),
        lines=list(h["lines"]),
    )
    return SwfLog(
        jobs=_jobs_frame(raw["jobs"]),
        header=header,
        name=raw["name"],
        path=Path(raw["path"]),
        sha256=raw["sha256"],
        skipped=dict(raw["skipped"]),
        skipped_examples=[tuple(e) for e in raw["skipped_examples"]],
        blank_lines=raw["blank_lines"],
    )


@dataclass(frozen=True)
class Environment:
    """One scheduling environment.

    Attributes:
        name: its ``env`` name (``parallel``, ``serial``, ``energy``, ``classic``).
        title: one line with its paper.
        log: ``"required"``, ``"optional"`` (synthetic trials without one)
            or ``"synthetic"`` (no log).
        heuristics: (name, summary) of each heuristic, in listing order.
        presets: (name, summary) of each preset grid.
    """

    name: str
    title: str
    log: str
    heuristics: List[Tuple[str, str]]
    presets: List[Tuple[str, str]]


def environments() -> List[Environment]:
    """Every environment, with its heuristics and preset grids."""
    return [
        Environment(
            name=e["env"],
            title=e["title"],
            log=e["log"],
            heuristics=[tuple(h) for h in e["heuristics"]],
            presets=[tuple(p) for p in e["presets"]],
        )
        for e in _swftool.environments()
    ]


def heuristics(env: Optional[str] = None) -> pl.DataFrame:
    """The heuristic names, as ``swftool heuristics`` lists them.

    Args:
        env: one environment's (``parallel``, ``serial``, ``energy``,
            ``classic``), or ``None`` for all.

    Returns:
        A DataFrame of shape (heuristics, 3): ``env``, ``heuristic``
        (the name ``replay`` takes), ``summary``.

    Raises:
        UsageError: an unknown environment.
    """
    envs = environments()
    if env is not None and env not in {e.name for e in envs}:
        raise UsageError(
            f"unknown environment `{env}`; the environments: "
            + ", ".join(e.name for e in envs)
        )
    rows = [(e.name, h, s) for e in envs if env in (None, e.name) for h, s in e.heuristics]
    return pl.DataFrame(rows, schema=["env", "heuristic", "summary"], orient="row")


class Result(Mapping[str, pl.DataFrame]):
    """The tables of a replay or a grid, read from what swftool wrote.

    A mapping from table name to DataFrame (``result["summary"]``), also
    reachable as attributes (``result.summary``). Which tables there are
    depends on the environment; docs/outputs.md gives every column with
    its unit. A replay has ``jobs``, ``summary``, ``series`` (utilization,
    queue length and queued work per bin of ``series_step`` seconds, 3600
    by default) and, but for environment D, ``timing``; ``users`` and
    ``fairness`` (per-user waits and bounded slowdowns, Jain's index) when
    the jobs name users (environment D, and A or B on a log); environment
    D adds ``clean`` and ``suspensions``; a grid has
    ``runs``, ``aggregate``, ``paired``, ``timing`` and ``runs_timing``.

    Attributes:
        tables: name -> DataFrame.
        manifest: the run's ``manifest.json`` (flags, seed, log digests);
            empty for a replay under policies of your own, which write no
            folder.
        out: the output directory, or ``None`` for a replay that wrote to a
            temporary one (removed once read).
    """

    def __init__(self, tables: Dict[str, pl.DataFrame], manifest: Dict[str, Any], out: Optional[Path]):
        self.tables = tables
        self.manifest = manifest
        self.out = out

    def __getitem__(self, name: str) -> pl.DataFrame:
        try:
            return self.tables[name]
        except KeyError:
            raise KeyError(f"no table {name!r}; the tables: {', '.join(self.tables)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def __getattr__(self, name: str) -> pl.DataFrame:
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        raise AttributeError(f"no table {name!r}; the tables: {', '.join(tables)}")

    def __repr__(self) -> str:
        shapes = ", ".join(f"{k} {v.height}×{v.width}" for k, v in self.tables.items())
        where = f" in {self.out}" if self.out is not None else ""
        return f"<swftool.Result{where}: {shapes}>"


def _read_tables(out: Path, keep: bool) -> Result:
    tables = {p.stem: pl.read_parquet(p) for p in sorted(out.glob("*.parquet"))}
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    return Result(tables, manifest, out if keep else None)


def _flag_words(flags: Mapping[str, Any]) -> List[str]:
    """``day_arrivals="any"`` -> ``["--day-arrivals", "any"]``; ``True``
    -> the flag alone; ``False``/``None`` -> nothing; a list -> its items
    joined by commas."""
    words: List[str] = []
    for key, value in flags.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            words += [flag, ",".join(str(v) for v in value)]
        else:
            words += [flag, str(value)]
    return words


def replay(
    log: Optional[PathLike] = None,
    *,
    heuristic: Union[str, "Policy", Sequence[Union[str, "Policy"]]],
    env: str = "parallel",
    out: Optional[PathLike] = None,
    **flags: Any,
) -> Result:
    """Replays a log (or synthetic trials) through heuristics: ``swftool replay``.

    Args:
        log: a path or short name (as :func:`read_swf`); ``None`` for
            environment B's and C's synthetic trials.
        heuristic: a name, ``"all"`` (:func:`heuristics`), a policy of
            your own — :class:`MinMinPolicy` (environment A),
            :class:`PriorityPolicy` or :class:`ControlPolicy` (environment
            D); docs/python.md — or a list of these. Your policies run after the built-in heuristics; their
            rows follow in every table.
        env: ``parallel`` (A), ``serial`` (B), ``energy`` (C) or ``classic`` (D).
        out: a directory to write the tables to as the command does (kept);
            ``None``: a temporary one, removed once read.
        **flags: the command's flags under the same names, ``-`` as ``_``:
            ``seed=7``, ``day="2012-03-14"``, ``days=48``,
            ``oversubscription="higher"``, ``trials=4``,
            ``reservation_depth=4``, ``exact_estimates=True``,
            ``series_step=86400``, ``export="batsim"`` (with ``out=``),
            ``threads=2``, ``lenient=True``, … (``swftool replay --help``).
            A flag the environment does not take is refused, as by the
            command.

    Returns:
        The tables (:class:`Result`): the same rows and values as the
        files the command writes for the same flags and seed.

    Raises:
        UsageError: an unknown or refused flag, heuristic or value.
        LogNotFoundError, LogError: as :func:`read_swf`.
        SwftoolError: a schedule that breaks an invariant, an output
            folder holding files swftool did not write, …
        PolicyError: your policy raised (its exception is the cause) or
            gave unusable scores.
        KeyboardInterrupt: Ctrl-C; the runs under way finish first and
            nothing is left half-written.
    """
    own = (PriorityPolicy, ControlPolicy, MinMinPolicy)
    given = [heuristic] if isinstance(heuristic, (str,) + own) else list(heuristic)
    if not given:
        raise UsageError("give at least one heuristic")
    names = [h for h in given if isinstance(h, str)]
    policies = [h for h in given if isinstance(h, own)]
    if len(names) + len(policies) != len(given):
        odd = next(h for h in given if not isinstance(h, (str,) + own))
        raise UsageError(f"heuristic {odd!r}: give names or policies (swftool.MinMinPolicy, PriorityPolicy, ControlPolicy)")
    argv = [] if log is None else [os.fspath(log)]
    argv += ["--env", env]
    words = _flag_words(flags)
    if policies:
        for p in policies:
            wants = "parallel" if isinstance(p, MinMinPolicy) else "classic"
            if env != wants:
                raise UsageError(
                    f"{type(p).__name__} runs in environment {'A' if wants == 'parallel' else 'D'}: give env=\"{wants}\" (not {env!r})"
                )
        if out is not None:
            raise UsageError("out= is not taken with a policy of your own: the tables are returned, not written")
        return _replay_policies(log, env, names, policies, flags)
    argv += ["--heuristic", ",".join(names)] + words
    if flags.get("export") and out is None:
        raise UsageError("export= writes files beside the tables: give out= (a folder to keep)")
    if out is not None:
        _swftool.replay(argv + ["--out", os.fspath(out)])
        return _read_tables(Path(out), keep=True)
    tmp = Path(tempfile.mkdtemp(prefix="swftool-replay-"))
    try:
        _swftool.replay(argv + ["--out", os.fspath(tmp / "replay")])
        return _read_tables(tmp / "replay", keep=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _replay_policies(
    log: Optional[PathLike], env: str, names: List[str], policies: List["Policy"], flags: Dict[str, Any]
) -> Result:
    """The built-in heuristics `names` (if any), then each policy, their
    tables concatenated row-wise (environment D's `clean` table is the
    log's, once)."""
    parts: List[Dict[str, pl.DataFrame]] = []
    if names:
        parts.append(dict(replay(log, heuristic=names, env=env, **flags).tables))
    argv = ([] if log is None else [os.fspath(log)]) + ["--env", env]
    # A built-in name only satisfies the parser; the policy replaces it.
    argv += ["--heuristic", "backfill" if env == "classic" else "maxvalue"] + _flag_words(flags)
    for p in policies:
        if isinstance(p, PriorityPolicy):
            raw = _swftool.replay_scored(argv, p.name, p, p.depth)
        elif isinstance(p, ControlPolicy):
            raw = _swftool.replay_controlled(argv, p.name, p)
        else:
            raw = _swftool.replay_min_min(argv, p.name, p, p.place_holders)
        parts.append({k: pl.read_parquet(io.BytesIO(v)) for k, v in raw.items()})
    tables: Dict[str, pl.DataFrame] = {}
    for name in ["jobs", "summary", "timing", "clean", "suspensions", "users", "fairness", "series"]:
        frames = [t[name] for t in parts if name in t]
        if frames:
            tables[name] = frames[0] if name == "clean" else pl.concat(frames, how="vertical")
    return Result(tables, {}, None)


def experiment(
    config: Union[PathLike, Mapping[str, Any]],
    *,
    out: Optional[PathLike] = None,
    **flags: Any,
) -> Result:
    """Runs a grid of log × variant × heuristic × scenario: ``swftool experiment``.

    Args:
        config: a preset name (``"smoke"``, ``"khemka2015-parallel"``, …;
            ``environments()`` lists them), a TOML file, or the same
            configuration as a dict (``{"environment": "classic",
            "logs": ["kth-sp2"], "heuristics": ["fcfs", "easy"], …}``;
            docs/experiments.md gives the keys).
        out: the output directory (default: ``notebooks-out/<name>``, as the
            command). Rerunning into it skips the cells already there, so
            an interrupted grid resumes; a grown configuration runs only
            its new cells.
        **flags: the command's flags, ``-`` as ``_``: ``threads=2``,
            ``shard="0/4"``, ``no_figures=True``, ``no_check=True``, and
            each environment's grid flags (``window_start=50000``).

    Returns:
        The grid's tables (:class:`Result`), ``out`` set.

    Raises:
        UsageError: an unknown preset, a configuration key that does not
            exist or belongs to another environment (named, with its line
            for a file), a refused flag.
        LogNotFoundError, LogError, SwftoolError: as :func:`replay`.
        KeyboardInterrupt: Ctrl-C; finished cells are kept for a rerun.
    """
    words = _flag_words(flags)
    if out is not None:
        words += ["--out", os.fspath(out)]
    words.append("--quiet")
    if isinstance(config, Mapping):
        text = _swftool.json_to_toml(json.dumps(dict(config)))
        written = _swftool.experiment(["<dict>"] + words, text, "<dict>")
    else:
        spec = os.fspath(config)
        if spec.endswith(".toml") or os.sep in spec or Path(spec).exists():
            written = _swftool.experiment([spec] + words)
        else:
            written = _swftool.experiment(["--preset", spec] + words)
    return _read_tables(Path(written), keep=True)
