"""The live calculators' files copied into a test's folder, chosen as the production build chooses them."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.calculation.port import site_assets
from tests.conftest import ROOT


def copy_site_assets(folder: Path) -> None:
    """Copy ``generator.calculation.port.site_assets`` (the build's one list) into ``folder``."""
    for site_path, source in site_assets(ROOT).items():
        target = Path(folder) / site_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
