"""The sandbox every runner uses: timeouts kill, memory is capped, orphans have a CPU backstop,
nothing is left behind unless kept."""

import os

from polydoku.engines.sandbox import Sandbox


def test_timeout_kills_the_process_group():
    with Sandbox("test") as box:
        run = box.run(["sh", "-c", "sleep 30 & sleep 30"], timeout=0.5)
        path = box.path
    assert run.timed_out and run.returncode is None and run.seconds < 10
    assert not path.exists()


def test_cpu_backstop_outlives_no_timeout():
    with Sandbox("test") as box:
        run = box.run(["sh", "-c", "ulimit -t"], timeout=7)
    assert run.stdout.strip() == str(2 * 7 + 10)


def test_memory_cap_applies():
    with Sandbox("test") as box:
        run = box.run(["python3", "-c", "x = bytearray(600 * 1024 * 1024)"], timeout=30,
                      memory_mb=256)
    assert run.returncode != 0 and "MemoryError" in run.stderr


def test_private_home_and_keep(tmp_path):
    keep = tmp_path / "kept"
    with Sandbox("test", keep=keep) as box:
        run = box.run(["sh", "-c", "echo $HOME; touch $HOME/made"], timeout=10)
        home = run.stdout.strip()
    assert home.startswith(str(box.path)) and home != os.environ.get("HOME")
    assert (keep / "home" / "made").exists() and run.log_path and os.path.exists(run.log_path)


def test_keep_passes_over_a_named_pipe_a_tool_left(tmp_path):
    """apt-cudf leaves its `in-cudf` pipe behind when the solver fails: keeping the sandbox must
    copy the files around it, not wait forever reading the pipe."""
    keep = tmp_path / "kept"
    with Sandbox("test", keep=keep) as box:
        box.run(["sh", "-c", "mkfifo $TMPDIR/in-cudf; echo done > $TMPDIR/out"], timeout=10)
    assert (keep / "tmp" / "out").read_text() == "done\n"
    assert not (keep / "tmp" / "in-cudf").exists()
