"""`layermap` with proposed changes patched in, for ``build_scale.py --what-if``.

Measurement only: nothing here is used by the generator.  It runs the normal CLI after
replacing, in memory, the parts named in ``LAYERMAP_WHAT_IF`` (comma-separated):

* ``siblings``: the "More in <layer>" list shows at most ``SIBLINGS`` topics, the ones
  next to this topic in the layer's alphabetical order, then a link to the layer page
  with all of them (today it lists every other topic of the layer, with its summary);
* ``search``: the "More in <layer>" section is left out of the search index
  (``data-search-exclude`` on its heading): it only repeats other pages' summaries;
* ``nav``: layers with more than ``CHUNK`` topics are split in the navigation into
  sub-sections of at most ``CHUNK`` topics (the experiment behind ``NAV_GROUP`` in
  ``generator/pages.py``, which now does this itself);
* ``navgroup=N``: ``NAV_GROUP`` (the largest navigation group) set to N;
* ``flatnav``: the navigation as it was before ``NAV_GROUP``: every topic of a layer
  directly in the layer's section (to measure "before").
"""

from __future__ import annotations

import os
import sys

from generator import pipeline
from generator.content.schema import Topic
from generator.model.graph import KnowledgeMap
from generator.render import pages
from generator.render import topic as topic_render
from generator.render.pages import NavItem
from generator.render.paths import HOME, layer_label, layer_page, link, topic_page

SIBLINGS = 10
CHUNK = 25


def nearby_siblings(kmap: KnowledgeMap, topic: Topic, page: str) -> str:
    topics = kmap.topics_by_layer[topic.layer]
    if len(topics) <= 1:
        return ""
    at = next(i for i, t in enumerate(topics) if t.id == topic.id)
    half = SIBLINGS // 2
    start = max(0, min(at - half, len(topics) - SIBLINGS - 1))
    near = [t for t in topics[start:start + SIBLINGS + 1] if t.id != topic.id][:SIBLINGS]
    layer = kmap.layer_of(topic)
    items = "\n".join(f"- [{t.title}]({link(page, topic_page(t))})  \n  {t.summary}" for t in near)
    more = ""
    if len(topics) - 1 > len(near):
        more = f"\n\n[All {len(topics)} topics in {layer_label(layer)}]({link(page, layer_page(layer.number))})"
    return f"## More in {layer_label(layer)} {{ #siblings }}\n\n{items}{more}"


def search_excluded(siblings):  # noqa: ANN001, ANN201 - wraps either _siblings
    def render(kmap: KnowledgeMap, topic: Topic, page: str) -> str:
        return siblings(kmap, topic, page).replace("{ #siblings }", "{ #siblings data-search-exclude }", 1)
    return render


def _initials(title: str) -> str:
    return title[:2].capitalize()


def chunked_navigation(kmap: KnowledgeMap) -> list[NavItem]:
    nav: list[NavItem] = [{"Home": HOME}]
    for layer in kmap.layers:
        topics = kmap.topics_by_layer[layer.number]
        entries: list[NavItem] = [layer_page(layer.number)]
        if len(topics) <= CHUNK:
            entries += [{t.title: topic_page(t)} for t in topics]
        else:
            for i in range(0, len(topics), CHUNK):
                part = topics[i:i + CHUNK]
                label = f"{_initials(part[0].title)} – {_initials(part[-1].title)}"
                entries.append({label: [{t.title: topic_page(t)} for t in part]})
        nav.append({layer_label(layer): entries})
    return nav


def flat_navigation(kmap: KnowledgeMap) -> list[NavItem]:
    nav: list[NavItem] = [{"Home": HOME}]
    for layer in kmap.layers:
        entries: list[NavItem] = [layer_page(layer.number)]
        entries += [{t.title: topic_page(t)} for t in kmap.topics_by_layer[layer.number]]
        nav.append({layer_label(layer): entries})
    return nav


def main() -> int:
    changes = {c.strip() for c in os.environ.get("LAYERMAP_WHAT_IF", "").split(",") if c.strip()}
    group = next((c for c in changes if c.startswith("navgroup=")), None)
    if group:
        changes.discard(group)
        pages.NAV_GROUP = int(group.split("=", 1)[1])
    unknown = changes - {"siblings", "search", "nav", "flatnav"}
    if unknown:
        print(f"unknown what-if change(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if "siblings" in changes:
        topic_render._siblings = nearby_siblings
    if "search" in changes:
        topic_render._siblings = search_excluded(topic_render._siblings)
    if "nav" in changes:
        pipeline.navigation = chunked_navigation
    if "flatnav" in changes:
        pipeline.navigation = flat_navigation
    from generator.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
