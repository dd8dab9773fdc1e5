"""The D4 arithmetic of calculators.allreduce: exact values, properties, and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import allreduce


def scenario(**changes) -> dict:
    """The card's default scenario (70B split 16 ways, 64-way ring, 400 Gb/s cards) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in allreduce.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return allreduce.compute(**scenario(**changes))


# --- exact values ----------------------------------------------------------------------------


def test_default_scenario_70b_split_16_ways_over_64_at_50_gb_per_s():
    result = run()
    assert result["gradient_bytes"] == pytest.approx(70e9 * 2 / 16, rel=1e-12)  # 8.75 GB
    assert result["ring_factor"] == pytest.approx(2 * 63 / 64, rel=1e-12)
    assert result["sent_bytes"] == pytest.approx(8.75e9 * 126 / 64, rel=1e-12)
    assert result["allreduce_seconds"] == pytest.approx(8.75e9 * 126 / 64 / 50e9, rel=1e-12)  # 0.3445 s
    assert result["latency_seconds"] == 0
    assert result["step_seconds"] == pytest.approx(4.35 + 0.34453125, rel=1e-12)
    assert result["comm_share"] == pytest.approx(0.34453125 / 4.69453125, rel=1e-12)


def test_ring_of_two_sends_each_byte_once_and_ring_of_one_sends_nothing():
    assert run(ring_size=2)["ring_factor"] == 1
    alone = run(ring_size=1)
    assert alone["allreduce_seconds"] == 0 and alone["comm_share"] == 0 and alone["latency_share"] == 0


def test_latency_term_is_two_n_minus_one_alphas():
    result = run(ring_size=1024, latency=5e-6)
    assert result["latency_seconds"] == pytest.approx(2 * 1023 * 5e-6, rel=1e-12)
    assert result["allreduce_seconds"] == pytest.approx(result["bandwidth_seconds"] + 2 * 1023 * 5e-6, rel=1e-12)


def test_nvlink_h100_against_ndr_is_nine_times_faster():
    nvlink = run(ring_size=8, bandwidth=450e9)["allreduce_seconds"]
    ndr = run(ring_size=8, bandwidth=50e9)["allreduce_seconds"]
    assert ndr / nvlink == pytest.approx(9, rel=1e-12)


def test_fp32_gradients_take_twice_as_long_as_bf16():
    assert run(gradient_type="fp32")["allreduce_seconds"] == pytest.approx(2 * run()["allreduce_seconds"], rel=1e-12)


def test_full_overlap_hides_an_exchange_shorter_than_compute():
    result = run(overlap=1)
    assert result["exposed_seconds"] == 0 and result["comm_share"] == 0
    assert result["step_seconds"] == 4.35


def test_overlap_can_hide_no_more_than_the_compute_time():
    result = run(compute_seconds=0.1, overlap=1)
    assert result["hidden_seconds"] == 0.1
    assert result["exposed_seconds"] == pytest.approx(0.34453125 - 0.1, rel=1e-12)


def test_half_overlap_hides_half():
    assert run(overlap=0.5)["exposed_seconds"] == pytest.approx(0.34453125 / 2, rel=1e-12)


def test_whole_numbers_given_as_floats_are_accepted():
    assert run(ring_size=8.0)["ring_size"] == 8


# --- properties ------------------------------------------------------------------------------

