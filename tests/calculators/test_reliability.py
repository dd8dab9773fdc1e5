"""The D5 arithmetic of calculators.reliability: exact values, properties, and refusals."""

from __future__ import annotations

import ast
import inspect
import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calcview import evaluate
from calculators import reliability

MODULE_PATH = Path(reliability.__file__)
SVG = "{http://www.w3.org/2000/svg}"


def scenario(**changes) -> dict:
    """The card's default scenario (16,384 accelerators at 6.5 failures per 1,000 node-days)."""
    inputs = {spec["name"]: spec["default"] for spec in reliability.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return reliability.compute(**scenario(**changes))


# --- exact values ----------------------------------------------------------------------------


def test_16384_accelerators_at_6_5_per_1000_node_days_fail_every_1_8_hours():
    result = run()
    assert result["nodes"] == 2048
    # one node: 1000 / 6.5 days; the job: that ÷ 2048 nodes
    assert result["job_mtbf_hours"] == pytest.approx(1000 / 6.5 * 24 / 2048, rel=1e-12)
    assert round(result["job_mtbf_hours"], 2) == 1.80  # the paper's projection for 16k GPUs


def test_young_interval_is_the_square_root_of_twice_checkpoint_times_mtbf():
    result = run()
    mtbf = 1000 / 6.5 * 86400 / 2048
    assert result["young_interval_seconds"] == pytest.approx(math.sqrt(2 * 120 * mtbf), rel=1e-12)
    assert result["interval_seconds"] == result["young_interval_seconds"]
    assert result["young_interval_minutes"] == pytest.approx(20.80, abs=0.01)


def test_shares_follow_the_first_order_model_and_sum_to_one():
    result = run(interval_rule="fixed", fixed_interval_seconds=3600)
    mtbf = 1000 / 6.5 * 86400 / 2048
    saving, redoing, restarting = 120 / 3600, (3600 + 120) / 2 / mtbf, 600 / mtbf
    total = 1 + saving + redoing + restarting
    assert result["effective_share"] == pytest.approx(1 / total, rel=1e-12)
    assert result["checkpoint_share"] == pytest.approx(saving / total, rel=1e-12)
    assert result["redone_share"] == pytest.approx(redoing / total, rel=1e-12)
    assert result["restart_share"] == pytest.approx(restarting / total, rel=1e-12)


def test_run_time_and_cost_of_the_default_scenario():
    result = run()
    failure_free_hours = 4.42e6 / 16384
    assert result["failure_free_days"] == pytest.approx(failure_free_hours / 24, rel=1e-12)
    assert result["wall_days"] == pytest.approx(failure_free_hours / 24 / result["effective_share"], rel=1e-12)
    assert result["accelerator_hours"] == pytest.approx(4.42e6 / result["effective_share"], rel=1e-12)
    assert result["cost"] == pytest.approx(2 * result["accelerator_hours"], rel=1e-12)
    assert result["projected_cost"] == pytest.approx(result["cost"] * 2.4**3, rel=1e-12)


def test_expected_failures_are_work_in_node_days_times_the_rate():
    # 4.42e6 accelerator-hours = 4.42e6 / 8 / 24 node-days at 6.5 per 1,000
    assert run()["failures"] == pytest.approx(4.42e6 / 8 / 24 * 6.5 / 1000, rel=1e-12)


def test_a_partly_filled_machine_counts_as_a_whole_node():
    assert run(accelerators=9)["nodes"] == 2
    assert run(accelerators=8)["nodes"] == 1


def test_fixed_interval_is_used_when_chosen():
    result = run(interval_rule="fixed", fixed_interval_seconds=1800)
    assert result["interval_minutes"] == 30
    assert result["young_interval_minutes"] == pytest.approx(20.80, abs=0.01)


def test_zero_restart_time_and_zero_price_are_allowed():
    result = run(restart_seconds=0, price_per_accelerator_hour=0)
    assert result["restart_share"] == 0
    assert result["cost"] == 0


def test_the_default_display_reads_as_the_card_says():
    shown = evaluate(reliability, {})
    assert shown["ok"], shown["errors"]
    assert shown["display"]["job_mtbf_hours"] == "1.8 hours"
    assert shown["display"]["young_interval_minutes"] == "20.8 minutes"
    assert shown["display"]["nodes"] == "2,048"
    assert shown["display"]["cost"] == "$11.4 million"


def test_time_figure_splits_one_bar_by_the_shares():
    shown = evaluate(reliability, {})
    svg = ET.fromstring(shown["figures"]["time"])
    assert svg.get("role") == "img"
    widths = [float(rect.get("width")) for rect in svg.findall(f".//{SVG}rect") if "lm-fig-part " in rect.get("class")]
    assert len(widths) == 4
    assert sum(widths) == pytest.approx(456, abs=0.05)
    assert widths[0] / sum(widths) == pytest.approx(shown["values"]["effective_share"], abs=1e-3)
    label = svg.get("aria-label")
    assert label.startswith("Where the run's time goes: training 77.3 %")
    assert "restarting 7.14 %" in label


# --- properties ------------------------------------------------------------------------------

scenarios = st.fixed_dictionaries(
    {
        "accelerators": st.integers(1, 300_000),
        "accelerators_per_node": st.integers(1, 72),
        "failures_per_1000_node_days": st.floats(0.01, 1000),
        "checkpoint_seconds": st.floats(0.1, 36_000),
        "restart_seconds": st.floats(0, 86_400),
        "interval_rule": st.sampled_from(reliability.INTERVAL_RULES),
        "fixed_interval_seconds": st.floats(1, 10**6),
        "work_accelerator_hours": st.floats(1, 1e10),
        "price_per_accelerator_hour": st.floats(0, 100),
        "growth_per_year": st.floats(0.1, 10),
        "years_ahead": st.integers(0, 10),
    }
)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_shares_are_a_partition_and_the_run_never_beats_the_failure_free_time(inputs):
    result = reliability.compute(**inputs)
    shares = [result[k] for k in ("effective_share", "checkpoint_share", "redone_share", "restart_share")]
    assert all(0 <= share <= 1 for share in shares)
    assert sum(shares) == pytest.approx(1, rel=1e-9)
    assert 0 < result["effective_share"] < 1
    assert result["wall_days"] >= result["failure_free_days"]
    assert math.isfinite(result["wall_days"]) and math.isfinite(result["cost"])


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, factor=st.integers(2, 16))
def test_more_nodes_mean_shorter_mtbf_and_less_time_training(inputs, factor):
    inputs = {**inputs, "interval_rule": "young", "accelerators_per_node": 1}
    small = reliability.compute(**inputs)
    big = reliability.compute(**{**inputs, "accelerators": inputs["accelerators"] * factor})
    assert big["job_mtbf_seconds"] == pytest.approx(small["job_mtbf_seconds"] / factor, rel=1e-9)
    assert big["effective_share"] < small["effective_share"]
    assert big["accelerator_hours"] > small["accelerator_hours"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, ratio=st.floats(0.05, 20).filter(lambda r: abs(r - 1) > 1e-3))
