"""Large layers are listed in alphabetical groups, so a page's embedded navigation stays small."""

from __future__ import annotations

import pytest

from generator.content.schema import Topic
from generator.model.graph import KnowledgeMap
from generator.render.pages import nav_groups, navigation
from generator.settings import BuildSettings


def topic(title: str) -> Topic:
    slug = title.lower().replace(" ", "-")
    return Topic.model_validate({"id": slug, "title": title, "layer": 1, "summary": "s.",
                                 "depths": {"D1": {"body": "b"}}})


def titles(*spec: tuple[str, int]) -> tuple[Topic, ...]:
    return tuple(topic(f"{letter}{chr(97 + i // 26)}{chr(97 + i % 26)} topic") for letter, n in spec for i in range(n))


def test_groups_cover_every_topic_in_order_and_stay_small() -> None:
    topics = titles(("A", 7), ("B", 12), ("C", 3), ("D", 20), ("E", 1), ("S", 60), ("T", 4))
    groups = nav_groups(topics, 25)
    assert [t for _, group in groups for t in group] == list(topics)
    assert all(1 <= len(group) <= 25 for _, group in groups)


def test_groups_are_cut_between_initials_and_labelled_by_them() -> None:
    groups = nav_groups(titles(("A", 10), ("B", 10), ("C", 10)), 25)
    assert [(label, len(group)) for label, group in groups] == [("A – B", 20), ("C", 10)]


def test_an_initial_larger_than_a_group_is_cut_into_parts_labelled_by_two_letters() -> None:
    groups = nav_groups(titles(("R", 3), ("S", 60)), 25)  # Saa … Say, Saz … Sbx, Sby … Sch
    assert [(label, len(group)) for label, group in groups] == [("R", 3), ("Sa", 25), ("Sa – Sb", 25),
                                                                ("Sb – Sc", 10)]


def test_small_layers_list_their_topics_directly(kmap_one_layer: KnowledgeMap) -> None:
    nav = navigation(kmap_one_layer)
    assert nav[1] == {"Layer 1 · Ground": ["layer-1/index.md", {"Power": "layer-1/power.md"}]}


def test_a_large_layer_becomes_sub_sections(kmap_one_layer: KnowledgeMap) -> None:
    nav = navigation(kmap_one_layer, BuildSettings(nav_group=1))
    assert nav[2] == {"Layer 2 · Middle": ["layer-2/index.md", {"B": [{"Boards": "layer-2/boards.md"}]},
                                           {"C": [{"Chips": "layer-2/chips.md"}]}]}


@pytest.fixture
def kmap_one_layer(mini) -> KnowledgeMap:  # noqa: ANN001 - the shared fixture
    return mini.kmap()
