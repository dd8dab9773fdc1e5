"""The whole layout: nothing overlapping, everything inside the canvas, deterministic."""

from __future__ import annotations

import subprocess
import sys

import pytest

from generator.render.map.layout import geometry, layout, shift_and_width
from generator.render.map.select import local_map, whole_map
from generator.render.map.settings import MARGIN
from tests.conftest import ROOT, real_map
from tests.generator.render.map.graphs import boxes_overlap, graph, random_graph

KMAP = real_map()


@pytest.mark.parametrize("seed", range(8))
def test_no_label_overlaps_another_label_or_a_node(seed: int) -> None:
    placed = layout(random_graph(seed))
    assert boxes_overlap(placed) == []


def test_real_map_has_no_overlaps_and_everything_inside_the_canvas() -> None:
    for g in (whole_map(KMAP), *(local_map(KMAP, t) for t in KMAP.topics.values())):
        placed = layout(g)
        assert boxes_overlap(placed) == []
        for box in [n.box for n in placed.nodes] + [e.label for e in placed.edges]:
            assert 0 <= box.x and box.x + box.w <= placed.width
            assert 0 <= box.y and box.y + box.h <= placed.height


def test_nodes_sit_in_their_bands_first_layer_at_the_bottom() -> None:
    placed = layout(whole_map(KMAP))
    ys = [b.y for b in placed.bands]
    assert ys == sorted(ys, reverse=True)  # band 0 lowest on the page
    for node in placed.nodes:
        band = placed.bands[node.node.band]
        assert band.y <= node.box.y and node.box.y + node.box.h <= band.y + band.h


def test_layout_is_deterministic_across_runs_and_hash_seeds() -> None:
    g = whole_map(KMAP)
    assert layout(g) == layout(g)
    code = ("from generator.model.graph import build_map; from generator.pipeline import load_content;"
            "from generator.render.map.layout import layout; from generator.render.map.select import whole_map;"
            "from pathlib import Path;"
            f"k = build_map(load_content(Path({str(ROOT / 'content')!r}), Path({str(ROOT)!r})));"
            "print(repr(layout(whole_map(k))))")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                       env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert repr(layout(g)) + "\n" in outputs


# --- the named steps ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_geometry_routes_every_edge_from_port_to_port(seed: int) -> None:
    g = random_graph(seed)
    placed = geometry(g)
    assert set(placed.boxes) == {n.id for n in g.nodes} and set(placed.paths) == set(range(len(g.edges)))
    for i, edge in enumerate(g.edges):
        (sx, sy), (tx, ty) = placed.paths[i][0], placed.paths[i][-1]
        src, dst = placed.boxes[edge.source], placed.boxes[edge.target]
        assert src.x <= sx <= src.x + src.w and sy in (src.y, src.y + src.h)
        assert dst.x <= tx <= dst.x + dst.w and ty in (dst.y, dst.y + dst.h)


def test_shift_and_width_keep_everything_inside_the_margins() -> None:
    g = graph(2, {"a": 0, "b": 0, "c": 0, "x": 1}, [("a", "x"), ("b", "x"), ("c", "x")], label="a rather long label")
    placed = geometry(g)
    dx, width = shift_and_width(g, placed)
    boxes = [*placed.boxes.values(), *placed.labels.values()]
    assert min(b.x for b in boxes) + dx >= MARGIN - 1e-9
    assert max(b.x + b.w for b in boxes) + dx + MARGIN <= width + 1e-9
    assert layout(g).width == round(width, 1)
