"""Learning plans: what to read first, in what order and at what depth, to understand a topic.

An edge whose kind map.yaml marks ``prerequisite: true`` means its subject needs its object
first, optionally at a depth (``needs transformers at D3``). A plan for a topic at a depth is
every topic it needs, directly or through others, each at the depth it is needed, in an order
where a topic always comes after everything it needs; where that leaves the order free, the
topic whose layer is closest to the goal's comes first (then the lower layer, then the title).
The goal itself comes last. Each step has an estimated reading time, from the words of that
depth. Pure functions of the map: the build renders plans into pages, so they work without
JavaScript, offline and in the downloadable copy.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping
from dataclasses import dataclass

from generator.content.prerequisites import Prerequisite
from generator.content.schema import DEPTH_KEYS, Depth, Topic
from generator.content.yaml_source import text_fields

# Silent reading of non-fiction runs at about 238 words a minute (Brysbaert 2019, a meta-analysis
# of 190 studies); technical prose with numbers reads slower, so plans count 200.
WORDS_PER_MINUTE = 200


@dataclass(frozen=True)
class PlanStep:
    topic: Topic
    depth: str
    words: int

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.words / WORDS_PER_MINUTE))


@dataclass(frozen=True)
class LearningPlan:
    goal: Topic
    depth: str
    steps: tuple[PlanStep, ...]  # what to read first, in order, then the goal

    @property
    def first(self) -> tuple[PlanStep, ...]:
        return self.steps[:-1]

    @property
    def minutes(self) -> int:
        return sum(step.minutes for step in self.steps)


def depth_words(depth: Depth) -> int:
    """The words a reader reads at a depth (every text of it; numbers and citations count as words)."""
    return sum(len(text.split()) for _, text in text_fields(depth.model_dump(exclude_none=True)))


def nearest_depth(topic: Topic, wanted: str) -> str:
    """``wanted`` if the topic has it, else the deepest it has below it, else its shallowest."""
    present = [key for key, _ in topic.depths.present()]
    below = [key for key in present if key <= wanted]
    return below[-1] if below else present[0]


def _needed_depths(goal: str, depth: str, table: Mapping[str, tuple[Prerequisite, ...]],
                   topics: Mapping[str, Topic]) -> dict[str, str]:
    """Each topic the goal needs (and the goal), at the deepest depth any path asks of it. A
    prerequisite is never read deeper than what needs it is read."""
    needed = {goal: nearest_depth(topics[goal], depth)}
    changed = [goal]
    while changed:
        topic_id = changed.pop()
        for link in table.get(topic_id, ()):
            wanted = min(link.depth or needed[topic_id], needed[topic_id])
            at = nearest_depth(topics[link.needed], wanted)
            if link.needed not in needed or DEPTH_KEYS.index(at) > DEPTH_KEYS.index(needed[link.needed]):
                needed[link.needed] = at
                changed.append(link.needed)
    return needed


def learning_plan(goal: Topic, depth: str, table: Mapping[str, tuple[Prerequisite, ...]],
                  topics: Mapping[str, Topic]) -> LearningPlan:
    """The plan to understand ``goal`` at ``depth`` (the prerequisites must have no cycle: `check` refuses one)."""
    needed = _needed_depths(goal.id, depth, table, topics)
    waiting = {tid: {p.needed for p in table.get(tid, ()) if p.needed in needed} for tid in needed}
    needers: dict[str, list[str]] = {}
    for tid, prerequisites in waiting.items():
        for other in prerequisites:
            needers.setdefault(other, []).append(tid)

    def priority(tid: str) -> tuple[bool, int, int, str, str]:
        topic = topics[tid]
        return (tid == goal.id, abs(topic.layer - goal.layer), topic.layer, topic.title.casefold(), tid)

    ready = [priority(tid) for tid, prerequisites in waiting.items() if not prerequisites]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        tid = heapq.heappop(ready)[-1]
        order.append(tid)
        for needer in needers.get(tid, ()):
            waiting[needer].discard(tid)
            if not waiting[needer]:
                heapq.heappush(ready, priority(needer))
    steps = tuple(PlanStep(topics[tid], needed[tid], depth_words(getattr(topics[tid].depths, needed[tid])))
                  for tid in order)
    return LearningPlan(goal, needed[goal.id], steps)
