"""scripts/same_site.py: the check that a move changed nothing a reader can see."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("same_site", ROOT / "scripts" / "same_site.py")
same_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(same_site)


def site(folder: Path, files: dict[str, bytes], zip_time: tuple = (2026, 1, 1, 0, 0, 0)) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    with zipfile.ZipFile(folder / "copy.zip", "w") as archive:
        archive.writestr(zipfile.ZipInfo("index.html", zip_time), b"<p>same</p>")
    return folder


def test_identical_sites_have_no_differences_even_when_zip_times_differ(tmp_path: Path) -> None:
    before = site(tmp_path / "a", {"index.html": b"x", "assets/a.js": b"y"})
    after = site(tmp_path / "b", {"index.html": b"x", "assets/a.js": b"y"}, zip_time=(2027, 2, 2, 0, 0, 0))
    assert same_site.differences(before, after) == []


def test_a_changed_missing_or_added_file_is_named(tmp_path: Path) -> None:
    before = site(tmp_path / "a", {"index.html": b"x", "old.html": b"o"})
    after = site(tmp_path / "b", {"index.html": b"X", "new.html": b"n"})
    assert same_site.differences(before, after) == ["only before: old.html", "only after: new.html", "changed: index.html"]


def test_a_changed_entry_inside_the_zip_is_named(tmp_path: Path) -> None:
    before = site(tmp_path / "a", {})
    after = site(tmp_path / "b", {})
    with zipfile.ZipFile(after / "copy.zip", "a") as archive:
        archive.writestr("extra.html", b"new")
    assert same_site.differences(before, after) == ["changed in copy.zip: extra.html"]
