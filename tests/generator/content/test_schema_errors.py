"""Pydantic errors become diagnostics that say what is wrong, where, and how to fix it."""

from __future__ import annotations

import textwrap
from typing import Annotated, Literal

import pytest
from mini_project import BOARDS as GOOD
from pydantic import BaseModel, Field, StringConstraints, ValidationError

from generator.content.model_paths import model_at
from generator.content.schema import Bibliography, MapConfig, Topic
from generator.content.schema_errors import diagnostics_from
from generator.content.yaml_source import parse_yaml
from generator.diagnostics import Diagnostic


def diagnose(text: str, model: type = Topic) -> list[Diagnostic]:
    doc = parse_yaml(textwrap.dedent(text))
    with pytest.raises(ValidationError) as caught:
        model.model_validate(doc.data)
    return diagnostics_from(caught.value, model, doc, "t.yaml")


def only(text: str, model: type = Topic) -> Diagnostic:
    found = diagnose(text, model)
    assert len(found) == 1, [d.format() for d in found]
    return found[0]


NOISE = ("str", "int", "float", "bool", "constrained-str", "function-", "union", "list[", "dict[", "tagged")

BROKEN = [
    GOOD.replace("layer: 2", "layer: two"),
    GOOD.replace("layer: 2", "layer: 2.5"),
    GOOD.replace("layer: 2", "layer: [2]"),
    GOOD.replace("title: Boards", "title: 1984"),
    GOOD.replace("title: Boards", "title: [a, b]"),
    GOOD.replace("summary: Where chips are mounted.", "summary:"),
    GOOD + "    calculator: {name: parallelism, values: {tp: [1, 2]}}\n",
    GOOD + "    calculator: {name: parallelism, values: {tp: {a: 1}}}\n",
    GOOD + "examples: {as_of: 2026, items: []}\n",
    GOOD + "edges: {subject: a}\n",
    GOOD + "    flow: {title: T, steps: [{label: A}, {labl: B}]}\n",
    GOOD + "    exercises: [just text]\n",
]


@pytest.mark.parametrize("text", BROKEN)
def test_every_diagnostic_has_a_clean_path_a_message_and_a_fix(text: str) -> None:
    found = diagnose(text)
    assert found
    for diagnostic in found:
        assert not any(noise in diagnostic.path for noise in NOISE), diagnostic.format()
        assert diagnostic.message and diagnostic.hint, diagnostic.format()
        assert "Input should" not in diagnostic.message and "validation" not in diagnostic.message
        assert diagnostic.line >= 1 and diagnostic.column >= 1


def test_union_failure_is_one_diagnostic_at_the_value() -> None:
    found = only(GOOD + "    calculator:\n      name: parallelism\n      values: {tp: [1, 2]}\n")
    assert found.path == "depths.D1.calculator.values.tp"
    assert (found.line, found.column) == (10, 16)  # a list value: its key
    assert found.message.startswith("expected ") and found.message.endswith(", got a list")
    assert "a number" in found.message and "text" in found.message


def test_unknown_key_with_a_close_match_stands_at_the_key() -> None:
    found = only(GOOD + "sumary_extra: x\n".replace("sumary_extra", "exampels"))
    assert (found.line, found.column, found.path) == (8, 1, "exampels")
    assert found.message == "unknown key `exampels`"
    assert found.hint == "did you mean `examples`?"


def test_misspelt_required_key_is_reported_once() -> None:
    found = only(GOOD.replace("title:", "titel:"))
    assert (found.line, found.path, found.message) == (2, "titel", "unknown key `titel`")
    assert found.hint == "did you mean `title`? (`title` is required and missing)"


def test_unknown_key_without_close_match_lists_the_allowed_keys() -> None:
    found = only(GOOD + "    colour: red\n")
    assert found.path == "depths.D1.colour"
    assert "analogy" in found.hint and "body" in found.hint and "tradeoffs" in found.hint


@pytest.mark.parametrize(("key", "hint"), [("D6", "use one of D1, D2, D3, D4, D5"), ("d1", "did you mean `D1`?")])
def test_depth_outside_d1_d5(key: str, hint: str) -> None:
    found = only(GOOD + f"  {key}:\n    body: x\n")
    assert found.message.startswith(f"depth `{key}` is outside D1–D5")
    assert found.hint == hint
    assert (found.line, found.column) == (8, 3)


def test_missing_nested_field_points_at_its_parent_and_says_where_to_add() -> None:
    found = only(GOOD + "    flow:\n      steps: [{label: A}, {label: B}]\n")
    assert (found.path, found.line, found.column) == ("depths.D1.flow.title", 8, 5)
    assert found.hint == "add `title: …` under `flow:`"


