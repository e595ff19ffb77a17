"""The exceptions swftool raises.

Every error of the engine is a :class:`SwftoolError`; its message is the one
the ``swftool`` command prints (file, line and problem for a log; the flag
or key and what it accepts for a refusal). The subclasses also derive from
the built-in exception a Python user would catch: ``ValueError`` for input
that is wrong, ``FileNotFoundError`` for a log that is not there.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["SwftoolError", "UsageError", "LogError", "LogNotFoundError", "PolicyError"]


def __dir__() -> list:
    """The public API, :data:`__all__`."""
    return sorted(__all__)


class SwftoolError(Exception):
    """Any error of swftool's engine (also: an internal error, a bug to report)."""

    def __init__(self, message: str, **attrs: object) -> None:
        super().__init__(message)
        for k, v in attrs.items():
            setattr(self, k, v)


class UsageError(SwftoolError, ValueError):
    """A flag, name or configuration key swftool refuses: an unknown
    heuristic or log name (with "did you mean"), a flag of another
    environment, a value out of range, a configuration key that does not
    exist. The message names the flag or key, as the command does."""


class LogError(SwftoolError, ValueError):
    """A log that does not parse.

    Attributes:
        file: the file as given (str).
        line: the 1-based line number, or ``None`` when the error is not
            tied to a line (a truncated gzip stream, a directory).
    """

    file: Optional[str]
    line: Optional[int]

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


class LogNotFoundError(SwftoolError, FileNotFoundError):
    """A log path that does not exist, or a short name in none of the
    directories searched (``$SWFTOOL_TRACES``, ``./traces``,
    ``../shared/traces``, the user cache ``~/.cache/swftool/traces``); the
    message lists every one, in order, and says which do not exist."""

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None) -> None:
        # FileNotFoundError's str() is its one argument: the message.
        super().__init__(message)
        self.file = file
        self.line = line


class PolicyError(SwftoolError):
    """A Python scheduling policy that raised (its exception is this one's
    ``__cause__``), returned something that is not one number per waiting
    job, or a NaN; the message names the pass (its time) and, for a bad
    score, the job."""
