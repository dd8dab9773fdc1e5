"""Cross-file checks, run on topics built straight from YAML text."""

from __future__ import annotations

import textwrap

import pytest
from mini_project import MiniProject

from generator.checks.references import check_content, check_topics
from generator.content.loading import Content, TopicFile
from generator.content.schema import MapConfig, Topic
from generator.content.yaml_source import parse_yaml
from generator.diagnostics import Diagnostic

MAP = MapConfig.model_validate({
    "title": "M", "introduction": "I",
    "depths": [{"key": k, "name": k, "audience": "A"} for k in ("D1", "D2", "D3", "D4", "D5")],
    "layers": [{"number": 1, "name": "One", "description": "d"}, {"number": 2, "name": "Two", "description": "d"}],
    "edge_kinds": [{"id": "powers", "label": "powers"}, {"id": "runs-on", "label": "runs on"}],
})


def topic(tid: str, extra: str = "", layer: int = 1, body: str = "Text.") -> TopicFile:
    text = f"id: {tid}\ntitle: {tid.title()}\nlayer: {layer}\nsummary: S.\ndepths:\n  D1:\n    body: {body}\n"
    doc = parse_yaml(text + extra)
    return TopicFile(Topic.model_validate(doc.data), f"content/{tid}.yaml", doc)


def formatted(found: list[Diagnostic]) -> list[str]:
    return [d.format() for d in sorted(found)]


def test_valid_topics_have_no_problems() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: powers, object: b, kind: powers}\n")
    assert check_topics([a, topic("b", layer=2)], MAP) == []


def test_mini_content_has_no_problems(mini: MiniProject) -> None:
    assert check_content(mini.load()) == []


def test_duplicate_id_points_at_the_first_file_and_line() -> None:
    found = check_topics([topic("a"), topic("b"), topic("a")], MAP)
    assert len(found) == 1
    assert found[0].message == "duplicate topic id `a` (also in content/a.yaml:1)"
    assert (found[0].line, found[0].column, found[0].path) == (1, 5, "id")


def test_unknown_layer_lists_the_layers() -> None:
    (found,) = check_topics([topic("a", layer=5)], MAP)
    assert (found.line, found.column) == (3, 8)
    assert found.message == "unknown layer 5"
    assert found.hint == "use one of 1, 2, or add the layer to content/map.yaml"


def test_layers_are_not_checked_without_a_map() -> None:
    assert check_topics([topic("a", layer=5)], None) == []


def test_edge_to_unknown_topic_suggests_the_nearest_id() -> None:
    a = topic("alpha", "edges:\n  - subject: alpha\n    verb: feeds\n    object: bravo-two\n")
    (found,) = check_topics([a, topic("bravo")], MAP)
    assert (found.path, found.line, found.column) == ("edges[0].object", 11, 13)
    assert found.message == "edge to unknown topic `bravo-two`"
    assert found.hint == "did you mean `bravo`? (or write that topic first)"


def test_edge_to_a_topic_that_failed_validation_is_not_reported_again() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: feeds, object: broken}\n")
    assert check_topics([a], MAP, {"broken"}) == []


def test_edge_not_involving_its_topic() -> None:
    a = topic("a", "edges:\n  - {subject: b, verb: feeds, object: c}\n")
    (found,) = check_topics([a, topic("b"), topic("c")], MAP)
    assert found.message == "edge `b · feeds · c` does not involve this topic `a`"
    assert found.hint.startswith("move it to the file of `b` or `c`")
    assert (found.line, found.column) == (9, 5)


def test_edge_declared_twice_in_one_file_and_across_files() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: feeds, object: b}\n  - {subject: a, verb: Feeds, object: b}\n")
    b = topic("b", "edges:\n  - {subject: a, verb: feeds, object: b}\n")
    found = formatted(check_topics([a, b], MAP))
    assert found == [
        "content/a.yaml:10:5: error: `edges[1]` edge `a · Feeds · b` is declared twice (also in content/a.yaml:9)\n"
        "    fix: declare each edge once, in either of its two topics: remove this one",
        "content/b.yaml:9:5: error: `edges[0]` edge `a · feeds · b` is declared twice (also in content/a.yaml:9)\n"
        "    fix: declare each edge once, in either of its two topics: remove this one",
    ]


def test_same_pair_with_different_verbs_is_two_edges() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: feeds, object: b}\n  - {subject: a, verb: cools, object: b}\n")
    assert check_topics([a, topic("b")], MAP) == []


def test_unknown_edge_kind() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: runs on, object: b, kind: run-on}\n")
    (found,) = check_topics([a, topic("b")], MAP)
    assert found.path == "edges[0].kind"
    assert found.message == "unknown edge kind `run-on`"
    assert found.hint == "did you mean `runs-on`? (edge_kinds in content/map.yaml)"


def test_edge_kinds_are_not_checked_without_a_map() -> None:
    a = topic("a", "edges:\n  - {subject: a, verb: runs on, object: b, kind: nonsense}\n")
    assert check_topics([a, topic("b")], None) == []


@pytest.mark.parametrize("empty", ["  D4:\n", "  D4: {}\n", "  D4:\n    tradeoffs: []\n"])
def test_empty_depth(empty: str) -> None:
    (found,) = check_topics([topic("a", empty)], MAP)
    assert (found.path, found.line, found.column) == ("depths.D4", 8, 3)
    assert found.message == "depth D4 is empty"


