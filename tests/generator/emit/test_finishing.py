"""layermap's finishing step (generator/emit/finishing.py): right on an engine that runs no hooks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.content.sanitise import marked_sanitised, on_page_content, region_key
from generator.emit.depth_first_paint import HEAD_TAG
from generator.emit.docs_tree import engine_config, written_navigation
from generator.emit.finishing import finish_file, finished_page, sanitised_regions
from generator.emit.not_found import THEME_CONTENT, not_found_content
from generator.emit.search_terms import OPENING_CHARACTERS, SEARCH_INDEX, lean_index_file
from generator.errors import LayermapError
from generator.render.text import with_content_region

ATTACK = '<p>a<img src="x" onerror="alert(1)"><script>steal()</script><a href="javascript:x()">j</a></p>'


def _engine_page(content: str) -> str:
    """A page as a theme wraps its content (the chrome around it is the engine's own)."""
    return (f'<!doctype html><html><head><meta charset="utf-8"><script>theme()</script></head>'
            f'<body><nav>menu</nav><article>{content}</article></body></html>')


def _converted(body: str) -> str:
    """What an engine without layermap's hooks makes of a page's Markdown: the region marks kept as
    raw HTML comments (Python-Markdown's own handling of a comment block)."""
    marked = with_content_region(f'---\ntitle: "T"\n---\n\n{body}')
    return marked.split("---\n", 2)[2].strip().replace("\n\n", "\n")


def test_the_region_marks_keep_the_body_and_are_keyed_by_it() -> None:
    marked = with_content_region('---\ntitle: "T"\n---\n\n# T\n\nText.\n')
    key = region_key("# T\n\nText.")
    assert marked == f'---\ntitle: "T"\n---\n\n<!--layermap-content:{key}-->\n\n# T\n\nText.\n\n<!--/layermap-content:{key}-->\n'


def test_a_page_no_hook_sanitised_is_sanitised_here_and_the_chrome_is_left_alone() -> None:
    page = finished_page(_engine_page(_converted(ATTACK)), "layer-1/x/index.html")
    article = page[page.index("<article>"):page.index("</article>")]
    assert "onerror" not in article and "<script>" not in article and "javascript:" not in article
    assert "<script>theme()</script>" in page and "<nav>menu</nav>" in page  # outside the content: the engine's
    assert "layermap-content" not in page
    assert page.count(HEAD_TAG) == 1


def test_content_the_hook_sanitised_is_taken_as_it_is_once_its_digest_matches() -> None:
    hooked = on_page_content(_converted("<p>kept <em>as is</em></p>"))
    page = sanitised_regions(_engine_page(hooked), "index.html")
    assert "<article><p>kept <em>as is</em></p></article>" in page
    assert "layermap-sanitised" not in page


def test_hooked_content_changed_afterwards_is_sanitised_again() -> None:
    hooked = on_page_content(_converted("<p>x</p>")).replace("<p>x</p>", f"<p>x</p>{ATTACK}")
    page = sanitised_regions(_engine_page(hooked), "index.html")
    assert "onerror" not in page and "<script>steal" not in page


def test_marks_written_in_content_vouch_for_nothing() -> None:
    """Content cannot hold its own region's key, and a 'sanitised' mark it writes itself is about
    its own text only, which is sanitised all the same inside the page's real region."""
    forged = marked_sanitised(ATTACK)
    page = finished_page(_engine_page(_converted(f"<p>before</p>\n{forged}\n<p>after</p>")), "index.html")
    assert "onerror" not in page and "<script>steal" not in page and "<p>after</p>" in page


def test_a_page_whose_content_swallowed_its_end_stops_the_build() -> None:
    converted = _converted("<p>x</p>")
    swallowed = re.sub(r"<!--/layermap-content:(\w+)-->", r"&lt;!--/layermap-content:\1--&gt;", converted)
    with pytest.raises(LayermapError, match="layer-2/y/index.html: .*not its end"):
        finished_page(_engine_page(swallowed), "layer-2/y/index.html")


def test_a_page_of_the_map_with_no_region_stops_the_build_but_the_themes_404_page_needs_none() -> None:
    with pytest.raises(LayermapError, match="no content region"):
        finished_page(_engine_page("<p>x</p>"), "index.html")
    assert HEAD_TAG in finished_page(_engine_page("<h1>404</h1>"), "404.html")


def test_the_404_page_an_engine_left_bare_gets_the_way_back_in_and_once_only() -> None:
    nav = [{"Home": "index.md"}, {"Layer 1 · Energy &amp; Facilities": ["layer-1/index.md", {"Power": "layer-1/power.md"}]}]
    way_back = not_found_content(nav, "https://example.org/layermap/")
    bare = finished_page(_engine_page(THEME_CONTENT), "404.html", way_back)  # an engine that ran no hook
    assert THEME_CONTENT not in bare and way_back in bare
    assert '<a href="/layermap/layer-1/">Layer 1 · Energy &amp; Facilities</a>' in bare
    hooked = _engine_page(way_back)  # MkDocs: the hook put it there
    assert finished_page(hooked, "404.html", way_back).count(way_back) == 1
    assert THEME_CONTENT in finished_page(_engine_page(THEME_CONTENT), "404.html")  # nothing to put there: left
    with pytest.raises(LayermapError, match="no content region"):  # any other page: not the 404 page's business
        finished_page(_engine_page(THEME_CONTENT), "index.html", way_back)


def test_the_navigation_is_read_back_from_the_config_layermap_wrote(tmp_path: Path) -> None:
    base = tmp_path / "mkdocs.yml"
    base.write_text("site_name: T\nsite_url: !ENV [LAYERMAP_SITE_URL, '']\ntheme: {name: material, font: false}\n", encoding="utf-8")
    nav = [{"Home": "index.md"}, {"Layer 1": ["layer-1/index.md"]}]
    written = tmp_path / "engine.yml"
    written.write_text(engine_config(base, nav), encoding="utf-8")
    assert written_navigation(written) == nav


def test_serve_finishes_a_page_in_place(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(_engine_page(_converted(ATTACK)), encoding="utf-8")
    finish_file(tmp_path, "a/index.html")
    text = (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    assert "onerror" not in text and HEAD_TAG in text


def _index(site: Path, docs: list[dict]) -> Path:
    path = site / SEARCH_INDEX
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"config": {"separator": r"[\s\-]+"}, "docs": docs}), encoding="utf-8")
    return path


