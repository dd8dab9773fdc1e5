"""Process-tree memory and measured runs (benchmarks/scale_procs.py)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from scale_procs import Failure, Timing, composition, parse_pss, parse_stat, run_measured, tree_rss


def test_tree_rss_sums_a_process_and_all_its_descendants_only() -> None:
    parents = {10: 1, 11: 10, 12: 11, 13: 10, 20: 1, 21: 20}
    rss = {1: 1000, 10: 5, 11: 7, 12: 11, 13: 13, 20: 17, 21: 19}
    assert tree_rss(parents, rss, 10) == 5 + 7 + 11 + 13
    assert tree_rss(parents, rss, 20) == 17 + 19
    assert tree_rss(parents, rss, 99) == 0  # already ended


def test_parse_stat_reads_parent_and_resident_pages_past_a_name_with_spaces_and_parentheses() -> None:
    line = "4242 (odd (name) x) S 17 4242 4242 0 -1 4194560 1 0 0 0 3 1 0 0 20 0 5 0 99 123456 789 18446744073709551615"
    assert parse_stat(line) == (17, 789)


def test_parse_stat_of_this_process_matches_os() -> None:
    parent, pages = parse_stat(Path(f"/proc/{os.getpid()}/stat").read_text())
    assert parent == os.getppid() and pages > 0


CHILD_HOLDING_MEMORY = """
import subprocess, sys, time
block = bytearray(60 * 2**20)
for i in range(0, len(block), 4096): block[i] = 1
child = subprocess.Popen([sys.executable, "-c", "b = bytearray(40 * 2**20)\\nfor i in range(0, len(b), 4096): b[i] = 1\\nimport time; time.sleep(0.6)"])
child.wait()
"""


def test_run_measured_counts_the_memory_of_worker_processes_too(tmp_path: Path) -> None:
    result = run_measured([sys.executable, "-c", CHILD_HOLDING_MEMORY], "demo", tmp_path, os.environ, tmp_path / "log", 60)
    assert isinstance(result, Timing)
    assert result.peak_mib >= 100  # 60 MiB in the parent plus 40 MiB in its child, at the same time
    assert result.at_peak.count("MiB") >= 1 and "python" in result.at_peak
    assert result.wall > 0.5


def test_a_failing_run_is_reported_with_its_last_lines(tmp_path: Path) -> None:
    result = run_measured([sys.executable, "-c", "print('before'); raise SystemExit('it broke')"], "demo", tmp_path,
                          os.environ, tmp_path / "log", 60)
    assert isinstance(result, Failure)
    assert "exit 1" in result.reason and "it broke" in result.reason and str(result).startswith("demo failed")


def test_a_run_past_its_timeout_is_killed_with_its_children(tmp_path: Path) -> None:
    script = "import subprocess, sys, time\np = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n" \
             "open(sys.argv[1], 'w').write(str(p.pid)); time.sleep(60)"
    pid_file = tmp_path / "child.pid"
    result = run_measured([sys.executable, "-c", script, str(pid_file)], "slow", tmp_path, os.environ, tmp_path / "log", 2)
    assert isinstance(result, Failure) and "timed out after 2 s" in result.reason
    child = int(pid_file.read_text())
    state = Path(f"/proc/{child}/stat")
    deadline = time.monotonic() + 10  # a signal is delivered at once, but a loaded machine takes a moment to end the process
    while state.exists() and ") Z " not in state.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not state.exists() or ") Z " in state.read_text()  # gone, or dead and not yet reaped


def test_composition_names_what_made_the_peak_largest_first() -> None:
    names = {1: "python3", 2: "node", 3: "python3", 4: "other"}
    rss = {1: 300 * 2**20, 2: 50 * 2**20, 3: 100 * 2**20}
    assert composition(names, rss, [1, 2, 3]) == "python3 ×2 400 MiB + node 50 MiB"


def test_parse_pss_reads_the_proportional_set_size_in_bytes() -> None:
    rollup = "55d0-7ffe ---p 00000000 00:00 0 [rollup]\nRss:  2048 kB\nPss:  1536 kB\nPss_Anon: 1000 kB\n"
    assert parse_pss(rollup) == 1536 * 1024


def test_parse_pss_of_this_process_is_at_most_its_rss() -> None:
    pss = parse_pss(Path(f"/proc/{os.getpid()}/smaps_rollup").read_text())
    _, pages = parse_stat(Path(f"/proc/{os.getpid()}/stat").read_text())
    assert 0 < pss <= pages * os.sysconf("SC_PAGE_SIZE")
