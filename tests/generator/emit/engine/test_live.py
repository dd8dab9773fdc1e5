"""The served site, updated page by page after an edit, is byte for byte the site a full engine
build of the same tree makes; what it cannot update page by page it builds in full."""

from __future__ import annotations

import json
import shutil
from contextlib import nullcontext
from pathlib import Path

import pytest
from mini_project import MiniProject

from generator.emit.engine.live import SEARCH_PLUGIN, LiveSite
from generator.errors import LayermapError
from generator.incremental import Regenerator, the_rest
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


def test_a_title_edit_makes_the_navigation_again_and_equals_a_full_build(
        served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    """A new title changes the engine config's navigation alone: the navigation is made again
    over the pages already read, and every page (and the theme's own: 404, sitemap) written with it."""
    mini, regenerator, live = served
    edit(mini, "layer-2/chips.yaml", "title: Chips", "title: Silicon chips")
    done = regenerator.regenerate()
    assert "mkdocs.yml" in done.changed
    assert live.update(done.changed) == "pages"
    assert live.full_builds == 1 and live.current
    updated = site_files(live.site_dir)
    reference = full_build(done.config, tmp_path / "reference")
    assert updated.keys() == reference.keys()
    assert [name for name in updated if updated[name] != reference[name]] == []
    assert b"Silicon chips" in updated["layer-1/power/index.html"]  # in the navigation of a page that does not list it


def test_a_changed_setting_beside_the_navigation_builds_in_full(served: tuple[MiniProject, Regenerator, LiveSite],
                                                                tmp_path: Path) -> None:
    _, _, live = served
    config = live.config_file
    config.write_text(config.read_text(encoding="utf-8").replace("site_name: ", "site_name: Renamed ", 1), encoding="utf-8")
    assert live.update({"mkdocs.yml"}) == "full"
    assert live.full_builds == 2
    assert site_files(live.site_dir) == full_build(config, tmp_path / "reference")


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
        live.build()  # a full build (as after a new page), which fails
    page.write_text(good, encoding="utf-8")
    assert live.update({"layer-2/chips.md"}) == "full"
    assert site_files(live.site_dir) == full_build(live.config_file, tmp_path / "reference")


# --- the page under edit first, then the rest (issue 32 item 5) -----------------------------------

FIRST_EDITS = {  # an edit, and the page under edit in the site
    "a title": ("layer-2/chips.yaml", "title: Chips", "title: Silicon chips", "layer-2/chips/index.html"),
    "a summary": ("layer-2/boards.yaml", "Where chips are mounted.", "Where chips sit.", "layer-2/boards/index.html"),
    "an edge's label": ("layer-1/power.yaml", "verb: powers", "verb: feeds", "layer-1/power/index.html"),
    "a depth's prose": ("layer-2/chips.yaml", "very fast.", "very fast, like a zebracorn.", "layer-2/chips/index.html"),
}


def writing_order(live: LiveSite) -> list[str]:
    """The pages the live site writes from now on, in order (seen by its finishing step)."""
    order: list[str] = []
    live.finish = lambda page, _url: order.append(page)
    return order


def never() -> bool:
    return False


@pytest.mark.parametrize("kind", list(FIRST_EDITS), ids=list(FIRST_EDITS))
def test_the_page_under_edit_is_written_first_and_the_pages_that_show_it_after(
        kind: str, served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    mini, regenerator, live = served
    name, old, new, page = FIRST_EDITS[kind]
    order = writing_order(live)
    edit(mini, name, old, new)
    first = regenerator.regenerate(first=True)
    assert live.update(first.changed, postpone=True) == "pages"
    assert order == [page]  # the open page can reload now
    shown = site_files(live.site_dir)
    the_rest(regenerator, live, never, nullcontext)
    assert live.current and live.full_builds == 1 and regenerator.pages.stale == set()
    final = site_files(live.site_dir)
    reference = full_build(first.config, tmp_path / "reference")
    assert final.keys() == reference.keys()
    assert [name for name in final if final[name] != reference[name]] == []
    assert shown[page] == reference[page]  # the page under edit was as it ends at once
    waited = {name for name in reference if name.endswith(".html") and shown.get(name) != reference[name]}
    if kind != "a depth's prose":  # the others show the edit too: written after, by the rest
        assert waited and waited <= set(order[1:])


def test_an_update_stopped_midway_leaves_the_rest_stale_for_the_next(
        served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    mini, regenerator, live = served
    edit(mini, "layer-2/chips.yaml", "title: Chips", "title: Silicon chips")
    first = regenerator.regenerate(first=True)
    live.update(first.changed, postpone=True)
    assert not live.current and len(live.stale.pages) > 1
    live.update(regenerator.regenerate_rest().changed, postpone=True)  # the pages that list chips
    assert live.stale.pages and not live.current
    before = live.pages_written
    live.update(set(), stopping=lambda: live.pages_written > before)
    assert live.pages_written == before + 1 and not live.current
    assert live.update(set()) == "pages" and live.current
    assert site_files(live.site_dir) == full_build(first.config, tmp_path / "reference")


def test_changed_pages_an_update_is_stopped_before_are_written_by_the_next(
        served: tuple[MiniProject, Regenerator, LiveSite], tmp_path: Path) -> None:
    mini, regenerator, live = served
    edit(mini, "layer-2/boards.yaml", "Where chips are mounted.", "Where chips sit.")
    live.update(regenerator.regenerate(first=True).changed, postpone=True)
    rest = regenerator.regenerate_rest()
    assert {"layer-2/index.md", "layer-2/chips.md"} <= rest.changed  # they list boards, with its summary
    written = live.pages_written
    live.update(rest.changed, stopping=lambda: True)
    assert live.pages_written == written and {"layer-2/index.md", "layer-2/chips.md"} <= live.stale.pages
    live.update(set())
    assert live.current and site_files(live.site_dir) == full_build(rest.config, tmp_path / "reference")


def test_a_second_edit_while_the_rest_is_written_is_neither_lost_nor_mixed(
        served: tuple[MiniProject, Regenerator, LiveSite], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A save while the rest of the last one is written stops it (here after one page of the
    generator's, then after one of the site's); the save's own first step shows its page, and its
    rest takes over what the last one left: the site ends as a full build of both edits."""
    from generator import incremental

    mini, regenerator, live = served
    monkeypatch.setattr(incremental, "MARKDOWN_BATCH", 1)
    edit(mini, "layer-2/chips.yaml", "title: Chips", "title: Silicon chips")
    first = regenerator.regenerate(first=True)
    live.update(first.changed, postpone=True)
    pending = len(regenerator.pages.stale)
    answers = iter([False])  # go on at first, then stop at the first look (after one page of the generator's)
    the_rest(regenerator, live, lambda: next(answers, True), nullcontext)
    assert 0 < len(regenerator.pages.stale) < pending and not live.current
    order = writing_order(live)
    edit(mini, "layer-2/boards.yaml", "Boards hold chips.", "Boards hold many chips.")
    second = regenerator.regenerate(first=True)
    assert second.changed & {"layer-2/boards.md"} and "layer-2/index.md" not in second.changed
    live.update(second.changed, postpone=True)
    assert order == ["layer-2/boards/index.html"]
    written = live.pages_written
    the_rest(regenerator, live, lambda: live.pages_written > written, nullcontext)  # stopped after one page
    assert not live.current
    the_rest(regenerator, live, never, nullcontext)
    assert live.current and regenerator.pages.stale == set()
    final = site_files(live.site_dir)
    assert final == full_build(second.config, tmp_path / "reference")
    assert b"Boards hold many chips." in final["layer-2/boards/index.html"]
    assert b"Silicon chips" in final["layer-2/boards/index.html"]  # the first edit's title, in its navigation
