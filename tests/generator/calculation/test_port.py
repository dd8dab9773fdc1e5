"""The calculator port: the one list of files live calculators need, for the build and the tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.calculation.port import site_assets
from generator.errors import LayermapError
from tests.conftest import ROOT


def test_site_assets_place_the_runtime_the_glue_and_the_python() -> None:
    assets = site_assets(ROOT)
    assert assets["assets/pyodide/pyodide.asm.wasm"] == ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"
    assert assets["assets/layermap/calculator.js"] == ROOT / "generator" / "assets" / "calculator.js"
    assert assets["assets/layermap/calc-worker.js"] == ROOT / "generator" / "assets" / "calc-worker.js"
    assert assets["assets/layermap/calculator.css"] == ROOT / "calcview" / "calculator.css"
    assert assets["assets/py/calculators/parallelism.py"] == ROOT / "calculators" / "parallelism.py"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide-lock.json"):
        assert f"assets/pyodide/{name}" in assets
    assert "assets/py/calcview/form.py" not in assets  # build-time only: the worker never imports it
    assert all(source.is_file() for source in assets.values())


def test_the_runtime_comes_from_the_projects_own_npm_package(tmp_path: Path) -> None:
    with pytest.raises(LayermapError) as raised:
        site_assets(tmp_path)  # a project with no node_modules
    assert str(tmp_path / "node_modules" / "pyodide" / "pyodide.asm.wasm") in str(raised.value)
    assert "npm ci" in raised.value.hint


def test_every_module_the_glue_imports_is_shipped_with_it() -> None:
    """calculator.js imports its helpers as modules: a page whose glue misses one shows no calculator."""
    assets = site_assets(ROOT)
    shipped = {Path(path).name for path in assets if path.startswith("assets/layermap/") and path.endswith(".js")}
    imported = set()
    for name in shipped:
        text = (ROOT / "generator" / "assets" / name).read_text(encoding="utf-8")
        imported |= set(re.findall(r'from "\./([\w-]+\.js)"', text))
    assert imported and imported <= shipped
