"""What the built site's search index holds, and what it leaves to other pages: a hit lands on
text, never on the drawn map, and a topic's sources are found on the Sources page."""

from __future__ import annotations

import json

from tests.conftest import BuiltSite


def _entries(built_site: BuiltSite) -> list[dict]:
    return json.loads(built_site.page("search/search_index.json").read_text(encoding="utf-8"))["docs"]


def test_a_topic_connections_are_indexed_as_text_and_not_as_the_drawing(built_site: BuiltSite) -> None:
    entries = _entries(built_site)
    connections = [e for e in entries if e["location"] == "layer-3/gpu-clusters/#connections"]
    assert len(connections) == 1
    terms = set(connections[0]["text"].split())  # the lean index keeps each term once (emit/search_terms.py)
    assert {"GPU", "clouds", "neoclouds"} <= terms  # the list of connections, each a sentence
    drawn = [e["location"] for e in entries if "Local map of" in e["text"] or "each a link" in e["text"]]
    assert drawn == []  # the map's SVG (its title, description and boxes) is not indexed
    controls = [e["location"] for e in entries if "Skip the map" in e["text"] or "scaled to fit" in e["text"]]
    assert controls == []  # nor its skip link and its hint for phones


def test_a_topic_sources_are_indexed_on_the_sources_page_only(built_site: BuiltSite) -> None:
    entries = _entries(built_site)
    topic_sources = [e["location"] for e in entries
                     if e["location"].endswith("/#sources") and not e["location"].startswith("sources/")]
    assert topic_sources == []
    sources_page = [e for e in entries if e["location"].startswith("sources/")]
    assert sources_page and any("Grattafiori" in e["text"] for e in sources_page)
