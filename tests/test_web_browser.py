"""The page of `polydoku serve` in a real browser: Debian's chromium driven by Playwright, against
a server started on a free 127.0.0.1 port. Skips locally without chromium, fails in CI.

With POLYDOKU_SCREENSHOTS=DIR, the tests also save the screenshots docs/web.md shows.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import EXAMPLES, need_browser, need_engine
from polydoku.formats.read import read_text
from test_web import descendants

pytestmark = pytest.mark.browser

WIKI = next(ln for ln in (EXAMPLES / "wikipedia.txt").read_text().splitlines()
            if ln and not ln.startswith("#"))
UNSAT = WIKI[:5] + "4" + WIKI[6:]          # r1c6=4 has no solution
MANY = "1" + "." * 15
NAMED = json.dumps({"name": "<script>window.hacked=1</script><img src=x onerror=alert(1)>",
                    "size": 4, "box": [2, 2], "givens": ".3.4......1.2..."})
MIRACLE = (EXAMPLES / "miracle.json").read_text()
SHOTS = os.environ.get("POLYDOKU_SCREENSHOTS")
SERVER_PID: dict[str, int] = {}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-extensions", "--disable-sync", "--no-first-run", "--mute-audio"]


@pytest.fixture(scope="module")
def server():
    """Yield the address of `polydoku serve --port 0`, stopped with Ctrl-C afterwards."""
    need_browser()
    code = "import sys; from polydoku.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", "0",
                             "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), proc.stderr.read()
    SERVER_PID[url] = proc.pid
    with urllib.request.urlopen(f"{url}api/engines", timeout=60):
        pass                           # probed once, so no page leaves the probe running
    yield url
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in err and "stopped" in err, err


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(need_browser()), args=ARGS)
        yield b
        b.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def pages(browser):
    """Yield a maker of pages (with the context options given); no page may raise an error
    or open a dialog."""
    contexts, errors = [], []

    def make(**options):
        context = browser.new_context(**(options or DESKTOP))
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
        return page
    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture
def page(pages):
    return pages()


def api(server: str, call: str, body: dict) -> dict:
    """Return the API's answer (the page's source of truth) for a request."""
    req = urllib.request.Request(f"{server}api/{call}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.load(res)


def open_puzzle(page, server: str, text: str) -> None:
    """Open the page with ?puzzle= and wait until the grid is loaded."""
    from playwright.sync_api import expect
    page.goto(f"{server}?puzzle={urllib.parse.quote(text)}")
    expect(page.locator("#status")).to_have_text(re.compile("^loaded"), timeout=20_000)


def paste(page, text: str, press=None) -> None:
    """Paste a puzzle into the (folded) puzzle box and load it, pressing with `press`
    (page.click unless given)."""
    press = press or page.click
    if page.get_attribute("#puzzle-box", "open") is None:
        press("#puzzle-box summary")
    page.fill("#puzzle-text", text)
    press('[data-action="load"]')


def status_is(page, pattern: str) -> str:
    """Wait until #status matches, and return its text."""
    from playwright.sync_api import expect
    expect(page.locator("#status")).to_have_text(re.compile(pattern), timeout=60_000)
    return page.text_content("#status")


def cells(page) -> dict[str, str]:
    """Return every cell's text by its data-cell name."""
    return page.eval_on_selector_all(
        "[data-cell]", "els => Object.fromEntries(els.map(e => [e.dataset.cell, e.textContent]))")


def marked(page, mark: str) -> set[str]:
    """Return the cells carrying data-mark=mark."""
    return set(page.eval_on_selector_all(f'[data-mark="{mark}"]',
                                          "els => els.map(e => e.dataset.cell)"))


def shot(page, name: str, full: bool = False) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}.png"), full_page=full)


def line_of(page, n: int, cols: int = 0) -> str:
    values = cells(page)
    return "".join(values[f"r{r}c{c}"] or "." for r in range(1, n + 1)
                   for c in range(1, (cols or n) + 1))