def test_topic_without_any_depth() -> None:
    doc = parse_yaml("id: a\ntitle: A\nlayer: 1\nsummary: S.\ndepths: {}\n")
    tf = TopicFile(Topic.model_validate(doc.data), "content/a.yaml", doc)
    (found,) = check_topics([tf], MAP)
    assert (found.path, found.message) == ("depths", "the topic has no depth")


def test_unknown_calculator_suggests_an_existing_one() -> None:
    (found,) = check_topics([topic("a", "  D4:\n    body: x\n    calculator: {name: paralelism}\n")], MAP)
    assert found.path == "depths.D4.calculator.name"
    assert found.message == "unknown calculator `paralelism`"
    assert found.hint.startswith("did you mean `parallelism`?")


def map_content(text: str) -> Content:
    doc = parse_yaml(textwrap.dedent(text))
    return Content(MapConfig.model_validate(doc.data), "content/map.yaml", [], map_doc=doc)


MAP_TEXT = """\
title: M
introduction: I
depths:
  - {key: D1, name: Story, audience: A}
  - {key: D2, name: Picture, audience: A}
  - {key: D3, name: Example, audience: A}
  - {key: D4, name: Mechanism, audience: A}
  - {key: D5, name: Frontier, audience: A}
layers:
  - {number: 1, name: One, description: d}
  - {number: 2, name: Two, description: d}
"""


def test_map_without_problems() -> None:
    assert check_content(map_content(MAP_TEXT)) == []


def test_map_missing_a_depth_points_at_depths() -> None:
    (found,) = check_content(map_content(MAP_TEXT.replace("  - {key: D3, name: Example, audience: A}\n", "")))
    assert (found.path, found.line, found.column) == ("depths", 3, 1)
    assert found.message == "depth D3 is missing from `depths`"


def test_map_depth_twice_points_at_the_second() -> None:
    missing, twice = check_content(map_content(MAP_TEXT.replace("{key: D5,", "{key: D4,")))
    assert (twice.path, twice.line, twice.column) == ("depths[4].key", 8, 11)
    assert twice.message == "depth D4 is defined twice (also on line 7)"
    assert (missing.path, missing.message) == ("depths", "depth D5 is missing from `depths`")


def test_map_layer_number_twice_points_at_the_second() -> None:
    (found,) = check_content(map_content(MAP_TEXT.replace("{number: 2,", "{number: 1,")))
    assert (found.path, found.line, found.column) == ("layers[1].number", 11, 14)
    assert found.message == "layer 1 is defined twice (also on line 10)"


def test_map_edge_kind_twice() -> None:
    text = MAP_TEXT + "edge_kinds:\n  - {id: powers, label: p}\n  - {id: powers, label: q}\n"
    (found,) = check_content(map_content(text))
    assert (found.path, found.line, found.message) == ("edge_kinds[1].id", 14, "edge kind `powers` is defined twice")


def placed(tid: str, file: str, layer: int = 1) -> TopicFile:
    tf = topic(tid, layer=layer)
    return TopicFile(tf.topic, file, tf.doc)


def test_file_name_and_folder_should_match_id_and_layer() -> None:
    found = check_topics([placed("a", "content/layer-2/b.yaml", layer=1)], MAP)
    assert [(d.severity, d.path, d.message) for d in found] == [
        ("warning", "id", "the topic id `a` differs from the file name `b.yaml`"),
        ("warning", "layer", "a topic of layer 1 is in the folder `layer-2/`"),
    ]
    assert found[1].hint == "move the file to `layer-1/`, or change `layer:`"
    assert check_topics([placed("a", "content/layer-1/a.yaml"), placed("b", "content/misc/b.yaml")], MAP) == []


def test_duplicate_id_is_reported_at_the_file_not_named_after_it() -> None:
    found = check_topics([placed("b", "content/layer-1/a.yaml"), placed("b", "content/layer-1/b.yaml")], MAP)
    assert [(d.file, d.message) for d in found] == [
        ("content/layer-1/a.yaml", "duplicate topic id `b` (also in content/layer-1/b.yaml:1)")]


def test_a_depth_may_cite_the_datasheets_its_calculator_lists() -> None:
    extra = "  D4:\n    body: The H100 datasheet [@nvidia-h100-datasheet].\n    calculator: {name: parallelism}\n"
    assert check_topics([topic("a", extra)], MAP) == []


def test_a_calculator_preset_without_a_datasheet_figure_is_refused_in_the_calculators_file(monkeypatch) -> None:
    import calculators.parallelism as parallelism

    broken = [{**group, "options": [{**group["options"][0], "values": {}, "missing": {f: "x_fact" for f in group["fields"]}}]}
              for group in parallelism.PRESETS[:1]]
    monkeypatch.setattr(parallelism, "PRESETS", broken)
    t = topic("a", "    calculator:\n      name: parallelism\n")
    found = formatted(check_topics([t], MAP))
    field = parallelism.PRESETS[0]["fields"][0]
    assert any(line.startswith("calculators/parallelism.py:") and "`PRESETS[0].options[0].values`" in line
               and f"has no value for `{field}`" in line and "`x_fact`" in line for line in found), found
