"""Every renderer escapes plain-text fields for where they land: a hostile value in each field of
the mini project, rendered to Markdown, then to HTML as the engine would, stays text."""

from __future__ import annotations

import re
from html import unescape

import markdown
import pytest
import yaml
from mini_project import MiniProject

from generator.model.graph import KnowledgeMap
from generator.render.bibliography import render_bibliography
from generator.render.overview import render_home, render_layer
from generator.render.pages import navigation
from generator.render.topic import render_topic

EXTENSIONS = ["attr_list", "tables", "md_in_html", "admonition", "pymdownx.details", "pymdownx.superfences",
              "pymdownx.highlight", "toc"]
BAD = '<img src=x onerror=y()> [l](javascript:y) *e*'


def bad(field: str) -> str:
    return f"{field} {BAD}"


@pytest.fixture
def kmap(mini: MiniProject) -> KnowledgeMap:
    config = yaml.safe_load((mini.content / "map.yaml").read_text())
    config["title"] = bad("map-title")
    config["depths"][0].update(name=bad("depth-name"), audience=bad("Depth-audience"))
    config["layers"][0].update(name=bad("layer-name"), description=bad("layer-description"))
    (mini.content / "map.yaml").write_text(yaml.safe_dump(config))
    topic = yaml.safe_load((mini.content / "layer-1" / "power.yaml").read_text())
    topic.update(title=bad("topic-title"), summary=bad("topic-summary"))
    d1 = topic["depths"]["D1"]
    d1.update(hook=bad("hook") + " [@smith2020]", formulas="x = 1\n```\n" + bad("formulas"))
    d1["flow"]["title"] = bad("flow-title")
    d1["flow"]["steps"][0]["label"] = bad("step-label")
    topic["examples"]["items"][0].update(name=bad("example-name"), kind=bad("example-kind"))
    topic["edges"][0]["verb"] = bad("edge-verb")
    (mini.content / "layer-1" / "power.yaml").write_text(yaml.safe_dump(topic))
    sources = yaml.safe_load((mini.content / "sources.yaml").read_text())
    sources["sources"]["smith2020"]["authors"][0] = bad("author").replace(" ", "_") + ", Alice"
    (mini.content / "sources.yaml").write_text(yaml.safe_dump(sources))
    return mini.kmap()


def html_of(page: str) -> str:
    body = re.sub(r"\A---\n.*?\n---\n", "", page, flags=re.S)
    return markdown.markdown(body, extensions=EXTENSIONS)


def assert_escaped(html: str, *fields: str) -> None:
    assert "<img" not in html and 'href="javascript' not in html and "<em>" not in html
    text = unescape(re.sub(r"<[^>]+>", "", html))
    for field in fields:
        assert f"{field} {BAD}" in text, field


def test_topic_page(kmap: KnowledgeMap) -> None:
    html = html_of(render_topic(kmap, kmap.topics["power"]))
    assert_escaped(html, "topic-title", "topic-summary", "hook", "flow-title", "step-label", "example-name",
                   "example-kind", "edge-verb", "map-title", "layer-name", "depth-name", "formulas")
    assert "author_&lt;img_src=x_onerror=y()&gt;_[l](javascript:y)_*e* et al., 2020" in html


def test_home_and_layer_pages(kmap: KnowledgeMap) -> None:
    assert_escaped(html_of(render_home(kmap)), "map-title", "depth-name", "depth-audience", "layer-name",
                   "layer-description", "topic-title", "topic-summary")
    assert_escaped(html_of(render_layer(kmap, kmap.layers[0])), "map-title", "layer-name", "layer-description",
                   "topic-title", "topic-summary")


def test_sources_page(kmap: KnowledgeMap) -> None:
    assert_escaped(html_of(render_bibliography(kmap)), "map-title", "topic-title")


def test_front_matter_and_navigation_titles_are_html_escaped(kmap: KnowledgeMap) -> None:
    page = render_topic(kmap, kmap.topics["power"])
    meta = yaml.safe_load(page.split("---\n")[1])
    assert meta["title"] == "topic-title &lt;img src=x onerror=y()&gt; [l](javascript:y) *e*"
    assert meta["description"].startswith("topic-summary &lt;img src=x onerror=y()&gt;")
    layer = navigation(kmap)[1]
    (label, entries), = layer.items()
    assert label.startswith("Layer 1 · layer-name &lt;img")
    assert entries[1] == {meta["title"]: "layer-1/power.md"}
