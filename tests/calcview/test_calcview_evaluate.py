"""calcview.evaluate and the formatting vocabulary, on the parallelism calculator."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

from calculators import parallelism
from calcview import default_raw, evaluate, evaluate_json, format_input, format_output, parse_input

SPECS = {spec["name"]: spec for spec in parallelism.INPUTS}


def test_defaults_evaluate_to_the_cards_scenario():
    result = evaluate(parallelism, default_raw(parallelism))
    assert result["ok"] is True and result["errors"] == {}
    assert result["display"]["memory_each_bytes"] == "1.3 TB"  # 1.12 TB of state + 183 GB of activations
    assert result["display"]["state_each_bytes"] == "1.12 TB"
    assert result["display"]["fits"] == "No"
    assert result["display"]["accelerators"] == "1"
    assert result["display"]["bubble"] == "0 %"
    assert result["display"]["train_flops"] == "6.3 × 10²⁴ FLOP"
    assert result["display"]["days"] == "184,000 days"
    assert result["values"]["params"] == 70e9
    assert set(result["figures"]) == {"memory", "pipeline"}
    assert "1.3 TB" in result["announcement"] and "184,000 days" in result["announcement"]
    assert "Note: Does not fit" in result["announcement"]


def test_missing_fields_take_their_defaults():
    assert evaluate(parallelism, {"pp": "8"})["values"]["params"] == 70e9


def test_raw_text_is_in_displayed_units():
    result = evaluate(parallelism, {"params": "405", "tokens": "15.6", "tp": "8", "pp": "16", "micro_batches": "128"})
    assert result["ok"]
    assert result["values"]["params"] == 405e9
    assert result["values"]["state_each_bytes"] == pytest.approx(405e9 * 16 / 128)
    assert result["display"]["bubble"] == "10.5 %"  # 15 / 143


def test_pipeline_bubble_is_shown_as_a_percentage():
    assert evaluate(parallelism, {"pp": "8"})["display"]["bubble"] == "87.5 %"
    assert evaluate(parallelism, {"pp": "8", "micro_batches": "128"})["display"]["bubble"] == "5.19 %"


def test_text_that_is_not_a_number_is_an_error_for_that_field_only():
    result = evaluate(parallelism, {"params": "seventy", "tp": "2"})
    assert result["ok"] is False
    assert result["errors"] == {"params": "Model size must be a number (got 'seventy')"}
    assert result["display"] == {} and result["figures"] == {}


def test_several_unreadable_fields_are_all_reported():
    result = evaluate(parallelism, {"params": "", "dp": "many", "sharding": "zero3"})
    assert set(result["errors"]) == {"params", "dp", "sharding"}


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("tp", "0", "Tensor-parallel ways must be between 1 and 64 accelerators (got '0')"),
        ("pp", "2.5", "Pipeline stages must be a whole number ≥ 1 (got 2.5)"),
        ("utilisation", "1.5", "Model FLOPs utilisation (MFU) must be between 0.05 and 1 of peak (got '1.5')"),
        ("micro_batches", "-4", "Micro-batches per step must be between 1 and 1,024 micro-batches (got '-4')"),
        ("peak_flops", "inf", "Peak dense compute per accelerator must be a finite number (got 'inf')"),
        ("dp", "nan", "Data-parallel copies must be a finite number (got 'nan')"),
    ],
)
def test_compute_refusals_come_back_as_the_fields_message(field, text, message):
    result = evaluate(parallelism, {field: text})
    assert result["ok"] is False
    assert result["errors"] == {field: message}
    assert message in result["announcement"]


def test_thousands_separators_are_accepted():
    assert evaluate(parallelism, {"dp": "1,024"})["values"]["dp"] == 1024


def test_results_are_plain_data():
    result = evaluate(parallelism, {})

    def plain(value):
        if isinstance(value, dict):
            return all(isinstance(key, str) and plain(item) for key, item in value.items())
        if isinstance(value, list):  # notes: a list of sentences
            return all(isinstance(item, str) for item in value)
        return isinstance(value, (str, int, float, bool))

    assert plain(result)


def test_evaluate_json_is_evaluate_as_json_text_both_ways():
    raw = {"tp": "8", "pp": "2", "params": "70"}
    assert json.loads(evaluate_json(parallelism, json.dumps(raw))) == evaluate(parallelism, raw)
    refused = json.loads(evaluate_json(parallelism, json.dumps({"tp": "0"})))
    assert refused["ok"] is False and "Tensor-parallel ways" in refused["errors"]["tp"]


def test_evaluate_json_reads_form_text_whatever_json_type_it_came_as():
    assert json.loads(evaluate_json(parallelism, '{"tp": 8, "pp": 2}')) == evaluate(parallelism, {"tp": "8", "pp": "2"})


def test_evaluate_json_sends_non_finite_numbers_as_null():
    """JSON (and so JSON.parse in the browser) has no Infinity or NaN."""
    endless = SimpleNamespace(
        INPUTS=[{"name": "rate", "label": "Rate", "control": "number", "default": 0.0, "min": 0}],
        OUTPUTS=[{"name": "years", "label": "Years", "format": "number", "endless": True}],
        compute=lambda *, rate: {"years": math.inf if rate == 0 else 1 / rate, "odd": math.nan},
    )
    text = evaluate_json(endless, "{}")
    result = json.loads(text)  # strict: the standard library parser accepts NaN, so check the text too
    assert "Infinity" not in text and "NaN" not in text
    assert result["values"]["years"] is None and result["values"]["odd"] is None
    assert result["display"]["years"] == format_output(endless.OUTPUTS[0], math.inf)


@pytest.mark.parametrize(
    ("fmt", "value", "unit", "expected"),
    [
        ("bytes", 1.12e12, "", "1.12 TB"),
        ("bytes", 80e9, "", "80 GB"),
        ("bytes", 17.5e9, "", "17.5 GB"),
        ("bytes", 999.8e9, "", "1 TB"),
        ("bytes", 512, "", "512 B"),
        ("percent", 0.875, "", "87.5 %"),
        ("percent", 7 / 135, "", "5.19 %"),
        ("number", math.inf, "", "∞"),
        ("flops", -math.inf, "", "−∞ FLOP"),
        ("integer", math.inf, "GPUs", "∞ GPUs"),
        ("percent", math.nan, "", "— %"),
        ("integer", 16384, "", "16,384"),
        ("integer", 16, "GPUs", "16 GPUs"),
        ("days", 412.3, "", "412 days"),
        ("days", 1.0, "", "1 day"),
        ("days", 0.5, "", "0.5 days"),
        ("flops", 3.8e25, "", "3.8 × 10²⁵ FLOP"),
        ("number", 4_423_660, "accelerator-hours", "4.42 million accelerator-hours"),
        ("number", 12.34, "bytes", "12.3 bytes"),
        ("yesno", True, "", "Yes"),
        ("yesno", False, "", "No"),
    ],
)
def test_output_formats(fmt, value, unit, expected):
    assert format_output({"name": "x", "format": fmt, "unit": unit}, value) == expected


def test_unknown_format_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown format 'furlongs'"):
        format_output({"name": "x", "format": "furlongs"}, 1)


def test_input_text_round_trips_through_displayed_units():
    for spec in parallelism.INPUTS:
        assert parse_input(spec, format_input(spec, spec["default"])) == spec["default"]
    assert format_input(SPECS["peak_flops"], 1307.4e12) == "1307.4"
    assert format_input(SPECS["utilisation"], 0.4) == "0.4"


# --- bounds: declared ranges, short quotes, sane results ---------------------------------------


def toy(compute, **output):
    """A one-input, one-output calculator whose compute() is given."""
    return SimpleNamespace(
        INPUTS=[{"name": "rate", "label": "Rate", "unit": "per day", "control": "number", "default": 1, "min": 0, "max": 10}],
        OUTPUTS=[{"name": "years", "label": "Years", "format": "number", **output}],
        compute=compute,
    )


def test_a_number_past_the_declared_max_is_refused_with_the_range_in_displayed_units():
    result = evaluate(parallelism, {"memory_per_accelerator": "1001"})  # GiB, factor 2^30
    assert result["errors"] == {"memory_per_accelerator": "Memory per accelerator must be between 1 and 1,000 GiB (got '1001')"}
    assert evaluate(parallelism, {"memory_per_accelerator": "1000"})["ok"]


def test_the_issue_repro_is_refused_on_both_fields_without_drawing():
    result = evaluate(parallelism, {"pp": "1000000", "micro_batches": "1000000"})
    assert set(result["errors"]) == {"pp", "micro_batches"} and result["figures"] == {}


def test_error_messages_quote_at_most_a_short_prefix_of_the_input():
    message = evaluate(parallelism, {"params": "x" * 100_000})["errors"]["params"]
    assert message == f"Model size must be a number of at most 100 characters (got {'x' * 40!r}…)"
    message = evaluate(parallelism, {"params": "y" * 99})["errors"]["params"]
    assert message == f"Model size must be a number (got {'y' * 40!r}…)"


def test_an_infinite_result_is_refused_unless_the_output_is_declared_endless():
    refused = evaluate(toy(lambda *, rate: {"years": math.inf}), {})
    assert refused["errors"] == {"_form": "Years is not a finite number for these values: bring the values nearer their defaults"}
    assert refused["figures"] == {} and refused["display"] == {}
    shown = evaluate(toy(lambda *, rate: {"years": math.inf}, endless=True), {})
    assert shown["ok"] and shown["display"]["years"] == "∞"
    assert not evaluate(toy(lambda *, rate: {"years": math.nan}, endless=True), {})["ok"]  # NaN never


def test_an_absurdly_large_result_is_refused():
    assert "above 10³⁰" in evaluate(toy(lambda *, rate: {"years": 1e31}), {})["errors"]["_form"]
    assert evaluate(toy(lambda *, rate: {"years": 1e29}), {})["ok"]


def test_an_overflow_inside_compute_is_a_message_not_a_traceback():
    result = evaluate(toy(lambda *, rate: {"years": 10.0**400}), {})  # OverflowError
    assert "overflows" in result["errors"]["_form"]


def test_a_scenario_number_too_large_for_a_float_is_a_range_error():
    from calcview.evaluate import raw_from_values

    with pytest.raises(ValueError, match=r"^Model size must be between 0.1 and 2,000 billion parameters"):
        raw_from_values(parallelism, {"params": 10**400})


@pytest.mark.parametrize(
    ("value", "expected"),
    [(1e-320, "1 × 10⁻³²⁰"), (5e-324, "4.94 × 10⁻³²⁴"), (3.2e-9, "3.2 × 10⁻⁹"), (0.0000015, "0.0000015")],
)
def test_tiny_numbers_are_written_as_powers_of_ten_not_hundreds_of_zeros(value, expected):
    assert format_output({"name": "x", "format": "number"}, value) == expected
