"""Calculator declarations checked at ``layermap check`` time, at the lines that declare them.

A calculator declares its form as data (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES, ASSUMPTIONS);
calcview draws the page from it at build. The declarations are read through the calculator bridge,
validated by the typed model (generator/checks/calculator_declarations/model.py) and checked against each
other and against what ``compute()`` returns at the defaults
(generator/checks/calculator_declarations/references.py). Every problem is a diagnostic at the line of the
calculator's file that declares it, naming the field (``SOURCES[2].date``), what is wrong and how to
fix it: no bad declaration reaches rendering, where it would end the build as an internal error.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from generator.calculation import port
from generator.checks.calculator_declarations.lines import declaration_place
from generator.checks.calculator_declarations.model import Problem, dotted, read_declarations
from generator.checks.calculator_declarations.references import (
    duplicate_problems,
    reference_problems,
)
from generator.diagnostics import Diagnostic, relative_name


def calculator_file(module: ModuleType) -> Path:
    return Path(getattr(module, "__file__", "") or "calculators")


def _diagnostic(module: ModuleType, declarations: dict[str, Any], problem: Problem) -> Diagnostic:
    record_id = _record_id(declarations, problem.path)
    shared = tuple(sorted((port.PACKAGE_ROOT / "calculators").glob("_*.py")))
    place = declaration_place(calculator_file(module), problem.path, record_id, shared)
    file = relative_name(place.file, port.PACKAGE_ROOT)
    return Diagnostic.error(file, place, dotted(problem.path), problem.message, problem.hint)


def _record_id(raw: dict[str, Any], path: tuple[str | int, ...]) -> str | None:
    """The ``id`` of the deepest record the path goes through (a source or a preset option)."""
    found, node = None, raw
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            found = node["id"]
    return found


def check_calculator(name: str, sections: tuple[str, ...] | None = None) -> list[Diagnostic]:
    """Every problem of one calculator's declarations (or only of ``sections``, each on its own),
    at the lines of its file that declare them."""
    try:
        module = port.calculator_module(name)
    except Exception as error:  # noqa: BLE001 - any failure to import is the calculator's, reported
        return [Diagnostic.error(f"calculators/{name}.py", None, "",
                                 f"the calculator `{name}` cannot be imported: {type(error).__name__}: {error}",
                                 "run `python -c 'import calculators." + name + "'` to see where it fails, and fix it")]
    declarations, problems = read_declarations(module, sections)
    problems += reference_problems(declarations) if sections is None else duplicate_problems(declarations.typed)
    if sections is None and not problems:
        problems += drawing_problems(name)
    return sorted({_diagnostic(module, declarations.raw, p) for p in problems})


def drawing_problems(name: str) -> list[Problem]:
    """The last safety net: the calculator drawn at its defaults as the page draws it (outputs
    formatted, figures drawn), so that what no check above foresaw is still a diagnostic."""
    try:
        port.calculator_html(name, f"calc-{name}-check", {})
    except Exception as error:  # noqa: BLE001 - whatever fails here would fail the build
        return [Problem(("compute",), f"the calculator cannot be drawn at its defaults: {type(error).__name__}: {error}",
                        "check that compute() returns, for each output and each value a figure draws, "
                        "the kind of value its format or figure expects (a number, or a list for a curve)")]
    return []


def check_calculators(used: set[str]) -> list[Diagnostic]:
    """Every declaration of the calculators the content uses, and the SOURCES of the others (they
    join the bibliography all the same: a topic may cite them)."""
    found = []
    for name in port.calculator_names():
        found += check_calculator(name) if name in used else check_calculator(name, ("SOURCES",))
    return found
