"""`layermap serve` regenerates once per burst of content edits, and never because a file was read."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from generator import cli
from generator.project import Project
from tests.conftest import ROOT


def test_edits_regenerate_once_and_reads_never(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini" / "content", tmp_path / "content")
    calls: list[Project] = []
    monkeypatch.setattr("generator.pipeline.generate", lambda project: (calls.append(project), (None, []))[1])
    cli._watch_content(Project(tmp_path))
    topic = tmp_path / "content" / "layer-2" / "chips.yaml"
    time.sleep(0.5)
    topic.read_text()  # reading (open/close events) is not a change
    time.sleep(1.0)
    assert calls == []
    for n in range(3):  # a burst of saves
        topic.write_text(topic.read_text() + f"\n# edit {n}\n")
    deadline = time.monotonic() + 5
    while not calls and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)
    assert len(calls) == 1
