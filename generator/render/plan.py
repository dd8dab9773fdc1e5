"""Learning plans as pages: a plan for each topic that needs others, at each depth it has; a
"Read first" line in each depth of a topic page; the plans' index with the picker.

A plan page lists the topics to read in order, each at its depth with its reading time, then
holds the whole path as one document to read or print: each topic's text at that depth, its
figures, its calculator's starting case as worked out at build time (no live form), and one
numbered list of only the sources the path cites. Everything is rendered at build time, so a
plan works without JavaScript, offline and in the downloadable copy; ``progress.js`` adds the
reader's marks ("3 of 7 read") where it runs.
"""

from __future__ import annotations

import json

from generator.content.citations import cited_keys
from generator.content.schema import Depth, DepthLevel, Exercise, Markdown, Source, Topic
from generator.content.yaml_source import text_fields
from generator.model.graph import KnowledgeMap
from generator.model.plans import LearningPlan, PlanStep
from generator.render.citations import render_citations, source_anchor
from generator.render.depth import depth_anchor, render_depth_for_reading
from generator.render.escape import md_text
from generator.render.paths import HOME, layer_label, link, rebased_links, site_link, topic_page
from generator.render.ports import Calculators
from generator.render.previews import previews_html
from generator.render.read_first import PLANS, minutes_text, plan_id, plan_page, plan_target
from generator.render.text import attr, block, front_matter, inline
from generator.render.topic import format_source

_START = Exercise(prompt=Markdown("The starting case."))  # a calculator's case with no moves: its defaults


def planned_topics(kmap: KnowledgeMap) -> list[Topic]:
    """The topics that need others first (each gets a plan page per depth), in the map's order."""
    return [t for layer in kmap.layers for t in kmap.topics_by_layer[layer.number] if kmap.prerequisites.get(t.id)]


def plan_pages(kmap: KnowledgeMap) -> list[tuple[str, Topic, str]]:
    return [(plan_page(t, key), t, key) for t in planned_topics(kmap) for key, _ in t.depths.present()]


def plan_dependents(kmap: KnowledgeMap, changed: set[str]) -> set[str]:
    """The pages a change to the ``changed`` topics' text reaches through plans: each plan page
    holding one of them, and each topic page whose "Read first" times one of them."""
    pages: set[str] = set()
    for topic in planned_topics(kmap):
        for key, _ in topic.depths.present():
            held = {step.topic.id for step in kmap.learning_plan(topic, key).steps} & changed
            if held:
                pages.add(plan_page(topic, key))
            if held - {topic.id}:
                pages.add(topic_page(topic))
    return pages


def _level_names(kmap: KnowledgeMap) -> dict[str, DepthLevel]:
    return {level.key: level for level in kmap.config.depths}


# --- a plan's page ----------------------------------------------------------------------------------


def _step_item(kmap: KnowledgeMap, plan: LearningPlan, step: PlanStep) -> str:
    level = _level_names(kmap)[step.depth]
    needers = [s.topic for s in plan.steps if any(p.needed == step.topic.id for p in kmap.prerequisites.get(s.topic.id, ()))]
    why = f' <span class="lm-plan-why">needed by {", ".join(inline(t.title) for t in needers)}</span>' if needers else ""
    goal = ' <span class="lm-plan-why">the goal</span>' if step.topic.id == plan.goal.id else ""
    href = f"{site_link(topic_page(step.topic))}#{depth_anchor(step.depth)}"
    return (f'<li class="lm-plan-step" data-topic="{attr(step.topic.id)}" data-depth="{step.depth}">'
            f'<a href="{attr(href)}">{inline(step.topic.title)}</a> at {step.depth} · {inline(level.name)}, '
            f"{minutes_text(step.minutes)} ({inline(layer_label(kmap.layer_of(step.topic)))}).{why}{goal}</li>")


def _cited(depth: Depth) -> list[str]:
    return list(dict.fromkeys(key for _, text in text_fields(depth.model_dump(exclude_none=True))
                              for key, _ in cited_keys(text)))


def plan_sources(kmap: KnowledgeMap, plan: LearningPlan, calculators: Calculators | None) -> list[Source]:
    """Only the sources the path cites, in reading order (with its calculators' own)."""
    found: dict[str, Source] = {}
    for step in plan.steps:
        depth = getattr(step.topic.depths, step.depth)
        found |= {key: kmap.sources[key] for key in _cited(depth) if key in kmap.sources and key not in found}
        if depth.calculator and calculators:
            for source in calculators.sources(depth.calculator.name):
                found.setdefault(source.id, kmap.sources.get(source.id, source))
    return list(found.values())


def _calculator_case(depth: Depth, calculators: Calculators | None) -> str:
    """The calculator's starting case, worked out now: what the page's live calculator opens at."""
    if not (depth.calculator and calculators):
        return ""
    view = calculators.exercise(depth.calculator.name, dict(depth.calculator.values), _START)
    rows = "".join(f"<dt>{inline(label)}</dt><dd>{inline(value)}</dd>" for _, label, value in view.end)
    return (f'<div class="lm-plan-calc"><p class="lm-label">Its calculator opens at this case '
            f"(worked out when this page was built; change it on the topic's page):</p><dl>{rows}</dl></div>")


