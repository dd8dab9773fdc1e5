"""The arithmetic of calculators.scaling: the papers' own numbers, the fits' exponents, properties, refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import scaling


def run(**changes) -> dict:
    """The card's default scenario (the Gopher budget, Chinchilla 70B on 1.4T tokens) with changes."""
    inputs = {spec["name"]: spec["default"] for spec in scaling.INPUTS}
    inputs.update(changes)
    return scaling.compute(**inputs)


# Hoffmann et al. 2022, Table 3 (approach 1): parameters, FLOPs, tokens, every row.
TABLE_3 = [
    (400e6, 1.92e19, 8.0e9), (1e9, 1.21e20, 20.2e9), (10e9, 1.23e22, 205.1e9),
    (67e9, 5.76e23, 1.5e12), (175e9, 3.85e24, 3.7e12), (280e9, 9.90e24, 5.9e12),
    (520e9, 3.43e25, 11.0e12), (1e12, 1.27e26, 21.2e12), (10e12, 1.30e28, 216.2e12),
]


@pytest.mark.parametrize(("params", "flops", "tokens"), TABLE_3, ids=[f"{p:.3g}" for p, _, _ in TABLE_3])
def test_the_twenty_tokens_rule_reproduces_every_row_of_chinchilla_table_3(params, flops, tokens):
    """The table's own ratio drifts from 20.0 to 21.6 tokens per parameter: within 4.1 % in size."""
    result = run(compute_budget=flops, tokens_per_param=20)
    assert result["rule_params"] == pytest.approx(params, rel=0.042)
    assert result["rule_tokens"] == pytest.approx(tokens, rel=0.08)
    # each row's own ratio reproduces its model size from its compute to within the rounding of its tokens
    assert run(compute_budget=flops, tokens_per_param=tokens / params)["rule_params"] == pytest.approx(params, rel=0.03)


def test_chinchilla_and_gopher_spent_the_same_budget_by_6nd():
    chinchilla = run(params=70e9, tokens=1.4e12)["model_flops_6nd"]
    gopher = run(params=280e9, tokens=300e9)["model_flops_6nd"]
    assert chinchilla == pytest.approx(6 * 70e9 * 1.4e12) == pytest.approx(5.88e23)
    assert gopher == pytest.approx(5.04e23)
    assert chinchilla == pytest.approx(5.76e23, rel=0.025)


def test_gpt3_is_3_14e23_flop_and_1_7_tokens_per_parameter():
    result = run(params=175e9, tokens=300e9)
    assert result["model_flops_6nd"] == pytest.approx(3.14e23, rel=0.005)
    assert result["model_tokens_per_param"] == pytest.approx(300 / 175)


def test_kaplan_constants_are_the_papers():
    assert (scaling.KAPLAN_N_C, scaling.KAPLAN_ALPHA_N) == (8.8e13, 0.076)
    assert (scaling.KAPLAN_D_C, scaling.KAPLAN_ALPHA_D) == (5.4e13, 0.095)
    assert (scaling.KAPLAN_N_PER_PF_DAY, scaling.KAPLAN_EXPONENT) == (1.3e9, 0.73)
    assert scaling.PF_DAY == 8.64e19


def test_kaplan_rule_at_1e21_flop_is_hoffmanns_4_68_billion():
    assert run(compute_budget=1e21)["kaplan_params"] == pytest.approx(4.68e9, rel=0.002)


def test_kaplan_loss_reduces_to_each_single_law_when_the_other_resource_is_unlimited():
    assert scaling.kaplan_loss(1e9, 1e40) == pytest.approx((8.8e13 / 1e9) ** 0.076)
    assert scaling.kaplan_loss(1e40, 1e10) == pytest.approx((5.4e13 / 1e10) ** 0.095)


def test_hoffmann_constants_as_printed_and_the_refit():
    assert scaling.LOSS_FITS["hoffmann2022"] == {"E": 1.69, "A": 406.4, "B": 410.7, "alpha": 0.34, "beta": 0.28}
    assert scaling.LOSS_FITS["besiroglu2024"] == {"E": 1.8172, "A": 482.01, "B": 2085.43, "alpha": 0.3478, "beta": 0.3658}


@pytest.mark.parametrize("fit", list(scaling.LOSS_FITS))
def test_doubling_compute_scales_each_fit_by_its_exponent(fit):
    low, high = run(compute_budget=1e23, loss_fit=fit), run(compute_budget=2e23, loss_fit=fit)
    alpha, beta = scaling.LOSS_FITS[fit]["alpha"], scaling.LOSS_FITS[fit]["beta"]
    assert high["rule_params"] / low["rule_params"] == pytest.approx(math.sqrt(2))
    assert high["rule_tokens"] / low["rule_tokens"] == pytest.approx(math.sqrt(2))
    assert high["kaplan_params"] / low["kaplan_params"] == pytest.approx(2 ** 0.73)
    assert high["kaplan_tokens"] / low["kaplan_tokens"] == pytest.approx(2 ** 0.27)
    assert high["fit_params"] / low["fit_params"] == pytest.approx(2 ** (beta / (alpha + beta)))


