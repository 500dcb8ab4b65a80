"""The technique catalogue: names, scores and levels, and the rating of a path.

Names follow HoDoKu and SudokuWiki; scores and levels are HoDoKu's defaults (its
`Options.DEFAULT_SOLVER_STEPS`), and so is the rating rule: a path's score is the sum of its
steps' scores, its level the highest level among them, raised while the score exceeds that
level's ceiling (Easy 800, Medium 1000, Hard 1600, Unfair 1800; scaled by N²/81 for other
sizes). The rest are polydoku's own: for variant rules (HoDoKu knows classic sudoku only)
"Locked Candidates (variant)" and "Cell Forcing" (the name Rangsk's variant solver uses), both
scored like locked candidates; the rule kinds' own steps ("Killer Cage", "Thermometer"...: each
kind's `technique_score` and `technique_level`, added by `_with_kinds`) and "Constraint
Propagation" (a clue with no technique of its own, a sum or a table, filtered alone), scored
near the singles since a variant puzzle takes many; and "Nested Forcing Net", past HoDoKu's
last resort.
This module only describes; it finds nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
LEVEL_CEILING = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
# A path that stalls scores like HoDoKu's last resort (brute force): the puzzle needs more than logic.
STALL_SCORE = 10000


@dataclass(frozen=True)
class Technique:
    """One named technique: its score, level and what it says, for the README and the rating."""

    name: str
    score: int
    level: str
    family: str
    summary: str


def _t(name: str, score: int, level: str, family: str, summary: str) -> Technique:
    return Technique(name, score, level, family, summary)


TECHNIQUES: tuple[Technique, ...] = (
    _t("Full House", 4, "Easy", "singles", "the last empty cell of a house"),
    _t("Naked Single", 4, "Easy", "singles", "a cell with one candidate left"),
    _t("Hidden Single", 14, "Easy", "singles", "a value with one place left in a house"),
    _t("Locked Pair", 40, "Medium", "intersections",
       "a naked pair inside a box and a line at once: clears both"),
    _t("Locked Triple", 60, "Medium", "intersections", "the same with three cells"),
    _t("Pointing", 50, "Medium", "intersections",
       "locked candidates type 1: a value confined to one line inside a box"),
    _t("Claiming", 50, "Medium", "intersections",
       "locked candidates type 2: a value confined to one box inside a line"),
    _t("Mirrored Cells", 50, "Medium", "intersections",
       "cells that hold one value (mirrored on a palindrome line, a cell and its clone): a "
       "value whose places in another house all see one of them is in none of them"),
    _t("Locked Candidates (variant)", 50, "Medium", "intersections",
       "every place for a value in a house sees the same candidate through a variant rule"),
    _t("Cell Forcing", 50, "Medium", "intersections",
       "every candidate of one cell rules out the same candidate elsewhere (variant rules)"),
    _t("Whispers Neighbours", 40, "Medium", "clues",
       "a whispers cell whose two neighbours on the line see each other loses a value that "
       "leaves them only one value far enough (on 9x9, a 4 would need 9 on both sides)"),
    _t("Whispers Polarity", 60, "Medium", "clues",
       "a whispers line alternates low and high values (1-4 and 6-9 on 9x9): the way round "
       "that leaves a house it crosses too many or too few cells for its low or high values "
       "is false"),
    _t("Region-Sum Totals", 40, "Medium", "clues",
       "a region-sum line's segments make the same total: only the totals every segment can "
       "make remain, and each cell keeps the values of fillings that make one"),
    _t("Renban Claiming", 50, "Medium", "intersections",
       "a value every run a renban line can hold contains, whose places on the line all lie in "
       "one house: the house's other cells lose it"),
    _t("Cage Unit Overlap", 50, "Medium", "intersections",
       "a value every set of different values that makes a killer cage's sum (and fits its "
       "cells) contains, whose places in the cage all lie in one house: the house's other "
       "cells lose it"),
    _t("Cage Interaction", 60, "Medium", "intersections",
       "killer cages inside one house hold different values: only the choices of one set per "
       "cage that share no value (and leave the house's other values a place) remain"),
    _t("Law of Leftovers", 60, "Medium", "intersections",
       "k rows (columns) side by side and the k jigsaw regions covering most of them hold "
       "every value k times: the cells left inside the rows and those left outside hold the "
       "same values"),
    _t("45 Rule", 40, "Medium", "clues",
       "a house adds up to 45: with the sums of known total mostly inside it taken away "
       "(cages, little killers, arrows...), the cells left inside (innies) less those sticking "
       "out (outies) make a known total"),
    _t("Constraint Propagation", 20, "Medium", "clues",
       "a clue with no technique of its own (a sum, a table) filtered alone: candidates no "
       "allowed total or tuple can use go"),
    _t("Skyscraper Pair", 40, "Medium", "clues",
       "two skyscraper clues facing each other along a line: the highest value splits it, "
       "the cells before it showing one count less one and those after it the other; only "
       "the places of the highest value both sides allow remain"),
    _t("Naked Pair", 60, "Medium", "subsets", "two cells of a house with the same two candidates"),
    _t("Naked Triple", 80, "Medium", "subsets", "three cells of a house with three candidates"),
    _t("Hidden Pair", 70, "Medium", "subsets", "two values with the same two places in a house"),
    _t("Hidden Triple", 100, "Medium", "subsets", "three values confined to three cells"),
    _t("Hidden Cage", 80, "Medium", "clues",
       "the 45 rule's innies (or outies) of any count, seeing one another: a cage with no "
       "line drawn round it, whose sets of different values say what each cell can hold"),
    _t("Cage Splitting", 90, "Medium", "clues",
       "a hidden cage lying inside a cage (or holding one): the cells left over add up to "
       "the difference of their totals"),
    _t("Innies and Outies", 80, "Medium", "clues",
       "the 45 rule on 2 to 8 rows or columns in a row, or 2 to 4 boxes or regions that touch "
       "(90, 135, 180...): innies less outies make a known total"),
    _t("Sum Parity", 80, "Medium", "clues",
       "a total is odd exactly when its cells hold an odd count of odd values: a sum (a cage, "
       "a house, a 45-rule equation), or two added together, with one cell of unknown parity "
       "left gives it its parity"),
    _t("Naked Quadruple", 120, "Hard", "subsets", "four cells with four candidates"),
    _t("Hidden Quadruple", 150, "Hard", "subsets", "four values confined to four cells"),
    _t("X-Wing", 140, "Hard", "fish", "a value in two rows confined to two columns (or turned)"),
    _t("Swordfish", 150, "Hard", "fish", "the same with three lines"),
    _t("Jellyfish", 160, "Hard", "fish", "the same with four lines"),
    _t("Remote Pair", 110, "Hard", "chains", "a chain of cells with the same two candidates"),
    _t("BUG+1", 100, "Hard", "uniqueness",
       "every cell bivalue but one: the extra candidate must be true (unique puzzles)"),
    _t("Skyscraper", 130, "Hard", "single digit",
       "two parallel conjugate pairs joined at one end"),
    _t("2-String Kite", 150, "Hard", "single digit",
       "a row and a column conjugate pair joined in a box"),
    _t("Empty Rectangle", 120, "Hard", "single digit",
       "a box whose candidates form a cross, and a conjugate pair"),
    _t("W-Wing", 150, "Hard", "wings", "two equal bivalue cells joined by a conjugate pair"),
    _t("XY-Wing", 160, "Hard", "wings", "a bivalue pivot and two bivalue pincers"),
    _t("XYZ-Wing", 180, "Hard", "wings", "a trivalue pivot and two bivalue pincers"),
    _t("Unique Rectangle Type 1", 100, "Hard", "uniqueness",
       "three corners of a deadly rectangle are bivalue (unique puzzles)"),
    _t("Unique Rectangle Type 2", 100, "Hard", "uniqueness",
       "two roof cells share one extra candidate (unique puzzles)"),
    _t("Unique Rectangle Type 3", 100, "Hard", "uniqueness",
       "the roof's extras form a naked subset with other cells (unique puzzles)"),
    _t("Unique Rectangle Type 4", 100, "Hard", "uniqueness",
       "one deadly value is locked in the roof (unique puzzles)"),
    _t("Finned X-Wing", 130, "Hard", "finned fish", "an X-Wing with fins in one box"),
    _t("Sashimi X-Wing", 150, "Hard", "finned fish", "a finned X-Wing missing a corner"),
    _t("Finned Swordfish", 200, "Unfair", "finned fish", "a Swordfish with fins in one box"),
    _t("Sashimi Swordfish", 240, "Unfair", "finned fish", "a finned Swordfish missing a corner"),
    _t("Finned Jellyfish", 250, "Unfair", "finned fish", "a Jellyfish with fins in one box"),
    _t("Sashimi Jellyfish", 260, "Unfair", "finned fish", "a finned Jellyfish missing a corner"),
    _t("Simple Colouring", 150, "Hard", "colouring",
       "two colours along a value's conjugate pairs: a trap or a wrap"),
    _t("X-Chain", 260, "Unfair", "chains", "an alternating chain on one value"),
    _t("XY-Chain", 260, "Unfair", "chains", "an alternating chain through bivalue cells"),
    _t("AIC", 280, "Unfair", "chains",
       "an alternating inference chain over any strong and weak links (a nice loop)"),
    _t("Grouped AIC", 300, "Unfair", "chains",
       "an AIC whose nodes may be groups: a value's places in one box and one line"),
    _t("ALS-XZ", 300, "Unfair", "almost locked sets",
       "two almost locked sets joined by a restricted common value"),
    _t("ALS-AIC", 320, "Unfair", "chains",
       "an AIC whose nodes may also be a cell's candidates but one (a one-cell almost locked "
       "set: if the cell is not a, it holds one of the rest), or a value's places in an "
       "almost locked set of 2 or 3 cells (without a, it holds b); variant rules only"),
    _t("Pigeonhole", 200, "Hard", "intersections",
       "a candidate whose exclusions would leave k values of a house (2 or 3) fewer than k "
       "places; Locked Candidates (variant) is the case of one value; variant rules only"),
    _t("Clue Combinations", 220, "Hard", "clues",
       "a clue (a sum, a table, a little killer, an arrow, a line) filled all at once, with "
       "the rules between its own cells (a little killer's cells in one box differ)"),
    _t("Clue Unit Overlap", 220, "Hard", "clues",
       "a value a clue cannot be filled without (its cells filled at once, as in Clue "
       "Combinations), whose places among its cells all lie in one house: the house's other "
       "cells lose it"),
    _t("Forcing Net", 700, "Extreme", "forcing",
       "assuming a candidate, singles run into a contradiction; or every candidate of a cell "
       "(every place of a value in a house) leads by singles to the same conclusion"),
    _t("Nested Forcing Net", 1000, "Extreme", "forcing",
       "a forcing net whose branches also try every two-candidate cell both ways"),
)



def _with_kinds(listed: tuple[Technique, ...]) -> tuple[Technique, ...]:
    """Return the catalogue with the steps of the rule kinds that score their own
    (`Rule.technique_score`), among the clues before the 45 Rule."""
    from ...rules import kinds
    names = {t.name for t in listed}
    own: dict[str, Technique] = {}
    for cls in kinds().values():
        if cls.technique and cls.technique_score and cls.technique not in names:
            own.setdefault(cls.technique, _t(cls.technique, cls.technique_score,
                                             cls.technique_level, "clues",
                                             cls.technique_summary))
    at = next(k for k, t in enumerate(listed) if t.name == "45 Rule")
    return listed[:at] + tuple(own.values()) + listed[at:]


TECHNIQUES = _with_kinds(TECHNIQUES)
BY_NAME = {t.name: t for t in TECHNIQUES}


def score_of(name: str) -> int:
    """Return a technique's score (0 for an unknown name)."""
    t = BY_NAME.get(name)
    return t.score if t else 0


