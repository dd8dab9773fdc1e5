"""Parse → transform → emit, the middle step: the knowledge map becomes page sources."""

from __future__ import annotations

from dataclasses import dataclass

from generator.graph import KnowledgeMap
from generator.render.map_svg import home_map_html, layer_map_html, topic_map_html
from generator.render.overview import render_home, render_layer
from generator.render.ports import Calculators
from generator.render.paths import HOME, layer_label, layer_page, topic_page
from generator.render.topic import render_topic

NavItem = str | dict[str, "str | list[NavItem]"]


@dataclass(frozen=True)
class PageSource:
    """A page of the docs tree: its path and its Markdown."""

    path: str
    text: str


def render_pages(kmap: KnowledgeMap, calculators: Calculators | None = None) -> list[PageSource]:
    pages = [PageSource(HOME, render_home(kmap, home_map_html(kmap)))]
    for layer in kmap.layers:
        page = layer_page(layer.number)
        pages.append(PageSource(page, render_layer(kmap, layer, layer_map_html(kmap, layer, page))))
        for topic in kmap.topics_by_layer[layer.number]:
            page = topic_page(topic)
            local = topic_map_html(kmap, topic, page)
            pages.append(PageSource(page, render_topic(kmap, topic, calculators, local)))
    return pages


def navigation(kmap: KnowledgeMap) -> list[NavItem]:
    """Sectioned navigation: one section per layer, its index page first, then its topics."""
    nav: list[NavItem] = [{"Home": HOME}]
    for layer in kmap.layers:
        entries: list[NavItem] = [layer_page(layer.number)]
        entries += [{t.title: topic_page(t)} for t in kmap.topics_by_layer[layer.number]]
        nav.append({layer_label(layer): entries})
    return nav
