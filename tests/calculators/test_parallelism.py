"""The D4 arithmetic of calculators.parallelism: exact values, properties, and refusals."""

from __future__ import annotations

import ast
import inspect
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import parallelism

MODULE_PATH = Path(parallelism.__file__)
SHARDING_LEVELS = ["none", "optimizer", "gradients", "everything"]


def scenario(**changes) -> dict:
    """The card's default scenario (70B on one 80 GB H100 SXM) with some fields changed."""
    inputs = {spec["name"]: spec["default"] for spec in parallelism.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return parallelism.compute(**scenario(**changes))


# --- exact values ----------------------------------------------------------------------------


def test_70b_without_splitting_needs_1_12_tb_and_does_not_fit_80_gb():
    result = run()
    assert result["bytes_per_param"] == 16
    assert result["memory_each_bytes"] == pytest.approx(1.12e12, rel=1e-12)
    assert result["total_state_bytes"] == pytest.approx(1.12e12, rel=1e-12)
    assert result["fits"] is False
    assert result["accelerators"] == 1
    assert result["bubble"] == 0


@pytest.mark.parametrize(
    ("sharding", "dp", "expected"),
    [
        ("none", 8, 16),
        ("optimizer", 8, 4 + 12 / 8),
        ("gradients", 8, 2 + 14 / 8),
        ("everything", 8, 16 / 8),
        ("everything", 1, 16),
    ],
)
def test_bytes_per_parameter_per_sharding_level(sharding, dp, expected):
    assert run(sharding=sharding, dp=dp)["bytes_per_param"] == pytest.approx(expected, rel=1e-12)


def test_pipeline_of_8_with_one_micro_batch_idles_seven_eighths():
    assert run(pp=8, micro_batches=1)["bubble"] == 0.875


def test_pipeline_of_8_with_128_micro_batches_idles_7_in_135():
    assert run(pp=8, micro_batches=128)["bubble"] == pytest.approx(7 / 135, rel=1e-12)


def test_accelerators_multiply_the_three_ways():
    assert run(tp=8, pp=4, dp=16)["accelerators"] == 512


def test_training_flops_and_days_for_the_default_scenario():
    result = run()
    assert result["train_flops"] == pytest.approx(6 * 70e9 * 15e12, rel=1e-12)
    expected_days = 6 * 70e9 * 15e12 / (1 * 989e12 * 0.4) / 86400
    assert result["days"] == pytest.approx(expected_days, rel=1e-12)
    assert result["accelerator_hours"] == pytest.approx(expected_days * 24, rel=1e-12)


def test_days_include_the_bubble():
    result = run(tp=8, pp=8, dp=64, micro_batches=8)
    busy = 1 - 7 / 15
    expected = 6 * 70e9 * 15e12 / (4096 * 989e12 * 0.4 * busy) / 86400
    assert result["days"] == pytest.approx(expected, rel=1e-12)


def test_tp_8_pp_2_fits_70b_on_80_gb():
    result = run(tp=8, pp=2)
    assert result["memory_each_bytes"] == pytest.approx(70e9 * 16 / 16, rel=1e-12)  # 70 GB
    assert result["fits"] is True


def test_fits_is_true_exactly_at_capacity():
    assert run(params=5e9, memory_per_accelerator=80e9)["fits"] is True
    assert run(params=5e9, memory_per_accelerator=79.9e9)["fits"] is False


def test_breakdown_with_everything_sharded_over_4_copies_and_tp_2():
    result = run(sharding="everything", dp=4, tp=2)
    assert result["weights_bytes"] == pytest.approx(70e9 * 2 / 4 / 2)
    assert result["gradients_bytes"] == pytest.approx(70e9 * 2 / 4 / 2)
    assert result["optimizer_bytes"] == pytest.approx(70e9 * 12 / 4 / 2)


def test_whole_numbers_given_as_floats_are_accepted():
    assert run(tp=2.0)["tp"] == 2


# --- properties ------------------------------------------------------------------------------

ways = st.integers(min_value=1, max_value=4096)
positive = st.floats(min_value=1e6, max_value=1e15, allow_nan=False, allow_infinity=False)
scenarios = st.fixed_dictionaries(
    {
        "params": positive,
        "tokens": st.floats(min_value=1e6, max_value=1e14),
        "tp": ways,
        "pp": ways,
        "dp": ways,
        "micro_batches": ways,
        "sharding": st.sampled_from(SHARDING_LEVELS),
        "peak_flops": st.floats(min_value=1e9, max_value=1e17),
        "utilisation": st.floats(min_value=1e-3, max_value=1.0),
        "memory_per_accelerator": positive,
    }
)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, field=st.sampled_from(["tp", "pp", "dp"]), more=st.integers(1, 64))
def test_memory_per_accelerator_never_rises_as_a_way_grows(inputs, field, more):
    before = parallelism.compute(**inputs)["memory_each_bytes"]
    after = parallelism.compute(**{**inputs, field: inputs[field] + more})["memory_each_bytes"]
    assert after <= before * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, more=st.integers(1, 1000))
