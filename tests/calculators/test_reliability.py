"""The D5 arithmetic of calculators.reliability: exact values, properties, and refusals."""

from __future__ import annotations

import inspect
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import reliability
from calcview import evaluate

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
    result = run(interval_rule="young")
    mtbf = 1000 / 6.5 * 86400 / 2048
    assert result["young_interval_seconds"] == pytest.approx(math.sqrt(2 * 120 * mtbf), rel=1e-12)
    assert result["interval_seconds"] == result["young_interval_seconds"]
    assert result["young_interval_minutes"] == pytest.approx(20.80, abs=0.01)


def test_daly_interval_is_his_higher_order_estimate_and_the_default_rule():
    result = run()
    mtbf = 1000 / 6.5 * 86400 / 2048
    ratio = 120 / (2 * mtbf)
    expected = math.sqrt(2 * 120 * mtbf) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - 120
    assert result["interval_rule"] == "daly"
    assert result["daly_interval_seconds"] == pytest.approx(expected, rel=1e-12)
    assert result["interval_seconds"] == result["daly_interval_seconds"]
    assert result["daly_interval_minutes"] == pytest.approx(19.49, abs=0.01)


def test_daly_interval_is_the_mtbf_once_saving_takes_twice_the_mtbf():
    mtbf = reliability.job_mtbf_seconds(2048, 6.5)
    assert reliability.daly_interval(2 * mtbf, mtbf) == mtbf
    assert reliability.daly_interval(10 * mtbf, mtbf) == mtbf
    assert reliability.daly_interval(1.999 * mtbf, mtbf) < mtbf


def daly_wall_per_useful(tau: float, delta: float, restart: float, mtbf: float) -> float:
    """Daly (2006): T_w / Ts = M e^{R/M} (e^{(τ+δ)/M} − 1) / τ, written out directly."""
    return mtbf * math.exp(restart / mtbf) * (math.exp((tau + delta) / mtbf) - 1) / tau


def test_share_training_is_daly_useful_time_over_wall_time():
    result = run(interval_rule="fixed", fixed_interval_seconds=3600)
    mtbf = 1000 / 6.5 * 86400 / 2048
    assert result["effective_share"] == pytest.approx(1 / daly_wall_per_useful(3600, 120, 600, mtbf), rel=1e-12)
    assert result["wall_days"] == pytest.approx(
        result["failure_free_days"] * daly_wall_per_useful(3600, 120, 600, mtbf), rel=1e-12)


def test_shares_follow_the_renewal_derivation_and_sum_to_one():
    tau, delta, restart = 3600.0, 120.0, 600.0
    result = run(interval_rule="fixed", fixed_interval_seconds=tau)
    mtbf = 1000 / 6.5 * 86400 / 2048
    grow = math.exp((tau + delta) / mtbf) - 1  # expected failed attempts per kept segment
    per_segment = {
        "effective_share": tau,
        "checkpoint_share": delta,
        "redone_share": mtbf * grow - (tau + delta),
        "restart_share": mtbf * grow * (math.exp(restart / mtbf) - 1),
    }
    total = sum(per_segment.values())
    assert total == pytest.approx(mtbf * math.exp(restart / mtbf) * grow, rel=1e-12)
    for name, seconds in per_segment.items():
        assert result[name] == pytest.approx(seconds / total, rel=1e-10), name
    assert result["restart_share"] == pytest.approx(1 - math.exp(-restart / mtbf), rel=1e-12)


# Regression (issue 11, item 2): the first-order model said 45.1 % at a 4-hour interval on
# 16,384 GPUs and 42.4 % at 131,072 GPUs; Daly's model gives about 24 % and 26 %.
def test_a_four_hour_interval_on_16384_accelerators_trains_about_24_percent_not_45():
    result = run(interval_rule="fixed", fixed_interval_seconds=4 * 3600)
    assert result["effective_share"] == pytest.approx(0.2418, abs=5e-4)
    assert result["effective_share"] < 0.25


def test_131072_accelerators_train_about_26_percent_not_42():
    assert run(accelerators=131072)["effective_share"] == pytest.approx(0.2625, abs=5e-4)
    assert run(accelerators=131072, interval_rule="young")["effective_share"] == pytest.approx(0.2603, abs=5e-4)


def test_a_one_minute_restart_at_131072_accelerators_trains_about_51_percent_for_about_17_million():
    slow, fast = run(accelerators=131072), run(accelerators=131072, restart_seconds=60)
    assert fast["effective_share"] == pytest.approx(0.5107, abs=5e-4)
    assert slow["cost"] == pytest.approx(33.68e6, rel=1e-3)  # the "≈ $34 M"
    assert fast["cost"] == pytest.approx(17.31e6, rel=1e-3)


def test_exact_optimum_solves_the_stationarity_condition():
    for mtbf, delta in [(6646.0, 120.0), (811.0, 120.0), (811.0, 1800.0), (1e9, 0.6), (3.3, 36000.0)]:
        tau = reliability.optimum_interval(delta, mtbf)
        assert 0 < tau <= mtbf
        if tau < mtbf:  # far past δ = 2M the root is within rounding of M itself
            assert (1 - tau / mtbf) * math.exp(tau / mtbf) == pytest.approx(math.exp(-delta / mtbf), rel=1e-9)


