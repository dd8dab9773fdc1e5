"""The D4 arithmetic of calculators.local: exact values, properties, and refusals."""

from __future__ import annotations

import ast
import inspect
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import local

MODULE_PATH = Path(local.__file__)
RTX_4090 = {"memory": 24e9, "bandwidth": 1008e9}
M4_MAX = {"memory": 128e9, "bandwidth": 546e9}


def scenario(**changes) -> dict:
    """The card's default scenario (an 8B model at 4 bits on a 16 GB, 100 GB/s laptop) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in local.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return local.compute(**scenario(**changes))


# --- exact values ----------------------------------------------------------------------------


@pytest.mark.parametrize(("precision", "weight_bytes", "fits", "speed"), [("fp16", 16e9, False, 6.25), ("q8", 8e9, True, 12.5), ("q4", 4e9, True, 25.0)])
def test_8b_on_a_16_gb_100_gb_per_second_laptop(precision, weight_bytes, fits, speed):
    result = run(precision=precision)
    assert result["weight_bytes"] == weight_bytes
    assert result["memory_needed_bytes"] == weight_bytes + 4e9
    assert result["fits"] is fits
    assert result["tokens_per_second"] == pytest.approx(speed, rel=1e-12)


def test_70b_needs_the_128_gb_workstation_at_8_bits_or_fewer():
    assert run(params=70e9, precision="fp16", **M4_MAX)["fits"] is False  # 140 + 4 > 128
    eight_bit = run(params=70e9, precision="q8", **M4_MAX)
    assert eight_bit["fits"] is True
    assert eight_bit["tokens_per_second"] == pytest.approx(546 / 70, rel=1e-12)
    assert run(params=70e9, precision="q4", **M4_MAX)["tokens_per_second"] == pytest.approx(546 / 35, rel=1e-12)


def test_largest_model_on_a_24_gb_card_at_4_bits_is_40b():
    assert run(**RTX_4090)["largest_params"] == pytest.approx(40e9, rel=1e-12)
    assert run(params=40e9, **RTX_4090)["fits"] is True
    assert run(params=40.1e9, **RTX_4090)["fits"] is False


def test_default_costs_are_hardware_plus_electricity_over_tokens():
    result = run()
    tokens_per_year = 25 * 3600 * 2 * 365
    assert result["tokens_per_year"] == pytest.approx(tokens_per_year, rel=1e-12)  # 65.7 million
    hardware, electricity = 1500 / 3, 0.030 * 2 * 365 * 0.30
    assert result["hardware_cost_per_year"] == pytest.approx(hardware, rel=1e-12)
    assert result["electricity_cost_per_year"] == pytest.approx(electricity, rel=1e-12)
    assert result["local_cost_per_million"] == pytest.approx((hardware + electricity) / tokens_per_year * 1e6, rel=1e-12)
    assert result["local_cost_per_million"] == pytest.approx(7.71, rel=1e-3)
    assert result["cloud_cost_per_year"] == pytest.approx(0.2 * tokens_per_year / 1e6, rel=1e-12)
    assert result["local_cheaper"] is False
    assert result["hardware_share"] + result["electricity_share"] == pytest.approx(1, rel=1e-12)


def test_a_machine_you_already_own_costs_only_electricity():
    result = run(hardware_price=0)
    # 30 W for the 90,000 tokens of one hour at 25 tokens/s, at $0.30 per kWh.
    assert result["local_cost_per_million"] == pytest.approx(0.030 * 0.30 / 90_000 * 1e6, rel=1e-12)
    assert result["local_cost_per_million"] == pytest.approx(0.1, rel=1e-12)
    assert result["local_cheaper"] is True
    assert result["hardware_share"] == 0


def test_nothing_to_pay_gives_zero_cost_and_no_shares():
    result = run(hardware_price=0, electricity_price=0)
    assert result["local_cost_per_million"] == 0
    assert (result["hardware_share"], result["electricity_share"]) == (0, 0)


def test_allowance_equal_to_memory_leaves_no_model_room():
    result = run(allowance=16e9)
    assert result["largest_params"] == 0
    assert result["fits"] is False


# --- properties ------------------------------------------------------------------------------

scenarios = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=1e8, max_value=1e12),
        "precision": st.sampled_from(list(local.BITS_PER_WEIGHT)),
        "allowance": st.floats(min_value=0, max_value=64e9),
        "memory": st.floats(min_value=1e9, max_value=2e12),
        "bandwidth": st.floats(min_value=1e9, max_value=2e13),
        "hardware_price": st.floats(min_value=0, max_value=1e6),
        "lifetime_years": st.floats(min_value=0.5, max_value=10),
        "power_watts": st.floats(min_value=1, max_value=5000),
        "electricity_price": st.floats(min_value=0, max_value=5),
        "hours_per_day": st.floats(min_value=0.1, max_value=24),
        "cloud_price": st.floats(min_value=0.001, max_value=1000),
    }
)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_halving_the_bits_halves_the_weights_and_doubles_the_speed(inputs):
    for wide, narrow in [("fp16", "q8"), ("q8", "q4")]:
        a = local.compute(**{**inputs, "precision": wide})
        b = local.compute(**{**inputs, "precision": narrow})
        assert b["weight_bytes"] == pytest.approx(a["weight_bytes"] / 2, rel=1e-12)
        assert b["tokens_per_second"] == pytest.approx(a["tokens_per_second"] * 2, rel=1e-12)
        assert b["largest_params"] == pytest.approx(a["largest_params"] * 2, rel=1e-12)
        assert b["fits"] >= a["fits"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fits_exactly_when_the_model_is_no_bigger_than_the_largest_that_fits(inputs):
    result = local.compute(**inputs)
    assert result["fits"] == (result["memory_needed_bytes"] <= inputs["memory"])
    if not math.isclose(inputs["params"], result["largest_params"], rel_tol=1e-9):
        assert result["fits"] == (inputs["params"] < result["largest_params"])


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, factor=st.floats(min_value=1.01, max_value=10))
def test_more_use_never_raises_the_local_cost_per_token(inputs, factor):
    hours = inputs["hours_per_day"]
    more = min(hours * factor, 24)
    before = local.compute(**inputs)["local_cost_per_million"]
    after = local.compute(**{**inputs, "hours_per_day": more})["local_cost_per_million"]
    assert after <= before * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_local_cheaper_matches_the_yearly_bills(inputs):
    result = local.compute(**inputs)
    assert result["local_cheaper"] == (result["local_cost_per_million"] < inputs["cloud_price"])
    assert result["cost_ratio"] == pytest.approx(result["local_cost_per_year"] / result["cloud_cost_per_year"], rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, factor=st.floats(min_value=1.01, max_value=100))
def test_faster_memory_means_cheaper_tokens(inputs, factor):
    slow = local.compute(**inputs)
    fast = local.compute(**{**inputs, "bandwidth": inputs["bandwidth"] * factor})
    assert fast["tokens_per_second"] == pytest.approx(slow["tokens_per_second"] * factor, rel=1e-12)
    assert fast["local_cost_per_million"] <= slow["local_cost_per_million"] * (1 + 1e-12)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("params", 0, "params must be a number > 0 (got 0)"),
        ("params", "8e9", "params must be a number (got '8e9')"),
        ("precision", "q2", "precision must be one of fp16, q8, q4 (got 'q2')"),
        ("precision", 4, "precision must be one of fp16, q8, q4 (got 4)"),
        ("allowance", -1e9, "allowance must be a number ≥ 0 (got -1000000000.0)"),
        ("memory", 0, "memory must be a number > 0 (got 0)"),
        ("bandwidth", math.inf, "bandwidth must be a finite number (got inf)"),
        ("hardware_price", -1, "hardware_price must be a number ≥ 0 (got -1)"),
        ("lifetime_years", 0, "lifetime_years must be a number > 0 (got 0)"),
        ("power_watts", math.nan, "power_watts must be a finite number (got nan)"),
        ("electricity_price", -0.1, "electricity_price must be a number ≥ 0 (got -0.1)"),
        ("hours_per_day", 0, "hours_per_day must be a number in (0, 24] (got 0)"),
        ("hours_per_day", 25, "hours_per_day must be a number in (0, 24] (got 25)"),
        ("cloud_price", 0, "cloud_price must be a number > 0 (got 0)"),
        ("memory", True, "memory must be a number (got True)"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


def test_a_full_day_of_use_is_allowed():
    assert run(hours_per_day=24)["tokens_per_year"] == pytest.approx(25 * 3600 * 24 * 365, rel=1e-12)


# --- declaration -----------------------------------------------------------------------------

def test_every_compute_argument_is_declared_and_every_output_and_figure_value_exists():
    assert sorted(spec["name"] for spec in local.INPUTS) == sorted(inspect.signature(local.compute).parameters)
    result = run()
    for output in local.OUTPUTS:
        assert output["name"] in result
    for figure in local.FIGURES:
        for part in figure["parts"]:
            assert part["value"] in result
        assert figure.get("capacity", "memory") in result


def test_presets_name_declared_fields_cited_sources_and_datasheet_figures():
    input_names = {spec["name"] for spec in local.INPUTS}
    source_ids = {source["id"] for source in local.SOURCES}
    for group in local.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])
    machines = {option["id"]: option["values"] for option in local.PRESETS[0]["options"]}
    assert machines == {
        "laptop-m2-16gb": {"memory": 16e9, "bandwidth": 100e9},
        "desktop-rtx-4090": RTX_4090,
        "workstation-m4-max-128gb": M4_MAX,
    }


def test_money_inputs_are_labelled_illustrative():
    labels = {spec["name"]: spec["label"] for spec in local.INPUTS}
    for name in ["hardware_price", "power_watts", "electricity_price", "cloud_price"]:
        assert "illustrative" in labels[name]
