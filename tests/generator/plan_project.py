"""The mini fixture with prerequisites: chips needs power (at D1), boards needs chips."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.generator.mini_project import MINI

NEEDS_KIND = '  - {id: needs, label: needs first, colour: "#868e96", prerequisite: true}\n'
CHIPS_NEEDS = "edges:\n  - {subject: chips, verb: needs, object: power, kind: needs, depth: D1}\n"
BOARDS_NEEDS = "edges:\n  - {subject: boards, verb: needs, object: chips, kind: needs}\n"


def write_plan_project(root: Path) -> Path:
    """``root/content``: the mini map, its topics needing one another; returns ``root``."""
    shutil.copytree(MINI, root / "content")
    content = root / "content"
    (content / "map.yaml").write_text((content / "map.yaml").read_text(encoding="utf-8") + NEEDS_KIND, encoding="utf-8")
    for name, edges in (("chips", CHIPS_NEEDS), ("boards", BOARDS_NEEDS)):
        path = content / "layer-2" / f"{name}.yaml"
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + edges, encoding="utf-8")
    return root
