"""The generator's only door to ``calculators/`` and ``calcview/``: every other module asks here.

It names the calculators there are, imports one, evaluates it the way the page does, renders its
form with build-time numbers, and lists the files the browser needs to run it live."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

from pydantic import ValidationError

import calculators
import calcview
from calcview.evaluate import raw_from_values
from generator.content.schema import Source
from generator.errors import LayermapError


def calculator_module(name: str) -> ModuleType:
    return importlib.import_module(f"calculators.{name}")


def calculator_html(name: str, instance_id: str, values: dict) -> str:
    """The calculator's form with its outputs pre-computed in CPython (numbers before any script)."""
    return calcview.render_form(calculator_module(name), instance_id, values or None)


def calculator_names() -> list[str]:
    """The calculators there are: public modules of the ``calculators`` package."""
    return sorted(m.name for m in pkgutil.iter_modules(calculators.__path__) if not m.name.startswith("_"))


def calculator_sources(name: str) -> list[dict]:
    """Sources (datasheets) a calculator's presets cite, as plain dicts."""
    return list(getattr(calculator_module(name), "SOURCES", []))


def typed_calculator_sources(name: str) -> list:
    """The calculator's SOURCES as typed records, validated like sources.yaml's (authors may be one string)."""
    try:
        declared = calculator_sources(name)
    except Exception:  # noqa: BLE001 - a calculator that fails to import is reported by its check
        return []
    found = []
    for raw in declared:  # an invalid record is left out here and reported by the declarations' check
        try:
            authors = raw.get("authors", [])
            found.append(Source.model_validate({**raw, "authors": [authors] if isinstance(authors, str) else authors}))
        except (ValidationError, AttributeError):
            continue
    return found


def declaration_vocabulary() -> dict[str, tuple[str, ...]]:
    """The words calcview understands in a declaration: output formats, figure kinds, and the
    sentences a memory bar's ``words`` may replace."""
    from calcview.figures import BAR_WORDS, FIGURE_KINDS
    from calcview.values import FORMATTERS

    return {"formats": tuple(FORMATTERS), "figure_kinds": tuple(FIGURE_KINDS), "bar_words": tuple(BAR_WORDS)}


CALCULATOR_STYLES = "assets/layermap/calculator.css"
PACKAGE_ROOT = Path(calcview.__file__).resolve().parent.parent  # holds calcview/ and calculators/
SCRIPTS = Path(__file__).resolve().parent.parent / "assets"  # generator/assets: the browser code
CALCULATOR_GLUE = {  # site path -> source: the page's glue with the modules it imports, the worker it starts, their styles
    **{f"assets/layermap/{name}": SCRIPTS / name
       for name in ("calculator.js", "boot.js", "calc-runtime.js", "calc-figure.js", "calc-text.js", "calc-worker.js")},
    CALCULATOR_STYLES: PACKAGE_ROOT / "calcview" / "calculator.css",
}
PYODIDE_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def site_assets(project_root: Path) -> dict[str, Path]:
    """Site path -> source of every file live calculators need: the one place that decides it, for
    the build and the tests alike. The Pyodide runtime under assets/pyodide/ (from the project's
    pinned npm package), the glue under assets/layermap/, and under assets/py/ the Python files
    the worker imports, checked to use only what Pyodide's standard library has."""
    python = calcview.browser_files(PACKAGE_ROOT)  # glue and Python ship with layermap itself
    try:
        calcview.check_browser_imports(python.values())
    except ValueError as error:
        raise LayermapError(f"a calculator cannot run in the browser: {error}",
                            "import only the standard library in calculators/ and calcview/") from None
    runtime = Path(project_root) / "node_modules" / "pyodide"
    files = {**{f"assets/pyodide/{name}": runtime / name for name in PYODIDE_RUNTIME}, **CALCULATOR_GLUE, **python}
    missing = sorted(str(source) for source in files.values() if not source.is_file())
    if missing:
        raise LayermapError(f"files the live calculators need are missing: {', '.join(missing)}",
                            "run `npm ci` in the project folder (it installs the pinned pyodide package)")
    return files


def calculator_display(name: str, output: str, inputs: dict) -> str:
    """One output of a calculator for the given inputs (defaults elsewhere), as it is displayed."""
    module = calculator_module(name)
    result = calcview.evaluate(module, calcview_raw(module, inputs))
    if not result["ok"]:
        raise ValueError("; ".join(result["errors"].values()))
    if output not in result["display"]:
        raise ValueError(f"`{name}` has no output `{output}` (outputs: {', '.join(result['display'])})")
    return result["display"][output]


def calcview_raw(module: ModuleType, inputs: dict) -> dict[str, str]:
    """Form text for a scenario given in base units (numbers) or option values (text)."""
    return raw_from_values(module, inputs)


def page_evaluation(module: ModuleType, inputs: dict) -> tuple[dict[str, str], dict]:
    """What the page holds and shows for a scenario given as in ``calcview_raw``: the form text it
    sets, and ``calcview.evaluate`` of that text (the same call the browser's worker makes), whose
    ``values`` are the numbers compute() gives for the text as parsed. ValueError if no text can
    say the scenario (an unknown input, a number too large)."""
    raw = calcview_raw(module, inputs)
    return raw, calcview.evaluate(module, raw)

