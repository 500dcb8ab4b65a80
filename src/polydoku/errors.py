"""The error family: each error owns its exit code and a one-line message.

Unsatisfiable and timed-out puzzles are outcome statuses, never errors.
"""

from __future__ import annotations

EXIT_SOLVED = 0
EXIT_UNSAT = 1
EXIT_BAD_INPUT = 2
EXIT_ENGINE = 3
EXIT_UNKNOWN = 4


class PolydokuError(Exception):
    """Base error: `str(err)` is the one line shown to the user."""

    exit_code = EXIT_ENGINE


class BadInput(PolydokuError):
    """Bad puzzle text, rules or options, with where it was found."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, *, source: str | None = None,
                 line: int | None = None, column: int | None = None):
        self.reason = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        from .text import one_line
        text = f"{', '.join(where)}: {self.reason}" if where else self.reason
        return one_line(text)

    def at(self, *, source: str | None = None, line: int | None = None) -> "BadInput":
        """Return a copy of this error placed in `source` at `line` (keeps what is known)."""
        return BadInput(self.reason, source=self.source or source,
                        line=self.line if self.line is not None else line, column=self.column)


class EngineUnavailable(PolydokuError):
    """An engine whose library or program is missing here."""

    exit_code = EXIT_ENGINE

    def __init__(self, engine: str, reason: str, hint: str | None = None):
        self.engine, self.reason, self.hint = engine, reason, hint
        text = f"engine {engine!r} is unavailable: {reason}"
        super().__init__(f"{text} (install: {hint})" if hint else text)


class EngineFailed(PolydokuError):
    """An engine that crashed, misbehaved or returned a wrong answer."""

    exit_code = EXIT_ENGINE

    def __init__(self, engine: str, reason: str, log_path: str | None = None):
        self.engine, self.reason, self.log_path = engine, reason, log_path
        text = f"engine {engine!r} failed: {reason}"
        super().__init__(f"{text} (log: {log_path})" if log_path else text)


class ClusterUnavailable(PolydokuError):
    """A Dask cluster that cannot be used: the library missing, or the scheduler unreachable
    or gone."""

    exit_code = EXIT_ENGINE


def debug_enabled() -> bool:
    """Return whether POLYDOKU_DEBUG asks for tracebacks."""
    import os
    return bool(os.environ.get("POLYDOKU_DEBUG"))
