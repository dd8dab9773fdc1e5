"""calculators._checks: the shared input checks, their messages, and that they stay stdlib-only."""

from __future__ import annotations

import ast
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import _checks


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: _checks.finite_number("x", "3"), "x must be a number (got '3')"),
        (lambda: _checks.finite_number("x", False), "x must be a number (got False)"),
        (lambda: _checks.finite_number("x", math.nan), "x must be a finite number (got nan)"),
        (lambda: _checks.positive("x", 0), "x must be a number > 0 (got 0)"),
        (lambda: _checks.at_least("pue", 0.99, 1), "pue must be a number ≥ 1 (got 0.99)"),
        (lambda: _checks.whole_count("n", 0), "n must be a whole number ≥ 1 (got 0)"),
        (lambda: _checks.whole_count("n", 2.5), "n must be a whole number ≥ 1 (got 2.5)"),
        (lambda: _checks.in_range("u", 0, 0, 1, open_low=True), "u must be a number in (0, 1] (got 0)"),
        (lambda: _checks.in_range("u", 1.5, 0, 1), "u must be a number in [0, 1] (got 1.5)"),
        (lambda: _checks.one_of("kind", "c", ["a", "b"]), "kind must be one of a, b (got 'c')"),
        (lambda: _checks.one_of("kind", 1, {"a": 2}), "kind must be one of a (got 1)"),
    ],
)
def test_refusals_name_the_field_and_the_range(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value) == message


def test_accepted_values_come_back_clean():
    assert _checks.whole_count("n", 8.0) == 8 and isinstance(_checks.whole_count("n", 8.0), int)
    assert _checks.in_range("u", 0, 0, 1) == 0
    assert _checks.in_range("u", 1, 0, 1, open_low=True) == 1
    assert _checks.at_least("pue", 1, 1) == 1
    assert _checks.one_of("kind", "a", ["a"]) == "a"


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(-10, 10), st.floats(0, 10))
def test_in_range_accepts_exactly_the_closed_interval(value, low, width):
    high = low + width
    inside = low <= value <= high
    try:
        assert _checks.in_range("v", value, low, high) == value
        assert inside
    except ValueError:
        assert not inside


def test_module_imports_only_the_standard_library():
    tree = ast.parse(Path(_checks.__file__).read_text(encoding="utf-8"))
    imported = {
        (node.module or "").split(".")[0] if isinstance(node, ast.ImportFrom) else alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_messages_quote_at_most_a_short_prefix_of_what_they_got():
    with pytest.raises(ValueError) as caught:
        _checks.one_of("sharding", "z" * 100_000, ["none", "everything"])
    assert str(caught.value) == f"sharding must be one of none, everything (got {repr('z' * 100_000)[:40]}…)"
