"""The map's stylesheet: readable kind colours on light and dark, a minimum width per map, no inline style."""

from __future__ import annotations

import re

from generator.render.map.settings import DARK_BG, LIGHT_BG
from generator.render.map.styles import contrast, kind_styles, map_stylesheet, readable
from generator.render.paths import HOME, layer_page, topic_page
from tests.generator.render.map.drawn import KMAP, PAGES, SVG, svg_of


def test_maps_carry_no_inline_style_and_the_stylesheet_sizes_each_one() -> None:
    """The CSP allows no style attribute and no unhashed <style>: a map's minimum width is a class."""
    css = map_stylesheet(KMAP.config.edge_kinds, PAGES.values())
    for path in (HOME, layer_page(3), topic_page(KMAP.topics_by_layer[3][0])):
        svg = svg_of(PAGES[path])
        assert all(el.get("style") is None for el in svg.iter()) and not list(svg.iter(f"{SVG}style"))
        width = float(svg.get("width"))
        [minimum] = [c for c in svg.get("class").split() if c.startswith("lm-map-min-")]
        pixels = int(minimum.removeprefix("lm-map-min-"))
        assert abs(pixels - width) <= 1 and f".lm-map-svg.{minimum}{{min-width:{pixels}px}}" in css
    assert kind_styles(KMAP.config.edge_kinds) in css
    assert "@media" not in css  # never scaled down, on a phone either: its text stays readable, its frame scrolls


def test_every_kind_colour_is_readable_on_light_and_dark() -> None:
    css = kind_styles(KMAP.config.edge_kinds)
    for kind in KMAP.config.edge_kinds:
        light = re.search(rf"\.lm-map \.lm-k-{kind.id}\{{--lm-k:(#\w+)\}}", css).group(1)
        dark = re.search(rf"slate\] \.lm-map \.lm-k-{kind.id}\{{--lm-k:(#\w+)\}}", css).group(1)
        assert contrast(light, LIGHT_BG) >= 3 and contrast(dark, DARK_BG) >= 3


def test_readable_changes_only_what_it_must() -> None:
    assert readable("#1a1a1a", LIGHT_BG) == "#1a1a1a"
    yellow = readable("#ffee00", LIGHT_BG)
    assert yellow != "#ffee00" and contrast(yellow, LIGHT_BG) >= 3
    navy = readable("#101060", DARK_BG)
    assert navy != "#101060" and contrast(navy, DARK_BG) >= 3


