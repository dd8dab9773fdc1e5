"""Every calculator opens on a sensible, realistic case (issue 34, item 9).

Each calculator block of the content starts from its module's declared defaults with the depth's
``values`` on top; the reader sees that case before touching anything. Played here in CPython as
the page's worker plays it (calcview.evaluate): no result in a failure state (an error, a model
that does not fit in memory) and every duration within what such a job, step or answer takes.
"""

from __future__ import annotations

import importlib
import math

import pytest

from calcview.evaluate import evaluate, raw_from_values
from tests.conftest import real_content

TOPICS = [entry.topic for entry in real_content().topics]
BLOCKS = [pytest.param(depth.calculator.name, dict(depth.calculator.values), id=f"{topic.id}-{key}-{depth.calculator.name}")
          for topic in TOPICS for key, depth in topic.depths.present() if depth.calculator]
# A duration, by the end of the output's name, and the longest that is still a plausible case.
# (Accelerator-hours count work, not time.)
LONGEST = {"_seconds": 3600.0, "_minutes": 24 * 60.0, "_hours": 24 * 365.0, "days": 2 * 365.0, "_months": 20 * 12.0}


def duration_limit(name: str) -> float | None:
    if name.endswith("accelerator_hours") or name.startswith("accelerator_hours"):
        return None
    return next((limit for end, limit in LONGEST.items() if name.endswith(end)), None)


def test_every_calculator_block_of_the_content_is_checked() -> None:
    assert len(BLOCKS) >= 9
    assert {name for name, _ in (b.values for b in BLOCKS)} >= {
        "parallelism", "reliability", "allreduce", "ownership", "serving", "local", "scaling", "answer_cost"}


@pytest.mark.parametrize(("name", "values"), BLOCKS)
def test_the_starting_case_is_not_a_failure(name: str, values: dict) -> None:
    module = importlib.import_module(f"calculators.{name}")
    result = evaluate(module, raw_from_values(module, values))
    assert result["ok"], result["errors"]
    shown = result["display"]
    refused = {key: shown[key] for key, value in result["values"].items() if key.startswith("fits") and value is False}
    assert refused == {}, f"{name} opens on a case that does not fit: {refused}"
    too_long = {}
    for spec in module.OUTPUTS:
        limit = duration_limit(spec["name"])
        value = result["values"][spec["name"]]
        if limit is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if not (0 <= value <= limit) or not math.isfinite(value):
            too_long[spec["name"]] = shown[spec["name"]]
    assert too_long == {}, f"{name} opens on implausible durations: {too_long}"


def test_the_gpu_clusters_calculator_opens_on_a_cluster_not_one_accelerator() -> None:
    """The reported case: a 70B model on one accelerator, 184,000 days."""
    depth = next(t for t in TOPICS if t.id == "gpu-clusters").depths.D4
    module = importlib.import_module("calculators.parallelism")
    result = evaluate(module, raw_from_values(module, dict(depth.calculator.values)))
    assert result["values"]["accelerators"] >= 1024
    assert result["values"]["fits"] is True
    assert 20 <= result["values"]["days"] <= 120, result["display"]["days"]
