"""The puzzle's own rules text, read for what its drawing leaves open.

SudokuPad and f-puzzles keep a puzzle's rules as text written by its setter. The drawing says
where a line runs but not what it is, and a global rule (anti-knight, "all dots are given")
has no drawing at all. This module reads the text by fixed phrase patterns, sentence by
sentence (no network, no model), and returns:
- a kind for each line colour: a sentence that names one kind and one colour word names the
  lines of that colour ("Green lines are German whispers"); a sentence that names a kind and
  no colour names the puzzle's lines when they are all of one colour ("The drawn line is a
  palindrome");
- global rules: anti-knight, anti-king, non-consecutive, disjoint groups, the diagonals, and
  the negative rules of dots and X/V marks, for one colour or mark when the sentence names it
  ("All possible black dots are given"; "not all" or "no negative constraint" say nothing).
Each finding keeps its sentence, so the reader can say what it read. A sentence whose kinds
and colours cannot be paired, or two sentences that give one colour two kinds, is ambiguous:
bad input naming the colour and the sentence, never a guess. docs/rules.md lists the phrases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import BadInput

# colour words and the hues (degrees) and kinds of colour they stand for
COLOUR_WORDS: dict[str, str] = {
    "red": "red", "orange": "orange", "yellow": "yellow", "gold": "yellow", "green": "green",
    "lime": "green", "teal": "cyan", "cyan": "cyan", "turquoise": "cyan", "blue": "blue",
    "light blue": "cyan", "navy": "blue", "purple": "purple", "violet": "purple",
    "lavender": "purple", "magenta": "pink", "pink": "pink", "grey": "grey", "gray": "grey",
    "silver": "grey", "black": "black", "white": "white", "brown": "brown",
}
_NEGATED = re.compile(r"\bnot all\b|\bno negative\b|without (?:the )?negative|"
                      r"not (?:all )?necessarily", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")


@dataclass
class Reading:
    """What a rules text says: line kinds by colour, global rules, and the sentences read."""

    lines: dict[str, str] = field(default_factory=dict)
    rules: list[str | dict[str, Any]] = field(default_factory=list)
    said: list[str] = field(default_factory=list)


def sentences(text: str) -> list[str]:
    """Return the sentences (or list items) of a rules text, each on one line."""
    parts = (" ".join(p.split()) for p in _SENTENCE.split(text or ""))
    return [p.strip(" -+*•") for p in parts if p.strip(" -+*•")]


def _hue(colour: str) -> str:
    """Return the colour word a `#RRGGBB` colour is nearest to."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    high, low = max(r, g, b), min(r, g, b)
    if high - low < 0.12:
        return "white" if high > 0.93 else "black" if high < 0.2 else "grey"
    if high == r:
        hue = (60 * (g - b) / (high - low)) % 360
    elif high == g:
        hue = 60 * (b - r) / (high - low) + 120
    else:
        hue = 60 * (r - g) / (high - low) + 240
    if hue < 15 or hue >= 335:
        return "brown" if high < 0.55 else "pink" if low > 0.55 else "red"
    for bound, word in ((45, "orange"), (70, "yellow"), (165, "green"), (200, "cyan"),
                        (255, "blue"), (295, "purple"), (335, "pink")):
        if hue < bound:
            return "brown" if word == "orange" and high < 0.55 else word
    return "red"


def _line_phrases() -> list[tuple[str, str]]:
    """Return (pattern, line name) for every phrase that names a line kind: its own
    (`Rule.phrases` of the kinds `along_path`; a phrase with a number names `kind:number`)."""
    from ..rules.registry import line_kinds
    out = []
    for kind, cls in line_kinds().items():
        for phrase in cls.phrases:
            pattern, number = (phrase, None) if isinstance(phrase, str) else phrase
            out.append((pattern, kind if number is None else f"{kind}:{number}"))
    return out


def _global_phrases() -> list[tuple[str, str]]:
    """Return (pattern, kind) for every phrase that states a global rule (`Rule.phrases`)."""
    from ..rules.registry import kinds
    return [(p, k) for k, cls in kinds().items() if cls.is_global
            for p in cls.phrases if isinstance(p, str)]


def _kinds(sentence: str) -> list[tuple[int, str]]:
    """Return the line kinds a sentence names, with where each is named: where phrases
    overlap, the one that starts first wins, then the longer ("slow thermometer" is no
    thermometer); a kind named with its number ("dutch whispers") is not also named without."""
    low = sentence.lower()
    matches = sorted((m.start(), -len(m[0]), k, name)
                     for k, (pattern, name) in enumerate(_line_phrases())
                     for m in re.finditer(pattern, low))
    found: list[tuple[int, str]] = []
    end = -1
    for start, length, _, name in matches:
        if start < end:
            continue
        end = start - length
        if name not in (k for _, k in found):
            found.append((start, name))
    numbered = {name.partition(":")[0] for _, name in found if ":" in name}
    return [(at, name) for at, name in found if name not in numbered]


