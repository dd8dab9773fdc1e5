"""Numbers in prose come from the calculator that would produce them."""

from __future__ import annotations

import pytest
from mini_project import BOARDS, MiniProject

from generator.calculation.prose_numbers import ProseNumberError, expand_numbers, unmatched_openings
from generator.checks.prose_numbers import check_prose_numbers


def test_expression_is_replaced_by_the_calculators_display() -> None:
    assert expand_numbers("about {{ parallelism.total_state_bytes(params=70e9) }} of state") == "about 1.12 TB of state"
    assert expand_numbers("{{parallelism.bubble(pp=8, micro_batches=1)}}") == "87.5 %"


def test_text_without_expressions_is_untouched() -> None:
    text = "Plain {braces} and {{ not a call }} stay."
    assert expand_numbers(text) == text


@pytest.mark.parametrize(("expression", "message"), [
    ("{{ parallelism.nope(params=70e9) }}", "has no output `nope`"),
    ("{{ parallelism.days(tp=2.5) }}", "Tensor-parallel ways must be a whole number"),
    ("{{ parallelism.days(tp=0) }}", "Tensor-parallel ways must be between 1 and 64"),
    ("{{ parallelism.memory_each_bytes(params=1e308) }}", "Model size must be between 0.1 and 2,000 billion parameters"),
    ("{{ parallelism.memory_each_bytes(params=nan) }}", "Model size must be a finite number"),
    ("{{ parallelism.memory_each_bytes(params=" + "9" * 400 + ") }}", "Model size must be between"),
    ("{{ parallelism.days(zz=1) }}", "unknown input 'zz'"),
    ("{{ parallelism.days(tp 2) }}", "cannot read the argument `tp 2`"),
    ("{{ nosuch.days(tp=2) }}", "nosuch"),
])
def test_mistakes_raise_a_message_for_the_editor(expression: str, message: str) -> None:
    with pytest.raises(ProseNumberError, match=message.replace("(", r"\(")):
        expand_numbers(expression)


@pytest.mark.parametrize(("text", "found"), [
    ("about {{ not a call }} here", [(6, "{{ not a call }}")]),
    ("{{ parallelism.days(tp=2) }} and {{ parallelism.days }}", [(33, "{{ parallelism.days }}")]),
    ("{{ Parallelism.days() }}", [(0, "{{ Parallelism.days() }}")]),
    ("never closed {{ parallelism.days(tp=2)\nnext line", [(13, "{{ parallelism.days(tp=2)…")]),
    ("fine {{ parallelism.days(tp=2) }}", []),
    ("escaped \\{\\{ braces }}", []),
    ("as code: `{{ template }}` and ``{{ x }}``", []),
    ("single { braces } and {: .attr }", []),
])
def test_openings_that_start_no_prose_number_are_found(text: str, found: list) -> None:
    assert unmatched_openings(text) == found


def test_check_reports_an_unmatched_expression_at_its_line_and_column(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("body: Boards hold chips.",
                                                     "body: |\n      Boards hold chips.\n      About {{ boards.count }} of them.\n"
                                                     "    formulas: |\n      x = {{ not checked: code }}"))
    [diagnostic] = check_prose_numbers(mini.load())
    assert diagnostic.format() == (
        "content/layer-2/boards.yaml:9:13: error: `depths.D1.body` `{{ boards.count }}` is not a prose number, "
        "so it would be printed as it stands\n"
        "    fix: write {{ calculator.output(input=value, …) }} with names from calculators/, or `\\{\\{` for literal braces")


def test_check_names_file_line_and_field_of_an_out_of_range_prose_number(mini) -> None:  # noqa: ANN001
    from generator.checks.prose_numbers import check_prose_numbers

    mini.write("layer-2/boards.yaml", "id: boards\ntitle: Boards\nlayer: 2\nsummary: Where chips are mounted.\ndepths:\n"
               "  D1:\n    body: A model needs {{ parallelism.memory_each_bytes(params=1e308) }} here.\n")
    found = [d for d in check_prose_numbers(mini.load()) if d.file.endswith("boards.yaml")]
    assert len(found) == 1 and found[0].line == 7 and found[0].path == "depths.D1.body"
    assert "Model size must be between 0.1 and 2,000 billion parameters" in found[0].message


@pytest.mark.parametrize(("field", "yaml_line", "column"), [
    ("summary", 'summary: "About {{ parallelism.days(tp=2) }} days."', 17),
    ("title", "title: Boards {{ x", 15),
])
def test_an_opening_outside_the_depths_is_reported_at_its_place(mini: MiniProject, field: str, yaml_line: str,
                                                                  column: int) -> None:
    """Issue 33: only a depth's text is computed; a `{{` in the summary was printed as it stands, unchecked."""
    text = BOARDS.replace("summary: Where chips are mounted.", yaml_line) if field == "summary" else \
        BOARDS.replace("title: Boards", yaml_line)
    mini.write("layer-2/boards.yaml", text)
    [diagnostic] = [d for d in check_prose_numbers(mini.load()) if d.path == field]
    assert (diagnostic.line, diagnostic.column) == (text.splitlines().index(yaml_line) + 1, column)
    assert "is not computed here (only a depth's text is)" in diagnostic.message
    assert "write the number itself" in diagnostic.hint


def test_escaped_braces_and_single_braces_outside_the_depths_are_fine(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("summary: Where chips are mounted.",
                                                     'summary: "Where {chips} are mounted, \\\\{\\\\{ literally."'))
    assert check_prose_numbers(mini.load()) == []
