"""Turn pydantic's validation errors into editor-friendly diagnostics."""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.diagnostics import Diagnostic
from generator.schema import DEPTH_KEYS, Depths
from generator.yaml_source import KeyPath, YamlDocument

_TYPE_WORDS = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "a list (lines starting with `- `)",
    "dict_type": "a mapping (`key: value` lines)",
    "model_type": "a mapping (`key: value` lines)",
    "model_attributes_type": "a mapping (`key: value` lines)",
    "bool_type": "true or false",
}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number `{value}`"
    text = str(value)
    return f"`{text[:40]}…`" if len(text) > 40 else f"`{text}`"


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete classes an annotation may hold (Optional, Annotated, list unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [c for arg in typing.get_args(annotation) for c in _unwrap(arg)]
    return [annotation]


def model_at(root: type[BaseModel], path: KeyPath) -> type[BaseModel] | None:
    """The model class that a key path inside ``root`` points into."""
    current: Any = root
    for step in path:
        if isinstance(step, int):
            candidates = [typing.get_args(c)[0] for c in _unwrap(current) if typing.get_origin(c) is list]
        else:
            models = [c for c in _unwrap(current) if isinstance(c, type) and issubclass(c, BaseModel)]
            if not models or step not in models[0].model_fields:
                return None
            candidates = [models[0].model_fields[step].annotation]
        if not candidates:
            return None
        current = candidates[0]
    models = [c for c in _unwrap(current) if isinstance(c, type) and issubclass(c, BaseModel)]
    return models[0] if models else None


def dotted(path: KeyPath) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _unknown_key(root: type[BaseModel], path: KeyPath) -> tuple[str, str]:
    key = str(path[-1])
    parent = model_at(root, path[:-1])
    if parent is Depths or (parent is None and len(path) >= 2 and path[-2] == "depths"):
        return (f"depth `{key}` is outside D1–D5", f"use one of {', '.join(DEPTH_KEYS)}")
    allowed = sorted(parent.model_fields) if parent else []
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"unknown key `{key}`", f"did you mean `{close[0]}`?"
    return f"unknown key `{key}`", f"remove it, or use one of: {', '.join(allowed)}"


def _message(root: type[BaseModel], error: dict[str, Any], path: KeyPath) -> tuple[str, str]:
    kind, value = error["type"], error.get("input")
    if kind == "extra_forbidden":
        return _unknown_key(root, path)
    if kind == "missing":
        return (f"missing required field `{path[-1]}`", f"add `{path[-1]}: …` here")
    if kind in ("date_from_datetime_parsing", "date_parsing", "date_type"):
        return (f"{_describe(value)} is not a valid date", "write the date as YYYY-MM-DD, e.g. 2026-10-30")
    if kind in _TYPE_WORDS:
        return (f"expected {_TYPE_WORDS[kind]}, got {_describe(value)}", "")
    if kind == "string_pattern_mismatch":
        return (f"{_describe(value)} has the wrong form", _pattern_hint(root, path))
    if kind == "literal_error":
        return (f"{_describe(value)} is not allowed", error["msg"].replace("Input should be", "use"))
    if kind == "value_error":
        return (f"{_describe(value)} {error['msg'].removeprefix('Value error, ')}", "")
    if kind in ("too_short", "string_too_short"):
        return (f"is empty or too short: {error['msg'].lower()}", "fill it in, or remove the key")
    return (error["msg"], "")


def _pattern_hint(root: type[BaseModel], path: KeyPath) -> str:
    parent = model_at(root, path[:-1])
    field = parent.model_fields.get(str(path[-1])) if parent else None
    return (field.description or "") if field else ""


def diagnostics_from(
    error: ValidationError, root: type[BaseModel], doc: YamlDocument, file: str
) -> list[Diagnostic]:
    """One diagnostic per pydantic error, placed at the key or value it concerns."""
    found = []
    for item in error.errors():
        path = tuple(step for step in item["loc"] if not isinstance(step, str) or not step.startswith("function-"))
        path = tuple(p for p in path if p not in ("str", "int", "float", "list[str]"))
        message, hint = _message(root, item, path)
        where = doc.key_positions.get(path) if item["type"] == "extra_forbidden" else None
        where = where or doc.position(path if item["type"] != "missing" else path[:-1])
        found.append(Diagnostic(file, where.line, where.column, "error", dotted(path), message, hint))
    return found
