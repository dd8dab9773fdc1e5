"""The D3/D4 arithmetic of calculators.transformer_shape: worked examples by hand, every option of the
shape, the presets against their publishers' shapes, agreement with the serving calculator,
properties over random shapes, notes and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import local, serving, transformer_shape

PRESET = {option["id"]: option["values"] for group in transformer_shape.PRESETS for option in group["options"]}


def scenario(**changes) -> dict:
    """The card's default: Llama 3.1 70B in 16-bit at 8,192 tokens, 15 trillion training tokens."""
    inputs = {spec["name"]: spec["default"] for spec in transformer_shape.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return transformer_shape.compute(**scenario(**changes))


# --- Llama 3 70B, by hand (the D3 worked example) ----------------------------------------------


def test_llama3_70b_parameters_part_by_part():
    result = run()
    # Attention: query and output 8,192 × 8,192 each, key and value 8,192 × 1,024 each.
    assert result["attention_params_per_layer"] == 2 * 8192 * 8192 + 2 * 8192 * 1024 == 150_994_944
    # SwiGLU: three 8,192 × 28,672 matrices.
    assert result["mlp_params_per_layer"] == 3 * 8192 * 28672 == 704_643_072
    # Two RMSNorms of 8,192 per layer.
    assert result["params_per_layer"] == 150_994_944 + 704_643_072 + 2 * 8192 == 855_654_400
    assert result["layer_params"] == 80 * 855_654_400
    # Input and output tables of 128,256 × 8,192, and the final norm.
    assert result["embedding_params"] == 2 * 128_256 * 8192 == 2_101_346_304
    assert result["params_total"] == 80 * 855_654_400 + 8192 + 2_101_346_304 == 70_553_706_496
    assert result["params_non_embedding"] == result["params_total"] - 2_101_346_304
    assert result["mlp_share"] == pytest.approx(80 * 704_643_072 / 70_553_706_496)  # four fifths


def test_llama3_70b_arithmetic_per_token():
    result = run()
    # The input table is a look-up: 2 × (70.55 − 1.05) billion weights' products.
    matmul = 70_553_706_496 - 128_256 * 8192
    assert result["forward_weight_flops"] == 2 * matmul
    # Attention at position 8,192: 4 × 80 layers × 8,192 tokens × 64 heads × 128.
    assert result["forward_attention_flops"] == 4 * 80 * 8192 * 8192 == 21_474_836_480
    assert result["forward_flops"] == 2 * matmul + 21_474_836_480
    assert result["attention_share"] == pytest.approx(21_474_836_480 / result["forward_flops"])
    # Training is three forward passes' worth; the 6N rule counts every parameter and no attention.
    assert result["train_flops"] == 3 * result["forward_flops"]
    assert result["train_flops_6n"] == 6 * 70_553_706_496
    assert result["train_flops_total"] == pytest.approx(result["train_flops"] * 15e12)
    assert result["train_flops_6nd"] == pytest.approx(6 * 70_553_706_496 * 15e12)
    # Scoring the 128,256 entries: 2 × 128,256 × 8,192 of the forward pass.
    assert result["output_layer_share"] == pytest.approx(2 * 128_256 * 8192 / result["forward_flops"])


def test_llama3_70b_kv_cache():
    result = run()
    assert result["kv_bytes_per_token"] == 2 * 80 * 8 * 128 * 2 == 327_680
    assert result["kv_bytes_per_sequence"] == 327_680 * 8192
    assert result["kv_bytes_per_token_mha"] == 2 * 80 * 64 * 128 * 2  # eight times as much
    assert result["query_heads_per_kv_head"] == 8
    assert result["weight_bytes"] == 2 * 70_553_706_496
    assert result["context_matching_weights"] == pytest.approx(2 * 70_553_706_496 / 327_680)  # about 430,600 tokens
    assert run(kv_precision="fp8")["kv_bytes_per_token"] == 163_840
    assert run(weight_precision="int4")["weight_bytes"] == pytest.approx(70_553_706_496 / 2)


# --- each option of the shape --------------------------------------------------------------------


def test_tied_tables_count_once_and_the_shared_table_does_the_output_products():
    separate, tied = run(), run(embeddings="tied")
    table = 128_256 * 8192
    assert separate["params_total"] - tied["params_total"] == table
    assert tied["embedding_params"] == table
    # Tied, every parameter takes part in a product (the table scores the next token).
    assert tied["forward_weight_flops"] == 2 * tied["params_total"]
    assert tied["forward_weight_flops"] == separate["forward_weight_flops"]


def test_biases_add_what_qwen2_and_gpt2_add():
    none, qkv, every = run(), run(biases="qkv"), run(biases="all")
    # Query (64 × 128), key and value (8 × 128 each).
    assert qkv["attention_params_per_layer"] - none["attention_params_per_layer"] == 8192 + 2 * 1024
    # Plus the output projection's 8,192, and the gated block's gate, up (28,672 each) and down (8,192).
    assert every["attention_params_per_layer"] - none["attention_params_per_layer"] == 8192 + 2 * 1024 + 8192
    assert every["mlp_params_per_layer"] - none["mlp_params_per_layer"] == 2 * 28672 + 8192
    plain = run(mlp="plain", biases="all")
    assert plain["mlp_params_per_layer"] == 2 * 8192 * 28672 + 28672 + 8192


def test_query_and_key_norms_add_two_heads_worth_per_layer():
    assert run(qk_norm="yes")["params_per_layer"] - run()["params_per_layer"] == 2 * 128


def test_layer_norm_doubles_the_norm_weights():
    assert run(norm="layer")["params_total"] - run()["params_total"] == (2 * 80 + 1) * 8192


def test_a_plain_block_has_two_matrices():
    assert run(mlp="plain")["mlp_params_per_layer"] == 2 * 8192 * 28672


def test_head_size_times_heads_need_not_be_the_width():
    # Qwen3-32B: 64 query heads of 128 (8,192) on a width of 5,120.
    result = run(**PRESET["qwen3-32b"])
    assert result["attention_params_per_layer"] == 2 * 5120 * 8192 + 2 * 5120 * 1024 + 2 * 128
    assert result["forward_attention_flops"] == 4 * 64 * 8192 * 64 * 128


def test_a_sliding_window_caps_the_cache_and_attention():
    mistral = PRESET["mistral-7b"]
    short, long = run(**mistral, context=4096), run(**mistral, context=32768)
    assert long["kv_bytes_per_sequence"] == short["kv_bytes_per_sequence"] == 131_072 * 4096
    assert long["forward_attention_flops"] == short["forward_attention_flops"]
    assert long["window_saving"] == 8 and short["window_saving"] == 1
    # Mistral's 14.5 GB of weights are never matched by a 0.54 GB window of cache.
    assert long["context_matching_weights"] == math.inf
    assert run(window=0)["window_saving"] == 1


def test_a_window_longer_than_the_weights_need_still_matches_them():
    # Llama 3 70B with a window of 1 million tokens: the cache passes the weights at about 430,600.
    result = run(window=1_000_000, context=8192)
    assert result["context_matching_weights"] == pytest.approx(2 * 70_553_706_496 / 327_680)


# --- presets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "published", "output", "tolerance"),
    [
        # Model cards and papers; the rows of tests/calculators/published/ hold the sources.
        ("llama32-1b", 1.23e9, "params_total", 0.005),
        ("llama32-3b", 3.21e9, "params_total", 0.002),
        ("qwen25-7b", 7.61e9, "params_total", 0.001),
        ("qwen25-7b", 6.53e9, "params_non_embedding", 0.001),
        ("qwen3-4b", 4.0e9, "params_total", 0.0125),
        ("qwen3-8b", 8.2e9, "params_total", 0.006),
        ("qwen3-32b", 32.8e9, "params_total", 0.002),
        ("qwen3-32b", 31.2e9, "params_non_embedding", 0.001),
        ("llama31-405b", 405e9, "params_total", 0.003),
        ("llama31-8b", 131_072, "kv_bytes_per_token", 0),
        ("qwen25-72b", 327_680, "kv_bytes_per_token", 0),
        ("llama31-405b", 516_096, "kv_bytes_per_token", 0),
    ],
)
def test_presets_reproduce_their_publishers_figures(option, published, output, tolerance):
    assert run(**PRESET[option])[output] == pytest.approx(published, rel=tolerance)


