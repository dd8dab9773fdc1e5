"""A topic's page as the engine would make it of the page's Markdown, rendered here instead.

``render/topic.py`` writes each topic page as Markdown with raw HTML (``markdown`` attributes,
read by Python-Markdown's ``md_in_html``); converting that whole page is most of an engine build.
This module renders the same page from the typed model: the page's frame as HTML written here,
and only the Markdown fields converted, one by one (:class:`ProseConverter`). What it returns,
:class:`RenderedPage`, is what the engine learns when it converts the page itself: the content
(sanitised, as the sanitiser hook leaves it), the table of contents, the ids on the page and the
links to anchors. ``emit/engine/prerendered.py`` hands it to the engine, which then does not convert the page.

The contract, checked by ``tests/generator/render/test_topic_html.py`` on every topic of the map
and of a synthetic one: the content is the engine's (once layermap's site links in it are made
relative to the page, as the finishing step does: ``emit/site_links.py``), element for element,
attribute for attribute and word for word (white space between elements aside, which the built page collapses anyway),
and the table of contents, ids and links are the engine's exactly. A page with something only the
engine can judge (a heading inside a Markdown field, a link this module cannot resolve, a Markdown
field that is not one paragraph where the engine reads it as a run of text) raises
:class:`LeftToEngine`, and the engine converts that page as before.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from markdown.extensions.toc import slugify, strip_tags, unique

from generator.content.sanitise import sanitised_content
from generator.content.schema import Depth, DepthLevel, Exercise, Flow, Topic
from generator.model.graph import KnowledgeMap, MapEdge
from generator.render.citations import reference_labels, render_citations, source_anchor
from generator.render.depth import TRY_IT, depth_anchor, depths_served, render_depth_switcher
from generator.render.escape import code_block, markdown_block, md_prose_text, md_text
from generator.render.paths import HOME, SOURCES_PAGE, layer_label, layer_page, site_link, topic_page
from generator.render.ports import Calculators
from generator.render.previews import previews_html
from generator.render.prose_converter import Links, ProseConverter, RenderedPage, plain_text
from generator.render.read_first import read_first_html, read_mark_html
from generator.render.text import attr, inline, long_date
from generator.render.topic import format_source, linked_topics, page_sources, sibling_listing
from generator.settings import BuildSettings

PERMALINK = '<a class="headerlink" href="#{0}" title="Permanent link">&para;</a>'
_TAG = re.compile(r"<([a-zA-Z][\w:-]*)(\s[^<>]*)>")
_ID = re.compile(r"""\s(id|name)=(?:"([^"]*)"|'([^']*)')""")

# --- the elements md_in_html makes ----------------------------------------------------------------


def _attributes(pairs: Iterable[tuple[str, str]]) -> str:
    """As Python-Markdown writes an element: attributes by name (all given here have a value)."""
    return "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in sorted(pairs))


def element(tag: str, pairs: Iterable[tuple[str, str]], *children: str) -> str:
    inner = "\n".join(child.strip("\n") for child in children if child and child.strip())
    return f"<{tag}{_attributes(pairs)}>\n{inner}\n</{tag}>"


def _join(*parts: str) -> str:
    return "\n".join(part.strip("\n") for part in parts if part and part.strip())


# --- the page ---------------------------------------------------------------------------------------


@dataclass
class _Page:
    """One page being written: its path, the converter, its links and its headings."""

    path: str
    prose: ProseConverter
    links: Links
    headings: list[dict] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    def url(self, to_page: str) -> str:
        return site_link(to_page)

    def link(self, to_page: str, text_html: str) -> str:
        return f'<a href="{attr(self.url(to_page))}">{text_html}</a>'

    def anchor_link(self, anchor: str, text_html: str) -> str:
        self.links.add(self.path, anchor, f"#{anchor}")
        return f'<a href="#{attr(anchor)}">{text_html}</a>'

    def heading(self, level: int, inner: str, anchor: str, label: str = "", extra: Iterable[tuple[str, str]] = ()) -> str:
        """A heading as the toc extension leaves it: its id, its permalink, its place in the contents."""
        self.headings.append({"level": level, "id": anchor, "name": label or strip_tags(inner)})
        self.ids.add(anchor)
        self.links.add(self.path, anchor, f"#{anchor}")
        return f"<h{level}{_attributes([('id', anchor), *extra])}>{inner}{PERMALINK.format(anchor)}</h{level}>"

    def text(self, value: str) -> str:
        return plain_text(value)