def test_young_interval_beats_any_other_fixed_interval(inputs, ratio):
    inputs = {**inputs, "interval_rule": "young"}
    best = reliability.compute(**inputs)
    other = reliability.compute(**{**inputs, "interval_rule": "fixed",
                                   "fixed_interval_seconds": best["young_interval_seconds"] * ratio})
    # Young's interval minimises checkpoint/interval + interval/(2 MTBF), the only terms the interval moves
    assert other["effective_share"] < best["effective_share"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, extra=st.floats(1, 10_000))
def test_slower_restarts_never_help(inputs, extra):
    before = reliability.compute(**inputs)
    after = reliability.compute(**{**inputs, "restart_seconds": inputs["restart_seconds"] + extra})
    assert after["effective_share"] < before["effective_share"]
    assert after["wall_days"] > before["wall_days"]


@settings(max_examples=100, deadline=None)
@given(inputs=scenarios)
def test_each_year_multiplies_the_projection_by_the_growth(inputs):
    inputs = {**inputs, "years_ahead": 4}
    now = reliability.compute(**inputs)
    later = reliability.compute(**{**inputs, "years_ahead": 5})
    assert later["projected_cost"] == pytest.approx(now["projected_cost"] * inputs["growth_per_year"], rel=1e-9)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("accelerators", 0, "accelerators must be a whole number ≥ 1 (got 0)"),
        ("accelerators", 1.5, "accelerators must be a whole number ≥ 1 (got 1.5)"),
        ("accelerators_per_node", -8, "accelerators_per_node must be a whole number ≥ 1 (got -8)"),
        ("failures_per_1000_node_days", 0, "failures_per_1000_node_days must be a number > 0 (got 0)"),
        ("failures_per_1000_node_days", math.nan, "failures_per_1000_node_days must be a finite number (got nan)"),
        ("checkpoint_seconds", 0, "checkpoint_seconds must be a number > 0 (got 0)"),
        ("restart_seconds", -1, "restart_seconds must be a number ≥ 0 (got -1)"),
        ("restart_seconds", math.inf, "restart_seconds must be a finite number (got inf)"),
        ("interval_rule", "daly", "interval_rule must be one of young, fixed (got 'daly')"),
        ("fixed_interval_seconds", 0, "fixed_interval_seconds must be a number > 0 (got 0)"),
        ("work_accelerator_hours", -5, "work_accelerator_hours must be a number > 0 (got -5)"),
        ("price_per_accelerator_hour", -0.5, "price_per_accelerator_hour must be a number ≥ 0 (got -0.5)"),
        ("growth_per_year", 0, "growth_per_year must be a number > 0 (got 0)"),
        ("years_ahead", -1, "years_ahead must be a whole number ≥ 0 (got -1)"),
        ("years_ahead", 2.5, "years_ahead must be a whole number ≥ 0 (got 2.5)"),
        ("accelerators", True, "accelerators must be a number (got True)"),
        ("price_per_accelerator_hour", "2", "price_per_accelerator_hour must be a number (got '2')"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


def test_bad_form_text_is_reported_on_its_field():
    shown = evaluate(reliability, {"accelerators": "0"})
    assert not shown["ok"]
    assert shown["errors"]["accelerators"].startswith("Accelerators in the job must be a whole number ≥ 1")


# --- declaration -----------------------------------------------------------------------------

def test_every_compute_argument_is_declared_and_every_output_and_figure_value_exists():
    names = [spec["name"] for spec in reliability.INPUTS]
    assert sorted(names) == sorted(inspect.signature(reliability.compute).parameters)
    result = run()
    for output in reliability.OUTPUTS:
        assert output["name"] in result
    for figure in reliability.FIGURES:
        for part in figure["parts"]:
            assert part["value"] in result


def test_defaults_lie_within_their_declared_ranges():
    for spec in reliability.INPUTS:
        if spec["control"] == "select":
            assert spec["default"] in [option["value"] for option in spec["options"]]
        else:
            shown = spec["default"] / spec.get("factor", 1)
            assert spec["min"] <= shown <= spec["max"], spec["name"]


def test_presets_name_declared_fields_and_cited_sources():
    input_names = {spec["name"] for spec in reliability.INPUTS}
    source_ids = {source["id"] for source in reliability.SOURCES}
    for group in reliability.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])
