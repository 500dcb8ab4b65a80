"""The Debian family of engines: apt, aptitude, aspcud (EDSP), libsolv-deb and dose.

Each one encodes the problem as a Packages file (`encode.py`), runs the real tool on it in a
private sandbox (`run.py`), reads the answer back (`decode.py`) and reports honestly: a solution
only when the tool named an installation of `puzzle`; "unsatisfiable" only when the tool proved
that none exists (libsolv's problems, dose-distcheck's "broken", aspcud's UNSAT); anything else,
such as apt's own solver giving up, is "unknown" with the tool's own words.

Options (`-o KEY=VALUE`): `reduction=conflicts|depends` (default conflicts), `memory_mb=N`
(the cap on every run, default 4096); aptitude also `steplimit=N`; libsolv-deb also
`solv=auto|debian|pypi`.
"""

from __future__ import annotations

import re
from pathlib import Path
from dataclasses import dataclass
from typing import Any, ClassVar

from ...problem import Problem
from ..base import Availability, Option, Outcome, Status
from ..sandbox import Sandbox, ToolRun, find_program
from ..tool import ToolEngine
from ..versions import program_version
from . import decode, layout, run
from .encode import REDUCTIONS, encode

_MEMORY_WORDS = ("bad_alloc", "out of memory", "cannot allocate memory", "memoryerror",
                 "out_of_memory", "memory exhausted")


@dataclass(frozen=True)
class Archive:
    """The artifact of the Debian engines: a Packages file, with how it was written."""

    packages: str
    reduction: str
    variant: str

    def figures(self) -> dict[str, Any]:
        """Return the reduction, the variant and the number of packages."""
        return {"reduction": self.reduction, "variant": self.variant,
                "packages": self.packages.count("Package: ")}


class DebianEngine(ToolEngine[Archive]):
    """Shared behaviour: the Packages file laid out in a private apt tree, the tool's words
    read as a finding, and an honest outcome of it."""

    programs: ClassVar[tuple[str, ...]] = ()
    OPTIONS = {"reduction": Option(REDUCTIONS, "conflicts"),
               "memory_mb": Option("number", str(run.DEFAULT_MEMORY_MB), minimum=1)}
    gave_up: ClassVar[str] = "the tool stopped without a solution"
    no_answer_codes: ClassVar[tuple[int, ...]] = ()   # exit codes of a run that said "no answer"

    def __init__(self, variant: str | None = None, *, keep=None, options=None):
        super().__init__(variant, keep=keep, options=options)
        self.reduction = self.option("reduction")
        self.memory_mb = self.number_option("memory_mb")

    def available(self) -> Availability:
        """Return whether every program this engine drives is installed, and its version."""
        missing = [p for p in self.programs if find_program(p) is None]
        if missing:
            return Availability(False, reason=f"{', '.join(missing)} not found",
                                hint=self.install_hint)
        return Availability(True, version=self.version())

    def version(self) -> str:
        """Return the tool's version as `polydoku engines` shows it."""
        return program_version([self.programs[0], "--version"])

    def encode(self, problem: Problem) -> Archive:
        return Archive(encode(problem, self.reduction, self.variant), self.reduction,
                       self.variant)

    def run_tool(self, box: Sandbox, archive: Archive, timeout: float | None) -> ToolRun:
        root = run.prepare(box, archive.packages)
        done = self.run_tree(box, root, timeout)
        done.artifact = root / layout.PACKAGES
        return done

    def run_tree(self, box: Sandbox, root: Path, timeout: float | None) -> ToolRun:
        """Return the runs of the tool on the private apt tree at `root`."""
        raise NotImplementedError

    def finding(self, tool: ToolRun) -> decode.Finding:
        """Return what the tool's output says."""
        raise NotImplementedError

    def read(self, problem: Problem, archive: Archive, tool: ToolRun, timeout: float | None,
             seconds: float) -> Outcome:
        if tool.timed_out:
            return Outcome(Status.UNKNOWN, message=f"{self.title_short} timed out after "
                           f"{timeout if timeout else seconds:g} s")
        last = tool.last
        finding = self.finding(tool)
        if finding.answered:
            grid, wrong = decode.solution(problem, finding.installed)
            if grid is None:
                return Outcome(Status.ERROR, message=f"the installation set is not a grid: {wrong}")
            return Outcome(Status.SOLVED, [grid])
        if finding.proved_none:
            return Outcome(Status.UNSATISFIABLE, exhausted=True, message=finding.words)
        text = (last.stdout + last.stderr).lower()
        if any(w in text for w in _MEMORY_WORDS) or last.returncode in (-9, -6, 137):
            return Outcome(Status.UNKNOWN,
                           message=f"{self.title_short} ran out of its {self.memory_mb} MB memory "
                                   f"cap: {last.stderr.strip()[-300:] or finding.words}")
        if tool.failed_step is None and last.returncode in self.no_answer_codes and finding.words:
            return Outcome(Status.UNKNOWN,
                           message=f"{self.gave_up}; this is no proof that the puzzle has no "
                                   f"solution. {self.title_short} said: {finding.words}")
        return Outcome(Status.ERROR,
                       message=f"{tool.failed_step or last.cmd[0]} failed "
                               f"(exit {last.returncode}): "
                               f"{last.stderr.strip()[-300:] or finding.words}")

    @property
    def title_short(self) -> str:
        """Return the tool's short name for messages."""
        return self.programs[0] if self.programs else self.id


