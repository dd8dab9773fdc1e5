"""Turn a calculator's declaration and raw form values into what a reader sees.

Standard library only: the same files run in CPython at build time and in Pyodide in the
reader's browser. Public API:

- ``evaluate(module, raw) -> dict``: parse, compute, format, draw (plain data for JS).
- ``evaluate_json(module, raw_json) -> str``: the same across the browser worker's boundary.
- ``render_form(module, instance_id, values=None) -> str``: the calculator's HTML block.
- ``browser_files(repo_root)``, ``check_browser_imports(sources)``: the Python shipped to the
  browser (the generator adds the Pyodide runtime and the glue: ``generator.calculation.port``).

How a site uses it (what the generator does):

1. Page: ``render_form(module, "calc-<name>-<depth>", values)`` and put the result in the
   Markdown with a blank line before and after (one raw HTML block; it keeps its structure
   inside ``<section markdown>`` too). It already lists the Python files the worker fetches
   for that calculator (``calculator_python_files``).
2. Files: copy the generator's ``site_assets(project_root)`` into the docs folder (Pyodide
   runtime under assets/pyodide/, calculator.js, calc-worker.js and calculator.css under
   assets/layermap/, ``browser_files`` under assets/py/).
3. Config: ``extra_javascript: [{path: assets/layermap/calculator.js, type: module}]`` and
   ``extra_css: [assets/layermap/calculator.css]``. calculator.js finds everything else from
   its own URL, so the site may live under a sub-path; it starts the worker only on pages
   with a calculator, once the page is idle (or when one is touched first).
"""

import importlib

from .evaluate import default_raw, evaluate, evaluate_json
from .figures import draw_figures
from .values import format_input, format_output, parse_input

# Build-time only: rendering the form and shipping files need html, pathlib, shutil and ast,
# which the browser worker should not pay to import (nor fetch: see BUILD_TIME_MODULES).
_BUILD_TIME_NAMES = {
    "render_form": ".form",
    "browser_files": ".site_files",
    "check_browser_imports": ".site_files",
    "python_file_names": ".site_files",
    "calculator_python_files": ".site_files",
}


def __getattr__(name: str):
    if name in _BUILD_TIME_NAMES:
        return getattr(importlib.import_module(_BUILD_TIME_NAMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "browser_files",
    "calculator_python_files",
    "check_browser_imports",
    "default_raw",
    "draw_figures",
    "evaluate",
    "evaluate_json",
    "format_input",
    "format_output",
    "parse_input",
    "python_file_names",
    "render_form",
]