def test_bubble_in_unit_interval_and_falls_with_more_micro_batches(inputs, more):
    before = parallelism.compute(**inputs)["bubble"]
    after = parallelism.compute(**{**inputs, "micro_batches": inputs["micro_batches"] + more})["bubble"]
    assert 0 <= before < 1 and 0 <= after < 1
    if inputs["pp"] > 1:
        assert after < before
    else:
        assert after == before == 0


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_doubling_dp_halves_the_days_without_a_pipeline(inputs):
    inputs = {**inputs, "pp": 1}
    before = parallelism.compute(**inputs)["days"]
    after = parallelism.compute(**{**inputs, "dp": inputs["dp"] * 2})["days"]
    assert after == pytest.approx(before / 2, rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_each_sharding_level_needs_no_more_memory_than_the_one_before(inputs):
    memory = [
        parallelism.compute(**{**inputs, "sharding": level})["memory_each_bytes"]
        for level in SHARDING_LEVELS
    ]
    assert all(later <= earlier * (1 + 1e-12) for earlier, later in zip(memory, memory[1:]))


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_breakdown_sums_to_memory_per_accelerator(inputs):
    result = parallelism.compute(**inputs)
    parts = result["weights_bytes"] + result["gradients_bytes"] + result["optimizer_bytes"]
    assert parts == pytest.approx(result["memory_each_bytes"], rel=1e-12)
    assert result["fits"] == (result["memory_each_bytes"] <= inputs["memory_per_accelerator"])


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("tp", 0, "tp must be a whole number ≥ 1 (got 0)"),
        ("pp", -2, "pp must be a whole number ≥ 1 (got -2)"),
        ("dp", 1.5, "dp must be a whole number ≥ 1 (got 1.5)"),
        ("micro_batches", 0, "micro_batches must be a whole number ≥ 1 (got 0)"),
        ("params", 0, "params must be a number > 0 (got 0)"),
        ("tokens", -1e12, "tokens must be a number > 0"),
        ("peak_flops", math.inf, "peak_flops must be a finite number (got inf)"),
        ("memory_per_accelerator", math.nan, "memory_per_accelerator must be a finite number (got nan)"),
        ("utilisation", 0, "utilisation must be a number in (0, 1] (got 0)"),
        ("utilisation", 1.01, "utilisation must be a number in (0, 1] (got 1.01)"),
        ("tp", True, "tp must be a number (got True)"),
        ("params", "70e9", "params must be a number (got '70e9')"),
        ("sharding", "zero3", "sharding must be one of none, optimizer, gradients, everything (got 'zero3')"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


def test_utilisation_of_exactly_one_is_allowed():
    assert run(utilisation=1)["days"] > 0


# --- declaration -----------------------------------------------------------------------------

def test_every_compute_argument_is_declared_as_an_input_and_defaults_compute():
    names = [spec["name"] for spec in parallelism.INPUTS]
    assert sorted(names) == sorted(inspect.signature(parallelism.compute).parameters)
    result = run()
    for output in parallelism.OUTPUTS:
        assert output["name"] in result


def test_presets_name_declared_fields_and_cited_sources():
    input_names = {spec["name"] for spec in parallelism.INPUTS}
    source_ids = {source["id"] for source in parallelism.SOURCES}
    labels = []
    for group in parallelism.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            labels.append(option["label"])
            run(**option["values"])  # every preset is a valid scenario
    for expected in ["A100", "H100 SXM", "H200", "B200", "MI300X", "8B", "70B", "405B"]:
        assert any(expected in label for label in labels), expected


def test_accelerator_presets_use_dense_16_bit_datasheet_figures():
    options = {option["id"]: option["values"] for option in parallelism.PRESETS[0]["options"]}
    assert options["a100-80gb"] == {"memory_per_accelerator": 80e9, "peak_flops": 312e12}
    assert options["h100-sxm"] == {"memory_per_accelerator": 80e9, "peak_flops": 989e12}
    assert options["h200-sxm"] == {"memory_per_accelerator": 141e9, "peak_flops": 989e12}
    assert options["b200"] == {"memory_per_accelerator": 180e9, "peak_flops": 2250e12}
    assert options["mi300x"] == {"memory_per_accelerator": 192e9, "peak_flops": 1307.4e12}
