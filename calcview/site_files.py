"""Which Python files the browser's worker imports, and a guard on what they import.

The Python ships under assets/py/ of the built site (assets/py/calcview/…, assets/py/calculators/…):
the same files the build ran. The generator decides where every other file of a live calculator
goes (the Pyodide runtime, the glue): ``generator.calculation.port.site_assets``.
The worker learns which Python files to fetch from the calculator block itself
(``data-python-files``, written by render_form from calculator_python_files()): calcview, the
calculators package and that calculator with the helpers it imports, never the other
calculators. The site needs no extra manifest file.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

BROWSER_PACKAGES = ("calcview", "calculators")
BUILD_TIME_MODULES = ("calcview/form.py", "calcview/site_files.py")  # never imported by the worker
CALCULATORS_PACKAGE = "calculators"
PYTHON_PREFIX = "assets/py/"
PACKAGES_ROOT = Path(__file__).resolve().parent.parent  # holds calcview/ and calculators/
# In the standard library but absent or useless in Pyodide's default build.
UNAVAILABLE_IN_PYODIDE = frozenset(
    {"curses", "dbm", "ensurepip", "idlelib", "lzma", "multiprocessing", "readline", "sqlite3", "ssl", "subprocess", "tkinter", "turtle", "turtledemo", "venv"}
)


def browser_files(repo_root: Path) -> dict[str, Path]:
    """Site-relative path -> source file for every Python file the browser worker imports."""
    repo_root = Path(repo_root)
    files = {}
    for package in BROWSER_PACKAGES:
        for source in sorted((repo_root / package).rglob("*.py")):
            relative = source.relative_to(repo_root).as_posix()
            if "__pycache__" not in source.parts and relative not in BUILD_TIME_MODULES:
                files[PYTHON_PREFIX + relative] = source
    return files


def python_file_names(repo_root: Path = PACKAGES_ROOT) -> list[str]:
    """The browser's Python files relative to assets/py/ (what the worker fetches)."""
    return [path[len(PYTHON_PREFIX):] for path in browser_files(repo_root)]


def calculator_python_files(name: str, repo_root: Path = PACKAGES_ROOT) -> list[str]:
    """What the worker fetches for one calculator, relative to assets/py/: calcview, the
    calculators package's ``__init__.py``, the calculator's module and every module of the
    package it imports, directly or through another (e.g. ``_datasheets.py``, ``_checks.py``).
    A name with no module file (a test's stand-in) gets calcview and the package only."""
    names = python_file_names(repo_root)
    wanted = [f"{CALCULATORS_PACKAGE}/__init__.py"]
    waiting = [f"{CALCULATORS_PACKAGE}/{name}.py"]  # a module that is no file of the package adds nothing
    while waiting:
        module = waiting.pop()
        if module in names and module not in wanted:  # names imported from the package may be attributes
            wanted.append(module)
            waiting += package_imports(Path(repo_root) / module)
    return [n for n in names if not n.startswith(f"{CALCULATORS_PACKAGE}/")] + sorted(wanted)


def package_imports(path: Path) -> list[str]:
    """Modules of the calculators package a calculator module imports (absolute or relative),
    as paths relative to assets/py/: ``from calculators._checks import x``,
    ``from calculators import _checks``, ``from . import _checks``, ``import calculators._checks``."""
    found = []
    for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith(f"{CALCULATORS_PACKAGE}.")]
        elif isinstance(node, ast.ImportFrom):
            package = CALCULATORS_PACKAGE if node.level == 1 else node.module if node.level == 0 else None
            module = f"{package}.{node.module}" if node.level == 1 and node.module else package
            if module == CALCULATORS_PACKAGE:
                found += [f"{module}.{alias.name}" for alias in node.names]
            elif module and module.startswith(f"{CALCULATORS_PACKAGE}."):
                found.append(module)
    return [f"{name.replace('.', '/')}.py" for name in found if name.count(".") == 1]


def imported_top_names(tree: ast.AST) -> list[tuple[str, int]]:
    """(top-level module name, line) for every absolute import in a parsed module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.split(".")[0], node.lineno))
    return found


def check_browser_imports(sources, allowed_packages: tuple[str, ...] = BROWSER_PACKAGES) -> None:
    """Raise ValueError (file:line per offence) if a module imports beyond the stdlib and our packages.

    ``sources``: paths of Python files, or a dict whose values are paths (browser_files()).
    """
    paths = sources.values() if isinstance(sources, dict) else sources
    allowed = (set(sys.stdlib_module_names) - UNAVAILABLE_IN_PYODIDE) | set(allowed_packages) | {"__future__"}
    problems = []
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
        for name, line in imported_top_names(tree):
            if name not in allowed:
                problems.append(f"{path}:{line}: imports {name!r}, which the browser cannot load (allowed: the standard library and {', '.join(allowed_packages)})")
    if problems:
        raise ValueError("\n".join(problems))
