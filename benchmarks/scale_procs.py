"""Running the measured commands: wall time, CPU time and the peak memory of a whole process tree.

A build may start worker processes, so its memory is the SUM of the resident set sizes of the
process and all its descendants, sampled from ``/proc`` every ``SAMPLE_SECONDS``; the peak of that
sum is reported. Every process started here runs in its own session (process group) and is killed
with its group when it times out, when the benchmark is interrupted, or when Python exits.
"""

from __future__ import annotations

import atexit
import os
import resource
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

SAMPLE_SECONDS = 0.05
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
_LIVE: set[subprocess.Popen] = set()


@dataclass(frozen=True)
class Timing:
    wall: float      # seconds on the clock: what a user waits, but inflated by anything else running
    cpu: float       # user + system seconds of the process and its waited-for children
    peak_mib: float  # peak of the summed PSS of the process tree, MiB (0 when never sampled)
    at_peak: str = ""  # what made that peak: "python3 400 MiB + node 60 MiB"


@dataclass(frozen=True)
class Failure:
    label: str
    reason: str      # "exit 1: <last lines>" or "timed out after 900 s"

    def __str__(self) -> str:
        return f"{self.label} failed ({self.reason})"


def tree_rss(parents: Mapping[int, int], rss: Mapping[int, int], root: int) -> int:
    """Sum of ``rss`` over ``root`` and every process whose parent chain reaches it."""
    return sum(rss.get(pid, 0) for pid in tree(parents, root))


def tree(parents: Mapping[int, int], root: int) -> list[int]:
    """``root`` and every process whose parent chain reaches it."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    todo, seen = [root], []
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.append(pid)
            todo.extend(children.get(pid, []))
    return seen


def composition(names: Mapping[int, str], rss: Mapping[int, int], pids: list[int]) -> str:
    """RSS by process name, largest first: "python3 400 MiB + node 60 MiB"."""
    by_name: dict[str, int] = {}
    for pid in pids:
        if pid in rss:
            by_name[names.get(pid, "?")] = by_name.get(names.get(pid, "?"), 0) + rss[pid]
    counts = {name: sum(names.get(p) == name for p in pids if p in rss) for name in by_name}
    return " + ".join(f"{name}{f' ×{counts[name]}' if counts[name] > 1 else ''} {size / 2**20:.0f} MiB"
                      for name, size in sorted(by_name.items(), key=lambda item: -item[1]))


def parse_stat(text: str) -> tuple[int, int]:
    """(parent pid, resident pages) from a ``/proc/PID/stat`` line (the name may hold spaces and parentheses)."""
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), int(fields[21])  # fields 4 and 24 of proc(5), counted after the name


def _snapshot() -> tuple[dict[int, int], dict[int, int], dict[int, str]]:
    parents, rss, names = {}, {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "stat").read_text()
            parent, pages = parse_stat(text)
        except (OSError, ValueError, IndexError):
            continue  # the process ended meanwhile
        pid = int(entry.name)
        parents[pid], rss[pid], names[pid] = parent, pages * PAGE_BYTES, text[text.find("(") + 1:text.rindex(")")]
    return parents, rss, names


def parse_pss(text: str) -> int:
    """Bytes of the ``Pss:`` line of a ``/proc/PID/smaps_rollup``."""
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    raise ValueError("no Pss line")


def _pss(pids: list[int], rss: Mapping[int, int]) -> dict[int, int]:
    """Each process's proportional set size: its private pages plus its share of pages it shares
    (a forked worker shares most of its parent's), so a tree's sum counts each page once.
    Falls back to RSS where the kernel does not say."""
    found = {}
    for pid in pids:
        try:
            found[pid] = parse_pss(Path(f"/proc/{pid}/smaps_rollup").read_text())
        except (OSError, ValueError):
            if pid in rss:
                found[pid] = rss[pid]
    return found


class PeakMemory:
    """Samples the summed memory (PSS) of a process tree in a thread until stopped; ``peak`` in bytes."""

    def __init__(self, root: int) -> None:
        self.root, self.peak, self.at_peak = root, 0, ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            parents, rss, names = _snapshot()
            pids = tree(parents, self.root)
            pss = _pss(pids, rss)
            total = sum(pss.values())
            if total > self.peak:
                self.peak, self.at_peak = total, composition(names, pss, pids)
            self._stop.wait(SAMPLE_SECONDS)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def start(command: list[str], cwd: Path, env: Mapping[str, str], output: Path | None = None) -> subprocess.Popen:
    """Start ``command`` in its own process group, remembered so that it is killed on exit."""
    sink = open(output, "w") if output else subprocess.DEVNULL  # noqa: SIM115 - closed by stop()
    process = subprocess.Popen(command, cwd=cwd, env=dict(env), stdout=sink, stderr=subprocess.STDOUT,
                               start_new_session=True, text=True)
    process.sink = sink  # type: ignore[attr-defined]
    _LIVE.add(process)
    return process


def stop(process: subprocess.Popen) -> None:
    """Kill the process and its whole group (workers, engine) and reap it."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if process.poll() is not None:
            break
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)  # leftovers of a group whose leader already ended
    except (ProcessLookupError, PermissionError):
        pass
    if process.poll() is None:
        process.wait()
    sink = getattr(process, "sink", None)
    if sink not in (None, subprocess.DEVNULL):
        sink.close()
    _LIVE.discard(process)


def stop_all() -> None:
    for process in list(_LIVE):
        stop(process)


atexit.register(stop_all)


def tail(path: Path, lines: int = 12) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return ""


def run_measured(command: list[str], label: str, cwd: Path, env: Mapping[str, str], log: Path,
                 timeout: float) -> Timing | Failure:
    """Run to the end (or the timeout), sampling its tree's memory; a failure is returned, not raised."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = start(command, cwd, env, log)
    memory = PeakMemory(process.pid)
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        code = None
    finally:
        peak = memory.stop()
        elapsed = time.perf_counter() - started
        stop(process)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code is None:
        return Failure(label, f"timed out after {timeout:.0f} s")
    if code != 0:
        return Failure(label, f"exit {code}:\n{tail(log)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(elapsed, cpu, peak / 2**20, memory.at_peak)
