"""The shape a Markdown value may have (issue 33, F6 and F7): openings left open, brackets, lists
and HTML elements nested too deep are refused at `check` with file, line and field, before anything
renders them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from mini_project import BOARDS, MiniProject

from generator.content.markdown_limits import MAX_BRACKET_DEPTH, MAX_NESTING, MAX_UNCLOSED, markdown_problem
from generator.content.yaml_source import text_fields
from generator.diagnostics import ContentError
from generator.pipeline import generate
from generator.project import Project

ROOT = Path(__file__).resolve().parents[3]


def test_every_text_of_the_real_map_and_the_fixtures_is_within_the_limits() -> None:
    files = [*ROOT.glob("content/**/*.yaml"), *ROOT.glob("tests/fixtures/**/*.yaml")]
    texts = [text for path in files for _, text in text_fields(yaml.safe_load(path.read_text(encoding="utf-8")))]
    assert len(texts) > 1_000
    assert [(text[:60], markdown_problem(text)) for text in texts if markdown_problem(text)] == []


@pytest.mark.parametrize(("text", "offset", "message"), [
    ("[" * 30_000, MAX_BRACKET_DEPTH, "this `[` is the 5th still open"),  # the 30,000 `[`
    ("x [a [b [c [d [e]]]]] y", 14, "this `[` is the 5th still open"),
    ("see [a] [b [c [d [e [f", 20, "this `[` is the 5th still open"),  # those never closed count
    ("[a](x " * 5, 3, "5 links `[…](` are never closed with their `)`"),
    ("[a](" * 10_000, 3, "10,000 links `[…](` are never closed"),
    ("<a " * 10_000, 0, "10,000 `<` that start an HTML tag are never closed with `>`"),
    ("{{ " * 5, 12, "this `{{` is the 5th still open"),
    ("- " * 800 + "x", 0, f"lists and quotes are nested more than {MAX_NESTING} deep"),  # the F7
    ("> " * 20 + "x", 0, "lists and quotes are nested more than"),
    ("text\n\n" + "".join("    " * level + "- item\n" for level in range(30)), 6 + sum(4 * n + 7 for n in range(16)) + 64,
     "lists and quotes are nested more than"),
    ("<div>" * 20 + "x" + "</div>" * 20, 5 * MAX_NESTING, "HTML elements are nested more than 16 deep"),
])
def test_shapes_beyond_the_limits_are_refused_where_they_start(text: str, offset: int, message: str) -> None:
    problem = markdown_problem(text)
    assert problem is not None and message in problem.message
    assert problem.offset == offset
    assert problem.fix


@pytest.mark.parametrize("text", [
    "A link around a citation: [the paper [@smith2020]](https://example.org/a_(b)) and [@a; @b].",
    "Four left open is allowed: [0, 1) and [2, 3) and [4, 5) and [6, 7).",
    "Brackets in code are code: `a[i][j[k[l[m[n]` and ``x[[[[[[[`` and\n\n```\n[[[[[[[[\n- - - - - - - - - - - - - - - - - - x\n```\n",
    "Escaped: \\[\\[\\[\\[\\[\\[ and \\{\\{ \\{\\{ \\{\\{ \\{\\{ \\{\\{ and a < b, 3<4, x <= y.",
    "HTML that closes: <b>bold</b> <br><br><br><br><br><br> <img src='x.png'> <span>a</span>",
    "A list:\n\n- one\n    - two\n        - three\n\n> quoted\n> > twice",
    "{{ parallelism.bubble(pp=8) }} and {{ serving.tps(batch=4) }}",
])
def test_ordinary_markdown_is_within_the_limits(text: str) -> None:
    assert markdown_problem(text) is None


def test_the_limits_are_small_multiples_of_what_real_text_uses() -> None:
    assert MAX_UNCLOSED == 4 and MAX_BRACKET_DEPTH == 4 and MAX_NESTING == 16


def test_check_refuses_them_with_file_line_and_field(mini: MiniProject) -> None:
    body = "|\n      Boards hold chips.\n\n      " + "- " * 800 + "x\n    tradeoffs:\n      - \"Cheap but " + "[" * 30_000 + "\""
    mini.write("layer-2/boards.yaml", BOARDS.replace("body: Boards hold chips.", "body: " + body))
    report = mini.report()
    assert "content/layer-2/boards.yaml:10:7: error: `depths.D1.body` lists and quotes are nested more than 16 deep here" in report
    assert "content/layer-2/boards.yaml:12:20: error: `depths.D1.tradeoffs[0]` this `[` is the 5th still open" in report
    assert report.endswith("2 error(s), 0 warning(s)")


def test_a_build_of_deep_nesting_stops_at_the_content_never_in_a_recursion_error(mini: MiniProject) -> None:
    """F7: `"- " * 800` in a body was "internal error: RecursionError" from the renderer."""
    (mini.root / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), encoding="utf-8")
    mini.write("layer-2/boards.yaml", BOARDS.replace("body: Boards hold chips.", 'body: "' + "- " * 800 + 'x"'))
    with pytest.raises(ContentError) as caught:
        generate(Project(mini.root))
    assert "content/layer-2/boards.yaml:7:12: error: `depths.D1.body` lists and quotes are nested" in caught.value.log.report()
