"""Every claim a thing-to-try makes, proven at build time: a false claim is an error naming the
file, the line and the numbers the calculator gives, so content never states what it contradicts.
Before any is played, every value the depth gives its calculator is judged
(``generator.checks.calculator_values``)."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from generator.calculation.exercises import ExerciseError, claim_failure, play
from generator.calculation.port import calculator_module
from generator.checks.calculator_values import calculator_value_problems
from generator.checks.where import at_topic
from generator.content.loading import Content, TopicFile
from generator.content.schema import Depth, Exercise
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
    """Judge every value a depth gives its calculator; then play every exercise of the depths
    whose values are sound, and report each false claim."""
    return [d for tf in content.topics for key, depth in tf.topic.depths.present()
            for d in _depth_diagnostics(tf, key, depth)]


def _depth_diagnostics(tf: TopicFile, key: str, depth: Depth) -> list[Diagnostic]:
    tried = [(index, exercise) for index, exercise in enumerate(depth.exercises) if exercise.steps or exercise.claims]
    if not depth.calculator:
        return [at_topic(tf, ("depths", key, "exercises", index), "error", "steps and claims need a calculator in this depth",
                         "add `calculator: {name: …}` to the depth, or remove steps and claims") for index, _ in tried]
    module = calculator_module(depth.calculator.name)
    problems = calculator_value_problems(tf, key, depth, module)
    if problems:  # an exercise played from values the page cannot hold would only repeat them
        return problems
    overrides = dict(depth.calculator.values)
    return [d for index, exercise in tried for d in _exercise_diagnostics(tf, module, overrides, key, index, exercise)]
