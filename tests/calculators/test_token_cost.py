"""The D4 arithmetic of calculators.token_cost: words to tokens to dollars by hand, the language
premiums against Petrov et al.'s table, the dated price sheets, properties, notes and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import answer_cost, token_cost

PRESET = {option["id"]: option["values"] for group in token_cost.PRESETS for option in group["options"]}
OPTION = {option["id"]: option for group in token_cost.PRESETS for option in group["options"]}


def scenario(**changes) -> dict:
    """The card's default: 1,500 words in and 300 out, English, OpenAI's 100 tokens per 75 words,
    Claude Sonnet 5.5's $2 in and $10 out, 100,000 requests a month."""
    inputs = {spec["name"]: spec["default"] for spec in token_cost.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return token_cost.compute(**scenario(**changes))


# --- by hand ---------------------------------------------------------------------------------------


def test_the_default_request_by_hand():
    result = run(tokens_per_word=4 / 3)
    # 1,500 words × 4/3 = 2,000 tokens at $2/M = $0.004; 300 words = 400 tokens at $10/M = $0.004.
    assert result["prompt_tokens"] == pytest.approx(2000)
    assert result["reply_tokens"] == pytest.approx(400)
    assert result["cost_per_request"] == pytest.approx(0.008)
    assert result["cost_per_month"] == pytest.approx(800)
    assert result["prompt_cost_share"] == pytest.approx(0.5)
    # 1,000 words are 1,333 tokens: $0.00267 to read, $0.0133 to write.
    assert result["cost_per_thousand_words_read"] == pytest.approx(1000 * 4 / 3 * 2 / 1e6)
    assert result["cost_per_thousand_words_written"] == pytest.approx(1000 * 4 / 3 * 10 / 1e6)
    # A million-token window holds 750,000 English words.
    assert result["words_in_context"] == pytest.approx(750_000)
    assert result["fits_context"] is True
    assert result["extra_cost_per_month"] == 0


def test_hindi_in_gpt4s_tokenizer_costs_nearly_five_times_as_much():
    result = run(tokens_per_word=4 / 3, **PRESET["hindi"])
    premium = 253_270 / 52_835  # 4.79
    assert result["language_premium"] == pytest.approx(premium, abs=1e-4)
    assert result["prompt_tokens"] == pytest.approx(2000 * premium, rel=1e-4)
    assert result["cost_per_month"] == pytest.approx(800 * premium, rel=1e-4)
    assert result["english_cost_per_month"] == pytest.approx(800, rel=1e-4)
    assert result["extra_cost_per_month"] == pytest.approx(800 * (premium - 1), rel=1e-4)
    assert result["words_in_context"] == pytest.approx(750_000 / premium, rel=1e-4)


def test_a_request_larger_than_the_window_does_not_fit():
    result = run(prompt_words=800_000)  # 1.07 million tokens in a million-token window
    assert result["fits_context"] is False
    assert result["context_used_share"] > 1
    assert any("more than the 1,000,000-token window" in note for note in result["notes"])


# --- language premiums: Petrov et al.'s FLORES-200 table -----------------------------------------------


@pytest.mark.parametrize(
    ("option", "tokens"),
    [
        # assets/tokenization_lengths_validated.csv, columns cl100k_base, LLAMA and Qwen.
        ("english", 52_835), ("german", 83_450), ("hindi", 253_270), ("burmese", 618_268), ("shan", 795_074),
        ("chinese", 101_138), ("chinese-qwen", 57_735), ("chinese-llama2", 121_054), ("english-llama2", 60_621),
    ],
)
def test_language_presets_are_the_tables_tokens_over_english_in_cl100k(option, tokens):
    assert PRESET[option]["language_premium"] == pytest.approx(tokens / 52_835, abs=5e-5)
    assert f"{tokens:,}" in OPTION[option]["label"]


def test_the_worst_premium_is_the_fifteen_times_of_the_papers_abstract():
    premiums = {option: values["language_premium"] for option, values in PRESET.items() if "language_premium" in values}
    assert max(premiums, key=premiums.get) == "shan"
    assert premiums["shan"] == pytest.approx(15, rel=0.005)


def test_a_tokenizer_trained_on_chinese_needs_about_half_the_tokens():
    assert PRESET["chinese-qwen"]["language_premium"] / PRESET["chinese"]["language_premium"] == pytest.approx(0.571, abs=0.001)


# --- price sheets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "per_million"),
    [
        # Anthropic's model overviews, read 2026-12-05 (the sources answer_cost declares).
        ("claude-fable-5-1", (10.0, 50.0)),
        ("claude-opus-5-5", (4.0, 20.0)),
        ("claude-sonnet-5-5", (2.0, 10.0)),
        ("claude-haiku-5-5", (0.10, 0.50)),
        # DeepSeek's Models & Pricing page naming DeepSeek-V4.1-Flash-1017 (cache-miss input, output).
        ("deepseek-v4-pro-peak", (1.32, 3.96)),
        ("deepseek-v4-pro-offpeak", (0.66, 1.98)),
        ("deepseek-flash-peak", (0.30, 1.20)),
        ("deepseek-flash-offpeak", (0.15, 0.60)),
    ],
)
def test_price_presets_match_the_sheets(option, per_million):
    values = PRESET[option]
    assert (values["price_input"], values["price_output"]) == per_million
    assert values["context_tokens"] == 1_000_000


