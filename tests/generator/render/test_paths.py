"""Links between the docs tree's pages: the quick relative path is ``posixpath.relpath``'s."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from generator.render.paths import built_url, link, rebased_links, relative_path, site_link

SEGMENTS = st.sampled_from(["", ".", "..", "layer-1", "layer-10", "a", "b", "x.md", "index.md", "assets", "a b"])
PATHS = st.lists(SEGMENTS, min_size=1, max_size=5).map("/".join) | st.sampled_from(["/", "/a", "a/", "."])


@given(PATHS, PATHS)
def test_a_relative_path_is_relpaths(target: str, start: str) -> None:
    try:
        expected = posixpath.relpath(target, start)
    except ValueError:  # an empty path
        expected = ValueError
    try:
        got = relative_path(target, start)
    except ValueError:
        got = ValueError
    assert got == expected


def test_links_between_pages() -> None:
    assert link("layer-1/a.md", "layer-1/b.md") == "b.md"
    assert link("layer-1/a.md", "layer-2/index.md") == "../layer-2/index.md"
    assert link("index.md", "layer-3/x.md") == "layer-3/x.md"
    assert link("layer-1/a.md", "index.md") == "../index.md"


def test_site_links_name_built_urls_from_the_site_root() -> None:
    assert built_url("layer-1/a.md") == "layer-1/a/" and built_url("index.md") == ""
    assert site_link("layer-1/a.md") == "layermap:layer-1/a/"
    assert site_link("layer-1/index.md") == "layermap:layer-1/"
    assert site_link("index.md") == "layermap:"
    assert site_link("assets/x.css") == "layermap:assets/x.css"


def test_a_topics_links_work_from_a_plan_in_another_folder() -> None:
    written = ("see [power](power-cooling.md), [clusters](../layer-3/gpu-clusters.md#depth-d4), "
               "[a site](https://example.org/x.md) and [the map](../index.md)")
    shown = rebased_links(written, "layer-1/siting-and-grid.md", "plans/siting-and-grid-d2.md")
    assert shown == ("see [power](../layer-1/power-cooling.md), [clusters](../layer-3/gpu-clusters.md#depth-d4), "
                     "[a site](https://example.org/x.md) and [the map](../index.md)")
    assert rebased_links(written, "layer-1/a.md", "layer-1/b.md") == written  # same folder: as written
