"""Shared fixtures: puzzle data, real engines (skip locally when missing, fail in CI), the CLI."""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))
EXAMPLES = ROOT / "examples"
IN_CI = bool(os.environ.get("CI"))


FAST = bool(os.environ.get("POLYDOKU_FAST"))

# polydoku's cache (tool versions, fetched puzzles) goes to a folder of this run, never the
# user's: every test and every polydoku it starts sees the same empty cache at the start
CACHE = Path(tempfile.mkdtemp(prefix="polydoku-test-cache-"))
os.environ["POLYDOKU_CACHE_DIR"] = str(CACHE)
# Tests never reach the network for a short link: the tests of the fetch lift this and point
# it at a local server.
os.environ["POLYDOKU_OFFLINE"] = "1"
# Engines that run in this process (libraries): the fast lane uses only these.
IN_PROCESS = {"native", "sat", "pycosat", "cpsat", "z3", "clingo", "resolvelib"}
# Modules that drive outside programs throughout: marked `tools`, left out of the fast lane.
TOOL_MODULES = {"test_conda", "test_debian", "test_pypi_engines", "test_resolvers",
                "test_javascript", "test_cluster",
                "test_web_browser", "test_exports", "test_published_variants", "test_bench",
                "test_solvers", "test_sandbox"}


# Tests of a second or more (measured with --durations on 2 cores): marked `slow`, so the fast
# lane stays under a minute; the full suite (CI) runs them. A name without [...] means every
# parameter.
SLOW = {
    "test_kinds_chaos.py::test_iss_chaos_puzzles_of_same_region_cells_are_unique_with_their_published_grid",
    "test_kinds_composite.py::test_iss_collection_ors_over_many_cells_are_unique_with_their_published_grid",
    "test_kinds_chaos.py::test_chaos_clues_keep_exactly_the_grids_a_fitting_tiling_allows",
    "test_kinds_chaos.py::test_the_lowering_draws_each_tiling_of_a_grid_exactly_once",
    "test_kinds_chaos.py::test_iss_chaos_puzzles_are_solved_to_their_published_grid_and_unique",
    "test_kinds_chaos.py::test_every_chaos_puzzle_read_from_iss_keeps_its_published_grid",
    "test_skyscrapers.py::test_a_built_skyscraper_puzzle_needs_the_pair",
    "test_clue_overlap.py::test_clue_unit_overlap_on_a_published_quadruple_puzzle",
    "test_clue_overlap.py::test_cage_interaction_on_a_generated_killer",
    "test_hidden_cages.py::test_cage_splitting_on_a_generated_killer",
    "test_cluster.py::test_local_cluster_leaves_no_scratch_space_and_is_quiet_about_a_killed_worker",
    "test_rules_text.py::test_published_puzzles_read_from_the_link_and_their_rules_text_alone",
    "test_paths.py::test_a_path_through_a_cell_twice_keeps_its_statement",
    "test_sudokupad.py::test_published_puzzles_drawn_as_sudokupad_draws_them_solve_from_the_link",
    "test_batch.py::test_a_killed_worker_does_not_end_the_batch",
    "test_batch.py::test_a_chunk_that_kills_its_worker_is_given_up_and_the_rest_answered",
    "test_explainer.py::test_a_forcing_net_is_rated_by_its_size",
    "test_files.py::test_a_full_disk_names_the_file_and_leaves_nothing_half_written",
    "test_core.py::test_the_hardest_published_variants_solve_on_the_compiled_core",
    "test_core.py::test_a_puzzle_of_thermometers_alone_counts_unique_by_branching_on_places",
    "test_propagation_core.py::test_the_readers_exclude_what_the_constraints_say_on_the_data_sets[variants]",
    "test_propagation_core.py::test_the_fixpoints_are_the_same_compiled_and_in_python_on_the_variant_sets[iss_collection]",
    "test_differential.py::test_status_agrees_with_native[resolvelib]",
    "test_differential.py::test_counts_agree_with_native",
    "test_logic.py::test_hard_sets_never_take_a_wrong_step",
    "test_explain.py::test_ten_unsolvable_tdoku_puzzles_minimal_conflicts",
    "test_explain.py::test_16x16_uses_quickxplain_and_symbols",
    "test_web.py::test_runs_beyond_the_workers_get_429_and_the_page_stays_responsive",
    "test_web.py::test_serve_stops_a_run_whose_client_goes_away_and_stops_on_ctrl_c",
    "test_web_server.py::test_a_thousand_half_sent_requests_neither_block_the_server_nor_flood_its_stderr",
    "test_web_server.py::test_a_stop_signal_answers_the_run_in_flight_with_json_and_exits_130",
    "test_web_server.py::test_a_stopped_tool_may_clean_up_then_is_killed",
    "test_web_server.py::test_cancelling_a_tool_run_from_the_page_leaves_no_sandbox",
    "test_web_server.py::test_a_client_hanging_up_mid_body_is_one_line",
    "test_web_server.py::test_a_public_bind_warns_and_checks_only_the_origin",
    "test_web_server.py::test_serve_on_ipv6_loopback_refuses_a_rebinding_host",
    "test_web_server.py::test_idle_connections_over_the_cap_make_room_and_half_sent_headers_time_out",
    "test_generate.py::test_global_rules_give_unique_puzzles_that_keep_them",
    "test_generate.py::test_minimal_puzzles_lose_uniqueness_with_any_given_removed",
    "test_generate.py::test_generate_prints_one_line_per_puzzle_the_same_on_any_number_of_jobs",
    "test_rule_kinds.py::test_package_managers_solve_variant_rules",
    "test_rule_kinds.py::test_every_kind_agrees_with_brute_force_on_each_solver_family",
    "test_values_kinds.py::test_each_solver_family_keeps_those_grids_on_values_from_0",
    "test_rule_kinds.py::test_entropic_lines_on_a_six_by_six",
    "test_fpuzzles.py::test_every_published_puzzle_survives_a_link_and_keeps_its_solution",
    "test_fuzz.py::test_generated_json_puzzles",
    "test_fuzz.py::test_generated_api_requests",
    "test_cli.py::test_terminated_run_exits_cleanly",
    "test_express.py::test_a_closed_pipe_and_a_stop_signal",
    "test_logic.py::test_the_compiled_searches_and_the_layout_memory_change_no_step",
    "test_rate_hint.py::test_rate_gives_one_row_per_line_in_order_with_error_rows",
    "test_candidates.py::test_variant_puzzle_and_unsolvable",
    "test_properties.py::test_band_stack_and_row_permutations_keep_the_count",
    "test_properties.py::test_transposing_maps_solutions",
    "test_native.py::test_serg_counts_sample",
    "test_pypi_encode.py::test_names_work_above_nine",
    "test_properties.py::test_relabelling_values_maps_solutions",
    "test_explain_checker.py::test_checker_agrees_with_known_counts",
    "test_generate.py::test_killer_puzzles_can_be_aimed_at_a_level",
    "test_generate.py::test_ctrl_c_stops_and_keeps_what_was_printed",
    "test_logic_cli.py::test_steps_reach_for_nested_forcing_nets_only_when_needed",
    "test_rate_hint.py::test_hint_out_draws_the_grade",
    "test_explain.py::test_smallest_out_of_budget_keeps_a_minimal_conflict",
    "test_explain.py::test_core_engine_gives_a_minimal_conflict_too",
}