def level_of(name: str) -> str:
    """Return a technique's level ("Easy" .. "Extreme")."""
    t = BY_NAME.get(name)
    return t.level if t else "Extreme"


@dataclass(frozen=True)
class Rating:
    """A path's difficulty: HoDoKu-style score and level, and the techniques it used."""

    score: int
    level: str
    solved: bool
    hardest: str
    counts: dict[str, int]
    difficulty: float | None = None     # the finer scale (`difficulty.py`), from the steps

    def to_json(self) -> dict:
        """Return the rating as a JSON-ready dict."""
        return {"score": self.score, "level": self.level, "solved": self.solved,
                "hardest": self.hardest, "difficulty": self.difficulty,
                "techniques": dict(self.counts)}

    def __str__(self) -> str:
        stalled = "" if self.solved else ", logic stalls"
        return f"{self.score} ({self.level}{stalled}; hardest: {self.hardest or 'none'})"


def rate(techniques: Iterable[str], solved: bool, cells: int = 81) -> Rating:
    """Return the rating of a path that used `techniques` (in order) and did or did not finish.

    The level ceilings are HoDoKu's for 81 cells, scaled by the number of cells (a 16x16 path has
    about three times the singles of a 9x9 one).
    """
    names = list(techniques)
    scale = cells / 81
    score = sum(score_of(n) for n in names)
    rank = max((LEVELS.index(level_of(n)) for n in names), default=0)
    hardest = max(names, key=lambda n: (LEVELS.index(level_of(n)), score_of(n)), default="")
    if not solved:
        score += STALL_SCORE
        rank = LEVELS.index("Extreme")
    while rank < len(LEVELS) - 1 and score > LEVEL_CEILING[LEVELS[rank]] * scale:
        rank += 1
    return Rating(score, LEVELS[rank], solved, hardest, dict(Counter(names)))
