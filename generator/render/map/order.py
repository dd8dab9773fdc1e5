"""The order of the slots inside each band: fewer crossings by barycentre sweeps.

An edge that skips bands gets a thin *dummy* slot in every band it crosses, so it passes
between nodes instead of through them.  The order inside each band is chosen by barycentre
sweeps (each slot moves towards the mean position of its neighbours in the band just
placed), keeping the order with the fewest crossings seen.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from generator.render.map.select import MapGraph, NodeSpec
from generator.render.map.settings import SWEEPS

Order = list[list[str]]  # slot keys per band, left to right
Adjacency = dict[str, list[str]]  # slot key → keys of the slots it is joined to


@dataclass(frozen=True)
class Slot:
    key: str  # node id, or "~<edge>:<band>" for a dummy
    band: int
    node: NodeSpec | None  # None for a dummy


@dataclass(frozen=True)
class EdgeChains:
    """For each edge (in graph order), the slots it passes from source to target, dummies between."""

    chains: list[list[Slot]]
    slots: dict[str, Slot]  # every node and dummy slot by key


@dataclass(frozen=True)
class Neighbours:
    """Each slot's neighbours in the band below, the band above and its own band."""

    below: Adjacency
    above: Adjacency
    same: Adjacency


def edge_chains(graph: MapGraph) -> EdgeChains:
    """Each edge as a chain of slots, with a dummy slot in every band it skips."""
    slots = {n.id: Slot(n.id, n.band, n) for n in graph.nodes}
    chains: list[list[Slot]] = []
    for i, edge in enumerate(graph.edges):
        a, b = slots[edge.source], slots[edge.target]
        step = 1 if b.band > a.band else -1
        chain = [a]
        for band in range(a.band + step, b.band, step) if a.band != b.band else ():
            dummy = Slot(f"~{i}:{band}", band, None)
            slots[dummy.key] = dummy
            chain.append(dummy)
        chain.append(b)
        chains.append(chain)
    return EdgeChains(chains, slots)


def naive_order(graph: MapGraph) -> Order:
    """The order the nodes come in (dummies after the nodes of their band)."""
    order: Order = [[] for _ in graph.bands]
    for node in graph.nodes:
        order[node.band].append(node.id)
    for chain in edge_chains(graph).chains:
        for slot in chain[1:-1]:
            order[slot.band].append(slot.key)
    return order


def segments(chains: list[list[Slot]]) -> list[tuple[str, str]]:
    """Adjacent-band pieces of every edge, lower band first."""
    pieces = []
    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            if a.band != b.band:
                pieces.append((a.key, b.key) if a.band < b.band else (b.key, a.key))
    return pieces


def inversions(values: list[int]) -> int:
    """Number of pairs i < j with values[i] > values[j] (merge sort; sorts ``values`` in place)."""
    if len(values) < 2:
        return 0
    mid = len(values) // 2
    left, right = values[:mid], values[mid:]
    count = inversions(left) + inversions(right)
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            count += len(left) - i
            j += 1
    values[:] = merged + left[i:] + right[j:]
    return count


def count_crossings(graph: MapGraph, order: Order) -> int:
    """Crossings between edge pieces in adjacent bands for a given order."""
    return crossings(edge_chains(graph), order)


def crossings(chained: EdgeChains, order: Order) -> int:
    """Crossings between the chains' pieces in adjacent bands for ``order``."""
    pos = {key: i for band in order for i, key in enumerate(band)}
    by_gap: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for low, high in segments(chained.chains):
        by_gap[chained.slots[low].band].append((pos[low], pos[high]))
    total = 0
    for pairs in by_gap.values():
        pairs.sort()
        total += inversions([b for _, b in pairs])
    return total


def neighbours(chains: list[list[Slot]]) -> Neighbours:
    """Each slot's neighbours below, above and (for an edge inside one band) beside it."""
    below: Adjacency = defaultdict(list)
    above: Adjacency = defaultdict(list)
    same: Adjacency = defaultdict(list)
    for low, high in segments(chains):
        above[low].append(high)
        below[high].append(low)
    for chain in chains:
        a, b = chain[0], chain[-1]
        if a.key != b.key and a.band == b.band:
            same[a.key].append(b.key)
            same[b.key].append(a.key)
    return Neighbours(below, above, same)


def by_barycentre(band: list[str], fixed_band: list[str], toward_fixed: Adjacency, same: Adjacency) -> list[str]:
    """``band`` sorted by the mean position of each slot's neighbours in ``fixed_band`` (and its own
    band, scaled to the fixed one); a slot without neighbours keeps its place; ties keep the order."""
    fixed = {key: i for i, key in enumerate(fixed_band)}
    current = {key: i for i, key in enumerate(band)}
    scale = max(len(fixed), 1) / max(len(current), 1)

    def barycentre(key: str) -> float:
        values = [float(fixed[k]) for k in toward_fixed.get(key, ())]
        values += [current[k] * scale for k in same.get(key, ())]
        return sum(values) / len(values) if values else current[key] * scale

    return sorted(band, key=lambda k: (barycentre(k), current[k]))


def sweep(order: Order, upward: bool, near: Neighbours) -> None:
    """One sweep over the bands (up from the first layer or down to it), reordering ``order`` in place."""
    bands = range(1, len(order)) if upward else range(len(order) - 2, -1, -1)
    toward_fixed = near.below if upward else near.above
    for band in bands:
        fixed_band = order[band - 1 if upward else band + 1]
        order[band] = by_barycentre(order[band], fixed_band, toward_fixed, near.same)


def order_bands(graph: MapGraph) -> Order:
    """Barycentre sweeps up and down; returns the order with the fewest crossings seen."""
    chained = edge_chains(graph)
    near = neighbours(chained.chains)
    order = naive_order(graph)
    best, best_crossings = [list(b) for b in order], crossings(chained, order)
    for pass_number in range(SWEEPS):
        if best_crossings == 0:
            break
        sweep(order, pass_number % 2 == 0, near)
        found = crossings(chained, order)
        if found < best_crossings:
            best, best_crossings = [list(b) for b in order], found
    return best
