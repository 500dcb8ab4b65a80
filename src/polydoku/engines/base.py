"""The engine protocol: `id`, `available()`, `solve(problem, max_solutions, timeout) -> Outcome`.

Optional powers are declared in `capabilities`, never discovered with try/except:
- "solve": finds a solution;
- "count": enumerates (honours `max_solutions` > 1 and says when it has seen them all);
- "core": returns failing assumptions (`core(problem, timeout)`) for explanations.
An engine that drives an outside program keeps its subprocess, temp dirs and timeouts in its
runner; "unsatisfiable" and "unknown" are statuses, never exceptions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table

# Every constraint kind of the IR, for an engine that takes them all (`takes`).
ALL_KINDS: frozenset[type] = frozenset({AllDifferent, Nogood, Table, AbsDiffNot, Linear})


class Status(str, enum.Enum):
    """What an engine's run established."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    UNKNOWN = "unknown"
    ERROR = "error"


@dataclass
class Outcome:
    """The result of one engine run on one problem."""

    status: Status
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    exhausted: bool = False
    stats: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    engine: str = ""
    log_path: str | None = None
    artifact_path: str | None = None
    found: int | None = None      # solutions counted, when only some of them were kept


    @property
    def count(self) -> int:
        """Return the number of solutions found (exact when `exhausted`)."""
        return len(self.solutions) if self.found is None else self.found

    @property
    def is_unique(self) -> bool:
        """Return whether the run proved exactly one solution."""
        return self.exhausted and self.count == 1


def not_counted(spec: str, counts: bool) -> str:
    """Return the words for a uniqueness a run did not settle: its engine does not count
    (naming one that does), or it stopped before a second solution was ruled out."""
    if counts:
        return f"not counted: {spec} stopped before it could rule out a second solution"
    return (f"not counted: {spec} does not count solutions "
            f"(native, sat, cpsat, z3 and clingo do: try --engine native)")


@dataclass(frozen=True)
class Availability:
    """Whether an engine can run here: its version, or the reason and the install hint."""

    ok: bool
    version: str = ""
    reason: str = ""
    hint: str = ""


_TRUE = ("1", "true", "yes", "on")
_FLAG = _TRUE + ("0", "false", "no", "off")


@dataclass(frozen=True)
class Option:
    """One engine option (`-o NAME=VALUE`): the values it takes and its default.

    `takes` is a tuple of the words it takes, a function returning them (asked only when the
    option is given; an empty answer means they cannot be known here, and any word passes), or "number" (a whole number, at least `minimum`), "flag" (true or
    false) or "text" (anything on one line). `default` is a value, or a value per variant."""

    takes: tuple[str, ...] | Callable[[], Sequence[str]] | str = "text"
    default: str | Mapping[str, str] = ""
    minimum: int = 0

    def default_for(self, variant: str) -> str:
        """Return the default value for an engine variant."""
        return self.default if isinstance(self.default, str) else self.default.get(variant, "")

    def check(self, engine: str, name: str, value: str) -> None:
        """Raise bad input naming the engine, the option and what it takes when `value` is not
        one of its values."""
        from ..errors import BadInput
        takes = self.takes
        if takes == "number":
            if not (value.isascii() and value.isdigit() and len(value) <= 12
                    and int(value) >= self.minimum):
                raise BadInput(f"engine {engine!r}: option {name} must be a whole number"
                               f"{f' from {self.minimum}' if self.minimum else ''}, "
                               f"not {value[:40]!r}")
        elif takes == "flag":
            if value.lower() not in _FLAG:
                raise BadInput(f"engine {engine!r}: option {name} takes true or false, "
                               f"not {value[:40]!r}")
        elif takes == "text":
            if not value or any(ch in value for ch in "\n\r\0"):
                raise BadInput(f"engine {engine!r}: option {name} needs a value on one line")
        else:
            words = tuple(takes()) if callable(takes) else takes
            if words and value not in words:
                raise BadInput(f"engine {engine!r}: option {name}={value[:40]!r} is not one "
                               f"of {', '.join(words)}")


@dataclass(frozen=True)
class Core:
    """Failing assumptions: a subset of the givens that has no solution with the constraints."""

    status: Status
    givens: tuple[tuple[int, int], ...] = ()
    message: str = ""


