"""Where a layermap project keeps things."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def base_config(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def work_dir(self) -> Path:
        """The generated docs tree and engine config (git-ignored)."""
        return self.root / ".layermap"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"
