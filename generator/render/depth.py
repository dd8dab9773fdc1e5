"""One depth of a topic: a ``<section>`` that reads well with or without JavaScript."""

from __future__ import annotations

import json
from collections.abc import Callable

from generator.content.schema import Depth, DepthLevel, Exercise, Flow
from generator.render.escape import code_block, markdown_block, md_prose_text, md_text
from generator.render.ports import Calculators
from generator.render.text import attr, block, inline

Cite = Callable[[str], str]


def depth_anchor(key: str) -> str:
    return f"depth-{key.lower()}"


def nearest_depth(wanted: str, present: list[str]) -> str:
    """The present depth closest to the wanted one (a tie goes to the gentler depth)."""
    def level(key: str) -> int:
        return int(key[1:])
    return min(present, key=lambda key: (abs(level(key) - level(wanted)), level(key)))


def depths_served(levels: list[str], present: list[str]) -> dict[str, list[str]]:
    """For each present depth, the wanted depths it is shown for (itself and the missing ones nearest to it).
    The page's stylesheet reads this before any script runs, and the switcher script after."""
    served: dict[str, list[str]] = {key: [] for key in present}
    for wanted in levels:
        served[nearest_depth(wanted, present)].append(wanted)
    return served


def render_depth_switcher(names: dict[str, str], served: dict[str, list[str]]) -> str:
    """The switcher's tabs and one notice per missing depth, in the page from the start.

    Both are ``hidden`` for a reader without JavaScript (every depth then shows as a section);
    with scripts, the stylesheet shows them before first paint, so nothing moves when the
    switcher script takes over. ``served`` maps each present depth to the depths it is shown for."""
    tabs = "".join(
        f'<button type="button" role="tab" id="tab-{depth_anchor(key)}" class="lm-depth-tab" data-depth="{key}" '
        f'data-serves="{" ".join(wanted)}" aria-controls="{depth_anchor(key)}" aria-selected="false" tabindex="-1">'
        f'<span class="lm-depth-key">{key}</span> <span class="lm-depth-name">{inline(names[key])}</span></button>'
        for key, wanted in served.items())
    notices = "".join(
        f'<p class="lm-depth-notice" role="status" data-wanted="{wanted}" hidden>This topic has no {wanted} · '
        f"{inline(names[wanted])} yet, so it shows {key} · {inline(names[key])}, the nearest depth.</p>"
        for key, wanteds in served.items() for wanted in wanteds if wanted != key)
    return (f'<div class="lm-depth-tabs" role="tablist" aria-label="Depth level" data-search-exclude hidden>{tabs}</div>'
            + (f'\n\n<div class="lm-depth-notices" data-search-exclude>{notices}</div>' if notices else ""))


def _flow(flow: Flow, cite: Cite) -> str:
    steps = "\n".join(
        f"{n}. **{md_text(step.label)}**" + (f"  \n    {cite(markdown_block(step.detail))}" if step.detail else "")
        for n, step in enumerate(flow.steps, start=1)
    )
    return f'<div class="lm-flow" markdown>\n\n**{cite(md_prose_text(flow.title))}**\n{{ .lm-flow-title }}\n\n{steps}\n\n</div>'


def _playable(exercise: Exercise, instance: str | None, calculators: Calculators | None, depth: Depth) -> tuple[str, str]:
    """The exercise's data attributes and its end state, pre-computed (empty when not playable)."""
    if not (exercise.steps and instance and calculators and depth.calculator):
        return "", ""
    view = calculators.exercise(depth.calculator.name, dict(depth.calculator.values), exercise)
    data = f' data-calculator="{instance}" data-plan="{attr(json.dumps(view.plan, separators=(",", ":")))}"'
    rows = "".join(f'<dt>{inline(label)}</dt><dd data-end-output="{name}">{inline(value)}</dd>' for name, label, value in view.end)
    end = f'<div class="lm-exercise-end"><p class="lm-exercise-end-title">Where it ends:</p><dl>{rows}</dl></div>'
    return data, end


def _answer(exercise: Exercise, end: str, cite: Cite) -> str:
    """The answer and the end state together, behind one disclosure: the end state names the
    number a prompt asks for, so it is shown with the answer, not before the reader has tried."""
    if not (exercise.answer or end):
        return ""
    summary = "Show answer" if exercise.answer else "Show where it ends"
    text = cite(markdown_block(exercise.answer)) if exercise.answer else ""
    return f'<details class="lm-answer" markdown>\n<summary>{summary}</summary>\n\n{text}\n\n{end}\n\n</details>'