def test_preset_labels_state_the_shape_they_set():
    for group in transformer_shape.PRESETS:
        for option in group["options"]:
            values, label = option["values"], option["label"]
            for name in ("layers", "d_model", "d_ff"):
                assert f"{values[name]:,}" in label, (option["id"], name)
            assert f"{values['kv_heads']} KV heads" in label, option["id"]
            assert ("tied" in label) == (values["embeddings"] == "tied"), option["id"]
            assert ("window" in label) == (values["window"] > 0), option["id"]


def test_every_preset_is_dated():
    for option in transformer_shape.PRESETS[0]["options"]:
        assert any(year in option["label"] for year in ("2023", "2024", "2025", "2026")), option["label"]


def test_llama_counts_agree_with_the_local_calculators_presets():
    """calculators.local types Llama 3.1's parameters and cache in from the model cards; the shape gives them."""
    typed = {o["id"]: o["values"] for g in local.PRESETS if g["name"] == "model" for o in g["options"]}
    for option in ("llama31-8b", "llama31-70b", "llama31-405b"):
        result = run(**PRESET[option])
        assert result["params_total"] == pytest.approx(typed[option]["params"], rel=1e-3), option
        assert result["kv_bytes_per_token"] == typed[option]["kv_bytes_per_token"], option


# --- one rule with the serving calculator -------------------------------------------------------------


