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


class _CountingSet(set):
    """A character set that counts how often a character is looked up in it: each character measured."""

    looked_up = 0

    def __contains__(self, item: object) -> bool:
        type(self).looked_up += 1
        return super().__contains__(item)


def test_wrap_label_measures_each_character_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, F6: a 20,000-character title took the map's layout 17 s, each line measured again
    from its start at every word and the cut line shortened one character at a time."""
    from generator.render.map import text_metrics

    monkeypatch.setattr(text_metrics, "_NARROW", _CountingSet(text_metrics._NARROW))
    for title in ("ab " * 700, "x" * 2_000, "a " + "W" * 2_000 + " b c"):
        _CountingSet.looked_up = 0
        lines = wrap_label(title)
        assert _CountingSet.looked_up <= 3 * len(title)  # was about len(title)² / 2
        assert len(lines) <= 3 and all(text_width(line, 12.0) <= 132.0 or " " not in line for line in lines)


def test_wrap_label_cuts_a_long_title_to_three_lines_with_an_ellipsis() -> None:
    lines = wrap_label(" ".join(["ab"] * 10_000))
    assert len(lines) == 3 and lines[-1].endswith("…")
    assert all(text_width(line, 12.0) <= 132.0 for line in lines)
