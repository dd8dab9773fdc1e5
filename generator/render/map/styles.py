"""The map's site-wide stylesheet: each edge kind's colours, readable on both schemes, and each
drawn map's minimum width."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from generator.content.schema import EdgeKind
from generator.memo import forgettable
from generator.render.map.settings import DARK_BG, LIGHT_BG, MIN_CONTRAST

MAP_STYLES_FILE = "assets/layermap/map-styles.css"
MIN_WIDTH_CLASS = "lm-map-min-"  # + the map's minimum width in px
# A drawn map keeps its minimum width, its own width, on every screen: its text (11 px and more)
# stays readable, and its frame scrolls where the page is narrower. Below Material's tablet
# breakpoint (45em) its text list shows from the start and a hint says so (map.css).
_MIN_WIDTH_CLASSES = re.compile(rf"{MIN_WIDTH_CLASS}(\d+)\b")  # a literal first: found by a fast search


def _luminance(hex_colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: str, background: str, ratio: float = MIN_CONTRAST) -> str:
    """``colour``, mixed towards black or white just enough to reach ``ratio`` on ``background``."""
    target = 0 if _luminance(background) > 0.5 else 255
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = colour.lower()
    for step in range(21):
        t = step / 20
        mixed = "#" + "".join(f"{round(c + (target - c) * t):02x}" for c in rgb)
        if contrast(mixed, background) >= ratio:
            break
    return mixed


def map_stylesheet(kinds: Iterable[EdgeKind], pages: Iterable[str | bytes]) -> str:
    """One stylesheet for the whole site: each kind's colours and each drawn map's minimum width.

    A file, not a <style> in each page: the Content-Security-Policy allows no inline styles it
    has no hash for, and instant navigation keeps the first page's policy for every later page.
    """
    widths = sorted({width for page in pages for width in _min_widths(page)})
    rules = "".join(f".lm-map-svg.{MIN_WIDTH_CLASS}{width}{{min-width:{width}px}}" for width in widths)
    return "\n".join([kind_styles(kinds), rules]) + "\n"


@forgettable
@lru_cache(maxsize=8192)  # `layermap serve` asks again for every page after each edit; most are the same text
def _min_widths(page: str | bytes) -> frozenset[int]:
    page = page.decode("utf-8") if isinstance(page, bytes) else page
    return frozenset(int(match.group(1)) for match in _MIN_WIDTH_CLASSES.finditer(page)
                     if match.start() == 0 or not (page[match.start() - 1].isalnum() or page[match.start() - 1] == "_"))


def kind_styles(kinds: Iterable[EdgeKind]) -> str:
    """Each kind's colour for the light and the dark (slate) scheme, as CSS."""
    rules = []
    for kind in kinds:
        rules.append(f".lm-map .lm-k-{kind.id}{{--lm-k:{readable(kind.colour, LIGHT_BG)}}}")
        rules.append(f"[data-md-color-scheme=slate] .lm-map .lm-k-{kind.id}{{--lm-k:{readable(kind.colour, DARK_BG)}}}")
    return "".join(rules)
