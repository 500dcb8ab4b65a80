"""Rules as data: the base class every rule kind extends.

A rule is a kind plus its parameters (cells, lines, sums, directions, values). Each kind lives
in one module of `polydoku.rules`, which holds its parameters, its statement on a grid (the
independent check `verify` relies on), its lowering to the problem IR, and how it is drawn.
This module holds only what the puzzle model needs: the base class, the drawing vocabulary
(`Shape`) and the line names of `--rules`; reading rules by name or as JSON needs the kinds,
so it lives with them (`polydoku.rules`).

Nothing here solves; a rule's `lower` receives a builder from the problem layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, ClassVar, Iterator, Sequence

from ..errors import BadInput
from .geometry import Cell, Geometry, cell_name

Grid = Sequence[int]


class ShapeKind(StrEnum):
    """What a `Shape` draws (render.py draws each kind its own way)."""

    LINE = "line"            # through cell centres, `style` names the line kind
    THERMO = "thermo"        # a line with a bulb on its first cell
    ARROW = "arrow"          # a circle on `cells[:k]`, `text` = k, and a shaft
    CAGE = "cage"            # dashed outline, `text` in its corner
    DOT = "dot"              # between two cells, `style` white/black
    MARK = "mark"            # a letter between two cells: X, V
    CIRCLE = "circle"        # around each cell, `style` "open" on a white ground
    SQUARE = "square"        # a grey square in each cell
    SHADE = "shade"          # cells tinted, `style` names the tint
    OUTSIDE = "outside"      # a clue outside the grid next to `cells[0]`, `style` = side or
                             # diagonal direction
    CORNER = "corner"        # small values on the corner shared by four cells
    DIAGONAL = "diagonal"    # a diagonal line of the grid
    CELLMARK = "cellmark"    # a small symbol in each cell, `text`


@dataclass(frozen=True)
class Shape:
    """One thing to draw for a rule: what it is, the cells it touches and its text."""

    kind: ShapeKind
    cells: tuple[int, ...] = ()
    text: str = ""
    style: str = ""


class Rule:
    """A rule on top of the classic rows, columns and boxes.

    Subclasses set `kind` and `description`, and implement `violations` (the statement,
    checked on a full or partial grid, 0 = empty) and `lower` (the constraints it stands for).
    Parameterless (global) rules are written as their kind alone; others as JSON objects.
    """

    kind: ClassVar[str] = ""
    description: ClassVar[str] = ""
    is_global: ClassVar[bool] = False
    aliases: ClassVar[tuple[str, ...]] = ()
    # What a kind says of itself to the rest of the package, so that a new kind is its own
    # module and nothing else: the readers, the drawing and the technique catalogue read these
    # (`hooks_of` tells which of the hooks below a kind defines).
    # the constraint's name in the Interactive Sudoku Solver's strings (formats/iss.py reads
    # `.{iss}~args` through `read_iss`); several names separated by spaces when ISS writes the
    # kind under more than one ("X V"); "" when ISS has no constraint of this meaning
    iss: ClassVar[str] = ""
    # f-puzzles keys this kind is saved under (formats/fpuzzles.py reads each through
    # `read_fpuzzles`); also SudokuPad's names of a global rule stated as metadata
    fpuzzles: ClassVar[tuple[str, ...]] = ()
    # regular expressions of a puzzle's rules text that name this kind (formats/rules_text.py):
    # a global kind is stated by a sentence matching one; for a kind `along_path`, a sentence
    # that also names a colour gives that colour's lines this kind. A (pattern, number) pair
    # also gives the line its number (`path_number`): Dutch whispers are whispers of 4.
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = ()
    # phrases of a rules text saying a shape drawn in a cell (a grey circle or square) stands
    # for this kind ("digits in circles are odd"): formats/rules_text.py
    shape_phrases: ClassVar[tuple[str, ...]] = ()
    # the grey shape in a cell ("circle", "square") a drawing without rules text shows this
    # kind as (formats/sudokupad.py): odd circles, even squares; "" = none
    drawn_shape: ClassVar[str] = ""
    # the regular expressions a sentence matches, every one of a group, when `stated` reads
    # this kind in it (docs/rules.md lists them beside `phrases`)
    stated_phrases: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # True when a phrase names this kind by its cells ("a knight's move apart") rather than
    # by its name: a sentence asking another relation of those cells (a sum, consecutive
    # values) then does not state it (formats/rules_text.py)
    named_by_cells: ClassVar[bool] = False
    # the colour its lines or shaded cells are drawn in (render.py), "" = the drawing's
    # default grey
    drawn_colour: ClassVar[str] = ""
    # True when the kind's parameter is a path of cells read along it, so that a drawn line
    # (f-puzzles, SudokuPad) can be named this kind (`line:COLOUR=KIND`) and `from_path`
    # turns such a line into rules; the path may pass a cell twice
    along_path: ClassVar[bool] = False
    # the field a number after the line's name sets (`whispers:4` -> "difference"), "" = none
    path_number: ClassVar[str] = ""
    # the field a drawn cage's total fills when a rules text says the puzzle's cages are this
    # kind ("sum" for rellik cages); "" = a drawn cage is never this kind (formats/foreign.py)
    cage_total: ClassVar[str] = ""
    # True when the kind holds on any run of N consecutive values (0..8 as well as 1..9): its
    # statement reads only equal, different, order and differences of values, or it reads the
    # values themselves (`Geometry.real`) and its fields hold values (not indices). A kind left
    # False is refused on a grid of other values (model/puzzle.py), never read wrong.
    any_values: ClassVar[bool] = False
    # True when the kind holds on a grid of more values than a house has cells (ISS's
    # `Shape~6x6~9`): its statement and lowering take a cell's values from the geometry's
    # `nvalues` (the Builder's `domain`), never from the side N. A kind left False is refused
    # on such a grid (model/puzzle.py).
    any_count: ClassVar[bool] = False
    # True when the kind holds on a rectangular grid (ISS's `Shape~6x8`): it reads its cells
    # through the geometry (`index`, `cell`, `in_grid`), never an NxN side. A kind left False
    # is refused on such a grid (model/puzzle.py).
    any_shape: ClassVar[bool] = False
    # the score and level of this kind's own logic step (`technique`), HoDoKu's scale
    # (reasoning/logic/catalog.py), and what the step does in one phrase (docs/logic.md);
    # a score of 0 = the kind's step is none of its own
    technique_score: ClassVar[int] = 0
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = ""

    @property
    def name(self) -> str:
        """Return the rule's kind (what messages and listings call it)."""
        return self.kind

    def violations(self, grid: Grid, geometry: Geometry,
                   rules: Sequence["Rule"] = ()) -> Iterator[str]:
        """Yield one sentence for each place where `grid` breaks this rule (0 = empty, ignored).

        `rules` are all the puzzle's rules, for the few kinds whose meaning depends on the
        others (negative constraints: "no dot means neither").
        """
        raise NotImplementedError

    def lower(self, b: Any) -> None:
        """Add the constraints this rule stands for to `b`, the problem layer's `Builder`
        (problem/build.py; named here only as Any: the model sits below the problem)."""
        raise NotImplementedError

    def shapes(self, geometry: Geometry) -> list[Shape]:
        """Return what to draw for this rule (nothing by default: the picture names the rule)."""
        return []

    def implied(self, geometry: Geometry) -> list[tuple[tuple[Cell, ...], list[tuple[int, ...]]]]:
        """Return tables (cells, allowed value tuples) this rule implies together with the
        grid's units, which a search may add to prune sooner: they remove no solution, and
        what logic explains comes from `lower` alone. None by default."""
        return []

    # the name of this kind's own logic step (see `deduce`); "" = none: the logical solver
    # filters the rule's constraints as a "Constraint Propagation" step instead
    technique: ClassVar[str] = ""

    def deduce(self, geometry: Geometry,
               cands: Sequence[int]) -> tuple[dict[int, int], str] | None:
        """Return what this rule alone rules out in a position, or None when it rules out
        nothing (or the kind has no logic of its own).

        `cands[i]` is cell i's candidates as a bitmask (bit v-1 for value v; a placed cell has
        one bit). The answer maps cell indices to the bitmask of values that go, with the
        reason in words (cells named, no puzzle text), which completes "so ... cannot be ...".
        """
        return None

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        """Return the cells a logic step of this rule shows as its pattern (its footprint)."""
        return self.footprint()

    def footprint(self) -> tuple[Cell, ...]:
        """Return the cells this rule's parameters name (empty for a global rule)."""
        return ()

    def to_data(self) -> str | dict[str, Any]:
        """Return the rule as JSON data: its kind for a global rule, else an object."""
        return self.kind

    def describe(self, geometry: Geometry) -> str:
        """Return a short phrase naming this rule and where it is ("killer cage at r1c1")."""
        cells = self.footprint()
        return f"{self.kind} at {cell_name(cells[0])}" if cells else self.kind

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Rule":
        """Return the rule of a JSON object (its fields checked against the grid)."""
        return cls()

    def refusal(self, geometry: Geometry) -> str | None:
        """Return why the rule has no meaning on this grid (a kind of some grids only), or
        None: the puzzle refuses it by name."""
        return None

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any] | str | None:
        """Return the JSON data of a random valid rule of this kind on a size x size grid with
        `rng` (a `random.Random`), or None when the kind has none there: what the tests check
        every kind with against brute force. A global kind's default is its name."""
        return cls.kind if cls.is_global else None

    # ---- the kind in other formats: formats/iss.py and formats/fpuzzles.py call these for
    # every kind that names itself there (`iss`, `fpuzzles`) and defines them; a rule's data
    # is what `from_data` reads (an object, or the kind's name for a global rule). BadInput
    # raised here is reported with the item's place (and the kind's name when writing).

    # Two levels: the simple hooks a kind of one rule per item defines (`read_iss`,
    # `write_iss`, `read_fpuzzles`, `write_fpuzzles`), and the general ones the formats call
    # (`iss_rules`, `iss_items`, `fpuzzles_rules`, `fpuzzles_entries`), which by default go
    # through the simple ones; a kind whose item stands for several rules (or whose ISS name
    # several kinds share) defines a general one instead.

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        """Return this kind's JSON data from an ISS item's arguments (what follows
        `.{iss}~`); `cell` turns an ISS cell ("R1C2") into polydoku's ("r1c2") or raises."""
        raise NotImplementedError

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        """Return this rule's ISS arguments (written after `.{iss}~`), `cell` writing a cell."""
        raise NotImplementedError

    @classmethod
    def read_fpuzzles(cls, key: str, item: Any, cell: Callable[..., str]) -> dict[str, Any] | None:
        """Return this kind's JSON data from one element saved under f-puzzles' `key`, or None
        when the element is another kind's; `cell` turns an f-puzzles cell ("R1C2") into
        polydoku's ("r1c2") or raises."""
        raise NotImplementedError

    def write_fpuzzles(self, n: int, cell: Callable[[Cell], str]) -> tuple[str, dict[str, Any]]:
        """Return the f-puzzles key and element this rule is saved as."""
        raise NotImplementedError

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """Return the JSON data of the rule an ISS item `.{name}~{args}` on an n x n grid
        stands for (`name` is one of `iss`), a list of such for an item of several rules, or
        None when the item is another kind's of the same ISS name (the next is asked);
        `cell` turns an ISS cell ("R1C2") into polydoku's ("r1c2") or raises BadInput.
        By default the one rule `read_iss` reads."""
        return cls.read_iss(args, cell)

    @classmethod
    def iss_rules_at(cls, name: str, args: list[str], n: int, low: int,
                     cell: Callable[[str], str]) -> Any:
        """Return the rules of an ISS item on a grid whose lowest value is `low`
        (`iss_rules` by default; a kind whose items name values by their index, as an ISS
        relation key does, overrides this one)."""
        return cls.iss_rules(name, args, n, cell)

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        """Return this rule's ISS items on an n x n grid, each without its leading dot
        (`Thermo~R1C1~R1C2`); `cell` writes a cell as ISS does (BadInput: ISS cannot hold it).
        By default one item: the kind's first ISS name and `write_iss`'s arguments."""
        if not self.iss:
            raise BadInput(f"{self.kind}: the Interactive Sudoku Solver has no such constraint")
        return ["~".join([self.iss.split()[0], *self.write_iss(n, cell)])]

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        """Return this rule's ISS items on a grid (`iss_items` on its size by default; a kind
        whose items name values of the grid overrides this one, as they are not 1..N on
        every grid)."""
        return self.iss_items(geometry.size, cell)

    @classmethod
    def fpuzzles_rules(cls, key: str, value: Any, n: int, cell: Callable[..., str]) -> list[Any]:
        """Return the JSON data of the rules of this kind that f-puzzles saves under `key` as
        `value` (a list of elements, or a flag) on an n x n grid; [] when none is (several
        kinds may share a key). `cell(text)` turns an f-puzzles cell ("R1C2") into
        polydoku's ("r1c2") or raises BadInput naming `key`; `cell(text, outside=True)` also
        takes the cells one step outside the grid ("r0c2"). By default `read_fpuzzles` of
        each element (elements it leaves to another kind read as None and are skipped)."""
        items = value if isinstance(value, list) else [value]
        return [d for d in (cls.read_fpuzzles(key, item, cell) for item in items) if d is not None]

    def fpuzzles_entries(self, n: int, cell: Callable[[Cell], str]) -> dict[str, Any]:
        """Return what this rule adds to an n x n puzzle's f-puzzles JSON: key -> a list of
        elements (added to that key's list) or a value (a flag, set); `cell` writes a cell,
        also one outside the grid ("R0C2"). BadInput when f-puzzles cannot hold the rule.
        By default the one element `write_fpuzzles` writes."""
        key, element = self.write_fpuzzles(n, cell)
        return {key: [element]}

    @classmethod
    def line_marks(cls, cells: list[str]) -> dict[str, str]:
        """Return the cells where a drawn line of this kind through `cells` has a shape of its
        own (a thermometer's bulb), each with what the shape is: a reader of drawings takes
        such a shape for the line's, not for a rule of its own. None by default."""
        return {}

    @classmethod
    def stated(cls, low: str, negated: bool, drawn: tuple[str, ...]) -> list[Any]:
        """Return the JSON data of the rules of this kind a sentence of a rules text states
        beyond naming the kind by a phrase (`phrases`): `low` is the sentence in lower case,
        `negated` whether it denies ("not all dots are given"), `drawn` the kinds the drawing
        shows without stating them (its diagonals). None by default."""
        return []

    @classmethod
    def from_path(cls, cells: list[str], extra: dict[str, Any]) -> list[dict[str, Any]]:
        """Return the JSON data of the rules a drawn line of this kind (`along_path`) through
        `cells` stands for, with `extra` (its number's field); the path may pass a cell twice.
        By default one rule when it passes each cell once, else BadInput: a statement over the
        path (a sum) would count a cell once per visit."""
        if len(set(cells)) == len(cells):
            return [{"kind": cls.kind, "cells": cells, **extra}]
        raise BadInput(f"a {cls.kind} line from {cells[0]} passes {first_repeated(cells)} "
                       f"twice: its rule "
                       f"counts that cell once per visit, which polydoku cannot say")

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, eq=True)
class LineName(Rule):
    """`line:COLOUR=KIND` in --rules: a SudokuPad puzzle's lines of that colour are KIND lines.

    It is read with the puzzle (formats/sudokupad.py turns each such line into a KIND rule) and
    is never a rule of a puzzle itself: lowering one is bad input, so it cannot be dropped
    silently."""

    colour: str = ""
    line_kind: str = ""
    kind: ClassVar[str] = "line"

    def violations(self, grid: Grid, geometry: Geometry,
                   rules: Sequence["Rule"] = ()) -> Iterator[str]:
        return iter(())

    def lower(self, b: Any) -> None:
        raise BadInput(f"line:{self.colour}={self.line_kind} names the lines of a SudokuPad "
                       "puzzle (scl/ctc link) and applies to nothing else")

    def to_data(self) -> str:
        return f"line:{self.colour}={self.line_kind}"

    def __str__(self) -> str:
        return self.to_data()


