"""Positioned YAML: plain data, where every key and value stands, and syntax errors in editors' words."""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import pytest

from generator.content import yaml_limits, yaml_source
from generator.content.yaml_source import Position, YamlSyntaxError, parse_yaml
from generator.pipeline import load_map
from generator.project import Project

ROOT = Path(__file__).resolve().parents[3]


def parse(text: str):  # noqa: ANN201
    return parse_yaml(textwrap.dedent(text))


def test_plain_data_with_yaml_1_2_scalars() -> None:
    doc = parse("""\
        date: 2024-02-30
        as_of: 2026-10-30
        answer: no
        switch: on
        flag: true
        off_flag: False
        count: 3
        ratio: 2.5
        big: 70e9
        nothing:
        """)
    assert doc.data == {
        "date": "2024-02-30", "as_of": "2026-10-30", "answer": "no", "switch": "on", "flag": True,
        "off_flag": False, "count": 3, "ratio": 2.5, "big": "70e9", "nothing": None,
    }


def test_key_and_value_positions_are_one_based() -> None:
    doc = parse("""\
        id: boards
        depths:
          D1:
            body: Boards hold chips.
        edges:
          - {subject: boards, verb: carry, object: chips}
        """)
    assert doc.key_positions[("id",)] == Position(1, 1)
    assert doc.value_positions[("id",)] == Position(1, 5)
    assert doc.key_positions[("depths", "D1", "body")] == Position(4, 5)
    assert doc.value_positions[("depths", "D1", "body")] == Position(4, 11)
    assert doc.value_positions[("edges", 0)] == Position(6, 5)
    assert doc.key_positions[("edges", 0, "object")] == Position(6, 36)


def test_positions_are_worked_out_when_first_asked_for_and_never_kept_on_disk() -> None:
    doc = parse("id: boards\ndepths:\n  D1:\n    body: Boards hold chips.\n")
    assert doc.located is None  # reading alone works out no position
    assert doc.key_positions[("depths", "D1", "body")] == Position(4, 5)
    assert doc.located is not None
    again = pickle.loads(pickle.dumps(doc))
    assert again.located is None and again.data == doc.data and again.source == doc.source
    assert again.value_spans == doc.value_spans and again.value_positions == doc.value_positions


def test_a_map_with_nothing_wrong_works_out_no_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions are only for saying where a problem is: the real map's reading and checks ask for none."""
    located: list[str] = []
    locate = yaml_source._locate
    monkeypatch.setattr(yaml_source, "_locate", lambda source: located.append(source) or locate(source))
    load_map(Project(ROOT))
    assert located == []


def test_position_prefers_the_key_and_falls_back_to_the_nearest_parent() -> None:
    doc = parse("a:\n  b: text\n  c: [1, 2]\n")
    assert doc.position(("a", "b")) == Position(2, 3)
    assert doc.position(("a", "b"), value=True) == Position(2, 6)
    assert doc.position(("a", "c"), value=True) == Position(3, 3)  # a list: its key
    assert doc.position(("a", "missing")) == Position(1, 1)
    assert doc.position(("nowhere", 3)) == Position(1, 1)


def test_duplicate_keys_are_recorded_with_both_positions() -> None:
    doc = parse("title: A\nsummary: S\ntitle: B\n")
    assert doc.duplicate_keys == [(("title",), Position(3, 1))]
    assert doc.first_key_positions[("title",)] == Position(1, 1)
    assert doc.data["title"] == "B"
    assert doc.key_positions[("title",)] == Position(3, 1)  # the key whose value is used


def test_keys_are_kept_as_written() -> None:
    assert parse("true: 1\n2: x\n").data == {"true": 1, "2": "x"}


def test_empty_document_has_no_data() -> None:
    assert parse("").data is None
    assert parse("# only a comment\n").data is None