class AptEngine(DebianEngine):
    """apt-get's own solver, in simulation, on a private apt tree."""

    id = "apt"
    title = "apt-get -s install puzzle (apt's own solver) on a generated Packages file"
    install_hint = "apt-get install apt (Debian's package manager)"
    programs: ClassVar[tuple[str, ...]] = ("apt-get",)
    gave_up = "apt's own solver does not backtrack and stopped without a solution"
    no_answer_codes = (100,)

    def run_tree(self, box, root, timeout):
        return run.run_apt_family(box, root, layout.apt_command(str(root)), timeout=timeout,
                                  memory_mb=self.memory_mb)

    def finding(self, tool):
        return decode.read_apt(tool.last.output)

    def version(self) -> str:
        return program_version(["apt-get", "--version"], "apt")


class AspcudEngine(AptEngine):
    """apt-get with the external EDSP solver aspcud (through apt-cudf)."""

    id = "aspcud"
    title = "apt-get -s --solver aspcud install puzzle (EDSP: apt-cudf + aspcud)"
    install_hint = "apt-get install apt-cudf aspcud"
    programs = ("apt-get", "apt-cudf", "aspcud")
    gave_up = "aspcud stopped without a solution"

    def available(self) -> Availability:
        avail = super().available()
        if avail.ok and not Path("/usr/lib/apt/solvers/aspcud").exists():
            return Availability(False, reason="/usr/lib/apt/solvers/aspcud not found",
                                hint=self.install_hint)
        return avail

    def run_tree(self, box, root, timeout):
        return run.run_apt_family(box, root, layout.apt_command(str(root), "aspcud"),
                                  timeout=timeout, memory_mb=self.memory_mb)

    def finding(self, tool):
        finding = decode.read_apt(tool.last.output)
        unsat = re.search(r"Message: (\(UNSAT\).*)", tool.last.output)
        if unsat and not finding.answered:
            # aspcud is a complete solver: "(UNSAT)" is its proof that no installation exists
            finding.proved_none = True
            finding.words = f"aspcud (through apt-get's EDSP): {unsat.group(1).strip()}; " \
                            f"apt-get: {finding.words}"
        return finding

    def version(self) -> str:
        aspcud = program_version(["aspcud", "-v"], "aspcud").replace("version ", "")
        cudf = program_version(["apt-cudf", "--version"]).split(" ")[0]
        return f"{aspcud}, apt-cudf {cudf}"

    @property
    def title_short(self) -> str:
        return "aspcud"


