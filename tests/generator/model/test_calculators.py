"""The page model takes an exercise's plan and end state from the states the build proved."""

from __future__ import annotations

import calculators.parallelism as parallelism
from generator.calculation.exercises import plan, play
from generator.content.schema import Exercise
from generator.model.calculators import CalculatorBridge


def test_the_exercise_view_is_the_proven_states_plan_and_last_display() -> None:
    exercise = Exercise.model_validate({"prompt": "try", "steps": [{"set": {"pp": 8}}, {"sweep": "micro_batches", "values": [1, 8]}],
                                        "claims": [{"output": "bubble", "trend": "falls"}]})
    states = play(parallelism, {"tp": 2}, exercise)
    view = CalculatorBridge().exercise("parallelism", {"tp": 2}, exercise)
    assert view.plan == plan(states)
    assert view.plan[1:] == [{"pp": "8"}, {"micro_batches": "8"}]  # only what each step changed, as form text
    name, _, shown = view.end[0]
    assert (name, shown) == ("bubble", states[-1].display["bubble"])
