"""`polydoku export PUZZLE --to debian --out DIR`: the Packages file in a private apt tree, and
a README with the exact commands (apt-get, aptitude, aspcud, libsolv, dose-distcheck) to run.

Writes files only; runs nothing. Options: `reduction=conflicts|depends`, `variant=faithful|tuned`.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ...errors import BadInput
from ...files import write_file
from ...model import Puzzle
from ...problem import build_problem
from . import layout
from .encode import REDUCTIONS, VARIANTS, encode
from ...text import label


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the apt tree of `puzzle` and its README into `out`; return the files written."""
    unknown = set(options) - {"reduction", "variant", "encoding"}
    if unknown:
        raise BadInput(f"the debian export has no option {sorted(unknown)[0]!r} "
                       "(it has: reduction, variant)")
    reduction = options.get("reduction", "conflicts")
    variant = options.get("variant", options.get("encoding", "faithful"))
    if reduction not in REDUCTIONS or variant not in VARIANTS:
        raise BadInput(f"debian export: reduction must be one of {', '.join(REDUCTIONS)} and "
                       f"variant one of {', '.join(VARIANTS)}")
    root = out.resolve()
    text = encode(build_problem(puzzle), reduction, variant)
    written = []
    for rel, content in layout.tree_files(str(root), text).items():
        written.append(write_file(out / rel, content, make_parents=True))
    readme = write_file(out / "README.md", readme_text(puzzle, str(root), reduction, variant))
    return [readme, *written]


def _cmd(args: list[str]) -> str:
    """Return a command line quoted for a POSIX shell, each `-o` option on a line of its own."""
    lines, k = [shlex.quote(args[0])], 1
    while k < len(args):
        if args[k] == "-o":
            lines.append(f"-o {shlex.quote(args[k + 1])}")
            k += 2
        else:
            lines.append(shlex.join(args[k:]))
            break
    return " \\\n    ".join(lines)


def readme_text(puzzle: Puzzle, root: str, reduction: str, variant: str) -> str:
    """Return the README of an export: what the files are and the commands to run."""
    env = f"APT_CONFIG={shlex.quote(root + '/' + layout.APT_CONF)}"
    name = f" ({label(puzzle.name)})" if puzzle.name else ""
    return f"""# A Sudoku as a Debian repository{name}

`{layout.PACKAGES}` is a {puzzle.size}×{puzzle.size} puzzle in the *{reduction}* reduction,
*{variant}* variant: one package `cellR.C-V` per cell and value, and a package `puzzle` that can be
installed exactly when the puzzle has a solution. The packages a solver installs with `puzzle`
spell the solution (`cell1.3-4`: row 1, column 3 holds 4).

Everything apt and aptitude read or write stays in this folder: `apt.conf` (read first through
`APT_CONFIG`, so the host's `/etc/apt` is never read), `etc/apt/sources.list` (this folder's
`repo/` as a flat repository), an empty dpkg status `state/status`, private `state/`, `cache/`
and `log/`, no locks. The `-o` options below say the same again on the command line. Every
command only simulates: nothing is installed. The paths are absolute: export again after moving
the folder.

## apt-get (apt's own solver: it does not backtrack and usually gives up)

```sh
{env} {_cmd(layout.update_command(root))}
{env} {_cmd(layout.apt_command(root))}
```

## apt-get with the EDSP solver aspcud (Debian packages apt-cudf and aspcud)

```sh
{env} {_cmd(layout.apt_command(root, "aspcud"))}
```

## aptitude

Without the hint, aptitude "resolves" the request by leaving `puzzle` uninstalled; the hint
`{layout.APTITUDE_HINT}` rejects that answer.

```sh
{env} HOME={shlex.quote(root + '/home')} {_cmd(layout.aptitude_command(root))}
```

## dose-distcheck (prints the installation set it found for puzzle)

```sh
{_cmd(layout.dose_command(root))}
```

## libsolv (Debian's python3-solv)

```sh
/usr/bin/python3 - <<'EOF'
import solv
pool = solv.Pool()
pool.setdisttype(solv.Pool.DISTTYPE_DEB)
pool.setarch("{layout.ARCH}")
repo = pool.add_repo("puzzle")
f = solv.xfopen("{root}/{layout.PACKAGES}")
repo.add_debpackages(f)
f.close()
pool.createwhatprovides()
selection = pool.select("{layout.ROOT_PACKAGE}", solv.Selection.SELECTION_NAME)
jobs = selection.jobs(solv.Job.SOLVER_INSTALL)
solver = pool.Solver()
problems = solver.solve(jobs)
for p in problems:
    print(f"Problem {{p.id}}/{{len(problems)}}:")
    for r in p.findallproblemrules():
        print("  -", r.info().problemstr())
if not problems:
    print(" ".join(sorted(s.name for s in solver.transaction().newsolvables())))
EOF
```

Or let polydoku run them: `polydoku solve PUZZLE --engine apt|aptitude|aspcud|libsolv-deb|dose`
(`-o reduction={reduction}`, `ENGINE+{variant}`).
"""
