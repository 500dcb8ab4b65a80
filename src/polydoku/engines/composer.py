"""The `composer` engine: PHP's Composer resolves a `composer.json` whose only repository is an
inline list of packages, and writes `composer.lock`.

Package `sudoku/r1c1` is cell r1c1 and its version `V.0.0` says the cell holds V. Exclusions use
Composer's own word for them: release V of a cell has `"conflict": {"sudoku/r1c2": "V.0.0"}`
for each peer (several values joined with `||`). A table (cages, arrows, …) is a package
`sudoku/tableK` whose versions `require` the cells of one allowed tuple exactly. The root
requires every cell (givens pinned to their version) and every table. Packagist is switched
off in the file and the network in the environment (`COMPOSER_DISABLE_NETWORK`); Composer's
home and cache are inside the sandbox, and `--no-install` makes it write the lock only.

Composer's solver is a port of libsolv (conflict-driven, complete): a failure whose words are
"Your requirements could not be resolved" is a proof that no grid exists.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..model import Puzzle
from ..problem import build_problem
from .base import Status
from .pypi.encode import PREFIX, Index, build_index
from .resolvers import ResolverEngine, ToolRun, after, excerpt, value

VENDOR = "sudoku/"
COMMAND = ["update", "--no-install", "--no-scripts", "--no-plugins", "--no-audit",
           "--no-progress", "--no-ansi", "--no-interaction"]


def package_name(project: str) -> str:
    """Return the Composer name of an index project: `sudoku-r1c1` -> `sudoku/r1c1`."""
    return VENDOR + project[len(PREFIX):]


def composer_json(index: Index) -> str:
    """Return the composer.json that poses the puzzle (every release inline, no Packagist)."""
    packages = []
    for project in index.projects:
        for release in project.releases:
            entry: dict = {"name": package_name(project.name), "version": release.version,
                           "description": release.summary, "type": "metapackage"}
            conflict, require = {}, {}
            for name, spec in release.requires:
                if spec.startswith("!="):
                    conflict[package_name(name)] = " || ".join(s[2:] for s in spec.split(","))
                elif spec.startswith("=="):
                    require[package_name(name)] = spec[2:]
                else:
                    require[package_name(name)] = "*"
            if require:
                entry["require"] = require
            if conflict:
                entry["conflict"] = conflict
            packages.append(entry)
    root = {package_name(name): spec[2:] if spec.startswith("==") else "*"
            for name, spec in index.root}
    data = {"name": "sudoku/puzzle",
            "description": f"polydoku: {index.title} as Composer packages "
                           f"({index.encoding} encoding)",
            "type": "project", "license": "CC0-1.0",
            "repositories": [{"packagist.org": False},
                             {"type": "package", "package": packages}],
            "require": root,
            "config": {"platform-check": False, "allow-plugins": False,
                       "lock": True, "sort-packages": False}}
    return json.dumps(data, indent=1) + "\n"


class ComposerEngine(ResolverEngine):
    """Composer 2: `composer update --no-install` over an inline package repository."""

    id = "composer"
    title = "composer update --no-install over an inline package repository (conflict form)"
    install_hint = "apt-get install composer (python3 tasks.py setup does it)"
    program = "composer"
    tool = "Composer"
    version_args = ("--version", "--no-ansi")

    def run_tool(self, box, index, timeout):
        box.write("project/composer.json", composer_json(index))
        home = box.path / "home"
        env = box.env({"COMPOSER_HOME": str(home / "composer"),
                       "COMPOSER_CACHE_DIR": str(home / "composer-cache"),
                       "COMPOSER_DISABLE_NETWORK": "1", "COMPOSER_NO_INTERACTION": "1",
                       "COMPOSER_ALLOW_SUPERUSER": "1", "COMPOSER_NO_AUDIT": "1",
                       "COMPOSER_MEMORY_LIMIT": "-1", "NO_COLOR": "1"})
        project = box.path / "project"
        run = box.run([self.program, *COMMAND], timeout=timeout, env=env, cwd=project,
                      memory_mb=self.memory_mb(), name="composer")
        lock = project / "composer.lock"
        return ToolRun([run], lock.read_text(encoding="utf-8") if lock.exists() else None, project)

    def pins(self, answer, index):
        data = json.loads(answer)
        return {PREFIX + p["name"][len(VENDOR):]: value(p["version"])
                for p in data["packages"] if p["name"].startswith(VENDOR)}

    def failure(self, output):
        if "could not be resolved to an installable set of packages" in output:
            return Status.UNSATISFIABLE, excerpt(after(output, "Your requirements could not"))
        return super().failure(output)

    def tool_stats(self, done):
        locked = done.last.output.count("  - Locking ")
        return {"locked": locked} if locked else {}


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write composer.json and a README with the command (option `encoding=faithful|tuned`)."""
    from .exports import export_options, write_files
    index = build_index(build_problem(puzzle), export_options(options)[0])
    files = {"composer.json": composer_json(index), "README.md": f"""# {index.title}: a Sudoku for Composer

`composer.json` holds every package inline (Packagist is switched off): package `sudoku/rRcC`
is cell rRcC, its version `V.0.0` says the cell holds V, and each version lists its peers
holding V under `conflict` ({index.encoding} encoding). The root requires every cell, the
givens pinned to their version.

```sh
COMPOSER_HOME=$PWD/.composer COMPOSER_DISABLE_NETWORK=1 \\
    composer {' '.join(COMMAND)}
```

`composer.lock` then names one version of every cell: the solution. When the puzzle has none,
Composer says "Your requirements could not be resolved to an installable set of packages" and
names the conflicting packages.
"""}
    return write_files(out, files)

