"""Rules as data: the base class every rule kind extends, and reading rules from text or JSON.

A rule is a kind plus its parameters (cells, lines, sums, directions, values). Each kind lives
in one module of `polydoku.rules`, which holds its parameters, its statement on a grid (the
independent check `verify` relies on), its lowering to the problem IR, and how it is drawn.
This module holds only what the puzzle model needs: the base class, the drawing vocabulary
(`Shape`) and the parsers, which look kinds up in the registry of `polydoku.rules`.

Nothing here solves; a rule's `lower` receives a builder from the problem layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Sequence

from ..errors import BadInput
from .geometry import Cell, Geometry, cell_name

if TYPE_CHECKING:
    from ..problem.build import Builder

Grid = Sequence[int]


@dataclass(frozen=True)
class Shape:
    """One thing to draw for a rule: what it is, the cells it touches and its text.

    kinds: "line" (through cell centres, `style` names the line kind), "thermo" (a line with a
    bulb on its first cell), "arrow" (a circle on `cells[:k]`, `text` = k, and a shaft), "cage"
    (dashed outline, `text` in its corner), "dot" (between two cells, `style` white/black),
    "mark" (a letter between two cells: X, V), "circle" (around each cell), "square" (a grey
    square in each cell), "shade" (cells tinted, `style` names the tint), "outside" (a clue
    outside the grid next to `cells[0]`, `style` = side or diagonal direction), "corner" (small
    values on the corner shared by four cells), "diagonal" (a diagonal line of the grid),
    "cellmark" (a small symbol in each cell, `text`).
    """

    kind: str
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

    def lower(self, b: "Builder") -> None:
        """Add the constraints this rule stands for to the builder."""
        raise NotImplementedError

    def shapes(self, geometry: Geometry) -> list[Shape]:
        """Return what to draw for this rule (nothing by default: the picture names the rule)."""
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

    def lower(self, b: "Builder") -> None:
        raise BadInput(f"line:{self.colour}={self.line_kind} names the lines of a SudokuPad "
                       "puzzle (scl/ctc link) and applies to nothing else")

    def to_data(self) -> str:
        return f"line:{self.colour}={self.line_kind}"

    def __str__(self) -> str:
        return self.to_data()


def split_line_names(rules: Sequence[Rule]) -> tuple[tuple[Rule, ...], dict[str, str]]:
    """Return the rules without the line names, and the line names as {colour: kind}."""
    names = {r.colour: r.line_kind for r in rules if isinstance(r, LineName)}
    return tuple(r for r in rules if not isinstance(r, LineName)), names


def _registry() -> dict[str, type[Rule]]:
    from ..rules import KINDS
    return KINDS


def _kind_of(text: str) -> str:
    """Return the registered kind a user's spelling names (`antiknight`, `x` -> diagonal)."""
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    kinds = _registry()
    if key in kinds:
        return key
    for kind, cls in kinds.items():
        if key in cls.aliases or key.replace("-", "") == kind.replace("-", ""):
            return kind
    return ""


def parse_rules(text: str | Sequence[str] | None) -> tuple[Rule, ...]:
    """Return the global rules named in a comma-separated string or a list (unknown names,
    and kinds that need parameters, are bad input)."""
    if not text:
        return ()
    names = text.split(",") if isinstance(text, str) else list(text)
    out: list[Rule] = []
    for raw in names:
        if not isinstance(raw, str):
            raise BadInput(f"rule {raw!r} is not a name")
        if not raw.strip():
            continue
        if raw.strip().lower().startswith("line:"):
            colour, sep, line_kind = raw.strip()[5:].partition("=")
            if not sep or not colour.strip() or not line_kind.strip():
                raise BadInput(f"rule {raw.strip()[:40]!r}: write a line name as "
                               "line:COLOUR=KIND, for example line:#C060F0=renban")
            out.append(LineName(colour.strip(), line_kind.strip().lower()))
            continue
        kind = _kind_of(raw)
        if not kind:
            raise BadInput(f"unknown rule {raw.strip()[:40]!r} (known: {', '.join(global_kinds())})")
        cls = _registry()[kind]
        if not cls.is_global:
            raise BadInput(f"rule {kind!r} needs parameters: give it as a JSON object "
                           f"(see docs/rules.md)")
        rule = cls()
        if rule not in out:
            out.append(rule)
    return tuple(out)


def global_kinds() -> list[str]:
    """Return the kinds that take no parameters (the ones `--rules` accepts)."""
    return [k for k, cls in _registry().items() if cls.is_global]


def rule_from_data(item: Any, geometry: Geometry, index: int = 0) -> Rule:
    """Return the rule of one item of a JSON "rules" list: a kind name or an object.

    Errors name the rule (its 1-based place in the list and its kind) and the field.
    """
    where = f"rule {index + 1}"
    if isinstance(item, str):
        kind = _kind_of(item)
        if not kind:
            raise BadInput(f"{where}: unknown kind {item[:40]!r}")
        cls = _registry()[kind]
        if not cls.is_global:
            raise BadInput(f"{where} ({kind}): needs parameters, give it as an object")
        return cls()
    if not isinstance(item, dict):
        raise BadInput(f"{where}: expected a kind name or an object, not {type(item).__name__}")
    raw_kind = item.get("kind")
    if not isinstance(raw_kind, str):
        raise BadInput(f"{where}: field \"kind\" must be a string")
    kind = _kind_of(raw_kind)
    if not kind:
        raise BadInput(f"{where}: unknown kind {raw_kind[:40]!r}")
    try:
        return _registry()[kind].from_data(item, geometry)
    except BadInput as err:
        raise BadInput(f"{where} ({kind}): {err.reason}") from None


def rules_from_data(items: Any, geometry: Geometry) -> tuple[Rule, ...]:
    """Return the rules of a JSON "rules" list (duplicates dropped, order kept)."""
    if items is None:
        return ()
    if not isinstance(items, list):
        raise BadInput(f"\"rules\" must be a list, not {type(items).__name__}")
    return tuple(dict.fromkeys(rule_from_data(item, geometry, k) for k, item in enumerate(items)))


RULES: dict[str, type[Rule]] = {}   # kind -> class; filled when polydoku.rules is imported
