"""SudokuPad short links (formats/fetch.py), fetched from a fake SudokuPad on 127.0.0.1: the
payload is read and cached, offline refuses and says what to paste, and the fetch is bounded
(off-site redirects, size, time, answers that are no puzzle). Never the network."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from test_sudokupad import PUBLISHED, to_scl, zipped

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import fetch, read_puzzle

KILLER = to_scl(PUBLISHED["killer"]).split("sudokupad.app/", 1)[1]


class FakeSudokuPad(BaseHTTPRequestHandler):
    """Answers /api/puzzle/ID from `routes`: a payload, a status, a redirect or a delay."""

    routes: dict[str, tuple] = {}
    hits: list[str] = []

    def do_GET(self):                                       # noqa: N802 - http.server's name
        self.hits.append(self.path)
        kind, value = self.routes.get(self.path, ("status", 404))
        if kind == "sleep":
            time.sleep(value)
            kind, value = "body", KILLER
        if kind == "status":
            self.send_response(value)
            self.end_headers()
            return
        if kind == "redirect":
            self.send_response(302)
            self.send_header("Location", value)
            self.end_headers()
            return
        body = value.encode() if isinstance(value, str) else value
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False              # a sleeping answer does not hold the test's end

    def handle_error(self, request, client_address):
        """Say nothing of a client that gave up (the timeout tests): a handler still asleep
        would print its broken pipe into a later test's captured stderr."""


@pytest.fixture
def sudokupad(monkeypatch, tmp_path):
    server = Server(("127.0.0.1", 0), FakeSudokuPad)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setattr(fetch, "API", base + "/api/puzzle/")
    monkeypatch.delenv("POLYDOKU_OFFLINE", raising=False)
    monkeypatch.setenv("POLYDOKU_CACHE_DIR", str(tmp_path))
    FakeSudokuPad.routes, FakeSudokuPad.hits = {}, []
    yield base
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_a_short_link_is_fetched_read_and_kept_for_offline(sudokupad, monkeypatch):
    FakeSudokuPad.routes["/api/puzzle/abc123"] = ("body", KILLER)
    out = api.solve(read_puzzle("https://sudokupad.app/abc123"))
    assert "".join(map(str, out.solutions[0])) == PUBLISHED["killer"]["solution"]
    monkeypatch.setenv("POLYDOKU_OFFLINE", "1")            # from the cache, not the server
    assert read_puzzle("sudokupad.app/abc123").rules == read_puzzle(KILLER).rules
    assert FakeSudokuPad.hits == ["/api/puzzle/abc123"]


def test_an_answer_in_zipped_json_is_read_too(sudokupad):
    grid = [[{"v": 1}, {}, {}, {}], [{}] * 4, [{}] * 4, [{}] * 4]
    FakeSudokuPad.routes["/api/puzzle/tiny"] = ("body", zipped({"ce": grid}))
    assert read_puzzle("https://sudokupad.app/tiny").size == 4


def test_offline_refuses_and_says_what_to_paste(sudokupad, run_cli, monkeypatch):
    FakeSudokuPad.routes["/api/puzzle/abc123"] = ("body", KILLER)
    r = run_cli("solve", "https://sudokupad.app/abc123", "--offline")
    assert r.code == 2 and "offline" in r.err and "paste the puzzle's full link" in r.err
    monkeypatch.setenv("POLYDOKU_OFFLINE", "yes")
    r = run_cli("solve", "https://sudokupad.app/abc123")
    assert r.code == 2 and "offline" in r.err and len(r.err.strip().splitlines()) == 1
    assert FakeSudokuPad.hits == []


@pytest.mark.parametrize("route, words", [
    (("status", 404), "has no puzzle"),
    (("status", 500), "answered 500"),
    (("body", "<html>not here</html>"), "not a puzzle payload"),
    (("body", "scl" + "A" * (fetch.MAX_BYTES + 10)), "more than"),
    (("redirect", "http://localhost:9/api/puzzle/abc123"), "off its site"),
    (("redirect", "https://example.com/abc123"), "off its site"),
    (("body", "short"), "not a puzzle payload"),
])
def test_bad_answers_are_one_line_exit_2(sudokupad, run_cli, route, words):
    FakeSudokuPad.routes["/api/puzzle/abc123"] = route
    r = run_cli("solve", "https://sudokupad.app/abc123")
    assert r.code == 2 and words in r.err and len(r.err.strip().splitlines()) == 1, r.err


