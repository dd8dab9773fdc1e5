"""Prerequisite edges at `check`: a cycle named, a missing depth, a topic that needs nothing."""

from __future__ import annotations

from generator.checks.references import check_topics
from generator.content.schema import MapConfig
from tests.generator.checks.test_references import topic

MAP = MapConfig.model_validate({
    "title": "M", "introduction": "I",
    "depths": [{"key": k, "name": k, "audience": "A"} for k in ("D1", "D2", "D3", "D4", "D5")],
    "layers": [{"number": n, "name": f"L{n}", "description": "d"} for n in (1, 2, 3)],
    "edge_kinds": [{"id": "powers", "label": "powers"}, {"id": "needs", "label": "needs", "prerequisite": True}],
})


def needs(subject: str, obj: str, depth: str | None = None) -> str:
    at = f", depth: {depth}" if depth else ""
    return f"  - {{subject: {subject}, verb: needs, object: {obj}, kind: needs{at}}}\n"


def test_a_map_of_prerequisites_without_problems() -> None:
    found = check_topics([topic("a"), topic("b", "edges:\n" + needs("b", "a", "D1"), layer=2)], MAP)
    assert found == []


def test_a_cycle_is_an_error_naming_it_at_one_of_its_edges() -> None:
    a = topic("a", "edges:\n" + needs("a", "c"), layer=2)
    b = topic("b", "edges:\n" + needs("b", "a"), layer=2)
    c = topic("c", "edges:\n" + needs("c", "b"), layer=3)
    found = [d for d in check_topics([a, b, c], MAP) if d.severity == "error"]
    assert len(found) == 1
    assert found[0].message == "prerequisites go round in a circle: a → needs → c → needs → b → needs → a"
    assert (found[0].file, found[0].path, found[0].line) == ("content/a.yaml", "edges[0]", 9)
    assert "remove or reverse one of these edges" in found[0].hint


def test_needing_a_depth_the_other_topic_lacks_is_an_error() -> None:
    found = check_topics([topic("a"), topic("b", "edges:\n" + needs("b", "a", "D3"), layer=2)], MAP)
    assert [(d.severity, d.path, d.message) for d in found] == [
        ("error", "edges[0].depth", "`a` has no D3, so `b` cannot need it at D3")]
    assert "use one of its depths (D1)" in found[0].hint


def test_a_topic_above_the_lowest_layer_that_needs_nothing_is_a_warning() -> None:
    found = check_topics([topic("a"), topic("b", layer=2)], MAP)
    assert [(d.severity, d.file, d.path) for d in found] == [("warning", "content/b.yaml", "id")]
    assert "learning plan is itself alone" in found[0].message and "kind `needs`" in found[0].hint


def test_a_map_without_a_prerequisite_kind_is_not_asked_for_any() -> None:
    plain = MAP.model_copy(update={"edge_kinds": [MAP.edge_kinds[0]]})
    assert check_topics([topic("a"), topic("b", layer=2)], plain) == []
