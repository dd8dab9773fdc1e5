"""The typed model of what a calculator module declares: TITLE, INPUTS, OUTPUTS, PRESETS, SOURCES,
FIGURES and ASSUMPTIONS (calcview draws the page from them, so each key here is one calcview reads).

Each section is validated on its own, so that one bad section does not hide the problems of the
others; a pydantic error becomes a :class:`Problem` naming the field, what is wrong and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from generator.calculation import port
from generator.content.schema import Source

VOCABULARY = port.declaration_vocabulary()
OutputFormat = Literal[VOCABULARY["formats"]]  # type: ignore[valid-type] - calcview's formatters, by name
Name = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="a Python name, e.g. `peak_flops`")]
Text = Annotated[str, Field(min_length=1, pattern=r"\S", description="a non-empty text")]
Number = Annotated[StrictInt | StrictFloat, Field(allow_inf_nan=False)]


class Declaration(BaseModel):
    """Base of every declared record: unknown keys are mistakes (a misspelt ``defualt``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NumberInput(Declaration):
    name: Name
    label: Text
    control: Literal["number", "slider"]
    unit: str = ""
    help: str = ""
    min: Number
    max: Number
    step: Annotated[Number, Field(gt=0)]
    scale: Literal["linear", "log"] = "linear"
    factor: Annotated[Number, Field(gt=0)] = 1
    default: Number


class SelectOption(Declaration):
    value: Text
    label: Text


class SelectInput(Declaration):
    name: Name
    label: Text
    control: Literal["select"]
    unit: str = ""
    help: str = ""
    options: Annotated[list[SelectOption], Field(min_length=1)]
    default: str


Input = Annotated[NumberInput | SelectInput, Field(discriminator="control")]


class Output(Declaration):
    name: Name
    label: Text
    unit: str = ""
    format: OutputFormat = "number"
    announce: StrictBool = False
    endless: StrictBool = False


class PresetOption(Declaration):
    id: Text
    label: Text
    values: dict[Name, Number | str]
    source: Text
    missing: dict[str, str] = {}


class PresetGroup(Declaration):
    name: Name
    label: Text
    fields: Annotated[list[Name], Field(min_length=1)]
    options: Annotated[list[PresetOption], Field(min_length=1)]


class FigurePart(Declaration):
    value: Name
    label: Text


class MemoryBar(Declaration):
    kind: Literal["memory_bar"]
    name: Name
    title: str = ""
    parts: Annotated[list[FigurePart], Field(min_length=1)]
    capacity: Name
    format: OutputFormat = "bytes"
    words: dict[Literal[VOCABULARY["bar_words"]], Text] = {}  # type: ignore[valid-type]


class ShareBar(Declaration):
    kind: Literal["share_bar"]
    name: Name
    title: str = ""
    parts: Annotated[list[FigurePart], Field(min_length=1)]


class PipelineSchedule(Declaration):
    kind: Literal["pipeline_schedule"]
    name: Name
    title: str = ""
    stages: Name
    micro_batches: Name


class Curve(Declaration):
    kind: Literal["curve"]
    name: Name
    title: str = ""
    points: Name
    marks: Name
    x_format: OutputFormat = "number"
    y_format: OutputFormat = "number"
    x_label: str = ""
    y_label: str = ""


Figure = Annotated[MemoryBar | ShareBar | PipelineSchedule | Curve, Field(discriminator="kind")]


def _authors_as_list(record: Any) -> Any:
    """A calculator may write one author as a string; sources.yaml's records take a list."""
    if isinstance(record, dict) and isinstance(record.get("authors"), str):
        return {**record, "authors": [record["authors"]]}
    return record


SECTIONS: dict[str, TypeAdapter] = {
    "TITLE": TypeAdapter(Text),
    "INPUTS": TypeAdapter(Annotated[list[Input], Field(min_length=1)]),
    "OUTPUTS": TypeAdapter(Annotated[list[Output], Field(min_length=1)]),
    "PRESETS": TypeAdapter(list[PresetGroup]),
    "SOURCES": TypeAdapter(list[Annotated[Source, BeforeValidator(_authors_as_list)]]),
    "FIGURES": TypeAdapter(list[Figure]),
    "ASSUMPTIONS": TypeAdapter(list[Text]),
}
REQUIRED = ("TITLE", "INPUTS", "OUTPUTS")


@dataclass(frozen=True)
class Problem:
    """One mistake in a declaration: the path to the value, what is wrong and how to fix it."""

    path: tuple[str | int, ...]
    message: str
    hint: str


@dataclass
class Declarations:
    """What one calculator declares: each section as written (raw) and, when valid, as typed."""

    module: ModuleType
    raw: dict[str, Any]
    typed: dict[str, Any]


def dotted(path: tuple[str | int, ...]) -> str:
    """``("SOURCES", 2, "date")`` -> ``SOURCES[2].date``."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def read_declarations(module: ModuleType, sections: tuple[str, ...] | None = None) -> tuple[Declarations, list[Problem]]:
    """Every section the module declares (or only ``sections``), typed when valid; the problems of
    those that are not."""
    found, problems = Declarations(module, {}, {}), []
    for section in sections or SECTIONS:
        if not hasattr(module, section):
            if section in REQUIRED:
                problems.append(Problem((section,), f"the calculator declares no {section}",
                                        f"add `{section} = ...` to the module (see another calculator)"))
            continue
        found.raw[section] = getattr(module, section)
        try:
            found.typed[section] = SECTIONS[section].validate_python(found.raw[section])
        except ValidationError as error:
            problems += schema_problems(section, error, found.raw[section])
    if sections is None and not callable(getattr(module, "compute", None)):
        problems.append(Problem(("compute",), "the calculator has no `compute` function",
                                "define `def compute(**inputs) -> dict` returning a value for every output"))
    return found, problems


def _data_path(section: str, loc: tuple, data: Any) -> tuple[str | int, ...]:
    """The error's place in the declared data (pydantic adds union tags and validator names)."""
    path: list[str | int] = [section]
    for index, key in enumerate(loc):
        in_list = isinstance(data, (list, tuple)) and isinstance(key, int) and key < len(data)
        if in_list or (isinstance(data, dict) and key in data):
            data = data[key]
        elif index < len(loc) - 1 or not isinstance(key, str) or key == "[key]":
            continue  # a union's tag or a validator's name, not a key of the data
        path.append(key)  # a missing key is the last of the error's place
    return tuple(path)


FIELD_HINTS = {
    "date": "write the publication date as YYYY, YYYY-MM or YYYY-MM-DD, e.g. `\"date\": \"2024-03-18\"`",
    "INPUTS.control": "use `\"control\": \"number\"`, `\"slider\"` or `\"select\"` (the kinds of input calcview draws)",
    "FIGURES.kind": f"use one of the figure kinds calcview draws: {', '.join(VOCABULARY['figure_kinds'])}",
    "format": f"use one of the output formats: {', '.join(VOCABULARY['formats'])}",
}


def _hint(path: tuple[str | int, ...], error: dict) -> str:
    field = next((key for key in reversed(path) if isinstance(key, str)), "")
    if error["type"] == "union_tag_not_found":
        field = error["ctx"]["discriminator"].strip("'")
    hint = FIELD_HINTS.get(f"{path[0]}.{field}", FIELD_HINTS.get(field))
    if hint and error["type"] not in ("extra_forbidden", "missing"):
        return hint
    if error["type"] == "extra_forbidden":
        return f"remove `{field}`, or correct its spelling (see another calculator's {path[0]})"
    if error["type"] == "missing":
        return f"add `\"{field}\": ...` to this entry"
    if error["type"] in ("list_type", "too_short"):
        return f"write {path[0]} as a list with at least one entry" if len(path) == 1 else "give it at least one entry"
    return (error.get("ctx") or {}).get("fix") or "correct the value (see another calculator)"  # a schema rule's own fix


DATE_ERRORS = ("partial_date", "partial_date_not_in_calendar")


def _message(error: dict, path: tuple[str | int, ...]) -> str:
    value = error.get("input")
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:60] + "…"
    if error["type"] == "missing":
        return "a required key is missing"
    if error["type"] == "extra_forbidden":
        return "unknown key"
    if error["type"] == "union_tag_invalid":
        return f"unknown {'input' if path[0] == 'INPUTS' else 'figure'} kind `{error['ctx']['tag']}`"
    if error["type"] in DATE_ERRORS:  # the schema's partial-date rules (generator.content.schema)
        return f"{shown} is not a date: {error['msg']}"
    return f"{error['msg']} (got {shown})"


def schema_problems(section: str, error: ValidationError, data: Any) -> list[Problem]:
    """One problem per wrong value of a section."""
    found = []
    for item in error.errors():
        path = _data_path(section, item["loc"], data)
        if item["type"] == "union_tag_invalid":  # at the key that names the kind
            path = (*path, item["ctx"]["discriminator"].strip("'"))
        found.append(Problem(path, _message(item, path), _hint(path, item)))
    return found
