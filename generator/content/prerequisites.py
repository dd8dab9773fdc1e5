"""Prerequisites as data: which topic needs which first (edges of a kind map.yaml marks
``prerequisite: true``), and the one question every later stage asks of them first: is there a
cycle? Learning plans (``generator/model/plans.py``) and `check` both read this."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Prerequisite:
    """``needer`` needs ``needed`` first; at ``depth``, or (None) at the depth the reader goes for."""

    needer: str
    needed: str
    depth: str | None


def prerequisite_table(edges: Iterable[tuple[str, str, str | None]]) -> dict[str, tuple[Prerequisite, ...]]:
    """Each topic's prerequisites from (needer, needed, depth) triples, in the order given."""
    table: dict[str, list[Prerequisite]] = {}
    for needer, needed, depth in edges:
        table.setdefault(needer, []).append(Prerequisite(needer, needed, depth))
    return {needer: tuple(found) for needer, found in table.items()}


def find_cycle(table: Mapping[str, Iterable[Prerequisite]]) -> list[str] | None:
    """A cycle of prerequisites as the ids around it (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    for start in sorted(table):
        if state.get(start):
            continue
        path, stack = [start], [iter(sorted(p.needed for p in table.get(start, ())))]
        state[start] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(step) == 1:
                return [*path[path.index(step):], step]
            elif not state.get(step):
                state[step] = 1
                path.append(step)
                stack.append(iter(sorted(p.needed for p in table.get(step, ()))))
    return None