def test_prefill_solve_and_check_unique(page, server):
    open_puzzle(page, server, WIKI)
    assert line_of(page, 9) == WIKI
    page.click('[data-action="solve"]')
    assert "native" in status_is(page, "^solved by native in [0-9.]+ s; the only solution$")
    solution = api(server, "solve", {"puzzle": WIKI})["solutions"][0]
    assert line_of(page, 9) == solution
    shot(page, "solve")
    page.click('[data-action="check-unique"]')
    status_is(page, "^unique")


def test_hints_are_graded_and_name_the_technique(page, server):
    open_puzzle(page, server, WIKI)
    full = api(server, "hint", {"puzzle": WIKI})
    page.click('[data-action="hint"]')
    nudge = status_is(page, r"^hint \(nudge\)")
    assert full["technique"] not in nudge
    page.click('[data-action="hint"]')
    assert full["technique"] in status_is(page, r"^hint \(technique\)")
    page.click('[data-action="hint"]')
    status_is(page, r"^hint \(cells\)")
    assert marked(page, "hint") == set(full["pattern"])
    shot(page, "hint")
    page.click('[data-action="hint"]')
    assert status_is(page, r"^hint \(answer\)").endswith(full["text"])
    for p in full["placements"]:
        assert page.text_content(f'[data-cell="{p["cell"]}"]') == str(p["value"])


def test_an_unsolvable_puzzle_highlights_the_conflict(page, server):
    open_puzzle(page, server, UNSAT)
    page.click('[data-action="solve"]')
    status_is(page, "^no solution")
    page.click('[data-action="explain"]')
    status_is(page, "^no solution: these [0-9]+ givens have none")
    conflict = api(server, "explain", {"puzzle": UNSAT})["conflict"]
    assert marked(page, "conflict") == {c.split("=")[0] for c in conflict}
    assert "r1c6" in marked(page, "conflict")
    shot(page, "explain")


def test_two_solutions_mark_their_differences(page, server):
    open_puzzle(page, server, MANY)
    page.click('[data-action="check-unique"]')
    status_is(page, "^not unique")
    diff = api(server, "check-unique", {"puzzle": MANY})["differences"]
    assert marked(page, "difference") == {d.split("=")[0] for d in diff}


def test_steps_play_forward_and_back(page, server):
    open_puzzle(page, server, WIKI)
    path = api(server, "steps", {"puzzle": WIKI})
    page.click('[data-action="steps"]')
    status_is(page, f"^solved by logic alone in {len(path['steps'])} steps")
    page.click('[data-action="step-next"]')
    assert status_is(page, "^step 1: ").endswith(path["steps"][0]["text"])
    page.click('[data-action="step-last"]')
    assert line_of(page, 9) == path["grid"]
    page.click('[data-action="step-first"]')
    status_is(page, "^solved by logic alone")
    assert line_of(page, 9) == WIKI


def test_a_pasted_variant_puzzle_is_drawn_and_solved(page, server):
    open_puzzle(page, server, "." * 81)
    paste(page, MIRACLE)
    status_is(page, "^loaded a 9x9 puzzle with anti-knight")
    assert page.locator("#picture svg").count() == 1
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    solution = api(server, "solve", {"puzzle": MIRACLE})["solutions"][0]
    assert line_of(page, 9) == solution
    shot(page, "variant")


def test_a_grid_of_more_values_than_cells_has_a_key_per_value(page, server):
    wide = json.dumps({"size": 6, "box": [2, 3], "values": [1, 9],
                       "givens": "123456789" + "." * 27})
    open_puzzle(page, server, "." * 81)
    paste(page, wide)
    status_is(page, "^loaded a 6x6 puzzle")
    assert page.locator("#digits button").count() == 9
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    solution = api(server, "solve", {"puzzle": wide})["solutions"][0]
    assert line_of(page, 6) == solution


