"""The `cabal` engine: Haskell's cabal-install plans `cabal build --dry-run` of a package that
depends on every cell, from a local `file+noindex` repository, offline.

The repository is what cabal reads natively: a folder of source tarballs, each holding its
`.cabal` file. Package `sudoku-r1c1` is cell r1c1 and its version `V.0.0` says the cell holds
V; a build plan holds one version of a library. An exclusion is a `build-depends` range that
leaves V out (`sudoku-r1c2 (<5.0.0 || >5.0.0)`), written **one way only**, from a cell to later
cells: cabal refuses cyclic dependencies. A table is a package `sudoku-tableK` whose versions
depend on the cells of one allowed tuple exactly. The project's package `sudoku-puzzle` depends
on every cell (givens pinned) and every table. (Cabal names may not have an all-digit part, so
`sudoku-aux-1` is written `sudoku-aux-n1`.)

The variants: `faithful` runs cabal's solver with its defaults (it gives up at its backjump
limit on most 9x9 puzzles: "gave up", exit 4); `tuned` publishes only the values the givens
leave and runs `--max-backjumps=-1 --reorder-goals`, which search to the end. CABAL_DIR (config,
package cache, store) and HOME are in the sandbox; nothing is downloaded or built.

cabal's solver is complete when its backjumps are unlimited: "Could not resolve dependencies"
after an exhaustive search is its proof; with the default limit it is "unknown".
"""

from __future__ import annotations

import gzip
import io
import re
import shlex
import tarfile
from pathlib import Path

from ..model import Puzzle
from ..problem import build_problem
from .base import Status
from .pypi.encode import ROOT_NAME, Index, build_index
from .resolvers import ResolverEngine, one_way, ToolRun, after, excerpt, value

REPO = "repo"


def cabal_name(name: str) -> str:
    """Return a package name cabal accepts: every part of it holds a letter."""
    return "-".join(p if not p.isdigit() else "n" + p for p in name.split("-"))


def _range(spec: str) -> str:
    if not spec:
        return ""
    parts = []
    for s in spec.split(","):
        ver = s[2:]
        parts.append(f"(<{ver} || >{ver})" if s.startswith("!=") else f"=={ver}")
    return " && ".join(parts)


def cabal_file(name: str, ver: str, synopsis: str, deps: list[tuple[str, str]]) -> str:
    """Return a .cabal file: an empty library whose build-depends carry the constraints."""
    depends = ",\n    ".join(f"{cabal_name(d)} {_range(s)}".rstrip() for d, s in deps)
    lines = ["cabal-version: 2.4", f"name: {cabal_name(name)}", f"version: {ver}",
             f"synopsis: {synopsis}", "build-type: Simple", "", "library",
             "  default-language: Haskell2010"]
    if depends:
        lines.append(f"  build-depends:\n    {depends}")
    return "\n".join(lines) + "\n"


def _sdist(name: str, ver: str, text: str) -> bytes:
    folder = f"{cabal_name(name)}-{ver}"
    data = text.encode()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo(f"{folder}/{cabal_name(name)}.cabal")
        info.size, info.mtime, info.mode = len(data), 0, 0o644
        tar.addfile(info, io.BytesIO(data))
    return gzip.compress(buf.getvalue(), mtime=0)


def repository(index: Index) -> dict[str, bytes]:
    """Return the source tarballs of the local repository, exclusions to later cells only."""
    out: dict[str, bytes] = {}
    for project, release, deps in one_way(index):
        text = cabal_file(project.name, release.version, release.summary, deps)
        out[f"{cabal_name(project.name)}-{release.version}.tar.gz"] = \
            _sdist(project.name, release.version, text)
    return out


def project_files(index: Index, repo: str) -> dict[str, str]:
    """Return the project: cabal.project (the one repository) and the root package."""
    root = [(name, spec) for name, spec in index.root]
    return {"cabal.project": "packages: .\n",
            f"{ROOT_NAME}.cabal": cabal_file(ROOT_NAME, "0", f"polydoku: {index.title} "
                                             f"({index.encoding} encoding)", root),
            "config": (f"repository sudoku\n  url: file+noindex://{repo}\n"
                       f"offline: True\njobs: 1\n")}


def command(tuned: bool) -> list[str]:
    extra = ["--max-backjumps=-1", "--reorder-goals"] if tuned else []
    return ["build", "--dry-run", "--offline", "--only-dependencies", *extra, ROOT_NAME]


_PLAN = re.compile(r"^ - (sudoku-[a-z0-9-]+)-(\d+\.\d+\.\d+) ", re.M)


class CabalEngine(ResolverEngine):
    """cabal-install 3: `cabal build --dry-run --offline` from a file+noindex repository."""

    id = "cabal"
    title = "cabal build --dry-run --offline from a file+noindex repository (one-way exclusions)"
    install_hint = "apt-get install cabal-install ghc (python3 tasks.py setup does it)"
    program = "cabal"
    tool = "cabal"
    status_timeout = 10

    def run_tool(self, box, index, timeout):
        repo = box.path / REPO
        for name, data in repository(index).items():
            box.write(f"{REPO}/{name}", data)
        cabal_dir = box.path / "home" / "cabal"
        for name, text in project_files(index, str(repo)).items():
            box.write(f"project/{name}" if name != "config" else "home/cabal/config", text)
        env = box.env({"CABAL_DIR": str(cabal_dir)})
        run = box.run([self.program, *command(self.variant == "tuned")], timeout=timeout, env=env,
                      cwd=box.path / "project", memory_mb=self.memory_mb(), name="cabal")
        return ToolRun([run], run.stdout if run.returncode == 0 else None, box.path / "project")

    def pins(self, answer, index):
        names = {cabal_name(name): name for name, _ in index.cells}
        out: dict[str, int] = {}
        for name, ver in _PLAN.findall(answer):
            if name in names:
                if names[name] in out:
                    raise ValueError(f"two versions of {name} in the plan")
                out[names[name]] = value(ver)
        return out

    def failure(self, output):
        if "Could not resolve dependencies" in output:
            words = excerpt(after(output, "Could not resolve dependencies"))
            if "backjump limit reached" in output.lower():
                return Status.UNKNOWN, words
            return Status.UNSATISFIABLE, words
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the repository, the project and a README (option encoding=faithful|tuned)."""
    from .exports import export_options, write_files
    encoding, _ = export_options(options)
    index = build_index(build_problem(puzzle), encoding)
    files: dict[str, bytes | str] = {f"{REPO}/{k}": v for k, v in repository(index).items()}
    for name, text in project_files(index, "@PWD@/" + REPO).items():
        files[f"project/{name}" if name != "config" else "config.in"] = text
    run = shlex.join(["cabal", *command(True)])
    files["README.md"] = f"""# {index.title}: a Sudoku for cabal

`repo/` is a `file+noindex` repository of source tarballs ({index.encoding} encoding): package
`sudoku-rRcC` is cell rRcC, its version `V.0.0` says the cell holds V, and each version's
`build-depends` keeps the later cells of its units off V. `project/` is a package that depends
on every cell, the givens pinned. Nothing is downloaded or built: `--dry-run` prints the plan.

```sh
mkdir -p cabal-dir && sed "s#@PWD@#$PWD#g" config.in > cabal-dir/config
cd project && CABAL_DIR=$PWD/../cabal-dir {run}
```

The plan lists `sudoku-rRcC-V.0.0`: cell rRcC holds V. Without `--max-backjumps=-1` cabal gives
up at its backjump limit on most 9x9 puzzles.
"""
    return write_files(out, files)
