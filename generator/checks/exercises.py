"""Every claim a thing-to-try makes, proven at build time: a false claim is an error naming the
file, the line and the numbers the calculator gives, so content never states what it contradicts."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from generator.calculation.exercises import ExerciseError, claim_failure, play
from generator.calculation.port import calculator_module
from generator.checks.where import at_topic
from generator.content.loading import Content, TopicFile
from generator.content.schema import Exercise
from generator.content.schema_errors import dotted
from generator.diagnostics import Diagnostic


def _exercise_diagnostics(tf: TopicFile, module: ModuleType, overrides: dict, key: str, index: int, exercise: Exercise) -> Iterator[Diagnostic]:
    path = ("depths", key, "exercises", index)

    def at(sub: tuple, message: str, hint: str) -> Diagnostic:
        return Diagnostic.error(tf.file, tf.doc.position((*path, *sub)), dotted((*path, *sub)), message, hint)

    try:
        states = play(module, overrides, exercise)
    except ExerciseError as error:
        yield at(("steps",), str(error), "fix the step so the calculator accepts it")
        return
    for number, claim in enumerate(exercise.claims):
        try:
            failure = claim_failure(claim, states)
        except ExerciseError as error:
            failure = str(error)
        if failure:
            yield at(("claims", number), f"false claim: {failure}",
                     "correct the claim (or the steps) so it says what the calculator shows")


def check_exercises(content: Content) -> list[Diagnostic]:
    """Play every exercise of every depth with a calculator; report each false claim."""
    found: list[Diagnostic] = []
    for tf in content.topics:
        for key, depth in tf.topic.depths.present():
            if not depth.calculator:
                found += [
                    at_topic(tf, ("depths", key, "exercises", i), "error", "steps and claims need a calculator in this depth",
                             "add `calculator: {name: …}` to the depth, or remove steps and claims")
                    for i, exercise in enumerate(depth.exercises) if exercise.steps or exercise.claims
                ]
                continue
            module = calculator_module(depth.calculator.name)
            for index, exercise in enumerate(depth.exercises):
                if exercise.steps or exercise.claims:
                    found += _exercise_diagnostics(tf, module, dict(depth.calculator.values), key, index, exercise)
    return found
