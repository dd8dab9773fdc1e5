"""Which files the built site needs for live calculators, and a guard on what they import.

Site layout (paths relative to the site root):
  assets/pyodide/…                the Pyodide runtime, copied from node_modules/pyodide
  assets/layermap/calculator.js   page glue (ES module) with the modules it imports (boot.js, calc-*.js),
                                  calc-worker.js (module worker),
  assets/layermap/calculator.css  styles for the calculator block and its figures
  assets/py/calcview/…, assets/py/calculators/…   the same Python the build ran
The worker learns which Python files to fetch from the calculator block itself
(``data-python-files``, written by render_form from calculator_python_files()): calcview, the
calculators package and that calculator with the helpers it imports, never the other
calculators. The site needs no extra manifest file.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

BROWSER_PACKAGES = ("calcview", "calculators")
BUILD_TIME_MODULES = ("calcview/form.py", "calcview/site_files.py", "calcview/declarations.py")  # never imported by the worker
CALCULATORS_PACKAGE = "calculators"
PYTHON_PREFIX = "assets/py/"
PACKAGES_ROOT = Path(__file__).resolve().parent.parent  # holds calcview/ and calculators/
PYODIDE_PREFIX = "assets/pyodide/"
PYODIDE_RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
GLUE_FILES = {
    "assets/layermap/calculator.js": "generator/assets/calculator.js",
    "assets/layermap/calc-worker.js": "generator/assets/calc-worker.js",
    "assets/layermap/boot.js": "generator/assets/boot.js",
    "assets/layermap/calc-runtime.js": "generator/assets/calc-runtime.js",
    "assets/layermap/calc-figure.js": "generator/assets/calc-figure.js",
    "assets/layermap/calc-text.js": "generator/assets/calc-text.js",
    "assets/layermap/calculator.css": "calcview/calculator.css",
}
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


def site_assets(repo_root: Path) -> dict[str, Path]:
    """Every static file live calculators need: Pyodide runtime, JS/CSS glue and Python sources."""
    repo_root = Path(repo_root)
    runtime = {PYODIDE_PREFIX + name: repo_root / "node_modules" / "pyodide" / name for name in PYODIDE_RUNTIME_FILES}
    glue = {site_path: repo_root / source for site_path, source in GLUE_FILES.items()}
    return {**runtime, **glue, **browser_files(repo_root)}


def write_site_assets(repo_root: Path, site_dir: Path) -> list[str]:
    """Copy site_assets() into a built site; returns the site paths written.

    Checks imports first, so a calculator that would fail in the browser fails the build.
    """
    check_browser_imports(browser_files(repo_root).values())
    written = []
    for site_path, source in site_assets(repo_root).items():
        if not source.is_file():
            raise FileNotFoundError(f"{source}: needed at {site_path} (run `npm ci` for the Pyodide files)")
        target = Path(site_dir) / site_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(site_path)
    return written


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
