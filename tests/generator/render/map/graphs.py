"""Small hand-made and random map graphs for the layout tests."""

from __future__ import annotations

import random
from itertools import combinations

from generator.render.map.layout import MapLayout
from generator.render.map.select import Band, EdgeSpec, MapGraph, NodeSpec


def graph(bands: int, nodes: dict[str, int], edges: list[tuple[str, str]], label: str = "feeds into") -> MapGraph:
    return MapGraph(
        tuple(Band(f"b{i}", f"Band {i}") for i in range(bands)),
        tuple(NodeSpec(n, f"Topic {n}", b, f"layer-{b + 1}/{n}.md") for n, b in nodes.items()),
        tuple(EdgeSpec(s, t, label) for s, t in edges),
    )


def random_graph(seed: int, bands: int = 4, per_band: int = 6, edges: int = 18) -> MapGraph:
    rng = random.Random(seed)
    nodes = {f"n{b}-{i}": b for b in range(bands) for i in range(rng.randint(1, per_band))}
    ids = sorted(nodes)
    verbs = ["powers", "is built into", "rents capacity from", "feeds", "runs on", "hands off to"]
    specs = []
    for _ in range(edges):
        s, t = rng.sample(ids, 2)
        specs.append(EdgeSpec(s, t, rng.choice(verbs), rng.choice(["powers", "feeds", None])))
    return MapGraph(tuple(Band(f"b{i}", f"Layer {i + 1} · Band") for i in range(bands)),
                    tuple(NodeSpec(n, f"Topic {n} with a longer title", b, f"layer-{b + 1}/{n}.md")
                          for n, b in nodes.items()),
                    tuple(specs))


def boxes_overlap(placed: MapLayout) -> list[str]:
    found = []
    nodes = [(n.node.id, n.box) for n in placed.nodes]
    labels = [(f"label {i}", e.label) for i, e in enumerate(placed.edges)]
    for (a, box_a), (b, box_b) in combinations(nodes + labels, 2):
        if box_a.overlaps(box_b):
            found.append(f"{a} / {b}")
    return found
