"""The D3 arithmetic of calculators.answer_cost: worked examples by hand, price sheets with their
dates, the reuse of the serving calculator, properties, notes and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import answer_cost, serving

PRESET = {option["id"]: option["values"] for group in answer_cost.PRESETS for option in group["options"]}
SOURCE = {option["id"]: option["source"] for group in answer_cost.PRESETS for option in group["options"]}


def scenario(**changes) -> dict:
    """The card's default: 3,000 tokens in, 500 out, at Claude Sonnet 5.5's prices; 100,000 answers a day;
    self-hosted on the serving calculator's Llama 3 70B replica of 2 H100s at $2.69 an hour, 80 % loaded."""
    inputs = {spec["name"]: spec["default"] for spec in answer_cost.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return answer_cost.compute(**scenario(**changes))


# --- worked examples, by hand ------------------------------------------------------------------


def test_the_default_answer_costs_what_the_price_sheet_says():
    result = run()
    # 3,000 × $2/M = $0.006 for the prompt, 500 × $10/M = $0.005 for the reply.
    assert result["cost_per_answer"] == pytest.approx(0.006 + 0.005)
    assert result["cost_per_thousand"] == pytest.approx(11.0)
    assert result["cost_per_day"] == pytest.approx(1100.0)
    assert result["cost_per_month"] == pytest.approx(1100.0 * 365 / 12)  # $33,458
    assert result["input_share"] == pytest.approx(0.006 / 0.011)
    assert result["output_share"] == pytest.approx(0.005 / 0.011)
    assert result["cached_cost_share"] == 0


def test_caching_nine_tenths_of_the_prompt_cuts_its_cost_by_85_5_percent():
    result = run(cached_share=0.9)
    # 300 tokens at $2/M = $0.0006 and 2,700 at $0.10/M = $0.00027: $0.00087 instead of $0.006.
    assert result["uncached_input_tokens"] == pytest.approx(300)
    assert result["cached_input_tokens"] == pytest.approx(2700)
    assert result["cost_per_answer"] == pytest.approx(0.0006 + 0.00027 + 0.005)
    assert result["input_cost_saved_share"] == pytest.approx(1 - 0.00087 / 0.006)  # 0.855
    # At the retired Sonnet 4.5's $3 and $0.30 (a tenth, not a twentieth) the same cache saved 81 %.
    assert run(cached_share=0.9, **PRESET["claude-sonnet-4-5"])["input_cost_saved_share"] == pytest.approx(0.81)


def test_reasoning_tokens_are_billed_as_output_and_dominate_the_bill():
    result = run(reasoning_tokens=5000, **PRESET["claude-opus-5"])
    # Opus 5: 3,000 × $5/M = $0.015 in; (500 + 5,000) × $25/M = $0.1375 out.
    assert result["billed_output_tokens"] == 5500
    assert result["cost_per_answer"] == pytest.approx(0.015 + 0.1375)
    assert result["output_share"] == pytest.approx(0.1375 / 0.1525)  # about 90 %


def test_the_default_self_hosted_fleet_by_hand():
    result = run()
    seconds = 3000 / 3532 + 500 / 677.8  # prefill + decode, per accelerator
    busy = 100_000 * seconds / 86_400  # 1.84 accelerators busy on average
    assert result["accelerator_seconds_per_answer"] == pytest.approx(seconds)
    assert result["busy_accelerators"] == pytest.approx(busy)
    # 1.84 ÷ 0.8 = 2.30 accelerators of capacity: 2 replicas of 2 H100s.
    assert result["fleet_accelerators"] == 4
    assert result["self_cost_per_answer"] == pytest.approx(4 * 24 * 2.69 / 100_000)
    assert result["self_cost_per_month"] == pytest.approx(4 * 24 * 2.69 * 365 / 12)
    # One replica all day, $129.12, buys as many answers as the API sells for that: 11,738.
    assert result["break_even_answers_per_day"] == pytest.approx(2 * 24 * 2.69 / 0.011)
    assert result["self_hosting_cheaper"] is True
    # At the retired Sonnet 4.5's $0.0165 an answer the bar was lower: 7,825.
    assert run(**PRESET["claude-sonnet-4-5"])["break_even_answers_per_day"] == pytest.approx(2 * 24 * 2.69 / 0.0165)


def test_at_ten_thousand_answers_a_day_the_api_is_still_cheaper():
    # Below the break-even of 11,738: one replica, $129.12 a day, against the API's 10,000 × $0.011 = $110.
    result = run(answers_per_day=10_000)
    assert result["fleet_accelerators"] == 2
    assert result["cost_per_day"] == pytest.approx(110.0)
    assert result["self_cost_per_answer"] == pytest.approx(2 * 24 * 2.69 / 10_000)  # $0.0129
    assert result["self_hosting_cheaper"] is False


def test_a_quiet_service_pays_for_a_whole_replica_and_the_api_is_cheaper():
    result = run(answers_per_day=1000)
    assert result["fleet_accelerators"] == 2
    assert result["self_cost_per_day"] == pytest.approx(2 * 24 * 2.69)
    assert result["cost_per_day"] == pytest.approx(11.0)
    assert result["self_hosting_cheaper"] is False
    assert any("busy" in note for note in result["notes"])


def test_no_break_even_when_the_api_is_cheaper_than_the_fleets_own_marginal_cost():
    # DeepSeek-R1's 2025 prices against the 70B replica at $2.69 an hour: $0.00275 per answer through
    # the API, against 1.587 s × $2.69 / 3,600 / 0.8 = $0.00148 of accelerator time, so a break-even
    # exists; at $10 an hour the fleet's marginal cost ($0.0055) is above the API's: never.
    assert math.isfinite(run(**PRESET["deepseek-r1-2025"])["break_even_answers_per_day"])
    assert run(accelerator_hour_price=10, **PRESET["deepseek-r1-2025"])["break_even_answers_per_day"] == math.inf


def test_at_the_cheapest_tier_of_late_2026_self_hosting_never_breaks_even():
    # Issue 30: Claude Haiku 5.5 (2026-10-07) at $0.10 in and $0.50 out is 3,000 × $0.10/M + 500 × $0.50/M
    # = $0.00055 an answer, below the 70B replica's own $0.00148 of accelerator time at an 80 % load, so
    # the chat-assistants D3 conclusion flips: no load makes the pair of H100s cheaper (Haiku 4.5's $1/$5
    # gave a break-even of about 23,500 answers a day).
    haiku = run(**PRESET["claude-haiku-5-5"])
    assert haiku["cost_per_answer"] == pytest.approx(0.0003 + 0.00025)
    assert haiku["self_marginal_cost_per_answer"] == pytest.approx(1.5873 * 2.69 / 3600 / 0.8, rel=1e-3)
    assert haiku["break_even_answers_per_day"] == math.inf
    for answers in (1e4, 1e6, 1e9):
        busy = run(answers_per_day=answers, **PRESET["claude-haiku-5-5"])
        assert busy["self_hosting_cheaper"] is False
        assert busy["self_cost_per_answer"] >= busy["self_marginal_cost_per_answer"] * (1 - 1e-9)
    assert run(**PRESET["claude-haiku-4-5"])["break_even_answers_per_day"] == pytest.approx(23_476, rel=1e-3)
    assert run(**PRESET["claude-sonnet-5-5"])["break_even_answers_per_day"] == pytest.approx(11_738, rel=1e-3)


def test_at_the_break_even_the_fleet_costs_what_the_api_does():
    break_even = run()["break_even_answers_per_day"]
    at = run(answers_per_day=break_even)
    assert at["self_cost_per_day"] == pytest.approx(at["cost_per_day"])


# --- price sheets, with their dates ------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "per_million"),
    [
        # Anthropic, Claude API pricing page, "Model pricing" table: base input, cache hits and
        # refreshes, output (US$ per million tokens), from a stored copy that carries no date,
        # read 2026-12-03.
        ("claude-haiku-4-5", (1.0, 0.10, 5.0)),
        ("claude-sonnet-4-5", (3.0, 0.30, 15.0)),
        ("claude-opus-5", (5.0, 0.50, 25.0)),
        ("claude-opus-4-1", (15.0, 1.50, 75.0)),
        # Anthropic's model overviews of late 2026, read 2026-12-05: Opus 5.5 $4 / $0.20 / $20; Sonnet 5.5
        # $2 / $10 with cache reads at $0.10 since 2026-10-07; Haiku 5.5 (prompts up to 100,000 tokens)
        # $0.10 / $0.01 / $0.50.
        ("claude-opus-5-5", (4.0, 0.20, 20.0)),
        ("claude-sonnet-5-5", (2.0, 0.10, 10.0)),
        ("claude-haiku-5-5", (0.10, 0.01, 0.50)),
        # DeepSeek, Inference System Overview, 2025-03-01: R1 at $0.55 cache miss, $0.14 hit, $2.19 out.
        ("deepseek-r1-2025", (0.55, 0.14, 2.19)),
    ],
)
def test_price_presets_match_the_published_sheets(option, per_million):
    values = PRESET[option]
    assert (values["price_input"], values["price_cached"], values["price_output"]) == per_million