@pytest.mark.parametrize(
    ("text", "offset_of", "expected"),
    [
        # a `|` block: exact line and column of the citation
        ("body: |\n  First line.\n\n  Cited here [@lee2021].\n", "[@lee2021]", Position(4, 14)),
        # a `>` block folds lines, still exact
        ("body: >\n  First line\n  then [@lee2021].\n", "[@lee2021]", Position(3, 8)),
        # plain text continued on the next line
        ("body: First line\n  then [@lee2021].\n", "[@lee2021]", Position(2, 8)),
        # quoted text
        ('body: "Cited [@lee2021]."\n', "[@lee2021]", Position(1, 14)),
    ],
)
def test_text_position_inside_text_values(text: str, offset_of: str, expected: Position) -> None:
    doc = parse_yaml(text)
    assert doc.text_position(("body",), doc.data["body"].index(offset_of)) == expected


def test_text_position_counts_repeated_words() -> None:
    doc = parse_yaml("body: |\n  [@a] once.\n  [@a] twice.\n")
    second = doc.data["body"].index("[@a]", 1)
    assert doc.text_position(("body",), second) == Position(3, 3)


def test_text_position_of_something_not_in_the_file_falls_back_to_the_value() -> None:
    doc = parse_yaml('body: "tab\\there [@x]"\n')
    assert doc.text_position(("body",), 999) == Position(1, 7)


@pytest.mark.parametrize(
    ("text", "position", "message", "hint"),
    [
        ("a:\n\tb: 1\n", Position(2, 1), "a tab character is used for indentation", "spaces"),
        ("a: 1\nb: [x, y\nc: 1\n", Position(2, 4), "the `[` opened here is never closed", "closing `]`"),
        ("a: {x: 1\nb: 1\n", Position(1, 4), "the `{` opened here is never closed", "closing `}`"),
        ('a: "hello\nb: 1\n', Position(1, 4), "the quote opened here is never closed", "closing quote"),
        ("title: Boards: the basics\n", Position(1, 14), "the value contains `: `", 'title: "Boards: the basics"'),
        ("a: 1\nb:\n  c: 1\n   d: 2\n", Position(4, 5), "indented more than the keys above it", "line it up"),
        ("a:\n  b: 1\n c: 2\n", Position(3, 2), "indented differently", "as many spaces as the keys"),
        ("a: 1\n- b\n", Position(2, 1), "a list item `- `", "remove the `- `"),
        ("a: 1\nb\nc: 2\n", Position(2, 1), "no `:` after its key", "key: value"),
        ("body: [@x] says\n", Position(1, 7), "cannot start with a citation", '"[@x] says"'),
        ("a: `code`\n", Position(1, 4), "cannot start with a backtick", "quotes"),
        ("a: *bold* text\n", Position(1, 4), "read as a YAML alias", "quotes"),
        ("a: 1\n---\nb: 2\n", Position(2, 1), "more than one YAML document", "remove the `---`"),
        ("title: [\n", Position(2, 1), "the file ends in the middle of a value", "close every `[`"),
        ("a: ]\n", Position(1, 4), "a value is missing here", "quotes"),
        ('a: "C:\\q"\n', Position(1, 8), "`\\q` is not an escape YAML knows", "single quotes"),
    ],
)
def test_syntax_errors_say_what_and_how(text: str, position: Position, message: str, hint: str) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text)
    error = caught.value
    assert error.position == position
    assert error.message.startswith("YAML syntax: ")
    assert message in error.message
    assert hint in error.hint
    assert "<block" not in error.message and "token" not in error.message


def test_base_60_numbers_stay_text() -> None:
    assert parse("time: 12:30:00\nratio: 1:2\n").data == {"time": "12:30:00", "ratio": "1:2"}


def test_aliases_are_expanded() -> None:
    assert parse("a: &s [x]\nb: *s\n").data == {"a": ["x"], "b": ["x"]}


