"""What the f-puzzles and SudokuPad readers share: the converted form both return (polydoku's
puzzle JSON and what was left out), the global rules both state as flags, lz-string payloads,
and turning a converted puzzle into a `Puzzle`.

It sits below both readers (`fpuzzles.py` and `sudokupad.py`) and imports neither.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BadInput

if TYPE_CHECKING:
    from ..model import Puzzle

def global_flags() -> dict[str, str]:
    """Return the global kinds by the names f-puzzles saves them under as flags, which
    SudokuPad also states as metadata (`antiknight`): each global kind's `fpuzzles`."""
    from ..rules.registry import kinds
    return {key: kind for kind, cls in kinds().items() if cls.is_global
            for key in cls.fpuzzles if key != "negative"}


# the puzzles read from a drawing (a link), whose clues a reader may have missed
_DRAWN: weakref.WeakSet = weakref.WeakSet()
_SAID: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def from_drawing(puzzle: Puzzle, said: list[str] | None = None) -> Puzzle:
    """Return the puzzle, remembered as read from a drawing (an f-puzzles or SudokuPad link),
    with what its rules text was read to say."""
    _DRAWN.add(puzzle)
    if said:
        _SAID[puzzle] = list(said)
    return puzzle


def said_of(puzzle: Puzzle) -> list[str]:
    """Return what the rules text of a puzzle read from a drawing was read to say."""
    try:
        return list(_SAID.get(puzzle, ()))
    except TypeError:
        return []


def is_from_drawing(puzzle: Puzzle) -> bool:
    """Return whether a puzzle was read from a drawing: if it has several solutions, a clue
    or a rule of its text may be unread."""
    try:
        return puzzle in _DRAWN
    except TypeError:
        return False


UNREAD = ("it was read from a drawing: a clue, or a rule of its text, may be unread (--verbose "
          "lists what was read and what was left out)")


@dataclass
class Converted:
    """A puzzle in polydoku's JSON, and the cosmetic elements that were left out."""

    data: dict[str, Any]
    ignored: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)     # what the rules text was read to say


def puzzle_of(converted: Converted, name: str | None = None) -> Puzzle:
    """Return the Puzzle of a converted link or object; the cosmetic elements it left out are
    logged (at info level), one line."""
    from .jsonfmt import puzzle_from_dict
    if converted.said:
        import logging
        from ..text import one_line
        logging.getLogger("polydoku").info(
            "%s", one_line(f"{name + ': ' if name else ''}read from the rules text: "
                           f"{'; '.join(converted.said)[:4000]}"))
    if converted.ignored:
        import logging
        from ..text import one_line
        logging.getLogger("polydoku").info(
            "%s", one_line(f"{name + ': ' if name else ''}left out as cosmetic: "
                           f"{', '.join(converted.ignored)[:2000]}"))
    return puzzle_from_dict(converted.data, name=name)


def cage_meaning(converted: Converted, text: str) -> None:
    """Give a converted puzzle's killer cages the kind its rules text says its cages are
    (a kind with `cage_total`: "rellik cages", "sum cages"), and say so; two such kinds named
    is bad input naming both, never a guess."""
    if not text or not any(isinstance(r, dict) and r.get("kind") == "killer"
                           for r in converted.data.get("rules", ())):
        return
    import re

    from ..rules.registry import kinds
    from .rules_text import sentences
    named: dict[str, str] = {}
    for sentence in sentences(text):
        low = sentence.lower()
        for kind, cls in kinds().items():
            if cls.cage_total and any(isinstance(p, str) and re.search(p, low)
                                      for p in cls.phrases):
                named.setdefault(kind, sentence)
    if not named:
        return
    if len(named) > 1:
        raise BadInput(f"the rules text names cages of {len(named)} kinds "
                       f"({', '.join(sorted(named))}): give the puzzle as JSON (docs/rules.md)")
    (kind, sentence), = named.items()
    field = kinds()[kind].cage_total
    for k, rule in enumerate(converted.data["rules"]):
        if isinstance(rule, dict) and rule.get("kind") == "killer" and "sum" in rule:
            converted.data["rules"][k] = {"kind": kind, "cells": rule["cells"],
                                          field: rule["sum"]}
    quoted = sentence if len(sentence) <= 120 else sentence[:117] + "..."
    converted.said.append(f"the cages are {kind}s ({quoted!r})")


def is_foreign(data: Any) -> bool:
    """Return whether a decoded JSON object is an f-puzzles puzzle (`grid`) or a SudokuPad one
    (`cells`) rather than polydoku's own (`givens`)."""
    return (isinstance(data, dict) and "givens" not in data
            and (isinstance(data.get("grid"), list) or isinstance(data.get("cells"), list)))


def decompress(payload: str, what: str) -> str:
    """Return the text of an lz-string (base64) payload; bad input naming `what` when it
    does not decompress."""
    import lzstring
    text: str | None
    try:
        text = lzstring.LZString().decompressFromBase64(payload)
    except Exception:                                      # noqa: BLE001 - a broken payload
        text = None
    if not text:
        raise BadInput(f"{what} does not decompress (truncated or not lz-string)")
    return text
