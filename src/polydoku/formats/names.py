"""What each rule kind is called in the formats polydoku reads: its f-puzzles keys, its names in
the Interactive Sudoku Solver's strings, and the phrases of a rules text (SudokuPad's or
f-puzzles') that name it. Gathered from the kinds' own classes and from the readers' tables of
the older kinds, for docs/rules.md ("Names in other formats"), which a test keeps equal to it.
"""

from __future__ import annotations

# f-puzzles keys the reader handles one by one (formats/fpuzzles.py), by the kind each gives
_FPUZZLES_OWN = {"killercage": "killer", "arrow": "arrow", "extraregion": "extra-region",
                 "difference": "kropki-white", "ratio": "kropki-black", "xv": "xv",
                 "clone": "clone", "quadruple": "quadruple", "littlekillersum": "little-killer",
                 "diagonal+": "diagonal-anti", "diagonal-": "diagonal-main"}


def kind_names() -> dict[str, dict[str, list[str]]]:
    """Return, for every registered kind in registry order, its "fpuzzles" keys, its "iss"
    names and the "phrases" (regular expressions) of rules text that name it."""
    from ..rules.registry import kinds
    from . import foreign, fpuzzles
    out: dict[str, dict[str, list[str]]] = {
        k: {"fpuzzles": list(cls.fpuzzles), "iss": cls.iss.split(),
            "phrases": [p if isinstance(p, str) else p[0] for p in cls.phrases]}
        for k, cls in kinds().items()}

    def add(kind: str, field: str, name: str) -> None:
        kind = kind.split(":")[0]
        if kind in out and name not in out[kind][field]:
            out[kind][field].append(name)

    legacy_fpuzzles = {**fpuzzles.LINES, **fpuzzles.CELLS, **fpuzzles.INDEXERS,
                       **{k: v[0] for k, v in fpuzzles.OUTSIDE.items()}, **foreign.GLOBALS,
                       **_FPUZZLES_OWN}
    for key, kind in legacy_fpuzzles.items():
        add(kind, "fpuzzles", key)
    add("kropki-negative", "fpuzzles", "negative")      # f-puzzles' one key for both
    add("xv-negative", "fpuzzles", "negative")
    return out


def names_table() -> str:
    """Return the Markdown table of docs/rules.md's "Names in other formats"."""
    rows = ["| kind | f-puzzles | ISS | rules-text phrases (regular expressions) |",
            "|---|---|---|---|"]
    for kind, names in kind_names().items():
        cells = [", ".join(f"`{n}`" for n in names[f]) or "—" for f in ("fpuzzles", "iss")]
        phrases = "; ".join(f"`{p.replace('|', chr(92) + '|')}`" for p in names["phrases"])
        rows.append(f"| `{kind}` | {cells[0]} | {cells[1]} | {phrases or '—'} |")
    return "\n".join(rows) + "\n"