def _colours(sentence: str) -> list[tuple[int, str]]:
    low = sentence.lower()
    out: list[tuple[int, str]] = []
    for word in sorted(COLOUR_WORDS, key=len, reverse=True):
        for m in re.finditer(rf"\b{word}\b", low):
            if not any(at <= m.start() < at + 12 for at, _ in out):
                out.append((m.start(), COLOUR_WORDS[word]))
    return sorted(out)


def read(text: str, line_colours: dict[str, str], diagonals: tuple[str, ...] = (),
         known: frozenset[str] = frozenset(), by_colour_only: bool = False) -> Reading:
    """Return what a rules text says of a puzzle whose unnamed lines have these colours
    (`#RRGGBB` -> where the first starts), whose drawing has these diagonal lines
    (`diagonal-main`, `diagonal-anti`) and whose lines of other colours are `known` kinds;
    `by_colour_only` names only the lines a sentence names by colour (f-puzzles, where plain
    lines are often drawings)."""
    reading = Reading()
    by_word: dict[str, list[str]] = {}
    for tint in line_colours:
        by_word.setdefault(_hue(tint), []).append(tint)
    named_by: dict[str, tuple[str, str]] = {}
    unpaired: list[tuple[str, str]] = []
    for sentence in sentences(text):
        _globals(sentence, reading, diagonals)
        kinds = _kinds(sentence)
        if not kinds or not line_colours:
            continue
        colours = [c for c in _colours(sentence) if c[1] in by_word]
        if not colours:
            unpaired += [(kind, sentence) for _, kind in kinds]
            continue
        if len(kinds) != 1 and len(kinds) != len(colours):
            tints = ", ".join(t for _, w in colours for t in by_word[w])
            raise BadInput(f"the rules text names lines of colour {tints} in a sentence that "
                           f"cannot be read one way: {_quote(sentence)}; name them with "
                           f"--rules line:COLOUR=KIND")
        pairs = [(w, kinds[0][1]) for _, w in colours] if len(kinds) == 1 else \
            [(w, k) for (_, w), (_, k) in zip(colours, kinds)]
        for word, kind in pairs:
            for tint in by_word[word]:
                _name(reading, named_by, tint, kind, sentence)
    rest = [t for t in line_colours if t not in reading.lines and not by_colour_only]
    taken = set(known) | set(reading.lines.values())
    kinds_left = list(dict.fromkeys(k for k, _ in unpaired if k not in taken))
    if rest and kinds_left:
        if len(rest) == 1 and len(kinds_left) == 1:
            sentence = next(s for k, s in unpaired if k == kinds_left[0])
            _name(reading, named_by, rest[0], kinds_left[0], sentence)
        else:
            sentence = unpaired[0][1]
            raise BadInput(f"the rules text does not say which lines are which: lines of "
                           f"colour {', '.join(rest)} (the first from {line_colours[rest[0]]}) "
                           f"and {_quote(sentence)}; name them with --rules "
                           f"line:{rest[0]}=KIND")
    return reading


def _name(reading: Reading, named_by: dict[str, tuple[str, str]], tint: str, kind: str,
          sentence: str) -> None:
    before = named_by.get(tint)
    if before and before[0] != kind:
        raise BadInput(f"the rules text gives lines of colour {tint} two kinds, {before[0]} "
                       f"({_quote(before[1])}) and {kind} ({_quote(sentence)}); name them "
                       f"with --rules line:{tint}=KIND")
    if not before:
        named_by[tint] = (kind, sentence)
        reading.lines[tint] = kind
        reading.said.append(f"lines of colour {tint} are {kind} ({_quote(sentence)})")


def _globals(sentence: str, reading: Reading, diagonals: tuple[str, ...]) -> None:
    """Add the global rules a sentence states."""
    low = sentence.lower()
    negated = _NEGATED.search(low) is not None

    def add(rule: str | dict[str, Any], why: str = sentence) -> None:
        if rule not in reading.rules:
            reading.rules.append(rule)
            shown = rule if isinstance(rule, str) else ":".join(
                [str(rule["kind"]), "+".join(rule.get("dots", rule.get("marks", [])))])
            reading.said.append(f"{shown} ({_quote(why)})")

    if not re.search(r"\b(?:is not|isn't|without) (?:an? )?anti", low):
        for kind in _stated(low):
            add(kind)
    from ..rules.registry import kinds
    for cls in kinds().values():             # what a kind reads in a sentence beyond its name
        for rule in cls.stated(low, negated, diagonals):
            add(rule)


