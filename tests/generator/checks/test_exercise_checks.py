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


SWEEPING = """\
id: sweeping
title: Sweeping
layer: 2
summary: A thing to try that sweeps.
depths:
  D1:
    body: Sweep it.
    calculator:
      name: parallelism
    exercises:
      - prompt: Sweep the pipeline.
        steps:
%s
        claims:
          - {output: bubble, trend: falls}
"""


def sweep(values: int) -> str:
    return "          - sweep: micro_batches\n            values: [" + ", ".join(str(v) for v in range(1, values + 1)) + "]"


@pytest.mark.parametrize(("sweeps", "error", "fix"), [
    # the case: a sweep of 10,000 values made check play 10,000 states (6 s); at most 50 now
    ([10_000], "14:13: error: `depths.D1.exercises[0].steps[0].values` has more than 50 items (10,000)", "sweep fewer values"),
    ([40, 30], "11:9: error: `depths.D1.exercises[0]` the steps play 70 states of the calculator; a thing to try plays at most 60",
     "split it into two things to try"),
])
def test_a_sweep_or_an_exercise_too_long_is_refused_before_it_is_played(tmp_path: Path, sweeps: list[int], error: str,
                                                                         fix: str) -> None:
    mini = copy_mini(tmp_path)
    mini.write("layer-2/sweeping.yaml", SWEEPING % "\n".join(sweep(values) for values in sweeps))
    report = mini.report()
    assert f"content/layer-2/sweeping.yaml:{error}" in report and fix in report


def test_sweeps_within_the_limits_are_played(tmp_path: Path) -> None:
    mini = copy_mini(tmp_path)
    mini.write("layer-2/sweeping.yaml", SWEEPING % "\n".join([sweep(30), sweep(30)]))
    assert [d for d in check_exercises(mini.load()) if d.severity == "error" and "states" in d.message] == []
