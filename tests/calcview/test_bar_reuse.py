"""memory_bar reused for other quantities: its `format` and `words` keys, on the two calculators that use them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from calculators import allreduce, ownership
from calcview import evaluate
from calcview.figures import memory_bar

SVG = "{http://www.w3.org/2000/svg}"


def drawn(module, name: str, **raw: str) -> ET.Element:
    result = evaluate(module, raw)
    assert result["ok"], result["errors"]
    return ET.fromstring(result["figures"][name])


def texts(svg: ET.Element) -> list[str]:
    return [element.text for element in svg.iter(f"{SVG}text")]


def test_step_bar_shows_seconds_and_the_exposed_all_reduce():
    svg = drawn(allreduce, "step")
    assert "The all-reduce adds 359 ms: the step takes 4.71 s" in texts(svg)
    assert "Compute alone 4.35 s" in texts(svg)
    assert svg.get("aria-label") == (
        "One training step: the step takes 4.71 s (compute 4.35 s, exposed all-reduce 359 ms), "
        "of which 359 ms is all-reduce not hidden behind compute."
    )
    assert "lm-fig--over" in svg.get("class")


def test_step_bar_when_the_exchange_is_hidden():
    svg = drawn(allreduce, "step", overlap="1")
    assert "All-reduce hidden: the step takes 4.35 s" in texts(svg)
    assert svg.get("aria-label").endswith("the all-reduce is fully hidden.")
    assert "lm-fig--over" not in svg.get("class")


def test_cost_bar_in_dollars_against_the_rental_price():
    svg = drawn(ownership, "hourly")
    assert "Renting is cheaper: owning costs $3.13 an hour, renting $2.50" in texts(svg)
    assert "Purchase and financing $2.14" in texts(svg) and "Electricity $0.133" in texts(svg)
    svg = drawn(ownership, "hourly", utilisation="0.9")
    assert "Owning is cheaper: $1.80 an hour against $2.50 to rent" in texts(svg)
    assert "less than the $2.50 rental price" in svg.get("aria-label")


def test_cost_bar_parts_are_proportional():
    svg = drawn(ownership, "hourly", utilisation="1")
    widths = [float(r.get("width")) for r in svg.findall(f".//{SVG}rect") if "lm-fig-part " in r.get("class")]
    assert widths[0] / widths[1] == pytest.approx((37_500 * ownership.capital_recovery_factor(0.08, 5) / 8760) / (1.275 * 1.3 * 0.08), rel=0.01)


def test_without_format_or_words_the_bar_still_speaks_of_memory_in_bytes():
    figure = {"title": "Memory", "parts": [{"value": "a", "label": "Weights"}], "capacity": "cap"}
    svg = ET.fromstring(memory_bar(figure, {"a": 90e9, "cap": 80e9}))
    assert "Does not fit: needs 90 GB, has 80 GB" in texts(svg)
    assert svg.get("aria-label") == "Memory: 90 GB needed (weights 90 GB) against 80 GB capacity; does not fit."
