"""Text widths and wrapped box titles."""

from __future__ import annotations

from generator.render.map.settings import LINE_H, NODE_MIN_W, NODE_PAD_X, NODE_PAD_Y
from generator.render.map.text_metrics import box_size, text_width, wrap_label


def test_wrap_label_keeps_lines_and_ellipsises_what_does_not_fit() -> None:
    assert wrap_label("GPU clusters & orchestration") == ("GPU clusters &", "orchestration")
    long = wrap_label(" ".join(["interconnect"] * 10))
    assert len(long) == 3 and long[-1].endswith("…")


