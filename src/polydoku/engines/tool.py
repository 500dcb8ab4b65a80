"""The one template of every engine that drives an outside program on a file it writes: the
Debian tools, the Python packaging tools and the other package managers.

An engine of this kind writes its artifact (`encode`, pure), runs the real tool on it in a
private sandbox (`run_tool`, the only place its subprocesses live) and reads what the tool said
back into an outcome (`read`), claiming no more than the tool's words establish. This class
holds what they all do around those three steps: the sandbox, the tool's words with the
sandbox's path hidden, where the log and the artifact are kept, and the run's figures.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..problem import Problem
from .base import ALL_KINDS, Engine, Outcome
from .sandbox import Sandbox, ToolRun


class Artifact(Protocol):
    """What an encoder wrote for a tool (a Packages file, a package index, vendored crates)."""

    def figures(self) -> dict[str, Any]:
        """Return what it holds, in figures for the outcome's statistics."""
        ...


A = TypeVar("A", bound=Artifact)


class ToolEngine(Engine, Generic[A]):
    """Encode, run the tool in a sandbox, read its answer; subclasses give the three steps."""

    capabilities = frozenset({"solve"})
    takes = ALL_KINDS
    takes_aux = True
    variants: ClassVar[tuple[str, ...]] = ("faithful", "tuned")
    tool: ClassVar[str] = ""             # the tool's name in messages

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        artifact = self.encode(problem)
        with Sandbox(self.id, self.keep) as box:
            t0 = time.perf_counter()
            done = self.run_tool(box, artifact, timeout)
            seconds = time.perf_counter() - t0
            for run in done.runs:   # the tool's words name the sandbox's temp path
                run.stdout = run.stdout.replace(str(box.path), "<sandbox>")
                run.stderr = run.stderr.replace(str(box.path), "<sandbox>")
            out = self.read(problem, artifact, done, timeout, seconds)
            out.log_path = done.last.log_path if done.runs else None
            out.artifact_path = box.kept(done.artifact) if done.artifact else None
        out.stats.update(artifact.figures())
        out.stats.update({"tool_seconds": round(seconds, 3),
                          "tool_cpu_seconds": round(done.cpu_seconds, 3)})
        if done.setup_seconds:
            out.stats["setup_seconds"] = round(done.setup_seconds, 3)
        out.stats.update(self.tool_stats(done))
        out.engine = self.spec
        return out

    def encode(self, problem: Problem) -> A:
        """Return the artifact this engine writes for its tool."""
        raise NotImplementedError

    def run_tool(self, box: Sandbox, artifact: A, timeout: float | None) -> ToolRun:
        """Write the artifact into the sandbox, run the tool, return its runs and answer."""
        raise NotImplementedError

    def read(self, problem: Problem, artifact: A, done: ToolRun, timeout: float | None,
             seconds: float) -> Outcome:
        """Return the outcome the tool's runs establish, and no more."""
        raise NotImplementedError

    def tool_stats(self, done: ToolRun) -> dict[str, Any]:
        """Return statistics the tool printed about its run."""
        return {}
