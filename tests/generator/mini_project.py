"""A private copy of the mini fixture project that a test may break, load and inspect."""

from __future__ import annotations

import json
import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.content.loading import Content
from generator.diagnostics import ContentError
from generator.model.graph import KnowledgeMap, build_map
from generator.pipeline import load_content

MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini" / "content"
BOARDS = (MINI / "layer-2" / "boards.yaml").read_text(encoding="utf-8")  # the smallest valid topic


@dataclass
class MiniProject:
    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    def write(self, name: str, text: str) -> Path:
        """Write ``content/<name>`` (dedented), replacing the fixture's file of that name."""
        path = self.content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    def add_source(self, key: str, **fields: object) -> None:
        """Add a record to ``content/sources.yaml`` (a paper at example.org unless fields say otherwise)."""
        record = {"kind": "paper", "title": f"About {key}", "authors": ["Lee, Carol"], "date": "2021",
                  "url": f"https://example.org/{key}", **fields}
        lines = [f"  {key}:"] + [f"    {name}: {json.dumps(value)}" for name, value in record.items() if value is not None]
        path = self.content / "sources.yaml"
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")

    def remove(self, name: str) -> None:
        (self.content / name).unlink()

    def load(self) -> Content:
        return load_content(self.content, self.root)

    def kmap(self) -> KnowledgeMap:
        return build_map(self.load())

    def report(self) -> str:
        """The report of a load that must fail."""
        with pytest.raises(ContentError) as caught:
            self.load()
        return caught.value.log.report()


def copy_mini(root: Path) -> MiniProject:
    shutil.copytree(MINI, root / "content")
    return MiniProject(root)

