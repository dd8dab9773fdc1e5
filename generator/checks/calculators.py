"""Calculators named by topics: each name must be a module in ``calculators/``, and each calculator
must declare itself soundly (``generator.checks.calculator_declarations``)."""

from __future__ import annotations

from collections.abc import Iterator

from generator.calculation.port import calculator_names
from generator.checks.calculator_declarations import check_calculators as check_calculator_declarations
from generator.checks.where import at_topic, suggestion
from generator.content.loading import TopicFile
from generator.diagnostics import Diagnostic

__all__ = ["check_calculator_declarations", "check_calculator_names"]


def check_calculator_names(tf: TopicFile) -> Iterator[Diagnostic]:
    """Every calculator a depth of this topic names must exist."""
    named = [(key, depth) for key, depth in tf.topic.depths.present() if depth.calculator]
    names = calculator_names() if named else []  # listing calculators/ is slow enough to skip for the many topics without
    for key, depth in named:
        if depth.calculator.name not in names:
            hint = (suggestion(depth.calculator.name, names) + " (modules in calculators/)" if names
                    else "add a module of that name to calculators/")
            yield at_topic(tf, ("depths", key, "calculator", "name"), "error",
                           f"unknown calculator `{depth.calculator.name}`", hint, value=True)