def test_an_alias_inside_its_own_anchor_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml("a: &x {b: *x}\n")
    assert "refers to the value that contains it" in caught.value.message
    assert caught.value.position == Position(1, 4)


def test_an_alias_bomb_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_limits, "MAX_NODES", 2_000)  # the same limit, reached sooner
    lines = ["a0: &a0 [" + ", ".join(['""'] * 10) + "]"]  # no text: the values, not their characters, explode
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 7)]
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml("\n".join(lines) + "\n")
    assert "too many values" in caught.value.message


def test_a_complex_key_is_named_by_its_text() -> None:
    assert parse("? [a, b]\n: 1\n").data == {"[a, b]": 1}


def test_many_repeats_of_a_small_anchor_are_fine() -> None:
    text = "a: &s {x: 1}\nb: [" + ", ".join(["*s"] * 500) + "]\n"
    assert len(parse_yaml(text).data["b"]) == 500


# --- nesting limit and decoding --------------------------------------------------------

def nested(levels: int, style: str) -> str:
    """A value nested ``levels`` deep under `extra:`, in flow (`[[…]]`) or block (`- - …`) style."""
    if style == "flow":
        return "id: x\nextra: " + "[" * levels + "]" * levels + "\n"
    return "id: x\nextra:\n" + "".join("  " * (depth + 1) + "-\n" for depth in range(levels - 1)) + "  " * levels + "- 1\n"


@pytest.mark.parametrize("style", ["flow", "block"])
def test_nesting_up_to_the_limit_is_read(style: str) -> None:
    doc = parse_yaml(nested(yaml_source.MAX_DEPTH - 1, style))  # `extra` itself is the top mapping's child
    value, depth = doc.data["extra"], 1
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    assert depth >= yaml_source.MAX_DEPTH - 1


@pytest.mark.parametrize("style", ["flow", "block"])
@pytest.mark.parametrize("levels", [yaml_source.MAX_DEPTH + 1, 600, 5_000])
def test_nesting_beyond_the_limit_is_a_positioned_error_not_a_crash(style: str, levels: int) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(nested(levels, style))
    error = caught.value
    assert error.message == f"YAML syntax: values are nested more than {yaml_source.MAX_DEPTH} levels deep here"
    assert error.hint.startswith("flatten it")
    # the top mapping is level 1, `extra`'s value level 2: the 65th opening is where it stops
    expected = Position(2, 8 + yaml_source.MAX_DEPTH - 1) if style == "flow" else Position(yaml_source.MAX_DEPTH + 2, 2 * yaml_source.MAX_DEPTH + 1)
    assert error.position == expected


def test_aliases_cannot_stack_shallow_pieces_into_a_deep_value() -> None:
    half = yaml_source.MAX_DEPTH // 2 + 2
    text = "a: &a " + "[" * half + "]" * half + "\nb: " + "[" * half + "*a" + "]" * half + "\n"
    with pytest.raises(YamlSyntaxError, match="nested more than"):
        parse_yaml(text)


@pytest.mark.parametrize(("data", "position"), [
    (b"\xff", Position(1, 1)),
    (b"id: x\ntitle: \xc3\xa9t\xc3\xa9 \xff\n", Position(2, 12)),  # é counts as one column
    (b"a: 1\r\nb: 2\r\n  c: \xe9\n", Position(3, 6)),  # Latin-1 é
    (b"a: \xc3\n", Position(1, 4)),  # a UTF-8 sequence cut short
])
def test_a_byte_that_is_not_utf8_is_placed_by_line_and_column(data: bytes, position: Position) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        yaml_source.decode_utf8(data)
    assert caught.value.position == position
    assert caught.value.message.startswith("the byte 0x") and "UTF-8" in caught.value.hint


def test_utf8_text_decodes_unchanged() -> None:
    assert yaml_source.decode_utf8("title: Ünïcödé ✓\n".encode()) == "title: Ünïcödé ✓\n"
