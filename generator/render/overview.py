"""The home page and the layer pages: every layer with its topics and summaries."""

from __future__ import annotations

from generator.content.schema import Layer
from generator.model.graph import KnowledgeMap
from generator.render.escape import markdown_block, md_text
from generator.render.paths import HOME, OFFLINE_COPY, SOURCES_PAGE, layer_label, layer_page, link, site_link, topic_page
from generator.render.plan import plan_picker
from generator.render.text import block, front_matter, inline


def _topic_list(kmap: KnowledgeMap, layer: Layer, page: str) -> str:
    topics = kmap.topics_by_layer[layer.number]
    if not topics:
        return "*No topics yet.*"
    return "\n".join(f"- [{md_text(t.title)}]({link(page, topic_page(t))})  \n  {md_text(t.summary)}" for t in topics)


def download_note() -> str:
    """The home page's link to the downloadable copy (raw HTML: the zip is not a page the engine knows)."""
    return (f'<p class="lm-download"><strong>Read it without a connection:</strong> <a href="{site_link(OFFLINE_COPY)}">'
            "download the whole map</a> as one ZIP file, unzip it and open <code>index.html</code> "
            "(pages, map and search work from disk; calculators show their numbers as built).</p>")


def render_home(kmap: KnowledgeMap, map_html: str = "") -> str:
    layers = [
        f"### [{md_text(layer_label(layer))}]({link(HOME, layer_page(layer.number))}) {{ #layer-{layer.number} }}\n\n"
        f"{md_text(layer.description)}\n\n{_topic_list(kmap, layer, HOME)}"
        for layer in kmap.layers
    ]
    depths = "\n".join(f"- **{d.key} · {md_text(d.name)}**: for {md_text(d.audience[0].lower() + d.audience[1:])}"
                       for d in kmap.config.depths)
    return block(
        front_matter(title=kmap.config.title),
        f"# {md_text(kmap.config.title)}",
        markdown_block(kmap.config.introduction),
        download_note(),
        plan_picker(kmap) if kmap.prerequisites else "",
        map_html,
        "## Depth levels { #depths }",
        depths,
        "## Layers { #layers }",
        *layers,
        f"Every source the topics cite is listed once on [Sources]({link(HOME, SOURCES_PAGE)}).",
    ) + "\n"


def render_layer(kmap: KnowledgeMap, layer: Layer, map_html: str = "") -> str:
    page = layer_page(layer.number)
    count = len(kmap.topics_by_layer[layer.number])
    return block(
        front_matter(title=layer_label(layer)),
        f'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n[{md_text(kmap.config.title)}]({link(page, HOME)})\n</nav>',
        f"# {md_text(layer_label(layer))}",
        f'<p class="lm-summary">{inline(layer.description)}</p>',
        f"## Topics ({count}) {{ #topics }}",
        _topic_list(kmap, layer, page),
        map_html,
    ) + "\n"