def test_the_default_prices_are_a_current_sheet_and_the_retired_one_says_so():
    # Issue 30 (current to the month, December 2026): the card opens on Sonnet 5.5, not on Sonnet 4.5,
    # which Anthropic retired on 2026-11-30; the Sonnet 4.5 preset is kept, labelled as retired.
    defaults = {name: scenario()[name] for name in ("price_input", "price_cached", "price_output")}
    assert defaults == PRESET["claude-sonnet-5-5"]
    assert SOURCE["claude-sonnet-5-5"] == "anthropic2026sonnet55"
    labels = {option["id"]: option["label"] for group in answer_cost.PRESETS for option in group["options"]}
    assert "retired 2026-11-30" in labels["claude-sonnet-4-5"]


def test_every_price_preset_names_its_date_and_a_dated_source():
    dates = {source["id"]: source["date"] for source in answer_cost.SOURCES}
    for option in next(g for g in answer_cost.PRESETS if g["name"] == "price_sheet")["options"]:
        assert any(year in option["label"] for year in ("2025", "2026")), option["label"]
        assert dates[option["source"]][:4] in option["label"], option["label"]


def test_anthropic_cache_hits_are_a_tenth_of_the_input_price():
    for option in ("claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-5", "claude-opus-4-1"):
        values = PRESET[option]
        assert values["price_cached"] == pytest.approx(values["price_input"] / 10)


