"""The `bundler` engine: Ruby's Bundler (Molinillo, a backtracking resolver) runs `bundle lock`
on a Gemfile whose only source is a gem server polydoku serves on 127.0.0.1.

The server speaks the compact index, what Bundler reads from rubygems.org: `/versions` lists
every gem and its versions, `/info/NAME` each version's dependencies. Gem `sudoku-r1c1` is cell
r1c1 and its version `V.0.0` says the cell holds V; a bundle holds one version of a gem. An
exclusion is a dependency `sudoku-r1c2 (!= V.0.0)`, written **one way only**, from a cell to
later cells: Molinillo refuses a dependency cycle ("circular dependency"), and one direction
already forbids the pair. A table is a gem `sudoku-tableK` whose versions depend on the cells
of one allowed tuple exactly. The Gemfile names every cell (givens pinned) and every table.

No gem file is ever fetched: `bundle lock` resolves from the index alone. HOME, Bundler's
config and GEM_HOME are inside the sandbox. Molinillo is complete: "could not find compatible
versions" is its proof that no grid exists.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ..model import Puzzle
from ..problem import build_problem
from .base import Status
from .javascript import _Registry, serve_registry
from .pypi.encode import Index, build_index
from .resolvers import ResolverEngine, ToolRun, after, excerpt, one_way, value

EPOCH = "2000-01-01T00:00:00Z"


def _requirement(spec: str) -> str:
    """Return a RubyGems requirement: "!=5.0.0,!=6.0.0" -> "!= 5.0.0&!= 6.0.0"."""
    if not spec:
        return ">= 0"
    parts = []
    for s in spec.split(","):
        op = "!=" if s.startswith("!=") else "="
        parts.append(f"{op} {s[2:]}")
    return "&".join(parts)


def gem_versions(index: Index) -> dict[str, list[tuple[str, list[tuple[str, str]]]]]:
    """Return each gem's versions with their dependencies, exclusions only to later cells."""
    out: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {}
    for project, release, deps in one_way(index):
        out.setdefault(project.name, []).append((release.version, deps))
    return out


def compact_index(index: Index) -> dict[str, bytes]:
    """Return the compact index's files: `versions`, `names` and `info/NAME` for every gem."""
    files: dict[str, bytes] = {}
    listing = [f"created_at: {EPOCH}", "---"]
    gems = gem_versions(index)
    for name, versions in gems.items():
        lines = ["---"]
        for ver, deps in versions:
            dep_text = ",".join(f"{dep}:{_requirement(spec)}" for dep, spec in deps)
            checksum = hashlib.sha256(f"{name}-{ver}".encode()).hexdigest()
            lines.append(f"{ver} {dep_text}|checksum:{checksum}")
        info = ("\n".join(lines) + "\n").encode()
        files[f"info/{name}"] = info
        listing.append(f"{name} {','.join(v for v, _ in versions)} "
                       f"{hashlib.md5(info, usedforsecurity=False).hexdigest()}")
    files["versions"] = ("\n".join(listing) + "\n").encode()
    files["names"] = ("---\n" + "".join(f"{n}\n" for n in gems) + "\n").encode()
    return files


def gemfile(index: Index, url: str) -> str:
    """Return the Gemfile: the one source, every cell (givens pinned) and every table."""
    lines = [f"# polydoku: {index.title} ({index.encoding} encoding)", f'source "{url}"', ""]
    for name, spec in index.root:
        lines.append(f'gem "{name}", "= {spec[2:]}"' if spec.startswith("==")
                     else f'gem "{name}"')
    return "\n".join(lines) + "\n"


class _GemServer(_Registry):
    def guess_type(self, path) -> str:
        return "text/plain; charset=utf-8"


_SPEC = re.compile(r"^    (sudoku-[a-z0-9-]+) \(([^)]+)\)$", re.M)


class BundlerEngine(ResolverEngine):
    """Bundler 2: `bundle lock` against a compact-index gem server on 127.0.0.1."""

    id = "bundler"
    title = "bundle lock against a compact-index gem server on 127.0.0.1 (Molinillo)"
    install_hint = "apt-get install ruby-bundler (python3 tasks.py setup does it)"
    program = "bundle"
    tool = "Bundler"
    status_timeout = 10      # chronological backtracking: a faithful 9x9 can take minutes

    def run_tool(self, box, index, timeout):
        for relpath, data in compact_index(index).items():
            box.write(f"gems/{relpath}", data)
        home = box.path / "home"
        env = box.env({"BUNDLE_USER_HOME": str(home / ".bundle"),
                       "BUNDLE_APP_CONFIG": str(box.path / "project" / ".bundle"),
                       "GEM_HOME": str(home / "gems"), "GEM_PATH": str(home / "gems"),
                       "BUNDLE_DISABLE_VERSION_CHECK": "true", "BUNDLE_SILENCE_ROOT_WARNING": "1",
                       "BUNDLE_RETRY": "0", "NO_COLOR": "1"})
        with serve_registry(box.path / "gems", handler=_GemServer) as url:
            box.write("project/Gemfile", gemfile(index, url))
            run = box.run([self.program, "lock"], timeout=timeout, env=env,
                          cwd=box.path / "project", memory_mb=self.memory_mb(), name="bundle")
        lock = box.path / "project" / "Gemfile.lock"
        answer = lock.read_text(encoding="utf-8") if lock.exists() else None
        return ToolRun([run], answer, box.path / "project")

    def pins(self, answer, index):
        out: dict[str, int] = {}
        for name, ver in _SPEC.findall(answer):
            if name in out:
                raise ValueError(f"two versions of {name} in Gemfile.lock")
            out[name] = value(ver)
        return out

    def failure(self, output):
        if "could not find compatible versions" in output:
            return Status.UNSATISFIABLE, excerpt(after(output, "could not find compatible"))
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the compact index, a Gemfile and a README (options encoding=…, port=…)."""
    from .exports import export_options, write_files
    encoding, port = export_options(options, port="8808")
    index = build_index(build_problem(puzzle), encoding)
    files: dict[str, bytes | str] = {f"gems/{k}": v for k, v in compact_index(index).items()}
    files["project/Gemfile"] = gemfile(index, f"http://127.0.0.1:{port}")
    files["README.md"] = f"""# {index.title}: a Sudoku for Bundler

`gems/` is a gem server's compact index as files ({index.encoding} encoding): gem
`sudoku-rRcC` is cell rRcC, its version `V.0.0` says the cell holds V, and each version
depends on the later cells of its units with `!= V.0.0`. `project/Gemfile` names every cell,
the givens pinned. No gem file is needed: `bundle lock` resolves from the index.

```sh
python3 -m http.server {port} --bind 127.0.0.1 --directory gems &
cd project
BUNDLE_USER_HOME=$PWD/.bundle-home GEM_HOME=$PWD/.gems timeout 300 bundle lock
kill %1
```

In `Gemfile.lock`, `sudoku-rRcC (V.0.0)`: cell rRcC holds V. When the puzzle has no solution,
Bundler says "could not find compatible versions".
"""
    return write_files(out, files)

