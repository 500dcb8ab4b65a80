"""Tool versions: asked once, kept in polydoku's cache, asked again when the program changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from polydoku import cache
from polydoku.engines.versions import program_version


def _tool(folder: Path, version: str) -> Path:
    """Return a program that prints `version` and counts its runs in a file beside it."""
    tool = folder / "faketool"
    tool.write_text(f"#!/bin/sh\necho run >> {folder / 'runs'}\necho 'faketool {version}'\n")
    tool.chmod(0o755)
    return tool


def _runs(folder: Path) -> int:
    runs = folder / "runs"
    return len(runs.read_text().splitlines()) if runs.exists() else 0


def test_a_version_is_asked_once_and_again_when_the_program_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYDOKU_CACHE_DIR", str(tmp_path / "cache"))
    tool = _tool(tmp_path, "1.0")
    assert program_version([str(tool), "--version"]) == "faketool 1.0"
    assert program_version([str(tool), "--version"]) == "faketool 1.0"
    assert _runs(tmp_path) == 1
    assert program_version([str(tool), "-v"], "faketool") == "faketool 1.0"   # another question
    assert _runs(tmp_path) == 2
    _tool(tmp_path, "2.10")                      # an upgrade: new size and time
    st = tool.stat()
    os.utime(tool, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert program_version([str(tool), "--version"]) == "faketool 2.10"
    assert _runs(tmp_path) == 3


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("POLYDOKU_CACHE_DIR", str(blocker / "cache"))
    tool = _tool(tmp_path, "3.1")
    assert program_version([str(tool), "--version"]) == "faketool 3.1"
    assert program_version([str(tool), "--version"]) == "faketool 3.1"
    assert _runs(tmp_path) == 2
    assert cache.read_json("versions.json") is None


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"k": 5}'])
def test_a_damaged_cache_is_asked_again(tmp_path, monkeypatch, content):
    monkeypatch.setenv("POLYDOKU_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "versions.json").write_text(content)
    tool = _tool(tmp_path, "4.2")
    assert program_version([str(tool), "--version"]) == "faketool 4.2"
    assert program_version([str(tool), "--version"]) == "faketool 4.2"
    assert _runs(tmp_path) == 1


def test_a_missing_program_has_no_version(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYDOKU_CACHE_DIR", str(tmp_path / "cache"))
    assert program_version([str(tmp_path / "nothing-here"), "--version"]) == ""
