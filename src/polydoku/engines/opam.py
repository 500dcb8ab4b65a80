"""The `opam` engine: OCaml's opam resolves `opam install --dry-run sudoku-puzzle` into an empty
switch, from a local repository, with its built-in solver (mccs).

The repository is what opam reads natively: `repo` and `packages/NAME/NAME.VERSION/opam`. Package
`sudoku-r1c1` is cell r1c1 and its version `V.0.0` says the cell holds V; opam installs one
version of a package. Exclusions use opam's own field: version V of a cell has `conflicts:
["sudoku-r1c2" {= "V.0.0"} …]` for each peer. A table is a package `sudoku-tableK` whose versions
depend on the cells of one allowed tuple exactly. `sudoku-puzzle` depends on every cell (givens
pinned) and every table.

The run, all under an opam root inside the sandbox (`OPAMROOT`): `opam init --bare` on the local
repository, `opam switch create --empty`, then `opam install --dry-run --show-actions`, which
prints the actions and changes nothing. `OPAMNODEPEXTS=1` keeps opam from asking the host's
package manager about system packages; `OPAMSOLVERTIMEOUT` is the run's timeout. mccs is an
exact solver: "No solution" is its proof that no grid exists; a solver timeout is "unknown".
"""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path

from ..model import Puzzle
from ..problem import build_problem
from .base import Status
from .pypi.encode import ROOT_NAME, Index, build_index
from .resolvers import ResolverEngine, ToolRun, after, excerpt, value

SWITCH = "empty"


def _q(text: str) -> str:
    return json.dumps(text)      # an opam string: double quotes, backslash escapes


def _formula(name: str, spec: str) -> str:
    if spec.startswith("=="):
        return f"{_q(name)} {{= {_q(spec[2:])}}}"
    return _q(name)


def opam_file(synopsis: str, depends: list[str], conflicts: list[str]) -> str:
    """Return an opam file with its depends and conflicts fields (formulas already written)."""
    lines = ['opam-version: "2.0"', f"synopsis: {_q(synopsis)}", 'maintainer: "polydoku"',
             'license: "CC0-1.0"']
    if depends:
        lines.append("depends: [\n  " + "\n  ".join(depends) + "\n]")
    if conflicts:
        lines.append("conflicts: [\n  " + "\n  ".join(conflicts) + "\n]")
    return "\n".join(lines) + "\n"


def repository(index: Index) -> dict[str, str]:
    """Return the opam repository's files by relative path."""
    out = {"repo": 'opam-version: "2.0"\n'}
    for project in index.projects:
        for release in project.releases:
            depends, conflicts = [], []
            for name, spec in release.requires:
                if spec.startswith("!="):
                    conflicts += [f"{_q(name)} {{= {_q(s[2:])}}}" for s in spec.split(",")]
                else:
                    depends.append(_formula(name, spec))
            out[f"packages/{project.name}/{project.name}.{release.version}/opam"] = \
                opam_file(release.summary, depends, conflicts)
    root = [_formula(name, spec) for name, spec in index.root]
    out[f"packages/{ROOT_NAME}/{ROOT_NAME}.0/opam"] = opam_file(
        f"polydoku: {index.title} ({index.encoding} encoding)", root, [])
    return out


def commands(repo: str) -> list[list[str]]:
    """Return opam's three steps: a bare root on the repository, an empty switch, the solve."""
    return [["init", "--bare", "-n", "--disable-sandboxing", "sudoku", repo],
            ["switch", "create", SWITCH, "--empty"],
            ["install", "--dry-run", "--show-actions", "--switch", SWITCH, ROOT_NAME]]


_ACTION = re.compile(r"install\s+(sudoku-\S+)\s+(\S+)")


class OpamEngine(ResolverEngine):
    """opam 2: `opam install --dry-run` into an empty switch from a local repository."""

    id = "opam"
    title = "opam install --dry-run into an empty switch from a local repository (builtin mccs)"
    install_hint = "apt-get install opam (python3 tasks.py setup does it)"
    program = "opam"
    tool = "opam"

    def run_tool(self, box, index, timeout):
        for relpath, text in repository(index).items():
            box.write(f"repo/{relpath}", text)
        extra = {"OPAMROOT": str(box.path / "opamroot"), "OPAMNODEPEXTS": "1", "OPAMYES": "1",
                 "OPAMCOLOR": "never", "OPAMUTF8": "never", "OPAMNOENVNOTICE": "1",
                 "OPAMROOTISOK": "1", "OPAMDOWNLOADJOBS": "1", "OPAMKEEPBUILDDIR": "0"}
        if timeout:
            extra["OPAMSOLVERTIMEOUT"] = f"{max(1.0, timeout - 2):g}"
        env = box.env(extra)
        t0 = time.perf_counter()
        done = ToolRun(artifact=box.path / "repo")
        *prepare, solve = commands(str(box.path / "repo"))
        for args in prepare:
            left = None if timeout is None else max(1.0, timeout - (time.perf_counter() - t0))
            run = box.run([self.program, *args], timeout=left, env=env,
                          memory_mb=self.memory_mb(), name=f"opam-{args[0]}")
            done.runs.append(run)
            if run.returncode != 0 or run.timed_out:
                return done
        left = None if timeout is None else max(1.0, timeout - (time.perf_counter() - t0))
        run = box.run([self.program, *solve], timeout=left, env=env, memory_mb=self.memory_mb(),
                      name="opam-install")
        done.runs.append(run)
        done.answer = run.stdout if run.returncode == 0 else None
        return done

    def pins(self, answer, index):
        out: dict[str, int] = {}
        for name, ver in _ACTION.findall(answer):
            if name == ROOT_NAME:
                continue
            if name in out:
                raise ValueError(f"two versions of {name}")
            out[name] = value(ver)
        return out

    def failure(self, output):
        if "timed out" in output.lower():
            return Status.UNKNOWN, excerpt(after(output, "timed out") or output.splitlines())
        if "No solution" in output or "Package conflict" in output:
            return Status.UNSATISFIABLE, excerpt(after(output, "[ERROR]") or
                                                 after(output, "No solution"))
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the opam repository and a README with the commands (option encoding=…)."""
    from .exports import export_options, write_files
    encoding, _ = export_options(options)
    index = build_index(build_problem(puzzle), encoding)
    files = {f"repo/{k}": v for k, v in repository(index).items()}
    steps = "\n".join(shlex.join(["opam", *args]).replace("@PWD@", '"$PWD"')
                      for args in commands("@PWD@/repo"))
    files["README.md"] = f"""# {index.title}: a Sudoku for opam

`repo/` is an opam repository ({index.encoding} encoding): package `sudoku-rRcC` is cell rRcC,
its version `V.0.0` says the cell holds V, and each version conflicts with its peers holding V.
`sudoku-puzzle` depends on every cell, the givens pinned. The opam root is a folder here, so
your own opam set-up is not touched; `--dry-run` installs nothing.

```sh
export OPAMROOT=$PWD/opamroot OPAMNODEPEXTS=1 OPAMYES=1 OPAMROOTISOK=1
{steps}
```

The actions list `install sudoku-rRcC V.0.0`: cell rRcC holds V. When the puzzle has no
solution, opam says "No solution" and names the conflicting packages.
"""
    return write_files(out, files)
