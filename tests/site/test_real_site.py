"""The real content, built once: every page and section the map promises is there."""

from __future__ import annotations

import pytest

from generator.model.graph import KnowledgeMap
from generator.render.topic import cited_keys_of
from tests.conftest import ROOT, BuiltSite, real_map
from tests.site.html_scan import is_external, local_target, read_page


@pytest.fixture(scope="module")
def kmap() -> KnowledgeMap:
    return real_map()


def topic_html(site: BuiltSite, layer: int, topic_id: str):
    return read_page(site.page(f"layer-{layer}/{topic_id}/index.html"))


def test_home_lists_every_layer_and_topic_with_its_summary(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    home = read_page(built_site.page("index.html"))
    assert kmap.config.title in home.text
    for layer in kmap.layers:
        assert f"Layer {layer.number} · {layer.name}" in home.text
    for topic in kmap.topics.values():
        assert topic.title in home.text and " ".join(topic.summary.split()) in home.text
        assert home.find("a", href=f"layer-{topic.layer}/{topic.id}/")


def test_each_layer_page_lists_exactly_its_topics(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    for layer in kmap.layers:
        page = read_page(built_site.page(f"layer-{layer.number}/index.html"))
        links = {e.attrs["href"] for e in page.elements if e.tag == "a" and e.attrs.get("href", "").count("/") == 1
                 and not e.attrs["href"].startswith(("#", "..", "http"))}
        in_layer = {f"{t.id}/" for t in kmap.topics_by_layer[layer.number]}
        assert in_layer <= links
        for topic in kmap.topics.values():
            if topic.layer != layer.number:
                assert f"{topic.id}/" not in links


def test_topic_pages_have_every_depth_and_section(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    for topic in kmap.topics.values():
        page = topic_html(built_site, topic.layer, topic.id)
        assert page.find("h1") and topic.title in page.text
        assert f"Layer {topic.layer} · {kmap.layer_of(topic).name}" in page.text  # breadcrumb
        for key, _ in topic.depths.present():
            section = page.by_id(f"depth-{key.lower()}")
            assert section is not None and section.tag == "section"
            assert page.by_id(f"depth-{key.lower()}-title").tag == "h2"
        if topic.examples:
            assert page.by_id("examples") and "As of" in page.text
        for sibling in kmap.siblings(topic):
            assert sibling.title in page.text
        for key in cited_keys_of(topic):
            assert page.by_id(f"source-{key}").tag == "li"


def test_every_edge_is_a_linked_sentence_on_both_topic_pages(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    assert kmap.edges, "the map should have edges"
    for edge in kmap.edges:
        sentence = f"{edge.subject.title} {edge.verb} {edge.object.title}."
        for end, other in ((edge.subject, edge.object), (edge.object, edge.subject)):
            page = topic_html(built_site, end.layer, end.id)
            assert sentence in page.text, (end.id, sentence)
            hrefs = [e.attrs.get("href", "") for e in page.find("a")]
            assert any(h.endswith(f"layer-{other.layer}/{other.id}/") or h == f"../{other.id}/" for h in hrefs)


def test_citations_render_author_year_and_jump_to_their_source(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    page = topic_html(built_site, 3, "gpu-clusters")
    assert "Grattafiori et al., 2024" in page.text
    cites = [e for e in page.elements if e.tag == "a" and "lm-cite" in e.attrs.get("class", "")]
    assert cites
    for cite in cites:
        assert page.by_id(cite.attrs["href"].lstrip("#")) is not None


def test_the_sources_page_lists_every_topics_sources_once(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    page = read_page(built_site.page("sources/index.html"))
    text = " ".join(page.text.split())
    titles = {" ".join(kmap.sources[k].title.split()) for t in kmap.topics.values() for k in cited_keys_of(t)}
    assert titles and all(text.count(title) >= 1 for title in titles)
    grattafiori = "The Llama 3 Herd of Models"
    assert text.count(grattafiori) == 1  # cited by several topics, listed once
    listed_by = [e.attrs["href"] for e in page.elements if e.tag == "a" and e.attrs.get("href", "").endswith("#sources")]
    assert {f"../layer-{t.layer}/{t.id}/#sources" for t in kmap.topics.values() if cited_keys_of(t)} <= set(listed_by)


def test_gpu_clusters_carries_the_reference_card(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    topic = kmap.topics["gpu-clusters"]
    assert [key for key, _ in topic.depths.present()] == ["D1", "D2", "D3", "D4", "D5"]
    card_sources = {"shoeybi2019", "narayanan2021", "rajbhandari2019", "kaplan2020", "grattafiori2024", "kokolis2024", "cottier2024"}
    assert card_sources <= set(cited_keys_of(topic))
    assert topic.examples and str(topic.examples.as_of) >= "2026-10-30"  # checked since the card was carried over
    assert len(kmap.edges_by_topic["gpu-clusters"]) >= 6
    assert {t.id for t in kmap.siblings(topic)} >= {"cluster-networking", "gpu-clouds", "training-vs-inference", "local-vs-cloud"}
    page = topic_html(built_site, 3, "gpu-clusters")
    assert "More in Layer 3 · Cloud & Infrastructure" in page.text
    as_of = topic.examples.as_of
    assert f"{as_of.day} {as_of:%B %Y}" in page.text  # the examples say when they were checked


def test_no_page_loads_anything_from_another_host(built_site: BuiltSite) -> None:
    offenders = [f"{p.relative_to(built_site.site)}: {u}" for p in built_site.site.rglob("*.html")
                 for u in read_page(p).loaded_urls() if is_external(u)]
    assert offenders == []


def test_every_internal_link_of_the_real_site_resolves(built_site: BuiltSite) -> None:
    site, broken = built_site.site, []
    for page in site.rglob("*.html"):
        for element in read_page(page).find("a"):
            href = element.attrs.get("href", "").split("#")[0]
            target = local_target(site, page, href) if href else None
            if target is not None and not target.exists():
                broken.append(f"{page.relative_to(site)} → {href}")
    assert broken == []


def test_search_entries_inside_a_depth_say_which_depth_and_link_into_it(built_site: BuiltSite, kmap: KnowledgeMap) -> None:
    """A search hit under "Things to try" or "Trade-offs" names its depth, and its link's id is inside
    that depth's section (the head script opens the depth holding a linked id)."""
    import json

    index = json.loads(built_site.page("search/search_index.json").read_text(encoding="utf-8"))["docs"]
    checked = 0
    for topic in kmap.topics.values():
        page = topic_html(built_site, topic.layer, topic.id)
        html = built_site.page(f"layer-{topic.layer}/{topic.id}/index.html").read_text(encoding="utf-8")
        for key, depth in topic.depths.present():
            for title, present in (("Things to try", depth.exercises), ("Trade-offs", depth.tradeoffs)):
                if not present:
                    continue
                anchor = f"{key.lower()}-{title.lower().replace(' ', '-')}"
                entry = next(e for e in index if e["location"] == f"layer-{topic.layer}/{topic.id}/#{anchor}")
                assert entry["title"] == f"{key} · {title}"
                heading = page.by_id(anchor)
                assert heading is not None and heading.tag == "h3"
                assert f'id="depth-{key.lower()}"' in html[:html.index(f'id="{anchor}"')].rsplit("<section", 1)[-1]
                checked += 1
    assert checked >= 10