# The host's package state and the package managers' usual homes: no test may change them
# (every engine runs in its own sandbox). Compared at the end of the whole run.
HOST_PACKAGE_STATE = ["/var/lib/dpkg/status", "/var/lib/rpm", "/var/lib/dnf", "/var/cache/dnf",
                      "/etc/apt/sources.list", "~/.npm", "~/.cargo/registry", "~/.opam",
                      "~/.gem", "~/.bundle", "~/.cabal", "~/.composer", "~/.cache/composer",
                      "~/.cache/pip", "~/.conda", "~/.local/share/pnpm", "~/.cache/yarn"]


def _host_state() -> dict[str, tuple]:
    out: dict[str, tuple] = {}
    for raw in HOST_PACKAGE_STATE:
        path = Path(os.path.expanduser(raw))
        if not path.exists():
            out[raw] = ()
            continue
        files = [path] if path.is_file() else sorted(path.rglob("*"))[:20000]
        out[raw] = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files
                         if f.is_file())
    return out


def pytest_sessionstart(session):
    session.config._polydoku_host = _host_state()


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(CACHE, ignore_errors=True)
    before = getattr(session.config, "_polydoku_host", None)
    if before is None or FAST:
        return
    changed = [k for k, v in _host_state().items() if before.get(k) != v]
    if changed:
        print(f"\nthe run changed the host's package state: {', '.join(changed)}",
              file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module.__name__ in TOOL_MODULES:
            item.add_marker(pytest.mark.tools)
        name = item.nodeid.rsplit("/", 1)[-1]
        if name in SLOW or name.split("[", 1)[0] in SLOW:
            item.add_marker(pytest.mark.slow)


def missing(reason: str) -> None:
    """Skip locally, fail in CI: in CI every engine and data set must be there."""
    if IN_CI and not FAST:
        pytest.fail(f"required in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def data_path(name: str) -> Path:
    """Return a file of the shared puzzle data (skip or fail when it is not there)."""
    path = DATA / name
    if not path.exists():
        missing(f"puzzle data {path} not found (set POLYDOKU_DATA)")
    return path


def data_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Return the puzzle lines of a shared data file (every `step`-th, at most `limit`)."""
    lines = [ln.strip() for ln in data_path(name).read_text().splitlines() if ln.strip()]
    lines = lines[::step]
    return lines[:limit] if limit else lines


def need_engine(engine_id: str, **kwargs):
    """Return an engine that runs here (skip or fail when it does not)."""
    from polydoku.engines import make_engine
    if FAST and engine_id.split("+")[0] not in IN_PROCESS:
        pytest.skip(f"fast lane: {engine_id} runs an outside program")
    engine = make_engine(engine_id, **kwargs)
    avail = engine.available()
    if not avail.ok:
        missing(f"engine {engine_id} unavailable: {avail.reason}; install: "
                f"{avail.hint or engine.install_hint}")
    return engine


CHROMIUM = Path("/usr/bin/chromium")


def need_browser() -> Path:
    """Return Debian's chromium for Playwright to drive (skip or fail when it or Playwright is
    missing); Playwright's own browser download is never used."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("the playwright package is not installed (pip install 'polydoku[test]')")
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} not found (apt-get install chromium)")
    return CHROMIUM


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run polydoku in process: run_cli("solve", "...", stdin="...") -> CliResult."""
    from polydoku.cli import main

    def run(*args: str, stdin: str | None = None) -> CliResult:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def child_pids(pid: int) -> list[int]:
    """Return the processes whose parent is `pid` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    stat = handle.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found
