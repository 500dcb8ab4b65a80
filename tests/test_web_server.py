"""The server side of `polydoku serve`: Host and Origin checks, a connection cap and a header
timeout, one log line per error, exit 130 on stop signals with JSON for the runs in flight,
and a cancelled tool run that leaves no sandbox behind."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import IN_CI, need_engine

if not IN_CI:       # in CI the web extra must be there: a missing one fails the import below
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from polydoku.cli.serve import allowed_hosts, listen  # noqa: E402
from polydoku.web import app as web_app  # noqa: E402
from polydoku.web.app import Settings, create_app  # noqa: E402
from polydoku.web.server import OneLine, make_server, set_up_logging  # noqa: E402

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
JSON = {"content-type": "application/json"}
CODE = "import sys; from polydoku.cli import main; sys.exit(main(sys.argv[1:]))"
# Norvig's impossible puzzle: no solution, and pip searches until its time is up.
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def has_ipv6_loopback() -> bool:
    """Return whether this machine can listen on ::1."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


# -- Host and Origin ----------------------------------------------------------------------

def test_the_hosts_answered_follow_the_address_listened_on():
    with contextlib.closing(listen("127.0.0.1", 0)) as s:
        assert allowed_hosts("127.0.0.1", s) == ("127.0.0.1", "localhost")
    with contextlib.closing(listen("0.0.0.0", 0)) as s:
        assert allowed_hosts("0.0.0.0", s) is None         # every interface: names unknown
    if has_ipv6_loopback():
        with contextlib.closing(listen("::1", 0)) as s:
            assert allowed_hosts("::1", s) == ("::1", "localhost")


@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_serving_on_ipv6_loopback_keeps_the_host_check():
    with contextlib.closing(listen("::1", 0)) as s:
        hosts = allowed_hosts("::1", s)
    with TestClient(create_app(Settings(hosts=hosts)), base_url="http://[::1]:8000") as c:
        assert c.post("/api/board", json={"puzzle": WIKI}).status_code == 200
        assert c.post("/api/board", json={"puzzle": WIKI},
                      headers={"host": "localhost:8000"}).status_code == 200
        rebound = c.post("/api/solve", json={"puzzle": WIKI},
                         headers={"host": "rebind.example:8000"})
    assert rebound.status_code == 400 and "Host" in rebound.json()["error"]


