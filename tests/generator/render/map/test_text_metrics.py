"""Text widths and wrapped box titles."""

from __future__ import annotations

import pytest

from generator.render.map.settings import LINE_H, NODE_MIN_W, NODE_PAD_X, NODE_PAD_Y
from generator.render.map.text_metrics import box_size, text_width, wrap_label


def test_wrap_label_keeps_lines_and_ellipsises_what_does_not_fit() -> None:
    assert wrap_label("GPU clusters & orchestration") == ("GPU clusters &", "orchestration")
    long = wrap_label(" ".join(["interconnect"] * 10))
    assert len(long) == 3 and long[-1].endswith("…")


def test_text_width_tells_narrow_wide_capital_and_other_letters_apart() -> None:
    assert text_width("Il", 10) == pytest.approx(6.8)
    assert text_width("mW", 10) == pytest.approx(18)
    assert text_width("A1", 10) == pytest.approx(13.6)
    assert text_width("ab", 10) == pytest.approx(11.6)
    assert text_width("", 10) == 0


def test_wrap_label_of_nothing_is_one_empty_line() -> None:
    assert wrap_label("") == ("",)


def test_box_size_fits_the_longest_line_with_a_minimum_width() -> None:
    assert box_size(("ab",)) == (NODE_MIN_W, LINE_H + 2 * NODE_PAD_Y)
    wide = "x" * 20
    width, height = box_size((wide, "y"))
    assert width == pytest.approx(text_width(wide, 12.0) + 2 * NODE_PAD_X)
    assert height == 2 * LINE_H + 2 * NODE_PAD_Y