def test_a_rectangular_grid_is_drawn_solved_and_walked_by_keys(page, server):
    rect = ".Shape~4x6.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R3C6_6"
    open_puzzle(page, server, "." * 81)
    paste(page, rect)
    status_is(page, "^loaded a 4x6 puzzle")
    assert page.locator("#cells .cell").count() == 24
    assert page.locator("#digits button").count() == 6
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    solution = api(server, "solve", {"puzzle": rect})["solutions"][0]
    assert line_of(page, 4, 6) == solution


def test_a_name_with_markup_shows_as_text(page, server):
    open_puzzle(page, server, NAMED)
    assert page.text_content("#name") == json.loads(NAMED)["name"]
    assert page.locator("script").count() == 2 and page.locator("#name *").count() == 0
    assert page.locator("#picture svg title").text_content() == json.loads(NAMED)["name"]
    assert page.evaluate("() => window.hacked") is None


def test_bad_input_says_so_in_one_line(page, server):
    page.goto(f"{server}?puzzle=12345")
    text = status_is(page, "wrong length")
    assert "\n" not in text and "Traceback" not in text


PIP = re.compile(r"(?:^|[/\s])pip(?:3(?:\.\d+)?)?(?:\s|$)|-m pip\b")   # a pip process


def _cmdline(pid: int) -> str:
    """Return a process's command line ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def test_a_long_run_shows_progress_and_cancelling_stops_it(page, server):
    need_engine("pip")                      # pip resolving a puzzle takes seconds
    open_puzzle(page, server, WIKI)
    api(server, "solve", {"puzzle": WIKI})                # the fork server is up
    idle = descendants(SERVER_PID[server])
    page.select_option("#engine", "pip")
    page.click('[data-action="solve"]')
    from playwright.sync_api import expect
    expect(page.locator("#busy-text")).to_have_text(re.compile(r"running solve… [0-9.]+ s"))
    assert page.is_disabled('[data-action="solve"]')
    deadline = time.monotonic() + 15
    while not descendants(SERVER_PID[server]) - idle and time.monotonic() < deadline:
        time.sleep(0.05)
    running = descendants(SERVER_PID[server]) - idle
    assert running                                        # a worker runs pip
    page.click('[data-action="cancel"]')
    status_is(page, "^cancelled")

    def left_over() -> set[int]:
        # the worker that ran, and any pip below the server; a process the pool starts
        # afresh afterwards (idle, no pip) is not a leftover
        now = descendants(SERVER_PID[server]) - idle
        return (now & running) | {p for p in now if PIP.search(_cmdline(p))}

    deadline = time.monotonic() + 15
    while left_over() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left_over()                                # the worker and its pip are gone
    page.select_option("#engine", "native")
    page.click('[data-action="solve"]')
    status_is(page, "^solved by native")


def test_a_pasted_f_puzzles_link_is_solved(page, server):
    import json as _json

    from polydoku.formats.fpuzzles import to_link
    from polydoku.formats.jsonfmt import puzzle_from_dict
    data = Path(__file__).parent / "data" / "variants" / "published.jsonl"
    entry = next(e for e in map(_json.loads, data.read_text().splitlines()) if e["id"] == "killer")
    link = to_link(puzzle_from_dict(entry["puzzle"]))
    open_puzzle(page, server, "." * 81)
    paste(page, link)
    status_is(page, "^loaded a 9x9 puzzle")
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    assert line_of(page, 9) == entry["solution"]


# WCAG contrast of each visible element's text against the ground it is drawn on.
CONTRAST = """(sel) => {
  const parse = (c) => { const p = c.match(/rgba?\\(([^)]+)\\)/)[1].split(/[ ,\\/]+/).map(Number);
                         return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = (rgb) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
                         return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length || el.disabled || !el.textContent.trim()) continue;
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let ground = [255, 255, 255];
    for (const l of layers.reverse()) ground = ground.map((c, k) => c * (1 - l[3]) + l[k] * l[3]);
    const fg = parse(getComputedStyle(el).color);
    const ink = ground.map((c, k) => c * (1 - fg[3]) + fg[k] * fg[3]);
    const [a, b] = [lum(ink), lum(ground)];
    out.push([el.dataset.cell || el.dataset.action || el.dataset.digit || el.id || el.tagName,
              (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]);
  }
  return out;
}"""
TEXT = "#status, button, .cell, label, summary, h1, .note"


def low_contrast(page) -> list:
    """Return the elements whose text is below WCAG AA (4.5:1) on its ground."""
    return [(name, round(r, 2)) for name, r in page.evaluate(CONTRAST, TEXT) if r < 4.5]


def corner_marks(page, cell: str) -> list[str]:
    return page.eval_on_selector_all(f'[data-cell="{cell}"] .corner', "els => els.map(e => e.dataset.m)")


def centre_marks(page, cell: str) -> str:
    return page.eval_on_selector_all(f'[data-cell="{cell}"] .centre',
                                     "els => els.map(e => e.dataset.m).join('')")


def attr(page, cell: str, name: str):
    return page.get_attribute(f'[data-cell="{cell}"]', name)


def open_values(line: str, row: int, col: int) -> str:
    """Return the values no filled cell of the row, column or box of (row, col) holds."""
    seen = {line[r * 9 + c] for r in range(9) for c in range(9)
            if r == row or c == col or (r // 3, c // 3) == (row // 3, col // 3)}
    return "".join(d for d in "123456789" if d not in seen)


def press_of(page, touch: bool):
    """Return how a button or cell is pressed: a tap on a phone, a click on a desktop."""
    return page.tap if touch else page.click


def enter(page, touch: bool, cell: str, digit: int) -> None:
    """Select one cell and enter a digit in the current mode: by the pad on a phone, by a
    key on a desktop."""
    if touch:
        page.tap(f'[data-cell="{cell}"]')
        page.tap(f'[data-digit="{digit}"]')
    else:
        page.click(f'[data-cell="{cell}"]')
        page.keyboard.type(str(digit))


def labels(page, n: int) -> dict[str, str]:
    """Return each cell's aria-label by name, once every one of the n x n cells is labelled
    starting with its name, in rows of n for screen readers."""
    pairs = page.eval_on_selector_all(
        "[data-cell]", "els => els.map(e => [e.dataset.cell, e.getAttribute('aria-label')])")
    assert len(pairs) == n * n and all(label.startswith(f"{name}, ") for name, label in pairs)
    assert page.locator('[role="row"]').count() == n
    assert all(page.eval_on_selector_all('[role="row"]',
                                         f"els => els.map(e => e.children.length === {n})"))
    return dict(pairs)


def reload_keeps(page, values: dict[str, str], corners: dict[str, list[str]],
                 centres: dict[str, str]) -> None:
    """Reload the page and check the entries, corner and centre marks come back from the
    address (the last edit is the one to reach it: wait for its parameter first)."""
    from playwright.sync_api import expect
    for key, wanted in (("e", values), ("c", corners), ("z", centres)):
        if wanted:                                     # the address is written after a pause
            expect(page).to_have_url(re.compile(rf"[?&]{key}="))
    page.reload()
    count = len(values)
    status_is(page, f"^loaded.*kept {count} {'entry' if count == 1 else 'entries'} from the address")
    assert {cell: page.text_content(f'[data-cell="{cell}"]') for cell in values} == values
    assert {cell: corner_marks(page, cell) for cell in corners} == corners
    assert {cell: centre_marks(page, cell) for cell in centres} == centres


def rgb_sum(css: str) -> int:
    return sum(map(int, re.findall(r"\d+", css)[:3]))


def honours_dark(page, given: str) -> None:
    """Switch the page to a dark colour scheme and check it follows: a dark page, light
    givens, the picture inverted, and every text still WCAG AA."""
    page.emulate_media(color_scheme="dark")
    ground = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert rgb_sum(ground) < 120, ground                                        # dark page
    ink = page.evaluate(f"() => getComputedStyle(document.querySelector('[data-cell=\"{given}\"]')).color")
    assert rgb_sum(ink) > 600, ink                                               # light digits
    board = page.evaluate("() => getComputedStyle(document.getElementById('board')).backgroundColor")
    assert rgb_sum(board) < 120, board
    assert "invert" in page.evaluate("() => getComputedStyle(document.querySelector('#picture svg')).filter")
    assert low_contrast(page) == []


BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return [[...document.querySelectorAll('#picture [data-rule="killer"]')].map(box),
          Object.fromEntries([...document.querySelectorAll('[data-cell]')].map((e) => [e.dataset.cell, box(e)]))];
}"""


