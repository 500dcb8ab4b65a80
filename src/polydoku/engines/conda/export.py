"""`polydoku export PUZZLE --to conda --out DIR`: the channel, the specs, a copy of the solver
script and a README with the exact commands a person can run. Writes only inside DIR.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ...errors import BadInput
from ...files import write_file
from ...formats.line import write_line
from ...model import Puzzle
from ...problem import build_problem
from .encode import ENCODINGS, encode
from .run import WORKER
from ...text import label


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the conda channel of `puzzle` into `out`; return the files written.

    Options: `encoding=faithful|tuned` (default faithful) and the encoder's knobs.
    """
    options = dict(options)
    variant = options.pop("encoding", "faithful")
    if variant not in ENCODINGS:
        raise BadInput(f"conda export: unknown encoding {variant!r} (known: {', '.join(ENCODINGS)})")
    try:
        channel = encode(build_problem(puzzle), variant, options)
    except ValueError as err:
        raise BadInput(f"conda export: {err}") from None
    written = []
    for rel, text in channel.files().items():
        written.append(write_file(out / rel, text, make_parents=True))
    specs = write_file(out / "specs.txt", "\n".join(channel.specs) + "\n")
    script = write_file(out / "solve.py", Path(WORKER).read_bytes())
    readme = write_file(out / "README.md", readme_text(puzzle, out.resolve(), channel.specs,
                                                        variant, channel.npackages))
    return [*written, specs, script, readme]


def readme_text(puzzle: Puzzle, where: Path, specs: tuple[str, ...], variant: str,
                npackages: int) -> str:
    """Return the README of an exported channel: what it is and the commands to solve it."""
    uri = where.as_uri()
    words = " ".join(specs)
    return f"""# {label(puzzle.name, 'A sudoku')} as a conda channel

Written by `polydoku export --to conda` ({variant} encoding, {npackages} package records).
The puzzle: `{write_line(puzzle)}`{' with rules ' + ', '.join(r.name for r in puzzle.rules) if puzzle.rules else ''}.

Every cell is a package `RxC-is` (row R, column C, from 1) whose version is the cell's value;
version v of a cell depends on `PEER-is !=v` for every cell that must differ from it, and the
metapackage `sudoku` depends on every cell. The givens are the specs `RxC-is=v`. Solving the
install of these specs solves the puzzle: `1x6-is 8` in the answer means row 1, column 6 holds 8.
There are no package files, only `noarch/repodata.json` (the other subdirs are empty), so only
dry runs make sense.

- `noarch/repodata.json`: the packages. `specs.txt`: the specs to install, one per line.
- `solve.py`: the script polydoku runs to solve this channel with libsolv or rattler.

## With conda (or mamba / micromamba, which use libsolv)

```sh
conda create --dry-run -n sudoku -c {uri} --override-channels {words}
```

(`micromamba create --dry-run -n sudoku -c {uri} --override-channels …` takes the same specs.)
These were not run by polydoku: it runs the two solvers below.

## With resolvo (py-rattler) or libsolv (PyPI solv), offline

```sh
pip install py-rattler solv
python3 {where / 'solve.py'} rattler {where}
python3 {where / 'solve.py'} libsolv {where}
```

Both print the chosen version of every package, or the tool's own explanation when there is no
solution (exit 1). Specs after the folder replace specs.txt; to try one more given, as the conda
write-up does with `1x6-is=4` on Wikipedia's puzzle:
`python3 {where / 'solve.py'} rattler {where} $(cat {where / 'specs.txt'}) 1x6-is=4`. The PyPI `solv` wheel has no conda mode, so `solve.py` reads
`repodata.json` itself and writes `!=v` with libsolv's relations (`< v or > v`).

## With polydoku

```sh
polydoku solve {shlex.quote(write_line(puzzle))}{' --rules ' + ','.join(r.name for r in puzzle.rules) if puzzle.rules else ''} --engine rattler{'+tuned' if variant == 'tuned' else ''} --keep ./kept
```
"""
