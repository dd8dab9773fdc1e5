"""Things to try, played through the same evaluation the page runs.

An exercise's steps produce a sequence of calculator states; its claims are judged against
that sequence. Each state is what the page shows after the browser sets the form text for it:
``calcview.evaluate`` (through the calculator port) of that text, so a number that the form's
text rounds is judged as the reader sees it, not as the YAML wrote it. ``play`` is the one
function that makes these states: the checks (``generator.checks.exercises``) turn a false
claim into an error, the page model takes the plan the browser plays and the end state it
reveals from them (``plan``), and the browser tests play the same plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from generator.calculation.port import page_evaluation
from generator.content.schema import Claim, Exercise


@dataclass(frozen=True)
class State:
    """One moment of an exercise: the inputs set so far and what the page's calculator says."""

    inputs: dict[str, Any]  # as the exercise sets them (base units, option values)
    outputs: dict[str, Any]  # the numbers the page computes from the form text (evaluate's values)
    label: str  # "micro_batches 8", for messages
    raw: dict[str, str] = field(default_factory=dict)  # the form text the page holds
    display: dict[str, str] = field(default_factory=dict)  # every output as the page shows it


class ExerciseError(ValueError):
    """A step or claim that cannot be played: unknown input, bad value, unknown output."""


def starting_inputs(module: ModuleType, overrides: dict[str, Any]) -> dict[str, Any]:
    inputs = {spec["name"]: spec["default"] for spec in module.INPUTS}
    inputs.update(overrides)
    return inputs


def _evaluate(module: ModuleType, inputs: dict[str, Any], label: str) -> State:
    """The state the page shows once its form holds the text for ``inputs``."""
    try:
        raw, result = page_evaluation(module, inputs)
    except ValueError as error:
        raise ExerciseError(f"the calculator refuses the state at {label}: {error}") from None
    if not result["ok"]:
        reasons = "; ".join(result["errors"].values())
        raise ExerciseError(f"the calculator refuses the state at {label}: {reasons}")
    return State(dict(inputs), result["values"], label, raw, result["display"])


def _check_names(module: ModuleType, names: list[str]) -> None:
    known = [spec["name"] for spec in module.INPUTS]
    for name in names:
        if name not in known:
            raise ExerciseError(f"unknown input `{name}` (inputs: {', '.join(known)})")


def play(module: ModuleType, overrides: dict[str, Any], exercise: Exercise) -> list[State]:
    """The calculator's scenario, then every distinct state the steps pass through.

    The first step's state is always kept (it is where the exercise "starts"); after it, a
    step that changes nothing (a sweep beginning at the current value) adds no state.
    """
    _check_names(module, list(overrides))
    inputs = starting_inputs(module, overrides)
    states = [_evaluate(module, inputs, "the page's scenario")]

    def visit(label: str) -> None:
        if len(states) > 1 and inputs == states[-1].inputs:
            return
        states.append(_evaluate(module, inputs, label))

    for step in exercise.steps:
        if step.set is not None:
            _check_names(module, list(step.set))
            inputs.update(step.set)
            visit(", ".join(f"{k} {_show(v)}" for k, v in step.set.items()))
        else:
            _check_names(module, [step.sweep])
            for value in step.values or []:
                inputs[step.sweep] = value
                visit(f"{step.sweep} {_show(value)}")
    return states


def plan(states: list[State]) -> list[dict[str, str]]:
    """What the browser sets, state by state: the full form text of the first state, then for
    each later one the text of the inputs the exercise changed."""
    changes = [dict(states[0].raw)]
    for before, after in zip(states, states[1:]):
        changes.append({k: after.raw[k] for k, v in after.inputs.items() if before.inputs.get(k) != v})
    return changes


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _apart(found: Any, expected: Any) -> tuple[str, str]:
    """Two different values written with as many digits as it takes to tell them apart."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (found, expected))
    if not numbers or not any(isinstance(v, float) for v in (found, expected)):
        return _show(found), _show(expected)
    for digits in (4, 8, 12):
        if f"{found:.{digits}g}" != f"{expected:.{digits}g}":
            break
    return f"{found:.{digits}g}", f"{expected:.{digits}g}"


def same(found: Any, expected: Any, tolerance: float) -> bool:
    """Equality as a reader means it: booleans by truth, numbers within a relative tolerance."""
    if isinstance(found, bool) or isinstance(expected, bool):
        truth = expected if isinstance(expected, bool) else str(expected).lower() in ("true", "yes")
        return bool(found) == truth
    if isinstance(found, (int, float)) and isinstance(expected, (int, float)):
        return math.isclose(found, expected, rel_tol=tolerance, abs_tol=tolerance * 1e-9)
    return found == expected


def _output(state: State, name: str) -> Any:
    if name not in state.outputs:
        raise ExerciseError(f"unknown output `{name}` (outputs: {', '.join(state.outputs)})")
    return state.outputs[name]


def step_states(states: list[State]) -> list[State]:
    """The states the steps produced: what `at: start`, trends and ratios read."""
    return states[1:] if len(states) > 1 else states


def claim_failure(claim: Claim, states: list[State]) -> str | None:
    """None if the claim holds over the states, else what was found instead."""
    out = claim.output
    values = [_output(s, out) for s in states]
    if claim.equals is not None:
        state = step_states(states)[0] if claim.at == "start" else states[-1]
        found = _output(state, out)
        if not same(found, claim.equals, claim.tolerance):
            shown, wanted = _apart(found, claim.equals)
            return f"{out} is {shown} at {state.label}, not {wanted}"
        return None
    if claim.becomes is not None:
        # Like trends, read from where the exercise starts (its first step), not the page's scenario.
        moved = step_states(states)
        first = next((s for s in moved if same(_output(s, out), claim.becomes, claim.tolerance)), None)
        if first is None:
            return f"{out} never becomes {_show(claim.becomes)} (last: {_show(values[-1])} at {states[-1].label})"
        wanted = claim.when or {}
        if not all(same(first.inputs.get(k), v, 1e-9) for k, v in wanted.items()):
            where = ", ".join(f"{k} {_show(first.inputs.get(k))}" for k in wanted)
            return f"{out} first becomes {_show(claim.becomes)} at {where}, not at " + ", ".join(f"{k} {_show(v)}" for k, v in wanted.items())
        return None
    return _sequence_failure(claim, step_states(states))


def _sequence_failure(claim: Claim, states: list[State]) -> str | None:
    out = claim.output
    for before, after in zip(states, states[1:]):
        a, b = _output(before, out), _output(after, out)
        between = f"between {before.label} and {after.label}"
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
        if not numeric and (claim.trend in ("rises", "falls") or claim.ratio is not None):
            return f"{out} is not a number {between} ({_show(a)} → {_show(b)}): a trend or ratio needs numbers at every step"
        if claim.trend == "rises" and not b > a:
            return f"{out} did not rise {between}: {_show(a)} → {_show(b)}"
        if claim.trend == "falls" and not b < a:
            return f"{out} {'rose' if b > a else 'stayed'} from {_show(a)} to {_show(b)} {between}"
        if claim.trend == "constant" and not same(b, a, claim.tolerance):
            return f"{out} changed from {_show(a)} to {_show(b)} {between}"
        if claim.ratio is not None:
            ratio = b / a if a else math.inf
            if not same(ratio, claim.ratio, claim.tolerance):
                return f"{out} changed by × {_show(ratio)}, not × {_show(claim.ratio)}, {between}"
    return None


