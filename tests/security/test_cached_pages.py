"""Caches are inputs, not trusted output (issue 33, F1).

A page the engine's cache gives back skips the conversion, and with it the sanitiser. Its
entries are named by digests keyed with this machine's key, so a cache committed to a project
(a fresh clone, another machine) is never found; and a built page that carries an inline
script layermap did not write fails the build, whatever path it came by.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.emit import build_record, page_keys
from tests.conftest import ROOT
from tests.generator.mini_project import MINI

PAYLOAD = "<script>window.pwned=1</script>"


def _project(root: Path) -> Path:
    shutil.copytree(MINI, root / "content")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


def _build(root: Path, machine: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    """`layermap build` as run on ``machine`` (its own cache key, under XDG_CACHE_HOME)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(machine))
    monkeypatch.setenv("LAYERMAP_SITE_URL", "")
    page_keys.machine_key.cache_clear()
    return main(["--project", str(root), "build", *extra])


def _poison(work: Path) -> int:
    """Put a script into every page the cache and the prerendered packs hold; return how many."""
    poisoned = 0
    for stored in [*(work / "cache" / "pages").glob("*.json"), *(work / "prerendered").glob("*.pack")]:
        text = stored.read_text(encoding="utf-8")
        stored.write_text(text.replace("<p>", f"<p>{PAYLOAD}"), encoding="utf-8")
        poisoned += text.count("<p>")
    return poisoned


def _pages_with_payload(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if "window.pwned" in p.read_text(encoding="utf-8"))


@pytest.fixture
def built_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = _project(tmp_path / "project")
    assert _build(root, tmp_path / "machine-a", monkeypatch) == 0
    assert list((root / ".layermap" / "cache" / "pages").glob("*.json"))
    return root


def test_a_committed_cache_is_never_read_on_another_machine(built_once: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert _poison(built_once / ".layermap") > 10
    clone = tmp_path / "clone"
    shutil.copytree(built_once, clone, ignore=shutil.ignore_patterns("site"))  # the cache came with it
    assert _build(clone, tmp_path / "machine-b", monkeypatch) == 0
    assert _pages_with_payload(clone / "site") == []
    assert (clone / "site" / "index.html").is_file()


def test_an_altered_cache_on_this_machine_is_sanitised_again(
        built_once: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept conversion carries the digest of what the sanitiser wrote; one altered since no longer
    matches it, so layermap's finishing step sanitises it again (emit/finishing.py)."""
    assert _poison(built_once / ".layermap") > 10
    build_record.forget(built_once / ".layermap")  # so the engine runs (and reads its cache) again
    assert _build(built_once, tmp_path / "machine-a", monkeypatch) == 0
    pages = [page.read_text(encoding="utf-8") for page in (built_once / "site").rglob("*.html")]
    assert sum("window.pwned=1" in page for page in pages) > 1  # the altered conversions were used ...
    assert not any("<script>window.pwned" in page for page in pages)  # ... with the script as inert text