def killer_cage(puzzle) -> tuple[str, str, int, int]:
    """Return two cells of a two-cell killer cage in one row or column, and values for them
    that differ but break its sum."""
    for rule in puzzle.rules:
        cells = getattr(rule, "cells", ())
        if rule.kind == "killer" and len(cells) == 2:
            (r1, c1), (r2, c2) = cells
            if rule.total and (r1 == r2 or c1 == c2):
                a = next(a for a in range(1, 10) if 1 <= rule.total - a <= 9 and rule.total != 2 * a)
                b = next(b for b in range(1, 10) if b not in (a, rule.total - a))
                return f"r{r1 + 1}c{c1 + 1}", f"r{r2 + 1}c{c2 + 1}", a, b
    raise AssertionError("no two-cell cage")


def a_killer_link_is_drawn_with_its_cages(page, touch: bool, width: int):
    """Load a killer puzzle's f-puzzles link, check each cage is drawn on its own cells
    inside the window, and that a digit breaking a cage's sum is marked as it is entered,
    without asking the server; return the puzzle."""
    from polydoku.formats.fpuzzles import to_link
    from polydoku.formats.jsonfmt import puzzle_from_dict
    data = Path(__file__).parent / "data" / "variants" / "published.jsonl"
    entry = next(e for e in map(json.loads, data.read_text().splitlines()) if e["id"] == "killer")
    killer = puzzle_from_dict(entry["puzzle"])
    paste(page, to_link(killer), press_of(page, touch))
    status_is(page, "^loaded a 9x9 puzzle with killer")
    cages = [r for r in killer.rules if r.kind == "killer"]
    drawn, boxes = page.evaluate(BOXES)
    assert len(drawn) == len(cages)
    for cage in cages:                  # a dashed outline just inside the cage's cells
        own = [boxes[f"r{r + 1}c{c + 1}"] for r, c in cage.cells]
        left, top = min(b[0] for b in own), min(b[1] for b in own)
        right, bottom = max(b[2] for b in own), max(b[3] for b in own)
        assert 0 <= left and right <= width
        assert any(left - 1 <= d[0] and top - 1 <= d[1] and d[2] <= right + 1 and d[3] <= bottom + 1
                   and d[2] - d[0] > 0.8 * (right - left) and d[3] - d[1] > 0.8 * (bottom - top)
                   for d in drawn), cage.cells
    first, second, a, b = killer_cage(killer)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    enter(page, touch, first, a)
    assert page.text_content(f'[data-cell="{first}"]') == str(a)
    assert page.locator("[data-conflict]").count() == 0
    enter(page, touch, second, b)
    assert attr(page, first, "data-conflict").startswith("cage (")    # its total, then where
    assert attr(page, second, "data-conflict") == attr(page, first, "data-conflict")
    assert asked == []
    return killer


