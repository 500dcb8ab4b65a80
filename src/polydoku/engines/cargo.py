"""The `cargo` engine: Rust's Cargo resolves a crate that depends on every cell, from a vendored
`directory` source, offline, and writes `Cargo.lock`.

Semver has no `!=`, so exclusions use the rule Cargo keeps for every crate: one version per
compatible series. Crate `sudoku-r1c1` is cell r1c1 and its version `1.V.0` says the cell holds
V (all in series 1, so the graph holds one version of each cell). A set of cell values of which
at most one may hold is a helper crate with one version `1.0.j` per member; member j's cell
version depends on the helper at `=1.0.j`, so two members can never both be chosen:
- `sudoku-unitK-vV`: the cells of unit K (a row, column, box, diagonal, …) holding V;
- `sudoku-pairK`: the two sides of any other exclusion (anti-knight, kropki, thermometers…).
A table (cages, arrows, …) is a crate `sudoku-tableK` whose versions `1.0.t` depend on the
cells of allowed tuple t at `=1.V.0`. The root crate `sudoku-puzzle` depends on every cell
(givens at `=1.V.0`, the others at `1`) and every table.

Encodings: `faithful` publishes every value of every cell; `tuned` only the values the givens
leave open (and no helper for a pruned value). Cargo's own resolver picks the dependency with
the fewest candidates first, so the order of the root's list does not matter to it.

The run: `cargo generate-lockfile --offline` in a project whose `.cargo/config.toml` replaces
crates.io with the vendored folder; CARGO_HOME is inside the sandbox. Cargo's resolver is a
complete backtracking search: "failed to select a version" is its proof that no grid exists.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Puzzle
from ..problem import AllDifferent, Nogood, Problem, Table, build_problem, domains, lower
from .base import Status
from .resolvers import ResolverEngine, ToolRun, after, excerpt
from .sandbox import find_program

PREFIX = "sudoku-"
ROOT = "sudoku-puzzle"
COMMAND = ["generate-lockfile", "--offline"]
CONFIG = """[source.crates-io]
replace-with = "polydoku"

[source.polydoku]
directory = "vendor"

[net]
offline = true
"""


@dataclass(frozen=True)
class Crate:
    """One version of a crate and its dependencies (name -> semver requirement)."""

    name: str
    version: str
    deps: tuple[tuple[str, str], ...]
    description: str


@dataclass(frozen=True)
class Registry:
    """The vendored crates of a problem, the root's dependencies, and the cell crates."""

    crates: tuple[Crate, ...]
    root: tuple[tuple[str, str], ...]
    cells: tuple[tuple[str, int], ...]      # (crate name, variable)
    encoding: str
    title: str

    def releases(self) -> int:
        """Return how many crate versions are vendored."""
        return len(self.crates)

    def figures(self) -> dict[str, Any]:
        """Return the encoding and the number of crate versions, for an outcome's statistics."""
        return {"encoding": self.encoding, "releases": self.releases()}


def cell_version(value: int) -> str:
    """Return the version of a cell crate holding `value`: 5 -> "1.5.0"."""
    return f"1.{value}.0"


def crate_name(problem: Problem, var: int) -> str:
    """Return the crate of a variable: `sudoku-r1c1`, or `sudoku-aux-K` beyond the cells."""
    if var >= problem.ncells:
        return f"{PREFIX}aux-{var - problem.ncells + 1}"
    return PREFIX + problem.name(var).lower()


def build(problem: Problem, encoding: str = "faithful") -> Registry:
    """Return the vendored registry of a problem (units kept whole, the rest lowered)."""
    from ..text import label
    title = label(problem.puzzle.name if problem.puzzle is not None else None)
    kept = lower(problem, (AllDifferent,))
    doms = domains(lower(problem, ()), encoding != "faithful")
    published = [set(d) for d in doms]
    deps: dict[tuple[int, int], list[tuple[str, str]]] = {}
    helpers: list[Crate] = []

    def group(name: str, members: list[tuple[int, int]], what: str) -> None:
        members = [(x, a) for x, a in members if a in published[x]]
        if len(members) < 2:
            return
        for j, (x, a) in enumerate(members):
            deps.setdefault((x, a), []).append((name, f"=1.0.{j}"))
            helpers.append(Crate(name, f"1.0.{j}", (),
                                 f"polydoku: {what}: {problem.name(x)} holds {a}"))

    units = pairs = 0
    tables: list[Crate] = []
    root_tables: list[tuple[str, str]] = []
    for c in kept.constraints:
        if isinstance(c, AllDifferent):
            units += 1
            values = sorted(set().union(*(published[x] for x in c.vars)))
            for v in values:
                group(f"{PREFIX}unit{units}-v{v}", [(x, v) for x in c.vars],
                      f"one cell of unit {units} holds {v}")
        elif isinstance(c, Nogood):
            if c.a in published[c.x] and c.b in published[c.y]:
                pairs += 1
                group(f"{PREFIX}pair{pairs}", [(c.x, c.a), (c.y, c.b)], "not both")
        elif isinstance(c, Table):
            name = f"{PREFIX}table{len(root_tables) + 1}"
            root_tables.append((name, "1"))
            for t, row in enumerate(c.tuples):
                if all(v in published[x] for x, v in zip(c.vars, row)):
                    tables.append(Crate(name, f"1.0.{t}", tuple(
                        (crate_name(kept, x), "=" + cell_version(v)) for x, v in zip(c.vars, row)),
                        f"polydoku: an allowed tuple of {c.label or 'a table'}"))
    cells = [Crate(crate_name(kept, x), cell_version(a), tuple(deps.get((x, a), ())),
                   f"polydoku: cell {kept.name(x)} holds {a}")
             for x in range(kept.nvars) for a in doms[x]]
    given = kept.given_map()
    order = sorted(range(kept.nvars), key=lambda v: (len(doms[v]), v)) \
        if encoding == "tuned" else range(kept.nvars)
    root = [(crate_name(kept, x), "=" + cell_version(given[x]) if x in given else "1")
            for x in order]
    return Registry(tuple(cells + helpers + tables), tuple(root + root_tables),
                    tuple((crate_name(kept, x), x) for x in range(kept.nvars)), encoding, title)


