"""The page a missing address gets (generator/emit/not_found.py): the way back into the map, from any address."""

from __future__ import annotations

import re

from generator.emit import not_found

NAV = [
    {"Home": "index.md"},
    {"Layer 1 · Energy &amp; Facilities": ["layer-1/index.md", {"Power &amp; cooling": "layer-1/power-cooling.md"}]},
    {"Layer 2 · Chips": ["layer-2/index.md"]},
    {"Learning plans": "plans/index.md"},
    {"Sources": "sources.md"},
]
THEME_PAGE = '<html><head><title>x</title></head><body><article><h1>404 - Not found</h1></article></body></html>'


def links(page: str) -> dict[str, str]:
    return {text: href for href, text in re.findall(r'<a href="([^"]*)">([^<]*)</a>', page)}


def test_every_top_level_place_is_linked_by_its_title_from_the_sites_own_path() -> None:
    page = not_found.not_found_content(NAV, "https://someone.github.io/layermap/")
    assert links(page) == {
        "the map of every topic": "/layermap/#map",
        "Layer 1 · Energy &amp; Facilities": "/layermap/layer-1/",  # the title as text: escaped once, not twice
        "Layer 2 · Chips": "/layermap/layer-2/",
        "Learning plans": "/layermap/plans/",
        "Sources": "/layermap/sources/",
    }
    assert 'action="/layermap/"' in page and 'name="q"' in page  # the theme's search opens with ?q=


def test_without_a_site_url_the_links_start_at_the_root() -> None:
    page = not_found.not_found_content(NAV, "")
    assert links(page)["Sources"] == "/sources/" and 'action="/"' in page
    assert links(not_found.not_found_content(NAV, "https://example.org/sub"))["Sources"] == "/sub/sources/"


def test_only_the_themes_404_page_is_changed() -> None:
    config = {"nav": NAV, "site_url": "http://127.0.0.1:8000/"}
    page = not_found.on_post_template(THEME_PAGE, "404.html", config)
    assert "404 - Not found" not in page and '<h1 id="page-not-found">Page not found</h1>' in page
    assert not_found.on_post_template(THEME_PAGE, "sitemap.xml", config) == THEME_PAGE


def test_a_title_with_markup_is_shown_as_text() -> None:
    page = not_found.not_found_content([{"<img src=x onerror=alert(1)>": "evil.md"}], "")
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