def test_daly_estimate_is_within_about_half_a_percent_of_the_exact_optimum():
    # Over save times up to half the MTBF, Daly's interval is within 0.56 % of the exact
    # optimum and the share of time training within 0.002 % (relative) of the best possible.
    mtbf = 1.0
    for step in range(200):
        delta = 10 ** (-9 + step * (9 + math.log10(0.5)) / 199)
        daly, best = reliability.daly_interval(delta, mtbf), reliability.optimum_interval(delta, mtbf)
        assert abs(daly / best - 1) < 0.0056
        trained = reliability.time_shares(daly, delta, 0, mtbf)["effective_share"]
        ideal = reliability.time_shares(best, delta, 0, mtbf)["effective_share"]
        assert ideal >= trained * (1 - 1e-12)
        assert trained > ideal * (1 - 2e-5)


def test_failures_are_wall_clock_time_over_the_job_mtbf():
    result = run()
    assert result["failures"] == pytest.approx(result["wall_days"] * 86400 / result["job_mtbf_seconds"], rel=1e-12)
    # more than the failures met by the useful work alone (what the old output counted)
    assert result["failures"] > 4.42e6 / 8 / 24 * 6.5 / 1000


def test_run_time_and_cost_of_the_default_scenario():
    result = run()
    failure_free_hours = 4.42e6 / 16384
    assert result["failure_free_days"] == pytest.approx(failure_free_hours / 24, rel=1e-12)
    assert result["wall_days"] == pytest.approx(failure_free_hours / 24 / result["effective_share"], rel=1e-12)
    assert result["accelerator_hours"] == pytest.approx(4.42e6 / result["effective_share"], rel=1e-12)
    assert result["extra_accelerator_hours"] == pytest.approx(result["accelerator_hours"] - 4.42e6, rel=1e-12)
    assert result["cost"] == pytest.approx(2 * result["accelerator_hours"], rel=1e-12)
    assert result["projected_cost"] == pytest.approx(result["cost"] * 2.4**3, rel=1e-12)


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


def test_a_hopeless_job_reads_as_never_finishing_not_as_an_error():
    result = run(accelerators=262144, accelerators_per_node=1, failures_per_1000_node_days=100,
                 restart_seconds=86400)
    assert result["effective_share"] == 0
    assert result["restart_share"] == 1
    assert math.isinf(result["wall_days"]) and math.isinf(result["cost"])
    assert any("fails about as often" in note for note in result["notes"])
    shown = evaluate(reliability, {"accelerators": "262144", "accelerators_per_node": "1",
                                   "failures_per_1000_node_days": "100", "restart_seconds": "1440"})
    assert shown["ok"] and shown["display"]["wall_days"] == "∞ days"


# --- notes: where the model stops holding -----------------------------------------------------


def test_defaults_are_inside_the_models_range():
    assert run()["notes"] == []


def test_interval_save_and_restart_near_the_mtbf_is_noted():
    notes = run(accelerators=131072)["notes"]
    assert any(note.startswith("Interval, save and restart together take 1.3 times the job's MTBF") for note in notes)


def test_less_than_half_the_time_training_is_noted():
    notes = run(interval_rule="fixed", fixed_interval_seconds=4 * 3600)["notes"]
    assert any("Less than half of the wall-clock time trains (24.2 %)" in note for note in notes)


def test_few_machines_and_few_failures_are_noted():
    notes = run(accelerators=64)["notes"]
    assert any("only 8 machines" in note for note in notes)
    assert any("Fewer than one failure is expected" in note for note in run(work_accelerator_hours=1000)["notes"])


def test_notes_are_shown_and_announced():
    shown = evaluate(reliability, {"accelerators": "131072"})
    assert shown["notes"] and shown["notes"] == reliability.compute(**scenario(accelerators=131072))["notes"]
    assert "Note: Interval, save and restart" in shown["announcement"]


def test_the_default_display_reads_as_the_card_says():
    shown = evaluate(reliability, {})
    assert shown["ok"], shown["errors"]
    assert shown["display"]["job_mtbf_hours"] == "1.8 hours"
    assert shown["display"]["young_interval_minutes"] == "20.8 minutes"
    assert shown["display"]["daly_interval_minutes"] == "19.5 minutes"
    assert shown["display"]["nodes"] == "2,048"
    assert shown["display"]["effective_share"] == "74.7 %"
    assert shown["display"]["cost"] == "$11.8 million"


def test_time_figure_splits_one_bar_by_the_shares():
    shown = evaluate(reliability, {})
    svg = ET.fromstring(shown["figures"]["time"])
    assert svg.get("role") == "img"
    widths = [float(rect.get("width")) for rect in svg.findall(f".//{SVG}rect") if "lm-fig-part " in rect.get("class")]
    assert len(widths) == 4
    assert sum(widths) == pytest.approx(456, abs=0.05)
    assert widths[0] / sum(widths) == pytest.approx(shown["values"]["effective_share"], abs=1e-3)
    label = svg.get("aria-label")
    assert label.startswith("Where the run's time goes: training 74.7 %")
    assert "restarting 8.83 %" in label


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