@pytest.mark.parametrize("hosts", [("127.0.0.1", "localhost"), ("*",)])
def test_a_foreign_origin_is_refused_with_json(hosts):
    with TestClient(create_app(Settings(hosts=hosts)), base_url="http://127.0.0.1:8000") as c:
        own = c.post("/api/board", json={"puzzle": WIKI},
                     headers={"origin": "http://127.0.0.1:8000"})
        assert own.status_code == 200
        for origin in ("http://evil.example", "http://127.0.0.1:9999", "null",
                       "file://", "http://evil.example@127.0.0.1:8000"):
            r = c.post("/api/solve", json={"puzzle": WIKI}, headers={"origin": origin})
            assert r.status_code == 403, origin
            assert "another site" in r.json()["error"]
        r = c.get("/api/engines", headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and r.headers["content-type"] == "application/json"


# -- a server in this process (a thread), for the connection limits and the log ------------

@contextlib.contextmanager
def live(app, *, cap: int = 16, header_seconds: float = 10.0):
    """Serve `app` on a free loopback port from a thread; yield the port."""
    sock = listen("127.0.0.1", 0)
    server = make_server(app, cap=cap, header_seconds=header_seconds, stop_seconds=1)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(15)


def half_sent(port: int) -> socket.socket:
    """Return a connection that sent the start of a request's headers and then nothing."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: applic")
    return s


def answer_of(s: socket.socket, wait: float) -> bytes | None:
    """Return what the server wrote on a connection before closing it within `wait`
    seconds (b"" if nothing), or None when it is still open."""
    s.settimeout(wait)
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except TimeoutError:
        return None
    except OSError:
        pass
    return data


def post(port: int, path: str, body: dict, timeout: float = 30) -> tuple[int, dict]:
    """Return (status, JSON) of a POST to the server on `port`."""
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                 headers=JSON)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, json.load(res)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def test_idle_connections_over_the_cap_make_room_and_half_sent_headers_time_out():
    with live(create_app(Settings(workers=1)), cap=8, header_seconds=1.0) as port:
        idle = [half_sent(port) for _ in range(32)]         # four times the cap
        status, data = post(port, "/api/board", {"puzzle": WIKI}, timeout=10)
        assert status == 200 and data["size"] == 9
        answers = [answer_of(s, 5) for s in idle]
        for s in idle:
            s.close()
    # Every one was closed: those that had sent part of a request were told why (one
    # closed before its bytes were read is closed without a word).
    assert None not in answers
    told = [a for a in answers if a]
    assert all(a.startswith(b"HTTP/1.1 408 ") for a in told) and len(told) >= 8 - 1   # one place is the request answered
    bodies = [json.loads(a.split(b"\r\n\r\n", 1)[1])["error"] for a in told]
    assert any("did not come within 1 s" in b for b in bodies)
    assert all("did not come within 1 s" in b or "make room" in b for b in bodies)


def test_a_body_sent_too_slowly_gets_a_json_408(monkeypatch):
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    with live(create_app()) as port:
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 100\r\n\r\n{\"puzzle\": ")
            answer = answer_of(s, 10) or b""
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 ")
    assert json.loads(body) == {"error": "the request body did not come within 0.5 s"}


def test_an_internal_error_is_one_line_with_its_traceback_only_when_verbose(monkeypatch, capfd):
    def broken(puzzle):
        raise RuntimeError("boom")
    monkeypatch.setattr(web_app, "board_json", broken)
    for verbose in (False, True):
        set_up_logging(verbose)
        capfd.readouterr()
        with live(create_app()) as port:
            status, data = post(port, "/api/board", {"puzzle": WIKI})
        err = capfd.readouterr().err
        assert status == 500 and data == {"error": "internal error: RuntimeError"}
        lines = [ln for ln in err.splitlines() if ln.startswith("polydoku: ")]
        assert lines == ["polydoku: internal error: RuntimeError: boom"
                         + ("" if verbose else " (--verbose shows the traceback)")]
        assert ("Traceback" in err) == verbose
    set_up_logging(False)


def test_the_same_log_line_is_not_repeated_at_once(capfd):
    import logging
    handler = OneLine()
    record = logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                               "socket.accept() out of system resource\nsocket: <...>", (), None)
    capfd.readouterr()
    for _ in range(1000):
        handler.emit(record)
    assert capfd.readouterr().err == "polydoku: socket.accept() out of system resource\n"


# -- the real `polydoku serve` -----------------------------------------------------------

@contextlib.contextmanager
def serving(*args: str, env: dict | None = None, preexec=None):
    """Start `polydoku serve --port 0 ARGS`; yield (process, port). The caller stops it."""
    proc = subprocess.Popen([sys.executable, "-c", CODE, "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, preexec_fn=preexec)
    try:
        url = proc.stdout.readline().strip()
        assert url, proc.stderr.read()
        yield proc, int(url.rstrip("/").rsplit(":", 1)[1])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def started_run(port: int, call: str, body: dict) -> socket.socket:
    """Return a connection whose request (a run) the server is working on."""
    data = json.dumps(body).encode()
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(b"POST /api/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
              b"\r\nContent-Length: %d\r\n\r\n%s" % (call.encode(), len(data), data))
    return s


def test_a_stop_signal_answers_the_run_in_flight_with_json_and_exits_130():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with serving() as (proc, port):
            assert post(port, "/api/solve", {"puzzle": WIKI}, timeout=60)[0] == 200  # warm
            s = started_run(port, "count", {"puzzle": "." * 625, "limit": 100_000, "timeout": 60})
            time.sleep(0.5)                 # the count takes seconds: it is still going
            proc.send_signal(sig)
            answer = answer_of(s, 30) or b""
            s.close()
            _, err = proc.communicate(timeout=30)
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 503 ") and b"application/json" in head, answer
        assert json.loads(body) == {"error": "stopped: the server is shutting down"}
        assert proc.returncode == 130, (sig, err)
        assert "Traceback" not in err and err.strip().endswith("stopped"), err


def test_a_client_hanging_up_mid_body_is_one_line():
    with serving() as (proc, port):
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 1000\r\n\r\n{\"puzzle\": ")
                time.sleep(0.3)
        assert post(port, "/api/board", {"puzzle": WIKI})[0] == 200
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err
    assert err.count("polydoku: a client went away while sending its request") == 1


def test_a_public_bind_warns_and_checks_only_the_origin():
    with serving("--host", "0.0.0.0") as (proc, port):
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/board",
                                     json.dumps({"puzzle": WIKI}).encode(),
                                     headers={**JSON, "Host": f"some.name:{port}"})
        with urllib.request.urlopen(req, timeout=30) as res:
            assert res.status == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert "warning: listening on every interface (0.0.0.0)" in err
    assert proc.returncode == 130


@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_serve_on_ipv6_loopback_refuses_a_rebinding_host():
    import http.client
    with serving("--host", "::1") as (proc, port):
        answers = {}
        for host in (f"[::1]:{port}", f"rebind.example:{port}"):
            conn = http.client.HTTPConnection("::1", port, timeout=30)
            conn.request("POST", "/api/board", json.dumps({"puzzle": WIKI}),
                         {**JSON, "Host": host})
            res = conn.getresponse()
            answers[host] = (res.status, json.loads(res.read()))
            conn.close()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert answers[f"[::1]:{port}"][0] == 200
    assert answers[f"rebind.example:{port}"] == (
        400, {"error": "this server does not answer to that Host name"})
    assert "warning" not in err and proc.returncode == 130


def _low_file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_a_thousand_half_sent_requests_neither_block_the_server_nor_flood_its_stderr():
    with serving(preexec=_low_file_limit) as (proc, port):    # as under a default ulimit
        idle = []
        for _ in range(1000):
            with contextlib.suppress(OSError):
                idle.append(half_sent(port))
        start = time.monotonic()
        status, data = post(port, "/api/board", {"puzzle": WIKI}, timeout=20)
        waited = time.monotonic() - start
        for s in idle:
            s.close()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert len(idle) > 300 and status == 200 and data["size"] == 9
    assert waited < 15
    assert len(err) < 2000 and "Traceback" not in err, err[:2000]


# -- a cancelled tool run -----------------------------------------------------------------

_STOPPED_RUN = """
import json, os, signal, sys, threading, time
from polydoku.engines import sandbox
sandbox.TOOL_STOP_SECONDS = 3.0
threading.Timer(0.5, os.kill, args=(os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
folder = None
try:
    with sandbox.Sandbox("sh") as box:
        folder = box.path
        box.run(["sh", "-c", sys.argv[1]], timeout=30)
    stopped = False
except KeyboardInterrupt:
    stopped = True
print(json.dumps({"stopped": stopped, "took": time.monotonic() - start,
                  "left": folder is not None and folder.exists()}))
"""


def test_a_stopped_tool_may_clean_up_then_is_killed(tmp_path):
    """Ctrl-C or a cancelled run asks the tool to stop (SIGTERM) and lets it finish its own
    clean-up; a tool that ignores it is killed once TOOL_STOP_SECONDS are over. (In a process
    of its own: the Ctrl-C must not reach the test runner.)"""
    marker = tmp_path / "cleaned"
    polite = f'trap "sleep 1; echo done > {marker}; exit 0" TERM; while :; do sleep 0.1; done'
    deaf = 'trap "" TERM; while :; do sleep 0.1; done'
    for script in (polite, deaf):
        done = subprocess.run([sys.executable, "-c", _STOPPED_RUN, script], capture_output=True,
                              text=True, timeout=60)
        result = json.loads(done.stdout)
        assert result["stopped"] and not result["left"], done.stderr
        if script is polite:
            assert marker.read_text() == "done\n" and result["took"] < 3
        else:
            assert 3 <= result["took"] < 6


@pytest.mark.tools
def test_cancelling_a_tool_run_from_the_page_leaves_no_sandbox(tmp_path):
    need_engine("pip")
    with serving(env={"TMPDIR": str(tmp_path)}) as (proc, port):
        s = started_run(port, "solve", {"puzzle": IMPOSSIBLE, "engine": "pip", "timeout": 120})
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("polydoku-run-*/polydoku-pip-*/running.pid")):
            assert time.monotonic() < deadline and proc.poll() is None, "pip never started"
            time.sleep(0.1)
        pip = tools_running_in(tmp_path)
        assert pip
        s.close()                                           # the page's cancel
        deadline = time.monotonic() + 30
        while sandboxes(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = sandboxes(tmp_path)
        still = [p for p in pip if Path(f"/proc/{p}").exists()]
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    assert left == [] and still == []


def sandboxes(folder: Path) -> list[Path]:
    """Return the folders of runs and sandboxes under `folder`."""
    return list(folder.glob("polydoku-*"))


def tools_running_in(folder: Path) -> list[int]:
    """Return the processes whose environment names a sandbox under `folder` (its tools)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                environ = Path(f"/proc/{entry}/environ").read_bytes()
                if f"{folder}/polydoku-run-".encode() in environ and b"/polydoku-pip-" in environ:
                    found.append(int(entry))
    return found
