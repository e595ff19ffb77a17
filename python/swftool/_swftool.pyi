"""Type stubs of swftool's Rust extension module (python/src/lib.rs).

The public API is the package :mod:`swftool`; these are the functions it
calls. Errors are raised as the classes of :mod:`swftool.errors`.
"""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

def read_swf(log: str, lenient: bool = False) -> Dict[str, Any]:
    """Reads a log: ``jobs`` (Parquet bytes, the 18 SWF fields, -1 as
    null), ``header`` (dict), ``name``, ``path``, ``sha256``, ``skipped``
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
