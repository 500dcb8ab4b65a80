"""A puzzle's own rules text (formats/rules_text.py): line kinds by colour, global rules and
negative rules by phrase, ambiguity refused by name; and published puzzles, drawn as SudokuPad
draws them with their published rules text, read from the link alone.

The published puzzles are the f-puzzles links of Rangsk's tests (tests/data/variants,
held_out_4.jsonl); each link holds its setter's rules text (`ruleset`)."""

from __future__ import annotations

import json
from pathlib import Path

import lzstring
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_sudokupad import to_scl

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.rules_text import read, sentences

GREEN, PURPLE, GREY = "#67F067", "#C060F0", "#C0C0C0"
HELD_OUT_4 = {e["id"]: e for e in map(json.loads, (
    Path(__file__).parent / "data" / "variants" / "held_out_4.jsonl").read_text().splitlines())}


def ruleset(entry: dict) -> str:
    link = next(s for s in entry["sources"] if "load=" in s)
    return json.loads(lzstring.LZString().decompressFromBase64(link.split("load=", 1)[1])
                      ).get("ruleset", "")


@pytest.mark.parametrize("pid", [
    "clipped", "blitz", "self-contained", "killer-blister", "300-subs", "xv-kropki-x",
    "fortress-sudoku", "just-add-color", "hay-fever", "dotween",
    "return-of-the-revenge-of-the-hash-the-movie-the-game", "peak-sudoku", "behemoth",
    "irregular-7x7-kropki", "6x6-extreme-killer", "eddies", "orbit", "159", "alien",
    "equal-sums", "entropic-lines-101"])
def test_published_puzzles_read_from_the_link_and_their_rules_text_alone(pid):
    """Every published puzzle of the set that the test can draw in SudokuPad's way and that
    has a rules text: read from the link alone (no --rules), one solution, the published one
    (16x16 written in base 36 in the data: compared by count only)."""
    entry = HELD_OUT_4[pid]
    puzzle = read_puzzle(to_scl(entry, ruleset(entry)))
    out = api.count(puzzle, "native", limit=2)
    assert out.count == 1
    if puzzle.size <= 9:
        assert "".join(map(str, out.solutions[0])) == entry["solution"]


def test_a_colour_word_names_the_lines_of_that_colour():
    text = ("Normal sudoku rules apply. Green lines are German whispers and purple lines are "
            "renbans. Grey lines are palindromes.")
    reading = read(text, {GREEN: "r1c1", PURPLE: "r2c2", GREY: "r3c3"})
    assert reading.lines == {GREEN: "whispers", PURPLE: "renban", GREY: "palindrome"}
    assert any("German whispers" in s for s in reading.said)


def test_a_kind_without_a_colour_names_the_only_colour_there_is():
    reading = read("The drawn line is a palindrome, and must read the same way from both ends.",
                   {GREY: "r1c1"})
    assert reading.lines == {GREY: "palindrome"}
    with pytest.raises(BadInput, match="does not say which lines are which"):
        read("Lines are palindromes.", {GREY: "r1c1", GREEN: "r2c2"})


def test_one_colour_given_two_kinds_is_ambiguous_and_names_both_sentences():
    with pytest.raises(BadInput) as err:
        read("Green lines are German whispers. Green lines are renbans.", {GREEN: "r1c1"})
    assert GREEN in str(err.value) and "renbans" in str(err.value) and "whispers" in str(err.value)


def test_a_sentence_whose_kinds_and_colours_do_not_pair_is_ambiguous():
    with pytest.raises(BadInput, match="cannot be read one way"):
        read("Green and purple lines are whispers, renbans or palindromes.",
             {GREEN: "r1c1", PURPLE: "r2c2"})


