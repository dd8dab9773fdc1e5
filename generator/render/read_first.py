"""Where plans live, and the "Read first" line at the top of each depth of a topic page.

Raw HTML with built URLs, the same in both topic renderers (``topic.py`` and ``topic_html.py``).
"""

from __future__ import annotations

from generator.content.schema import Topic
from generator.model.graph import KnowledgeMap
from generator.render.depth import depth_anchor
from generator.render.paths import site_link, topic_page
from generator.render.text import attr, inline

PLANS = "plans/index.md"


def plan_page(topic: Topic, key: str) -> str:
    return f"plans/{plan_id(topic, key)}.md"


def plan_id(topic: Topic, key: str) -> str:
    """A plan's name in the reader's progress and in the page (``progress.js``)."""
    return f"{topic.id}-{key.lower()}"


def minutes_text(minutes: int) -> str:
    return f"about {minutes} min"


def plan_target(kmap: KnowledgeMap, topic: Topic, key: str) -> str:
    """Where "understand ``topic`` at ``key``" leads: its plan page, or the topic at that depth when it needs nothing."""
    if kmap.prerequisites.get(topic.id):
        return site_link(plan_page(topic, key))
    return f"{site_link(topic_page(topic))}#{depth_anchor(key)}"


def read_first_html(kmap: KnowledgeMap, topic: Topic, key: str) -> str:
    """One line at the top of a depth: the topics it needs directly (each at the depth the plan
    reads it), how many more those need, and the link to the whole plan ("" when it needs none)."""
    plan = kmap.learning_plan(topic, key)
    if not plan.first:
        return ""
    direct = {link.needed for link in kmap.prerequisites.get(topic.id, ())}
    steps = ", ".join(f'<a href="{attr(site_link(topic_page(s.topic)))}#{depth_anchor(s.depth)}">'
                      f"{inline(s.topic.title)}</a> ({s.depth})" for s in plan.first if s.topic.id in direct)
    more = len(plan.first) - len(direct)
    whole = f"; they need {more} more · " if more else " · "
    whole += (f'<a href="{attr(site_link(plan_page(topic, plan.depth)))}">the whole plan, '
              f"{len(plan.steps)} topics, {minutes_text(plan.minutes)}</a>")
    return (f'<p class="lm-read-first" data-plan="{attr(plan_id(topic, plan.depth))}" data-search-exclude>'
            f'<span class="lm-label">Read first:</span> {steps}{whole}</p>')


def read_mark_html(topic: Topic, key: str) -> str:
    """The "Mark as read" control at the foot of a depth: in the page from the start, hidden
    without JavaScript (the marks live in the browser: ``progress.js``) and shown by the
    stylesheet once the head script has run, so nothing moves when the script arrives. A click
    before ``progress.js`` binds it is noted by another head script and counted then
    (``emit/depth_first_paint.py``)."""
    return (f'<p class="lm-read-mark" data-topic="{attr(topic.id)}" data-depth="{key}" data-search-exclude hidden>'
            f'<button type="button" class="md-button lm-read-toggle" aria-pressed="false">Mark {key} as read</button></p>')
