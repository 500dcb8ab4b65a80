"""Regular expressions over a grid's values, as ISS's regex lines write them, compiled to an
automaton (rules/automaton.py).

A character is a value: 0-9, then a-z (or A-Z) for 10-35. The syntax: literals, `.` (any
value), classes `[135]`, `[1-4]`, `[^2-8]`, groups `( )`, `|`, and the quantifiers `*`, `+`,
`?`, `{n}`, `{n,}`, `{n,m}`; whitespace is ignored. A pattern must match the whole line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BadInput
from ..text import one_line
from .automaton import Automaton

MAX_PATTERN = 400          # characters of a pattern
MAX_REPEAT = 100           # n and m of {n,m}
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Chars:
    values: frozenset[int]     # real values
    negated: bool


@dataclass(frozen=True)
class Seq:
    parts: tuple["Node", ...]


@dataclass(frozen=True)
class Alt:
    options: tuple["Node", ...]


@dataclass(frozen=True)
class Repeat:
    child: "Node"
    low: int
    high: int | None           # None: unbounded


Node = Chars | Seq | Alt | Repeat


def value_of(ch: str) -> int:
    """Return the value a character of a pattern stands for (BadInput when none)."""
    k = _DIGITS.find(ch.lower()) if len(ch) == 1 else -1
    if k < 0:
        raise BadInput(f"{one_line(ch)!r} in a regex is not a value (0-9, a-z), nor . | ( ) "
                       f"[ ] * + ? {{ }}")
    return k


def char_of(value: int) -> str:
    """Return the character a pattern writes a value with."""
    return _DIGITS[value]


class _Parser:
    """A recursive-descent reading of one pattern into its tree."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def fail(self, why: str) -> BadInput:
        return BadInput(f"regex {one_line(self.text[:60])!r}: {why} at character {self.pos + 1}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        ch = self.peek()
        self.pos += 1
        return ch

    def expression(self) -> Node:
        options = [self.sequence()]
        while self.peek() == "|":
            self.take()
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self) -> Node:
        parts = []
        while self.peek() not in ("", "|", ")"):
            parts.append(self.quantified())
        return parts[0] if len(parts) == 1 else Seq(tuple(parts))

    def quantified(self) -> Node:
        node = self.primary()
        while self.peek() in ("*", "+", "?", "{"):
            ch = self.take()
            if ch == "{":
                low, high = self.braces()
                node = Repeat(node, low, high)
            else:
                node = Repeat(node, 0 if ch != "+" else 1, 1 if ch == "?" else None)
        return node

    def number(self) -> int:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.take()
        if start == self.pos or self.pos - start > 3:
            raise self.fail("expected a number of repeats")
        n = int(self.text[start:self.pos])
        if n > MAX_REPEAT:
            raise self.fail(f"a repeat past {MAX_REPEAT}")
        return n

    def braces(self) -> tuple[int, int | None]:
        low = self.number()
        high: int | None = low
        if self.peek() == ",":
            self.take()
            high = None if self.peek() == "}" else self.number()
        if self.take() != "}":
            raise self.fail("expected '}'")
        if high is not None and high < low:
            raise self.fail(f"{{{low},{high}}} repeats fewer at most than at least")
        return low, high

    def primary(self) -> Node:
        ch = self.take()
        if ch == "(":
            node = self.expression()
            if self.take() != ")":
                raise self.fail("a group is not closed")
            return node
        if ch == "[":
            return self.klass()
        if ch == ".":
            return Chars(frozenset(), True)
        if ch == "" or ch in "*+?{|)]}":
            self.pos -= 1
            raise self.fail(f"unexpected {ch!r}" if ch else "unexpected end")
        return Chars(frozenset({value_of(ch)}), False)

    def klass(self) -> Node:
        negated = self.peek() == "^"
        if negated:
            self.take()
        values: set[int] = set()
        while self.peek() not in ("", "]"):
            low = value_of(self.take())
            if self.peek() == "-" and self.text[self.pos + 1:self.pos + 2] not in ("", "]"):
                self.take()
                high = value_of(self.take())
                if high < low:
                    raise self.fail("a range runs backwards")
                values.update(range(low, high + 1))
            else:
                values.add(low)
        if self.take() != "]" or not values:
            raise self.fail("a class is empty or not closed")
        return Chars(frozenset(values), negated)


def parse(pattern: str) -> Node:
    """Return the tree of a pattern (BadInput naming what is wrong and where)."""
    text = "".join(pattern.split())
    if len(text) > MAX_PATTERN:
        raise BadInput(f"a regex of {len(text)} characters (at most {MAX_PATTERN})")
    p = _Parser(text)
    node = p.expression()
    if p.pos != len(text):
        raise p.fail(f"unexpected {p.peek()!r}")
    return node


def compile_regex(pattern: str, low: int, nvalues: int) -> Automaton:
    """Return the automaton of a pattern over a grid of values low..low+nvalues-1 (symbols
    1..nvalues); BadInput for a value the grid lacks or an automaton past its bound."""
    aut = Automaton()
    start, end = _build(aut, parse(pattern), low, nvalues)
    aut.starts.add(start)
    aut.accepts.add(end)
    return aut


def _build(aut: Automaton, node: Node, low: int, nvalues: int) -> tuple[int, int]:
    """Add a node's fragment to the automaton; return its entry and exit states."""
    if isinstance(node, Chars):
        for v in node.values:
            if not low <= v < low + nvalues:
                raise BadInput(f"a regex names {char_of(v)!r}, not a value of a grid of "
                               f"{low}..{low + nvalues - 1}")
        a, b = aut.add_state(), aut.add_state()
        for k in range(1, nvalues + 1):
            if (low + k - 1 in node.values) != node.negated:
                aut.add_move(a, b, k)
        return a, b
    if isinstance(node, Seq) and node.parts:
        first, last = _build(aut, node.parts[0], low, nvalues)
        for part in node.parts[1:]:
            a, b = _build(aut, part, low, nvalues)
            aut.empty[last].add(a)
            last = b
        return first, last
    if isinstance(node, Alt):
        a, b = aut.add_state(), aut.add_state()
        for option in node.options:
            x, y = _build(aut, option, low, nvalues)
            aut.empty[a].add(x)
            aut.empty[y].add(b)
        return a, b
    if isinstance(node, Repeat):
        return _repeat(aut, node, low, nvalues)
    a = aut.add_state()          # the empty sequence
    return a, a


def _repeat(aut: Automaton, node: Repeat, low: int, nvalues: int) -> tuple[int, int]:
    """Add `low` copies of the child, then `high - low` optional ones (or one looping)."""
    first = last = aut.add_state()
    for _ in range(node.low):
        a, b = _build(aut, node.child, low, nvalues)
        aut.empty[last].add(a)
        last = b
    if node.high is None:
        a, b = _build(aut, node.child, low, nvalues)
        aut.empty[last].add(a)
        aut.empty[b].update((a, last))
        return first, last
    end = aut.add_state()
    aut.empty[last].add(end)
    for _ in range(node.high - node.low):
        a, b = _build(aut, node.child, low, nvalues)
        aut.empty[last].add(a)
        aut.empty[b].add(end)
        last = b
    return first, end