def _breadcrumb(kmap: KnowledgeMap, topic: Topic, page: _Page) -> str:
    layer = kmap.layer_of(topic)
    crumbs = f"{page.link(HOME, page.text(kmap.config.title))} › {page.link(layer_page(layer.number), page.text(layer_label(layer)))}"
    return element("nav", [("class", "lm-breadcrumb"), ("aria-label", "Breadcrumb")], f"<p>{crumbs}</p>")


def _depth_index(kmap: KnowledgeMap, topic: Topic, page: _Page) -> str:
    names = {level.key: level.name for level in kmap.config.depths}
    links = " · ".join(page.anchor_link(depth_anchor(key), f"{key} {page.text(names[key])}") for key, _ in topic.depths.present())
    return element("nav", [("class", "lm-depth-index"), ("aria-label", "Depth levels")], f"<p>Depths: {links}</p>")


def _switcher(kmap: KnowledgeMap, served: dict[str, list[str]], page: _Page) -> str:
    levels = {level.key: level.name for level in kmap.config.depths}
    return page.prose.raw(render_depth_switcher(levels, served))


def _flow(flow: Flow, page: _Page, cite: Callable[[str], str]) -> str:
    steps = "\n".join(
        f"{n}. **{md_text(step.label)}**" + (f"  \n    {cite(markdown_block(step.detail))}" if step.detail else "")
        for n, step in enumerate(flow.steps, start=1))
    source = f"**{cite(md_prose_text(flow.title))}**\n{{ .lm-flow-title }}\n\n{steps}"
    return element("div", [("class", "lm-flow")], page.prose.block(source))


def _answer(exercise: Exercise, end: str, page: _Page, cite: Callable[[str], str]) -> str:
    if not (exercise.answer or end):
        return ""
    summary = "Show answer" if exercise.answer else "Show where it ends"
    text = page.prose.span(cite(markdown_block(exercise.answer))) if exercise.answer else ""
    if not end:  # md_in_html ends a run of text with its element's end tag, on the same line
        return f'<details class="lm-answer">\n<summary>{summary}</summary>\n{text.strip()}</details>'
    return element("details", [("class", "lm-answer")], f"<summary>{summary}</summary>", text, end)


def _playable(exercise: Exercise, instance: str | None, calculators: Calculators | None, depth: Depth) -> tuple[list, str]:
    if not (exercise.steps and instance and calculators and depth.calculator):
        return [], ""
    view = calculators.exercise(depth.calculator.name, dict(depth.calculator.values), exercise)
    pairs = [("data-calculator", instance), ("data-plan", json.dumps(view.plan, separators=(",", ":")))]
    rows = "".join(f'<dt>{inline(label)}</dt><dd data-end-output="{name}">{inline(value)}</dd>' for name, label, value in view.end)
    return pairs, f'<div class="lm-exercise-end"><p class="lm-exercise-end-title">Where it ends:</p><dl>{rows}</dl></div>'


def _depth_heading(key: str, title: str, page: _Page) -> str:
    anchor = f"{key.lower()}-{title.lower().replace(' ', '-')}"
    hidden = f'<span class="lm-visually-hidden">{key} · </span>'
    return page.heading(3, hidden + page.text(title), anchor, label=str(inline(f"{key} · {title}")))


def _exercises(key: str, depth: Depth, page: _Page, cite: Callable[[str], str], instance: str | None,
               calculators: Calculators | None) -> str:
    items = []
    for exercise in depth.exercises:
        pairs, end = _playable(exercise, instance, calculators, depth)
        end = page.prose.raw(end) if end else ""
        prompt = page.prose.span(cite(markdown_block(exercise.prompt)))
        items.append(element("li", [("class", "lm-exercise"), *pairs], prompt, TRY_IT if pairs else "",
                             _answer(exercise, end, page, cite)))
    return _join(_depth_heading(key, "Things to try", page), element("ol", [("class", "lm-exercises")], *items))


