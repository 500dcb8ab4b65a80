"""Exporters `pypi` and `poetry`: the Python packaging artifacts with the commands to run by hand.

`pypi` writes a folder of wheels with a requirements file (pip, uv), the same wheels as a PEP 503
simple index, and a PEP 621 `pyproject.toml` (PDM); `poetry` writes the simple index and a
Poetry-form `pyproject.toml`. Options: `encoding=faithful|tuned`, `port=8000` (where the README
serves the index). Only writes files under the output folder; runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from ...model import Puzzle
from ...problem import build_problem
from ..exports import export_options, write_files
from . import encode


def _index(puzzle: Puzzle, options: dict[str, str]) -> tuple[encode.Index, str]:
    """Return the index of a puzzle in the asked encoding, and the URL the README serves."""
    encoding, port = export_options(options, port="8000")
    return encode.build_index(build_problem(puzzle), encoding), f"http://127.0.0.1:{port}/simple/"


def _summary(index: encode.Index) -> str:
    releases = sum(len(p.releases) for p in index.projects)
    return (f"`{index.title}` as {len(index.projects)} projects with {releases} releases "
            f"({index.encoding} encoding): project `sudoku-rRcC` is cell rRcC, its version "
            f"`V.0.0` says the cell holds V, and each release requires its peers `!= V.0.0`.")


_PYPI_README = """# {title}: a Sudoku as Python packages

{summary} `requirements.txt` requires every cell and pins the givens with `==`.
Nothing is uploaded anywhere: every command reads only this folder or 127.0.0.1.

## pip (resolvelib) over the wheel folder

```sh
python3 -m pip install --isolated --dry-run --ignore-installed --no-index \\
    --find-links wheels -r requirements.txt --report report.json
```

The solution is the `Would install sudoku-r1c1-5.0.0 …` line (and `report.json`).

## uv over the wheel folder

```sh
uv pip compile requirements.txt --no-index --find-links wheels --no-config --no-cache
uv pip compile requirements.txt --no-index --find-links wheels --no-config --no-cache \\
    --resolution lowest     # often much faster on hard puzzles
```

## PDM over the simple index

`simple/` is a PEP 503 index (with PEP 658 `.metadata` files). Serve it, then lock:

```sh
python3 -m http.server {port} --bind 127.0.0.1 --directory . &
pdm lock -v            # reads pyproject.toml, writes pdm.lock
kill %1
```

In `pdm.lock`, each `[[package]]` `name = "sudoku-rRcC"` has `version = "V.0.0"`: cell rRcC holds V.
"""


def export_pypi(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write wheels, requirements.txt, the simple index, a PEP 621 pyproject and a README."""
    index, url = _index(puzzle, options)
    port = url.split(":")[2].split("/")[0]
    files: dict[str, bytes | str] = {**encode.wheels(index, "wheels"),
                                     "requirements.txt": encode.requirements_txt(index),
                                     **encode.simple_index(index, "simple"),
                                     "pyproject.toml": encode.pyproject_pep621(index, url)}
    files["README.md"] = _PYPI_README.format(title=index.title, summary=_summary(index),
                                             port=port)
    return write_files(out, files)


def export_poetry(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the simple index, a Poetry-form pyproject.toml and a README."""
    index, url = _index(puzzle, options)
    port = url.split(":")[2].split("/")[0]
    files: dict[str, bytes | str] = {**encode.simple_index(index, "simple"),
                                     "pyproject.toml": encode.pyproject_poetry(index, url)}
    files["README.md"] = f"""# {index.title}: a Sudoku for Poetry

{_summary(index)} `pyproject.toml` requires every cell and pins the givens with `==`; its only
package source is the PEP 503 index in `simple/` (with PEP 658 `.metadata` files), served on
127.0.0.1, so nothing is uploaded anywhere.

```sh
python3 -m http.server {port} --bind 127.0.0.1 --directory . &
poetry lock -vv        # writes poetry.lock; -vv shows the PubGrub steps and "Tried N solutions"
kill %1
```

To keep your own Poetry set-up out of it, point its dirs elsewhere first:
`export POETRY_CONFIG_DIR=$PWD/.poetry/config POETRY_CACHE_DIR=$PWD/.poetry/cache
POETRY_DATA_DIR=$PWD/.poetry/data PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring`.

In `poetry.lock`, each `[[package]]` `name = "sudoku-rRcC"` has `version = "V.0.0"`: cell rRcC
holds V. When the puzzle has no solution, Poetry prints its derivation ("Because … version
solving failed").
"""
    return write_files(out, files)
