"""Forked processes: how layermap shares a build's work between cores, where it can, and how they
end with the process that started them.

A forked process works for its parent only, so it must not outlive it. A build stopped by a
signal (a CI timeout's SIGTERM, a closed terminal's SIGHUP, Ctrl-C's SIGINT) kills the processes
it forked before it exits (:func:`ending_with_signals`): else the pool's exit would wait for a busy
one, and a process killed outright leaves them running at full CPU. And a forked process watches
its parent (:class:`_WatchedProcess`): once the parent is gone (killed with SIGKILL, which nothing
can catch), it exits at its next check, within :data:`WATCH_SECONDS`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.context import BaseContext, ForkContext, ForkProcess

WATCH_SECONDS = 0.5  # how often a forked process checks that its parent still runs
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))


def _watch_parent(parent: int) -> None:
    """End this process as soon as ``parent`` is no longer its parent (it died; the process was adopted)."""
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(WATCH_SECONDS):
            if os.getppid() != parent:
                os._exit(1)  # nothing to clean up: the work was for the parent

    threading.Thread(target=watch, name="layermap-parent-watch", daemon=True).start()


class _WatchedProcess(ForkProcess):
    """A forked process that ends when its parent does, and takes the default action on the
    signals its parent handles (a worker has nothing to stop but itself)."""

    def run(self) -> None:
        for number in SIGNALS:
            signal.signal(number, signal.SIG_DFL if number != signal.SIGINT else signal.default_int_handler)
        _watch_parent(os.getppid())
        super().run()


class _WatchedForkContext(ForkContext):
    Process = _WatchedProcess


def fork_context() -> BaseContext | None:
    """The ``fork`` start method (a process starts with what this one has read), its processes
    watching their parent; or None where there is none (Windows; macOS defaults to spawn): the
    caller then does the work itself."""
    return _WatchedForkContext() if "fork" in multiprocessing.get_all_start_methods() else None


def kill_forked() -> list[int]:
    """Kill every process this one forked that still runs; their ids."""
    children = multiprocessing.active_children()
    for child in children:
        child.kill()
    for child in children:
        child.join(timeout=5)
    return [child.pid for child in children if child.pid is not None]


class Stopped(BaseException):  # noqa: N818 - like KeyboardInterrupt: not an error of the program
    """A signal asked this process to stop; its forked processes are gone."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number

    @property
    def exit_code(self) -> int:
        return 128 + self.number


@contextmanager
def ending_with_signals() -> Iterator[None]:
    """While inside: SIGTERM, SIGHUP or SIGINT kill the processes this one forked and raise
    :class:`Stopped` (SIGINT: KeyboardInterrupt, as usual) where this process is. Only the main
    thread can take signals; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number: int, _frame: object) -> None:
        kill_forked()
        if number == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(number)

    before = {number: signal.signal(number, stop) for number in SIGNALS}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