class Engine:
    """Base class of every engine. Subclasses set the class attributes and the two methods."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""          # what it runs, for `polydoku engines` and the README
    install_hint: ClassVar[str] = ""
    capabilities: ClassVar[frozenset[str]] = frozenset({"solve"})
    variants: ClassVar[tuple[str, ...]] = ("faithful",)   # the first is the default
    # Tests (tests/test_differential.py): how many of the 43 puzzles of the big --count
    # differential this engine takes (None: all; a slow package manager sets a few), and
    # whether CI must have it (False only for tools no registry here provides: alloy, picat).
    differential_limit: ClassVar[int | None] = None
    # the timeout the status differential gives each small puzzle (a tool that loops until it
    # is stopped, as npm and pnpm do on peer conflicts, gets less)
    status_timeout: ClassVar[float] = 30
    required_in_ci: ClassVar[bool] = True
    # whether its tool runs only as root (dnf refuses any other user, even in a private
    # installroot): `available()` says so to other users, and `polydoku engines` marks it
    needs_root: ClassVar[bool] = False
    # The IR kinds the engine takes, itself or through `problem.lower` (which turns
    # AllDifferent and AbsDiffNot into nogoods, and Linear into tables over auxiliaries),
    # and whether it handles auxiliary variables (which sums, sandwiches, skyscrapers,
    # quadruples and renban lines bring). `refusal` reads both before a run.
    takes: ClassVar[frozenset[type]] = frozenset({AllDifferent, Nogood, Table, AbsDiffNot})
    takes_aux: ClassVar[bool] = False
    # whether it takes a grid of more values than a house has cells (its encoding reads a
    # cell's values from the problem's domain and says "each value once" of full houses only)
    takes_more_values: ClassVar[bool] = False
    # whether it counts grids when some auxiliaries are free of the cells (`Problem.free_aux`:
    # a chaos construction's regions), instead of one solution per drawing of them
    counts_grids: ClassVar[bool] = False
    # The engine options (`-o name=value`) it knows, each with the values it takes and its
    # default: any other name, or a value an option does not take, is bad input, found here
    # before anything runs.
    OPTIONS: ClassVar[dict[str, "Option"]] = {}

    def __init__(self, variant: str | None = None, *, keep: str | Path | None = None,
                 options: dict[str, str] | None = None):
        self.variant = variant or self.variants[0]
        if self.variant not in self.variants:
            from ..errors import BadInput
            raise BadInput(f"engine {self.id!r} has no variant {self.variant!r} "
                           f"(it has: {', '.join(self.variants)})")
        self.keep = Path(keep) if keep else None
        self.options = dict(options or {})
        for name in sorted(self.options):
            if name not in self.OPTIONS:
                from ..errors import BadInput
                known = ", ".join(self.OPTIONS) or "none"
                raise BadInput(f"engine {self.id!r} has no option {name!r} (it has: {known})")
            self.OPTIONS[name].check(self.id, name, self.options[name])

    def option(self, name: str) -> str:
        """Return an option's value: as given with -o, else its default for this variant."""
        if name in self.options:
            return self.options[name]
        return self.OPTIONS[name].default_for(self.variant)

    def number_option(self, name: str) -> int:
        """Return a whole-number option's value (0 when it has no default)."""
        return int(self.option(name) or 0)

    def flag_option(self, name: str) -> bool:
        """Return a true/false option's value."""
        return self.option(name).lower() in _TRUE

    def refusal(self, problem: Problem) -> str | None:
        """Return why this engine cannot take `problem` (naming the rule kinds), or None."""
        if problem.more_values and not self.takes_more_values:
            return (f"engine {self.spec!r} cannot take a grid of {problem.size} values on "
                    f"{problem.shape_words()} cells: its encoding holds every value in each "
                    f"house; try --engine native, sat or cpsat")
        if problem.free_aux and not self.counts_grids:
            return (f"engine {self.spec!r} cannot take chaos-construction's regions or an "
                    f"or's choice of option: what it finds of them would make one grid "
                    f"several solutions; try --engine native, sat or cpsat")
        kinds = set(problem.kinds())
        aux = bool(problem.aux)
        if Linear in kinds and Linear not in self.takes:
            kinds.discard(Linear)
            kinds.add(Table)
            aux = True
        for kind in (AllDifferent, AbsDiffNot):
            if kind in kinds and kind not in self.takes:
                kinds.discard(kind)
                kinds.add(Nogood)
        missing = [k.__name__ for k in kinds - self.takes]
        if aux and not self.takes_aux:
            missing.append("auxiliary variables")
        if not missing:
            return None
        rules = _rule_kinds(problem, set(kinds - self.takes) | ({Linear} if aux else set()))
        what = ", ".join(rules) if rules else "this puzzle"
        return (f"engine {self.spec!r} cannot take {what}: its encoding has no "
                f"{' or '.join(sorted(missing))}; try --engine native, sat or cpsat")

    @property
    def spec(self) -> str:
        """Return `id` or `id+variant` when the variant is not the default."""
        return self.id if self.variant == self.variants[0] else f"{self.id}+{self.variant}"

    def available(self) -> Availability:
        """Return whether this engine can run here."""
        raise NotImplementedError

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        """Return the outcome of solving `problem`, with up to `max_solutions` solutions."""
        raise NotImplementedError

    def core(self, problem: Problem, *, timeout: float | None = None) -> Core:
        """Return a subset of the givens that already has no solution (engines with "core")."""
        raise NotImplementedError


def _rule_kinds(problem: Problem, kinds: set) -> list[str]:
    """Return the rule kinds (from the constraints' origins) whose constraints are of these
    kinds, or that bring auxiliary variables."""
    out: dict[str, None] = {}
    for c in problem.constraints:
        if type(c) in kinds or (problem.aux and isinstance(c, (Table, Linear))):
            if c.origin.kind and not c.origin.unit:
                out[c.origin.kind] = None
    return list(out)
