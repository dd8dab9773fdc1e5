"""The map's sources page: every source any topic lists, once, with the topics that list it."""

from __future__ import annotations

from dataclasses import dataclass

from generator.content.schema import Source, Topic
from generator.model.graph import KnowledgeMap
from generator.render.citations import reference_labels, short_reference, source_anchor
from generator.render.escape import md_text
from generator.render.paths import HOME, SOURCES_PAGE, link, site_link, topic_page
from generator.render.ports import Calculators
from generator.render.text import attr, block, front_matter, inline
from generator.render.topic import format_source, page_sources


@dataclass(frozen=True)
class MapSource:
    """One source of the map and the topics whose pages list it (in map order)."""

    source: Source
    topics: tuple[Topic, ...]


def map_sources(kmap: KnowledgeMap, calculators: Calculators | None = None) -> list[MapSource]:
    """Every source on a topic page (its own and its calculators'), once, sorted by author and year."""
    found: dict[str, tuple[Source, list[Topic]]] = {}
    for layer in kmap.layers:
        for topic in kmap.topics_by_layer[layer.number]:
            for source in page_sources(kmap, topic, calculators):
                found.setdefault(source.id, (source, []))[1].append(topic)
    entries = [MapSource(source, tuple({t.id: t for t in topics}.values())) for source, topics in found.values()]
    return sorted(entries, key=lambda e: (short_reference(e.source).casefold(), e.source.title.casefold()))


def _entry(entry: MapSource, labels: dict[str, str]) -> str:
    listed_by = ", ".join(
        f'<a href="{attr(site_link(topic_page(t)))}#sources">{inline(t.title)}</a>' for t in entry.topics
    )
    source = entry.source
    return (f'<li id="{source_anchor(source.id)}">{format_source(source, labels.get(source.id, ""))} '
            f'<span class="lm-source-kind">{inline(source.kind.capitalize())}.</span><br>'
            f'<span class="lm-listed-by">Listed by {listed_by}.</span></li>')


def map_labels(entries: list[MapSource]) -> dict[str, str]:
    """Author-year labels of every source the map lists, told apart (a, b, …) across the whole map."""
    return reference_labels(entry.source for entry in sorted(entries, key=lambda e: e.source.id))


def render_bibliography(kmap: KnowledgeMap, calculators: Calculators | None = None,
                        entries: list[MapSource] | None = None) -> str:
    entries = entries if entries is not None else map_sources(kmap, calculators)
    topics = len(kmap.topics)
    intro = (f"Every source the map's {topics} topic{'s' if topics != 1 else ''} cite, once, by author and year, "
             "with the topics that list it; each topic page numbers its own.")
    labels = map_labels(entries)
    items = "\n".join(_entry(entry, labels) for entry in entries)
    return block(
        front_matter(title="Sources", description=f"All {len(entries)} sources of {kmap.config.title}."),
        f'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n[{md_text(kmap.config.title)}]({link(SOURCES_PAGE, HOME)})\n</nav>',
        "# Sources",
        f'<p class="lm-summary">{inline(intro)}</p>',
        f'<ul class="lm-bibliography">\n{items}\n</ul>' if entries else "*No sources yet.*",
    ) + "\n"
