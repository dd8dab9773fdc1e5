"""The baseline issue 16 names: plain mkdocs-material, WITH ``navigation.prune``, on the same pages.

From a finished ``layermap build`` it takes the generated docs tree's Markdown pages (the same
files in the same folders: ``index.md``, ``layer-N/index.md``, ``layer-N/<topic>.md``,
``sources.md``) and the generated ``.layermap/mkdocs.yml`` with its ``nav:`` (the same sections
and alphabetical groups) and every theme feature, ``navigation.prune`` included, the same
Markdown extensions and the search plugin. It leaves out only what is layermap's own: the engine
hooks, the extra CSS and JavaScript, and the assets folder (vendored runtime, scripts, styles).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

LAYERMAP_ONLY_KEYS = ("hooks", "extra_css", "extra_javascript")
TOP_LEVEL_KEY = re.compile(r"^([A-Za-z_][\w-]*):")


def baseline_config(generated: str) -> str:
    """The generated engine config without layermap's own keys, building ``docs/`` into ``site/``."""
    kept, dropping = [], False
    for line in generated.splitlines():
        key = TOP_LEVEL_KEY.match(line)
        if key:
            dropping = key.group(1) in (*LAYERMAP_ONLY_KEYS, "docs_dir", "site_dir")
        if not dropping:
            kept.append(line)
    return "\n".join([*kept, "docs_dir: docs", "site_dir: site", ""])


def write_baseline(work_dir: Path, root: Path) -> None:
    """Write the baseline project into ``root`` from a layermap project's ``.layermap/`` folder."""
    docs = work_dir / "docs"
    shutil.rmtree(root, ignore_errors=True)
    for path in sorted(docs.rglob("*.md")):
        page = path.relative_to(docs)
        if page.parts[0] == "assets":
            continue
        (root / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, root / "docs" / page)
    config = baseline_config((work_dir / "mkdocs.yml").read_text(encoding="utf-8"))
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
