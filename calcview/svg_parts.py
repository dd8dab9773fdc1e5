"""The pieces every figure is drawn with, as SVG strings: the canvas, shapes, text and legends.

Escaping is by construction: every text and attribute value goes through :func:`escape`.
A fill is a class (its colour, a ``--lm-calc-*`` property with a fallback, is in calculator.css):
the site's Content-Security-Policy allows no inline style attributes.
"""

from __future__ import annotations

WIDTH = 480
PLOT_LEFT = 12
PLOT_WIDTH = 456

# A fill is a class (its colour, a --lm-calc-* property with a fallback, is in calculator.css):
# the site's Content-Security-Policy allows no inline style attributes.
COLOURS = {name: f"lm-fill-{name}" for name in ("part-0", "part-1", "part-2", "part-3", "part-4", "forward", "backward", "idle")}


# html.escape does the same, but importing html costs the browser worker about 80 ms at start
# (html.entities). Chained replace, as html.escape does: faster than str.translate here.

def in_sentence(label: str) -> str:
    """A part's label inside a sentence: its capital dropped ("Weights" → "weights"), but
    acronyms and symbols kept ("KV cache", "6ND", "Irreducible E" → "irreducible E")."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label

def escape(text: str) -> str:
    """Text made safe for SVG element content and double- or single-quoted attributes."""
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;")
    )


def number(value: float) -> str:
    """A coordinate, short: 12.0 -> "12", 3.14159 -> "3.14"."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg_root(kind: str, label: str, height: float, body: list[str], extra_class: str = "") -> str:
    classes = f"lm-fig lm-fig-{kind} {extra_class}".strip()
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" viewBox="0 0 {WIDTH} {number(height)}"'
        f' width="100%" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>" + "".join(body) + "</svg>"
    )


def rect(x: float, y: float, width: float, height: float, colour: str, css_class: str, title: str = "", extra: str = "") -> str:
    tooltip = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<rect class="{css_class} {colour}" x="{number(x)}" y="{number(y)}" width="{number(max(width, 0))}"'
        f' height="{number(height)}"{extra}>{tooltip}</rect>'
    )


def text(x: float, y: float, content: str, css_class: str = "lm-fig-text", anchor: str = "start") -> str:
    return (
        f'<text class="{css_class}" x="{number(x)}" y="{number(y)}" text-anchor="{anchor}">{escape(content)}</text>'
    )


LEGEND_CHAR_WIDTH = 6.8  # a generous average advance of a 12 px sans-serif character
LEGEND_GAP = 18
LEGEND_ROW = 18


def legend_entry_width(label: str) -> float:
    """Swatch, space and the estimated width of the label's text."""
    return 14 + len(label) * LEGEND_CHAR_WIDTH


def legend_rows(labels: list[str]) -> list[list[int]]:
    """Entries (by index) flowed into rows that fit the plot width: each entry takes its
    swatch, its estimated text width and a gap, so long labels never run into each other."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for index, label in enumerate(labels):
        width = legend_entry_width(label)
        if rows[-1] and used + width > PLOT_WIDTH:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += width + LEGEND_GAP
    return rows


def legend(entries: list[tuple[str, str, str]], y: float) -> tuple[list[str], float]:
    """Swatches with labels, flowed into as many rows as they need: entries are (text, colour,
    extra style). Returns the SVG parts and the height the rows below the first one add."""
    rows = legend_rows([label for label, _, _ in entries])
    parts = []
    for row_index, row in enumerate(rows):
        x, row_y = PLOT_LEFT, y + row_index * LEGEND_ROW
        for index in row:
            label, colour, style = entries[index]
            parts.append(rect(x, row_y - 10, 10, 10, colour, "lm-fig-swatch", extra=f' fill-opacity="{style}"' if style else ""))
            parts.append(text(x + 14, row_y, label))
            x += legend_entry_width(label) + LEGEND_GAP
    return parts, (len(rows) - 1) * LEGEND_ROW


PART_COLOURS = 5


def part_colour(index: int) -> str:
    """The fill of a bar's part: five distinct colours, then they repeat."""
    return COLOURS[f"part-{index % PART_COLOURS}"]