TINY = 1e-200  # below this the share of time training is "never finishes" and comparisons stop meaning much


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_shares_are_a_partition_and_the_run_never_beats_the_failure_free_time(inputs):
    result = reliability.compute(**inputs)
    shares = [result[k] for k in ("effective_share", "checkpoint_share", "redone_share", "restart_share")]
    assert all(0 <= share <= 1 for share in shares)
    assert sum(shares) == pytest.approx(1, rel=1e-9)
    assert result["effective_share"] < 1
    assert result["wall_days"] >= result["failure_free_days"]
    if result["effective_share"] > TINY:
        assert math.isfinite(result["wall_days"]) and math.isfinite(result["cost"])
        assert result["wall_days"] == pytest.approx(result["failure_free_days"] / result["effective_share"], rel=1e-9)
    assert result["failures"] == pytest.approx(result["wall_days"] * 86400 / result["job_mtbf_seconds"], rel=1e-9)
    assert isinstance(result["notes"], list) and all(isinstance(note, str) for note in result["notes"])


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, factor=st.integers(2, 16))
def test_more_nodes_mean_shorter_mtbf_and_less_time_training(inputs, factor):
    inputs = {**inputs, "interval_rule": "daly", "accelerators_per_node": 1}
    small = reliability.compute(**inputs)
    big = reliability.compute(**{**inputs, "accelerators": inputs["accelerators"] * factor})
    assert big["job_mtbf_seconds"] == pytest.approx(small["job_mtbf_seconds"] / factor, rel=1e-9)
    assert big["effective_share"] <= small["effective_share"]
    assert big["accelerator_hours"] >= small["accelerator_hours"]
    if small["effective_share"] > TINY:
        assert big["effective_share"] < small["effective_share"]


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, ratio=st.floats(0.05, 20).filter(lambda r: abs(r - 1) > 1e-3))
def test_the_exact_optimum_beats_every_other_interval(inputs, ratio):
    best = reliability.compute(**{**inputs, "interval_rule": "optimum"})
    other = reliability.compute(**{**inputs, "interval_rule": "fixed",
                                   "fixed_interval_seconds": best["optimum_interval_seconds"] * ratio})
    assert other["effective_share"] <= best["effective_share"] * (1 + 1e-12)
    if best["effective_share"] > TINY:
        assert other["effective_share"] < best["effective_share"]
    for rule in ("daly", "young"):  # below TINY both are "never finishes": subnormal floats lose relative precision
        share = reliability.compute(**{**inputs, "interval_rule": rule})["effective_share"]
        assert share <= best["effective_share"] * (1 + 1e-12) or max(share, best["effective_share"]) <= TINY


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, extra=st.floats(1, 10_000))
def test_slower_restarts_never_help(inputs, extra):
    before = reliability.compute(**inputs)
    after = reliability.compute(**{**inputs, "restart_seconds": inputs["restart_seconds"] + extra})
    assert after["effective_share"] <= before["effective_share"]
    assert after["wall_days"] >= before["wall_days"]
    if before["effective_share"] > TINY:
        assert after["effective_share"] < before["effective_share"]
    assert after["daly_interval_seconds"] == before["daly_interval_seconds"]  # R never moves the interval


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
        ("interval_rule", "best", "interval_rule must be one of daly, optimum, young, fixed (got 'best')"),
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
    assert shown["errors"]["accelerators"].startswith("Accelerators in the job must be between 8 and 262,144")


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


def test_assumptions_name_what_the_model_leaves_out():
    said = " ".join(reliability.ASSUMPTIONS)
    assert len(reliability.ASSUMPTIONS) >= 3
    for phrase in ("exponentially distributed", "whole machine", "reloading the checkpoint",
                   "asynchronous saves", "in-memory copies", "A100 research clusters", "HPCA 2025"):
        assert phrase in said, phrase


def test_compute_stays_well_under_a_millisecond():
    import timeit

    inputs = scenario(interval_rule="optimum", accelerators=131072)
    seconds = min(timeit.repeat(lambda: reliability.compute(**inputs), number=200, repeat=3)) / 200
    assert seconds < 2e-4


def test_presets_name_declared_fields_and_cited_sources():
    input_names = {spec["name"] for spec in reliability.INPUTS}
    source_ids = {source["id"] for source in reliability.SOURCES}
    for group in reliability.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])


def test_llama3_preset_is_the_published_interruption_count_per_node_day():
    # Grattafiori et al. (2024): 419 unexpected interruptions in 54 days on 2,048 eight-GPU machines
    option = next(o for g in reliability.PRESETS for o in g["options"] if o["id"] == "llama3-405b")
    rate = option["values"]["failures_per_1000_node_days"]
    assert rate == pytest.approx(419 / (54 * 2048) * 1000, abs=5e-4)
    assert run(failures_per_1000_node_days=rate)["job_mtbf_hours"] == pytest.approx(54 * 24 / 419, rel=1e-4)