def _depth(key: str, level: DepthLevel, depth: Depth, page: _Page, cite: Callable[[str], str],
           calculators: Calculators | None, serves: list[str], read_first: str, read_mark: str) -> str:
    anchor = depth_anchor(key)
    page.ids.add(anchor)
    heading = page.heading(2, f"{key} · {page.text(level.name)}", f"{anchor}-title")
    audience = f'<p class="lm-audience">{inline("For " + level.audience[0].lower() + level.audience[1:])}</p>'
    parts = [heading, audience, page.prose.raw(read_first) if read_first else ""]
    if depth.hook:
        hook = page.prose.span(cite(md_prose_text(depth.hook)))
        parts.append(f'<p class="lm-hook"><span class="lm-label">Think about it:</span> {hook}</p>')
    if depth.body:
        parts.append(page.prose.block(cite(markdown_block(depth.body))))
    if depth.flow:
        parts.append(_flow(depth.flow, page, cite))
    tail = [f"**Like:** {cite(markdown_block(depth.analogy))}" if depth.analogy else "",
            f"**Where it breaks:** {cite(markdown_block(depth.breaks))}" if depth.breaks else "",
            code_block(depth.formulas) if depth.formulas else ""]
    parts += [page.prose.block(text) for text in tail if text]
    instance = None
    if depth.calculator:
        if calculators is None:
            raise RuntimeError("a calculator is referenced but no calculator renderer was given")
        instance = f"calc-{depth.calculator.name}-{key.lower()}"
        parts.append(page.prose.raw(calculators.html(depth.calculator.name, instance, dict(depth.calculator.values))))
    if depth.exercises:
        parts.append(_exercises(key, depth, page, cite, instance, calculators))
    if depth.tradeoffs:
        listed = "\n".join(f"- {cite(markdown_block(t))}" for t in depth.tradeoffs)
        parts.append(_join(_depth_heading(key, "Trade-offs", page), page.prose.block(listed)))
    parts.append(page.prose.raw(read_mark))
    pairs = [("class", "lm-depth"), ("id", anchor), ("data-depth", key), ("data-depth-name", level.name),
             ("data-serves", " ".join(serves)), ("aria-labelledby", f"{anchor}-title")]
    return element("section", pairs, *parts)


def _depths(kmap: KnowledgeMap, topic: Topic, page: _Page, calculators: Calculators | None, labels: dict[str, str]) -> str:
    levels = {level.key: level for level in kmap.config.depths}

    def cite(text: str) -> str:
        return render_citations(calculators.expand(text) if calculators else text, kmap.sources, labels=labels)

    keys = [key for key, _ in topic.depths.present()]
    served = depths_served(list(levels), keys)
    sections = [_depth(key, levels[key], depth, page, cite, calculators, served[key], read_first_html(kmap, topic, key),
                       read_mark_html(topic, key))
                for key, depth in topic.depths.present()]
    pairs = [("class", "lm-depths"), ("data-topic", topic.id), ("data-depths", " ".join(keys))]
    return element("div", pairs, _switcher(kmap, served, page), *sections)


def _examples(topic: Topic, page: _Page) -> str:
    if not topic.examples:
        return ""
    when = topic.examples.as_of
    items = "\n".join(f"- **{md_text(e.name)}** ({md_text(e.kind)})" for e in topic.examples.items)
    return _join(page.heading(2, "Examples", "examples"),
                 f'<p class="lm-as-of">As of <time datetime="{when.isoformat()}">{long_date(when)}</time>.</p>\n',
                 page.prose.block(items))


def _edge(edge: MapEdge, page: _Page, current: Topic) -> str:
    def name(topic: Topic) -> str:
        title = page.text(topic.title)
        return f"<strong>{title}</strong>" if topic.id == current.id else page.link(topic_page(topic), title)

    kind = f' <span class="lm-edge-kind" data-kind="{attr(edge.kind)}">{inline(edge.kind)}</span>' if edge.kind else ""
    return f"<li>{name(edge.subject)} {page.text(edge.verb)} {name(edge.object)}.{kind}</li>"


def _connections(kmap: KnowledgeMap, topic: Topic, page: _Page, map_html: str) -> str:
    edges = kmap.edges_by_topic[topic.id]
    if not edges:
        return ""
    listed = "<ul>\n" + "\n".join(_edge(e, page, topic) for e in edges) + "\n</ul>"
    return _join(page.heading(2, "How it connects", "connections"), map_html + ("\n" if map_html else ""),
                 element("div", [("class", "lm-connections")], listed))


