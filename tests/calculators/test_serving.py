"""The D4 arithmetic of calculators.serving: exact values, properties, and refusals."""

from __future__ import annotations

import ast
import inspect
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import serving

MODULE_PATH = Path(serving.__file__)


def scenario(**changes) -> dict:
    """The card's default scenario (Llama 3 70B shape, 16-bit, on two H100 SXM) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in serving.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return serving.compute(**scenario(**changes))


LLAMA3_8B = {"params": 8e9, "layers": 32, "kv_heads": 8, "head_dim": 128}


# --- exact values ----------------------------------------------------------------------------


def test_llama3_70b_kv_cache_is_327_680_bytes_per_token_in_16_bit():
    result = run()
    assert result["kv_bytes_per_token"] == 2 * 80 * 8 * 128 * 2 == 327_680
    assert result["kv_bytes_per_request"] == 327_680 * 8192
    assert result["weight_bytes"] == 140e9


def test_two_h100s_hold_70b_weights_and_seven_8k_conversations():
    result = run()
    assert result["replica_memory_bytes"] == 160e9
    # (160 - 140) GB / 2.68 GB = 7.45
    assert result["max_concurrent"] == 7
    assert run(batch=7)["fits"] is True
    assert run(batch=8)["fits"] is False


def test_one_user_decodes_at_about_47_tokens_a_second():
    result = run()
    step = (140e9 + 327_680 * 8192) / (2 * 3.35e12)
    assert result["step_seconds"] == pytest.approx(step, rel=1e-12)
    assert result["step_seconds"] == pytest.approx(0.021296, rel=1e-4)
    assert result["tokens_per_second_per_request"] == pytest.approx(46.957, rel=1e-4)
    assert result["tokens_per_second_replica"] == result["tokens_per_second_per_request"]


def test_replicas_cover_the_load():
    # 10 requests/s × 500 tokens = 5,000 tokens/s; one replica at batch 1 gives 46.96.
    result = run()
    assert result["demand_tokens_per_second"] == 5000
    assert result["replicas"] == 107  # 5000 / 46.96 = 106.5
    assert result["accelerators_total"] == 214


@pytest.mark.parametrize(("precision", "weight_bytes", "max_concurrent"), [("bf16", 140e9, 7), ("fp8", 70e9, 33), ("int4", 35e9, 46)])
def test_weight_precision_sets_weight_bytes_and_room_for_requests(precision, weight_bytes, max_concurrent):
    result = run(weight_precision=precision)
    assert result["weight_bytes"] == weight_bytes
    assert result["max_concurrent"] == max_concurrent


def test_fp8_kv_cache_halves_the_cache():
    assert run(kv_precision="fp8")["kv_bytes_per_token"] == 163_840


def test_grouped_query_attention_cuts_the_cache_by_heads():
    mha = run(params=7e9, layers=32, kv_heads=32, head_dim=128)["kv_bytes_per_token"]
    gqa = run(**LLAMA3_8B)["kv_bytes_per_token"]
    assert mha == 524_288  # 0.5 MB per token, as for Llama 2 7B
    assert gqa == 131_072
    assert mha / gqa == 4


def test_eight_conversations_stop_fitting_between_4k_and_8k_tokens():
    assert run(batch=8, context_tokens=4096)["fits"] is True
    assert run(batch=8, context_tokens=8192)["fits"] is False


def test_h200_pair_serves_the_load_with_fewer_replicas_than_h100_pair():
    h100 = run(weight_precision="fp8", batch=32, requests_per_second=100)
    h200 = run(weight_precision="fp8", batch=32, requests_per_second=100, memory_per_accelerator=141e9, bandwidth_per_accelerator=4.8e12)
    assert h100["fits"] and h200["fits"]
    assert (h100["replicas"], h200["replicas"]) == (37, 26)
    assert (h100["accelerators_total"], h200["accelerators_total"]) == (74, 52)


def test_weights_alone_too_big_means_no_request_fits():
    result = run(params=405e9, layers=126)
    assert result["max_concurrent"] == 0
    assert result["fits"] is False


def test_most_that_fit_is_exact_at_the_boundary():
    assert serving.most_that_fit(10.0, 5.0, 30.0) == 4
    assert serving.most_that_fit(10.0, 5.0, 29.999) == 3
    assert serving.most_that_fit(10.0, 5.0, 14.999) == 0


def test_replicas_for_is_the_smallest_count_that_covers():
    assert serving.replicas_for(100.0, 50.0) == 2
    assert serving.replicas_for(100.01, 50.0) == 3
    assert serving.replicas_for(1.0, 50.0) == 1


# --- properties ------------------------------------------------------------------------------

counts = st.integers(min_value=1, max_value=512)
scenarios = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=1e8, max_value=2e12),
        "layers": st.integers(1, 200),
        "kv_heads": st.integers(1, 128),
        "head_dim": st.integers(16, 256),
        "weight_precision": st.sampled_from(list(serving.WEIGHT_BYTES)),
        "kv_precision": st.sampled_from(list(serving.KV_BYTES)),
        "context_tokens": st.integers(1, 1_000_000),
        "batch": counts,
        "accelerators": st.integers(1, 64),
        "memory_per_accelerator": st.floats(min_value=1e9, max_value=1e12),
        "bandwidth_per_accelerator": st.floats(min_value=1e10, max_value=1e14),
        "requests_per_second": st.floats(min_value=0.01, max_value=1e5),
        "output_tokens": st.integers(1, 100_000),
    }
)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fits_exactly_when_the_batch_is_at_most_the_most_that_fit(inputs):
    result = serving.compute(**inputs)
    assert result["fits"] == (inputs["batch"] <= result["max_concurrent"])
    assert result["memory_needed_bytes"] == pytest.approx(result["weight_bytes"] + result["kv_cache_bytes"], rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, more=st.integers(1, 512))
def test_bigger_batch_more_total_output_but_slower_for_each_user(inputs, more):
    before = serving.compute(**inputs)
    after = serving.compute(**{**inputs, "batch": inputs["batch"] + more})
    assert after["tokens_per_second_replica"] > before["tokens_per_second_replica"]
    assert after["tokens_per_second_per_request"] < before["tokens_per_second_per_request"]
    assert after["replicas"] <= before["replicas"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, more=st.integers(1, 100_000))
def test_longer_context_never_lets_more_requests_fit(inputs, more):
    before = serving.compute(**inputs)
    after = serving.compute(**{**inputs, "context_tokens": inputs["context_tokens"] + more})
    assert after["max_concurrent"] <= before["max_concurrent"]
    assert after["tokens_per_second_per_request"] < before["tokens_per_second_per_request"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_replicas_are_the_fewest_that_cover_the_demand(inputs):
    result = serving.compute(**inputs)
    covered = result["replicas"] * result["tokens_per_second_replica"]
    assert covered >= result["demand_tokens_per_second"] * (1 - 1e-12)
    if result["replicas"] > 1:
        assert (result["replicas"] - 1) * result["tokens_per_second_replica"] < result["demand_tokens_per_second"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_halving_weight_bits_halves_weight_memory(inputs):
    wide = serving.compute(**{**inputs, "weight_precision": "bf16"})
    narrow = serving.compute(**{**inputs, "weight_precision": "fp8"})
    assert narrow["weight_bytes"] == pytest.approx(wide["weight_bytes"] / 2, rel=1e-12)
    assert narrow["max_concurrent"] >= wide["max_concurrent"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_doubling_the_accelerators_doubles_bandwidth_and_halves_the_step(inputs):
    one = serving.compute(**inputs)
    two = serving.compute(**{**inputs, "accelerators": inputs["accelerators"] * 2})
    assert two["step_seconds"] == pytest.approx(one["step_seconds"] / 2, rel=1e-9)
    assert two["max_concurrent"] >= one["max_concurrent"]


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("params", 0, "params must be a number > 0 (got 0)"),
        ("params", "70e9", "params must be a number (got '70e9')"),
        ("layers", 0, "layers must be a whole number ≥ 1 (got 0)"),
        ("kv_heads", 2.5, "kv_heads must be a whole number ≥ 1 (got 2.5)"),
        ("head_dim", -128, "head_dim must be a whole number ≥ 1 (got -128)"),
        ("context_tokens", math.inf, "context_tokens must be a finite number (got inf)"),
        ("batch", True, "batch must be a number (got True)"),
        ("accelerators", 0, "accelerators must be a whole number ≥ 1 (got 0)"),
        ("memory_per_accelerator", math.nan, "memory_per_accelerator must be a finite number (got nan)"),
        ("bandwidth_per_accelerator", -1, "bandwidth_per_accelerator must be a number > 0 (got -1)"),
        ("requests_per_second", 0, "requests_per_second must be a number > 0 (got 0)"),
        ("output_tokens", 0.5, "output_tokens must be a whole number ≥ 1 (got 0.5)"),
        ("weight_precision", "fp4", "weight_precision must be one of bf16, fp8, int4 (got 'fp4')"),
        ("kv_precision", "int4", "kv_precision must be one of bf16, fp8 (got 'int4')"),
        ("weight_precision", 16, "weight_precision must be one of bf16, fp8, int4 (got 16)"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


# --- declaration -----------------------------------------------------------------------------

def test_every_compute_argument_is_declared_as_an_input_and_outputs_exist():
    names = [spec["name"] for spec in serving.INPUTS]
    assert sorted(names) == sorted(inspect.signature(serving.compute).parameters)
    result = run()
    for output in serving.OUTPUTS:
        assert output["name"] in result
    for figure in serving.FIGURES:
        for part in figure["parts"]:
            assert part["value"] in result
        assert figure["capacity"] in result


def test_presets_name_declared_fields_and_cited_sources():
    input_names = {spec["name"] for spec in serving.INPUTS}
    source_ids = {source["id"] for source in serving.SOURCES}
    for group in serving.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])  # every preset is a valid scenario


def test_accelerator_presets_use_datasheet_memory_and_bandwidth():
    options = {option["id"]: option["values"] for option in serving.PRESETS[0]["options"]}
    assert options["a100-80gb"] == {"memory_per_accelerator": 80e9, "bandwidth_per_accelerator": 2.039e12}
    assert options["h100-sxm"] == {"memory_per_accelerator": 80e9, "bandwidth_per_accelerator": 3.35e12}
    assert options["h200-sxm"] == {"memory_per_accelerator": 141e9, "bandwidth_per_accelerator": 4.8e12}
    assert options["mi300x"] == {"memory_per_accelerator": 192e9, "bandwidth_per_accelerator": 5.3e12}


def test_model_presets_have_the_published_shapes():
    options = {option["id"]: option["values"] for option in serving.PRESETS[1]["options"]}
    assert options["llama3-8b"] == {"params": 8e9, "layers": 32, "kv_heads": 8, "head_dim": 128}
    assert options["llama3-70b"] == {"params": 70e9, "layers": 80, "kv_heads": 8, "head_dim": 128}
    assert options["llama3-405b"] == {"params": 405e9, "layers": 126, "kv_heads": 8, "head_dim": 128}
    assert options["llama2-7b"]["kv_heads"] == 32
