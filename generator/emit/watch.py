"""Serve's other half: watch ``content/`` and regenerate the docs tree after each burst of edits.

The served site (``emit/engine/live.py``) is updated from the docs tree; this module keeps
that tree in step with the YAML. watchfiles groups a burst of saves into one set of changes
(``SETTLE_MS``, ``GROUP_MS``), so a burst regenerates once. A regeneration can leave work for
later (``rest``: the pages that show an edit, after the page under edit): that runs in a thread
of its own once the regeneration is done, and the next burst stops it first (it stops between
two steps of its own and leaves the rest to the next regeneration). The watcher runs in its own
thread and ends through an event: ``with ContentWatcher(...):`` (or ``start()`` and ``stop()``)
leaves nothing running once ``layermap serve`` ends, by Ctrl+C or by an error.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from watchfiles import Change, watch

from generator.diagnostics import ContentError, Diagnostic
from generator.errors import LayermapError
from generator.terminal import say, shown

T = TypeVar("T")
SETTLE_MS = 150  # editors save in bursts (write, rename, touch): a burst ends after this long without a change
GROUP_MS = 1_600  # ... or at the latest this long after its first change
WAKE_MS = 250  # the idle watcher wakes this often; its first wake says it is watching
READY_SECONDS = 30.0  # how long start() waits for the watcher to be in place
STOP_SECONDS = 120.0  # stop() lets a regeneration under way finish

Regenerate = Callable[[], list[Diagnostic]]  # writes the docs tree, returns the warnings; raises on bad content
OnFailure = Callable[[Exception], None]  # told why a regeneration failed (serve shows it in the page)
Rest = Callable[[Callable[[], bool]], None]  # what a regeneration left, until the callable says stop
REST_AFTER_SECONDS = 0.3  # the open page reloads before the rest of the work starts


def ignore_failure(_: Exception) -> None:
    pass


def say_on_stderr(message: str) -> None:
    say(message)


def is_content_file(path: Path, content_dir: Path) -> bool:
    """A file the loader reads (as ``content.loading.topic_paths`` does) or reports as not read
    (``gpu.yml``): YAML below ``content/`` with no hidden part, so editors' lock and backup files
    (``.#gpu.yaml``, ``gpu.yaml~``) are not."""
    try:
        parts = path.relative_to(content_dir).parts
    except ValueError:
        return False
    return path.suffix.lower() in (".yaml", ".yml") and not any(part.startswith(".") for part in parts)


class ContentWatcher:
    """Regenerates the docs tree after each burst of changes to content files, until stopped."""

    def __init__(self, content_dir: Path, regenerate: Regenerate, say: Callable[[str], None] = say_on_stderr,
                 on_failure: OnFailure = ignore_failure, rest: Rest | None = None) -> None:
        self.content_dir = content_dir.resolve()
        self._regenerate, self._rest = regenerate, rest
        self._on_failure = on_failure
        self._say = say
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._failure: Exception | None = None
        self._thread = threading.Thread(target=self._run, name="layermap-watch")
        self._resting: tuple[threading.Thread, threading.Event] | None = None

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> ContentWatcher:
        """Start watching; return once changes from now on are seen."""
        self._thread.start()
        try:
            self._ready.wait(READY_SECONDS)
        except BaseException:  # Ctrl+C while starting: leave nothing running
            self.stop()
            raise
        if self._failure is not None:
            self.stop()
            raise LayermapError(f"cannot watch {self.content_dir}: {self._failure}",
                                "check that the content folder exists and is readable")
        return self

    def stop(self) -> None:
        """Stop watching and wait for the threads to end (after a regeneration under way)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS)
        self._stop_rest()

    def __enter__(self) -> ContentWatcher:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()

    def _is_content(self, _: Change, path: str) -> bool:
        return is_content_file(Path(path), self.content_dir)

    def _run(self) -> None:
        try:
            for changes in watch(self.content_dir, watch_filter=self._is_content, debounce=GROUP_MS, step=SETTLE_MS,
                                 stop_event=self._stop, rust_timeout=WAKE_MS, yield_on_timeout=True):
                self._ready.set()
                if changes:
                    self._regenerate_after(path for _, path in changes)
        except Exception as error:  # noqa: BLE001 - told to start() or the editor, never a traceback
            self._failure = error
            if self._ready.is_set():
                self._say(f"layermap: stopped watching {self.content_dir}: {error}")
        finally:
            self._ready.set()

    def _regenerate_after(self, paths: Iterable[str]) -> None:
        self._stop_rest()  # this regeneration takes over what the last one left
        warnings = self._attempt(self._regenerate)
        if warnings is None:
            return
        for warning in warnings:
            self._say(warning.format())
        self._say(f"layermap: regenerated after a change to {', '.join(shown(path) for path in sorted(set(paths)))}")
        if self._rest is not None and not self._stop.is_set():
            stop = threading.Event()
            thread = threading.Thread(target=self._run_rest, args=(stop,), name="layermap-rest")
            self._resting = thread, stop
            thread.start()

    def _run_rest(self, stop: threading.Event) -> None:
        if not stop.wait(REST_AFTER_SECONDS):
            self._attempt(lambda: self._rest(stop.is_set))

    def _stop_rest(self) -> None:
        """Stop the rest of the last regeneration between two of its steps, and wait for it."""
        if self._resting is not None:
            thread, stop = self._resting
            stop.set()
            thread.join(STOP_SECONDS)
            self._resting = None

    def _attempt(self, work: Callable[[], T]) -> T | None:
        """``work``'s result; None when it failed (the editor is told why)."""
        try:
            return work()
        except (ContentError, LayermapError) as error:
            self._say(f"layermap: not updated, fix these first:\n{error}")
            self._tell_failure(error)
        except Exception as error:  # noqa: BLE001 - the editor gets a message and the watch goes on
            self._say(f"layermap: not updated: internal error: {type(error).__name__}: {shown(error)}\n"
                      "    this is a bug in layermap, not in your content; rerun `layermap build` "
                      "with LAYERMAP_DEBUG=1 for the details and report them.")
            self._tell_failure(error)
        return None

    def _tell_failure(self, error: Exception) -> None:
        try:
            self._on_failure(error)
        except OSError as problem:  # the terminal has the report already; the watch goes on
            self._say(f"layermap: could not show the problems in the page: {problem}")
