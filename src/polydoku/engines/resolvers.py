"""The body shared by the package managers that read a generated repository and write a lock:
Composer, Cargo, dnf, opam, 0install, Bundler, cabal-install, and npm, pnpm and Yarn (each tool
or family in its own module beside this one).

Every one of them gets the problem as the virtual package index of `pypi.encode` (one package
per cell, one version `V.0.0` per value, exclusions between peers, one package per table whose
versions pin the cells of an allowed tuple), written in the tool's own language by its module.
This module runs the tool in a sandbox, reads its answer and says honestly what happened: a
solution only when the tool named a version of every cell, "unsatisfiable" only when the tool's
own words say it proved that no set of packages exists, "unknown" when it timed out or gave
up. The answer is checked against the puzzle's rules by `api.solve` before anyone sees it.

Options (`-o KEY=VALUE`): `encoding=faithful|tuned` overrides the variant's encoding, and
`memory_mb=N` the memory cap of the tool's run (default 4096).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..problem import Problem
from .base import Availability, Option, Outcome, Status
from .pypi.encode import ENCODINGS, build_index
from . import words
from .sandbox import DEFAULT_MEMORY_MB, ToolRun, find_program
from .tool import ToolEngine

MAX_WORDS_LINES = 60


class ResolverEngine(ToolEngine[Any]):
    """Encode, run in a sandbox, read the pins back; subclasses write the tool's own artifact."""

    OPTIONS = {"encoding": Option(ENCODINGS, {"faithful": "faithful", "tuned": "tuned"}),
               "memory_mb": Option("number", str(DEFAULT_MEMORY_MB), minimum=1)}
    program: ClassVar[str] = ""          # the program `available` looks for
    version_args: ClassVar[tuple[str, ...]] = ("--version",)
    # at most this many of the 43 tdoku puzzles in the differential count: these tools solve,
    # they do not count, so only the status differential runs them
    differential_limit = 5

    def encoding(self) -> str:
        """Return the encoding: the variant's, or the `encoding` option's."""
        return self.option("encoding")

    def memory_mb(self) -> int:
        """Return the memory cap of the tool's runs, in MB."""
        return self.number_option("memory_mb")

    def program_path(self) -> str | None:
        """Return the program this engine runs (None when it is not installed)."""
        return find_program(self.program)

    def available(self) -> Availability:
        path = self.program_path()
        if path is None:
            return Availability(False, reason=f"program {self.program!r} not found",
                                hint=self.install_hint)
        from .versions import program_version
        return Availability(True, program_version([path, *self.version_args]) or "unknown version")

    def encode(self, problem: Problem) -> Any:
        """Return what this engine writes in its tool's language: the virtual package index
        (another encoding may stand in: it needs `cells`, `encoding`, `releases()` and
        `figures()`)."""
        return build_index(problem, self.encoding())

    def read(self, problem: Problem, index: Any, done: ToolRun, timeout: float | None,
             seconds: float) -> Outcome:
        run = done.last
        if run.timed_out:
            limit = f"the {timeout:g} s limit" if timeout else "its time limit"
            return Outcome(Status.UNKNOWN, message=f"{self.tool} timed out: no answer within "
                                                   f"{limit} (stopped after {seconds:.1f} s)")
        if run.returncode == 0 and done.answer:
            try:
                pins = self.pins(done.answer, index)
            except (ValueError, KeyError, TypeError, IndexError) as err:
                return Outcome(Status.ERROR, message=f"cannot read {self.tool}'s answer: {err}")
            values = []
            for name, _var in sorted(index.cells, key=lambda nv: nv[1]):
                if name not in pins:
                    return Outcome(Status.ERROR, message=f"{self.tool}'s answer has no version "
                                                         f"of {name}")
                values.append(pins[name])
            return Outcome(Status.SOLVED, [tuple(values)])
        status, words = self.failure(run.output)
        if status is Status.UNSATISFIABLE:
            return Outcome(status, exhausted=True, message=words)
        if status is Status.UNKNOWN:
            return Outcome(status, message=f"{self.tool} gave up; this is no proof that the "
                                           f"puzzle has no solution. It said: {words}")
        if run.returncode in (-9, 137) or "memory" in run.output.lower():
            return Outcome(Status.UNKNOWN, message=f"{self.tool} ran out of its "
                                                   f"{self.memory_mb()} MB memory cap: {words}")
        return Outcome(Status.ERROR, message=f"{self.tool} exited with code {run.returncode}: "
                                             f"{words or last_lines(run.output)}")

    # --- what each tool's module provides ---------------------------------------------------

    def pins(self, answer: str, index: Any) -> dict[str, int]:
        """Return cell name (as in `index.cells`) -> value from the tool's answer."""
        raise NotImplementedError

    def failure(self, output: str) -> tuple[Status, str]:
        """Return the status a run without an answer establishes, and the tool's own words."""
        return Status.ERROR, last_lines(output)



def one_way(index: Any):
    """Yield (project, release, requirements) with each exclusion kept in one direction only,
    from a cell to later cells: for tools that refuse dependency cycles (Bundler, cabal). One
    direction already forbids the pair."""
    order = index.variable_of
    for project in index.projects:
        mine = order.get(project.name)
        for release in project.releases:
            yield project, release, [(name, spec) for name, spec in release.requires
                                     if not spec.startswith("!=") or mine is None
                                     or order[name] > mine]


# --- the tools' words ---------------------------------------------------------------------------

def excerpt(lines: list[str]) -> str:
    """Return at most MAX_WORDS_LINES non-empty lines, the middle cut out."""
    return words.excerpt(lines, MAX_WORDS_LINES)


def after(text: str, start: str) -> list[str]:
    """Return the lines from the first one containing `start` on."""
    return words.between(text, start)


def last_lines(output: str, n: int = 8) -> str:
    """Return the last few lines that look like an error (or "fatal"), else the last lines."""
    return "\n".join(words.error_lines(output, n, r"error|Error|ERROR|fatal"))


def value(version_text: str) -> int:
    """Return the value a version stands for: "5.0.0" -> 5 (any suffix after the first dot)."""
    head = version_text.strip().split(".", 1)[0]
    if not head.isdigit():
        raise ValueError(f"version {version_text!r} does not start with a value")
    return int(head)
