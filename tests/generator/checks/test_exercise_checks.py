"""generator/checks/exercises.py (named apart from calculation's test_exercises.py: these folders
are not packages, so test basenames must differ). The exercise check judges claims on what the page shows, so the two never disagree."""

from __future__ import annotations

from pathlib import Path

import pytest

import generator.checks.exercises as exercises_check
from generator.checks.exercises import check_exercises
from tests.generator.fake_calculators import rounding_calculator
from tests.generator.mini_project import copy_mini

TOPIC = """\
    id: rounding
    title: Rounding
    layer: 2
    summary: Where a form writes six figures.
    depths:
      D1:
        body: The form rounds.
        calculator:
          name: parallelism
        exercises:
          - prompt: Set x to 1,234,567.5.
            answer: The page reads 1,234,570.
            steps:
              - set: {x: 1234567.5}
            claims:
              - {output: y, equals: %s, tolerance: 1e-9}
"""


@pytest.fixture
def rounding_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every calculator the check asks for is the rounding stand-in."""
    monkeypatch.setattr(exercises_check, "calculator_module", lambda name: rounding_calculator())


def test_a_claim_true_only_of_the_exact_number_is_reported_at_check(tmp_path: Path, rounding_page: None) -> None:
    mini = copy_mini(tmp_path)
    path = mini.write("layer-2/rounding.yaml", TOPIC % "1234567.5")
    [error] = check_exercises(mini.load())
    assert error.message == "false claim: y is 1234570 at x 1.235e+06, not 1234567.5"
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "equals:" in row)
    assert (error.file, error.line) == ("content/layer-2/rounding.yaml", line)


def test_the_number_the_page_shows_is_a_true_claim(tmp_path: Path, rounding_page: None) -> None:
    mini = copy_mini(tmp_path)
    mini.write("layer-2/rounding.yaml", TOPIC % "1234570")
    assert check_exercises(mini.load()) == []