@pytest.mark.parametrize("option", ["llama2-7b", "llama3-8b", "llama3-70b", "llama3-405b", "gpt-oss-20b"])
@pytest.mark.parametrize("precision", ["bf16", "fp8"])
def test_the_kv_cache_per_token_is_the_serving_calculators(option, precision):
    shape = next(o["values"] for g in serving.PRESETS if g["name"] == "model" for o in g["options"] if o["id"] == option)
    expected = serving.kv_bytes_per_token(shape["layers"], shape["kv_heads"], shape["head_dim"], serving.KV_BYTES[precision])
    heads = max(shape["kv_heads"], 8)  # any query-head count the key-value heads divide
    result = run(layers=shape["layers"], kv_heads=shape["kv_heads"], heads=heads, head_dim=shape["head_dim"],
                 kv_precision=precision)
    assert result["kv_bytes_per_token"] == expected


# --- properties ----------------------------------------------------------------------------------------

shapes = st.fixed_dictionaries({
    "layers": st.integers(min_value=1, max_value=200),
    "d_model": st.integers(min_value=16, max_value=32768),
    "kv_heads": st.integers(min_value=1, max_value=16),
    "group": st.integers(min_value=1, max_value=16),
    "head_dim": st.integers(min_value=1, max_value=512),
    "d_ff": st.integers(min_value=1, max_value=131072),
    "vocab": st.integers(min_value=1, max_value=400_000),
    "context": st.integers(min_value=1, max_value=2_000_000),
    "window": st.integers(min_value=0, max_value=200_000),
    "mlp": st.sampled_from(["gated", "plain"]),
    "embeddings": st.sampled_from(["separate", "tied"]),
    "biases": st.sampled_from(["none", "qkv", "all"]),
    "qk_norm": st.sampled_from(["no", "yes"]),
    "norm": st.sampled_from(["rms", "layer"]),
})


def shaped(draw: dict) -> dict:
    values = dict(draw)
    values["heads"] = values["kv_heads"] * values.pop("group")
    return run(**values)


@settings(max_examples=80, deadline=None)
@given(shape=shapes)
def test_every_number_is_finite_and_not_negative(shape):
    result = shaped(shape)
    for spec in transformer_shape.OUTPUTS:
        value = result[spec["name"]]
        assert value >= 0, spec["name"]
        assert math.isfinite(value) or spec.get("endless"), spec["name"]


