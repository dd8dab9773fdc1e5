"""A calculator's declarations checked against each other and against what ``compute()`` returns.

The typed model (calculator_declaration_model) says each entry is well formed; these checks say the
entries fit together: names are unique, defaults lie in their input's range, presets set inputs that
exist to values they accept and cite a declared source, and every output and every value a figure
draws is one that ``compute()`` returns at the defaults.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Iterable, Iterator
from typing import Any

from generator.checks.calculator_declarations.model import (
    Curve,
    Declarations,
    MemoryBar,
    NumberInput,
    PipelineSchedule,
    PresetGroup,
    Problem,
    SelectInput,
    dotted,
)

Path_ = tuple[str | int, ...]
UNIQUE = {"INPUTS": "name", "OUTPUTS": "name", "PRESETS": "name", "SOURCES": "id", "FIGURES": "name"}
BAR_PLACEHOLDERS = {"needed", "capacity", "over", "breakdown"}  # what calcview.figures.memory_bar fills in


def _suggest(word: str, choices: Iterable[str]) -> str:
    choices = sorted(choices)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else f"use one of: {', '.join(choices)}"


def _bound(number: float) -> str:
    return f"{number:,g}"


def duplicates(items: list[Any], key: str, path: Path_) -> Iterator[Problem]:
    """An entry whose ``key`` an earlier entry of the same list already has."""
    first: dict[object, int] = {}
    for index, item in enumerate(items):
        value = getattr(item, key)
        if value in first:
            yield Problem((*path, index, key), f"`{value}` is declared twice (also at {dotted((*path, first[value]))})",
                          f"give each entry of {dotted(path)} its own `{key}`, or remove one of them")
        first.setdefault(value, index)


def duplicate_problems(typed: dict[str, Any]) -> Iterator[Problem]:
    for section, key in UNIQUE.items():
        yield from duplicates(typed.get(section, []), key, (section,))
    for index, spec in enumerate(typed.get("INPUTS", [])):
        if isinstance(spec, SelectInput):
            yield from duplicates(spec.options, "value", ("INPUTS", index, "options"))
    for index, group in enumerate(typed.get("PRESETS", [])):
        yield from duplicates(group.options, "id", ("PRESETS", index, "options"))


def value_problem(spec: NumberInput | SelectInput, value: object) -> str | None:
    """Why an input cannot take ``value`` (in base units), or None when it can."""
    if isinstance(spec, SelectInput):
        allowed = [option.value for option in spec.options]
        return None if value in allowed else f"{value!r} is not one of the options ({', '.join(allowed)})"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{value!r} is not a number"
    shown = value / spec.factor
    if not spec.min <= shown <= spec.max:
        unit = f" {spec.unit}" if spec.unit else ""
        scaled = f" (÷ factor {_bound(spec.factor)})" if spec.factor != 1 else ""
        return f"{_bound(shown)}{unit}{scaled} is outside the input's range {_bound(spec.min)} to {_bound(spec.max)}"
    return None


def input_problems(inputs: list[NumberInput | SelectInput]) -> Iterator[Problem]:
    """Ranges that hold no number, log scales through zero, defaults the input refuses."""
    for index, spec in enumerate(inputs):
        path = ("INPUTS", index)
        if isinstance(spec, NumberInput) and spec.min > spec.max:
            yield Problem((*path, "max"), f"max {_bound(spec.max)} is below min {_bound(spec.min)}", "make min ≤ max")
            continue
        if isinstance(spec, NumberInput) and spec.scale == "log" and spec.min <= 0:
            yield Problem((*path, "min"), f"a log-scale input needs min > 0 (got {_bound(spec.min)})",
                          'raise min above 0, or use `"scale": "linear"`')
        problem = value_problem(spec, spec.default)
        if problem:
            yield Problem((*path, "default"), f"the default of `{spec.name}`: {problem}",
                          "give a default the input accepts (numbers in base units: displayed value × factor)")


def option_problems(group: PresetGroup, path: Path_, specs: dict[str, Any], sources: set[str]) -> Iterator[Problem]:
    """One group's options: a value for every field, only for its fields, each one its input takes."""
    for index, option in enumerate(group.options):
        where, at = f"preset `{group.name}` option `{option.id}`", (*path, "options", index)
        for field in [f for f in group.fields if f not in option.values]:
            fact = option.missing.get(field)
            if fact:
                yield Problem((*at, "values"), f"{where} has no value for `{field}`: its datasheet entry gives no `{fact}`",
                              f"add the `{fact}` figure (with its source) to `{option.id}` in "
                              f"calculators/_datasheets.py, or leave `{option.id}` out of this preset")
            else:
                yield Problem((*at, "values"), f"{where} has no value for `{field}`", f"add `{field}` to the option's values")
        for name, value in option.values.items():
            if name not in group.fields:
                yield Problem((*at, "values", name), f"{where} sets `{name}`, which is not one of the preset's fields",
                              f"add `{name}` to the preset's fields, or remove it from the option")
            elif name in specs and (problem := value_problem(specs[name], value)):
                yield Problem((*at, "values", name), f"{where} sets `{name}` to a value its input refuses: {problem}",
                              "correct the value, or widen the input's min and max if the value is right")
        if option.source not in sources:
            yield Problem((*at, "source"), f"{where} cites `{option.source}`, which is not in SOURCES",
                          "add that source to the calculator's SOURCES")


