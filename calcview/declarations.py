"""Checks of what a calculator module declares, for ``layermap check`` (build time only).

Each problem is a pair (what is wrong, how to fix it) naming the declaration and the field.
Standard library only. The generator no longer calls this: generator/calculator_declarations.py
makes every one of these checks (and more) on a typed model, at the calculator file's lines. It
stays until the site may change, since removing it changes calcview/__init__.py, which the
browser fetches.
"""

from __future__ import annotations

Problem = tuple[str, str]


def option_problems(group: dict, option: dict, sources: set[str]) -> list[Problem]:
    """One preset option: a value for every field of its group, and a declared source."""
    where = f"preset `{group['name']}` option `{option['id']}`"
    missing = option.get("missing", {})
    problems = []
    for field in group["fields"]:
        if field in option["values"]:
            continue
        fact = missing.get(field)
        if fact:
            problems.append((f"{where} has no value for `{field}`: its datasheet entry gives no `{fact}`",
                             f"add the `{fact}` figure (with its source) to `{option['id']}` in "
                             f"calculators/_datasheets.py, or leave `{option['id']}` out of this preset"))
        else:
            problems.append((f"{where} has no value for `{field}`", f"add `{field}` to the option's values"))
    if option.get("source") not in sources:
        problems.append((f"{where} cites `{option.get('source')}`, which is not in SOURCES",
                         "add that source to the calculator's SOURCES"))
    return problems


def preset_problems(module: object) -> list[Problem]:
    """Preset groups that set unknown inputs, and options that leave a field unset."""
    inputs = {spec["name"] for spec in module.INPUTS}
    sources = {source["id"] for source in getattr(module, "SOURCES", [])}
    problems = []
    for group in getattr(module, "PRESETS", []):
        for field in group["fields"]:
            if field not in inputs:
                problems.append((f"preset `{group['name']}` sets `{field}`, which is not an input",
                                 f"use one of: {', '.join(sorted(inputs))}"))
        for option in group["options"]:
            problems += option_problems(group, option, sources)
    return problems


def assumption_problems(module: object) -> list[Problem]:
    """ASSUMPTIONS must be a list of sentences (shown on the page under the calculator)."""
    assumptions = getattr(module, "ASSUMPTIONS", [])
    if not isinstance(assumptions, list) or not all(isinstance(text, str) and text.strip() for text in assumptions):
        return [("ASSUMPTIONS is not a list of sentences", "write ASSUMPTIONS as a list of non-empty strings")]
    return []


def declaration_problems(module: object) -> list[Problem]:
    """Every problem of a calculator's declarations (empty when it is well declared)."""
    return [*preset_problems(module), *assumption_problems(module)]