@settings(max_examples=80, deadline=None)
@given(shape=shapes)
def test_the_parts_add_up(shape):
    result = shaped(shape)
    shares = (result["attention_share_params"], result["mlp_share"], result["embedding_share"], result["other_share_params"])
    assert sum(shares) == pytest.approx(1)
    assert all(share >= -1e-12 for share in shares)
    assert result["attention_share"] + result["weight_share"] == pytest.approx(1)
    assert result["params_total"] == result["params_non_embedding"] + result["embedding_params"]
    assert result["train_flops"] == pytest.approx(3 * result["forward_flops"])
    assert result["weights_memory_share"] + result["cache_memory_share"] == pytest.approx(1)


@settings(max_examples=60, deadline=None)
@given(shape=shapes, more=st.integers(min_value=1, max_value=50))
def test_more_layers_mean_more_of_everything(shape, more):
    fewer = shaped(shape)
    deeper = shaped({**shape, "layers": shape["layers"] + more})
    for name in ("params_total", "forward_flops", "train_flops", "kv_bytes_per_token", "kv_bytes_per_sequence"):
        assert deeper[name] > fewer[name], name


@settings(max_examples=60, deadline=None)
@given(shape=shapes)
def test_the_cache_depends_on_key_value_heads_not_query_heads(shape):
    base = shaped(shape)
    more_queries = shaped({**shape, "group": shape["group"] + 1})
    assert more_queries["kv_bytes_per_token"] == base["kv_bytes_per_token"]
    assert more_queries["kv_bytes_per_token_mha"] > base["kv_bytes_per_token_mha"]


@settings(max_examples=60, deadline=None)
@given(shape=shapes)
def test_the_cache_grows_with_the_context_until_the_window(shape):
    result = shaped(shape)
    kept = min(shape["context"], shape["window"]) if shape["window"] else shape["context"]
    assert result["kv_bytes_per_sequence"] == result["kv_bytes_per_token"] * kept
    assert result["window_saving"] == pytest.approx(shape["context"] / kept)


# --- notes and refusals ------------------------------------------------------------------------------


def test_the_default_case_has_no_notes():
    assert run()["notes"] == []


def test_long_contexts_say_attention_dominates():
    result = run(context=131_072)
    assert result["attention_share"] > 0.25
    assert any("attention is" in note and "6N" in note for note in result["notes"])


def test_a_cache_larger_than_the_weights_is_said():
    result = run(context=1_000_000)
    assert result["kv_share_of_weights"] > 1
    assert any("outweighs the weights" in note for note in result["notes"])


def test_the_window_note_appears_only_when_it_bites():
    assert any("last 4,096 tokens" in note for note in run(**PRESET["mistral-7b"], context=32768)["notes"])
    assert not any("last 4,096" in note for note in run(**PRESET["mistral-7b"], context=2048)["notes"])


def test_small_models_warn_that_counts_with_and_without_tables_differ():
    result = run(**PRESET["llama32-1b"])
    assert result["embedding_share"] > 0.2
    assert any("vocabulary tables hold" in note for note in result["notes"])


def test_four_bit_weights_and_odd_shapes_are_noted():
    assert any("scale" in note for note in run(weight_precision="int4")["notes"])
    assert any("narrower" in note for note in run(d_ff=4096)["notes"])


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"kv_heads": 128}, "kv_heads", "at most the query heads"),
        ({"kv_heads": 5}, "kv_heads", "divide the 64 query heads"),
        ({"window": 10.5}, "window", "whole number"),
        ({"window": -1}, "window", "≥ 0"),
        ({"layers": 0}, "layers", "whole number ≥ 1"),
        ({"head_dim": 2.5}, "head_dim", "whole number"),
        ({"train_tokens": 0}, "train_tokens", "> 0"),
        ({"mlp": "moe"}, "mlp", "one of gated, plain"),
        ({"embeddings": "shared"}, "embeddings", "one of separate, tied"),
        ({"weight_precision": "fp4"}, "weight_precision", "one of bf16, fp8, int4"),
    ],
)
def test_bad_shapes_are_refused_naming_the_field(changes, field, words):
    with pytest.raises(ValueError) as error:
        run(**changes)
    message = str(error.value)
    assert message.startswith(field + " ") and words in message, message