def test_a_redirect_on_the_same_site_is_followed(sudokupad):
    FakeSudokuPad.routes["/api/puzzle/old"] = ("redirect", sudokupad + "/api/puzzle/new")
    FakeSudokuPad.routes["/api/puzzle/new"] = ("body", KILLER)
    assert read_puzzle("https://sudokupad.app/old").rules == read_puzzle(KILLER).rules


def test_the_fetch_is_bounded_in_time(sudokupad, monkeypatch):
    monkeypatch.setattr(fetch, "TIMEOUT", 0.3)
    FakeSudokuPad.routes["/api/puzzle/slow"] = ("sleep", 10)
    start = time.monotonic()
    with pytest.raises(BadInput, match="cannot fetch"):
        read_puzzle("https://sudokupad.app/slow")
    assert time.monotonic() - start < 8           # the answer would take 10 s


def test_only_https_leaves_the_machine(monkeypatch):
    monkeypatch.setattr(fetch, "API", "http://sudokupad.invalid/api/puzzle/")
    monkeypatch.delenv("POLYDOKU_OFFLINE", raising=False)
    with pytest.raises(BadInput, match="HTTPS only"):
        read_puzzle("https://sudokupad.app/abc123")


def test_a_payload_that_is_no_short_id_is_not_fetched():
    with pytest.raises(BadInput, match="nor a short link"):
        read_puzzle("https://sudokupad.app/a%20b%3Cc")


# ---- shortened links (tinyurl.com), asked of a fake shortener on 127.0.0.1 ------------------

@pytest.fixture
def shortener(sudokupad, monkeypatch):
    monkeypatch.setattr(fetch, "SHORTENER", sudokupad + "/short/")
    return sudokupad


def fpuzzles_link() -> str:
    from polydoku.formats.fpuzzles import to_link
    return to_link(read_puzzle(KILLER))


def test_a_shortened_f_puzzles_link_is_read_without_following_it(shortener, run_cli):
    long = fpuzzles_link()
    FakeSudokuPad.routes["/short/abc123"] = ("redirect", long)
    puzzle = read_puzzle("https://tinyurl.com/abc123")
    assert puzzle.rules == read_puzzle(long).rules and puzzle.givens == read_puzzle(long).givens
    assert FakeSudokuPad.hits == ["/short/abc123"]          # f-puzzles itself is never asked
    fetch.set_offline(True)
    try:
        assert read_puzzle("tinyurl.com/abc123").rules == puzzle.rules   # kept for offline
    finally:
        fetch.set_offline(False)


def test_a_shortened_sudokupad_short_link_is_fetched_from_sudokupad(shortener):
    FakeSudokuPad.routes["/short/xyz"] = ("redirect", "https://sudokupad.app/kept")
    FakeSudokuPad.routes["/api/puzzle/kept"] = ("body", KILLER)
    assert read_puzzle("https://tinyurl.com/xyz").rules == read_puzzle(KILLER).rules


@pytest.mark.parametrize("route, words", [
    (("redirect", "https://example.com/?load=N4Ig"), "leads off the puzzle sites"),
    (("redirect", "http://www.f-puzzles.com/?load=N4Ig"), "leads off the puzzle sites"),
    (("status", 404), "leads nowhere"),
    (("body", "<html>"), "leads to no puzzle"),
])
def test_a_shortened_link_leads_only_to_a_puzzle_site(shortener, run_cli, route, words):
    FakeSudokuPad.routes["/short/bad"] = route
    result = run_cli("solve", "https://tinyurl.com/bad")
    assert result.code == 2 and words in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_offline_a_shortened_link_says_what_to_paste(shortener, run_cli):
    result = run_cli("solve", "--offline", "tinyurl.com/never")
    assert result.code == 2 and "offline" in result.err and "f-puzzles.com/?load=" in result.err
    assert FakeSudokuPad.hits == []