def a_puzzle_with_many_solutions_says_so(page, server, touch: bool) -> None:
    """Solve a 4x4 puzzle the engine proves has several solutions: the page shows a valid one
    and says there are more."""
    from polydoku.model import violations
    paste(page, MANY, press_of(page, touch))
    status_is(page, "^loaded a 4x4")
    press_of(page, touch)('[data-action="solve"]')
    status_is(page, "^solved by native .*more than one solution")
    assert api(server, "check-unique", {"puzzle": MANY})["unique"] is False
    shown = line_of(page, 4)
    assert shown[0] == "1" and "." not in shown
    assert not any(violations(read_text(MANY), [int(ch) for ch in shown]))


def test_the_phone_page_by_touch(pages, server):
    page = pages(**PHONE)
    open_puzzle(page, server, WIKI)
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390          # the board fits
    last = page.locator('[data-cell="r9c9"]').bounding_box()
    assert last["x"] + last["width"] <= 390 and last["width"] >= 30      # and scales
    pad = page.locator('[data-digit="1"]').bounding_box()
    assert pad["y"] >= board["y"] + board["height"] and pad["height"] >= 40  # pad below it
    assert page.locator("[data-digit]").count() == 9
    enter(page, True, "r1c3", 4)
    assert page.text_content('[data-cell="r1c3"]') == "4"
    enter(page, True, "r1c4", 5)                                # a 5 already in row 1
    assert attr(page, "r1c4", "data-conflict") == "row 1"
    assert attr(page, "r1c1", "data-conflict") == "row 1"
    assert "r1c4=5 breaks row 1 (with r1c1)" in page.text_content("#status")
    page.tap('[data-action="undo"]')
    assert page.text_content('[data-cell="r1c4"]') == "" and page.locator("[data-conflict]").count() == 0
    page.tap('[data-action="redo"]')
    assert page.text_content('[data-cell="r1c4"]') == "5" and attr(page, "r1c4", "data-conflict")
    page.tap('[data-action="undo"]')
    page.tap('[data-mode="corner"]')
    enter(page, True, "r2c2", 2)
    page.tap('[data-digit="1"]')
    assert corner_marks(page, "r2c2") == ["1", "2"] and page.text_content('[data-cell="r2c2"]') == ""
    page.tap('[data-mode="centre"]')
    enter(page, True, "r3c1", 3)
    page.tap('[data-digit="4"]')
    page.tap('[data-digit="3"]')                                # a second tap takes it off
    page.tap('[data-digit="2"]')
    assert centre_marks(page, "r3c1") == "24"
    page.tap('[data-mode="colour"]')
    assert page.locator(".swatch[data-digit]").count() == 9
    enter(page, True, "r5c5", 3)
    assert attr(page, "r5c5", "data-colour") == "3"
    page.tap('[data-mode="digit"]')
    named = labels(page, 9)
    assert named["r1c1"].startswith("r1c1, 5, given") and named["r1c3"].startswith("r1c3, 4")
    assert "corner marks 1 2" in named["r2c2"] and "centre marks 2 4" in named["r3c1"]
    assert "colour 3" in named["r5c5"]
    from playwright.sync_api import expect
    expect(page).to_have_url(re.compile(r"[?&]k=40-3"))          # the colour, in the address
    shot(page, "phone", full=True)
    reload_keeps(page, {"r1c3": "4"}, {"r2c2": ["1", "2"]}, {"r3c1": "24"})
    assert attr(page, "r5c5", "data-colour") == "3"
    assert low_contrast(page) == []
    labels(page, 9)
    page.set_viewport_size({"width": 360, "height": 740})         # the narrowest phone
    last = page.locator('[data-cell="r9c9"]').bounding_box()
    assert last["x"] + last["width"] <= 360
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.set_viewport_size({"width": 390, "height": 844})
    honours_dark(page, "r1c1")
    shot(page, "dark", full=True)
    a_killer_link_is_drawn_with_its_cages(page, True, 390)
    a_puzzle_with_many_solutions_says_so(page, server, True)


