"""A topic page: breadcrumb, depths, examples, connections, siblings and numbered, linked sources."""

from __future__ import annotations

import re

import pytest
import yaml
from mini_project import BOARDS, MiniProject

from generator.model.graph import KnowledgeMap
from generator.render.topic import render_topic


@pytest.fixture
def kmap(mini: MiniProject) -> KnowledgeMap:
    mini.write("layer-2/boards.yaml", BOARDS + "edges:\n  - {subject: chips, verb: sit on, object: boards}\n")
    return mini.kmap()


def page(kmap: KnowledgeMap, tid: str) -> str:
    return render_topic(kmap, kmap.topics[tid])


def front_matter(text: str) -> dict:
    match = re.match(r"---\n(.*?)\n---\n", text, flags=re.S)
    assert match, "the page starts with front matter"
    return yaml.safe_load(match.group(1))


def test_front_matter_has_title_and_summary_as_description(kmap: KnowledgeMap) -> None:
    assert front_matter(page(kmap, "power")) == {"title": "Power", "description": "Electricity for everything above."}


def test_breadcrumb_links_home_and_the_layer(kmap: KnowledgeMap) -> None:
    text = page(kmap, "chips")
    crumb = re.search(r'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n(.*?)\n</nav>', text, flags=re.S)
    assert crumb and crumb.group(1) == "[Mini map](../index.md) › [Layer 2 · Middle](index.md)"
    assert text.index("lm-breadcrumb") < text.index("# Chips")


def test_every_present_depth_is_a_section_with_its_heading(kmap: KnowledgeMap) -> None:
    text = page(kmap, "power")
    sections = re.findall(r'<section class="lm-depth" id="depth-(d\d)" data-depth="(D\d)"', text)
    assert sections == [("d1", "D1"), ("d4", "D4")]
    assert "## D1 · Story" in text and "## D4 · Mechanism" in text
    assert "## D2 · Picture" not in text.split('<div class="lm-depths"', 1)[1]
    assert "[D1 Story](#depth-d1) · [D4 Mechanism](#depth-d4)" in text  # the index of depths
    d1 = text.split('id="depth-d1"', 1)[1].split("</section>", 1)[0]
    assert "Where does the light come from?" in d1 and "**How power arrives**" in d1
    assert "1. **Make**" in d1 and "2. **Carry**" in d1
    assert "**Like:** Like water in pipes." in d1
    d4 = text.split('id="depth-d4"', 1)[1].split("</section>", 1)[0]
    assert (r'### <span class="lm-visually-hidden">D4 · </span>Trade\-offs { #d4-trade-offs data-toc-label="D4 · Trade-offs" }'
            in d4)  # the depth in its id, its table-of-contents entry and its search result
    assert "- More power costs more money." in d4


def test_analogy_and_where_it_breaks(kmap: KnowledgeMap) -> None:
    text = page(kmap, "chips")
    assert "**Like:** Like a very fast abacus." in text
    assert "**Where it breaks:** An abacus needs a person." in text


def test_examples_carry_their_as_of_date(kmap: KnowledgeMap) -> None:
    text = page(kmap, "power")
    assert '<time datetime="2026-10-30">30 October 2026</time>' in text
    assert "- **Grid** (utility)" in text
    assert "## Examples" not in page(kmap, "chips")


def test_every_edge_is_a_linked_sentence_on_both_topics_pages(kmap: KnowledgeMap) -> None:
    power, chips, boards = page(kmap, "power"), page(kmap, "chips"), page(kmap, "boards")
    assert "- **Power** powers [Chips](../layer-2/chips.md)." in power
    assert "- [Power](../layer-1/power.md) powers **Chips**." in chips
    assert "- **Chips** sit on [Boards](boards.md)." in chips  # declared in boards.yaml
    assert "- [Chips](chips.md) sit on **Boards**." in boards
    assert 'data-kind="powers"' in power


def test_siblings_with_their_summaries(kmap: KnowledgeMap) -> None:
    text = page(kmap, "boards")
    siblings = text.split("## More in Layer 2 · Middle", 1)[1]
    assert "- [Chips](chips.md)  \n  Tiny calculators made of silicon." in siblings
    assert "[Boards]" not in siblings
    assert "## More in" not in page(kmap, "power")  # alone in its layer


