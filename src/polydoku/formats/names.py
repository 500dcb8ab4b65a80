"""What each rule kind is called in the formats polydoku reads: its f-puzzles keys, its names in
the Interactive Sudoku Solver's strings, and the phrases of a rules text (SudokuPad's or
f-puzzles') that name it, gathered from the kinds' own classes for docs/rules.md ("Names in
other formats"), which a test keeps equal to it.
"""

from __future__ import annotations

from typing import Any


def kind_names() -> dict[str, dict[str, Any]]:
    """Return, for every registered kind in registry order, its "fpuzzles" keys, its "iss"
    names, the "phrases" (regular expressions) of rules text that name it, and the groups of
    phrases a sentence matching all of one "states" it by (`stated_phrases`)."""
    from ..rules.registry import kinds
    return {k: {"fpuzzles": list(cls.fpuzzles), "iss": cls.iss.split(),
                "phrases": [p if isinstance(p, str) else p[0]
                            for p in (*cls.phrases, *cls.shape_phrases)],
                "states": [list(group) for group in cls.stated_phrases]}
            for k, cls in kinds().items()}


def names_table() -> str:
    """Return the Markdown table of docs/rules.md's "Names in other formats"."""
    rows = ["| kind | f-puzzles | ISS | rules-text phrases (regular expressions) |",
            "|---|---|---|---|"]
    for kind, names in kind_names().items():
        cells = [", ".join(f"`{n}`" for n in names[f]) or "—" for f in ("fpuzzles", "iss")]
        phrases = "; ".join([*map(_code, names["phrases"]),
                             *(" and ".join(map(_code, group)) for group in names["states"])])
        rows.append(f"| `{kind}` | {cells[0]} | {cells[1]} | {phrases or '—'} |")
    return "\n".join(rows) + "\n"


def _code(pattern: str) -> str:
    """Return a regular expression as Markdown code in a table cell (its bars escaped)."""
    return f"`{pattern.replace('|', chr(92) + '|')}`"