def test_an_index_no_hook_made_lean_is_made_lean_with_no_markup_left(tmp_path: Path) -> None:
    words = " ".join(f"<p>word{n} again</p>" for n in range(200))
    path = _index(tmp_path, [{"location": "a/", "title": "A <img src=x onerror=y>", "text": f"{words} <b"}])
    lean_index_file(tmp_path)
    written = path.read_text(encoding="utf-8")
    entry = json.loads(written)["docs"][0]
    assert "<" not in entry["text"] and "<" not in entry["title"]
    opening, rest = entry["text"].split(" … ", 1)
    assert "again" in opening and "again" not in rest and "word199" in rest  # each further term once
    assert len(entry["text"]) < len(words) / 2 and " … " in entry["text"][: OPENING_CHARACTERS + 3]


def test_an_index_the_hook_made_lean_is_left_as_it_is_but_written_as_utf8(tmp_path: Path) -> None:
    path = _index(tmp_path, [{"location": "a/", "title": "Café <code>x</code>", "text": "short café text"}])
    lean_index_file(tmp_path)
    written = path.read_text(encoding="utf-8")
    assert "Café" in written and "\\u00e9" not in written
    assert json.loads(written)["docs"][0] == {"location": "a/", "title": "Café <code>x</code>", "text": "short café text"}
