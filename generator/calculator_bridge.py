"""The generator's only door to calculators: render a calculator block, list browser files."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import calcview


def calculator_module(name: str) -> ModuleType:
    return importlib.import_module(f"calculators.{name}")


def calculator_html(name: str, instance_id: str, values: dict) -> str:
    """The calculator's form with its outputs pre-computed in CPython (numbers before any script)."""
    return calcview.render_form(calculator_module(name), instance_id, values or None)


def calculator_sources(name: str) -> list[dict]:
    """Sources (datasheets) a calculator's presets cite, as plain dicts."""
    return list(getattr(calculator_module(name), "SOURCES", []))


def browser_files(project_root: Path) -> dict[str, Path]:
    """Python files the browser worker imports, checked to use only the standard library."""
    files = calcview.browser_files(project_root)
    calcview.check_browser_imports(files)
    return files
