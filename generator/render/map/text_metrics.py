"""How wide text is and how a box's title wraps (no font engine at build time: an Arial/DejaVu-like estimate)."""

from __future__ import annotations

from generator.render.map.settings import LINE_H, NODE_FONT, NODE_MAX_LINES, NODE_MIN_W, NODE_PAD_X, NODE_PAD_Y, NODE_TEXT_MAX

_NARROW = set("fijlrtI.,:;'!|()[] ")
_WIDE = set("mwMW@%&")


def text_width(text: str, size: float) -> float:
    """Rough advance width of ``text`` at font ``size``, erring wide."""
    units = 0.0
    for ch in text:
        if ch in _NARROW:
            units += 0.34
        elif ch in _WIDE:
            units += 0.9
        elif ch.isupper() or ch.isdigit():
            units += 0.68
        else:
            units += 0.58
    return units * size


def wrap_label(text: str, max_width: float = NODE_TEXT_MAX, size: float = NODE_FONT,
               max_lines: int = NODE_MAX_LINES) -> tuple[str, ...]:
    """Greedy word wrap into at most ``max_lines`` lines, the last one ellipsised if cut."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        last = " ".join(lines[max_lines - 1:])
        while last and text_width(last + "…", size) > max_width:
            last = last[:-1].rstrip()
        lines = [*lines[: max_lines - 1], last + "…"]
    return tuple(lines) or ("",)


def box_size(lines: tuple[str, ...]) -> tuple[float, float]:
    """Width and height of a node's box around its wrapped ``lines``."""
    return (max(NODE_MIN_W, max(text_width(line, NODE_FONT) for line in lines) + 2 * NODE_PAD_X),
            len(lines) * LINE_H + 2 * NODE_PAD_Y)
