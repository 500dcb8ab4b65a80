"""A kind owns its names: a kind the registry lists is read and written in ISS and f-puzzles
through its hooks, named by the rules text, read from a drawn line, drawn in its colour and
scored in the technique catalogue, with no table of the formats, the drawing or the catalogue
naming it. The kinds here are defined in this file and registered for one test each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from polydoku.errors import BadInput
from polydoku.formats import fpuzzles, iss, paths, rules_text
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.model.geometry import parse_cell
from polydoku.rules.cells import ExtraRegion
from polydoku.rules.globals import AntiKing
from polydoku.rules.lines import Whispers
from polydoku.rules.registry import kinds

EMPTY = "." * 81


@dataclass(frozen=True)
class Wobble(Whispers):
    """A line kind known only to this test (a whispers line under other names)."""

    kind: ClassVar[str] = "wobble-test"
    aliases: ClassVar[tuple[str, ...]] = ()
    line_style: ClassVar[str] = "wobble-test"
    iss: ClassVar[str] = "Wobble"
    fpuzzles: ClassVar[tuple[str, ...]] = ("wobbleline",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"wobble lines?", (r"tight wobble", 2))
    drawn_colour: ClassVar[str] = "#123456"
    along_path: ClassVar[bool] = True
    path_number: ClassVar[str] = "difference"
    technique: ClassVar[str] = "Wobble Step"
    technique_score: ClassVar[int] = 33
    technique_level: ClassVar[str] = "Medium"
    technique_summary: ClassVar[str] = "neighbours on a wobble line differ enough"

    @classmethod
    def iss_rules(cls, name, args, n, cell) -> Any:
        return {"kind": cls.kind, "difference": int(args[0]), "cells": [cell(a) for a in args[1:]]}

    def iss_items(self, n, cell) -> list[str]:
        return [f"{self.iss}~{self.difference}~" + "~".join(cell(c) for c in self.cells)]

    @classmethod
    def fpuzzles_rules(cls, key, value, n, cell) -> list[Any]:
        return [{"kind": cls.kind, "cells": [cell(c) for c in line], "difference": int(e["value"])}
                for e in value for line in e["lines"]]

    def fpuzzles_entries(self, n, cell) -> dict[str, Any]:
        return {"wobbleline": [{"lines": [[cell(c) for c in self.cells]],
                                "value": str(self.difference)}]}


@dataclass(frozen=True)
class Calm(AntiKing):
    """A global kind known only to this test (anti-king under other names)."""

    kind: ClassVar[str] = "calm-test"
    aliases: ClassVar[tuple[str, ...]] = ()
    iss: ClassVar[str] = "CalmTest"
    fpuzzles: ClassVar[tuple[str, ...]] = ("calmtest",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (r"calm cells",)

    @classmethod
    def iss_rules(cls, name, args, n, cell) -> Any:
        return None if args else cls.kind

    def iss_items(self, n, cell) -> list[str]:
        return [self.iss]

    @classmethod
    def fpuzzles_rules(cls, key, value, n, cell) -> list[Any]:
        return [cls.kind] if value is True else []

    def fpuzzles_entries(self, n, cell) -> dict[str, Any]:
        return {"calmtest": True}

    @classmethod
    def stated(cls, low, negated, drawn) -> list[Any]:
        return [cls.kind] if "quiet" in low and not negated and "wobble-test" in drawn else []


@dataclass(frozen=True)
class Patch(ExtraRegion):
    """A shaded kind known only to this test (an extra region in its own tint)."""

    kind: ClassVar[str] = "patch-test"
    aliases: ClassVar[tuple[str, ...]] = ()
    drawn_colour: ClassVar[str] = "#654321"


@pytest.fixture
def registered(monkeypatch):
    """Register the two kinds for one test (the registry is restored after it)."""
    for cls in (Wobble, Calm, Patch):
        monkeypatch.setitem(kinds(), cls.kind, cls)


def _cells(*names: str) -> tuple:
    return tuple(parse_cell(c) for c in names)


def test_iss_reads_and_writes_a_kind_through_its_hooks(registered):
    text = ".CalmTest.Wobble~3~R1C1~R1C2~R2C2"
    assert iss.looks_like_iss(".CalmTest") and iss.looks_like_iss(text)
    puzzle = iss.parse_iss(text)
    assert set(puzzle.rules) == {Calm(), Wobble(_cells("r1c1", "r1c2", "r2c2"), 3)}
    written = iss.to_iss(puzzle)
    assert ".CalmTest" in written and ".Wobble~3~R1C1~R1C2~R2C2" in written
    assert set(iss.parse_iss(written).rules) == set(puzzle.rules)
    with pytest.raises(BadInput, match="CalmTest: unexpected arguments"):
        iss.parse_iss(".CalmTest~5")


def test_fpuzzles_reads_and_writes_a_kind_through_its_hooks(registered):
    puzzle = puzzle_from_dict({"size": 9, "givens": EMPTY, "rules": [
        "calm-test", {"kind": "wobble-test", "cells": ["r1c1", "r2c1"], "difference": 4}]})
    data = fpuzzles.to_fpuzzles(puzzle)
    assert data["calmtest"] is True
    assert data["wobbleline"] == [{"lines": [["R1C1", "R2C1"]], "value": "4"}]
    assert fpuzzles.convert(data).data["rules"] == [
        "calm-test", {"kind": "wobble-test", "cells": ["r1c1", "r2c1"], "difference": 4}]
    data["wobbleline"][0]["lines"] = [["R1C1", "R10C1"]]
    with pytest.raises(BadInput, match="wobbleline: cell R10C1 is outside"):
        fpuzzles.convert(data)


def test_rules_text_names_lines_and_global_rules_by_a_kinds_phrases(registered):
    reading = rules_text.read("Green lines are tight wobble lines. Calm cells apply.",
                              {"#00C000": "r1c1"})
    assert reading.lines == {"#00C000": "wobble-test:2"}
    assert reading.rules == ["calm-test"]
    # an f-puzzles line of that colour becomes the kind's rule, with the phrase's number
    data = fpuzzles.to_fpuzzles(puzzle_from_dict({"size": 9, "givens": EMPTY}))
    data["line"] = [{"outlineC": "#00C000", "lines": [["R1C1", "R1C2", "R1C3"]]}]
    data["ruleset"] = "Along green lines, tight wobble lines hold."
    assert fpuzzles.convert(data).data["rules"] == [
        {"kind": "wobble-test", "cells": ["r1c1", "r1c2", "r1c3"], "difference": 2}]


def test_a_sentence_states_a_kind_by_its_own_reading(registered):
    """`stated`: a kind reads a sentence itself, with what the drawing shows beside it."""
    assert rules_text.read("Keep it quiet.", {}, ("wobble-test",)).rules == ["calm-test"]
    assert rules_text.read("Keep it quiet.", {}, ()).rules == []
    assert rules_text.read("Not all of it is quiet.", {}, ("wobble-test",)).rules == []


def test_a_drawn_line_is_read_as_a_kind_along_a_path(registered):
    assert paths.line_spec("wobble-test:4") == ("wobble-test", {"difference": 4})
    assert "wobble-test:D" in paths.kinds_help()
    assert paths.line_rules("wobble-test", ["r1c1", "r1c2"]) == [
        {"kind": "wobble-test", "cells": ["r1c1", "r1c2"]}]
    # a whispers kind reads a path through a cell twice in pieces of distinct cells
    assert paths.line_rules("wobble-test:3", ["r1c1", "r1c2", "r2c2", "r2c1", "r1c1"]) == [
        {"kind": "wobble-test", "cells": ["r1c1", "r1c2", "r2c2", "r2c1"], "difference": 3},
        {"kind": "wobble-test", "cells": ["r2c1", "r1c1"], "difference": 3}]


def test_the_drawing_uses_a_kinds_colour(registered):
    from polydoku.render import render_svg
    puzzle = puzzle_from_dict({"size": 9, "givens": EMPTY, "rules": [
        {"kind": "wobble-test", "cells": ["r1c1", "r2c1"], "difference": 4}]})
    assert 'stroke="#123456"' in render_svg(puzzle)
    shaded = puzzle_from_dict({"size": 9, "givens": EMPTY, "rules": [
        {"kind": "patch-test", "cells": ["r1c1", "r1c2"]}]})
    assert 'fill="#654321"' in render_svg(shaded)


def test_the_catalogue_scores_a_kinds_own_step(registered):
    from polydoku.reasoning.logic import catalog
    added = {t.name: t for t in catalog._with_kinds(catalog.TECHNIQUES)}
    step = added["Wobble Step"]
    assert (step.score, step.level, step.family) == (33, "Medium", "clues")
    assert step.summary == Wobble.technique_summary


SHARED = ("formats/*.py", "render.py", "reasoning/logic/catalog.py")


def test_no_shared_module_names_a_kind_of_its_own_module():
    """A kind of `rules/kind/` is named only in its module: the formats, the drawing and the
    catalogue reach it through its class. (A few family kinds are still named where a format's
    own vocabulary reads them: SudokuPad's drawn dots, cages and bulbs, ISS's even and odd
    givens; so this check covers the kinds of their own modules, and `KIND_FREE` below holds
    whole modules to every kind.)"""
    import re
    from pathlib import Path

    from polydoku.rules import registry
    src = Path(registry.__file__).resolve().parent.parent
    own = {cls.kind for module in registry._kind_modules() for cls in module.KINDS}
    assert own, "no kind module found"
    texts = {path: path.read_text(encoding="utf-8") for pattern in SHARED
             for path in sorted(src.glob(pattern))}
    found = [f"{path.relative_to(src)}: {kind!r}" for path, text in texts.items()
             for kind in sorted(own) if re.search(rf"[\"']{re.escape(kind)}[\"']", text)]
    assert not found, f"kind names written outside their modules: {found}"


# the modules that name no kind at all: every kind's f-puzzles elements, drawn paths, names,
# rules-text phrases and statements, colours and technique scores are its class's
KIND_FREE = ("formats/fpuzzles.py", "formats/paths.py", "formats/names.py",
             "formats/rules_text.py", "render.py", "reasoning/logic/catalog.py")


def test_the_f_puzzles_reader_the_paths_the_rules_text_the_drawing_and_the_catalogue_name_no_kind():
    import re
    from pathlib import Path

    from polydoku.rules import registry
    src = Path(registry.__file__).resolve().parent.parent
    found = [f"{name}: {kind!r}" for name in KIND_FREE
             for kind in registry.kinds()
             if re.search(rf"[\"']{re.escape(kind)}[\"']", (src / name).read_text())]
    assert not found, f"kind names written outside their classes: {found}"
