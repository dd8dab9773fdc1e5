"""The whole layout: nothing overlapping, everything inside the canvas, deterministic."""

from __future__ import annotations

import subprocess
import sys
import pytest

from generator.graph import build_map
from generator.loading import load_content
from generator.render.map.layout import MapLayout, geometry, layout, shift_and_width
from generator.render.map.select import local_map, whole_map
from generator.render.map.settings import MARGIN
from tests.conftest import ROOT
from tests.generator.render.map.graphs import boxes_overlap, graph, random_graph

KMAP = build_map(load_content(ROOT / "content", ROOT))


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
    code = ("from generator.graph import build_map; from generator.loading import load_content;"
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