class MccsEngine(AspcudEngine):
    """apt-get with mccs (CBC's MILP) as its EDSP solver, through a private apt-cudf wrapper.

    Debian's own `/usr/lib/apt/solvers/mccs-cbc` fails on every request: apt-cudf hands mccs
    its criteria in the MISC 2012 language, which mccs does not read. The wrapper written into
    the sandbox (`solvers/mccs`, found through `Dir::Bin::Solvers`) runs apt-cudf with the
    same solver and plain criteria that mccs reads: fewest removals, then fewest changes.
    """

    id = "mccs"
    title = "apt-get -s --solver mccs install puzzle (EDSP: apt-cudf + mccs with CBC)"
    install_hint = "apt-get install apt-cudf mccs"
    programs = ("apt-get", "apt-cudf", "mccs")
    gave_up = "mccs stopped without a solution"
    CRITERIA = "-lex[-removed,-changed]"

    def available(self) -> Availability:
        return DebianEngine.available(self)

    def run_tree(self, box, root, timeout):
        wrapper = root / "solvers" / "mccs"
        wrapper.parent.mkdir(parents=True, exist_ok=True)
        wrapper.write_text(f"#!/bin/sh\nexec {find_program('apt-cudf') or 'apt-cudf'} "
                           f"--solver=mccs-cbc --criteria-plain='{self.CRITERIA}' \"$@\"\n")
        wrapper.chmod(0o755)
        cmd = layout.apt_command(str(root), "mccs")
        cmd[1:1] = ["-o", f"Dir::Bin::Solvers::={wrapper.parent}"]
        return run.run_apt_family(box, root, cmd, timeout=timeout, memory_mb=self.memory_mb)

    def finding(self, tool):
        finding = decode.read_apt(tool.last.output)
        unsat = re.search(r"(\(UNSAT\)[^\n/]*)", tool.last.output)
        if unsat and not finding.answered:
            # mccs is an exact MILP solver: "(UNSAT)" is its proof that no installation exists
            finding.proved_none = True
            finding.words = f"mccs (through apt-get's EDSP): {unsat.group(1).strip()}; " \
                            f"apt-get: {finding.words}"
        return finding

    def version(self) -> str:
        from .run import debian_package_version
        cudf = program_version(["apt-cudf", "--version"]).split(" ")[0]
        return f"mccs {debian_package_version('mccs') or '?'}, apt-cudf {cudf}"

    @property
    def title_short(self) -> str:
        return "mccs"


class AptitudeEngine(DebianEngine):
    """aptitude's resolver, in simulation, told that leaving puzzle out is no answer."""

    id = "aptitude"
    title = (f"aptitude -s install puzzle with the hint '{layout.APTITUDE_HINT}' "
             "on a generated Packages file")
    install_hint = "apt-get install aptitude"
    programs = ("aptitude",)
    OPTIONS = {**DebianEngine.OPTIONS, "steplimit": Option("number", "0")}
    gave_up = "aptitude's resolver gave up"
    no_answer_codes = (1,)    # "Unable to resolve dependencies! Giving up..."

    def run_tree(self, box, root, timeout):
        step = self.number_option("steplimit") or None
        return run.run_apt_family(box, root, layout.aptitude_command(str(root), step),
                                  timeout=timeout, memory_mb=self.memory_mb)

    def finding(self, tool):
        return decode.read_aptitude(tool.last.output)

    def version(self) -> str:
        return program_version(["aptitude", "--version"], "aptitude")


class DoseEngine(DebianEngine):
    """dose-distcheck, Debian's installability checker: the installation set it finds for puzzle."""

    id = "dose"
    title = "dose-distcheck --explain on puzzle:amd64 (Debian's QA installability checker)"
    install_hint = "apt-get install dose-distcheck"
    programs = ("dose-distcheck",)

    def run_tree(self, box, root, timeout):
        return run.run_dose(box, root, timeout=timeout, memory_mb=self.memory_mb)

    def finding(self, tool):
        return decode.read_dose(tool.last.stdout)

    def version(self) -> str:
        version = program_version(["dose-distcheck", "--version"]).split(" ")[0]
        return f"dose-distcheck {version}"


class LibsolvDebEngine(DebianEngine):
    """libsolv on the same Packages file, through its Python bindings, in a child process."""

    id = "libsolv-deb"
    title = "libsolv (Python bindings) installing puzzle from the generated Packages file"
    install_hint = ("apt-get install python3-solv (reads Packages natively), "
                    "or pip install solv (in the venv)")
    OPTIONS = {**DebianEngine.OPTIONS, "solv": Option(("auto", "debian", "pypi"), "auto")}

    def _which(self) -> str:
        return self.option("solv")

    def available(self) -> Availability:
        python, reader = run.solv_python(self._which())
        if python is None:
            return Availability(False, reason=reader, hint=self.install_hint)
        if reader == "add_debpackages":
            debian = run.debian_package_version("python3-solv")
            return Availability(True, version=f"libsolv {debian} (Debian python3-solv, "
                                              "add_debpackages)")
        from importlib.metadata import version
        return Availability(True, version=f"libsolv {version('solv')} (PyPI solv, Packages "
                                          "read by polydoku)")

    def run_tree(self, box, root, timeout):
        python, reason = run.solv_python(self._which())
        if python is None:
            from ...errors import EngineUnavailable
            raise EngineUnavailable(self.id, reason, self.install_hint)
        return run.run_libsolv(box, root, python, timeout=timeout, memory_mb=self.memory_mb)

    def finding(self, tool):
        return decode.read_libsolv(tool.report)

    @property
    def title_short(self) -> str:
        return "libsolv"
