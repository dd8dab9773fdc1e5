"""`layermap new`: a topic file with every field shown, valid as written."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mini_project import MiniProject

from generator.cli import main
from generator.content.scaffold import scaffold_topic
from generator.content.schema import Depth, Topic
from generator.content.yaml_source import parse_yaml
from generator.errors import LayermapError


def scaffold(mini: MiniProject, tid: str = "cooling", layer: int = 1) -> str:
    path = scaffold_topic(mini.content, mini.load().map, tid, layer, "Cooling", "2026-12-02")
    assert path == mini.content / f"layer-{layer}" / f"{tid}.yaml"
    return path.read_text(encoding="utf-8")


def test_output_is_yaml_with_every_top_level_field(mini: MiniProject) -> None:
    data = parse_yaml(scaffold(mini)).data
    assert set(data) == set(Topic.model_fields)
    assert (data["id"], data["title"], data["layer"]) == ("cooling", "Cooling", 1)
    assert data["examples"]["as_of"] == "2026-12-02"


def test_output_loads_and_validates_with_the_rest_of_the_project(mini: MiniProject) -> None:
    scaffold(mini)
    content = mini.load()
    topic = next(tf.topic for tf in content.topics if tf.topic.id == "cooling")
    assert [key for key, _ in topic.depths.present()] == ["D1", "D2"]
    assert content.warnings == []


def test_the_commented_depths_are_valid_once_uncommented(mini: MiniProject) -> None:
    text = scaffold(mini)
    lines = [re.sub(r"^  # ", "  ", line) if re.match(r"^  # (D[45]:|  )", line) else line for line in text.splitlines()]
    data = yaml.safe_load("\n".join(lines))
    assert set(data["depths"]) == {"D1", "D2", "D4", "D5"}
    depth = Depth.model_validate(data["depths"]["D4"])
    assert depth.calculator is not None and depth.calculator.name == "parallelism"
    assert depth.formulas and depth.exercises and depth.tradeoffs


def test_layer_name_and_depth_names_come_from_the_map(mini: MiniProject) -> None:
    text = scaffold(mini, layer=2)
    assert re.search(r"^layer: 2\s+# Middle$", text, flags=re.M)
    assert "D1 Story, D2 Picture, D3 Worked example, D4 Mechanism, D5 Frontier" in text


def test_points_editors_at_the_json_schema(mini: MiniProject) -> None:
    assert scaffold(mini).startswith("# yaml-language-server: $schema=../../schema/topic.schema.json\n")


def test_refuses_an_unknown_layer(mini: MiniProject) -> None:
    with pytest.raises(LayermapError) as caught:
        scaffold(mini, layer=7)
    assert caught.value.message == "unknown layer 7"
    assert caught.value.hint == "use one of 1, 2"
    assert not (mini.content / "layer-7").exists()


def test_refuses_to_overwrite_an_existing_file(mini: MiniProject) -> None:
    before = (mini.content / "layer-2" / "boards.yaml").read_text()
    with pytest.raises(LayermapError) as caught:
        scaffold(mini, "boards", 2)
    assert "already exists" in caught.value.message
    assert (mini.content / "layer-2" / "boards.yaml").read_text() == before


def test_new_command_writes_the_file(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini.root), "new", "cooling", "--layer", "1", "--title", "Cooling"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("created content/layer-1/cooling.yaml")
    assert 'title: "Cooling"' in (mini.content / "layer-1" / "cooling.yaml").read_text()


def test_new_command_reports_an_unknown_layer(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini.root), "new", "cooling", "--layer", "9"]) == 1
    _, err = capsys.readouterr()
    assert "error: unknown layer 9" in err and "fix: use one of 1, 2" in err


HOSTILE_TITLES = [
    "Boards: the basics",
    "Line one\nlayer: 9\nsummary: injected",
    "x\n  D9: {body: injected}",
    "# not a comment",
    "- a list item",
    "&anchor *alias !!python/object",
    "'single' \"double\" \\backslash",
    "{{ parallelism.days(tp=2) }}",
    "tab\there, nel\x85, line sep\u2028, para sep\u2029, cr\r",
    "null",
    "true",
    "2024-01-01",
    "70e9",
    "\ufeffbom first",
    "emoji 🚀 and ünïcödé",
    "---\n...\n",
    "<script>alert(1)</script>",
]


def scaffold_title(mini: MiniProject, title: str) -> dict:
    path = scaffold_topic(mini.content, mini.load().map, "cooling", 1, title, "2026-12-02")
    data = parse_yaml(path.read_text(encoding="utf-8")).data
    path.unlink()
    return data


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_a_hostile_title_round_trips_exactly_and_adds_no_key(mini: MiniProject, title: str) -> None:
    data = scaffold_title(mini, title)
    assert data["title"] == title
    assert set(data) == set(Topic.model_fields)
    assert (data["id"], data["layer"], set(data["depths"])) == ("cooling", 1, {"D1", "D2"})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=st.text(max_size=80))
def test_any_title_round_trips_exactly(mini: MiniProject, title: str) -> None:
    data = scaffold_title(mini, title)
    assert data["title"] == title
    assert set(data) == set(Topic.model_fields)


def test_a_plain_title_still_loads_as_the_topic_title(mini: MiniProject) -> None:
    scaffold_topic(mini.content, mini.load().map, "cooling", 1, "Boards: the basics\nlayer: 2", "2026-12-02")
    topic = next(tf.topic for tf in mini.load().topics if tf.topic.id == "cooling")
    assert (topic.title, topic.layer) == ("Boards: the basics\nlayer: 2", 1)


def test_a_layer_name_with_line_breaks_stays_inside_its_comment(mini: MiniProject) -> None:
    config = mini.load().map
    hostile = config.layers[0].model_copy(update={"name": "Ground\nsummary: injected\u2028id: x"})
    config = config.model_copy(update={"layers": [hostile, *config.layers[1:]]})
    path = scaffold_topic(mini.content, config, "cooling", 1, "Cooling", "2026-12-02")
    data = parse_yaml(path.read_text(encoding="utf-8")).data
    assert (data["id"], data["summary"].startswith("TODO")) == ("cooling", True)
    assert "# Ground summary: injected id: x" in path.read_text(encoding="utf-8")


def test_a_title_that_is_not_utf8_is_refused(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    title = b"caf\xe9".decode("utf-8", errors="surrogateescape")  # what Python makes of a Latin-1 argument
    assert main(["--project", str(mini.root), "new", "cooling", "--layer", "1", "--title", title]) == 1
    assert "error: the title holds bytes that are not UTF-8 text" in capsys.readouterr().err
    assert not (mini.content / "layer-1" / "cooling.yaml").exists()


def test_new_command_with_a_newline_in_the_title_writes_one_title(mini: MiniProject) -> None:
    assert main(["--project", str(mini.root), "new", "cooling", "--layer", "1", "--title", "A\nlayer: 2"]) == 0
    data = parse_yaml((mini.content / "layer-1" / "cooling.yaml").read_text(encoding="utf-8")).data
    assert (data["title"], data["layer"]) == ("A\nlayer: 2", 1)