def _siblings(kmap: KnowledgeMap, topic: Topic, page: _Page, limit: int) -> str:
    siblings, layer, total = sibling_listing(kmap, topic, limit)
    if not siblings:
        return ""
    items = "\n".join(f"<li>{page.link(topic_page(t), page.text(t.title))}<br>\n  {page.text(t.summary)}</li>" for t in siblings)
    more = (f"<p>{page.link(layer_page(layer.number), f'All {total} other topics in {page.text(layer_label(layer))}')}</p>"
            if total > len(siblings) else "")
    heading = page.heading(2, f"More in {page.text(layer_label(layer))}", "siblings", extra=[("data-search-exclude", "")])
    return _join(heading, f"<ul>\n{items}\n</ul>", more)


def _sources(topic: Topic, sources: list, labels: dict[str, str], page: _Page) -> str:
    if not sources:
        return ""
    items = "\n".join(f'<li id="{source_anchor(s.id)}">{format_source(s, labels.get(s.id, ""))}</li>' for s in sources)
    every = f"<p>Every source of the map, with the topics that cite it: {page.link(SOURCES_PAGE, 'Sources')}.</p>"
    heading = page.heading(2, "Sources", "sources", extra=[("data-search-exclude", "")])
    return _join(heading, f'<ol class="lm-sources">\n{items}\n</ol>\n', every)


def _nested(headings: list[dict]) -> list[dict]:
    """The toc extension's nesting: each heading under the nearest one before it of a higher level."""
    top: list[dict] = []
    stack: list[dict] = []
    for heading in headings:
        token = {**heading, "children": []}
        while stack and stack[-1]["level"] >= token["level"]:
            stack.pop()
        (stack[-1]["children"] if stack else top).append(token)
        stack.append(token)
    return top


def _anchors(html_text: str) -> list[str]:
    """The ids on the page, and the names of its ``<a>`` elements, as the engine collects them."""
    found = set()
    for tag, attributes in _TAG.findall(html_text):
        for name, double, single in _ID.findall(attributes):
            if name == "id" or tag == "a":
                found.add(html.unescape(double or single))
    return sorted(found)


def render_topic_html(kmap: KnowledgeMap, topic: Topic, prose: ProseConverter, calculators: Calculators | None = None,
                      map_html: str = "", labels: dict[str, str] | None = None,
                      siblings_shown: int = BuildSettings.siblings_shown) -> RenderedPage:
    """The topic's page as the engine would convert ``render_topic``'s Markdown of it (same arguments);
    raises :class:`LeftToEngine` for a page only the engine can convert."""
    path = topic_page(topic)
    page = _Page(path, prose, prose.start(path))
    listed = page_sources(kmap, topic, calculators)
    labels = labels if labels is not None else reference_labels(listed)
    breadcrumb = _breadcrumb(kmap, topic, page)
    title = page.text(topic.title)
    title_at = len(page.headings)
    later = [f'<p class="lm-summary">{inline(topic.summary)}</p>\n',
             _depth_index(kmap, topic, page),
             _depths(kmap, topic, page, calculators, labels),
             _examples(topic, page),
             _connections(kmap, topic, page, map_html),
             _siblings(kmap, topic, page, siblings_shown),
             _sources(topic, listed, labels, page),
             previews_html(linked_topics(kmap, topic, siblings_shown))]  # raw at the top level: as written
    # The title's id is worked out last, as the toc extension does: unique among the page's other ids.
    anchor = unique(slugify(html.unescape(strip_tags(title)), "-"), set(page.ids))
    h1 = page.heading(1, title, anchor)
    page.headings.insert(title_at, page.headings.pop())
    written = _join(breadcrumb, h1, *later)
    return RenderedPage(content=sanitised_content(written), toc=_nested(page.headings), anchors=_anchors(written),
                        links=_title_first(page.links.by_page, path, anchor))


def _title_first(by_page: dict[str, dict[str, str]], path: str, anchor: str) -> list[list]:
    """The title's permalink is the page's first link to an anchor, though its id is worked out last."""
    own = by_page.pop(path)
    return [[path, {anchor: own.pop(anchor), **own}], *([target, anchors] for target, anchors in by_page.items())]
