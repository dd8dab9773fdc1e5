"""Calculators named by topics: each must exist in ``calculators/`` and declare itself soundly."""

from __future__ import annotations

from collections.abc import Iterator

from generator.calculation.port import calculator_names, calculator_problems
from generator.checks.where import at_topic, suggestion
from generator.content.loading import TopicFile
from generator.diagnostics import Diagnostic


def check_calculators(tf: TopicFile) -> Iterator[Diagnostic]:
    """Every calculator a depth of this topic names: unknown names, unsound declarations."""
    for key, depth in tf.topic.depths.present():
        if depth.calculator and depth.calculator.name not in calculator_names():
            names = calculator_names()
            hint = (suggestion(depth.calculator.name, names) + " (modules in calculators/)" if names
                    else "add a module of that name to calculators/")
            yield at_topic(tf, ("depths", key, "calculator", "name"), "error",
                           f"unknown calculator `{depth.calculator.name}`", hint, value=True)
        elif depth.calculator:
            for message, fix in calculator_problems(depth.calculator.name):
                yield at_topic(tf, ("depths", key, "calculator", "name"), "error",
                               f"calculator `{depth.calculator.name}`: {message}", fix, value=True)
