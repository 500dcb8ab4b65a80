"""The conda engines: `libsolv-conda` (libsolv, PyPI `solv`) and `rattler` (resolvo, PyPI
`py-rattler`), both solving the channel of `encode.py` offline in a child process.

The engines only glue encoder, runner and decoder together and translate the tool's words into
an outcome: "unsatisfiable" only when the tool says it proved it (libsolv's problems, resolvo's
"Cannot solve the request"), "unknown" when it gave up or ran out of time. Their libraries are
never imported here: `available()` asks the installed distributions, the child imports them.
"""

from __future__ import annotations

import importlib.util
import time
from importlib import metadata
from typing import ClassVar

from ...errors import BadInput
from ...problem import Problem
from ..base import ALL_KINDS, Availability, Engine, Option, Outcome, Status
from .decode import decode
from .encode import VARIANTS, encode
from .run import run_tool

_STATUS = {"solved": Status.SOLVED, "unsatisfiable": Status.UNSATISFIABLE,
           "unknown": Status.UNKNOWN, "error": Status.ERROR}


class _CondaEngine(Engine):
    """Shared body of the two conda engines; subclasses name the tool and its distribution."""
    # the encoding's knobs; a knob not given keeps the variant's setting (encode.ENCODINGS)
    OPTIONS = {"prune": Option("flag"), "order": Option("flag"), "cells_need_meta": Option("flag"),
               "units": Option("flag"), "nogoods": Option(("depends", "constrains"))}

    tool: ClassVar[str] = ""
    module: ClassVar[str] = ""           # the import name the child needs
    distribution: ClassVar[str] = ""     # the PyPI distribution that provides it
    capabilities = frozenset({"solve"})
    takes = ALL_KINDS
    takes_aux = True
    variants = VARIANTS

    def available(self) -> Availability:
        """Return the distribution's version when its module can be imported by the child."""
        if importlib.util.find_spec(self.module) is None:
            return Availability(False, reason=f"Python module {self.module!r} not found",
                                hint=self.install_hint)
        try:
            version = metadata.version(self.distribution)
        except metadata.PackageNotFoundError:
            version = "unknown version"
        return Availability(True, version=f"{self.distribution} {version}")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        """Return the outcome of the tool on the problem's channel (one solution at most)."""
        t0 = time.perf_counter()
        try:
            channel = encode(problem, self.variant, self.options)
        except ValueError as err:
            raise BadInput(f"engine {self.spec}: {err}") from None
        files = channel.files()
        encode_seconds = time.perf_counter() - t0
        result = run_tool(self.tool, self.id, files, channel.specs, timeout=timeout, keep=self.keep)
        stats = {"encoding": self.variant, "packages": channel.npackages,
                 "encode_seconds": round(encode_seconds, 6), **result.stats}
        outcome = Outcome(_STATUS[result.status], stats=stats, message=result.message,
                          engine=self.spec, log_path=result.log_path,
                          artifact_path=result.artifact_path)
        if outcome.status is Status.UNSATISFIABLE:
            outcome.exhausted = True
        elif outcome.status is Status.SOLVED:
            solution, wrong = decode(problem, channel, result.installed)
            if solution is None:
                outcome.status, outcome.message = Status.ERROR, f"{self.tool} answer: {wrong}"
            else:
                outcome.solutions = [solution]
        return outcome


class LibsolvCondaEngine(_CondaEngine):
    """libsolv (openSUSE's SAT-based resolver, as used by mamba) on the conda channel."""

    id = "libsolv-conda"
    title = "libsolv (PyPI solv) on a conda repodata.json channel"
    install_hint = "pip install solv (into polydoku's venv: .venv/bin/pip install solv)"
    tool, module, distribution = "libsolv", "solv", "solv"


class RattlerEngine(_CondaEngine):
    """resolvo, the CDCL resolver of rattler/pixi, through py-rattler, on the conda channel."""

    id = "rattler"
    title = "resolvo (PyPI py-rattler) on a conda repodata.json channel"
    install_hint = "pip install py-rattler (into polydoku's venv: .venv/bin/pip install py-rattler)"
    tool, module, distribution = "rattler", "rattler", "py-rattler"
