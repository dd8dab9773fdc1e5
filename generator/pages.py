"""Parse → transform → emit, the middle step: the knowledge map becomes page sources."""

from __future__ import annotations

from dataclasses import dataclass

from generator.graph import KnowledgeMap
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
    pages = [PageSource(HOME, render_home(kmap))]
    for layer in kmap.layers:
        pages.append(PageSource(layer_page(layer.number), render_layer(kmap, layer)))
        for topic in kmap.topics_by_layer[layer.number]:
            pages.append(PageSource(topic_page(topic), render_topic(kmap, topic, calculators)))
    return pages


def navigation(kmap: KnowledgeMap) -> list[NavItem]:
    """Sectioned navigation: one section per layer, its index page first, then its topics."""
    nav: list[NavItem] = [{"Home": HOME}]
    for layer in kmap.layers:
        entries: list[NavItem] = [layer_page(layer.number)]
        entries += [{t.title: topic_page(t)} for t in kmap.topics_by_layer[layer.number]]
        nav.append({layer_label(layer): entries})
    return nav