def _toml_str(text: str) -> str:
    return json.dumps(text)      # a JSON string is a valid TOML basic string


def manifest(name: str, version: str, deps: tuple[tuple[str, str], ...] | list, description: str,
             lib: bool = True) -> str:
    """Return a Cargo.toml (no build script, an empty library)."""
    lines = ["[package]", f"name = {_toml_str(name)}", f"version = {_toml_str(version)}",
             'edition = "2015"', f"description = {_toml_str(description)}",
             'license = "CC0-1.0"', ""]
    if lib:
        lines += ["[lib]", 'path = "lib.rs"', ""]
    lines.append("[dependencies]")
    lines += [f"{dep} = {_toml_str(req)}" for dep, req in deps]
    return "\n".join(lines) + "\n"


def files(reg: Registry) -> dict[str, str]:
    """Return the project (root crate, config) and the vendored crates, by relative path."""
    out = {".cargo/config.toml": CONFIG,
           "Cargo.toml": manifest(ROOT, "0.0.0", reg.root,
                                  f"polydoku: {reg.title} as crates ({reg.encoding} encoding)"),
           "lib.rs": ""}
    for crate in reg.crates:
        folder = f"vendor/{crate.name}-{crate.version}"
        out[f"{folder}/Cargo.toml"] = manifest(crate.name, crate.version, crate.deps,
                                               crate.description)
        out[f"{folder}/lib.rs"] = ""
        out[f"{folder}/.cargo-checksum.json"] = '{"files": {}, "package": null}\n'
    return out


def cargo_program() -> str | None:
    """Return Debian's cargo when it is there (a rustup proxy needs the user's own home)."""
    debian = Path("/usr/bin/cargo")
    return str(debian) if debian.exists() else find_program("cargo")


class CargoEngine(ResolverEngine):
    """Cargo: `cargo generate-lockfile --offline` over a vendored directory source."""

    id = "cargo"
    title = "cargo generate-lockfile --offline over a vendored directory of crates"
    install_hint = "apt-get install cargo (python3 tasks.py setup does it)"
    program = "cargo"
    tool = "Cargo"

    def program_path(self):
        return cargo_program()

    def encode(self, problem):
        return build(problem, self.encoding())

    def run_tool(self, box, index, timeout):
        project = box.path / "project"
        for relpath, text in files(index).items():
            box.write(f"project/{relpath}", text)
        env = box.env({"CARGO_HOME": str(box.path / "home" / "cargo"),
                       "CARGO_NET_OFFLINE": "true", "CARGO_TERM_COLOR": "never",
                       "CARGO_TARGET_DIR": str(box.path / "target")})
        run = box.run([self.program_path() or "cargo", *COMMAND], timeout=timeout, env=env,
                      cwd=project, memory_mb=self.memory_mb(), name="cargo")
        lock = project / "Cargo.lock"
        answer = lock.read_text(encoding="utf-8") if lock.exists() else None
        # the vendored crates are many small files: keep only the project's own when kept
        if box.keep is None:
            shutil.rmtree(project / "vendor", ignore_errors=True)
        return ToolRun([run], answer, project)

    def pins(self, answer, index):
        out: dict[str, int] = {}
        cells = {name for name, _ in index.cells}
        for pkg in tomllib.loads(answer).get("package", []):
            if pkg["name"] in cells:
                if pkg["name"] in out:
                    raise ValueError(f"two versions of {pkg['name']} in Cargo.lock")
                out[pkg["name"]] = int(pkg["version"].split(".")[1])
        return out

    def failure(self, output):
        if "failed to select a version" in output:
            return Status.UNSATISFIABLE, excerpt(after(output, "failed to select a version"))
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the project, the vendored crates and a README (option `encoding=faithful|tuned`)."""
    from .exports import export_options, write_files
    encoding, _ = export_options(options)
    reg = build(build_problem(puzzle), encoding)
    content = files(reg)
    content["README.md"] = f"""# {reg.title}: a Sudoku for Cargo

`Cargo.toml` is a crate that depends on every cell; `vendor/` holds {len(reg.crates)} crate
versions ({reg.encoding} encoding) and `.cargo/config.toml` makes it the only source, so
nothing is fetched. Crate `sudoku-rRcC` is cell rRcC and its version `1.V.0` says the cell
holds V. Cargo allows one version per semver-compatible series, so a helper crate
(`sudoku-unitK-vV`, `sudoku-pairK`) whose members each pin a different `=1.0.j` lets at most
one of them hold.

```sh
CARGO_HOME=$PWD/.cargo-home cargo {' '.join(COMMAND)}
```

In `Cargo.lock`, `name = "sudoku-rRcC"` with `version = "1.V.0"`: cell rRcC holds V. When the
puzzle has no solution, Cargo says "failed to select a version".
"""
    return write_files(out, content)