@pytest.mark.parametrize("text, rules", [
    ("Anti-King - equal digits may not touch diagonally.", ["anti-king"]),
    ("No digit can see itself in a chess knight's move.", ["anti-knight"]),
    ("Orthogonally adjacent cells cannot contain consecutive digits.", ["non-consecutive"]),
    ("Disjoint sets constraint.", ["disjoint-groups"]),
    ("Normal Sudoku rules and both main diagonals contain 1-9 as well.",
     ["diagonal-main", "diagonal-anti"]),
    ("Digits may not repeat along the indicated diagonal.", ["diagonal-anti"]),
    ("Black dots indicate a ratio of 1:2. All possible black dots are given.",
     [{"kind": "kropki-negative", "dots": ["black"]}]),
    ("A white dot means consecutive. All dots are given.",
     [{"kind": "kropki-negative", "dots": ["white", "black"]}]),
    ("All possible Xs and Vs are given.", [{"kind": "xv-negative", "marks": ["x", "v"]}]),
    ("Not all dots are given. Standard Kropki (no negative constraint).", []),
    ("Normal sudoku rules apply.", []),
    ("Clues outside the grid give the sum along the indicated diagonal.", []),
])
def test_global_rules_are_read_by_their_phrases(text, rules):
    assert read(text, {}, diagonals=("diagonal-anti",)).rules == rules


def test_sentences_are_cut_at_stops_and_list_items():
    assert sentences("-Normal rules\n-Grey lines are palindromes.  Next one!") == [
        "Normal rules", "Grey lines are palindromes.", "Next one!"]


def test_an_ambiguous_text_is_one_line_exit_2_and_the_users_names_override_it(run_cli):
    entry = HELD_OUT_4["alien"]
    link = to_scl(entry, "Green lines are German whispers. Green lines are renbans.")
    r = run_cli("solve", link)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "two kinds" in r.err and "#67F005" in r.err
    r = run_cli("solve", link, "--rules", "line:#67F005=whispers:5", "--count", "--verbose")
    assert r.code == 0 and r.out.split()[0] == "1"


def test_verbose_says_what_the_text_was_read_to_say(run_cli):
    entry = HELD_OUT_4["clipped"]
    r = run_cli("solve", to_scl(entry, ruleset(entry)), "--verbose")
    assert r.code == 0 and "read from the rules text" in r.err and "anti-king" in r.err


def test_a_puzzle_read_from_a_drawing_with_several_solutions_warns_a_clue_may_be_unread(
        run_cli):
    entry = HELD_OUT_4["clipped"]                  # its anti-king rule is in its text only
    r = run_cli("solve", to_scl(entry, "Thermometers and arrows."))
    assert r.code != 2 and "not unique" in r.err and "may be unread" in r.err
    r = run_cli("solve", to_scl(entry, ruleset(entry)))
    assert r.code == 0 and "may be unread" not in r.err


def test_json_says_what_the_text_was_read_to_say(run_cli):
    entry = HELD_OUT_4["clipped"]
    r = run_cli("solve", to_scl(entry, ruleset(entry)), "--json")
    said = json.loads(r.out)["read_from_text"]
    assert r.code == 0 and any(s.startswith("anti-king (") for s in said)


@pytest.mark.parametrize("text, rules", [
    ("Diagonal non-consecutive: cells that touch diagonally may not contain consecutive digits.",
     ["diagonal-non-consecutive"]),
    ("Knightmare: two cells a knight's move apart may not sum to 5 or 15.", ["knightmare"]),
    ("Anti-knight and non-consecutive rules apply.", ["anti-knight", "non-consecutive"]),
    ("Cells a knight's move apart cannot contain the same digit.", ["anti-knight"]),
])
def test_a_longer_phrase_or_another_relation_is_not_read_as_a_shorter_rule(text, rules):
    assert sorted(read(text, {}).rules) == sorted(rules)


@given(st.text(max_size=300))
def test_any_text_gives_shape_meanings_or_one_bad_input(text):
    from polydoku.formats.rules_text import shape_meanings
    try:
        meanings, said = shape_meanings(text)
    except BadInput as err:
        assert "\n" not in str(err)
        return
    assert set(meanings) <= {"circle", "square", "grey dot"} and len(said) == len(meanings)
    assert set(meanings.values()) <= {"odd", "even", "minimum", "maximum", "grey-dot"}