def test_anthropic_prices_are_the_chat_assistant_calculators():
    theirs = {o["id"]: o["values"] for g in answer_cost.PRESETS for o in g["options"]}
    for option in ("claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"):
        assert PRESET[option]["price_input"] == theirs[option]["price_input"]
        assert PRESET[option]["price_output"] == theirs[option]["price_output"]


def test_deepseek_off_peak_is_half_of_peak():
    for model in ("deepseek-v4-pro", "deepseek-flash"):
        peak, off = PRESET[f"{model}-peak"], PRESET[f"{model}-offpeak"]
        assert off["price_input"] == pytest.approx(peak["price_input"] / 2)
        assert off["price_output"] == pytest.approx(peak["price_output"] / 2)


def test_every_price_preset_is_dated_and_cites_a_dated_source():
    dates = {source["id"]: source["date"] for source in token_cost.SOURCES}
    for option in next(g for g in token_cost.PRESETS if g["name"] == "price_sheet")["options"]:
        assert "2026" in option["label"], option["label"]
        assert dates[option["source"]].startswith("2026"), option["id"]


# --- properties -------------------------------------------------------------------------------------------

words = st.floats(min_value=1, max_value=1e6)
rates = st.floats(min_value=0.1, max_value=10)
premiums = st.floats(min_value=0.1, max_value=30)
prices = st.floats(min_value=0.001, max_value=1000)


@settings(max_examples=80, deadline=None)
@given(prompt=words, reply=words, rate=rates, premium=premiums, price_in=prices, price_out=prices)
def test_costs_are_finite_positive_and_add_up(prompt, reply, rate, premium, price_in, price_out):
    result = run(prompt_words=prompt, reply_words=reply, tokens_per_word=rate, language_premium=premium,
                 price_input=price_in, price_output=price_out)
    for spec in token_cost.OUTPUTS:
        value = result[spec["name"]]
        if spec["name"] == "extra_cost_per_month":
            assert math.isfinite(value)
        elif not isinstance(value, bool):
            assert math.isfinite(value) and value > 0, spec["name"]
    assert result["prompt_cost_share"] + result["reply_cost_share"] == pytest.approx(1)
    assert result["request_tokens"] == pytest.approx(result["prompt_tokens"] + result["reply_tokens"])
    assert (result["extra_cost_per_month"] >= 0) == (premium >= 1) or result["extra_cost_per_month"] == pytest.approx(0)


@settings(max_examples=60, deadline=None)
@given(factor=st.floats(min_value=1.01, max_value=20), premium=premiums)
def test_cost_grows_in_step_with_the_premium(factor, premium):
    low = run(language_premium=premium)
    high = run(language_premium=min(premium * factor, 30))
    ratio = high["language_premium"] / low["language_premium"]
    assert high["cost_per_month"] == pytest.approx(low["cost_per_month"] * ratio)
    assert high["words_in_context"] == pytest.approx(low["words_in_context"] / ratio)
    assert high["english_cost_per_month"] == pytest.approx(low["english_cost_per_month"])


# --- notes and refusals ----------------------------------------------------------------------------------


def test_the_default_case_has_no_notes():
    assert run()["notes"] == []


def test_high_premiums_long_prompts_and_odd_rates_are_noted():
    assert any("2023 tokenizers" in note for note in run(**PRESET["hindi"])["notes"])
    assert any("higher rate" in note for note in run(prompt_words=200_000)["notes"])
    assert any("1.25 to 1.67" in note for note in run(tokens_per_word=2.5)["notes"])


@pytest.mark.parametrize(
    ("changes", "field", "words_in"),
    [
        ({"prompt_words": 0}, "prompt_words", "> 0"),
        ({"tokens_per_word": -1}, "tokens_per_word", "> 0"),
        ({"language_premium": 0}, "language_premium", "> 0"),
        ({"price_output": float("nan")}, "price_output", "finite"),
        ({"requests_per_month": True}, "requests_per_month", "a number"),
    ],
)
def test_bad_values_are_refused_naming_the_field(changes, field, words_in):
    with pytest.raises(ValueError) as error:
        run(**changes)
    message = str(error.value)
    assert message.startswith(field + " ") and words_in in message, message
