"""How wide text is and how a box's title wraps (no font engine at build time: an Arial/DejaVu-like estimate)."""

from __future__ import annotations

from generator.render.map.settings import LINE_H, NODE_FONT, NODE_MAX_LINES, NODE_MIN_W, NODE_PAD_X, NODE_PAD_Y, NODE_TEXT_MAX

_NARROW = set("fijlrtI.,:;'!|()[] ")
_WIDE = set("mwMW@%&")


def _unit(ch: str) -> float:
    if ch in _NARROW:
        return 0.34
    if ch in _WIDE:
        return 0.9
    return 0.68 if ch.isupper() or ch.isdigit() else 0.58


def text_width(text: str, size: float) -> float:
    """Rough advance width of ``text`` at font ``size``, erring wide."""
    units = 0.0
    for ch in text:
        units += _unit(ch)
    return units * size


def _added(units: float, text: str) -> float:
    """``units`` plus the units of ``text``, added in the order :func:`text_width` adds them."""
    for ch in text:
        units += _unit(ch)
    return units


def wrap_label(text: str, max_width: float = NODE_TEXT_MAX, size: float = NODE_FONT,
               max_lines: int = NODE_MAX_LINES) -> tuple[str, ...]:
    """Greedy word wrap into at most ``max_lines`` lines, the last one ellipsised if cut.

    Linear in the text's length: each line's width grows as words join it (never measured
    again from its start), and the words after the last line that is shown are never wrapped."""
    lines: list[str] = []
    units = 0.0  # of the last line
    for word in text.split():
        joined = _added(units + _unit(" "), word) if lines else 0.0
        if lines and joined * size <= max_width:
            lines[-1], units = f"{lines[-1]} {word}", joined
        elif len(lines) == max_lines:  # cut: what the last line can show is within it and this word
            return (*lines[: max_lines - 1], _ellipsised(f"{lines[-1]} {word}", max_width, size))
        else:
            lines.append(word)
            units = _added(0.0, word)
    return tuple(lines) or ("",)


def _ellipsised(text: str, max_width: float, size: float) -> str:
    """The longest start of ``text`` that fits with "…" after it (ending in no space), and "…"."""
    fits, units = "", 0.0
    for index, ch in enumerate(text):
        units += _unit(ch)
        if _added(units, "…") * size > max_width:
            break
        if not ch.isspace():
            fits = text[: index + 1]
    return fits + "…"


def box_size(lines: tuple[str, ...]) -> tuple[float, float]:
    """Width and height of a node's box around its wrapped ``lines``."""
    return (max(NODE_MIN_W, max(text_width(line, NODE_FONT) for line in lines) + 2 * NODE_PAD_X),
            len(lines) * LINE_H + 2 * NODE_PAD_Y)
