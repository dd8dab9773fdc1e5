"""The content watcher behind `layermap serve`: real files, real watchfiles, one regeneration per
burst of saves, editors' side files ignored, bad content reported, and a stop that leaves nothing."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator.diagnostics import Diagnostic
from generator.emit.serve_status import STATUS_FILE, write_failure
from generator.emit.watch import ContentWatcher, is_content_file
from generator.errors import LayermapError
from generator.pipeline import generate
from generator.project import Project
from tests.conftest import ROOT

PATIENCE = 30.0  # seconds: generous, for a loaded machine; the tests poll and end as soon as they can


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"waited {PATIENCE:.0f} s for {what}"
        time.sleep(0.05)


class Recorder:
    """A regeneration that only counts, and the messages the watcher says."""

    def __init__(self) -> None:
        self.regenerations = 0
        self.messages: list[str] = []

    def regenerate(self) -> list[Diagnostic]:
        self.regenerations += 1
        return []

    def watcher(self, content: Path) -> ContentWatcher:
        return ContentWatcher(content, self.regenerate, self.messages.append)


def regenerated(path: Path) -> str:
    return f"layermap: regenerated after a change to {path.resolve()}"


def test_a_burst_of_saves_regenerates_once(mini: MiniProject) -> None:
    recorder = Recorder()
    chips, boards = mini.content / "layer-2" / "chips.yaml", mini.content / "layer-2" / "boards.yaml"
    with recorder.watcher(mini.content):
        for n in range(3):  # an editor's burst: each save well inside the settle time
            chips.write_text(chips.read_text(encoding="utf-8") + f"\n# edit {n}\n", encoding="utf-8")
        wait_until(lambda: recorder.regenerations == 1, "the burst's regeneration")
        boards.write_text(boards.read_text(encoding="utf-8") + "\n# later\n", encoding="utf-8")
        wait_until(lambda: recorder.regenerations == 2, "the later save's regeneration")
    # changes are handled in order, so a second regeneration for the burst would come before this one
    assert recorder.messages == [regenerated(chips), regenerated(boards)]


def test_reads_and_side_files_do_not_regenerate(mini: MiniProject) -> None:
    recorder = Recorder()
    boards = mini.content / "layer-2" / "boards.yaml"
    with recorder.watcher(mini.content):
        (mini.content / "layer-2" / "chips.yaml").read_text(encoding="utf-8")  # reading is no change
        (mini.content / "notes.txt").write_text("draft\n", encoding="utf-8")
        (mini.content / "layer-2" / ".#chips.yaml").write_text("lock\n", encoding="utf-8")  # Emacs' lock file
        (mini.content / "layer-2" / "chips.yaml~").write_text("backup\n", encoding="utf-8")
        (mini.content / ".drafts").mkdir()
        (mini.content / ".drafts" / "gpu.yaml").write_text("id: gpu\n", encoding="utf-8")
        boards.write_text(boards.read_text(encoding="utf-8") + "\n# edit\n", encoding="utf-8")
        wait_until(lambda: recorder.regenerations >= 1, "the topic's regeneration")
    assert recorder.messages == [regenerated(boards)]


def test_a_bad_save_is_reported_and_its_fix_regenerates(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    project = Project(mini.root)
    generate(project)
    chips = mini.content / "layer-2" / "chips.yaml"
    good = chips.read_text(encoding="utf-8")
    said: list[str] = []

    def stderr_says(text: str) -> Callable[[], bool]:
        return lambda: said.append(capsys.readouterr().err) or text in "".join(said)

    with ContentWatcher(mini.content, lambda: generate(project)[1]):  # printing on stderr, as serve does
        chips.write_text("id: chips\ntitle: [\n", encoding="utf-8")
        wait_until(stderr_says("layermap: not updated, fix these first:"), "the report of the bad save")
        assert "content/layer-2/chips.yaml:3:1: error: YAML syntax" in "".join(said)
        chips.write_text(good.replace("title: Chips", "title: Chips, mended"), encoding="utf-8")
        wait_until(stderr_says(regenerated(chips)), "the regeneration after the fix")
    assert "Traceback" not in "".join(said)
    pages = (project.work_dir / "docs").rglob("*.md")
    assert any("Chips, mended" in page.read_text(encoding="utf-8") for page in pages)


def test_a_bad_save_writes_its_problems_for_the_page_and_its_fix_clears_them(mini: MiniProject) -> None:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    project = Project(mini.root)
    config, _ = generate(project, serving=True)
    docs = config.parent / "docs"
    status = docs / STATUS_FILE
    chips = mini.content / "layer-2" / "chips.yaml"
    good = chips.read_text(encoding="utf-8")
    pages_before = {p: p.read_text(encoding="utf-8") for p in docs.rglob("*.md")}

    def status_is(ok: bool) -> Callable[[], bool]:
        return lambda: json.loads(status.read_text(encoding="utf-8"))["ok"] is ok

    with ContentWatcher(mini.content, lambda: generate(project, serving=True)[1], Recorder().messages.append,
                        lambda error: write_failure(docs, error)):
        chips.write_text("id: chips\ntitle: [\n", encoding="utf-8")
        wait_until(status_is(False), "the bad save's status")
        [problem] = json.loads(status.read_text(encoding="utf-8"))["problems"]
        assert problem["where"] == "content/layer-2/chips.yaml:3:1"
        assert "YAML syntax" in problem["message"] and problem["fix"]
        assert {p: p.read_text(encoding="utf-8") for p in docs.rglob("*.md")} == pages_before  # the old pages stay
        chips.write_text(good, encoding="utf-8")
        wait_until(status_is(True), "the fixed save's status")


def test_a_failure_the_page_cannot_be_told_is_said_and_the_watch_goes_on(mini: MiniProject) -> None:
    said: list[str] = []

    def fail() -> list[Diagnostic]:
        raise LayermapError("engine failed", "reinstall")

    def cannot_write(_: Exception) -> None:
        raise PermissionError("read-only docs")

    chips = mini.content / "layer-2" / "chips.yaml"
    with ContentWatcher(mini.content, fail, said.append, cannot_write) as watcher:
        chips.write_text(chips.read_text(encoding="utf-8") + "\n# edit\n", encoding="utf-8")
        wait_until(lambda: any("could not show the problems" in s for s in said), "the message")
        assert watcher.running


def test_stop_returns_promptly_and_leaves_no_thread(mini: MiniProject) -> None:
    recorder = Recorder()
    watcher = recorder.watcher(mini.content).start()
    assert watcher.running
    started = time.monotonic()
    watcher.stop()
    assert time.monotonic() - started < 5.0  # the watch loop looks at its stop event every settle step
    assert not watcher.running
    (mini.content / "layer-2" / "chips.yaml").write_text("id: chips\n", encoding="utf-8")
    time.sleep(1.0)  # long enough for a watcher still running to have seen the save
    assert recorder.regenerations == 0


def test_leaving_the_block_by_an_error_stops_the_watcher(mini: MiniProject) -> None:
    watcher = Recorder().watcher(mini.content)
    with pytest.raises(KeyboardInterrupt), watcher:
        assert watcher.running
        raise KeyboardInterrupt
    assert not watcher.running


def test_a_missing_content_folder_is_a_message_and_no_thread(tmp_path: Path) -> None:
    watcher = Recorder().watcher(tmp_path / "content")
    with pytest.raises(LayermapError, match="cannot watch"):
        watcher.start()
    assert not watcher.running


@pytest.mark.parametrize(("name", "read"), [
    ("layer-2/chips.yaml", True), ("map.yaml", True), ("sources.yaml", True),
    ("layer-2/chips.yml", True), ("layer-2/chips.YAML", True),  # not read, and reported: a save says so
    ("notes.txt", False), ("layer-2/.#chips.yaml", False),
    ("layer-2/chips.yaml~", False), (".drafts/gpu.yaml", False), ("layer-2/.chips.yaml.swp", False),
])
def test_content_files_are_the_yaml_the_loader_reads_or_reports(tmp_path: Path, name: str, read: bool) -> None:
    assert is_content_file(tmp_path / "content" / name, tmp_path / "content") is read


def test_a_path_outside_content_is_not_a_content_file(tmp_path: Path) -> None:
    assert not is_content_file(tmp_path / "elsewhere.yaml", tmp_path / "content")
