"""The Python packaging engines: `resolvelib` (in process), `pip`, `uv`, `poetry`, `pdm`.

Each has the variants `faithful` (the write-ups' encoding, the tool's defaults) and `tuned`
(values pruned by the givens, root requirements fewest-values first, and the tool's best
ordering: fewest-candidates-first for resolvelib, lowest-first for uv). Options (`-o KEY=VALUE`)
override a variant's choices one by one, e.g. `resolvelib -o strategy=fewest`.
"""

from __future__ import annotations

import importlib.metadata
import sys

from ...problem import Problem
from ..base import ALL_KINDS, Availability, Engine, Option, Outcome, Status
from ..sandbox import ToolRun, find_program
from ..tool import ToolEngine
from . import encode
from .encode import Index


ENCODING = Option(encode.ENCODINGS, {"faithful": "faithful", "tuned": "tuned"})


class PackagingEngine(ToolEngine[Index]):
    """The outside Python packaging tools: the virtual index as the tool reads it, its answer
    file (a report, a requirements list, a lock) read back."""

    OPTIONS = {"encoding": ENCODING}

    def encode(self, problem: Problem) -> Index:
        return encode.build_index(problem, self.option("encoding"))

    def read(self, problem: Problem, index: Index, done: ToolRun,
             timeout: float | None, seconds: float) -> Outcome:
        from . import decode
        run = done.last
        out = decode.outcome(self.tool, index, done.answer, run.output,
                             returncode=run.returncode, timed_out=run.timed_out, seconds=seconds)
        if run.timed_out and timeout:
            out.message = (f"{self.tool} timed out: no answer within the {timeout:g} s "
                           f"limit (stopped after {seconds:.1f} s)")
        return out


def _program(name: str, dist: str, hint: str) -> Availability:
    """Return whether a tool's program is here, with its version."""
    path = find_program(name)
    if not path:
        return Availability(False, reason=f"program {name!r} not found", hint=hint)
    from .run import tool_version
    return Availability(True, tool_version(path, dist) or "unknown version")


class ResolvelibEngine(Engine):
    """resolvelib, pip's resolver library, in process over the virtual index."""

    capabilities = frozenset({"solve"})
    takes = ALL_KINDS
    takes_aux = True
    variants = ("faithful", "tuned")

    id = "resolvelib"
    title = "resolvelib (pip's resolver) in process over a virtual package index"
    install_hint = "pip install resolvelib packaging"
    tool = "resolvelib"
    OPTIONS = {"encoding": ENCODING,
               "strategy": Option(("pip", "fewest"), {"faithful": "pip", "tuned": "fewest"}),
               "order": Option(("highest", "lowest"), "highest"),
               "max_rounds": Option("number", minimum=1)}

    def available(self) -> Availability:
        try:
            import packaging  # noqa: F401
            import resolvelib
        except ImportError as err:
            return Availability(False, reason=f"cannot import {err.name}", hint=self.install_hint)
        return Availability(True, resolvelib.__version__)

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        from resolvelib import ResolutionImpossible, ResolutionTooDeep

        from . import decode, resolver
        index = encode.build_index(problem, self.option("encoding"))
        rounds = int(self.option("max_rounds") or resolver.DEFAULT_MAX_ROUNDS)
        stats = {"encoding": index.encoding, "strategy": self.option("strategy")}
        try:
            pins, counted = resolver.resolve(index, strategy=self.option("strategy"),
                                             order=self.option("order"), max_rounds=rounds,
                                             timeout=timeout)
        except resolver.DeadlineReached as err:
            return self._done(Status.UNKNOWN, stats, err, f"timed out after {timeout:g} s")
        except ResolutionTooDeep as err:
            return self._done(Status.UNKNOWN, stats, err,
                              f"ResolutionTooDeep: gave up after {err.round_count} rounds")
        except ResolutionImpossible as err:
            return self._done(Status.UNSATISFIABLE, stats, err, "ResolutionImpossible: " +
                              resolver.explain_impossible(err.causes))
        stats.update(vars(counted))
        sol, missing = decode.solution(index, pins)
        if sol is None:
            return Outcome(Status.ERROR, stats=stats, message=missing, engine=self.spec)
        return Outcome(Status.SOLVED, [sol], stats=stats, engine=self.spec)

    def _done(self, status: Status, stats: dict, err: Exception, message: str) -> Outcome:
        counted = getattr(err, "stats", None)
        if counted is not None:
            stats.update(vars(counted))
        return Outcome(status, exhausted=status is Status.UNSATISFIABLE, stats=stats,
                       message=message, engine=self.spec)


class PipEngine(PackagingEngine):
    """pip's resolver for real: `pip install --dry-run --report` over a wheel folder."""

    id = "pip"
    title = "pip install --dry-run --report over a folder of generated wheels"
    install_hint = "pip install 'pip>=22.2' (this Python's pip runs it)"
    tool = "pip"

    def available(self) -> Availability:
        try:
            found = importlib.metadata.version("pip")
        except importlib.metadata.PackageNotFoundError:
            return Availability(False, reason=f"no pip in {sys.executable}", hint=self.install_hint)
        major, minor = (int(x) for x in found.split(".")[:2])
        if (major, minor) < (22, 2):
            return Availability(False, found, f"pip {found} has no --report (needs 22.2)",
                                self.install_hint)
        return Availability(True, found)

    def run_tool(self, sandbox, index, timeout):
        from .run import run_pip
        return run_pip(sandbox, index, timeout)


class UvEngine(PackagingEngine):
    """uv's PubGrub resolver: `uv pip compile --no-index --find-links`."""

    id = "uv"
    title = "uv pip compile --no-index --find-links over a folder of generated wheels"
    install_hint = "pip install uv"
    tool = "uv"
    OPTIONS = {**PackagingEngine.OPTIONS,
               "resolution": Option(("highest", "lowest", "lowest-direct"),
                                    {"faithful": "highest", "tuned": "lowest"})}

    def available(self) -> Availability:
        return _program("uv", "uv", self.install_hint)

    def run_tool(self, sandbox, index, timeout):
        from .run import run_uv
        return run_uv(sandbox, index, timeout, self.option("resolution"))


class PoetryEngine(PackagingEngine):
    """Poetry's PubGrub solver: `poetry lock` against a simple index served on 127.0.0.1."""

    id = "poetry"
    title = "poetry lock against a PEP 503 index served on 127.0.0.1"
    install_hint = "python3 tasks.py setup (deps/tools/poetry.txt -> .venv/tools/poetry)"
    tool = "poetry"

    def available(self) -> Availability:
        return _program("poetry", "poetry", self.install_hint)

    def run_tool(self, sandbox, index, timeout):
        from .run import run_poetry
        return run_poetry(sandbox, index, timeout)


class PdmEngine(PackagingEngine):
    """PDM's resolvelib-based resolver: `pdm lock` against a simple index on 127.0.0.1."""

    id = "pdm"
    title = "pdm lock against a PEP 503 index served on 127.0.0.1"
    install_hint = "python3 tasks.py setup (deps/tools/pdm.txt -> .venv/tools/pdm)"
    tool = "pdm"
    OPTIONS = {**PackagingEngine.OPTIONS,
               "strategy": Option(("direct_minimal_versions",)),
               "max_rounds": Option("number", minimum=1)}

    def available(self) -> Availability:
        return _program("pdm", "pdm", self.install_hint)

    def run_tool(self, sandbox, index, timeout):
        from .run import run_pdm
        rounds = self.option("max_rounds")
        return run_pdm(sandbox, index, timeout, self.option("strategy"),
                       int(rounds) if rounds else None)
