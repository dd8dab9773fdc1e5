"""The page of one topic: depths, examples, connections, siblings, sources."""

from __future__ import annotations

from generator.content.citations import cited_keys
from generator.content.schema import Layer, Source, Topic
from generator.content.yaml_source import text_fields
from generator.memo import remembered_by_identity
from generator.model.graph import KnowledgeMap, MapEdge
from generator.render.citations import reference_labels, render_citations, short_reference, source_anchor
from generator.render.depth import depth_anchor, depths_served, render_depth, render_depth_switcher
from generator.render.escape import md_text
from generator.render.paths import HOME, SOURCES_PAGE, layer_label, layer_page, link, topic_page
from generator.render.ports import Calculators
from generator.render.previews import previews_html
from generator.render.read_first import read_first_html, read_mark_html
from generator.render.text import attr, block, front_matter, inline, long_date
from generator.settings import BuildSettings


def _front_matter(topic: Topic) -> str:
    return front_matter(title=topic.title, description=topic.summary)


def _breadcrumb(kmap: KnowledgeMap, topic: Topic, page: str) -> str:
    layer = kmap.layer_of(topic)
    return (
        f'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n'
        f"[{md_text(kmap.config.title)}]({link(page, HOME)}) › [{md_text(layer_label(layer))}]({link(page, layer_page(layer.number))})\n"
        f"</nav>"
    )


def _depth_index(kmap: KnowledgeMap, topic: Topic) -> str:
    """Links to each depth: the no-JavaScript table of contents, replaced by tabs when scripts run."""
    names = {level.key: level.name for level in kmap.config.depths}
    links = " · ".join(f"[{key} {md_text(names[key])}](#{depth_anchor(key)})" for key, _ in topic.depths.present())
    return f'<nav class="lm-depth-index" aria-label="Depth levels" markdown>\nDepths: {links}\n</nav>'


def _depths(kmap: KnowledgeMap, topic: Topic, calculators: Calculators | None, labels: dict[str, str]) -> str:
    levels = {level.key: level for level in kmap.config.depths}

    def prose(text: str) -> str:
        return render_citations(calculators.expand(text) if calculators else text, kmap.sources, labels=labels)

    keys = [key for key, _ in topic.depths.present()]
    served = depths_served(list(levels), keys)
    sections = [render_depth(key, levels[key], depth, prose, calculators, served[key], read_first_html(kmap, topic, key),
                             read_mark_html(topic, key))
                for key, depth in topic.depths.present()]
    switcher = render_depth_switcher({key: level.name for key, level in levels.items()}, served)
    return (
        f'<div class="lm-depths" data-topic="{topic.id}" data-depths="{" ".join(keys)}" markdown>\n\n{switcher}\n\n'
        + "\n\n".join(sections)
        + "\n\n</div>"
    )


def _examples(topic: Topic) -> str:
    if not topic.examples:
        return ""
    items = "\n".join(f"- **{md_text(e.name)}** ({md_text(e.kind)})" for e in topic.examples.items)
    when = topic.examples.as_of
    return f'## Examples {{ #examples }}\n\n<p class="lm-as-of">As of <time datetime="{when.isoformat()}">{long_date(when)}</time>.</p>\n\n{items}'


def edge_sentence(edge: MapEdge, page: str, current: Topic) -> str:
    def name(topic: Topic) -> str:
        title = md_text(topic.title)
        return f"**{title}**" if topic.id == current.id else f"[{title}]({link(page, topic_page(topic))})"

    kind = f' <span class="lm-edge-kind" data-kind="{attr(edge.kind)}">{md_text(edge.kind)}</span>' if edge.kind else ""
    return f"- {name(edge.subject)} {md_text(edge.verb)} {name(edge.object)}.{kind}"


def _connections(kmap: KnowledgeMap, topic: Topic, page: str, map_html: str = "") -> str:
    edges = kmap.edges_by_topic[topic.id]
    if not edges:
        return ""
    listed = "\n".join(edge_sentence(e, page, topic) for e in edges)
    return block("## How it connects { #connections }", map_html,
                 f'<div class="lm-connections" markdown>\n\n{listed}\n\n</div>')


@remembered_by_identity(64)  # one lookup table per layer, not a search of the layer per topic page
def _positions(in_layer: tuple[Topic, ...]) -> dict[str, int]:
    return {t.id: index for index, t in enumerate(in_layer)}


