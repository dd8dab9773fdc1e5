"""Forked processes end with the process that started them (issue 33: a build killed by a timeout
left its forked worker at 100 % CPU)."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A parent whose forked worker spins for ever (a page that never finishes rendering).
SPINNING = textwrap.dedent("""
    import os, sys
    from concurrent.futures import ProcessPoolExecutor
    from generator.processes import Stopped, ending_with_signals, fork_context

    def spin():
        while True:
            pass

    try:
        with ending_with_signals():
            with ProcessPoolExecutor(1, mp_context=fork_context()) as pool:
                print(pool.submit(os.getpid).result(), flush=True)
                pool.submit(spin).result()
    except Stopped as stopped:
        sys.exit(stopped.exit_code)
""")


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead and only waiting to be reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if running(pid)]


def spinning_parent() -> tuple[subprocess.Popen, int]:
    parent = subprocess.Popen([sys.executable, "-c", SPINNING], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    time.sleep(0.3)  # the worker is spinning now
    assert running(worker)
    return parent, worker


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


@pytest.mark.parametrize(("number", "exit_code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, None)])
def test_a_signalled_parent_kills_its_busy_worker_and_exits(number: int, exit_code: int | None) -> None:
    parent, worker = spinning_parent()
    parent.send_signal(number)
    code = parent.wait(timeout=30)  # the pool's exit no longer waits for the busy worker
    assert code == exit_code if exit_code is not None else code != 0
    assert gone_within([worker], 5) == []


def test_a_worker_whose_parent_was_killed_outright_ends_by_itself() -> None:
    """SIGKILL cannot be caught: the worker sees that its parent is gone and exits."""
    parent, worker = spinning_parent()
    parent.kill()
    parent.wait(timeout=30)
    assert gone_within([worker], 5) == []


def forked_children(pid: int, command: bytes) -> list[int]:
    """Running processes forked from ``pid`` (or left by it): same command line."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != pid:
            try:
                if (entry / "cmdline").read_bytes() == command and running(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_build_stopped_with_sigterm_midway_leaves_no_process(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("scale_content", ROOT / "benchmarks" / "scale_content.py")
    scale_content = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scale_content)
    scale_content.write_project(tmp_path, topics=60, seed=3)  # enough pages that the build forks
    if not (tmp_path / "node_modules").exists():
        (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")
    build = subprocess.Popen([sys.executable, "-m", "generator.cli", "--project", str(tmp_path), "build"], cwd=ROOT,
                             env={**os.environ, "LAYERMAP_SITE_URL": "http://127.0.0.1:9/"},
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline, forked = time.monotonic() + 240, []
    command = b""
    while b"generator.cli" not in command and time.monotonic() < deadline:  # read before exec, it is pytest's own
        command = Path(f"/proc/{build.pid}/cmdline").read_bytes()
        time.sleep(0.01)
    while not forked and build.poll() is None and time.monotonic() < deadline:
        forked = forked_children(build.pid, command)
        time.sleep(0.05)
    assert forked, f"the build never forked a process (exit {build.poll()}): nothing was tested"
    build.send_signal(signal.SIGTERM)
    output, _ = build.communicate(timeout=60)
    assert build.returncode == 143, output
    assert "stopped by SIGTERM" in output and "Traceback" not in output
    assert gone_within(forked, 5) == []
    assert gone_within(forked_children(build.pid, command), 5) == []
    assert not (tmp_path / "site").exists()  # nothing half-built in its place
