"""The synthetic maps benchmarks/build_scale.py measures must be content layermap accepts:
a benchmark of a build that fails measures nothing (it once wrote per-topic `sources:` lists
after the schema had moved them to content/sources.yaml)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from generator.pipeline import load_map
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]


def build_scale():  # noqa: ANN201 - the benchmark script as a module
    spec = importlib.util.spec_from_file_location("build_scale", ROOT / "benchmarks" / "build_scale.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_scale"] = module
    spec.loader.exec_module(module)
    return module


def test_a_synthetic_map_passes_every_check(tmp_path: Path) -> None:
    pages = build_scale().write_project(tmp_path, topics=30, seed=1)
    content, kmap = load_map(Project(tmp_path))
    assert len(kmap.topics) == 30 == len(pages)
    assert [w for w in content.warnings if "cited by no topic" in w.message] == []
    assert all(kmap.topics[topic_id].depths.D4 for topic_id in pages)