def test_printed_constants_grow_the_model_as_c_to_the_0_45_and_the_refit_as_0_51():
    """Hoffmann et al.'s Table 2 says 0.46 for approach 3; the rounded constants give 0.4516."""
    ratio = run(compute_budget=1e25)["fit_params"] / run(compute_budget=1e24)["fit_params"]
    assert math.log10(ratio) == pytest.approx(0.28 / 0.62)
    refit = run(compute_budget=1e25, loss_fit="besiroglu2024")["fit_params"] / run(compute_budget=1e24, loss_fit="besiroglu2024")["fit_params"]
    assert math.log10(refit) == pytest.approx(0.5126, abs=1e-4)


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e18, max_value=1e28), st.sampled_from(list(scaling.LOSS_FITS)), st.floats(min_value=0.5, max_value=2))
def test_the_fits_optimum_is_the_least_loss_on_its_budget(budget, fit, factor):
    """Any other split of the same C = 6ND gives a loss at least as high."""
    result = run(compute_budget=budget, loss_fit=fit)
    constants = scaling.LOSS_FITS[fit]
    params = result["fit_params"] * factor
    other = scaling.fit_loss(constants, params, budget / (6 * params))
    assert result["fit_tokens"] * result["fit_params"] * 6 == pytest.approx(budget)
    assert other >= result["fit_loss"] - 1e-12


@pytest.mark.parametrize("fit", list(scaling.LOSS_FITS))
def test_a_compute_optimal_model_wastes_nothing_and_a_lopsided_one_does(fit):
    at_optimum = run(compute_budget=1e23, loss_fit=fit)
    balanced = run(params=at_optimum["fit_params"], tokens=at_optimum["fit_tokens"], loss_fit=fit)
    assert balanced["compute_overhead"] == pytest.approx(1, rel=1e-9)
    assert balanced["compute_equivalent"] == pytest.approx(1e23, rel=1e-9)
    lopsided = run(params=at_optimum["fit_params"] / 10, tokens=at_optimum["fit_tokens"] * 10, loss_fit=fit)
    assert lopsided["compute_overhead"] > 1.2
    assert lopsided["model_loss"] > lopsided["model_optimal_loss"]


def test_attention_adds_6_layers_context_width_per_token():
    result = run()  # Chinchilla 70B: 80 layers, d_model 8,192, 2,048 context, 1.4T tokens
    assert result["attention_flops"] == 6 * 80 * 2048 * 8192 * 1.4e12
    assert result["model_flops"] == pytest.approx(result["model_flops_6nd"] + result["attention_flops"])
    assert result["attention_share"] == pytest.approx(0.0188, abs=0.0005)
    longer = run(context=8192)
    assert longer["attention_flops"] == pytest.approx(4 * result["attention_flops"])


def test_llama3_8b_on_15t_tokens_is_far_past_compute_optimal():
    result = run(params=8e9, tokens=15e12, layers=32, d_model=4096, context=8192)
    assert result["model_tokens_per_param"] == 1875
    assert result["model_flops_6nd"] == pytest.approx(7.2e23)
    assert result["attention_share"] == pytest.approx(0.118, abs=0.001)
    assert result["model_optimal_params"] > 4 * 8e9
    assert result["compute_overhead"] > 1.9
    assert any("1,875 tokens per parameter" in note for note in result["notes"])


def test_loss_terms_add_up_to_the_loss():
    result = run()
    assert result["loss_share_entropy"] + result["loss_share_params"] + result["loss_share_data"] == pytest.approx(1)
    assert result["dense_share"] + result["attention_share"] == pytest.approx(1)


def test_notes_say_when_the_budget_is_far_past_the_measured_runs_and_wants_more_data_than_exists():
    assert run(loss_fit="besiroglu2024")["notes"] == []
    far = run(compute_budget=1e27)["notes"]
    assert any("extrapolation" in note for note in far)
    assert any("15 trillion tokens" in note for note in far)


def test_the_printed_constants_output_cannot_be_taken_for_the_papers_table_a3():
    """Issue 30: approach 3 as printed does not reproduce its own Table A3 (Besiroglu et al. 2024), so
    the page says whose numbers these are: labels, the choice of fit, and a note with the gap."""
    labels = {spec["name"]: spec["label"] for spec in scaling.OUTPUTS}
    assert "not the paper's Table A3" in labels["fit_params"]
    assert all(labels[name].startswith("Approach-3 formula with the chosen constants")
               for name in ("fit_params", "fit_tokens", "fit_tokens_per_param", "fit_loss"))
    choice = next(spec for spec in scaling.INPUTS if spec["name"] == "loss_fit")["options"][0]
    assert choice["value"] == "hoffmann2022" and "do not reproduce the paper's own Table A3" in choice["label"]
    # The note's figure: the printed constants' 1-billion-parameter optimum, against the table's 1.62e20 FLOP.
    needed, ratio = scaling.printed_fit_gap()
    assert run(loss_fit="hoffmann2022", compute_budget=needed)["fit_params"] == pytest.approx(1e9, rel=1e-9)
    assert ratio == pytest.approx(needed / 1.62e20) and ratio > 1.5
    notes = run(loss_fit="hoffmann2022")["notes"]
    assert len(notes) == 1 and "not the paper's Table A3" in notes[0] and "2.64 × 10²⁰ FLOP" in notes[0]
    assert not any("Table A3" in note for note in run(loss_fit="besiroglu2024")["notes"])


@pytest.mark.parametrize(("field", "value", "message"), [
    ("compute_budget", 0, "compute_budget must be a number > 0"),
    ("tokens_per_param", -1, "tokens_per_param must be a number in"),
    ("loss_fit", "kaplan", "loss_fit must be one of hoffmann2022, besiroglu2024"),
    ("params", float("nan"), "params must be a finite number"),
    ("layers", 2.5, "layers must be a whole number ≥ 1"),
    ("context", 0, "context must be a whole number ≥ 1"),
])
def test_bad_input_is_refused_naming_the_field(field, value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        run(**{field: value})
