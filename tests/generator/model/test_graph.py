"""The map computed once: edges seen from both ends, siblings, neighbours."""

from __future__ import annotations

import pytest
from mini_project import BOARDS, MiniProject

from generator.model.graph import KnowledgeMap


@pytest.fixture
def kmap(mini: MiniProject) -> KnowledgeMap:
    mini.write("layer-2/boards.yaml", BOARDS + "edges:\n"
               "  - {subject: chips, verb: sit on, object: boards}\n"
               "  - {subject: boards, verb: carry power to, object: chips}\n")
    mini.write("layer-2/adapters.yaml", "id: adapters\ntitle: adapters\nlayer: 2\nsummary: Plugs.\n"
               "depths:\n  D1:\n    body: Adapters adapt.\n")
    mini.write("layer-1/zinc.yaml", "id: zinc\ntitle: Zinc\nlayer: 1\nsummary: A metal.\n"
               "depths:\n  D1:\n    body: Zinc.\nedges:\n  - {subject: zinc, verb: coats, object: zinc}\n")
    return mini.kmap()


def ids(topics) -> list[str]:  # noqa: ANN001
    return [t.id for t in topics]


def test_layers_and_topics(kmap: KnowledgeMap) -> None:
    assert [layer.number for layer in kmap.layers] == [1, 2]
    assert sorted(kmap.topics) == ["adapters", "boards", "chips", "power", "zinc"]
    assert kmap.layer_of(kmap.topics["chips"]).name == "Middle"
    assert kmap.source_file["boards"] == "content/layer-2/boards.yaml"


def test_topics_by_layer_are_sorted_by_title_ignoring_case(kmap: KnowledgeMap) -> None:
    assert ids(kmap.topics_by_layer[2]) == ["adapters", "boards", "chips"]
    assert ids(kmap.topics_by_layer[1]) == ["power", "zinc"]


def test_siblings_are_the_other_topics_of_the_layer_in_order(kmap: KnowledgeMap) -> None:
    assert ids(kmap.siblings(kmap.topics["chips"])) == ["adapters", "boards"]
    assert ids(kmap.siblings(kmap.topics["adapters"])) == ["boards", "chips"]
    assert ids(kmap.siblings(kmap.topics["power"])) == ["zinc"]


def test_every_edge_is_resolved_and_seen_from_both_ends(kmap: KnowledgeMap) -> None:
    sentences = [(e.subject.id, e.verb, e.object.id) for e in kmap.edges]
    assert sentences == [  # in file order: layer-1/power, layer-1/zinc, layer-2/boards
        ("power", "powers", "chips"),
        ("zinc", "coats", "zinc"),
        ("chips", "sit on", "boards"),
        ("boards", "carry power to", "chips"),
    ]
    chips = [(e.subject.id, e.verb, e.object.id) for e in kmap.edges_by_topic["chips"]]
    assert chips == [("power", "powers", "chips"), ("chips", "sit on", "boards"), ("boards", "carry power to", "chips")]
    power = [(e.subject.id, e.object.id) for e in kmap.edges_by_topic["power"]]
    assert power == [("power", "chips")]  # declared in power.yaml, also listed for chips above
    assert kmap.edges_by_topic["adapters"] == ()
    assert all(e.touches("chips") for e in kmap.edges_by_topic["chips"])


def test_a_self_edge_is_listed_once(kmap: KnowledgeMap) -> None:
    assert len(kmap.edges_by_topic["zinc"]) == 1
    assert ids(kmap.neighbours(kmap.topics["zinc"])) == ["zinc"]


def test_neighbours_are_distinct_and_in_edge_order(kmap: KnowledgeMap) -> None:
    assert ids(kmap.neighbours(kmap.topics["chips"])) == ["power", "boards"]
    assert ids(kmap.neighbours(kmap.topics["boards"])) == ["chips"]
    assert ids(kmap.neighbours(kmap.topics["adapters"])) == []


def test_edge_kind_is_kept(kmap: KnowledgeMap) -> None:
    assert [e.kind for e in kmap.edges] == ["powers", None, None, None]
