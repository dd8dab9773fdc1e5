"""The layering the project promises, checked by import-linter on every test run.

The contracts live in pyproject.toml (``[tool.importlinter]``): generator/ is a pipeline whose
stages import only the stages below them (cli → pipeline → emit → render → model → checks →
calculation → content); only ``generator.calculation.port`` reaches calculators/ and calcview/;
those two import only the standard library; calcview never imports a calculator; and no package
has an import circle. The tests below also break a copy of the code on purpose, to show that each
kind of contract would catch it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=project, capture_output=True, text=True, timeout=300)


def test_the_code_keeps_every_contract() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    assert verdict(result.stdout, "no import circle") == "KEPT"


@pytest.fixture()
def copy_of_the_code(tmp_path: Path) -> Path:
    for package in ("generator", "calculators", "calcview"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "assets"))
    shutil.copytree(ROOT / "tests" / "architecture", tmp_path / "tests" / "architecture")
    (tmp_path / "tests" / "__init__.py").write_text("")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def add_import(module: Path, statement: str) -> None:
    text = module.read_text(encoding="utf-8")
    module.write_text(text.replace("from __future__ import annotations\n", f"from __future__ import annotations\n\n{statement}\n", 1))


@pytest.mark.parametrize(("module", "statement", "broken"), [
    ("generator/content/schema.py", "import generator.render.pages", "each stage imports only the stages below it"),
    ("generator/checks/lints.py", "import generator.model.graph", "each stage imports only the stages below it"),
    ("generator/render/topic.py", "import calcview", "only the calculator port reaches"),
    ("generator/checks/references.py", "import calculators.serving", "only the calculator port reaches"),
    ("generator/diagnostics.py", "import generator.content.schema", "import no stage"),
    ("calculators/serving.py", "import yaml", "import only the standard library"),
    ("calculators/serving.py", "import generator.errors", "import only the standard library"),
    ("calcview/form.py", "import calculators.serving", "calcview never imports a calculator"),
    ("generator/content/yaml_source.py", "import generator.content.loading", "no import circle"),
])
def test_a_forbidden_import_breaks_a_contract(copy_of_the_code: Path, module: str, statement: str, broken: str) -> None:
    add_import(copy_of_the_code / module, statement)
    result = lint_imports(copy_of_the_code)
    assert result.returncode != 0
    assert verdict(result.stdout, broken) == "BROKEN"


def verdict(report: str, contract: str) -> str:
    """KEPT or BROKEN: the word that follows a contract's name in lint-imports' summary."""
    summary = " ".join(report.split("Analyzed", 1)[-1].split())  # names may wrap over two lines
    after = summary[summary.index(contract):]
    return min(("KEPT", "BROKEN"), key=lambda word: after.find(word) if word in after else len(after))


# --- module size (issue 32): the tool's code stays in modules a reader takes in at once ---------------

MAX_MODULE_LINES = 350


def test_no_module_of_the_generator_is_over_350_lines() -> None:
    """generator/ only: the calculators are long because their presets are data, read as tables."""
    long = {path.relative_to(ROOT).as_posix(): n for path in sorted((ROOT / "generator").rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


ENGINE_PACKAGES = ("mkdocs", "material", "properdocs")
ENGINE_DOOR = ROOT / "generator" / "emit" / "engine"


def engine_imports(path: Path) -> list[str]:
    """The imports of the site engine's packages anywhere in a module (at its top or inside a function)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names if name.split(".")[0] in ENGINE_PACKAGES]
    return found


def test_only_the_engine_package_imports_the_engine() -> None:
    """One door: MkDocs, ProperDocs and Material are imported only inside generator/emit/engine/."""
    outside = [hit for path in sorted((ROOT / "generator").rglob("*.py"))
               if ENGINE_DOOR not in path.parents for hit in engine_imports(path)]
    assert outside == []
    inside = [hit for path in sorted(ENGINE_DOOR.rglob("*.py")) for hit in engine_imports(path)]
    assert len(inside) > 5  # the door is where the engine is used: the check looks at the right things
