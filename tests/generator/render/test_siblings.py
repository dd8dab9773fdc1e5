"""'More in Layer N': every sibling in a small layer; a window and a link in a big one."""

from __future__ import annotations

from generator.render.topic import nearby_siblings, render_topic
from generator.settings import BuildSettings
from tests.generator.render.map.synthetic import synthetic_map

SIBLINGS_SHOWN = BuildSettings().siblings_shown


def test_a_small_layer_lists_every_sibling() -> None:
    kmap = synthetic_map(topics=20, layers=4)  # 5 topics a layer
    topic = kmap.topics["t0"]
    assert nearby_siblings(kmap, topic, SIBLINGS_SHOWN) == kmap.siblings(topic)
    assert "other topics in" not in render_topic(kmap, topic)


def test_a_big_layer_shows_the_nearest_and_links_to_all() -> None:
    kmap = synthetic_map(topics=120, layers=2)  # 60 topics a layer
    in_layer = kmap.topics_by_layer[1]
    for topic in (in_layer[0], in_layer[30], in_layer[-1]):
        shown = nearby_siblings(kmap, topic, SIBLINGS_SHOWN)
        assert len(shown) == SIBLINGS_SHOWN and topic not in shown
        positions = sorted(in_layer.index(t) for t in shown)
        assert positions[-1] - positions[0] <= SIBLINGS_SHOWN  # one contiguous window around it
        assert min(abs(p - in_layer.index(topic)) for p in positions) == 1
    page = render_topic(kmap, in_layer[30])
    assert "[All 59 other topics in Layer 1 · L1](index.md)" in page
    assert "{ #siblings data-search-exclude }" in page