# Played by exercise.js; in the page from the start (hidden without JavaScript, shown by the
# stylesheet once the head script has run) so the page does not move when the script arrives.
TRY_IT = '<div class="lm-try-row"><button type="button" class="md-button md-button--primary lm-try" hidden>Try it</button></div>'


def depth_heading(key: str, title: str) -> str:
    """A heading inside a depth: its id and its name in the table of contents and in search results
    say which depth it is in (``#d3-things-to-try``, "D3 · Things to try"), so a search hit names
    the depth and opens it (the head script shows the depth holding a linked id)."""
    anchor = f"{key.lower()}-{title.lower().replace(' ', '-')}"
    hidden = f'<span class="lm-visually-hidden">{key} · </span>'  # read out, and in search results; not shown
    return f'### {hidden}{md_text(title)} {{ #{anchor} data-toc-label="{attr(f"{key} · {title}")}" }}'


def _exercises(key: str, depth: Depth, cite: Cite, instance: str | None, calculators: Calculators | None) -> str:
    items = []
    for exercise in depth.exercises:
        data, end = _playable(exercise, instance, calculators, depth)
        items.append(f'<li class="lm-exercise"{data} markdown>\n\n{cite(markdown_block(exercise.prompt))}\n\n'
                     f'{TRY_IT if data else ""}\n\n{_answer(exercise, end, cite)}\n\n</li>')
    return f"{depth_heading(key, 'Things to try')}\n\n<ol class=\"lm-exercises\" markdown>\n" + "\n".join(items) + "\n</ol>"


def _reading(depth: Depth, cite: Cite) -> list[str]:
    """What a depth says, in reading order, before its calculator and things to try."""
    return [
        f'<p class="lm-hook" markdown><span class="lm-label">Think about it:</span> {cite(md_prose_text(depth.hook))}</p>'
        if depth.hook else "",
        cite(markdown_block(depth.body)) if depth.body else "",
        _flow(depth.flow, cite) if depth.flow else "",
        f"**Like:** {cite(markdown_block(depth.analogy))}" if depth.analogy else "",
        f"**Where it breaks:** {cite(markdown_block(depth.breaks))}" if depth.breaks else "",
        code_block(depth.formulas) if depth.formulas else "",
    ]


def render_depth_for_reading(key: str, depth: Depth, cite: Cite) -> str:
    """A depth's text for a learning plan's whole path: no ids of the topic page's, no live
    calculator, things to try with their answers, trade-offs as a list."""
    tries = "\n".join(f"1. {cite(markdown_block(e.prompt))}" + (f"  \n    *Answer:* {cite(markdown_block(e.answer))}" if e.answer else "")
                      for e in depth.exercises)
    trade = "\n".join(f"- {cite(markdown_block(t))}" for t in depth.tradeoffs)
    return block(*_reading(depth, cite), f"**Things to try**\n\n{tries}" if tries else "",
                 f"**Trade-offs**\n\n{trade}" if trade else "")


def render_depth(key: str, level: DepthLevel, depth: Depth, cite: Cite, calculators: Calculators | None,
                 serves: list[str] | None = None, read_first: str = "", read_mark: str = "") -> str:
    """A depth as a section with its own heading; the switcher script turns sections into tabs.
    ``read_first``, ``read_mark``: what to read first and the "Mark as read" control
    (``render/read_first.py``), raw HTML, at the top and the foot."""
    anchor = depth_anchor(key)
    heading = f"## {key} · {md_text(level.name)} {{ #{anchor}-title }}"
    audience = f'<p class="lm-audience">For {inline(level.audience[0].lower() + level.audience[1:])}</p>'
    parts = [read_first, *_reading(depth, cite)]
    instance = None
    if depth.calculator:
        if calculators is None:
            raise RuntimeError("a calculator is referenced but no calculator renderer was given")
        instance = f"calc-{depth.calculator.name}-{key.lower()}"
        parts.append(calculators.html(depth.calculator.name, instance, dict(depth.calculator.values)))
    if depth.exercises:
        parts.append(_exercises(key, depth, cite, instance, calculators))
    if depth.tradeoffs:
        parts.append(f"{depth_heading(key, 'Trade-offs')}\n\n" + "\n".join(f"- {cite(markdown_block(t))}" for t in depth.tradeoffs))
    inner = block(heading, audience, *parts, read_mark)
    return (
        f'<section class="lm-depth" id="{anchor}" data-depth="{key}" data-depth-name="{attr(level.name)}" '
        f'data-serves="{" ".join(serves or [key])}" aria-labelledby="{anchor}-title" markdown>\n\n{inner}\n\n</section>'
    )
