"""One layermap at a time writes a project's .layermap/ (issue 32: a build and a serve at once
deleted each other's packs): the second waits for the first, and says so."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from generator.cli import main
from generator.work_lock import LOCK_FILE, work_folder_lock
from tests.conftest import ROOT
from tests.generator.mini_project import MINI

HOLD = """
import fcntl, sys
handle = open(sys.argv[1], "a")
fcntl.flock(handle, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def _holder(folder: Path) -> subprocess.Popen:
    """Another process holding the folder's lock until its stdin is closed."""
    folder.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder / LOCK_FILE)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_the_second_waits_says_so_and_goes_on_when_the_first_lets_go(tmp_path: Path) -> None:
    holder = _holder(tmp_path)
    said: list[str] = []
    inside = threading.Event()

    def second() -> None:
        with work_folder_lock(tmp_path, said.append):
            inside.set()

    waiting = threading.Thread(target=second)
    waiting.start()
    assert not inside.wait(0.5)  # held elsewhere: not in yet
    holder.stdin.close()
    holder.wait()
    waiting.join(10)
    assert inside.is_set()
    assert said == [f"waiting: another layermap (a build or a serve) is writing {tmp_path.name}/ of this project"]


def test_a_free_folder_is_taken_at_once_and_silently(tmp_path: Path) -> None:
    said: list[str] = []
    with work_folder_lock(tmp_path / "work", said.append):
        with pytest.raises(BlockingIOError):  # held: another taker could not have it meanwhile
            import fcntl

            with (tmp_path / "work" / LOCK_FILE).open("a") as other:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    assert said == []


def test_a_build_waits_for_a_serve_of_the_same_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(MINI, tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    holder = _holder(tmp_path / ".layermap")  # as `layermap serve` holds it while it rebuilds
    result: list[int] = []
    building = threading.Thread(target=lambda: result.append(main(["--project", str(tmp_path), "build"])))
    building.start()
    building.join(1.0)
    assert building.is_alive() and not (tmp_path / "site").exists()
    holder.stdin.close()
    holder.wait()
    building.join(120)
    assert result == [0] and (tmp_path / "site" / "index.html").is_file()
    assert "waiting: another layermap (a build or a serve) is writing .layermap/ of this project" in capsys.readouterr().err
