"""The D4 arithmetic of calculators.roofline: the ridge points the topic's table prints, a matrix
multiply's intensity by hand, when a batch turns decode compute-bound, FLOP/s per watt, the drawn
roofline, properties, notes and refusals."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import roofline
from calculators._datasheets import ACCELERATORS

OPTIONS = {option["id"]: option["values"] for group in roofline.PRESETS for option in group["options"]}


def run(**changes) -> dict:
    """The default: one token through a 4,096 × 4,096 BF16 layer on an H100 SXM at 700 W."""
    inputs = {spec["name"]: spec["default"] for spec in roofline.INPUTS}
    inputs.update(changes)
    return roofline.compute(**inputs)


def test_one_user_decoding_is_about_one_flop_per_byte_and_starves_the_h100():
    result = run()
    assert result["flops"] == 2 * 4096 * 4096
    assert result["bytes_moved"] == (4096 + 4096 * 4096 + 4096) * 2
    assert result["intensity"] == pytest.approx(1, rel=1e-3)
    assert result["ridge_point"] == pytest.approx(989 / 3.35)  # 295
    assert result["memory_bound"] is True
    assert result["attainable_tflops"] == pytest.approx(3.35 * result["intensity"])
    assert result["share_of_peak"] == pytest.approx(result["intensity"] / result["ridge_point"])  # about 0.34 %
    assert result["kernel_seconds"] == pytest.approx(result["bytes_moved"] / 3.35e12)
    assert result["energy_joules"] == pytest.approx(700 * result["kernel_seconds"])


@pytest.mark.parametrize(("accelerator", "fmt", "ridge"), [
    # The topic's D4 table: H100 295 / 591; GB300 313 / 625 / 1,875; MI355X 315 / 629 / 1,258; Ironwood 313 / 625.
    ("h100-sxm", "bf16", 295), ("h100-sxm-fp8", "fp8", 591), ("gb300-nvl72", "bf16", 313),
    ("gb300-nvl72-fp4", "fp4", 1875), ("mi355x-fp8", "fp8", 629), ("mi355x-fp4", "fp4", 1258),
    ("tpu-ironwood-fp8", "fp8", 625),
])
def test_the_presets_give_the_ridge_points_the_topic_prints(accelerator, fmt, ridge):
    values = OPTIONS[accelerator]
    assert values["number_format"] == fmt
    assert run(**values)["ridge_point"] == pytest.approx(ridge, abs=0.5)


def test_a_square_multiply_is_n_over_3_and_compute_bound_from_about_890():
    for size in (512, 4096):
        assert run(m=size, k=size, n=size)["intensity"] == pytest.approx(size / 3)
    assert run(m=885, k=885, n=885)["memory_bound"] is True
    assert run(m=886, k=886, n=886)["memory_bound"] is False  # 886 / 3 > 989 / 3.35


def test_batching_tokens_raises_the_intensity_until_arithmetic_sets_the_pace():
    threshold = run()["compute_bound_from_m"]
    assert run(m=threshold)["memory_bound"] is False
    assert run(m=threshold - 1)["memory_bound"] is True
    assert run(m=64)["attainable_tflops"] == pytest.approx(64 * run()["attainable_tflops"], rel=0.04)
    # Halving the bytes (FP8) at twice the peak keeps the ridge in bytes but needs a batch as large again.
    fp8 = run(**OPTIONS["h100-sxm-fp8"])
    assert fp8["intensity"] == pytest.approx(2 * run()["intensity"])
    assert fp8["compute_bound_from_m"] == pytest.approx(threshold, rel=0.01)


def test_a_thin_matrix_never_reaches_the_ridge_and_says_so():
    result = run(m=8192, k=8192, n=128)  # NVIDIA's memory-limited example
    assert math.isinf(result["compute_bound_from_m"])
    assert result["intensity"] < result["intensity_limit"] < result["ridge_point"]
    assert any("no batch reaches the ridge" in note for note in result["notes"])


def test_flops_per_watt_from_the_datasheets_board_power():
    power = {option["id"]: option["values"]["board_power"] for option in roofline.PRESETS[1]["options"]}
    assert power == {"a100-80gb-board": 400, "h100-sxm-board": 700, "h200-sxm-board": 700, "mi300x-board": 750,
                     "mi355x-board": 1400}
    assert run()["peak_tflops_per_watt"] == pytest.approx(989 / 700)  # 1.4, the topic's figure
    mi355x = run(**OPTIONS["mi355x"], **OPTIONS["mi355x-board"])
    assert mi355x["peak_tflops_per_watt"] == pytest.approx(2516.6 / 1400)  # 1.8
    assert run(**OPTIONS["mi355x-fp4"], **OPTIONS["mi355x-board"])["peak_tflops_per_watt"] == pytest.approx(10066.4 / 1400)  # 7.2
    assert run()["attainable_tflops_per_watt"] < run(m=4096, k=4096, n=4096)["attainable_tflops_per_watt"]


def test_every_accelerator_and_format_with_a_datasheet_peak_has_an_option():
    expected = {f"{name}{'' if fmt == 'bf16' else '-' + fmt}" for name, facts in ACCELERATORS.items()
                for fmt, fact in (("bf16", "dense_bf16_flops"), ("fp8", "dense_fp8_flops"), ("fp4", "dense_fp4_flops"))
                if fact in facts}
    assert {option["id"] for option in roofline.PRESETS[0]["options"]} == expected
    assert "b200" in expected and OPTIONS["b200"]["memory_bandwidth"] == 7.7e12


def test_the_drawn_roofline_bends_at_the_ridge_and_marks_the_kernel():
    result = run()
    points = result["roofline_points"]
    assert len(points) == roofline.CURVE_POINTS
    assert points[0][0] == pytest.approx(result["ridge_point"] / 100) and points[-1][0] == pytest.approx(result["ridge_point"] * 100)
    assert points[0][1] == pytest.approx(3.35 * result["ridge_point"] / 100) and points[-1][1] == pytest.approx(989)
    assert all(b[1] >= a[1] for a, b in zip(points, points[1:]))
    assert result["roofline_marks"][1] == ["This multiply", result["intensity"], result["attainable_tflops"]]


def test_notes_say_where_the_model_stops():
    assert run()["notes"] == []
    assert any("factor of two of the ridge" in note for note in run(m=512, k=1024, n=4096)["notes"])
    assert any("block scales" in note for note in run(**OPTIONS["gb300-nvl72-fp4"])["notes"])


@pytest.mark.parametrize(("field", "value", "message"), [
    ("peak_flops", 0, "peak_flops must be a number > 0"),
    ("memory_bandwidth", -1, "memory_bandwidth must be a number > 0"),
    ("number_format", "int4", "number_format must be one of bf16, fp8, fp4"),
    ("m", 0, "m must be a whole number ≥ 1"),
    ("k", 1.5, "k must be a whole number ≥ 1"),
    ("board_power", 0, "board_power must be a number in (0, 10000]"),
])
def test_bad_input_is_refused_naming_the_field(field, value, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        run(**{field: value})


scenarios = st.fixed_dictionaries({
    "peak_flops": st.floats(min_value=1e12, max_value=1e17),
    "memory_bandwidth": st.floats(min_value=1e10, max_value=1e14),
    "number_format": st.sampled_from(list(roofline.FORMAT_BYTES)),
    "m": st.integers(1, 1_000_000),
    "k": st.integers(1, 1_000_000),
    "n": st.integers(1, 1_000_000),
    "board_power": st.floats(min_value=1, max_value=10_000),
})


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_the_roofline_holds_for_any_chip_and_shape(inputs):
    result = roofline.compute(**inputs)
    attainable = result["attainable_tflops"] * 1e12
    assert attainable <= inputs["peak_flops"] * (1 + 1e-12)
    assert attainable <= inputs["memory_bandwidth"] * result["intensity"] * (1 + 1e-12)
    assert result["memory_bound"] == (result["intensity"] < result["ridge_point"])
    assert result["kernel_seconds"] == pytest.approx(result["flops"] / attainable, rel=1e-9)
    threshold = result["compute_bound_from_m"]
    if math.isfinite(threshold) and threshold <= 1_000_000:
        assert not roofline.compute(**{**inputs, "m": threshold})["memory_bound"]
        if threshold > 1:
            assert roofline.compute(**{**inputs, "m": threshold - 1})["memory_bound"]