def test_sources_are_numbered_and_citations_link_to_their_anchors(kmap: KnowledgeMap) -> None:
    text = page(kmap, "power")
    sources = text.split("## Sources", 1)[1]
    assert '<ol class="lm-sources">' in sources
    assert re.findall(r'<li id="(source-[^"]+)">', sources) == ["source-smith2020"]
    assert '<a href="https://example.org/power">All about power</a>' in sources
    assert "Smith, Alice; Jones, Bob; Lee, Carol." in sources and "2020-05-01." in sources
    links = re.findall(r'href="#(source-[^"]+)" class="lm-cite">([^<]+)</a>', text)
    assert links == [("source-smith2020", "Smith et al., 2020")]
    assert "[@smith2020]" not in text
    assert "[Sources](../sources.md)." in sources  # the map's list of every source


def test_sections_come_in_reading_order(kmap: KnowledgeMap) -> None:
    text = page(kmap, "power")
    order = ["# Power", 'class="lm-depths"', "## Examples", "## How it connects", "## Sources"]
    assert [text.index(marker) for marker in order] == sorted(text.index(marker) for marker in order)


def test_summary_is_escaped_in_html(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("Where chips are mounted.", "Chips <b>&</b> more."))
    kmap = mini.kmap()
    assert '<p class="lm-summary">Chips &lt;b&gt;&amp;&lt;/b&gt; more.</p>' in page(kmap, "boards")


def test_front_matter_survives_backslashes(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("title: Boards", 'title: Boards in C:\\data "quoted"'))
    assert front_matter(page(mini.kmap(), "boards"))["title"] == 'Boards in C:\\data "quoted"'


def test_citations_are_rendered_wherever_validation_accepts_them(mini: MiniProject) -> None:
    power = (mini.content / "layer-1" / "power.yaml").read_text()
    mini.write("layer-1/power.yaml", power.replace("come from?", "come from [@smith2020]?")
               .replace("title: How power arrives", "title: How power arrives [@smith2020]"))
    assert "[@smith2020]" not in page(mini.kmap(), "power")


def test_same_author_and_year_sources_are_told_apart_in_text_and_list(mini: MiniProject) -> None:
    power = (mini.content / "layer-1" / "power.yaml").read_text()
    mini.add_source("smith2020b", title="More about power", authors=["Smith, Alice", "Brown, Dan", "Lee, Carol"],
                    date="2020-09-01")
    power = power.replace("the wall [@smith2020]", "the wall [@smith2020; @smith2020b]")
    mini.write("layer-1/power.yaml", power)
    text = page(mini.kmap(), "power")
    links = re.findall(r'href="#(source-[^"]+)" class="lm-cite">([^<]+)</a>', text)
    assert links == [("source-smith2020", "Smith et al., 2020a"), ("source-smith2020b", "Smith et al., 2020b")]
    sources = text.split("## Sources", 1)[1]
    assert "2020-05-01 (cited as Smith et al., 2020a)." in sources
    assert "2020-09-01 (cited as Smith et al., 2020b)." in sources


def test_a_citation_of_a_calculators_datasheet_links_to_its_numbered_entry(mini: MiniProject) -> None:
    from generator.model.calculators import CalculatorBridge

    power = (mini.content / "layer-1" / "power.yaml").read_text()
    power = power.replace("    body: Watts are joules per second.",
                          "    body: Watts are joules per second [@nvidia-h100-datasheet].\n    calculator: {name: parallelism}")
    mini.write("layer-1/power.yaml", power)
    kmap = mini.kmap()
    text = render_topic(kmap, kmap.topics["power"], CalculatorBridge())
    links = re.findall(r'href="#(source-[^"]+)" class="lm-cite">([^<]+)</a>', text)
    from calculators._datasheets import SHARED

    year = SHARED["nvidia-h100-datasheet"]["date"][:4]
    assert ("source-nvidia-h100-datasheet", f"NVIDIA, {year}") in links
    assert re.search(r'<li id="source-nvidia-h100-datasheet">NVIDIA\. <cite>', text)
