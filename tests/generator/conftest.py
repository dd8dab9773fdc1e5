"""Fixtures for the generator's unit tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from mini_project import MiniProject, copy_mini


@pytest.fixture
def mini(tmp_path: Path) -> MiniProject:
    return copy_mini(tmp_path)