def test_missing_field_in_a_list_item() -> None:
    found = only(GOOD + "edges:\n  - subject: boards\n    object: chips\n")
    assert found.path == "edges[0].verb"
    assert (found.line, found.column) == (9, 5)
    assert found.hint == "add `verb: …` to this item (Verb phrase, e.g. `powers and cools`)"


SOURCE = "sources:\n  a:\n    kind: paper\n    title: T\n    authors: [\"Lee, Carol\"]\n    url: https://example.org/t\n"
BROKEN_SOURCES = [
    SOURCE + "    date: [2024]\n",
    SOURCE.replace("https://example.org/t", "42") + "    date: \"2024\"\n",
    SOURCE.replace("[\"Lee, Carol\"]", "[[x]]") + "    date: \"2024\"\n",
    SOURCE.replace("  a:", "  2024a:") + "    date: \"2024-13\"\n",
]


@pytest.mark.parametrize("text", BROKEN_SOURCES)
def test_a_broken_source_record_is_explained_without_pydantic_noise(text: str) -> None:
    found = diagnose(text, Bibliography)
    assert found
    for diagnostic in found:
        assert diagnostic.path.startswith("sources"), diagnostic
        assert not any(word in diagnostic.message for word in NOISE), diagnostic.message


def test_missing_map_field() -> None:
    found = only("introduction: x\ndepths: [{key: D1, name: S, audience: A}]\nlayers: [{number: 1, name: N, description: D}]\n",
                 MapConfig)
    assert (found.path, found.message, found.hint) == ("title", "missing required field `title`", "add `title: …` to the file")


def test_number_where_text_is_expected_says_to_quote_it() -> None:
    found = only(GOOD.replace("title: Boards", "title: 1984"))
    assert found.message == "expected text, got the number `1984`"
    assert found.hint == 'put it in quotes: `title: "1984"`'
    assert (found.line, found.column) == (2, 8)


def test_text_where_a_list_is_expected_shows_the_list_form() -> None:
    found = only(GOOD + "    tradeoffs: Cheap but fragile\n")
    assert found.hint.startswith('write it as a list: `tradeoffs: ["Cheap but fragile"]`')


def test_empty_value_of_a_mapping_field() -> None:
    found = only("id: a\ntitle: A\nlayer: 1\nsummary: S\ndepths:\n")
    assert (found.path, found.line, found.column) == ("depths", 5, 1)
    assert found.message == "is empty, but must be a mapping of `key: value` lines"
    assert found.hint == "write its keys (D1, D2, D3, D4, D5) below it"  # required: not "remove it"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2026-13-01", "`2026-13-01` is not a valid date (there is no such month)"),
        ("2026-02-30", "`2026-02-30` is not a valid date (that month has no such day)"),
        ("last year", "`last year` is not a valid date"),
        ("2026", "the number `2026` is not a valid date (a full date is needed)"),
    ],
)
def test_bad_as_of_dates(value: str, message: str) -> None:
    found = only(GOOD + f"examples:\n  as_of: {value}\n  items: [{{name: a, kind: b}}]\n")
    assert found.path == "examples.as_of"
    assert found.message == message
    assert found.hint == "write the date as YYYY-MM-DD, e.g. 2026-10-30"
    assert (found.line, found.column) == (9, 10)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"2024-02-30"', "`2024-02-30` is not a valid date (day is out of range for month)"),
        ('"2024-13"', "`2024-13` is not a valid date (month must be in 1..12)"),
        ("last year", "`last year` is not a valid date"),
    ],
)
def test_bad_source_dates(value: str, message: str) -> None:
    found = only(SOURCE + f"    date: {value}\n", Bibliography)
    assert found.path == "sources.a.date"
    assert found.message == message
    assert '"YYYY", "YYYY-MM" or "YYYY-MM-DD"' in found.hint


@pytest.mark.parametrize(
    ("line", "path", "message", "hint"),
    [
        ("id: Circuit Boards", "id", "`Circuit Boards` is not a valid id: it must be lower-case words joined by hyphens",
         "write `circuit-boards`"),
        ("id: gpu_clusters", "id", "`gpu_clusters` is not a valid id: it must be lower-case words joined by hyphens",
         "write `gpu-clusters`"),
    ],
)
def test_bad_slugs_suggest_the_slug(line: str, path: str, message: str, hint: str) -> None:
    found = only(GOOD.replace("id: boards", line))
    assert (found.path, found.message, found.hint) == (path, message, hint)


