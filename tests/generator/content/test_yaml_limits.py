"""How much one YAML file may make layermap do: its size and the text its aliases repeat (issue 33, F5)."""

from __future__ import annotations

import pytest
from mini_project import copy_mini

from generator.content.yaml_limits import (
    MAX_BIBLIOGRAPHY_BYTES,
    MAX_FILE_BYTES,
    MAX_REPEATED_TEXT,
    check_size,
)
from generator.content.yaml_source import Position, YamlSyntaxError, parse_yaml

BIG = "word " * 20_000  # 100,000 characters: the text


def test_a_big_text_aliased_many_times_is_refused_at_the_alias_that_passes_the_limit() -> None:
    lines = [f'body: &b "{BIG}"', "tradeoffs:"] + ["  - *b"] * 2_000
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml("\n".join(lines) + "\n")
    error = caught.value
    assert error.position == Position(4, 5)  # the second `*b`: the first repeats exactly the limit
    assert f"more than {MAX_REPEATED_TEXT:,} characters" in error.message and "`*b` repeats 100,000" in error.message
    assert "instead of repeating the anchor `&b`" in error.hint


def test_aliases_inside_an_anchored_value_count_every_time_it_is_repeated() -> None:
    """The billion-laughs shape: ten aliases of ten aliases of a 1,000-character text."""
    text = ("a: &a " + "x" * 1_000 + "\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"
            "c: [" + ", ".join(["*b"] * 10) + "]\n")
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text)
    # b's aliases repeat 10,000 characters, each *b another 10,000: the tenth *b passes 100,000
    assert caught.value.position == Position(3, 5 + 4 * 9)
    assert "`*b` repeats 10,000, 110,000 in all" in caught.value.message


def test_aliases_repeating_text_up_to_the_limit_are_read() -> None:
    text = f"a: &a {'x' * 10_000}\nb: [" + ", ".join(["*a"] * 10) + "]\n"
    assert parse_yaml(text).data["b"] == ["x" * 10_000] * 10


def test_a_file_up_to_the_limit_passes_and_a_bigger_one_is_refused_at_the_line_that_passes_it() -> None:
    data = b"a: 1\n" * (MAX_FILE_BYTES // 5)
    assert check_size(data, MAX_FILE_BYTES, "a topic file") is data
    with pytest.raises(YamlSyntaxError) as caught:
        check_size(data + b"b: 2\n", MAX_FILE_BYTES, "a topic file")
    assert caught.value.position == Position(MAX_FILE_BYTES // 5 + 1, 1)
    assert f"{MAX_FILE_BYTES + 5:,} bytes long; a topic file holds at most {MAX_FILE_BYTES:,}" in caught.value.message


def test_check_refuses_an_oversized_topic_file_and_allows_a_bigger_bibliography(tmp_path) -> None:  # noqa: ANN001
    project = copy_mini(tmp_path)
    padding = "# " + "x" * 98 + "\n"
    boards = project.content / "layer-2" / "boards.yaml"
    boards.write_text(boards.read_text() + padding * (MAX_FILE_BYTES // 100), encoding="utf-8")
    sources = project.content / "sources.yaml"
    sources.write_text(sources.read_text() + padding * (MAX_FILE_BYTES // 100), encoding="utf-8")
    report = project.report()
    assert "content/layer-2/boards.yaml:" in report and "a topic file or map.yaml holds at most 1,000,000" in report
    assert "sources.yaml" not in report  # 1 MB is far below its own limit
    assert MAX_BIBLIOGRAPHY_BYTES > MAX_FILE_BYTES