def nearby_siblings(kmap: KnowledgeMap, topic: Topic, limit: int) -> tuple[Topic, ...]:
    """All siblings in a small layer; in a big one, the ``limit`` nearest in the layer's order."""
    in_layer = kmap.topics_by_layer[topic.layer]
    if len(in_layer) - 1 <= limit:
        return kmap.siblings(topic)
    here = _positions(in_layer)[topic.id]
    start = min(max(here - limit // 2, 0), len(in_layer) - limit - 1)
    return tuple(t for t in in_layer[start:start + limit + 1] if t.id != topic.id)[:limit]


def sibling_listing(kmap: KnowledgeMap, topic: Topic, limit: int) -> tuple[tuple[Topic, ...], Layer, int]:
    """The siblings a topic page lists (:func:`nearby_siblings`), their layer, and how many there are in all."""
    return nearby_siblings(kmap, topic, limit), kmap.layer_of(topic), len(kmap.topics_by_layer[topic.layer]) - 1


def _siblings(kmap: KnowledgeMap, topic: Topic, page: str, limit: int) -> str:
    siblings, layer, total = sibling_listing(kmap, topic, limit)
    if not siblings:
        return ""
    items = "\n".join(f"- [{md_text(t.title)}]({link(page, topic_page(t))})  \n  {md_text(t.summary)}" for t in siblings)
    more = f"\n\n[All {total} other topics in {md_text(layer_label(layer))}]({link(page, layer_page(layer.number))})" if total > len(siblings) else ""
    # data-search-exclude: the list repeats other pages' summaries; indexing it would make the
    # search index grow with the square of the map.
    return f"## More in {md_text(layer_label(layer))} {{ #siblings data-search-exclude }}\n\n{items}{more}"


def format_source(source: Source, label: str = "") -> str:
    """One entry of the numbered list; ``label`` is its in-text label when it differs from the
    plain author-year one (a, b, … for the same author and year), said after the date."""
    authors = "; ".join(source.authors) if source.authors else ""
    title = inline(source.title)
    title_html = f'<a href="{attr(source.link)}">{title}</a>'
    cited_as = f" (cited as {inline(label)})" if label and label != short_reference(source) else ""
    parts = [f"{inline(authors.rstrip('.'))}." if authors else "", f"<cite>{title_html}</cite>.", f"{source.date}{cited_as}."]
    if source.note:
        parts.append(inline(source.note.rstrip(".")) + ".")
    return " ".join(p for p in parts if p)


def cited_keys_of(topic: Topic) -> list[str]:
    """The keys a topic's depths cite, each once, in reading order."""
    return list(_cited_keys(topic))


@remembered_by_identity(20_000)  # `layermap serve` asks again for every unchanged topic after each edit
def _cited_keys(topic: Topic) -> tuple[str, ...]:
    depths = topic.depths.model_dump(exclude_none=True)
    return tuple(dict.fromkeys(key for _, text in text_fields(depths) for key, _ in cited_keys(text)))


def page_sources(kmap: KnowledgeMap, topic: Topic, calculators: Calculators | None) -> list[Source]:
    """The page's list: what its text cites, in reading order, then what its calculators cite."""
    found = {key: kmap.sources[key] for key in cited_keys_of(topic) if key in kmap.sources}
    for _, depth in topic.depths.present():
        if depth.calculator and calculators:
            for source in calculators.sources(depth.calculator.name):
                found.setdefault(source.id, kmap.sources.get(source.id, source))
    return list(found.values())


def _sources(topic: Topic, sources: list[Source], labels: dict[str, str]) -> str:
    if not sources:
        return ""
    items = "\n".join(f'<li id="{source_anchor(s.id)}">{format_source(s, labels.get(s.id, ""))}</li>' for s in sources)
    every = f"Every source of the map, with the topics that cite it: [Sources]({link(topic_page(topic), SOURCES_PAGE)})."
    # data-search-exclude: the Sources page indexes every source once, with the topics citing it.
    return f'## Sources {{ #sources data-search-exclude }}\n\n<ol class="lm-sources">\n{items}\n</ol>\n\n{every}'


def render_topic(kmap: KnowledgeMap, topic: Topic, calculators: Calculators | None = None, map_html: str = "",
                 labels: dict[str, str] | None = None, siblings_shown: int = BuildSettings.siblings_shown) -> str:
    """The topic's page. ``labels``: author-year labels of every source the map lists (so that
    "Smith, 2024a" names the same source on every page); by default, of this page's sources.
    A big layer lists ``siblings_shown`` topics next to this one (BuildSettings)."""
    page = topic_page(topic)
    listed = page_sources(kmap, topic, calculators)
    labels = labels if labels is not None else reference_labels(listed)
    return block(
        _front_matter(topic),
        _breadcrumb(kmap, topic, page),
        f"# {md_text(topic.title)}",
        f'<p class="lm-summary">{inline(topic.summary)}</p>',
        _depth_index(kmap, topic),
        _depths(kmap, topic, calculators, labels),
        _examples(topic),
        _connections(kmap, topic, page, map_html),
        _siblings(kmap, topic, page, siblings_shown),
        _sources(topic, listed, labels),
        previews_html(linked_topics(kmap, topic, siblings_shown)),
    ) + "\n"


def linked_topics(kmap: KnowledgeMap, topic: Topic, siblings_shown: int) -> list[Topic]:
    """The other topics a topic page links to: its neighbours, what its depths say to read first, its siblings."""
    first = [step.topic for key, _ in topic.depths.present() for step in kmap.learning_plan(topic, key).first]
    return [*kmap.neighbours(topic), *first, *nearby_siblings(kmap, topic, siblings_shown)]