def test_bad_citation_key_url_and_colour() -> None:
    key = only(SOURCE.replace("  a:", "  2024smith:") + "    date: \"2024\"\n", Bibliography)
    assert key.message == "`2024smith` is not a valid citation key"
    url = only(SOURCE.replace("https://example.org/t", "www.example.org") + "    date: \"2024\"\n", Bibliography)
    assert url.message == "`www.example.org` is not a web address"
    assert "https://" in url.hint
    colour = only("title: M\nintroduction: I\ndepths: [{key: D1, name: S, audience: A}]\n"
                  "layers: [{number: 1, name: N, description: D}]\nedge_kinds: [{id: powers, label: p, colour: red}]\n",
                  MapConfig)
    assert colour.path == "edge_kinds[0].colour"
    assert colour.message == "`red` is not a colour"


def test_too_long_summary_says_how_long() -> None:
    found = only(GOOD.replace("Where chips are mounted.", "x" * 301))
    assert found.message == "is 301 characters long; at most 300 are allowed"


def test_flow_with_one_step() -> None:
    found = only(GOOD + "    flow: {title: T, steps: [{label: A}]}\n")
    assert found.message == "a flow needs at least 2 steps, found 1"


def test_empty_list_that_needs_items() -> None:
    found = only(GOOD + "examples: {as_of: 2026-01-01, items: []}\n")
    assert found.message == "needs at least 1 item, found 0"


def test_out_of_range_layer_gives_the_range() -> None:
    found = only(GOOD.replace("layer: 2", "layer: 100"))
    assert found.message == "the number `100` is out of range"
    assert found.hint.startswith("use a number from 1 to 99")


def test_depth_key_in_map_must_be_d1_to_d5() -> None:
    found = only("title: M\nintroduction: I\ndepths: [{key: D9, name: S, audience: A}]\n"
                 "layers: [{number: 1, name: N, description: D}]\n", MapConfig)
    assert found.path == "depths[0].key"
    assert found.message == "`D9` is not allowed"
    assert found.hint == "use one of `D1`, `D2`, `D3`, `D4` or `D5`"


def test_empty_optional_text_may_be_removed_but_required_text_must_be_written() -> None:
    assert only(GOOD.replace("title: Boards", "title: ''")).hint == "write the text after `title:`"
    assert only(GOOD.replace("body: Boards hold chips.", "body: ''")).hint == "write the text after `body:`, or remove the key"


def test_range_error_on_a_map_layer_number() -> None:
    found = only("title: M\nintroduction: I\ndepths: [{key: D1, name: S, audience: A}]\n"
                 "layers: [{number: -3, name: N, description: D}]\n", MapConfig)
    assert (found.path, found.message) == ("layers[0].number", "the number `-3` is out of range")
    assert found.hint == "use a number from 1 to 99"


class Sample(BaseModel):
    """A model with one-sided limits."""

    ratio: float = Field(gt=0)
    count: int = Field(ge=2)


def test_range_error_names_a_one_sided_limit_in_words() -> None:
    ratio, count = diagnose("ratio: -1\ncount: 1\n", Sample)
    assert (ratio.message, ratio.hint) == ("the number `-1` is out of range", "use a number greater than 0")
    assert (count.message, count.hint) == ("the number `1` is out of range", "use a number of at least 2")


class Rule(BaseModel):
    """A rule per depth."""

    model_config = {"extra": "forbid"}
    limit: int = Field(1, ge=1, description="Words at most")
    words: list[str] = Field(default_factory=list)


class Keyed(BaseModel):
    rules: dict[Literal["D1", "D2"], Rule] = Field(default_factory=dict)
    tags: list[Annotated[str, StringConstraints(min_length=1)]] = Field(default_factory=list)


def test_free_keyed_mappings_are_followed_into_their_values() -> None:
    assert model_at(Keyed, ("rules", "D1")) is Rule
    found = diagnose("rules:\n  D3: {limit: 2}\n  D1: {limit: 0, colur: x}\n", Keyed)
    assert [(d.path, d.message, d.hint) for d in found] == [
        ("rules.D3", "`D3` is not allowed", "use one of `D1` or `D2`"),
        ("rules.D1.limit", "the number `0` is out of range", "use a number of at least 1 (Words at most)"),
        ("rules.D1.colur", "unknown key `colur`", "remove it, or use one of: limit, words"),
    ]
    assert [(d.line, d.column) for d in found] == [(2, 3), (3, 15), (3, 18)]


def test_empty_text_in_a_list_item() -> None:
    found = only("tags: [a, '']\n", Keyed)
    assert (found.path, found.message, found.hint) == ("tags[1]", "is empty", "write the text of this item, or remove the item")