scenarios = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=1e6, max_value=1e13),
        "model_split": st.integers(1, 4096),
        "gradient_type": st.sampled_from(list(allreduce.GRADIENT_BYTES)),
        "ring_size": st.integers(1, 100_000),
        "bandwidth": st.floats(min_value=1e8, max_value=1e13),
        "latency": st.floats(min_value=0, max_value=1e-3),
        "compute_seconds": st.floats(min_value=1e-3, max_value=1e4),
        "overlap": st.floats(min_value=0, max_value=1),
    }
)


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, more=st.integers(1, 1000))
def test_allreduce_time_never_falls_as_the_ring_grows(inputs, more):
    before = allreduce.compute(**inputs)
    after = allreduce.compute(**{**inputs, "ring_size": inputs["ring_size"] + more})
    assert after["allreduce_seconds"] >= before["allreduce_seconds"] * (1 - 1e-12)
    assert after["ring_factor"] > before["ring_factor"]


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_bandwidth_time_is_below_twice_bytes_over_bandwidth(inputs):
    result = allreduce.compute(**inputs)
    assert 0 <= result["ring_factor"] < 2
    assert result["bandwidth_seconds"] < 2 * result["gradient_bytes"] / inputs["bandwidth"]


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, times=st.floats(min_value=1.01, max_value=100))
def test_faster_links_never_slow_the_exchange(inputs, times):
    before = allreduce.compute(**inputs)["allreduce_seconds"]
    after = allreduce.compute(**{**inputs, "bandwidth": inputs["bandwidth"] * times})["allreduce_seconds"]
    assert after <= before


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, more=st.floats(min_value=0.01, max_value=1))
def test_more_overlap_never_raises_the_share(inputs, more):
    before = allreduce.compute(**inputs)
    after = allreduce.compute(**{**inputs, "overlap": min(1.0, inputs["overlap"] + more)})
    assert after["comm_share"] <= before["comm_share"] + 1e-12
    assert 0 <= after["comm_share"] < 1
    assert after["step_seconds"] == pytest.approx(inputs["compute_seconds"] + after["exposed_seconds"], rel=1e-12)


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_time_splits_into_moving_data_and_fixed_delays(inputs):
    result = allreduce.compute(**inputs)
    assert result["bandwidth_seconds"] + result["latency_seconds"] == pytest.approx(result["allreduce_seconds"], rel=1e-12)
    assert 0 <= result["latency_share"] <= 1
    assert 0 <= result["exposed_seconds"] <= result["allreduce_seconds"] * (1 + 1e-12)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("params", 0, "params must be a number > 0 (got 0)"),
        ("model_split", 0, "model_split must be a whole number ≥ 1 (got 0)"),
        ("model_split", 2.5, "model_split must be a whole number ≥ 1 (got 2.5)"),
        ("ring_size", -4, "ring_size must be a whole number ≥ 1 (got -4)"),
        ("ring_size", True, "ring_size must be a number (got True)"),
        ("bandwidth", 0, "bandwidth must be a number > 0 (got 0)"),
        ("bandwidth", math.inf, "bandwidth must be a finite number (got inf)"),
        ("latency", -1e-6, "latency must be a number ≥ 0 (got -1e-06)"),
        ("latency", math.nan, "latency must be a finite number (got nan)"),
        ("compute_seconds", 0, "compute_seconds must be a number > 0 (got 0)"),
        ("overlap", 1.5, "overlap must be a number in [0, 1] (got 1.5)"),
        ("overlap", -0.1, "overlap must be a number in [0, 1] (got -0.1)"),
        ("gradient_type", "fp8", "gradient_type must be one of bf16, fp32 (got 'fp8')"),
        ("params", "70e9", "params must be a number (got '70e9')"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


# --- presets (generic declaration checks: test_declarations.py) -------------------------------


def test_link_presets_are_per_direction_datasheet_figures():
    options = {option["id"]: option for option in allreduce.PRESETS[0]["options"]}
    # NVLink and PCIe datasheet totals count both directions: halved here.
    assert options["nvlink4-h100"]["values"] == {"bandwidth": 900e9 / 2}
    assert options["nvlink5-b200"]["values"] == {"bandwidth": 1.8e12 / 2}
    assert options["nvlink3-a100"]["values"] == {"bandwidth": 600e9 / 2}
    assert options["pcie5-x16"]["values"] == {"bandwidth": 128e9 / 2}
    # Network cards are rated per direction in bits per second.
    assert options["ndr-400g"]["values"] == {"bandwidth": 400e9 / 8}
    assert options["hdr-200g"]["values"] == {"bandwidth": 200e9 / 8}
    assert options["xdr-800g"]["values"] == {"bandwidth": 800e9 / 8}
