"""Every value content gives a calculator, judged at `check` against the inputs it declares.

Content gives values in four places of a depth: the calculator's starting ``values``, a thing
to try's ``set:`` and ``sweep:`` (with its ``values:``) and a claim's ``when:``. Each name must be
a declared input; a select's value one of its options; a number a finite number within the
input's min and max (in base units, as content writes them). Then the starting scenario is
evaluated as the page will, so a combination the calculator refuses is also an error at
`check`, at its line, and `build` never meets one."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any

from generator.calculation.port import page_evaluation
from generator.checks.where import at_topic, closest
from generator.content.loading import TopicFile
from generator.content.schema import Depth, Exercise, Step
from generator.content.yaml_source import KeyPath
from generator.diagnostics import Diagnostic

Inputs = dict[str, dict]  # input name -> its declaration in the calculator's INPUTS


def calculator_value_problems(tf: TopicFile, key: str, depth: Depth, module: ModuleType) -> list[Diagnostic]:
    """What is wrong with the values a depth gives its calculator (none: the page can show them)."""
    inputs = {spec["name"]: spec for spec in module.INPUTS}
    values_path = ("depths", key, "calculator", "values")
    found = list(_mapping_problems(tf, values_path, depth.calculator.values, inputs))
    for index, exercise in enumerate(depth.exercises):
        found += _exercise_problems(tf, ("depths", key, "exercises", index), exercise, inputs)
    if not found:
        found += _scenario_problems(tf, values_path, depth.calculator.values, module)
    return found


def _exercise_problems(tf: TopicFile, path: KeyPath, exercise: Exercise, inputs: Inputs) -> Iterator[Diagnostic]:
    for number, step in enumerate(exercise.steps):
        if step.set is not None:
            yield from _mapping_problems(tf, (*path, "steps", number, "set"), step.set, inputs)
        else:
            yield from _sweep_problems(tf, (*path, "steps", number), step, inputs)
    for number, claim in enumerate(exercise.claims):
        yield from _mapping_problems(tf, (*path, "claims", number, "when"), claim.when or {}, inputs)


def _mapping_problems(tf: TopicFile, path: KeyPath, values: Mapping[str, Any], inputs: Inputs) -> Iterator[Diagnostic]:
    for name, value in values.items():
        if name not in inputs:
            yield _unknown_input(tf, (*path, name), name, inputs)
        else:
            yield from _value_problems(tf, (*path, name), inputs[name], value)


def _sweep_problems(tf: TopicFile, path: KeyPath, step: Step, inputs: Inputs) -> Iterator[Diagnostic]:
    if step.sweep not in inputs:
        yield _unknown_input(tf, (*path, "sweep"), str(step.sweep), inputs, value=True)
        return
    for number, value in enumerate(step.values or []):
        yield from _value_problems(tf, (*path, "values", number), inputs[step.sweep], value)


def _unknown_input(tf: TopicFile, path: KeyPath, name: str, inputs: Inputs, *, value: bool = False) -> Diagnostic:
    near = closest(name, list(inputs))
    message = f"unknown input `{name}`" + (f"; did you mean `{near}`?" if near else "")
    return at_topic(tf, path, "error", message, f"name one of the calculator's inputs: {', '.join(inputs)}", value=value)


def _value_problems(tf: TopicFile, path: KeyPath, spec: dict, value: Any) -> Iterator[Diagnostic]:
    problem = option_problem(spec, value) if spec["control"] == "select" else number_problem(spec, value)
    if problem:
        yield at_topic(tf, path, "error", *problem, value=True)


def option_problem(spec: dict, value: Any) -> tuple[str, str] | None:
    """(what is wrong, how to fix it) when ``value`` is not one of the select's options."""
    options = [option["value"] for option in spec["options"]]
    if not isinstance(value, bool) and str(value) in options:
        return None
    listed = ", ".join(options)
    return f"{_written(value)} is not one of {listed}", f"write one of {listed} for `{spec['name']}`"


def number_problem(spec: dict, value: Any) -> tuple[str, str] | None:
    """(what is wrong, how to fix it) when ``value`` is not a finite number in the input's range
    (base units: the declared min and max, which are in displayed units, times its factor)."""
    name, factor = spec["name"], float(spec.get("factor", 1))
    low, high = spec["min"] * factor, spec["max"] * factor
    fix = f"write a number from {_number(low)} to {_number(high)} for `{name}`{_unit(spec)}"
    if isinstance(value, (bool, str)):
        return f"{_written(value)} is not a number", fix
    number = _float(value)
    if math.isnan(number):
        return "NaN is not a number", fix
    if math.isinf(number) and isinstance(value, float):
        return f"{'-' if number < 0 else ''}infinity is not a finite number", fix
    if number > high:
        return f"{_written(value)} is above the maximum {_number(high)} of `{name}`", fix
    if number < low:
        return f"{_written(value)} is below the minimum {_number(low)} of `{name}`", fix
    return None


def _scenario_problems(tf: TopicFile, path: KeyPath, values: Mapping[str, Any], module: ModuleType) -> list[Diagnostic]:
    """The calculator's own verdict on the starting values together, each at the value it is about."""
    try:
        _, result = page_evaluation(module, dict(values))
    except ValueError as error:  # no form text can say a value: judged above, so not expected here
        return [at_topic(tf, path, "error", f"the calculator cannot take these values: {error}",
                         "write values the calculator's inputs accept")]
    return [at_topic(tf, (*path, field) if field in values else path, "error",
                     f"the calculator refuses these starting values: {message}",
                     "change the values (or leave some out to keep their defaults) so the calculator accepts them together",
                     value=field in values)
            for field, message in result["errors"].items()]


def _float(value: int | float) -> float:
    """A YAML number as a float: an integer too large for one becomes ±infinity."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _number(number: float) -> str:
    """A bound as content would write it: 64, 0.1, 2e+12."""
    return str(int(number)) if float(number).is_integer() and abs(number) < 1e7 else f"{number:.6g}"


def _written(value: Any) -> str:
    """A value as the message quotes it: text in backticks, true/false as YAML writes them, numbers plain."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, int) and math.isinf(_float(value)):
        return f"a {len(str(abs(value)))}-digit number"
    return _number(float(value))


def _unit(spec: dict) -> str:
    """What content's numbers count: " (accelerators)", or " in base units (1e+09 = 1 billion parameters)"."""
    factor, unit = float(spec.get("factor", 1)), spec.get("unit", "")
    if factor == 1:
        return f" ({unit})" if unit else ""
    return f" in base units ({_number(factor)} = 1 {unit or 'displayed unit'})"
