"""The committed JSON Schemas are what the typed model generates, and the content validates against them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from mini_project import BOARDS, MINI
from pydantic import ValidationError

from generator.content.json_schema import SCHEMAS, schema_text, write_schemas
from generator.content.schema import Bibliography, MapConfig, Topic
from generator.content.yaml_source import parse_yaml

ROOT = Path(__file__).resolve().parents[3]
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
    assert sorted(p.name for p in written) == ["map.schema.json", "sources.schema.json", "topic.schema.json"]
    assert json.loads(written[0].read_text())["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_there_is_content_to_check() -> None:
    assert any(p.name == "map.yaml" for p in CONTENT_FILES)


def schema_for(path: Path) -> str:
    return {"map.yaml": "map.schema.json", "sources.yaml": "sources.schema.json"}.get(path.name, "topic.schema.json")


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: p.relative_to(ROOT / "content").as_posix())
def test_content_file_validates_against_the_json_schema(path: Path) -> None:
    name = schema_for(path)
    data = parse_yaml(path.read_text(encoding="utf-8")).data
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("path", sorted(MINI.rglob("*.yaml")), ids=lambda p: p.name)
def test_mini_fixture_validates_against_the_json_schema(path: Path) -> None:
    name = schema_for(path)
    assert list(validator(name).iter_errors(parse_yaml(path.read_text()).data)) == []


BROKEN_TOPICS = {
    "unknown key": BOARDS + "colour: red\n",
    "bad slug": BOARDS.replace("id: boards", "id: Circuit Boards"),
    "layer as text": BOARDS.replace("layer: 2", "layer: two"),
    "missing summary": BOARDS.replace("summary: Where chips are mounted.\n", ""),
    "depth outside D1-D5": BOARDS + "  D6:\n    body: x\n",
    "tradeoffs a string": BOARDS + "    tradeoffs: cheap\n",
    "a sources list in a topic": BOARDS + 'sources:\n  - {id: a, title: T, date: "2024", url: https://x.org}\n',
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


SOURCE = {"kind": "paper", "title": "T", "authors": ["Lee, Carol"], "date": "2024", "url": "https://example.org/t"}
BROKEN_SOURCES = {
    "no locator": {k: v for k, v in SOURCE.items() if k != "url"},
    "url not http": {**SOURCE, "url": "ftp://example.org/t"},
    "unknown kind": {**SOURCE, "kind": "tweet"},
    "no authors": {**SOURCE, "authors": []},
    "arxiv with a version": {**SOURCE, "arxiv": "2407.21783v2"},
    "doi as a link": {**SOURCE, "doi": "https://doi.org/10.1/x"},
}


@pytest.mark.parametrize("record", BROKEN_SOURCES.values(), ids=BROKEN_SOURCES.keys())
def test_json_schema_and_typed_model_both_reject_a_bad_source(record: dict) -> None:
    data = {"sources": {"lee2024": record}}
    assert list(validator("sources.schema.json").iter_errors(data)), "the JSON Schema accepted it"
    with pytest.raises(ValidationError):
        Bibliography.model_validate(data)


@pytest.mark.parametrize("locator", [{"url": "https://example.org/t"}, {"doi": "10.1145/361147.361115"}, {"arxiv": "2407.21783"}])
def test_any_one_locator_is_enough(locator: dict) -> None:
    data = {"sources": {"lee2024": {**{k: v for k, v in SOURCE.items() if k != "url"}, **locator}}}
    assert list(validator("sources.schema.json").iter_errors(data)) == []
    assert Bibliography.model_validate(data).records()["lee2024"].link.startswith("https://")
