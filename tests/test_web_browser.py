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
    yield url
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err and "stopped" in err, err


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(need_browser()), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 640})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    yield page
    context.close()
    assert not errors, errors


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


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}.png"))


def line_of(page, n: int) -> str:
    values = cells(page)
    return "".join(values[f"r{r}c{c}"] or "." for r in range(1, n + 1) for c in range(1, n + 1))


def test_prefill_solve_and_check_unique(page, server):
    open_puzzle(page, server, WIKI)
    assert line_of(page, 9) == WIKI
    page.click('[data-action="solve"]')
    assert "native" in status_is(page, "^solved by native in [0-9.]+ s")
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


def test_keyboard_entry_pencil_marks_and_candidates(page, server):
    open_puzzle(page, server, "." * 16)
    page.click('[data-cell="r1c1"]')
    page.keyboard.type("1")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("2")
    page.keyboard.press("ArrowDown")
    page.keyboard.type("p34")                  # pencil mode, then two marks in r2c2
    values = cells(page)
    assert (values["r1c1"], values["r1c2"], values["r2c2"]) == ("1", "2", "")
    assert page.eval_on_selector_all('[data-cell="r2c2"] [data-pencil]:not([data-pencil=""])',
                                     "els => els.map(e => e.dataset.pencil)") == ["3", "4"]
    page.keyboard.press("p")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Backspace")
    assert page.text_content('[data-cell="r1c2"]') == ""
    page.click('[data-action="candidates"]')
    status_is(page, "^[0-9]+ candidates")
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    assert page.text_content('[data-cell="r1c1"]') == "1"


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
    page.fill("#puzzle-text", MIRACLE)
    page.click('[data-action="load"]')
    status_is(page, "^loaded a 9x9 puzzle with anti-knight")
    assert page.get_attribute("#board-picture", "src").startswith("blob:")
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    solution = api(server, "solve", {"puzzle": MIRACLE})["solutions"][0]
    assert line_of(page, 9) == solution
    shot(page, "variant")


def test_a_name_with_markup_shows_as_text(page, server):
    open_puzzle(page, server, NAMED)
    assert page.text_content("#name") == json.loads(NAMED)["name"]
    assert page.locator("script").count() == 1 and page.locator("#name *").count() == 0
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
    page.fill("#puzzle-text", link)
    page.click('[data-action="load"]')
    status_is(page, "^loaded a 9x9 puzzle")
    page.click('[data-action="solve"]')
    status_is(page, "^solved")
    assert line_of(page, 9) == entry["solution"]
