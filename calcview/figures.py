"""Pictures drawn from a calculator's numbers, as SVG strings.

A calculator names its pictures in ``FIGURES`` (``kind`` picks the drawing here, the other
keys name which values to draw; a drawing reads no value its declaration does not name).
Colours come from CSS custom properties with fallbacks (``--lm-calc-*``) and ``currentColor``,
so a theme and its dark mode can restyle them. Each SVG has role="img" and an aria-label that
says in words what it shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .svg_parts import (
    COLOURS,
    LEGEND_ROW,
    PLOT_LEFT,
    PLOT_WIDTH,
    escape,
    in_sentence,
    legend,
    number,
    part_colour,
    rect,
    svg_root,
    text,
)
from .values import FORMATTERS, format_percent

BAR_WORDS = {
    "capacity": "Capacity {capacity}",
    "fits": "Fits: {needed} of {capacity}",
    "over": "Does not fit: needs {needed}, has {capacity}",
    "over_by": "Over capacity by {over}",
    "summary_fits": "{needed} needed ({breakdown}) against {capacity} capacity; fits",
    "summary_over": "{needed} needed ({breakdown}) against {capacity} capacity; does not fit",
}


def memory_bar(figure: dict, values: dict) -> str:
    """Stacked bar of parts against a line at a capacity: memory by default.

    Optional keys reuse it for other quantities: ``format`` (an output format such as
    ``seconds`` or ``usd``; default ``bytes``) and ``words`` (templates overriding BAR_WORDS,
    filled with {needed}, {capacity}, {over} and {breakdown}).
    """
    show = FORMATTERS[figure.get("format", "bytes")]
    words = {**BAR_WORDS, **figure.get("words", {})}
    parts = [(part["label"], float(values[part["value"]])) for part in figure["parts"]]
    amounts = [show(amount) for _, amount in parts]  # each part's amount as text, used three times
    needed = sum(amount for _, amount in parts)
    capacity = float(values[figure["capacity"]])
    fits = needed <= capacity
    scale = PLOT_WIDTH / max(needed, capacity) if max(needed, capacity) > 0 else 0.0
    bar_top, bar_height = 26, 30
    filled = {
        "needed": show(needed),
        "capacity": show(capacity),
        "over": show(needed - capacity),
        "breakdown": ", ".join(f"{in_sentence(label)} {shown}" for (label, _), shown in zip(parts, amounts)),
    }

    body = []
    x = PLOT_LEFT
    for index, ((label, amount), shown) in enumerate(zip(parts, amounts)):
        width = amount * scale
        body.append(rect(x, bar_top, width, bar_height, part_colour(index), f"lm-fig-part lm-fig-part-{index}", f"{label}: {shown}"))
        x += width
    capacity_x = PLOT_LEFT + capacity * scale
    if not fits:
        over = words["over_by"].format(**filled)
        body.append(
            f'<rect class="lm-fig-over" x="{number(capacity_x)}" y="{bar_top - 3}" width="{number(x - capacity_x)}"'
            f' height="{bar_height + 6}">'
            f"<title>{escape(over)}</title></rect>"
        )
    body.append(
        f'<line class="lm-fig-capacity" x1="{number(capacity_x)}" x2="{number(capacity_x)}" y1="{bar_top - 8}"'
        f' y2="{bar_top + bar_height + 8}"/>'
    )
    capacity_label = words["capacity"].format(**filled)
    anchor = "end" if capacity_x > PLOT_LEFT + PLOT_WIDTH * 0.6 else "start"
    body.append(text(capacity_x + (-4 if anchor == "end" else 4), bar_top - 12, capacity_label, "lm-fig-text lm-fig-capacity-label", anchor))
    verdict = words["fits" if fits else "over"].format(**filled)
    body.append(text(PLOT_LEFT, bar_top + bar_height + 22, verdict, "lm-fig-text lm-fig-verdict" + ("" if fits else " lm-fig-warning")))
    keys, extra = legend([(f"{label} {shown}", part_colour(index), "") for index, ((label, _), shown) in enumerate(zip(parts, amounts))], bar_top + bar_height + 44)
    body += keys

    summary = words["summary_fits" if fits else "summary_over"].format(**filled)
    label = f"{figure.get('title', 'Memory')}: {summary}."
    return svg_root("memory", label, bar_top + bar_height + 52 + extra, body, "" if fits else "lm-fig--over")


def pipeline_runs(stages: int, micro_batches: int, drawn: int | None = None) -> list[tuple[int, int, int]]:
    """Busy runs of an all-forward-then-all-backward (GPipe) schedule: (stage, start slot, end slot).

    Forward and backward passes of one micro-batch take one slot each; a step takes
    2 × (micro_batches + stages − 1) slots, of which each stage is busy 2 × micro_batches.
    ``drawn`` limits the runs to the first stages (all of them by default).
    """
    runs = []
    for stage in range(stages if drawn is None else min(stages, drawn)):
        backward_start = micro_batches + 2 * (stages - 1) - stage
        runs.append((stage, stage, stage + micro_batches))
        runs.append((stage, backward_start, backward_start + micro_batches))
    return runs


MAX_DRAWN_STAGES = 64  # rows of a pipeline schedule; beyond, the first ones are drawn and a caption says so


def pipeline_schedule(figure: dict, values: dict) -> str:
    """Stages × time slots: forward and backward runs of the micro-batches, and the idle bubble."""
    stages = int(values[figure["stages"]])
    micro_batches = int(values[figure["micro_batches"]])
    slots = 2 * (micro_batches + stages - 1)
    idle_share = (stages - 1) / (micro_batches + stages - 1)
    rows = min(stages, MAX_DRAWN_STAGES)
    row_height = max(2.0, min(18.0, 216 / rows))
    gap = row_height * 0.15
    top = 8
    slot_width = PLOT_WIDTH / slots
    grid_height = rows * row_height

    body = [rect(PLOT_LEFT, top, PLOT_WIDTH, grid_height, COLOURS["idle"], "lm-fig-idle", f"Idle (bubble): {format_percent(idle_share)} of each stage's time", ' fill-opacity="0.14"')]
    for stage, start, end in pipeline_runs(stages, micro_batches, rows):
        phase = "forward" if start == stage else "backward"
        title = f"Stage {stage + 1}: {phase} passes of micro-batches 1–{micro_batches}"
        body.append(rect(PLOT_LEFT + start * slot_width, top + stage * row_height + gap / 2, (end - start) * slot_width, row_height - gap, COLOURS[phase], f"lm-fig-{phase}", title))
    if micro_batches > 1 and stages * micro_batches <= 512 and slot_width >= 3:
        xs = [number(PLOT_LEFT + slot * slot_width) for slot in range(slots)]
        ys = [number(top + stage * row_height + gap / 2) for stage in range(rows)]
        tick = f"v{number(row_height - gap)}"
        ticks = "".join(
            f"M{xs[slot]} {ys[stage]}{tick}" for stage, start, end in pipeline_runs(stages, micro_batches, rows) for slot in range(start + 1, end)
        )
        body.append(f'<path class="lm-fig-ticks" d="{ticks}"/>')
    axis_y = top + grid_height + 16
    body.append(text(PLOT_LEFT, axis_y, "Stage 1 at top; time runs right →", "lm-fig-text lm-fig-axis"))
    body.append(text(PLOT_LEFT + PLOT_WIDTH, axis_y, f"{stages} stage{'s' if stages != 1 else ''} × {slots} slots", "lm-fig-text lm-fig-axis", "end"))
    if stages > rows:
        axis_y += LEGEND_ROW
        body.append(text(PLOT_LEFT, axis_y, f"First {rows} of {stages} stages drawn", "lm-fig-text lm-fig-axis lm-fig-note"))
    keys, extra = legend([("Forward", COLOURS["forward"], ""), ("Backward", COLOURS["backward"], ""), (f"Idle {format_percent(idle_share)}", COLOURS["idle"], "0.14")], axis_y + 22)
    body += keys

    if stages == 1:
        summary = f"one stage, so no pipeline and no idle bubble; {micro_batches} micro-batch{'es' if micro_batches != 1 else ''} per step"
    else:
        summary = (
            f"{stages} stages and {micro_batches} micro-batch{'es' if micro_batches != 1 else ''} per step; "
            f"forward passes fill the pipeline, backward passes drain it, and each stage sits idle "
            f"{format_percent(idle_share)} of the step (the bubble)"
        )
    return svg_root("pipeline", f"{figure.get('title', 'Pipeline schedule')}: {summary}.", axis_y + 30 + extra, body)


def share_bar(figure: dict, values: dict) -> str:
    """One bar split into the shares of a whole (values between 0 and 1), each labelled in percent."""
    parts = [(part["label"], max(float(values[part["value"]]), 0.0)) for part in figure["parts"]]
    whole = sum(share for _, share in parts) or 1.0
    bar_top, bar_height = 8, 30

    body = []
    x = PLOT_LEFT
    for index, (label, share) in enumerate(parts):
        width = share / whole * PLOT_WIDTH
        body.append(rect(x, bar_top, width, bar_height, part_colour(index), f"lm-fig-part lm-fig-part-{index}", f"{label}: {format_percent(share)}"))
        x += width
    keys, extra = legend([(f"{label} {format_percent(share)}", part_colour(index), "") for index, (label, share) in enumerate(parts)], bar_top + bar_height + 22)
    body += keys

    breakdown = ", ".join(f"{in_sentence(label)} {format_percent(share)}" for label, share in parts)
    return svg_root("share", f"{figure.get('title', 'Shares')}: {breakdown}.", bar_top + bar_height + 30 + extra, body)


CURVE_TOP, CURVE_HEIGHT = 10, 150


def curve_scales(points: list[tuple[float, float]], marks: list[tuple[str, float, float]]) -> tuple:
    """x on a log scale over the points' span; y linear from the lowest point to the highest
    mark or point, whichever is lower, so that one far-off end does not flatten the valley."""
    xs = [x for x, _ in points]
    low_x, high_x = math.log10(min(xs)), math.log10(max(xs))
    low_y = min(y for _, y in points)
    high_y = min(max(y for _, y in points), max([low_y, *(y for _, _, y in marks)]) * 2 - low_y) or low_y + 1
    high_y = high_y if high_y > low_y else low_y + 1

    def to_x(x: float) -> float:
        return PLOT_LEFT + (math.log10(x) - low_x) / ((high_x - low_x) or 1) * PLOT_WIDTH

    def to_y(y: float) -> float:
        return CURVE_TOP + (1 - (min(y, high_y) - low_y) / (high_y - low_y)) * CURVE_HEIGHT

    return to_x, to_y, (low_x, high_x)


def curve(figure: dict, values: dict) -> str:
    """A curve of y against x (log scale) from a list of [x, y] pairs, with labelled marks.

    ``points`` names a value holding [[x, y], ...]; ``marks`` one holding [[label, x, y], ...],
    drawn as dots in the part colours and listed in the legend; ``x_format`` and ``y_format``
    are output formats; ``x_label`` and ``y_label`` name the axes.
    """
    show_x, show_y = FORMATTERS[figure.get("x_format", "number")], FORMATTERS[figure.get("y_format", "number")]
    points = [(float(x), float(y)) for x, y in values[figure["points"]] if x > 0]
    marks = [(str(label), float(x), float(y)) for label, x, y in values[figure["marks"]]]
    to_x, to_y, (low_x, high_x) = curve_scales(points, marks)
    path = "M" + "L".join(f"{number(to_x(x))} {number(to_y(y))}" for x, y in points)
    body = [f'<path class="lm-fig-curve" d="{path}"/>',
            f'<line class="lm-fig-axis-line" x1="{PLOT_LEFT}" x2="{PLOT_LEFT + PLOT_WIDTH}" y1="{CURVE_TOP + CURVE_HEIGHT}" y2="{CURVE_TOP + CURVE_HEIGHT}"/>']
    for power in range(math.ceil(low_x), math.floor(high_x) + 1):
        x = to_x(10**power)
        body.append(f'<line class="lm-fig-axis-line" x1="{number(x)}" x2="{number(x)}" y1="{CURVE_TOP + CURVE_HEIGHT}" y2="{CURVE_TOP + CURVE_HEIGHT + 5}"/>')
        body.append(text(x, CURVE_TOP + CURVE_HEIGHT + 18, show_x(10**power), "lm-fig-text lm-fig-axis", "middle"))
    for index, (label, x, y) in enumerate(marks):
        if 10**low_x <= x <= 10**high_x:
            body.append(rect(to_x(x) - 5, to_y(y) - 5, 10, 10, part_colour(index), "lm-fig-mark", f"{label}: {show_x(x)}, {show_y(y)}"))
    axis_y = CURVE_TOP + CURVE_HEIGHT + 36
    body.append(text(PLOT_LEFT, axis_y, f"{figure.get('x_label', 'x')} (log scale) →; {figure.get('y_label', 'y')} ↑", "lm-fig-text lm-fig-axis"))
    keys, extra = legend([(f"{label} {show_x(x)}: {show_y(y)}", part_colour(index), "") for index, (label, x, y) in enumerate(marks)], axis_y + 22)
    body += keys
    lowest = min(points, key=lambda point: point[1])
    said = "; ".join(f"{label} at {show_x(x)}, {show_y(y)}" for label, x, y in marks)
    summary = f"lowest at {show_x(lowest[0])}, {show_y(lowest[1])}; {said}"
    return svg_root("curve", f"{figure.get('title', 'Curve')}: {summary}.", axis_y + 30 + extra, body)


FIGURE_KINDS: dict[str, Callable[[dict, dict], str]] = {
    "memory_bar": memory_bar,
    "pipeline_schedule": pipeline_schedule,
    "share_bar": share_bar,
    "curve": curve,
}


def declared_names(declaration: object) -> tuple[str, ...]:
    """Every string in a figure's declaration, at any depth: the names of the values it draws
    among them (a drawing reads no value its declaration does not name)."""
    if isinstance(declaration, str):
        return (declaration,)
    if isinstance(declaration, dict):
        declaration = declaration.values()
    elif not isinstance(declaration, (list, tuple)):
        return ()
    return tuple(name for item in declaration for name in declared_names(item))


def named_values(names: tuple[str, ...], values: dict) -> tuple:
    """What a figure is drawn from: (name, repr of the value) for each name that is a value.
    By repr, so that equal but different numbers (1 and 1.0, 0.0 and -0.0) stay apart."""
    return tuple((name, repr(values[name])) for name in names if name in values)


# The last drawing of each figure: (declaration, its names, what it was drawn from, SVG). A
# reader changes one field at a time, so most figures come out as before, and the browser
# worker skips drawing them (the pipeline schedule is a fifth of its time per change of
# model size).
_last_drawn: dict[tuple[str, str], tuple[dict, tuple, tuple, str]] = {}


MAX_SVG_CHARS = 100_000  # a drawing never grows past this, whatever the values (today's largest is ~40 kB)


def bounded(figure: dict, svg: str) -> str:
    """``svg``, or a small stand-in saying the figure was too large to draw."""
    if len(svg) <= MAX_SVG_CHARS:
        return svg
    label = f"{figure.get('title', 'Figure')}: too large to draw for these values."
    return svg_root("too-large", label, 30, [text(PLOT_LEFT, 20, label, "lm-fig-text lm-fig-note")])


def draw_figure(module: object, figure: dict, values: dict) -> str:
    """One figure's SVG: the last drawing again when nothing it is drawn from has changed."""
    key = (getattr(module, "__name__", ""), figure["name"])
    last = _last_drawn.get(key)
    same_declaration = last is not None and last[0] is figure
    names = last[1] if same_declaration else declared_names(figure)
    drawn_from = named_values(names, values)
    if not same_declaration or last[2] != drawn_from:
        last = _last_drawn[key] = (figure, names, drawn_from, bounded(figure, FIGURE_KINDS[figure["kind"]](figure, values)))
    return last[3]


def draw_figures(module: object, values: dict) -> dict[str, str]:
    """SVG strings for every figure the calculator declares, keyed by figure name."""
    return {figure["name"]: draw_figure(module, figure, values) for figure in getattr(module, "FIGURES", [])}
