"""The `seconds` and `usd` output formats: exact texts, and properties (reads back, unit choice)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calcview.values import format_output, format_seconds, format_usd

UNIT_SECONDS = {"µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [
        (0, "0 s"),
        (5.17e-6, "5.17 µs"),
        (5.17e-4, "517 µs"),
        (0.35, "350 ms"),
        (0.99996, "1 s"),
        (4.3, "4.3 s"),
        (59.99, "1 min"),
        (90, "1.5 min"),
        (7200, "2 h"),
        (1e-9, "0.001 µs"),
    ],
)
def test_seconds_texts(seconds, expected):
    assert format_seconds(seconds) == expected


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [
        (2.1389, "", "$2.14"),
        (1.8, "", "$1.80"),
        (99.999, "", "$100"),
        (0.99, "", "$0.99"),
        (37_500, "", "$37,500"),
        (0.13260, "per accelerator-hour", "$0.133 per accelerator-hour"),
        (300_000, "", "$300,000"),
        (4_420_000, "", "$4.42 million"),
        (-1.5, "", "-$1.50"),
        (-0.25, "", "-$0.25"),
        (0, "", "$0"),
    ],
)
def test_usd_texts_with_unit_after(value, unit, expected):
    assert format_output({"name": "x", "format": "usd", "unit": unit}, value) == expected


def test_seconds_name_their_own_unit():
    assert format_output({"name": "x", "format": "seconds", "unit": "ignored"}, 4.3) == "4.3 s"


@given(st.floats(min_value=1e-6, max_value=1e6))
def test_seconds_text_reads_back_within_rounding(seconds):
    number, unit = re.fullmatch(r"([\d,.]+) (µs|ms|s|min|h)", format_seconds(seconds)).groups()
    shown = float(number.replace(",", "")) * UNIT_SECONDS[unit]
    assert shown == pytest.approx(seconds, rel=6e-3)
    assert float(number.replace(",", "")) < 1000 or unit == "h"


@given(st.floats(min_value=0.01, max_value=1e12))
def test_usd_text_reads_back_within_rounding(value):
    match = re.fullmatch(r"\$([\d,.]+)(?: (million|billion|trillion))?", format_usd(value))
    assert match, format_usd(value)
    scale = {None: 1, "million": 1e6, "billion": 1e9, "trillion": 1e12}[match.group(2)]
    assert float(match.group(1).replace(",", "")) * scale == pytest.approx(value, rel=6e-3)


@pytest.mark.parametrize(("months", "expected"), [(None, "never"), (1.0, "1 month"), (14.23, "14.2 months"), (68.04, "68 months")])
def test_months_texts(months, expected):
    assert format_output({"name": "x", "format": "months", "unit": "ignored"}, months) == expected