# a sentence asking this of cells does not state a kind it names by those cells
# ("cells a knight's move apart may not sum to 5" is no anti-knight: `named_by_cells`)
_OTHER_RELATION = re.compile(r"\bsum|\badd|\btotal|consecutive|\bdiffer|\bratio|\bdouble")


def _stated(low: str) -> list[str]:
    """Return the global kinds a sentence states: where two phrases overlap, the one that
    starts first wins, then the longer (a diagonal non-consecutive rule is no non-consecutive);
    the same-value rules described by their cells ("a knight's move apart") only where the
    sentence asks no other relation of those cells (sums, consecutive values)."""
    from ..rules.registry import kinds
    matches = sorted((m.start(), -len(m[0]), kind, m[0])
                     for pattern, kind in _global_phrases()
                     for m in re.finditer(pattern, low) if m[0])
    out: list[str] = []
    end = -1
    for start, length, kind, said in matches:
        if start < end:
            continue
        end = start - length
        if kinds()[kind].named_by_cells and not said.startswith("anti") \
                and _OTHER_RELATION.search(low):
            continue                    # the cells named, another relation asked of them
        if kind not in out:
            out.append(kind)
    return out


# the shapes a drawing puts in cells or on edges whose meaning the text gives, and the
# meanings it may give them, each by its phrase
SHAPE_WORDS: dict[str, str] = {"circle": r"\bcircle[sd]?\b", "square": r"\bsquares?\b",
                               "grey dot": r"\b(?:grey|gray) (?:kropki )?dots?\b"}
_NOT_A_SHAPE = re.compile(r"\d\s*[x×]\s*\d+\s+squares?|squares? (?:box|region)|"
                          r"circle[sd]? (?:cell|digit|number)s? (?:count|indicate|show)")


def _cell_meanings() -> list[tuple[str, str]]:
    """Return (kind, pattern) for the kinds a shape in a cell may stand for (`shape_phrases`)."""
    from ..rules.registry import kinds
    return [(kind, p) for kind, cls in kinds().items() for p in cls.shape_phrases]


def _dot_kinds(low: str) -> list[str]:
    """Return the kinds of dot (`mark` "grey dot") whose phrases a sentence matches."""
    from ..rules.registry import kinds
    return [kind for kind, cls in kinds().items() if getattr(cls, "mark", "") == "grey dot"
            and any(isinstance(p, str) and re.search(p, low) for p in cls.phrases)]


def shape_meanings(text: str) -> tuple[dict[str, str], list[str]]:
    """Return what a rules text says the shapes in cells and on edges are ({"circle": the odd
    kind, "square": the even kind, "grey dot": a kind of dot by its phrases}, by the kinds'
    `shape_phrases` and `phrases`), with the sentences read: a sentence naming one
    shape and one meaning, or as many shapes as meanings (paired in order: "circles are odd and
    squares even"); a sentence that pairs them no way says nothing. One shape given two
    meanings is bad input naming both sentences."""
    found: dict[str, tuple[str, str]] = {}
    said: list[str] = []
    for sentence in sentences(text):
        low = _NOT_A_SHAPE.sub(" ", sentence.lower())
        shapes = sorted((m.start(), shape) for shape, pattern in SHAPE_WORDS.items()
                        for m in [re.search(pattern, low)] if m)
        if not shapes:
            continue
        meanings = sorted((m.start(), kind) for kind, pattern in _cell_meanings()
                          for m in [re.search(pattern, low)] if m)
        dots = _dot_kinds(low)
        if dots:                        # a sentence on what a grey dot joins: its kind
            meanings = [(0, dots[0])]
        pairs = list(zip([s for _, s in shapes], [m for _, m in meanings])) \
            if len(shapes) == len(meanings) else []
        for shape, meaning in pairs:
            if (shape == "grey dot") != (meaning in dots):
                continue                # a dot is no odd cell, a circle no dot
            before = found.get(shape)
            if before and before[0] != meaning:
                raise BadInput(f"the rules text gives {shape}s two meanings, {before[0]} "
                               f"({_quote(before[1])}) and {meaning} ({_quote(sentence)}): give "
                               f"the puzzle as JSON (docs/rules.md)")
            if not before:
                found[shape] = (meaning, sentence)
                said.append(f"{shape}s read as {meaning} ({_quote(sentence)})")
    return {shape: meaning for shape, (meaning, _) in found.items()}, said


def _quote(sentence: str) -> str:
    return repr(sentence if len(sentence) <= 120 else sentence[:117] + "...")
