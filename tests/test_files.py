"""Writing files (`polydoku.files`): every command that writes goes one way: never through a
symbolic link or over a special file, one line naming the path on any OS error (exit 2), and
nothing half-written left behind. A full disk is a file-size limit in the child (it fails a
write with an OS error as a full disk does, as root too); a read-only place is /sys, where
not even root creates a file; a folder under a file is another."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from polydoku.errors import BadInput
from polydoku.files import Output, copy_into, write_file

W = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
READ_ONLY = Path("/sys/polydoku-test")


def _set(tmp_path: Path) -> Path:
    path = tmp_path / "set.txt"
    path.write_text(W + "\n")
    return path


def _leftovers(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*")) if folder.exists() else []


def test_bench_out_does_not_write_through_a_linked_results_file(run_cli, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").symlink_to(target)
    r = run_cli("bench", _set(tmp_path), "--no-plots", "--out", out)
    assert r.code == 2 and "results.json" in r.err and "symbolic link" in r.err
    assert target.read_text() == "mine"


def test_bench_out_does_not_follow_a_linked_folder(run_cli, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "out").symlink_to(real, target_is_directory=True)
    r = run_cli("bench", _set(tmp_path), "--no-plots", "--out", tmp_path / "out")
    assert r.code == 2 and "symbolic link" in r.err
    assert list(real.iterdir()) == []


def test_export_into_a_relative_folder(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for fmt in ("debian", "conda", "dimacs"):
        r = run_cli("export", W, "--to", fmt, "--out", f"rel/{fmt}")
        assert r.code == 0, r.err
        assert r.out.startswith("wrote ") and f"rel/{fmt}" in r.out
        assert (tmp_path / "rel" / fmt / "README.md").is_file()


def _limited(size: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write fails with EFBIG instead
    return limit


def _cli(*args, cwd: Path, limit: int | None = None) -> subprocess.CompletedProcess:
    # no bytecode written under the file-size limit: a cut .pyc would break later imports
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "polydoku", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=env,
                          preexec_fn=_limited(limit) if limit else None)


@pytest.mark.parametrize("args, written", [
    (["render", W, "--out", "out/grid.png", "--scale", "8"], "out/grid.png"),
    (["export", W, "--to", "pypi", "--out", "out"], "out/"),
    (["export", W, "--to", "debian", "--out", "out"], "out/"),
    (["bench", "set.txt", "--out", "out"], "out/"),
])
def test_a_full_disk_names_the_file_and_leaves_nothing_half_written(tmp_path, args, written):
    _set(tmp_path)
    if args[0] == "render":
        (tmp_path / "out").mkdir()
    r = _cli(*args, cwd=tmp_path, limit=2500)
    assert r.returncode == 2, r.stderr
    line, = r.stderr.splitlines()
    assert f"--out {written}" in line and "File too large" in line, line
    assert _leftovers(tmp_path / "out") == []
    assert "internal error" not in r.stderr


@pytest.mark.parametrize("args", [
    ["render", W, "--out", f"{READ_ONLY}.svg"],
    ["export", W, "--to", "dimacs", "--out", READ_ONLY],
    ["bench", "set.txt", "--no-plots", "--out", READ_ONLY],
    ["solve", W, "--engine", "native", "--keep", READ_ONLY],
    ["export", W, "--to", "dimacs", "--out", "set.txt/sub"],
    ["render", W, "--out", "set.txt/grid.svg"],
])
def test_a_read_only_or_wrong_folder_is_one_line_naming_it(run_cli, tmp_path, monkeypatch,
                                                           args):
    _set(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = run_cli(*args)
    if args[0] == "solve":        # native keeps nothing: --keep is only made when used
        assert r.code == 0, r.err
        return
    assert r.code == 2, r.err
    line, = r.err.splitlines()
    place = str(READ_ONLY) if any(str(READ_ONLY) in str(a) for a in args) else "set.txt"
    assert place in line and "internal error" not in line, line


def test_write_file_is_whole_or_absent_and_refuses_special_files(tmp_path):
    with pytest.raises(BadInput, match="not a plain file"):
        write_file("/dev/null", "x")
    with pytest.raises(BadInput, match="is a folder"):
        write_file(tmp_path, "x")
    path = write_file(tmp_path / "a.txt", "old")
    write_file(path, "new")
    assert path.read_text() == "new" and _leftovers(tmp_path) == [path]


def test_a_failed_output_removes_what_it_created(tmp_path):
    (tmp_path / "kept.txt").write_text("theirs")
    with pytest.raises(BadInput, match="is a file, not a folder"):
        with Output(tmp_path / "new" / "deep") as out:
            write_file(out / "a" / "one.txt", "1", make_parents=True)
            write_file(out / "two.txt", "2")
            write_file(out / "two.txt" / "three.txt", "3")
    assert not (tmp_path / "new").exists()
    assert (tmp_path / "kept.txt").read_text() == "theirs"


def test_keep_copy_is_undone_when_it_fails_part_way(tmp_path):
    source = tmp_path / "box"
    (source / "logs").mkdir(parents=True)
    (source / "a.txt").write_text("a")
    (source / "logs" / "z.log").write_text("z")
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "mine.txt").write_text("mine")
    (keep / "b.txt").symlink_to(tmp_path / "elsewhere")
    (source / "b.txt").write_text("b")
    with pytest.raises(BadInput, match="b.txt: refusing to write through a symbolic link"):
        copy_into(source, keep)
    assert sorted(p.name for p in keep.iterdir()) == ["b.txt", "mine.txt"]
    assert not (tmp_path / "elsewhere").exists()
