"""Properties of calcview over many inputs: no tracebacks, parseable SVG, faithful formatting."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import parallelism
from calcview import evaluate, format_output

INPUT_NAMES = [spec["name"] for spec in parallelism.INPUTS]
SI_BYTES = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15, "EB": 1e18}

ways = st.integers(min_value=1, max_value=64).map(str)
valid_raw = st.fixed_dictionaries(
    {
        "params": st.floats(min_value=0.1, max_value=2000).map(lambda x: f"{x:.4g}"),
        "tokens": st.floats(min_value=0.01, max_value=100).map(lambda x: f"{x:.4g}"),
        "tp": ways,
        "pp": ways,
        "dp": ways,
        "micro_batches": st.integers(min_value=1, max_value=1024).map(str),
        "sharding": st.sampled_from(["none", "optimizer", "gradients", "everything"]),
        "memory_per_accelerator": st.floats(min_value=1, max_value=1000).map(lambda x: f"{x:.4g}"),
        "peak_flops": st.floats(min_value=1, max_value=1e5).map(lambda x: f"{x:.4g}"),
        "utilisation": st.floats(min_value=0.05, max_value=1).map(lambda x: f"{x:.3g}"),
    }
)


@settings(max_examples=150, deadline=None)
@given(raw=valid_raw)
def test_valid_scenarios_evaluate_and_draw_well_formed_svg(raw):
    result = evaluate(parallelism, raw)
    assert result["ok"], result["errors"]
    assert set(result["display"]) == {spec["name"] for spec in parallelism.OUTPUTS}
    for svg in result["figures"].values():
        root = ET.fromstring(svg)
        assert root.get("role") == "img" and root.get("aria-label")
    memory = ET.fromstring(result["figures"]["memory"])
    assert ("lm-fig--over" in memory.get("class")) == (not result["values"]["fits"])


@settings(max_examples=300, deadline=None)
@given(raw=st.dictionaries(st.sampled_from(INPUT_NAMES), st.text(max_size=12)))
def test_any_text_gives_a_result_or_field_errors_never_an_exception(raw):
    result = evaluate(parallelism, raw)
    assert isinstance(result["ok"], bool)
    if not result["ok"]:
        assert result["errors"] and set(result["errors"]) <= set(INPUT_NAMES)
        assert all(isinstance(message, str) and message for message in result["errors"].values())


@settings(max_examples=300, deadline=None)
@given(value=st.floats(min_value=1, max_value=1e20))
def test_bytes_text_reads_back_within_rounding(value):
    text = format_output({"name": "x", "format": "bytes"}, value)
    number, unit = re.fullmatch(r"([\d,.]+) (\w+)", text).groups()
    assert not number.replace(",", "").startswith("1000")
    assert float(number.replace(",", "")) * SI_BYTES[unit] == pytest.approx(value, rel=0.006)


@settings(max_examples=300, deadline=None)
@given(share=st.floats(min_value=0, max_value=1).filter(lambda share: share == 0 or share >= 1e-8))
def test_percent_text_reads_back_within_rounding(share):
    text = format_output({"name": "x", "format": "percent"}, share)
    assert text.endswith(" %")
    assert float(text[:-2].replace(",", "")) / 100 == pytest.approx(share, rel=0.006, abs=1e-12)
