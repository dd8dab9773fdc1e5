"""What a regeneration leaves for later (`layermap serve`: the pages that show an edit, after the
page under edit) runs in a thread of its own once the regeneration is done; the next save stops
it before its own regeneration starts, a failure in it is reported like a regeneration's, and
stopping the watcher stops it too."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from mini_project import MiniProject

from generator.diagnostics import Diagnostic
from generator.emit.watch import ContentWatcher
from generator.errors import LayermapError
from tests.generator.emit.test_watch import wait_until


class Work:
    """A regeneration that notes itself, and a rest that notes when it starts and when it is told to stop."""

    def __init__(self, rest_fails: bool = False) -> None:
        self.events: list[str] = []
        self.failures: list[Exception] = []
        self.said: list[str] = []
        self.rest_fails = rest_fails

    def regenerate(self) -> list[Diagnostic]:
        self.events.append(f"regenerate {threading.current_thread().name}")
        return []

    def rest(self, stopping: Callable[[], bool]) -> None:
        self.events.append(f"rest {threading.current_thread().name}")
        if self.rest_fails:
            raise LayermapError("the site engine (MkDocs) warned: a broken link", "fix it")
        while not stopping():  # a long rest: it ends only when told
            threading.Event().wait(0.02)
        self.events.append("rest stopped")

    def watcher(self, content: Path) -> ContentWatcher:
        return ContentWatcher(content, self.regenerate, self.said.append, self.failures.append, self.rest)


def save(mini: MiniProject, note: str) -> None:
    chips = mini.content / "layer-2" / "chips.yaml"
    chips.write_text(chips.read_text(encoding="utf-8") + f"\n# {note}\n", encoding="utf-8")


def test_the_rest_runs_after_the_regeneration_and_the_next_save_stops_it_first(mini: MiniProject) -> None:
    work = Work()
    with work.watcher(mini.content):
        save(mini, "first")
        wait_until(lambda: work.events[-1:] == ["rest layermap-rest"], "the first save's rest")
        save(mini, "second")
        wait_until(lambda: len(work.events) == 5, "the second save's rest")
    assert work.events == ["regenerate layermap-watch", "rest layermap-rest", "rest stopped",
                           "regenerate layermap-watch", "rest layermap-rest",
                           "rest stopped"]  # the last: stopping the watcher stopped the rest too
    assert not any(thread.name == "layermap-rest" for thread in threading.enumerate())


def test_a_failed_rest_is_reported_as_a_regeneration_is_and_the_watch_goes_on(mini: MiniProject) -> None:
    work = Work(rest_fails=True)
    with work.watcher(mini.content) as watcher:
        save(mini, "edit")
        wait_until(lambda: len(work.failures) == 1, "the rest's failure")
        assert "a broken link" in str(work.failures[0])
        assert any(message.startswith("layermap: not updated, fix these first:") for message in work.said)
        assert watcher.running
        save(mini, "again")
        wait_until(lambda: len(work.failures) == 2, "the next save's rest")
    assert [event.split()[0] for event in work.events] == ["regenerate", "rest", "regenerate", "rest"]


def test_a_failed_regeneration_leaves_the_rest_for_a_good_one(mini: MiniProject) -> None:
    """After a bad save, nothing is written until a good one (the page shows the problems meanwhile)."""
    work = Work()
    outcomes = iter([LayermapError("bad content", "fix it"), None])

    def regenerate() -> list[Diagnostic]:
        outcome = next(outcomes)
        work.events.append("regenerate")
        if outcome is not None:
            raise outcome
        return []

    with ContentWatcher(mini.content, regenerate, work.said.append, work.failures.append, work.rest):
        save(mini, "bad")
        wait_until(lambda: work.failures, "the failure")
        threading.Event().wait(0.5)  # longer than the wait before a rest starts
        assert work.events == ["regenerate"]
        save(mini, "good")
        wait_until(lambda: work.events[-1:] == ["rest layermap-rest"], "the good save's rest")
