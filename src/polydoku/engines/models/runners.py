"""The `alloy` and `picat` engines: they run the exported model with the real tool when it
is installed, and say how to get it when it is not.

Neither tool is in the package registries polydoku installs from (PyPI, Debian, npm), so
these engines are optional: `available()` names where to get them. Alloy runs as `alloy`
on PATH or an Alloy 6 jar (`POLYDOKU_ALLOY_JAR`, or `-o jar=PATH`) through `java -jar`;
Picat as `picat` on PATH. All subprocess work goes through the sandbox.
"""

from __future__ import annotations

from typing import Any

import os
import re
import shutil
import xml.etree.ElementTree as ET

from ...problem import Problem
from ..base import Availability, Engine, Option, Outcome, Status
from ..sandbox import Sandbox, find_program
from . import alloy, picat

GRACE_SECONDS = 10.0


class AlloyEngine(Engine):
    """The Alloy 6 analyzer on the exported `.als` model (solve only)."""
    OPTIONS = {"jar": Option("text")}

    id = "alloy"
    title = "Alloy 6 analyzer on the exported .als model (optional: not in PyPI/Debian/npm)"
    install_hint = ("download the Alloy 6 jar (org.alloytools.alloy.dist.jar) from alloytools.org "
                    "and set POLYDOKU_ALLOY_JAR=/path/to/it (needs java: apt-get install "
                    "default-jre-headless), or put an `alloy` launcher on PATH")
    capabilities = frozenset({"solve"})
    required_in_ci = False

    def _command(self) -> list[str] | None:
        """Return the command prefix that runs Alloy's CLI, or None when it is not here."""
        exe = find_program("alloy")
        if exe:
            return [exe]
        jar = self.option("jar") or os.environ.get("POLYDOKU_ALLOY_JAR")
        java = shutil.which("java")
        if jar and os.path.isfile(jar) and java:
            return [java, "-jar", jar]
        return None

    def available(self) -> Availability:
        cmd = self._command()
        if cmd is None:
            return Availability(False, reason="Alloy not found (no `alloy` on PATH, no "
                                "POLYDOKU_ALLOY_JAR)", hint=self.install_hint)
        return Availability(True, "alloy (" + " ".join(cmd[-1:]) + ")")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        cmd = self._command()
        if cmd is None:
            return Outcome(Status.ERROR, message="Alloy not found", engine=self.spec)
        with Sandbox("alloy", self.keep) as box:
            als = box.write("puzzle.als", alloy.model_text(problem))
            r = box.run(cmd + ["exec", "-t", "xml", "-r", "1", str(als)],
                        timeout=timeout, memory_mb=None)
            common: dict[str, Any] = dict(engine=self.spec, log_path=r.log_path, artifact_path=box.kept(als),
                          stats={"run_seconds": round(r.seconds, 6)})
        if r.timed_out:
            return Outcome(Status.UNKNOWN, message="alloy: timed out", **common)
        solution = read_alloy_xml(r.stdout, problem)
        if solution is not None:
            return Outcome(Status.SOLVED, [solution], **common)
        words = r.output.strip()
        if r.returncode == 0 and re.search(r"no commands found|unsat|no instance", words, re.I):
            return Outcome(Status.UNSATISFIABLE, exhausted=True, message="alloy: no instance",
                           **common)
        return Outcome(Status.UNKNOWN if r.returncode == 0 else Status.ERROR,
                       message="alloy: " + (words.splitlines()[-1] if words else "no answer"),
                       **common)


def read_alloy_xml(text: str, problem: Problem) -> tuple[int, ...] | None:
    """Return the cell values of the `number` field in Alloy's XML instance, or None."""
    start = text.find("<alloy")
    if start < 0:
        start = text.find("<instance")
    if start < 0:
        return None
    try:
        root = ET.fromstring(text[start:text.rfind(">") + 1])
    except ET.ParseError:
        return None
    index = {problem.name(v): v for v in range(problem.nvars)}
    values = [0] * problem.nvars
    for field in root.iter("field"):
        if field.get("label") != "number":
            continue
        for t in field.iter("tuple"):
            atoms = [re.sub(r"\$\d+$", "", a.get("label", "")) for a in t.iter("atom")]
            digits = atoms[1][1:] if len(atoms) == 2 else ""
            if digits.isascii() and digits.isdigit() and atoms[0] in index:
                values[index[atoms[0]]] = int(digits)
    return tuple(values) if all(values) else None


class PicatEngine(Engine):
    """Picat (its cp module) on the exported `.pi` program (solve only)."""

    id = "picat"
    title = "Picat constraint program (cp module) exported as .pi (optional: not in PyPI/Debian/npm)"
    install_hint = "download Picat from picat-lang.org and put `picat` on PATH"
    capabilities = frozenset({"solve"})
    required_in_ci = False

    def available(self) -> Availability:
        exe = find_program("picat")
        if exe is None:
            return Availability(False, reason="program picat not found", hint=self.install_hint)
        return Availability(True, f"picat ({exe})")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        exe = find_program("picat")
        if exe is None:
            return Outcome(Status.ERROR, message="program picat not found", engine=self.spec)
        with Sandbox("picat", self.keep) as box:
            pi = box.write("puzzle.pi", picat.program_text(problem))
            r = box.run([exe, str(pi)], timeout=timeout)
            common: dict[str, Any] = dict(engine=self.spec, log_path=r.log_path, artifact_path=box.kept(pi),
                          stats={"run_seconds": round(r.seconds, 6)})
        if r.timed_out:
            return Outcome(Status.UNKNOWN, message="picat: timed out", **common)
        for line in r.stdout.splitlines():
            if line.startswith("solution:"):
                values = tuple(int(v) for v in line.split()[1:])
                if len(values) == problem.nvars:
                    return Outcome(Status.SOLVED, [values], **common)
            if line.strip() == "no solution" and r.returncode == 0:
                return Outcome(Status.UNSATISFIABLE, exhausted=True, **common)
        words = r.output.strip()
        return Outcome(Status.ERROR, message="picat: " + (words.splitlines()[-1] if words
                                                          else f"exit {r.returncode}"), **common)
