"""Parse → transform → emit, the middle step: the knowledge map becomes page sources."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from generator.content.schema import Layer, Topic
from generator.model.graph import KnowledgeMap
from generator.render.bibliography import MapSource, map_labels, map_sources, render_bibliography
from generator.render.escape import page_title
from generator.render.map import home_map_html, layer_map_html, topic_map_html
from generator.render.overview import render_home, render_layer
from generator.render.paths import HOME, SOURCES_PAGE, layer_label, layer_page, topic_page
from generator.render.plan import plan_pages, render_plan, render_plans_index
from generator.render.ports import Calculators
from generator.render.prose_converter import LeftToEngine, ProseConverter, RenderedPage
from generator.render.read_first import PLANS
from generator.render.text import with_content_region
from generator.render.topic import render_topic
from generator.render.topic_html import render_topic_html
from generator.settings import BuildSettings

NavItem = str | dict[str, "str | list[NavItem]"]


@dataclass(frozen=True)
class PageSource:
    """A page of the docs tree: its path and its Markdown, as UTF-8 (a big map keeps every page's
    Markdown between runs, mostly ASCII: as ``str``, one character beyond Latin-1, such as the
    breadcrumb's ›, makes Python spend two bytes on every character of the page)."""

    path: str
    data: bytes

    @classmethod
    def of_text(cls, path: str, text: str) -> PageSource:
        return cls(path, text.encode("utf-8"))

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


PageRenderer = Callable[[], str]


def page_renderers(kmap: KnowledgeMap, calculators: Calculators | None = None,
                   settings: BuildSettings = BuildSettings(), listed: list[MapSource] | None = None,
                   labels: dict[str, str] | None = None) -> dict[str, PageRenderer]:
    """Each page of the site, in the navigation's order, by path: a function that renders it.
    ``layermap serve`` calls only those whose inputs changed; a build calls them all.
    ``listed``, ``labels``: the map's sources (``map_sources``) and their labels, when the caller has them already."""
    listed = listed if listed is not None else map_sources(kmap, calculators)
    labels = labels if labels is not None else map_labels(listed)  # "Smith, 2024a" names the same source on every page
    renderers: dict[str, PageRenderer] = {HOME: lambda: render_home(kmap, home_map_html(kmap, settings.full_map_limit))}
    for layer in kmap.layers:
        page = layer_page(layer.number)
        renderers[page] = partial(_layer_text, kmap, layer, page)
        for topic in kmap.topics_by_layer[layer.number]:
            renderers[topic_page(topic)] = partial(_topic_text, kmap, topic, calculators, labels, settings)
    if kmap.prerequisites:
        renderers[PLANS] = partial(render_plans_index, kmap)
        for path, topic, key in plan_pages(kmap):
            renderers[path] = partial(render_plan, kmap, topic, key, calculators)
    renderers[SOURCES_PAGE] = lambda: render_bibliography(kmap, calculators, listed)
    topics = topic_pages(kmap)  # their renderer marks their content region itself (render_topic_page)
    return {path: render if path in topics else _with_content_region(render) for path, render in renderers.items()}


def _with_content_region(render: PageRenderer) -> PageRenderer:
    return lambda: with_content_region(render())


def _layer_text(kmap: KnowledgeMap, layer: Layer, page: str) -> str:
    return render_layer(kmap, layer, layer_map_html(kmap, layer, page))


def _topic_text(kmap: KnowledgeMap, topic: Topic, calculators: Calculators | None, labels: dict[str, str],
                settings: BuildSettings) -> str:
    return render_topic_page(kmap, topic, calculators, labels, settings)[0]


def render_topic_page(kmap: KnowledgeMap, topic: Topic, calculators: Calculators | None, labels: dict[str, str],
                      settings: BuildSettings, prose: ProseConverter | None = None) -> tuple[str, RenderedPage | None]:
    """A topic's page as Markdown, and with ``prose``, also as the engine would convert it (None
    for a page only the engine can convert: ``render/topic_html.py``)."""
    page = topic_page(topic)
    map_html = topic_map_html(kmap, topic, page)
    text = with_content_region(render_topic(kmap, topic, calculators, map_html, labels, settings.siblings_shown))
    if prose is None:
        return text, None
    try:
        return text, render_topic_html(kmap, topic, prose, calculators, map_html, labels, settings.siblings_shown)
    except LeftToEngine:
        return text, None


def topic_pages(kmap: KnowledgeMap) -> dict[str, Topic]:
    """Each topic by the path of its page."""
    return {topic_page(topic): topic for topic in kmap.topics.values()}


def render_pages(kmap: KnowledgeMap, calculators: Calculators | None = None,
                 settings: BuildSettings = BuildSettings()) -> list[PageSource]:
    return [PageSource.of_text(path, render()) for path, render in page_renderers(kmap, calculators, settings).items()]


def _initial(topic: Topic) -> str:
    return topic.title[:1].casefold()


def _group_label(group: list[Topic], split: bool) -> str:
    """``A – C`` for groups of whole initials; ``Sa – Sh`` for the parts of one large initial."""
    width = 2 if split else 1
    first, last = group[0].title[:width].capitalize(), group[-1].title[:width].capitalize()
    return page_title(first if first == last else f"{first} – {last}")


def nav_groups(topics: tuple[Topic, ...], size: int) -> list[tuple[str, list[Topic]]]:
    """Topics (sorted by title) in consecutive groups of at most ``size``, cut between initials
    where possible; an initial with more than ``size`` topics is cut into parts of ``size``."""
    runs: list[list[Topic]] = []
    for topic in topics:
        if runs and _initial(runs[-1][0]) == _initial(topic):
            runs[-1].append(topic)
        else:
            runs.append([topic])
    groups: list[tuple[str, list[Topic]]] = []
    current: list[Topic] = []
    for run in runs:
        if len(current) + len(run) <= size:
            current += run
            continue
        if current:
            groups.append((_group_label(current, False), current))
            current = []
        if len(run) <= size:
            current = run
        else:
            groups += [(_group_label(run[i:i + size], True), run[i:i + size]) for i in range(0, len(run), size)]
    if current:
        groups.append((_group_label(current, False), current))
    return groups


def navigation(kmap: KnowledgeMap, settings: BuildSettings = BuildSettings()) -> list[NavItem]:
    """Sectioned navigation: one section per layer, its index page first, then its topics
    (a layer with more than ``settings.nav_group`` topics lists them in alphabetical groups); then Sources."""
    nav: list[NavItem] = [{"Home": HOME}]
    for layer in kmap.layers:
        topics = kmap.topics_by_layer[layer.number]
        entries: list[NavItem] = [layer_page(layer.number)]
        if len(topics) <= settings.nav_group:
            entries += [{page_title(t.title): topic_page(t)} for t in topics]
        else:
            groups = nav_groups(topics, settings.nav_group)
            entries += [{label: [{page_title(t.title): topic_page(t)} for t in group]} for label, group in groups]
        nav.append({page_title(layer_label(layer)): entries})
    if kmap.prerequisites:
        nav.append({"Learning plans": PLANS})  # each plan is reached from it, not listed (NOT_IN_NAV)
    nav.append({"Sources": SOURCES_PAGE})
    return nav
