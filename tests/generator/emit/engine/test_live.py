"""The served site, updated page by page after an edit, is byte for byte the site a full engine
build of the same tree makes; what it cannot update page by page it builds in full."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator.emit.engine.live import SEARCH_PLUGIN, LiveSite
from generator.errors import LayermapError
from generator.incremental import Regenerator
from generator.project import Project

ROOT = Path(__file__).resolve().parents[4]
ADDRESS = "http://127.0.0.1:8000/"


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture
def served(mini: MiniProject, tmp_path: Path) -> tuple[MiniProject, Regenerator, LiveSite]:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    regenerator = Regenerator(Project(mini.root), out_dir=tmp_path / "tree")
    first = regenerator.regenerate()
    live = LiveSite(first.config, tmp_path / "site", ADDRESS)
    live.build()
    return mini, regenerator, live


def edit(mini: MiniProject, name: str, old: str, new: str) -> None:
    path = mini.content / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def full_build(config: Path, site: Path) -> dict[str, bytes]:
    LiveSite(config, site, ADDRESS).build()
    return site_files(site)


def test_a_page_first_written_by_the_other_process_shows_an_edit(mini: MiniProject, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The serve's first build writes half the pages in a forked process, each read from the
    generator's conversion; updated after an edit, such a page shows the edit, not what that
    first build had read for it, from the generator's new conversion (the engine converts none)."""
    from mkdocs.structure.pages import Page

    from generator.emit.engine import page_writers

    monkeypatch.setattr(page_writers, "MIN_PAGES", 1)
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    regenerator = Regenerator(Project(mini.root), out_dir=tmp_path / "tree")
    live = LiveSite(regenerator.regenerate().config, tmp_path / "site", ADDRESS)
    live.build()
    written = {"layer-2/chips/index.html": ("layer-2/chips.yaml", "Chips do arithmetic"),
               "layer-1/power/index.html": ("layer-1/power.yaml", "Power comes from the wall")}
    # this process wrote every other page, the forked one the rest (chips, among these)
    converted: list[str] = []
    render = Page.render
    monkeypatch.setattr(Page, "render", lambda self, *a: (converted.append(self.file.src_uri), render(self, *a))[1])
    for page, (topic, prose) in written.items():
        edit(mini, topic, prose, f"Zebracorns aside, {prose.lower()}")
        assert live.update(regenerator.regenerate().changed) == "pages"
        assert b"Zebracorns aside" in (live.site_dir / page).read_bytes(), page
    assert not [src for src in converted if src in ("layer-2/chips.md", "layer-1/power.md")], converted


def test_a_prose_edit_updates_one_page_and_equals_a_full_build(served: tuple[MiniProject, Regenerator, LiveSite],
                                                               tmp_path: Path) -> None:
    mini, regenerator, live = served
    edit(mini, "layer-2/chips.yaml", "very fast.", "very fast, like a zebracorn.")
    done = regenerator.regenerate()
    assert live.update(done.changed) == "pages"
    assert live.full_builds == 1
    updated = site_files(live.site_dir)
    reference = full_build(done.config, tmp_path / "reference")
    assert updated.keys() == reference.keys()
    assert [name for name in updated if updated[name] != reference[name]] == []
    assert b"zebracorn" in updated["layer-2/chips/index.html"]
    index = json.loads(updated["search/search_index.json"])
    assert any("zebracorn" in entry["text"] and entry["location"].startswith("layer-2/chips/") for entry in index["docs"])


def test_search_entries_of_an_edited_page_replace_its_old_ones(served: tuple[MiniProject, Regenerator, LiveSite]) -> None:
    mini, regenerator, live = served
    before = json.loads((live.site_dir / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    edit(mini, "layer-2/chips.yaml", "very fast.", "very quick.")
    live.update(regenerator.regenerate().changed)
    after = json.loads((live.site_dir / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    assert len(after) == len(before)
    assert [e["location"] for e in after] == [e["location"] for e in before]
    assert any("arithmetic very fast" in e["text"] for e in before)
    assert not any("arithmetic very fast" in e["text"] for e in after)
    assert any("arithmetic very quick" in e["text"] for e in after)


def test_a_title_edit_rebuilds_the_whole_site(served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    mini, regenerator, live = served
    edit(mini, "layer-2/chips.yaml", "title: Chips", "title: Silicon chips")
    done = regenerator.regenerate()
    assert live.update(done.changed) == "full"
    assert live.full_builds == 2
    assert site_files(live.site_dir) == full_build(done.config, tmp_path / "reference")


def test_a_changed_asset_is_copied(served: tuple[MiniProject, Regenerator, LiveSite]) -> None:
    _, _, live = served
    status = Path(live.config.docs_dir) / "assets/layermap/serve-status.json"
    status.write_text('{"ok": false, "problems": []}\n', encoding="utf-8")
    assert live.update({"assets/layermap/serve-status.json"}) == "pages"
    assert (live.site_dir / "assets/layermap/serve-status.json").read_text(encoding="utf-8") == status.read_text(encoding="utf-8")


def test_an_engine_warning_on_an_updated_page_is_an_error(served: tuple[MiniProject, Regenerator, LiveSite]) -> None:
    _, _, live = served
    page = Path(live.config.docs_dir) / "layer-2/chips.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    with pytest.raises(LayermapError, match="no-such-page"):
        live.update({"layer-2/chips.md"})


def test_the_search_plugin_is_where_the_live_site_looks(served: tuple[MiniProject, Regenerator, LiveSite]) -> None:
    _, _, live = served
    search = live.config.plugins.get(SEARCH_PLUGIN)
    assert search is not None, "Material's search plugin moved: emit/live.py must follow it"
    assert isinstance(search.search_index.entries, list)


def test_after_a_failed_full_build_the_next_update_builds_in_full_again(
        served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    mini, regenerator, live = served
    page = Path(live.config.docs_dir) / "layer-2/chips.md"
    good = page.read_text(encoding="utf-8")
    page.write_text(good + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    with pytest.raises(LayermapError, match="no-such-page"):
        live.update({"mkdocs.yml"})  # a full build, which fails
    page.write_text(good, encoding="utf-8")
    assert live.update({"layer-2/chips.md"}) == "full"
    assert site_files(live.site_dir) == full_build(live.config_file, tmp_path / "reference")
