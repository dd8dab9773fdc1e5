"""The D4 arithmetic of calculators.serving: exact values, regressions, properties, and refusals."""

from __future__ import annotations

import inspect
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import _moe, local, serving
from calculators._datasheets import GIB


def scenario(**changes) -> dict:
    """The card's default scenario (Llama 3 70B shape, 16-bit, on two H100 SXM) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in serving.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return serving.compute(**scenario(**changes))


LLAMA3_8B = {"params": 8e9, "layers": 32, "kv_heads": 8, "head_dim": 128}
H100_PAIR_BANDWIDTH = 2 * 3.35e12
H100_PAIR_FLOPS = 2 * 989e12 * 0.5  # dense BF16 peak × the default share achieved
KV_70B = 327_680  # bytes per token, 16-bit
H100_PAIR_MEMORY = 2 * 80 * GIB  # the datasheets' "80 GB" of HBM is 80 GiB


# --- memory ----------------------------------------------------------------------------------


def test_llama3_70b_kv_cache_is_327_680_bytes_per_token_in_16_bit():
    result = run()
    assert result["kv_bytes_per_token"] == 2 * 80 * 8 * 128 * 2 == KV_70B
    assert result["kv_bytes_per_token_stored"] == KV_70B  # 8 heads over 2 accelerators: no copies
    assert result["kv_bytes_per_request"] == KV_70B * 8192
    assert result["weight_bytes"] == 140e9


def test_two_h100s_keep_a_tenth_back_and_hold_five_8k_conversations():
    result = run()
    assert result["replica_memory_bytes"] == H100_PAIR_MEMORY == 171_798_691_840
    assert result["reserved_bytes"] == pytest.approx(0.1 * H100_PAIR_MEMORY)
    # (171.80 - 17.18 - 140) GB / 2.68 GB = 5.45
    assert result["max_concurrent"] == 5
    assert run(batch=5)["fits"] is True
    assert run(batch=6)["fits"] is False
    assert result["memory_needed_bytes"] == pytest.approx(140e9 + 0.1 * H100_PAIR_MEMORY + KV_70B * 8192)  # batch 1


def test_regression_memory_is_typed_in_gib_not_decimal_gb():
    spec = next(spec for spec in serving.INPUTS if spec["name"] == "memory_per_accelerator")
    assert (spec["unit"], spec["factor"], spec["default"]) == ("GiB", 2**30, 80 * 2**30)
    assert "GiB" in spec["help"]
    # Read as 80e9 bytes (the old decimal default) only one conversation fitted.
    assert run(memory_per_accelerator=80e9)["max_concurrent"] == 1


def test_without_a_reserve_eleven_conversations_fit():
    assert run(reserved_share=0)["max_concurrent"] == 11  # (171.80 - 140) / 2.68 = 11.8


@pytest.mark.parametrize(("precision", "weight_bytes", "max_concurrent"), [("bf16", 140e9, 5), ("fp8", 70e9, 31), ("int4", 35e9, 44)])
def test_weight_precision_sets_weight_bytes_and_room_for_requests(precision, weight_bytes, max_concurrent):
    result = run(weight_precision=precision)
    assert result["weight_bytes"] == weight_bytes
    assert result["max_concurrent"] == max_concurrent == math.floor((0.9 * H100_PAIR_MEMORY - weight_bytes) / (KV_70B * 8192))


def test_fp8_kv_cache_halves_the_cache():
    assert run(kv_precision="fp8")["kv_bytes_per_token"] == 163_840


def test_grouped_query_attention_cuts_the_cache_by_heads():
    mha = run(params=7e9, layers=32, kv_heads=32, head_dim=128)["kv_bytes_per_token"]
    gqa = run(**LLAMA3_8B)["kv_bytes_per_token"]
    assert mha == 524_288  # 0.5 MB per token, as for Llama 2 7B
    assert gqa == 131_072
    assert mha / gqa == 4


def test_thirty_two_fp8_conversations_stop_fitting_between_4k_and_8k_tokens():
    assert run(weight_precision="fp8", batch=32, context_tokens=4096)["fits"] is True
    assert run(weight_precision="fp8", batch=32, context_tokens=8192)["fits"] is False


# --- regression: sizing from a batch that does not fit (issue 11) ------------------------------


def test_a_batch_that_does_not_fit_is_never_used_for_sizing():
    # The page used to say "does not fit" and still size 22 replicas / 44 accelerators from 1,024.
    result = run(batch=1024, requests_per_second=100)
    assert result["fits"] is False
    assert result["max_concurrent"] == 5
    assert result["batch_used"] == 5
    five = run(batch=5, requests_per_second=100)
    assert result["tokens_per_second_replica"] == five["tokens_per_second_replica"]
    assert (result["replicas"], result["accelerators_total"]) == (five["replicas"], five["accelerators_total"]) == (229, 458)
    assert result["notes"] and "A batch of 1,024 does not fit" in result["notes"][0]
    assert "worked out for 5 at a time" in result["notes"][0]
    # need and capacity are both given in decimal GB, and the unit is said
    assert "of the replica's 171.8 GB, decimal GB of 10^9 bytes; the replica has 160 GiB" in result["notes"][0]


def test_sizing_uses_the_largest_batch_that_fits():
    capped = run(weight_precision="fp8", batch=64, requests_per_second=100)
    exact = run(weight_precision="fp8", batch=31, requests_per_second=100)
    assert capped["batch_used"] == 31 and capped["fits"] is False
    assert capped["step_seconds"] == exact["step_seconds"]
    assert capped["replicas"] == exact["replicas"]
    assert exact["notes"] == []


def test_nothing_is_sized_when_not_even_one_request_fits():
    result = run(params=405e9, layers=126)
    assert result["max_concurrent"] == 0
    assert result["fits"] is False
    for name in ("step_seconds", "tokens_per_second_per_request", "tokens_per_second_replica", "replicas",
                 "replicas_for_decode", "replicas_for_arithmetic",
                 "accelerators_total", "accelerator_hours_per_year", "time_to_first_token_seconds"):
        assert math.isnan(result[name]), name
    assert result["notes"][0].startswith("Not even one request fits")


# --- regression: KV heads copied, not split, past their count (issue 11) ---------------------------


@pytest.mark.parametrize(("kv_heads", "accelerators", "each"), [(8, 1, 8), (8, 2, 4), (8, 8, 1), (8, 16, 1), (8, 3, 3), (1, 8, 1), (32, 2, 16)])
def test_kv_heads_per_accelerator_are_whole_heads(kv_heads, accelerators, each):
    assert serving.kv_heads_per_accelerator(kv_heads, accelerators) == each


def test_sixteen_accelerators_each_hold_one_of_eight_kv_heads_twice_the_even_split():
    result = run(accelerators=16)
    # The old formula spread 327,680 bytes over 16 accelerators: 20,480 each.
    assert result["kv_bytes_per_token_per_accelerator"] == 2 * 80 * 1 * 128 * 2 == 40_960 == 2 * KV_70B / 16
    assert result["kv_bytes_per_token_stored"] == 2 * KV_70B
    assert result["kv_bytes_per_request"] == 2 * KV_70B * 8192
    eight = run(accelerators=8)
    assert eight["kv_bytes_per_token_stored"] == KV_70B


# --- decode speed and the compute ceiling ------------------------------------------------------


def test_one_user_decodes_at_about_47_tokens_a_second():
    result = run()
    step = (140e9 + KV_70B * 8192) / H100_PAIR_BANDWIDTH
    assert result["step_seconds"] == pytest.approx(step, rel=1e-12)
    assert result["tokens_per_second_per_request"] == pytest.approx(46.957, rel=1e-4)
    assert result["tokens_per_second_replica"] == result["tokens_per_second_per_request"]
    assert result["compute_bound"] is False


def test_replicas_cover_the_load():
    result = run()
    assert result["demand_tokens_per_second"] == 5000
    assert result["replicas_for_decode"] == 107  # 5000 / 46.96 = 106.5
    # 10 × (7,692 + 500) tokens × 2 × 70e9 = 1.147e16 FLOP/s over 989 TFLOP/s (half of two H100s): 11.6
    assert result["load_flops_per_second"] == 10 * 8192 * 2 * 70e9
    assert result["replicas_for_arithmetic"] == 12
    assert result["fleet_set_by_arithmetic"] is False
    assert result["replicas"] == 107
    assert result["accelerators_total"] == 214


# --- the fleet: decode pacing or the arithmetic of prompts and replies (fact-check 2026-12-05) ----


def test_regression_eight_bit_weights_need_twelve_replicas_not_four():
    # Layer-3 fact-check: the replies alone gave 4 replicas, 8 H100s, but each 7,692-token prompt
    # takes 1.09 s of a replica's arithmetic: 10 a second keep 11 busy, with the replies 12.
    result = run(weight_precision="fp8", batch=31)
    assert result["replicas_for_decode"] == 4
    assert result["replicas_for_arithmetic"] == 12 == math.ceil(10 * (7692 + 500) * 2 * 70e9 / H100_PAIR_FLOPS)
    assert result["fleet_set_by_arithmetic"] is True
    assert (result["replicas"], result["accelerators_total"]) == (12, 24)
    assert result["accelerator_hours_per_year"] == 24 * 8760


def test_regression_an_h200_has_an_h100s_arithmetic_so_the_prompts_need_as_many():
    # 100 requests a second of 7,692 + 500 tokens: 232 GPUs of either kind (the fact-check's figure),
    # where the replies alone gave 84 H100s and 40 H200s.
    h100 = run(weight_precision="fp8", batch=24, requests_per_second=100)
    h200 = run(weight_precision="fp8", batch=64, requests_per_second=100, memory_per_accelerator=141 * GIB,
               bandwidth_per_accelerator=4.8e12)
    assert (h100["replicas_for_decode"] * 2, h200["replicas_for_decode"] * 2) == (84, 40)
    assert h100["accelerators_total"] == h200["accelerators_total"] == 232
    assert h100["fleet_set_by_arithmetic"] and h200["fleet_set_by_arithmetic"]


def test_one_replica_arithmetic_reads_about_7000_tokens_a_second():
    # 989e12 FLOP/s ÷ 1.4e11 FLOP a token: the 283 tokens per 40 ms chunk of inference-serving D3.
    result = run()
    assert result["arithmetic_tokens_per_second_replica"] == pytest.approx(H100_PAIR_FLOPS / (2 * 70e9), rel=1e-12)
    assert result["arithmetic_tokens_per_second_replica"] == pytest.approx(7064.3, rel=1e-4)


def test_a_mixture_of_experts_fleet_counts_only_its_active_parameters():
    result = run(**GPT_OSS_ON_ONE_H100, requests_per_second=100)
    assert result["load_flops_per_second"] == pytest.approx(100 * 8192 * 2 * 5.1e9, rel=1e-12)
    assert result["replicas_for_arithmetic"] == math.ceil(100 * 8192 * 2 * 5.1e9 / (989e12 * 0.5))


def test_the_default_share_is_sglangs_measured_prefill_rounded():
    # SGLang (LMSYS, 2025-05-05): 52.3k prompt tokens a second per node of 8 H100s for DeepSeek-V3 (37B active).
    measured = 52_300 * 2 * 37e9 / (8 * 989e12)
    default = next(spec for spec in serving.INPUTS if spec["name"] == "compute_share")["default"]
    assert measured == pytest.approx(0.489, abs=0.001)
    assert default == pytest.approx(measured, abs=0.02)
    assert "sglang2025ep" in {source["id"] for source in serving.SOURCES}


def test_deepseeks_own_fleet_is_above_the_arithmetic_floor():
    # DeepSeek, Day 6 (2025-03-01): over 24 h, 608B prompt tokens (342B from its cache) and 168B reply
    # tokens, on 226.75 nodes of 8 H800s (989 TFLOP/s dense BF16, as an H100) on average. The floor
    # counts the tokens it multiplied: a floor, below the fleet it ran.
    tokens_a_second = ((608e9 - 342e9) + 168e9) / 86_400  # 5.02 million, 61 % of them prompt tokens
    day = {**DEEPSEEK_V3_ON_8_H200, "requests_per_second": tokens_a_second / 1000, "prompt_tokens": 613,
           "output_tokens": 387, "context_tokens": 1024}
    result = run(**day)
    assert result["load_flops_per_second"] == pytest.approx(tokens_a_second * 2 * 37e9, rel=1e-9)
    floor_gpus = result["replicas_for_arithmetic"] * 8
    assert floor_gpus == 752  # 3.72e17 FLOP/s ÷ (8 × 989e12 × 0.5) = 94.0 nodes
    assert 226.75 * 8 / floor_gpus == pytest.approx(2.41, abs=0.01)  # the fleet DeepSeek ran, 2.4 times the floor


def test_without_a_batch_that_fits_no_fleet_is_given_either_way():
    result = run(params=405e9, layers=126)
    assert math.isnan(result["replicas_for_decode"]) and math.isnan(result["replicas_for_arithmetic"])
    assert result["fleet_set_by_arithmetic"] is False
    assert result["load_flops_per_second"] == 10 * 8192 * 2 * 405e9  # the load itself is still stated


def test_short_contexts_turn_compute_bound_from_115_requests():
    # weights 70 GB / 6.7 TB/s = 10.4 ms; arithmetic 2 × 70e9 / 989 TFLOP/s = 0.142 ms per request;
    # cache 335.5 MB / 6.7 TB/s = 0.050 ms per request: 10.45 / (0.1416 - 0.0501) = 114.2.
    inputs = {"weight_precision": "fp8", "context_tokens": 1024, "prompt_tokens": 512}
    compute_each = 2 * 70e9 / H100_PAIR_FLOPS
    cache_each = KV_70B * 1024 / H100_PAIR_BANDWIDTH
    crossing = 70e9 / H100_PAIR_BANDWIDTH / (compute_each - cache_each)
    assert 114 < crossing < 115
    assert run(**inputs)["compute_bound_from_batch"] == 115
    assert run(**inputs, batch=114)["compute_bound"] is False
    at = run(**inputs, batch=115)
    assert at["compute_bound"] is True
    assert at["step_seconds"] == pytest.approx(115 * compute_each, rel=1e-12)
    assert any("compute-bound" in note for note in at["notes"])


def test_the_step_figure_says_which_bound_applies():
    from calcview.figures import memory_bar

    step = next(figure for figure in serving.FIGURES if figure["name"] == "step")
    memory_bound = memory_bar(step, run())
    assert "Memory-bound: reading takes 21.3 ms, the arithmetic 142 µs" in memory_bound
    compute_bound = memory_bar(step, run(weight_precision="fp8", context_tokens=1024, prompt_tokens=512, batch=200))
    assert "Compute-bound: the arithmetic (28.3 ms) outlasts the reads (20.5 ms)" in compute_bound
    nothing_fits = run(params=405e9, layers=126)
    assert nothing_fits["step_cache_seconds"] == nothing_fits["step_compute_seconds"] == 0
    assert "reading memory takes 121 ms" in memory_bar(step, nothing_fits)  # the weights alone


def test_past_the_crossing_a_bigger_batch_adds_no_output():
    inputs = {"weight_precision": "fp8", "context_tokens": 1024, "prompt_tokens": 512}
    one_fifty, two_hundred = run(**inputs, batch=150), run(**inputs, batch=200)
    assert one_fifty["tokens_per_second_replica"] == pytest.approx(two_hundred["tokens_per_second_replica"], rel=1e-12)
    assert two_hundred["tokens_per_second_per_request"] < one_fifty["tokens_per_second_per_request"]


def test_a_crossing_far_beyond_any_batch_is_reported_without_overflow():
    crossing = serving.crossover_batch(70e9, 70e9, cache_seconds=1e-4, compute_seconds=1e-4 * (1 + 1e-15), bandwidth=6.7e12)
    assert crossing > 1e12 and math.isfinite(crossing)
    assert serving.crossover_batch(70e9, 70e9, cache_seconds=1e-4, compute_seconds=1e-4, bandwidth=6.7e12) == math.inf


def test_long_contexts_never_turn_compute_bound():
    # Each 8k request's cache takes longer to read (0.40 ms) than its arithmetic (0.14 ms).
    assert run()["compute_bound_from_batch"] == math.inf


# --- prefill and time to first token ------------------------------------------------------------


def test_prefill_of_a_7692_token_prompt_takes_about_a_second():
    result = run()
    assert result["prefill_flops"] == 2 * 70e9 * 7692
    assert result["prefill_seconds"] == pytest.approx(2 * 70e9 * 7692 / H100_PAIR_FLOPS, rel=1e-12)
    assert result["prefill_seconds"] == pytest.approx(1.0889, rel=1e-4)
    assert result["time_to_first_token_seconds"] == pytest.approx(result["prefill_seconds"] + result["step_seconds"], rel=1e-12)


def test_a_one_token_prompt_still_reads_all_the_weights():
    assert run(prompt_tokens=1)["prefill_seconds"] == pytest.approx(140e9 / H100_PAIR_BANDWIDTH, rel=1e-12)


# --- mixture of experts -------------------------------------------------------------------------


GPT_OSS_ON_ONE_H100 = {"params": 117e9, "active_params": 5.1e9, "experts": 128, "experts_per_token": 4,
                       "layers": 36, "kv_heads": 8, "head_dim": 64, "weight_precision": "int4", "accelerators": 1}
DEEPSEEK_V3_ON_8_H200 = {"params": 671e9, "active_params": 37e9, "experts": 256, "experts_per_token": 8, "layers": 61,
                         "kv_heads": 1, "head_dim": 288, "weight_precision": "fp8", "accelerators": 8,
                         "memory_per_accelerator": 141 * GIB, "context_tokens": 1024, "prompt_tokens": 512}


def test_mixture_of_experts_holds_all_weights_but_reads_the_active_ones():
    result = run(**GPT_OSS_ON_ONE_H100)
    assert result["weight_bytes"] == 58.5e9
    assert result["fits"] is True
    cache = 2 * 36 * 8 * 64 * 2 * 8192
    assert result["step_seconds"] == pytest.approx((5.1e9 * 0.5 + cache) / 3.35e12, rel=1e-12)
    assert result["prefill_flops"] == 2 * 5.1e9 * 7692


def test_a_batch_of_a_mixture_of_experts_reads_the_experts_any_token_picks():
    result = run(**GPT_OSS_ON_ONE_H100, batch=32, context_tokens=1024, prompt_tokens=512)
    expert = (117e9 - 5.1e9) / (1 - 4 / 128)
    shared = 117e9 - expert
    assert (result["shared_params"], result["expert_params"]) == (pytest.approx(shared), pytest.approx(expert))
    read = 0.5 * (shared + expert * (1 - (1 - 4 / 128) ** 32))
    cache = 2 * 36 * 8 * 64 * 2 * 1024
    assert result["memory_seconds"] == pytest.approx((read + 32 * cache) / 3.35e12, rel=1e-12)


def test_regression_deepseek_v3_batch_of_8_reads_shared_weights_once_not_8_times():
    result = run(**DEEPSEEK_V3_ON_8_H200, batch=8)
    read = result["step_weights_seconds"] * result["replica_bandwidth"]
    old_rule = min(671e9, 8 * 37e9)  # FP8: one byte a weight; shared weights counted once per request
    # shared 16.5B once + 654.5B of experts × (1 - (31/32)^8) = 163.3 GB
    assert read == pytest.approx(16.548e9 + 654.452e9 * (1 - (31 / 32) ** 8), rel=1e-4)
    assert read < old_rule
    assert old_rule / read == pytest.approx(1.81, abs=0.01)


def test_deepseek_v3_expert_share_solved_from_counts_matches_its_config():
    # DeepSeek-V3 inference config: 61 layers of which the first 3 dense, 256 routed experts of
    # 3 × 7168 × 2048 weights each (moe_inter_dim 2048, dim 7168), 8 chosen per token.
    routed = (61 - 3) * 256 * 3 * 7168 * 2048  # 653.9 billion
    assert run(**DEEPSEEK_V3_ON_8_H200)["expert_params"] == pytest.approx(routed, rel=0.002)


def test_a_huge_batch_reads_every_weight_once_and_one_token_reads_the_active_ones():
    assert serving.weights_read(10.0, 90.0, 1 - 8 / 256, 10**9) == pytest.approx(100.0, rel=1e-12)
    assert serving.weights_read(10.0, 90.0, 1 - 8 / 256, 1) == pytest.approx(10 + 90 * 8 / 256, rel=1e-12)
    long_prompt = {**DEEPSEEK_V3_ON_8_H200, "prompt_tokens": 100_000, "context_tokens": 100_000}
    assert run(**long_prompt)["prefill_seconds"] >= 671e9 / (8 * 3.35e12) * (1 - 1e-9)


@pytest.mark.parametrize(("model", "moe_weights"), [("gpt-oss-120b", 114.71e9), ("gpt-oss-20b", 19.12e9)])
def test_the_input_embedding_is_not_booked_as_expert_weight(model, moe_weights):
    # Issue 30: solved from 20.91B total and 3.61B active, gpt-oss-20b got 19.77B of experts against its
    # card's 19.12B of MoE weights (Table 1): the 0.58B input embedding, which the card's active count
    # leaves out, was booked as expert weight. With it taken out (the rule local uses, calculators/_moe.py)
    # the split matches the card for both models.
    preset = next(o for o in serving.PRESETS[1]["options"] if o["id"] == model)["values"]
    result = run(**preset, weight_precision="int4", accelerators=1)
    assert result["expert_params"] == pytest.approx(moe_weights, rel=0.002)
    assert result["shared_params"] + result["expert_params"] + result["params_lookup"] == pytest.approx(preset["params"])
    booked = run(**{**preset, "params_lookup": 0}, weight_precision="int4", accelerators=1)
    assert booked["expert_params"] > moe_weights * 1.005  # what the old split gave


def test_serving_and_local_share_one_lookup_field_and_one_rule():
    # One rule for both (issue 30): the same form field, and the same parameters read per token.
    fields = [next(spec for spec in module.INPUTS if spec["name"] == "params_lookup") for module in (serving, local)]
    assert [{k: v for k, v in spec.items() if k != "help"} for spec in fields] == [
        {k: v for k, v in _moe.lookup_input("").items() if k != "help"}] * 2
    preset = next(o for o in serving.PRESETS[1]["options"] if o["id"] == "gpt-oss-20b")["values"]
    assert run(**preset, weight_precision="int4", accelerators=1)["active_params_used"] == _moe.read_parameters(
        20.91e9, 3.61e9, _moe.EMBEDDING_GPT_OSS) == 3.61e9


def test_a_dense_models_looked_up_embedding_is_neither_read_nor_multiplied():
    lookup = 128_256 * 4_096  # Llama 3 8B's input embedding table
    result, whole = run(params=8e9, layers=32, params_lookup=lookup), run(params=8e9, layers=32)
    assert result["active_params_used"] == 8e9 - lookup
    assert result["prefill_flops"] == pytest.approx(whole["prefill_flops"] * (8e9 - lookup) / 8e9)
    assert result["weight_bytes"] == whole["weight_bytes"]  # it still sits in memory
    assert not any("no routing" in note for note in result["notes"])


def test_active_params_without_routing_read_everything_and_say_so():
    result = run(params=117e9, active_params=5.1e9, layers=36, head_dim=64, weight_precision="int4", accelerators=1)
    assert result["step_weights_seconds"] == pytest.approx(58.5e9 / 3.35e12, rel=1e-12)
    assert any("no routing is given" in note for note in result["notes"])
    assert not any("no routing" in note for note in run(**GPT_OSS_ON_ONE_H100)["notes"])


def test_dense_defaults_read_all_weights_once_per_step_whatever_the_batch():
    for batch in (1, 2, 5):
        assert run(batch=batch)["step_weights_seconds"] == pytest.approx(140e9 / H100_PAIR_BANDWIDTH, rel=1e-12)
    assert (run()["shared_params"], run()["expert_params"]) == (70e9, 0)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("experts_per_token", 9, "experts_per_token must be at most experts, 8 (got 9)"),
    ("active_params", 1e9, "active_params must be at least experts per token ÷ experts of the model size, 8.75 billion (got 1 billion)"),
])
def test_routing_that_cannot_be_refused(field, value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run(**{"experts": 8, "experts_per_token": 1, "active_params": 20e9, field: value})


# --- regression: crossover batch when one request is already compute-bound (issue 11) -----------


def test_one_request_already_compute_bound_crosses_at_1():
    result = run(weight_precision="int4", compute_share=0.01)
    assert result["compute_bound"] is True
    assert result["compute_seconds"] >= result["memory_seconds"]
    assert result["compute_bound_from_batch"] == 1


@pytest.mark.parametrize("share", [0.01, 0.05, 0.2, 0.5, 1.0])
def test_crossover_is_the_first_compute_bound_batch_by_direct_search(share):
    for case in ({}, GPT_OSS_ON_ONE_H100, DEEPSEEK_V3_ON_8_H200):
        result = run(**{"weight_precision": "int4", "context_tokens": 1024, "prompt_tokens": 512, **case, "compute_share": share})
        first = result["compute_bound_from_batch"]
        if math.isinf(first):
            continue
        bound = lambda b: run(**{"weight_precision": "int4", "context_tokens": 1024, "prompt_tokens": 512, **case,
                                 "compute_share": share, "batch": b, "memory_per_accelerator": 1000 * GIB})["compute_bound"]
        assert bound(first)
        assert first == 1 or not bound(first - 1)


def test_active_params_zero_means_dense():
    assert run(active_params=0)["step_seconds"] == run(active_params=70e9)["step_seconds"]
    assert run(active_params=0)["prefill_flops"] == run(active_params=70e9)["prefill_flops"]


# --- notes ----------------------------------------------------------------------------------------


def test_no_notes_inside_the_range():
    assert run()["notes"] == []


def test_a_prompt_and_reply_longer_than_the_context_get_a_note():
    notes = run(prompt_tokens=8000)["notes"]
    assert len(notes) == 1 and "8,500 tokens" in notes[0]


def test_assumptions_say_what_is_left_out():
    said = " ".join(serving.ASSUMPTIONS)
    assert len(serving.ASSUMPTIONS) >= 3
    for phrase in ("full context", "continuous batching", "speculative decoding", "gpu_memory_utilization", "copy of a head",
                   "larger of two needs", "chunked prefill", "a floor, not a plan"):
        assert phrase in said


# --- properties ---------------------------------------------------------------------------------

counts = st.integers(min_value=1, max_value=512)
scenarios = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=1e8, max_value=2e12),
        "active_params": st.just(0),
        "params_lookup": st.just(0),
        "experts": st.just(1),
        "experts_per_token": st.just(1),
        "layers": st.integers(1, 200),
        "kv_heads": st.integers(1, 128),
        "head_dim": st.integers(16, 256),
        "weight_precision": st.sampled_from(list(serving.WEIGHT_BYTES)),
        "kv_precision": st.sampled_from(list(serving.KV_BYTES)),
        "prompt_tokens": st.integers(1, 100_000),
        "context_tokens": st.integers(1, 1_000_000),
        "batch": counts,
        "accelerators": st.integers(1, 64),
        "memory_per_accelerator": st.floats(min_value=1e9, max_value=1e12),
        "bandwidth_per_accelerator": st.floats(min_value=1e10, max_value=1e14),
        "peak_flops_per_accelerator": st.floats(min_value=1e12, max_value=1e17),
        "compute_share": st.floats(min_value=0.01, max_value=1),
        "reserved_share": st.floats(min_value=0, max_value=0.9),
        "requests_per_second": st.floats(min_value=0.01, max_value=1e5),
        "output_tokens": st.integers(1, 100_000),
    }
)
moe = st.floats(min_value=0.01, max_value=1)


def with_active(inputs: dict, share: float) -> dict:
    """A mixture of experts routed 8 of 256 (as DeepSeek-V3), with ``share`` of its weights active."""
    return {**inputs, "experts": 256, "experts_per_token": 8, "active_params": inputs["params"] * max(share, 8 / 256)}


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_fits_exactly_when_the_batch_is_at_most_the_largest_that_fits(inputs):
    result = serving.compute(**inputs)
    assert result["fits"] == (inputs["batch"] <= result["max_concurrent"])
    assert result["memory_needed_bytes"] == pytest.approx(result["weight_bytes"] + result["reserved_bytes"] + result["kv_cache_bytes"], rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, share=moe)
def test_sizing_only_ever_uses_a_batch_that_fits(inputs, share):
    result = serving.compute(**with_active(inputs, share))
    assert result["batch_used"] == min(inputs["batch"], result["max_concurrent"])
    used = result["weight_bytes"] + result["reserved_bytes"] + result["batch_used"] * result["kv_bytes_per_request"]
    assert result["batch_used"] == 0 or used <= result["replica_memory_bytes"]
    assert math.isnan(result["replicas"]) == (result["batch_used"] == 0)
    assert bool(result["notes"]) or (result["fits"] and not result["compute_bound"])


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, share=moe, more=st.integers(1, 512))
def test_bigger_batch_never_less_total_output_and_never_faster_for_each_user(inputs, share, more):
    before = serving.compute(**with_active(inputs, share))
    after = serving.compute(**{**with_active(inputs, share), "batch": inputs["batch"] + more})
    if before["batch_used"] == 0:
        return
    assert after["tokens_per_second_replica"] >= before["tokens_per_second_replica"] * (1 - 1e-12)
    assert after["tokens_per_second_per_request"] <= before["tokens_per_second_per_request"] * (1 + 1e-12)
    assert after["replicas"] <= before["replicas"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, share=moe)
def test_compute_bound_exactly_from_the_crossing_batch(inputs, share):
    result = serving.compute(**with_active(inputs, share))
    if result["batch_used"] == 0:
        return
    assert result["compute_bound"] == (result["batch_used"] >= result["compute_bound_from_batch"])
    assert result["step_seconds"] == max(result["memory_seconds"], result["compute_seconds"])


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, more=st.integers(1, 100_000))
def test_longer_context_never_lets_more_requests_fit(inputs, more):
    before = serving.compute(**inputs)
    after = serving.compute(**{**inputs, "context_tokens": inputs["context_tokens"] + more})
    assert after["max_concurrent"] <= before["max_concurrent"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_replicas_are_the_fewest_that_cover_the_demand(inputs):
    result = serving.compute(**inputs)
    if result["batch_used"] == 0:
        return
    decode = result["replicas_for_decode"]
    assert decode * result["tokens_per_second_replica"] >= result["demand_tokens_per_second"] * (1 - 1e-12)
    if decode > 1:
        assert (decode - 1) * result["tokens_per_second_replica"] < result["demand_tokens_per_second"]
    arithmetic = result["replicas_for_arithmetic"]
    assert arithmetic * result["replica_flops"] >= result["load_flops_per_second"] * (1 - 1e-12)
    if arithmetic > 1:
        assert (arithmetic - 1) * result["replica_flops"] < result["load_flops_per_second"]
    assert result["replicas"] == max(decode, arithmetic)
    assert result["fleet_set_by_arithmetic"] == (arithmetic > decode)
    assert result["accelerators_total"] == result["replicas"] * inputs["accelerators"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, share=moe)
def test_the_fleet_is_never_negative_nor_nan_once_a_batch_fits(inputs, share):
    result = serving.compute(**with_active(inputs, share))
    if result["batch_used"] == 0:
        return
    for name in ("replicas_for_decode", "replicas_for_arithmetic", "replicas", "accelerators_total",
                 "accelerator_hours_per_year", "load_flops_per_second", "arithmetic_tokens_per_second_replica"):
        value = result[name]
        assert math.isfinite(value) and value > 0, (name, value)
    assert result["replicas"] >= 1 and float(result["replicas"]).is_integer()


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, share=moe, more=st.integers(1, 100_000))
def test_more_prompt_tokens_never_fewer_gpus(inputs, share, more):
    before = serving.compute(**with_active(inputs, share))
    after = serving.compute(**{**with_active(inputs, share), "prompt_tokens": inputs["prompt_tokens"] + more})
    if before["batch_used"] == 0:
        return
    assert after["replicas_for_decode"] == before["replicas_for_decode"]  # the replies' pacing is unchanged
    assert after["replicas_for_arithmetic"] >= before["replicas_for_arithmetic"]
    assert after["accelerators_total"] >= before["accelerators_total"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios, more=st.floats(min_value=1.001, max_value=100))
def test_more_load_never_fewer_gpus_and_a_higher_share_never_more(inputs, more):
    base = serving.compute(**inputs)
    if base["batch_used"] == 0:
        return
    busier = serving.compute(**{**inputs, "requests_per_second": inputs["requests_per_second"] * more})
    assert busier["accelerators_total"] >= base["accelerators_total"]
    sharper = serving.compute(**{**inputs, "compute_share": min(1.0, inputs["compute_share"] * more)})
    assert sharper["replicas_for_arithmetic"] <= base["replicas_for_arithmetic"]
    assert sharper["accelerators_total"] <= base["accelerators_total"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_halving_weight_bits_halves_weight_memory(inputs):
    wide = serving.compute(**{**inputs, "weight_precision": "bf16"})
    narrow = serving.compute(**{**inputs, "weight_precision": "fp8"})
    assert narrow["weight_bytes"] == pytest.approx(wide["weight_bytes"] / 2, rel=1e-12)
    assert narrow["max_concurrent"] >= wide["max_concurrent"]


@settings(max_examples=200, deadline=None)
@given(inputs=scenarios)
def test_doubling_the_accelerators_never_slows_a_batch_that_fits(inputs):
    one = serving.compute(**inputs)
    two = serving.compute(**{**inputs, "accelerators": inputs["accelerators"] * 2})
    if not one["fits"]:
        return
    assert two["fits"]
    assert two["step_seconds"] <= one["step_seconds"] * (1 + 1e-12)
    if inputs["kv_heads"] % (2 * inputs["accelerators"]) == 0:  # no head copied: everything halves
        assert two["step_seconds"] == pytest.approx(one["step_seconds"] / 2, rel=1e-9)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("params", 0, "params must be a number > 0 (got 0)"),
        ("params", "70e9", "params must be a number (got '70e9')"),
        ("active_params", -1, "active_params must be a number ≥ 0 (got -1)"),
        ("active_params", 80e9, "active_params must be at most the model size, 70 billion (got 80 billion)"),
        ("layers", 0, "layers must be a whole number ≥ 1 (got 0)"),
        ("kv_heads", 2.5, "kv_heads must be a whole number ≥ 1 (got 2.5)"),
        ("head_dim", -128, "head_dim must be a whole number ≥ 1 (got -128)"),
        ("prompt_tokens", 0, "prompt_tokens must be a whole number ≥ 1 (got 0)"),
        ("context_tokens", math.inf, "context_tokens must be a finite number (got inf)"),
        ("batch", True, "batch must be a number (got True)"),
        ("accelerators", 0, "accelerators must be a whole number ≥ 1 (got 0)"),
        ("memory_per_accelerator", math.nan, "memory_per_accelerator must be a finite number (got nan)"),
        ("bandwidth_per_accelerator", -1, "bandwidth_per_accelerator must be a number > 0 (got -1)"),
        ("peak_flops_per_accelerator", 0, "peak_flops_per_accelerator must be a number > 0 (got 0)"),
        ("compute_share", 0, "compute_share must be a number in (0, 1] (got 0)"),
        ("compute_share", 1.5, "compute_share must be a number in (0, 1] (got 1.5)"),
        ("reserved_share", 0.95, "reserved_share must be a number in [0, 0.9] (got 0.95)"),
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
    assert isinstance(result["notes"], list)


def test_presets_name_declared_fields_and_cited_sources():
    input_names = {spec["name"] for spec in serving.INPUTS}
    source_ids = {source["id"] for source in serving.SOURCES}
    for group in serving.PRESETS:
        for option in group["options"]:
            assert "missing" not in option, option["id"]
            assert set(option["values"]) == set(group["fields"]) <= input_names
            assert option["source"] in source_ids
            run(**option["values"])  # every preset is a valid scenario


def test_accelerator_presets_cover_late_2026_parts_with_dense_16_bit_peaks():
    options = {option["id"]: option["values"] for option in serving.PRESETS[0]["options"]}
    assert set(options) == {"a100-80gb", "h100-sxm", "h200-sxm", "b200", "b300", "gb200-nvl72", "gb300-nvl72",
                            "mi300x", "mi355x", "tpu-v5p", "tpu-ironwood"}
    assert options["h100-sxm"] == {"memory_per_accelerator": 80 * GIB, "bandwidth_per_accelerator": 3.35e12, "peak_flops_per_accelerator": 989e12}
    assert options["h200-sxm"]["bandwidth_per_accelerator"] == 4.8e12
    assert options["b200"] == {"memory_per_accelerator": 180 * GIB, "bandwidth_per_accelerator": 7.7e12, "peak_flops_per_accelerator": 2250e12}
    assert options["mi300x"]["peak_flops_per_accelerator"] == 1307.4e12  # dense, not the 2,614.9 with sparsity


def test_model_presets_have_the_published_shapes():
    options = {option["id"]: option["values"] for option in serving.PRESETS[1]["options"]}
    dense = {"active_params": 0, "params_lookup": 0, "experts": 1, "experts_per_token": 1, "kv_heads": 8, "head_dim": 128}
    assert options["llama3-8b"] == {"params": 8e9, "layers": 32, **dense}
    assert options["llama3-70b"] == {"params": 70e9, "layers": 80, **dense}
    assert options["llama3-405b"] == {"params": 405e9, "layers": 126, **dense}
    assert (options["deepseek-v3"]["experts"], options["deepseek-v3"]["experts_per_token"]) == (256, 8)
    assert (options["gpt-oss-120b"]["experts"], options["gpt-oss-120b"]["experts_per_token"]) == (128, 4)
    assert (options["gpt-oss-20b"]["experts"], options["gpt-oss-20b"]["experts_per_token"]) == (32, 4)
    assert options["llama2-7b"]["kv_heads"] == 32
    assert (options["gpt-oss-120b"]["params"], options["gpt-oss-120b"]["active_params"]) == (116.83e9, 5.13e9)
    assert options["gpt-oss-20b"]["params_lookup"] == 201_088 * 2_880  # the input embedding, as in local
    deepseek = run(**options["deepseek-v3"])
    assert deepseek["kv_bytes_per_token"] == 576 * 61 * 2  # latent 512 + rotary key 64, per layer, 16-bit
