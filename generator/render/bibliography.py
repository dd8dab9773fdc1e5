"""The map's sources page: every source any topic lists, once, with the topics that list it."""

from __future__ import annotations

from dataclasses import dataclass

from generator.citations import short_reference
from generator.graph import KnowledgeMap
from generator.render.paths import HOME, SOURCES_PAGE, link, relative_url, topic_page
from generator.render.ports import Calculators
from generator.render.escape import md_text
from generator.render.text import attr, block, front_matter, inline
from generator.render.topic import format_source, page_sources
from generator.schema import Source, Topic


@dataclass(frozen=True)
class MapSource:
    """One source of the map and the topics whose pages list it (in map order)."""

    source: Source
    topics: tuple[Topic, ...]


def _identity(source: Source) -> str | tuple[str, str]:
    """The same work cited by several topics: the same URL, or else the same title and date."""
    return source.url or (source.title.casefold(), source.date)


def map_sources(kmap: KnowledgeMap, calculators: Calculators | None = None) -> list[MapSource]:
    """Every source on a topic page (its own and its calculators'), once, sorted by author and year."""
    found: dict[str | tuple[str, str], tuple[Source, list[Topic]]] = {}
    for layer in kmap.layers:
        for topic in kmap.topics_by_layer[layer.number]:
            for source in page_sources(topic, calculators):
                found.setdefault(_identity(source), (source, []))[1].append(topic)
    entries = [MapSource(source, tuple({t.id: t for t in topics}.values())) for source, topics in found.values()]
    return sorted(entries, key=lambda e: (short_reference(e.source).casefold(), e.source.title.casefold()))


def _entry(entry: MapSource) -> str:
    listed_by = ", ".join(
        f'<a href="{attr(relative_url(SOURCES_PAGE, topic_page(t)))}#sources">{inline(t.title)}</a>' for t in entry.topics
    )
    return f'<li>{format_source(entry.source)}<br><span class="lm-listed-by">Listed by {listed_by}.</span></li>'


def render_bibliography(kmap: KnowledgeMap, calculators: Calculators | None = None) -> str:
    entries = map_sources(kmap, calculators)
    topics = len(kmap.topics)
    intro = (f"Every source the map's {topics} topic{'s' if topics != 1 else ''} cite, once, by author and year, "
             "with the topics that list it; each topic page numbers its own.")
    items = "\n".join(_entry(entry) for entry in entries)
    return block(
        front_matter(title="Sources", description=f"All {len(entries)} sources of {kmap.config.title}."),
        f'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n[{md_text(kmap.config.title)}]({link(SOURCES_PAGE, HOME)})\n</nav>',
        "# Sources",
        f'<p class="lm-summary">{inline(intro)}</p>',
        f'<ul class="lm-bibliography">\n{items}\n</ul>' if entries else "*No sources yet.*",
    ) + "\n"