def first_repeated(cells: Sequence[str]) -> str:
    """Return the first cell a path passes a second time (its first cell when none is)."""
    seen: set[str] = set()
    for cell in cells:
        if cell in seen:
            return cell
        seen.add(cell)
    return cells[0]


def hooks_of(cls: type[Rule]) -> frozenset[str]:
    """Return which of the four ways into a format a kind takes: "read_iss", "write_iss",
    "read_fpuzzles", "write_fpuzzles", each when the kind defines its simple hook or the
    general one (`iss_rules` for "read_iss"...) rather than inheriting Rule's."""
    pairs = {"read_iss": "iss_rules", "write_iss": "iss_items",
             "read_fpuzzles": "fpuzzles_rules", "write_fpuzzles": "fpuzzles_entries"}
    return frozenset(hook for hook, general in pairs.items()
                     if any(next(k for k in cls.__mro__ if name in vars(k)) is not Rule
                            for name in (hook, general)))


def split_line_names(rules: Sequence[Rule]) -> tuple[tuple[Rule, ...], dict[str, str]]:
    """Return the rules without the line names, and the line names as {colour: kind}."""
    names = {r.colour: r.line_kind for r in rules if isinstance(r, LineName)}
    return tuple(r for r in rules if not isinstance(r, LineName)), names
