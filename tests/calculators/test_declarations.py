"""What every calculator module declares, checked for all of them at once.

Each module in calculators/ (but not the helpers whose names start with "_") must: import only
the standard library and the shared helpers; declare every compute() argument as an input and
nothing else; compute on its defaults and return every declared output; have presets that set
declared inputs, cite a declared source and are valid scenarios; and draw only known figure
kinds from values compute() returns.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

import calculators
from calcview.figures import FIGURE_KINDS
from calcview.values import FORMATTERS

NAMES = sorted(m.name for m in pkgutil.iter_modules(calculators.__path__) if not m.name.startswith("_"))
MODULES = [pytest.param(importlib.import_module(f"calculators.{name}"), id=name) for name in NAMES]
SHARED_HELPERS = {"calculators._checks", "calculators._datasheets", "calculators._moe"}


def defaults(module) -> dict:  # noqa: ANN001
    return {spec["name"]: spec["default"] for spec in module.INPUTS}


def test_the_calculators_are_found():
    assert {"parallelism", "allreduce", "ownership"} <= set(NAMES)


@pytest.mark.parametrize("module", MODULES)
def test_imports_only_the_standard_library_and_shared_helpers(module):
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {
        (f"{node.module}.{alias.name}" if node.module == "calculators" else node.module)
        if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    siblings = {f"calculators.{name}" for name in NAMES}  # a calculator may reuse another's functions
    outside = {name.split(".")[0] for name in imported - SHARED_HELPERS - siblings}
    assert outside <= set(sys.stdlib_module_names) | {"__future__"}


@pytest.mark.parametrize("module", MODULES)
def test_inputs_match_compute_and_defaults_give_every_output(module):
    names = [spec["name"] for spec in module.INPUTS]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(inspect.signature(module.compute).parameters)
    result = module.compute(**defaults(module))
    for output in module.OUTPUTS:
        assert output["name"] in result, output["name"]
        assert output.get("format", "number") in FORMATTERS, output


@pytest.mark.parametrize("module", MODULES)
def test_presets_set_declared_inputs_cite_declared_sources_and_compute(module):
    inputs = {spec["name"] for spec in module.INPUTS}
    sources = {source["id"] for source in getattr(module, "SOURCES", [])}
    for group in getattr(module, "PRESETS", []):
        assert set(group["fields"]) <= inputs, group["name"]
        for option in group["options"]:
            assert set(option["values"]) == set(group["fields"]), option["id"]
            assert option["source"] in sources, option["id"]
            module.compute(**{**defaults(module), **option["values"]})


@pytest.mark.parametrize("module", MODULES)
def test_figures_are_known_kinds_drawn_from_computed_values(module):
    result = module.compute(**defaults(module))
    for figure in getattr(module, "FIGURES", []):
        assert figure["kind"] in FIGURE_KINDS, figure["name"]
        FIGURE_KINDS[figure["kind"]](figure, result)  # draws without error on the defaults