# --- the serving calculator's throughput -------------------------------------------------------


def test_the_default_throughput_is_the_serving_calculators_own():
    inputs = {spec["name"]: spec["default"] for spec in serving.INPUTS}
    result = serving.compute(**{**inputs, "weight_precision": "fp8", "batch": 31})
    defaults = scenario()
    assert defaults["decode_tokens_per_second"] == pytest.approx(result["tokens_per_second_replica"] / 2, abs=0.05)
    assert defaults["prefill_tokens_per_second"] == pytest.approx(7692 / result["prefill_seconds"] / 2, abs=0.5)
    assert defaults["accelerators_per_replica"] == 2


def test_deepseek_throughput_preset_is_its_measured_node_rate_per_gpu():
    values = PRESET["deepseek-h800-measured"]
    assert values["decode_tokens_per_second"] * 8 == pytest.approx(14_800)
    assert values["prefill_tokens_per_second"] * 8 == pytest.approx(73_700)
    assert values["accelerators_per_replica"] == (4 + 18) * 8  # one prefill unit and one decode unit


# --- properties ----------------------------------------------------------------------------------

tokens = st.integers(min_value=1, max_value=2_000_000)
shares = st.floats(min_value=0, max_value=1)


@settings(max_examples=60, deadline=None)
@given(input_tokens=tokens, cached=shares, output_tokens=st.integers(min_value=1, max_value=200_000))
def test_shares_add_up_to_the_whole(input_tokens, cached, output_tokens):
    result = run(input_tokens=input_tokens, cached_share=cached, output_tokens=output_tokens)
    assert result["input_share"] + result["cached_cost_share"] + result["output_share"] == pytest.approx(1)
    assert result["uncached_input_tokens"] + result["cached_input_tokens"] == pytest.approx(input_tokens)


@settings(max_examples=60, deadline=None)
@given(low=shares, high=shares)
def test_more_caching_never_costs_more(low, high):
    low, high = sorted((low, high))
    assert run(cached_share=high)["cost_per_answer"] <= run(cached_share=low)["cost_per_answer"] + 1e-15


@settings(max_examples=60, deadline=None)
@given(answers=st.floats(min_value=1, max_value=1e9))
def test_the_fleet_covers_the_load_in_whole_replicas(answers):
    result = run(answers_per_day=answers)
    fleet = result["fleet_accelerators"]
    assert fleet % 2 == 0 and fleet >= 2
    assert result["busy_accelerators"] <= fleet * 0.8 * (1 + 1e-9)
    assert fleet == 2 or result["busy_accelerators"] > (fleet - 2) * 0.8


# --- notes and refusals ------------------------------------------------------------------------


def test_notes_say_where_the_model_stops():
    assert any("long-context" in note for note in run(input_tokens=300_000)["notes"])
    assert any("saves nothing" in note for note in run(cached_share=0.5, price_cached=3)["notes"])
    assert any("reasoning" in note.lower() for note in run(reasoning_tokens=5000)["notes"])
    assert any("peaks" in note for note in run(utilisation=0.95)["notes"])
    assert run()["notes"] == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("input_tokens", 0, "input_tokens must be a whole number ≥ 1"),
        ("cached_share", 1.5, "cached_share must be a number in [0, 1]"),
        ("price_input", 0, "price_input must be a number > 0"),
        ("price_cached", -1, "price_cached must be a number ≥ 0"),
        ("utilisation", 0, "utilisation must be a number in (0, 1]"),
        ("accelerators_per_replica", 2.5, "accelerators_per_replica must be a whole number ≥ 1"),
        ("answers_per_day", float("nan"), "answers_per_day must be a finite number"),
    ],
)
def test_bad_input_is_refused_naming_the_field(field, value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        run(**{field: value})
