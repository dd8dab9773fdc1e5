"""The committed JSON Schemas are what the typed model generates, and the content validates against them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError

from generator.json_schema import SCHEMAS, schema_text, write_schemas
from generator.schema import MapConfig, Topic
from generator.yaml_source import parse_yaml

from mini_project import BOARDS, MINI

ROOT = Path(__file__).resolve().parents[2]
CONTENT_FILES = sorted((ROOT / "content").rglob("*.yaml"))


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((ROOT / "schema" / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_is_up_to_date(name: str) -> None:
    committed = (ROOT / "schema" / name).read_text(encoding="utf-8")
    assert committed == schema_text(SCHEMAS[name]), "run `layermap schema` and commit schema/"


def test_write_schemas_writes_both(tmp_path: Path) -> None:
    written = write_schemas(tmp_path / "schema")
    assert sorted(p.name for p in written) == ["map.schema.json", "topic.schema.json"]
    assert json.loads(written[0].read_text())["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_there_is_content_to_check() -> None:
    assert any(p.name == "map.yaml" for p in CONTENT_FILES)


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: p.relative_to(ROOT / "content").as_posix())
def test_content_file_validates_against_the_json_schema(path: Path) -> None:
    name = "map.schema.json" if path.name == "map.yaml" else "topic.schema.json"
    data = parse_yaml(path.read_text(encoding="utf-8")).data
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("path", sorted(MINI.rglob("*.yaml")), ids=lambda p: p.name)
def test_mini_fixture_validates_against_the_json_schema(path: Path) -> None:
    name = "map.schema.json" if path.name == "map.yaml" else "topic.schema.json"
    assert list(validator(name).iter_errors(parse_yaml(path.read_text()).data)) == []


BROKEN_TOPICS = {
    "unknown key": BOARDS + "colour: red\n",
    "bad slug": BOARDS.replace("id: boards", "id: Circuit Boards"),
    "layer as text": BOARDS.replace("layer: 2", "layer: two"),
    "missing summary": BOARDS.replace("summary: Where chips are mounted.\n", ""),
    "depth outside D1-D5": BOARDS + "  D6:\n    body: x\n",
    "tradeoffs a string": BOARDS + "    tradeoffs: cheap\n",
    "url not http": BOARDS + 'sources:\n  - {id: a, title: T, date: "2024", url: ftp://x}\n',
    "bad as_of": BOARDS + "examples: {as_of: 2026-13-01, items: [{name: a, kind: b}]}\n",
    "flow with one step": BOARDS + "    flow: {title: T, steps: [{label: A}]}\n",
    "summary too long": BOARDS.replace("Where chips are mounted.", "x" * 301),
}


@pytest.mark.parametrize("text", BROKEN_TOPICS.values(), ids=BROKEN_TOPICS.keys())
def test_json_schema_and_typed_model_both_reject(text: str) -> None:
    data = parse_yaml(text).data
    assert list(validator("topic.schema.json").iter_errors(data)), "the JSON Schema accepted it"
    with pytest.raises(ValidationError):
        Topic.model_validate(data)


def test_json_schema_rejects_a_map_without_layers() -> None:
    data = parse_yaml((MINI / "map.yaml").read_text()).data
    del data["layers"]
    assert list(validator("map.schema.json").iter_errors(data))
    with pytest.raises(ValidationError):
        MapConfig.model_validate(data)