def test_the_desktop_page_by_keys_and_mouse(page, server):
    from playwright.sync_api import expect

    from polydoku.engines.registry import ENGINE_IDS
    open_puzzle(page, server, WIKI)
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    print(f"first contentful paint: {paint:.0f} ms")
    groups = page.eval_on_selector_all("#engine optgroup", "els => els.map(e => e.label)")
    assert groups == ["polydoku", "solvers", "package managers"]
    specs = page.eval_on_selector_all("#engine option", "els => els.map(e => e.value)")
    assert len(specs) == len(set(specs)) and {s.split("+")[0] for s in specs} == set(ENGINE_IDS)
    expect(page.locator("#engine")).to_have_attribute("data-checked", "true", timeout=30_000)
    with urllib.request.urlopen(f"{server}api/engines", timeout=60) as res:
        missing = [r for r in json.load(res) if not r["available"]]
    for row in missing:
        option = page.locator(f'#engine option[value="{row["id"]}"]')
        assert option.is_disabled() and "Install" in option.get_attribute("title")
        assert row["install"] in page.text_content(f'#missing-list [data-engine="{row["id"]}"]')
    assert page.locator("#missing-list li").count() == len(missing)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    enter(page, False, "r1c3", 4)
    page.keyboard.press("ArrowRight")
    page.keyboard.type("2")                                   # wrong, but breaks no rule
    page.keyboard.press("ArrowRight")
    page.keyboard.type("7")                                   # r1c5 is a given: nothing
    page.keyboard.press("ArrowRight")
    page.keyboard.type("7")                                   # and it is a 7
    assert attr(page, "r1c6", "data-conflict") == "row 1"
    assert attr(page, "r1c5", "data-conflict") == "row 1"
    assert "r1c6=7 breaks row 1 (with r1c5)" in page.text_content("#status")
    page.keyboard.press("Control+z")
    assert page.text_content('[data-cell="r1c6"]') == "" and page.locator("[data-conflict]").count() == 0
    page.keyboard.press("Control+y")
    assert page.text_content('[data-cell="r1c6"]') == "7"
    page.keyboard.press("Backspace")
    assert page.text_content('[data-cell="r1c6"]') == ""
    for name in ("r7c1", "r8c1", "r9c1"):                     # drag down a column
        box = page.locator(f'[data-cell="{name}"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y) if name != "r7c1" else (page.mouse.move(x, y), page.mouse.down())
    page.mouse.up()
    page.click('[data-cell="r9c3"]', modifiers=["Control"])   # and one more
    page.keyboard.press("x")
    page.keyboard.type("1")
    assert [corner_marks(page, c) for c in ("r7c1", "r8c1", "r9c1", "r9c3")] == [["1"]] * 4
    page.keyboard.press("z")
    page.click('[data-cell="r9c4"]')
    page.keyboard.press("Shift+5")                           # a corner mark from digit mode
    assert corner_marks(page, "r9c4") == ["5"] and page.text_content('[data-cell="r9c4"]') == ""
    for cell in ("r8c1", "r7c1"):
        page.click(f'[data-cell="{cell}"]', modifiers=["Shift"])
    page.keyboard.press("c")
    page.keyboard.type("9")
    assert centre_marks(page, "r8c1") == "9"
    assert centre_marks(page, "r7c1") == "9" and centre_marks(page, "r9c4") == "9"
    page.keyboard.press("Control+z")
    assert centre_marks(page, "r8c1") == "" and corner_marks(page, "r8c1") == ["1"]
    page.keyboard.press("z")
    page.click('[data-cell="r1c2"]')                          # a 3: the other 3s and the peers
    same = set(page.eval_on_selector_all(".cell.same", "els => els.map(e => e.dataset.cell)"))
    assert same == {f"r{k // 9 + 1}c{k % 9 + 1}" for k, ch in enumerate(WIKI) if ch == "3"}
    peers = set(page.eval_on_selector_all(".cell.peer", "els => els.map(e => e.dataset.cell)"))
    assert len(peers) == 20 and {"r1c9", "r9c2", "r3c3"} <= peers
    assert asked == []                                        # typing never asked the server
    named = labels(page, 9)
    assert named["r1c1"].startswith("r1c1, 5, given") and named["r1c3"].startswith("r1c3, 4")
    assert named["r1c4"].startswith("r1c4, 2") and named["r1c6"].startswith("r1c6, empty")
    assert "corner marks 1" in named["r8c1"] and "corner marks 5" in named["r9c4"]
    page.click('[data-action="pencil"]')
    status_is(page, "^pencil marks")
    assert centre_marks(page, "r2c3") == open_values(line_of(page, 9), 1, 2)
    page.keyboard.press("Control+z")
    assert centre_marks(page, "r2c3") == ""
    page.click('[data-action="check"]')
    assert status_is(page, "^1 of your entries is wrong: r1c4$")
    assert marked(page, "conflict") == {"r1c4"}
    assert page.text_content('[data-cell="r1c4"]') == "2"    # the answer is not shown
    shot(page, "desktop")
    corners = {c: corner_marks(page, c) for c in ("r7c1", "r8c1", "r9c1", "r9c3", "r9c4")}
    assert corners == {"r7c1": ["1"], "r8c1": ["1"], "r9c1": ["1"], "r9c3": ["1"], "r9c4": ["5"]}
    page.click('[data-cell="r2c3"]')
    page.keyboard.press("c")
    page.keyboard.type("86")
    page.keyboard.press("z")
    assert centre_marks(page, "r2c3") == "68"
    reload_keeps(page, {"r1c3": "4", "r1c4": "2"}, corners, {"r2c3": "68"})
    assert "corner marks 5" in labels(page, 9)["r9c4"]

    killer = a_killer_link_is_drawn_with_its_cages(page, False, 1280)
    page.click('[data-action="export"]')
    status_is(page, "^links to f-puzzles, SudokuPad, the Interactive Sudoku Solver")
    links = page.eval_on_selector_all("#links a", "els => els.map(e => e.href)")
    assert [read_text(link).givens for link in links[:2]] == [killer.givens] * 2
    iss = urllib.parse.unquote(links[2].partition("?q=")[2])
    assert read_text(iss).givens == killer.givens

    a_puzzle_with_many_solutions_says_so(page, server, False)
    page.select_option("#engine", "resolvelib")
    page.click('[data-action="solve"]')
    status_is(page, "^solved by resolvelib .*more than one solution.*counted by native")
    labels(page, 4)
    honours_dark(page, "r1c1")


CHECK_GRIDS = """async (puzzles) => {
  const { Checker } = await import('/static/checks.js');
  const out = [];
  for (const [text, grids] of puzzles) {
    const res = await fetch('/api/board', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                            body: JSON.stringify({ puzzle: text }) });
    const board = await res.json();
    const checker = new Checker(board.checks, board.size);
    out.push(grids.map((g) => checker.conflicts(Array.from(g).map((ch) => (ch === '.' ? 0 : Number(ch)))).size > 0));
  }
  return out;
}"""


def test_the_page_checker_agrees_with_verify(page, server):
    """On every published variant the page's checker finds a broken rule in a full grid
    exactly when polydoku's verify does (the solution, and grids with two digits swapped
    everywhere, which keeps rows, columns and boxes), and none in part of the solution."""
    from polydoku.formats.jsonfmt import puzzle_from_dict, puzzle_to_dict
    from polydoku.model import violations
    data = Path(__file__).parent / "data" / "variants" / "published.jsonl"
    cases, expected = [], []
    for entry in map(json.loads, data.read_text().splitlines()):
        puzzle, solution = puzzle_from_dict(entry["puzzle"]), entry["solution"]
        if puzzle.size != 9:
            continue
        grids = [solution, "".join(ch if k % 3 == 0 else "." for k, ch in enumerate(solution))]
        for a, b in (("1", "2"), ("3", "7"), ("5", "9"), ("4", "8")):
            grids.append(solution.translate(str.maketrans(a + b, b + a)))
        cases.append([json.dumps(puzzle_to_dict(puzzle)), grids])
        expected.append([any(violations(puzzle, [int(ch) if ch != "." else 0 for ch in g]))
                         for g in grids])
    open_puzzle(page, server, WIKI)
    found = page.evaluate(CHECK_GRIDS, cases)
    assert found == expected
    assert sum(map(sum, expected)) >= 3 * len(cases)       # most swaps break a variant rule
