"""Files of the docs tree are replaced whole: a reader (MkDocs' watcher, the page's status poll)
sees the old text or the new one, never an empty or half-written file."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from generator.emit.files import write_bytes_atomically, write_text_atomically


def test_the_text_lands_in_place_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "status.json"
    write_text_atomically(target, '{"ok": true}\n')
    write_text_atomically(target, '{"ok": false}\n')
    assert target.read_text(encoding="utf-8") == '{"ok": false}\n'
    assert [p.name for p in target.parent.iterdir()] == ["status.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "status.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        write_bytes_atomically(target, None)  # type: ignore[arg-type] - fails while the temporary file is written
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["status.json"]


def test_a_reader_never_sees_a_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "status.json"
    texts = ["a" * 200_000, "b" * 100_000]
    write_text_atomically(target, texts[0])
    seen: set[str] = set()
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            seen.add(target.read_text(encoding="utf-8"))

    reader = threading.Thread(target=read)
    reader.start()
    for index in range(200):
        write_text_atomically(target, texts[index % 2])
    done.set()
    reader.join()
    assert seen <= set(texts)