def _step_text(kmap: KnowledgeMap, number: int, step: PlanStep, page: str, cite_with: dict[str, str],
               calculators: Calculators | None) -> str:
    depth = getattr(step.topic.depths, step.depth)
    level = _level_names(kmap)[step.depth]

    def cite(text: str) -> str:
        text = rebased_links(text, topic_page(step.topic), page)  # the topic's links, from the plan's folder
        return render_citations(calculators.expand(text) if calculators else text, kmap.sources, labels=cite_with)

    heading = f"## {number}. {md_text(step.topic.title)} · {step.depth} {md_text(level.name)} {{ #step-{number} }}"
    back = f"[Read it on its page]({link(page, topic_page(step.topic))}#{depth_anchor(step.depth)})"
    return block(f'<section class="lm-plan-text" data-topic="{attr(step.topic.id)}" markdown>', heading,
                 render_depth_for_reading(step.depth, depth, cite), _calculator_case(depth, calculators), back, "</section>")


def _numbered_sources(sources: list[Source]) -> str:
    items = "\n".join(f'<li id="{source_anchor(s.id)}">{format_source(s)}</li>' for s in sources)
    return f'## Sources {{ #sources data-search-exclude }}\n\n<ol class="lm-sources">\n{items}\n</ol>' if sources else ""


def render_plan(kmap: KnowledgeMap, topic: Topic, key: str, calculators: Calculators | None = None) -> str:
    plan = kmap.learning_plan(topic, key)
    page = plan_page(topic, key)
    level = _level_names(kmap)[plan.depth]
    sources = plan_sources(kmap, plan, calculators)
    numbers = {s.id: str(n) for n, s in enumerate(sources, start=1)}
    title = f"Learning plan: {topic.title} at {plan.depth}"
    steps = "\n".join(_step_item(kmap, plan, step) for step in plan.steps)
    texts = [_step_text(kmap, n, step, page, numbers, calculators) for n, step in enumerate(plan.steps, start=1)]
    return block(
        front_matter(title=title, description=f"What to read, in order, to understand {topic.title} at {plan.depth}.",
                     searched=False),
        f'<nav class="lm-breadcrumb" aria-label="Breadcrumb" markdown>\n[{md_text(kmap.config.title)}]({link(page, HOME)}) '
        f"› [Learning plans]({link(page, PLANS)})\n</nav>",
        f"# {md_text(title)} · {md_text(level.name)}",
        f'<p class="lm-summary">To understand {inline(topic.title)} at {plan.depth} · {inline(level.name)}, read these '
        f"{len(plan.steps)} topics in this order: {minutes_text(plan.minutes)} in all. Each link opens the topic at its depth; "
        "the whole path follows below, to read here or print.</p>",
        '<p class="lm-plan-progress" data-plan-progress hidden></p>',
        f'<ol class="lm-plan" data-plan="{attr(plan_id(topic, plan.depth))}">\n{steps}\n</ol>',
        "## The whole path { #path }",
        *texts,
        _numbered_sources(sources),
        previews_html((step.topic for step in plan.steps)),
    ) + "\n"


# --- the plans' index and the home page's picker ------------------------------------------------


def plan_picker(kmap: KnowledgeMap) -> str:
    """"I want to understand … at …": a form that ``plans.js`` makes go; without scripts, the plans' index."""
    options = "".join(f'<option value="{attr(t.id)}">{inline(t.title)}</option>'
                      for layer in kmap.layers for t in kmap.topics_by_layer[layer.number])
    depths = "".join(f'<option value="{d.key}">{d.key} · {inline(d.name)}</option>' for d in kmap.config.depths)
    targets = {t.id: {key: plan_target(kmap, t, key) for key, _ in t.depths.present()} for t in kmap.topics.values()}
    return (f'<form class="lm-plan-picker" action="{attr(site_link(PLANS))}" data-targets="{attr(json.dumps(targets, separators=(",", ":")))}">'
            '<label for="lm-plan-topic">I want to understand</label> <select id="lm-plan-topic" name="topic">'
            f'{options}</select> <label for="lm-plan-depth">at</label> <select id="lm-plan-depth" name="depth">{depths}</select> '
            '<button type="submit" class="md-button md-button--primary">Show my plan</button></form>')


# Shown by progress.js (the marks live in the browser); hidden without scripts.
PROGRESS_TOOLS = (
    '<div class="lm-progress-tools" data-search-exclude hidden><p>Your marks of what you have read stay in this browser: '
    "nothing is sent anywhere. Take them to another device as a small file.</p>"
    '<button type="button" class="md-button" data-progress="export">Export my progress</button>'
    '<input type="file" id="lm-progress-file" data-progress="import">'
    '<label class="md-button" for="lm-progress-file">Import progress from a file</label>'
    '<button type="button" class="md-button" data-progress="forget">Forget my progress</button>'
    '<p role="status" data-progress="status"></p></div>'
)


def render_plans_index(kmap: KnowledgeMap) -> str:
    names = _level_names(kmap)
    rows = []
    for layer in kmap.layers:
        for topic in kmap.topics_by_layer[layer.number]:
            links = " · ".join(f"[{key} {md_text(names[key].name)}]({link(PLANS, plan_page(topic, key))})"
                               if kmap.prerequisites.get(topic.id) else
                               f"[{key} {md_text(names[key].name)}]({link(PLANS, topic_page(topic))}#{depth_anchor(key)})"
                               for key, _ in topic.depths.present())
            rows.append(f"- **{md_text(topic.title)}** ({md_text(layer_label(layer))}): {links}")
    return block(
        front_matter(title="Learning plans", description="A reading plan to any topic of the map, at any depth."),
        "# Learning plans",
        "Pick a topic and a depth: the plan lists what to read first, in an order where each topic comes after "
        "everything it needs, each at the depth it is needed, with reading times. Marks of what you have read "
        "stay in this browser only.",
        plan_picker(kmap),
        PROGRESS_TOOLS,
        "## Every plan { #every-plan }",
        "\n".join(rows),
    ) + "\n"
