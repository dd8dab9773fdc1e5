"""The layering the project promises, checked on the source itself.

- calculators/ and calcview/ import only the standard library (and their own package);
  they run unchanged in Pyodide and know nothing of the generator;
- calcview never imports a calculator: it is handed calculator modules;
- nothing imports the CLI;
- inside generator/, only the calculator bridge talks to calculators and calcview.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def python_files(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def imports(path: Path) -> set[str]:
    """Absolute module names a file imports (relative imports resolved within its package)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}  # `from a import b` may import a.b
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                found.add(str(arg.values[0].value).rstrip("."))
    return found


def top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("path", python_files("calculators"), ids=lambda p: p.name)
def test_calculators_import_only_the_standard_library(path: Path) -> None:
    outside = {name for name in imports(path) if top(name) not in STDLIB | {"calculators"}}
    assert outside == set()


@pytest.mark.parametrize("path", python_files("calcview"), ids=lambda p: p.name)
def test_calcview_imports_only_the_standard_library_and_itself(path: Path) -> None:
    outside = {name for name in imports(path) if top(name) not in STDLIB | {"calcview"}}
    assert outside == set()


def test_nothing_imports_the_cli() -> None:
    importers = [
        str(path.relative_to(ROOT))
        for package in ("generator", "calculators", "calcview")
        for path in python_files(package)
        if path.name != "cli.py" and any(name == "generator.cli" for name in imports(path))
    ]
    assert importers == []


def test_only_the_bridge_reaches_calculators_and_calcview() -> None:
    reaching = sorted(
        str(path.relative_to(ROOT))
        for path in python_files("generator")
        if any(top(name) in ("calculators", "calcview") for name in imports(path))
    )
    assert reaching == ["generator/calculator_bridge.py"]


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The import scanner itself must notice what these rules forbid."""
    sample = ROOT / "calculators" / "_architecture_probe.py"
    try:
        sample.write_text("import numpy\nfrom generator import cli\nfrom . import _checks\n")
        found = imports(sample)
    finally:
        sample.unlink()
    assert {"numpy", "generator.cli", "calculators._checks"} <= found
