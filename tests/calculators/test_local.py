"""The D4 arithmetic of calculators.local: exact values, properties, notes and refusals."""

from __future__ import annotations

import inspect
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import local

GIB = 2**30
RTX_5090 = {"memory": 32 * GIB, "bandwidth": 1792e9, "gpu_share": 1.0}
M4_MAX = {"memory": 128 * GIB, "bandwidth": 546e9, "gpu_share": 0.84}
PRESET = {option["id"]: option["values"] for group in local.PRESETS for option in group["options"]}


def scenario(**changes) -> dict:
    """The card's default scenario (Llama 3.1 8B at Q4_K_M on a 16 GB, 120 GB/s MacBook Air) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in local.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return local.compute(**scenario(**changes))


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weight_format", "bits"),
    [("q4_0", 4.5), ("q4_k_m", 4.8944), ("q5_k_m", 5.7036), ("q6_k", 6.5625), ("q8_0", 8.5),
     ("mxfp4", 4.25), ("f16", 16), ("bf16", 16)],
)
def test_each_format_has_its_real_bits_per_weight(weight_format, bits):
    result = run(weight_format=weight_format)
    assert result["bits_per_weight"] == pytest.approx(bits, rel=1e-12)
    assert result["weight_bytes"] == pytest.approx(8.03e9 * bits / 8, rel=1e-12)


def test_block_formats_are_their_block_bytes_over_their_block_weights():
    # ggml-common.h: Q4_0 = 2-byte scale + 16 bytes per 32; Q8_0 = 2 + 32 per 32;
    # Q6_K = 210 bytes per 256; MXFP4 = 1-byte exponent + 16 bytes per 32.
    assert local.FORMATS["q4_0"][1] == (2 + 16) * 8 / 32
    assert local.FORMATS["q8_0"][1] == (2 + 32) * 8 / 32
    assert local.FORMATS["q6_k"][1] == 210 * 8 / 256
    assert local.FORMATS["mxfp4"][1] == 4 + 8 / 32


def test_custom_bits_are_used_only_for_the_custom_format():
    assert run(weight_format="custom", custom_bits=3.5)["bits_per_weight"] == 3.5
    assert run(weight_format="q8_0", custom_bits=3.5)["bits_per_weight"] == 8.5


def test_regression_a_4_bit_file_is_not_counted_as_exactly_4_bits():
    # The card used to count "4-bit" as 4 bits flat; Q4_K_M is ~22 % larger.
    assert run()["weight_bytes"] > 8.03e9 * 4 / 8 * 1.2


# --- fit -------------------------------------------------------------------------------------


def test_default_laptop_fits_8b_q4_k_m_in_two_thirds_of_16_gb():
    result = run()
    # 16 GiB (17.18e9 bytes), of which Metal's working set is 2/3: ≈ 10.67 GiB (exo PR #1672).
    assert result["gpu_memory_bytes"] == pytest.approx(0.667 * 16 * GIB, rel=1e-12)
    assert result["gpu_memory_bytes"] / GIB == pytest.approx(10.67, abs=0.005)
    assert result["kv_cache_bytes"] == 8192 * 131072
    assert result["memory_needed_bytes"] == pytest.approx(8.03e9 * 4.8944 / 8 + 8192 * 131072 + 1e9, rel=1e-12)
    assert result["fits"] is True
    assert result["notes"] == []


def test_regression_the_16_gb_laptop_holds_about_14b_not_24b_at_4_bits():
    # Issue 12: "a 16 GB M2 holds a ~24 B model at 4 bits" ignored macOS's GPU limit.
    largest = run()["largest_params"]
    assert 14e9 < largest < 17e9
    assert largest == pytest.approx((0.667 * 16 * GIB - 8192 * 131072 - 1e9) / (4.8944 / 8), rel=1e-12)
    assert run(params=largest * 0.999)["fits"] is True
    assert run(params=largest * 1.001)["fits"] is False


def test_fits_the_machine_but_not_the_gpu_share_gives_a_note():
    result = run(params=17e9)
    assert (result["fits_machine"], result["fits"]) == (True, False)
    assert len(result["notes"]) == 1
    # The note names both units: capacity is sold in GiB, needs are shown in decimal GB.
    assert "machine's 17.2 GB (16.0 GiB)" in result["notes"][0]
    assert "not in the 11.5 GB (10.7 GiB) its GPU may use" in result["notes"][0]
    assert run(params=17e9, gpu_share=0.75)["fits"] is True


def test_regression_a_16_gb_mac_holds_16_gib_so_16_bit_8b_weights_alone_fit_it():
    # Reviewer: "16 GB" is 16 GiB = 17.18e9 bytes; 16.06e9 bytes of 16-bit weights are not
    # "more than the whole laptop", only the weights with KV cache and runtime are.
    assert run()["machine_memory_bytes"] == 16 * GIB == 17_179_869_184
    assert run(weight_format="f16")["weight_bytes"] < 16 * GIB
    assert run(weight_format="f16")["fits_machine"] is False
    assert run(weight_format="f16", context_tokens=0, allowance=0)["fits_machine"] is True


def test_too_big_for_the_machine_gives_a_note():
    result = run(weight_format="f16")
    assert result["fits_machine"] is False
    assert "does not fit" in result["notes"][0]


def test_largest_params_is_zero_when_the_kv_cache_and_runtime_fill_the_gpu_share():
    assert run(allowance=11e9)["largest_params"] == 0
    assert run(allowance=11e9)["fits"] is False


# --- mixture of experts ----------------------------------------------------------------------


def test_gpt_oss_checkpoints_match_the_model_card_sizes():
    assert run(**PRESET["gpt-oss-120b"])["weight_bytes"] == pytest.approx(60.8 * GIB, rel=0.005)
    assert run(**PRESET["gpt-oss-20b"])["weight_bytes"] == pytest.approx(12.8 * GIB, rel=0.005)


def test_moe_memory_follows_total_parameters_and_speed_follows_active_ones():
    dense = run(**{**PRESET["gpt-oss-120b"], "active_params": 0})
    moe = run(**PRESET["gpt-oss-120b"])
    assert moe["weight_bytes"] == dense["weight_bytes"]
    assert moe["memory_needed_bytes"] == dense["memory_needed_bytes"]
    # Active (the card's 5.13B, which omits the input embedding): 2.12B − 0.58B embedding at
    # 16 bits + the rest at 4.25 bits, plus the KV cache.
    embedding = 201_088 * 2_880
    active_bytes = (2.12e9 - embedding) * 2 + (5.13e9 - 2.12e9 + embedding) * 4.25 / 8
    assert moe["bytes_per_token"] == pytest.approx(active_bytes + 8192 * 36864, rel=1e-12)
    assert moe["tokens_per_second"] > 10 * dense["tokens_per_second"]


def test_on_the_m4_max_gpt_oss_120b_is_bigger_yet_faster_than_dense_70b():
    dense = run(**M4_MAX, **PRESET["llama31-70b"])
    moe = run(**M4_MAX, **PRESET["gpt-oss-120b"])
    assert dense["fits"] and moe["fits"]
    assert moe["weight_bytes"] > dense["weight_bytes"]
    assert moe["tokens_per_second"] > 5 * dense["tokens_per_second"]


def test_gpt_oss_fits_one_80_gb_gpu_and_20b_fits_16_gb_of_graphics_memory():
    assert run(**PRESET["gpt-oss-120b"], memory=80 * GIB, gpu_share=1.0)["fits"] is True
    assert run(**PRESET["gpt-oss-20b"], memory=16 * GIB, gpu_share=1.0)["fits"] is True
    on_mac = run(**PRESET["gpt-oss-20b"], **PRESET["macbook-air-m4-16gb"])
    assert (on_mac["fits_machine"], on_mac["fits"]) == (True, False)


# --- speed -----------------------------------------------------------------------------------


def test_speed_is_the_achieved_share_of_bandwidth_over_bytes_per_token():
    result = run()
    bytes_per_token = 8.03e9 * 4.8944 / 8 + 8192 * 131072
    assert result["bytes_per_token"] == pytest.approx(bytes_per_token, rel=1e-12)
    assert result["tokens_per_second_ceiling"] == pytest.approx(120e9 / bytes_per_token, rel=1e-12)
    assert result["tokens_per_second"] == pytest.approx(0.8 * 120e9 / bytes_per_token, rel=1e-12)


def test_llama_cpp_m2_measurement_is_within_the_default_share():
    # llama.cpp #4167: M2 (100 GB/s), 7B Q4_0, 21.91 tokens/s; the ceiling is 26.4.
    result = run(params=6.74e9, weight_format="q4_0", context_tokens=0, bandwidth=100e9)
    assert result["tokens_per_second_ceiling"] == pytest.approx(100e9 / (6.74e9 * 4.5 / 8), rel=1e-12)
    assert 21.91 / result["tokens_per_second_ceiling"] == pytest.approx(0.83, abs=0.01)


def test_a_long_conversation_reads_more_kv_than_weights_and_says_so():
    result = run(**PRESET["gpt-oss-120b"], **M4_MAX, context_tokens=200_000)
    assert result["kv_cache_bytes"] > result["active_weight_bytes"]
    assert any("KV cache" in note for note in result["notes"])


def test_an_implausible_share_of_bandwidth_gives_a_note():
    assert any("83 %" in note for note in run(efficiency=0.95)["notes"])
    assert run(efficiency=0.9)["notes"] == []


# --- cost ------------------------------------------------------------------------------------


def test_default_costs_are_hardware_plus_electricity_over_tokens():
    result = run()
    tokens_per_year = result["tokens_per_second"] * 3600 * 2 * 365
    assert result["tokens_per_year"] == pytest.approx(tokens_per_year, rel=1e-12)
    hardware, electricity = 1500 / 3, 0.030 * 2 * 365 * 0.30
    assert result["hardware_cost_per_year"] == pytest.approx(hardware, rel=1e-12)
    assert result["electricity_cost_per_year"] == pytest.approx(electricity, rel=1e-12)
    assert result["local_cost_per_million"] == pytest.approx((hardware + electricity) / tokens_per_year * 1e6, rel=1e-12)
    assert result["cloud_cost_per_year"] == pytest.approx(0.2 * tokens_per_year / 1e6, rel=1e-12)
    assert result["local_cheaper"] is False
    assert result["hardware_share"] + result["electricity_share"] == pytest.approx(1, rel=1e-12)


def test_a_machine_you_already_own_costs_only_electricity():
    result = run(hardware_price=0)
    tokens_per_hour = result["tokens_per_second"] * 3600
    assert result["local_cost_per_million"] == pytest.approx(0.030 * 0.30 / tokens_per_hour * 1e6, rel=1e-12)
    assert result["local_cheaper"] is True
    assert result["hardware_share"] == 0


def test_nothing_to_pay_gives_zero_cost_and_no_shares():
    result = run(hardware_price=0, electricity_price=0)
    assert result["local_cost_per_million"] == 0
    assert (result["hardware_share"], result["electricity_share"]) == (0, 0)


# --- properties ------------------------------------------------------------------------------

scenarios = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=1e8, max_value=1e12),
        "active_share": st.floats(min_value=0, max_value=1),
        "share_16bit": st.floats(min_value=0, max_value=0.2),
        "lookup_share": st.floats(min_value=0, max_value=0.1),
        "weight_format": st.sampled_from([name for name in local.FORMATS if name != "custom"]),
        "custom_bits": st.floats(min_value=1, max_value=32),
        "context_tokens": st.integers(min_value=0, max_value=1_000_000),
        "kv_bytes_per_token": st.integers(min_value=0, max_value=1_000_000),
        "allowance": st.floats(min_value=0, max_value=64e9),
        "memory": st.floats(min_value=1e9, max_value=2e12),
        "gpu_share": st.floats(min_value=0.01, max_value=1),
        "bandwidth": st.floats(min_value=1e9, max_value=2e13),
        "efficiency": st.floats(min_value=0.01, max_value=1),
        "hardware_price": st.floats(min_value=0, max_value=1e6),
        "lifetime_years": st.floats(min_value=0.5, max_value=10),
        "power_watts": st.floats(min_value=1, max_value=5000),
        "electricity_price": st.floats(min_value=0, max_value=5),
        "hours_per_day": st.floats(min_value=0.1, max_value=24),
        "cloud_price": st.floats(min_value=0.001, max_value=1000),
    }
).map(lambda d: {**{k: v for k, v in d.items() if k not in ("active_share", "share_16bit", "lookup_share")},
                 "active_params": d["params"] * d["active_share"],
                 "params_16bit": d["params"] * d["share_16bit"],
                 "params_lookup": d["params"] * d["lookup_share"]})


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fewer_bits_never_mean_more_memory_or_less_speed(inputs):
    by_bits = sorted((bits, name) for name, (_, bits) in local.FORMATS.items() if bits is not None)
    results = [local.compute(**{**inputs, "weight_format": name}) for _, name in by_bits]
    for narrow, wide in zip(results, results[1:]):
        assert narrow["weight_bytes"] <= wide["weight_bytes"] * (1 + 1e-12)
        assert narrow["tokens_per_second"] >= wide["tokens_per_second"] * (1 - 1e-12)
        assert narrow["fits"] >= wide["fits"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fits_exactly_when_the_need_is_within_the_gpu_share(inputs):
    result = local.compute(**inputs)
    assert result["fits"] == (result["memory_needed_bytes"] <= inputs["memory"] * inputs["gpu_share"])
    assert result["fits"] <= result["fits_machine"]
    if not math.isclose(inputs["params"], result["largest_params"], rel_tol=1e-9) and result["largest_params"] > 0:
        assert result["fits"] == (inputs["params"] < result["largest_params"])
    assert (result["notes"] == []) or (not result["fits"]) or result["kv_cache_bytes"] > result["active_weight_bytes"] or inputs["efficiency"] > 0.9


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fewer_active_parameters_never_slow_a_model_or_change_its_memory(inputs):
    dense = local.compute(**{**inputs, "active_params": 0})
    sparse = local.compute(**inputs)
    assert sparse["memory_needed_bytes"] == dense["memory_needed_bytes"]
    assert sparse["tokens_per_second"] >= dense["tokens_per_second"] * (1 - 1e-12)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, factor=st.floats(min_value=1.01, max_value=10))
def test_more_use_never_raises_the_local_cost_per_token(inputs, factor):
    more = min(inputs["hours_per_day"] * factor, 24)
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
def test_faster_memory_means_proportionally_faster_tokens(inputs, factor):
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
        ("active_params", 9e9, "active_params must be a number in [0, 8.03e+09] (got 9000000000.0)"),
        ("params_16bit", -1, "params_16bit must be a number in [0, 8.03e+09] (got -1)"),
        ("params_lookup", 8.03e9, "params_lookup must be a number in [0, 7.227e+09] (got 8030000000.0)"),
        ("weight_format", "q2", "weight_format must be one of q4_0, q4_k_m, q5_k_m, q6_k, q8_0, mxfp4, f16, bf16, custom (got 'q2')"),
        ("weight_format", 4, "weight_format must be one of"),
        ("custom_bits", 0, "custom_bits must be a number in (0, 32] (got 0)"),
        ("context_tokens", -1, "context_tokens must be a number ≥ 0 (got -1)"),
        ("kv_bytes_per_token", math.nan, "kv_bytes_per_token must be a finite number (got nan)"),
        ("allowance", -1e9, "allowance must be a number ≥ 0 (got -1000000000.0)"),
        ("memory", 0, "memory must be a number > 0 (got 0)"),
        ("gpu_share", 0, "gpu_share must be a number in (0, 1] (got 0)"),
        ("gpu_share", 1.5, "gpu_share must be a number in (0, 1] (got 1.5)"),
        ("bandwidth", math.inf, "bandwidth must be a finite number (got inf)"),
        ("efficiency", 0, "efficiency must be a number in (0, 1] (got 0)"),
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
    result = run(hours_per_day=24)
    assert result["tokens_per_year"] == pytest.approx(result["tokens_per_second"] * 3600 * 24 * 365, rel=1e-12)


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


def test_presets_set_every_field_cite_a_source_and_run():
    input_names = {spec["name"] for spec in local.INPUTS}
    source_ids = {source["id"] for source in local.SOURCES}
    for group in local.PRESETS:
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])


def test_machine_presets_are_the_datasheet_figures():
    machines = {option["id"]: option["values"] for option in local.PRESETS[0]["options"]}
    assert machines["rtx-5090"] == RTX_5090
    assert machines["rtx-4090"] == {"memory": 24 * GIB, "bandwidth": 1008e9, "gpu_share": 1.0}
    assert machines["macbook-pro-m4-max-128gb"] == M4_MAX
    assert machines["macbook-air-m4-16gb"] == {"memory": 16 * GIB, "bandwidth": 120e9, "gpu_share": 0.667}
    assert machines["mac-studio-m3-ultra-512gb"]["bandwidth"] == 819e9
    assert machines["dgx-spark"] == {"memory": 128 * GIB, "bandwidth": 273e9, "gpu_share": 1.0}
    assert machines["ryzen-ai-max-395-128gb"] == {"memory": 128 * GIB, "bandwidth": 256e9, "gpu_share": 0.75}
    # 107.52 GiB of 128 GiB is the stock Metal working set measured on a 128 GB Mac.
    assert M4_MAX["gpu_share"] == pytest.approx(107.52 / 128, abs=0.001)


def test_the_defaults_are_the_laptop_and_llama_presets():
    defaults = scenario()
    for preset in ("macbook-air-m4-16gb", "llama31-8b"):
        assert all(defaults[name] == value for name, value in PRESET[preset].items())


def test_money_inputs_are_labelled_illustrative():
    labels = {spec["name"]: spec["label"] for spec in local.INPUTS}
    for name in ["hardware_price", "power_watts", "electricity_price", "cloud_price"]:
        assert "illustrative" in labels[name]


def test_regression_the_gpt_oss_input_embedding_is_looked_up_not_read_per_token():
    # Reviewer: all 2.12B 16-bit parameters were counted as read, the 0.58B input embedding too.
    with_lookup = run(**PRESET["gpt-oss-120b"], context_tokens=0)
    counted_read = run(**{**PRESET["gpt-oss-120b"], "params_lookup": 0}, context_tokens=0)
    embedding = 201_088 * 2_880
    assert counted_read["bytes_per_token"] - with_lookup["bytes_per_token"] == pytest.approx(
        embedding * (2 - 4.25 / 8), rel=1e-9)
    assert with_lookup["weight_bytes"] == counted_read["weight_bytes"]
    # A dense model without an active count reads everything but the looked-up table.
    dense = run(params_lookup=0.5e9, context_tokens=0)
    assert dense["bytes_per_token"] == pytest.approx((8.03e9 - 0.5e9) * 4.8944 / 8, rel=1e-12)
