"""`layermap serve` after a save: the open page is told to reload once the page under edit is
written (and before any page that only shows the edit), then again once the rest is written."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mini_project import MiniProject

from generator import incremental
from generator.emit.engine.live import LiveSite
from generator.incremental import Regenerator
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = "127.0.0.1:8000"


class Server:
    """MkDocs' live-reload server as serve uses it: each reload noted with the pages written by then."""

    def __init__(self, written: list[str]) -> None:
        self.written, self.reloads = written, []

    def site_changed(self) -> None:
        self.reloads.append(list(self.written))


def serving(mini: MiniProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Callable], Server]:
    """Serve's edit loop over the mini project, its watcher replaced by the two steps it is given."""
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    project = Project(mini.root)
    regenerator = Regenerator(project)
    written: list[str] = []
    live = LiveSite(regenerator.regenerate().config, tmp_path / "site", f"http://{ADDRESS}/",
                    finish=lambda page, _url: written.append(page))
    live.build()
    written.clear()
    steps: dict[str, Callable] = {}

    class Watcher:
        def __init__(self, _content: Path, regenerate: Callable, _say: Any, _on_failure: Any, rest: Callable) -> None:
            steps.update(regenerate=regenerate, rest=rest)

        def __enter__(self) -> Watcher:
            return self

        def __exit__(self, *_: object) -> None:
            pass

    monkeypatch.setattr(incremental, "ContentWatcher", Watcher)
    monkeypatch.setattr(incremental, "serve_forever", lambda _server: None)
    server = Server(written)
    incremental._serve_edits(project, regenerator, live, server, ADDRESS, lambda _: None)
    return steps, server


@pytest.mark.parametrize(("name", "old", "new", "page"), [
    ("layer-2/chips.yaml", "title: Chips", "title: Silicon chips", "layer-2/chips/index.html"),
    ("layer-2/boards.yaml", "Where chips are mounted.", "Where chips sit.", "layer-2/boards/index.html"),
], ids=["a title", "a summary"])
def test_the_open_page_reloads_once_the_page_under_edit_is_written_and_again_after_the_rest(
        name: str, old: str, new: str, page: str, mini: MiniProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps, server = serving(mini, tmp_path, monkeypatch)
    path = mini.content / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    steps["regenerate"]()
    assert server.reloads == [[page]]
    steps["rest"](lambda: False)
    assert len(server.reloads) == 2
    assert server.reloads[1][0] == page and "layer-2/index.html" in server.reloads[1][1:]  # the layer lists it


def test_a_rest_with_nothing_to_write_does_not_reload_again(mini: MiniProject, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    steps, server = serving(mini, tmp_path, monkeypatch)
    chips = mini.content / "layer-2" / "chips.yaml"
    chips.write_text(chips.read_text(encoding="utf-8").replace("very fast.", "very quick.", 1), encoding="utf-8")
    steps["regenerate"]()
    steps["rest"](lambda: False)
    assert server.reloads == [["layer-2/chips/index.html"]]
