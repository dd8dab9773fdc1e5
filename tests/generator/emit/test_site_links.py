"""layermap's site links (``layermap:<path from the site root>``) made relative to each built page:
exactly the relative URL render wrote before, in every attribute render writes one in, and nothing
else touched."""

from __future__ import annotations

import json
import posixpath

import pytest

from generator.content.sanitise import CONTENT_MARK, region_key, sanitise
from generator.emit.finishing import finished_page
from generator.emit.site_links import resolved_links
from generator.render.map import INDEX_FILE
from generator.render.paths import OFFLINE_COPY, built_url, site_link
from tests.generator.render.map.drawn import RENDERED as PAGES  # the real map's pages as rendered


def built_file(page: str) -> str:
    return f"{built_url(page)}index.html"


def link_written_before(from_page: str, to: str) -> str:
    """What render wrote before site links (``relative_url``), worked out with ``posixpath.relpath``:
    from the built folder of ``from_page`` to the built address of ``to``, a page's ending in "/"."""
    base = posixpath.dirname(built_file(from_page)) or "."
    target = built_url(to)
    rel = posixpath.relpath(target or ".", base)
    if to.endswith(".md"):
        return "./" if rel == "." else rel + "/"
    return rel


def test_every_link_between_the_real_maps_pages_is_the_relative_url_written_before() -> None:
    targets = [*PAGES, INDEX_FILE, OFFLINE_COPY]
    for page in PAGES:
        links = "".join(f'<a href="{site_link(to)}#x">' for to in targets)
        expected = "".join(f'<a href="{link_written_before(page, to)}#x">' for to in targets)
        assert resolved_links(links, built_file(page)) == expected, page
    assert len(PAGES) >= 30


def test_no_site_link_is_left_on_any_page_of_the_real_map() -> None:
    written = [page for page, text in PAGES.items() if "layermap:" in text]
    assert len(written) >= 20  # the map, Read first, previews, plans, sources: most pages hold some
    for page in written:
        assert "layermap:" not in resolved_links(PAGES[page], built_file(page)), page


@pytest.mark.parametrize(("html", "page", "expected"), [
    ('<a href="layermap:layer-3/gpu-clusters/#depth-d4">', "layer-1/power/index.html", '<a href="../../layer-3/gpu-clusters/#depth-d4">'),
    ('<a href="layermap:layer-1/power/?x=1&amp;y=2#z">', "layer-1/power/index.html", '<a href="./?x=1&amp;y=2#z">'),
    ('<a href="layermap:">', "index.html", '<a href="./">'),
    ('<a href="layermap:">', "404.html", '<a href="./">'),
    ('<a href="layermap:#sources">', "plans/x/index.html", '<a href="../../#sources">'),
    ('<svg><a class="lm-node" xlink:href="layermap:layer-2/" data-id="b">', "layer-2/index.html", '<svg><a class="lm-node" xlink:href="./" data-id="b">'),
    ('<form class="p" action="layermap:plans/">', "index.html", '<form class="p" action="plans/">'),
    ('<img alt="" src="layermap:assets/i.png">', "sources/index.html", '<img alt="" src="../assets/i.png">'),
    ('<figure class="lm-map" data-index="layermap:assets/layermap/map-index.json">', "layer-3/x/index.html",
     '<figure class="lm-map" data-index="../../assets/layermap/map-index.json">'),
    ('<p data-preview-for="layermap:layer-1/a/">', "layer-1/b/index.html", '<p data-preview-for="../a/">'),
    ("<a href='layermap:a/'><a HREF=layermap:b/>", "c/index.html", "<a href='../a/'><a HREF=../b/>"),
    ('<a title="3 > 2" aria-label="a < b" href="layermap:a/">', "index.html", '<a title="3 > 2" aria-label="a < b" href="a/">'),
    ('<a href="layermap:a/"\n   data-x="layermap:b.json">', "a/index.html", '<a href="./"\n   data-x="../b.json">'),
])
def test_each_attribute_render_writes_a_link_in_is_resolved(html: str, page: str, expected: str) -> None:
    assert resolved_links(html, page) == expected


@pytest.mark.parametrize("quote", ["&quot;", "&#34;"])
def test_the_json_of_a_data_attribute_has_its_links_resolved(quote: str) -> None:
    targets = json.dumps({"a": {"D1": "layermap:plans/a-d1/", "D2": "layermap:layer-1/a/#depth-d2"}}).replace('"', quote)
    html = f'<form action="layermap:plans/" data-targets="{targets}">'
    expected = targets.replace("layermap:plans/a-d1/", "a-d1/").replace("layermap:layer-1/a/", "../layer-1/a/")
    assert resolved_links(html, "plans/index.html") == f'<form action="./" data-targets="{expected}">'


@pytest.mark.parametrize("html", [
    '<p>Write href="layermap:a/" in a tag</p>',  # text, not a tag
    '<pre><code>&lt;a href="layermap:a/"&gt;</code></pre>',
    '<a title="layermap:a/" class="layermap:a/" aria-label="layermap:a/">',  # not a link's attribute
    '<a href="see layermap:a/">', '<a href=" layermap:a/">', '<a href="LAYERMAP:a/">',  # not at the start, not this spelling
    '<a href="layermap:../a/">', '<a href="layermap:/a/">', '<a href="layermap://host/a/">', '<a href="layermap:a//b/">',
    '<a href="layermap:a/../../b/">', '<a href="layermap:a b/">', '<a href="layermap:a\\b/">',  # not a clean path
    '<p data-x="a layermap:b/">',
    "<!-- layermap:a/ -->",
])
def test_anything_else_is_left_as_written(html: str) -> None:
    assert resolved_links(html, "layer-1/a/index.html") == html


def test_a_page_without_site_links_is_returned_as_it_is() -> None:
    html = '<a href="../x/">x</a>' * 100
    assert resolved_links(html, "a/index.html") is html


def test_what_the_sanitiser_keeps_is_resolved_and_what_it_removes_is_not_a_link() -> None:
    """The engine's sanitiser hook sees a page before the finishing step: a clean site link goes
    through it and resolves, a malformed one is gone."""
    kept = sanitise('<p><a href="layermap:layer-1/a/#b">a</a><a href="layermap:../x/">x</a></p>')
    assert resolved_links(kept, "index.html") == '<p><a href="layer-1/a/#b">a</a><a>x</a></p>'


def test_layermaps_finishing_step_resolves_them_on_every_page() -> None:
    body = '<a href="layermap:layer-1/a/#b">a</a>'
    page = f"<html><head></head><body><!--{CONTENT_MARK}:{region_key(body)}-->{body}<!--/{CONTENT_MARK}:{region_key(body)}--></body></html>"
    assert '<a href="../a/#b">a</a>' in finished_page(page, "layer-1/c/index.html")