def preset_problems(presets: list[PresetGroup], inputs: list[Any], sources: set[str]) -> Iterator[Problem]:
    """Preset groups that set unknown inputs, and options that leave a field unset or set it wrong."""
    specs = {spec.name: spec for spec in inputs}
    for index, group in enumerate(presets):
        for position, field in enumerate(group.fields):
            if field not in specs:
                yield Problem(("PRESETS", index, "fields", position), f"preset `{group.name}` sets `{field}`, which is not an input",
                              _suggest(field, specs))
        yield from option_problems(group, ("PRESETS", index), specs, sources)


def drawn_values(figure: Any) -> list[tuple[Path_, str]]:
    """The values a figure draws, each with its place in the figure's declaration."""
    if isinstance(figure, PipelineSchedule):
        return [(("stages",), figure.stages), (("micro_batches",), figure.micro_batches)]
    if isinstance(figure, Curve):
        return [(("points",), figure.points), (("marks",), figure.marks)]
    parts = [(("parts", index, "value"), part.value) for index, part in enumerate(figure.parts)]
    return [*parts, (("capacity",), figure.capacity)] if isinstance(figure, MemoryBar) else parts


def word_problems(figures: list[Any]) -> Iterator[Problem]:
    """A memory bar's sentence templates may use only the blanks the drawing fills in."""
    for index, figure in enumerate(figures):
        for key, template in (figure.words.items() if isinstance(figure, MemoryBar) else ()):
            blanks = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
            for blank in sorted(blanks - BAR_PLACEHOLDERS):
                yield Problem(("FIGURES", index, "words", key), f"the template uses `{{{blank}}}`, which the drawing does not fill in",
                              f"use only {', '.join('{' + name + '}' for name in sorted(BAR_PLACEHOLDERS))}")


def result_problems(module: object, inputs: list[Any], outputs: list[Any], figures: list[Any]) -> Iterator[Problem]:
    """Outputs and drawn values that ``compute()`` does not return at the declared defaults."""
    try:
        values = module.compute(**{spec.name: spec.default for spec in inputs})  # type: ignore[attr-defined]
    except Exception as error:  # noqa: BLE001 - any failure is the calculator's, reported at its compute
        yield Problem(("compute",), f"compute() fails at the declared defaults: {type(error).__name__}: {error}",
                      "make the defaults a scenario compute() accepts, or fix compute()")
        return
    if not isinstance(values, dict):
        yield Problem(("compute",), f"compute() returns {type(values).__name__}, not a dict", "return a dict of values by name")
        return
    for index, spec in enumerate(outputs):
        if spec.name not in values:
            yield Problem(("OUTPUTS", index, "name"), f"compute() returns no value `{spec.name}` (at the defaults)",
                          f"return `{spec.name}` from compute(), or {_suggest(spec.name, map(str, values))}")
    for index, figure in enumerate(figures):
        for path, name in drawn_values(figure):
            if name not in values:
                yield Problem(("FIGURES", index, *path), f"figure `{figure.name}` draws `{name}`, which compute() does not return",
                              _suggest(name, map(str, values)))


def reference_problems(declarations: Declarations) -> list[Problem]:
    """Every cross-reference problem among the sections that are well formed."""
    typed, raw = declarations.typed, declarations.raw
    found = [*duplicate_problems(typed), *word_problems(typed.get("FIGURES", []))]
    if "INPUTS" not in typed:
        return found
    inputs = typed["INPUTS"]
    found += input_problems(inputs)
    declared = raw.get("SOURCES", [])
    sources = {source.get("id") for source in declared if isinstance(source, dict)} if isinstance(declared, list) else set()
    found += preset_problems(typed.get("PRESETS", []), inputs, sources)
    if "OUTPUTS" in typed:  # figures are checked only when their section is well formed
        found += result_problems(declarations.module, inputs, typed["OUTPUTS"], typed.get("FIGURES", []))
    return found
