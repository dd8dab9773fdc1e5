"""The calculators as the pages show them: a form with build-time numbers, numbers in prose, and
each thing to try as the plan the browser plays and the end state revealed with its answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.calculation.exercises import plan, play
from generator.calculation.port import calculator_html, calculator_module, typed_calculator_sources
from generator.calculation.prose_numbers import expand_numbers
from generator.content.schema import Exercise, Source


@dataclass(frozen=True)
class ExerciseView:
    """An exercise ready to render: the states to play (form text) and the end state's numbers."""

    plan: list[dict[str, str]]  # first the full starting scenario, then the changes of each state
    end: list[tuple[str, str, str]]  # (output name, label, displayed value) at the end state


class CalculatorBridge:
    """The calculators as page rendering sees them (implements ``render.ports.Calculators``)."""

    def sources(self, name: str) -> list[Source]:
        """The calculator's SOURCES as typed records."""
        return typed_calculator_sources(name)

    def html(self, name: str, instance_id: str, values: dict[str, Any]) -> str:
        return calculator_html(name, instance_id, values)

    def expand(self, text: str) -> str:
        return expand_numbers(text)

    def exercise(self, name: str, values: dict[str, Any], exercise: Exercise) -> ExerciseView:
        module = calculator_module(name)
        states = play(module, values, exercise)
        shown = states[-1].display
        wanted = [c.output for c in exercise.claims] + [o["name"] for o in module.OUTPUTS if o.get("announce")]
        labels = {o["name"]: o["label"] for o in module.OUTPUTS}
        end = [(n, labels[n], shown[n]) for n in dict.fromkeys(wanted) if n in shown]
        return ExerciseView(plan(states), end)
