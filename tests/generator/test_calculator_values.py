"""Calculator values in content (issue 33, F8): judged at `check`, never an internal error at `build`.

A depth's calculator ``values`` (and what its things to try set and sweep) with an unknown name,
an option the input does not offer, a number outside its range, NaN or infinity is an error
at `check` naming file:line:column and the key; `build` stops on the same error before
writing anything. What the check accepts, the page accepts too, for every declared input."""

from __future__ import annotations

import importlib
import math
import shutil
import time

import pytest
from mini_project import MiniProject

from calcview.evaluate import raw_from_values
from calcview.values import parse_input
from generator.calculation.port import calculator_names
from generator.checks.calculator_values import number_problem, option_problem
from generator.cli import main
from generator.diagnostics import ContentError
from generator.pipeline import load_map
from generator.project import Project
from tests.conftest import ROOT

TOPIC = """\
    id: boards
    title: Boards
    layer: 2
    summary: Where chips are mounted.
    depths:
      D1:
        body: Boards hold chips.
      D4:
        body: Boards route signals.
        calculator:
          name: parallelism
          values: {%s}
    """
HOSTILE = {  # what the values hold -> what check must say about it
    "gpuz: 4": "`depths.D4.calculator.values.gpuz` unknown input `gpuz`",
    "precision: fp7": "`depths.D4.calculator.values.precision` `fp7` is not one of bf16, fp8, fp4",
    "tp: 1e300": "`depths.D4.calculator.values.tp` 1e+300 is above the maximum 64 of `tp`",
    "tp: .nan": "`depths.D4.calculator.values.tp` NaN is not a number",
    "tp: .inf": "`depths.D4.calculator.values.tp` infinity is not a finite number",
    "params: -.inf": "`depths.D4.calculator.values.params` -infinity is not a finite number",
    "dp: 1" + "0" * 400: "`depths.D4.calculator.values.dp` a 401-digit number is above the maximum 16384 of `dp`",
    "tp: 2.5": "`depths.D4.calculator.values.tp` the calculator refuses these starting values",
}




def where(values: str) -> str:
    """file:line:column of the first value of ``values: {…}`` (of its name, when that is unknown)."""
    name = values.split(":")[0]
    at_name = name not in {"precision", "tp", "params", "dp", "sharding"}
    return f"content/layer-2/boards.yaml:12:{16 if at_name else 18 + len(name)}"


@pytest.mark.parametrize("values", HOSTILE, ids=lambda values: values[:14])
def test_check_reports_the_value_at_its_line_in_under_two_seconds(
        mini: MiniProject, capsys: pytest.CaptureFixture[str], values: str) -> None:
    mini.write("layer-2/boards.yaml", TOPIC % values)
    started = time.perf_counter()
    assert main(["--project", str(mini.root), "check"]) == 1
    assert time.perf_counter() - started < 2
    err = capsys.readouterr().err
    assert f"{where(values)}: error: {HOSTILE[values]}" in err, err
    assert "\n    fix: " in err and "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("values", ["tpp: 8", "sharding: fp7", "tp: 1e300", "tp: .nan"])
def test_build_stops_on_the_same_error_before_writing(
        mini: MiniProject, capsys: pytest.CaptureFixture[str], values: str) -> None:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    mini.write("layer-2/boards.yaml", TOPIC % values)
    assert main(["--project", str(mini.root), "build"]) == 1
    err = capsys.readouterr().err
    assert f"{where(values)}: error: `depths.D4.calculator.values.{values.split(':')[0]}` " in err, err
    assert "internal error" not in err and "Traceback" not in err
    assert not (mini.root / "site").exists()


def test_a_thing_to_try_that_sweeps_past_the_range_is_reported_at_the_value(mini: MiniProject) -> None:
    topic = (TOPIC % "tp: 8").rstrip(" ") + """\
        exercises:
          - prompt: Add copies.
            steps:
              - sweep: dp
                values: [1, .nan]
    """
    mini.write("layer-2/boards.yaml", topic)
    with pytest.raises(ContentError) as caught:
        load_map(Project(mini.root))
    report = caught.value.log.report()
    assert "content/layer-2/boards.yaml:17:25: error: `depths.D4.exercises[0].steps[0].values[1]` NaN is not a number" in report


def _declared_inputs() -> list[tuple[str, dict]]:
    return [(name, spec) for name in calculator_names()
            for spec in importlib.import_module(f"calculators.{name}").INPUTS]


def _probes(spec: dict) -> list[object]:
    """Values content might give: each bound, just beyond it, far beyond, not finite, not a number."""
    if spec["control"] == "select":
        return [option["value"] for option in spec["options"]] + ["other", 1, True]
    factor = spec.get("factor", 1)
    low, high = spec["min"] * factor, spec["max"] * factor
    return [low, high, low * 0.999 - 1e-9, high * 1.001, 1e300, -1e300, math.nan, math.inf, True, "12"]


@pytest.mark.parametrize(("calculator", "spec"), _declared_inputs(), ids=lambda v: v if isinstance(v, str) else v["name"])
def test_what_the_check_accepts_the_page_accepts(calculator: str, spec: dict) -> None:
    judge = option_problem if spec["control"] == "select" else number_problem
    for value in _probes(spec):
        if judge(spec, value) is None:
            module = importlib.import_module(f"calculators.{calculator}")
            parse_input(spec, raw_from_values(module, {spec["name"]: value})[spec["name"]])  # raises if refused
    assert judge(spec, spec["default"]) is None, "the declared default passes"
