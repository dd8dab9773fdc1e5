"""Turn pydantic's validation errors into editor-friendly diagnostics.

Each diagnostic says what is wrong and how to fix it, and stands at the key or
value it concerns.  Pydantic's own vocabulary never reaches the editor: union
branch names (``str``, ``constrained-str``, ``function-after[…]``) are dropped
from key paths, the errors of one value's union branches become one message,
and a missing field that is only misspelt is reported once, at the misspelling.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.content.schema import DEPTH_KEYS, Depths
from generator.content.yaml_source import KeyPath, YamlDocument
from generator.diagnostics import Diagnostic

# What a type error expected, in words; the errors of a union's branches are joined with "or".
_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping of `key: value` lines",
    "model_type": "a mapping of `key: value` lines",
    "model_attributes_type": "a mapping of `key: value` lines",
}
_DATE_ERRORS = {"date_type", "date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact"}
_DATE_EXAMPLE = "2026-10-30"


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
        options = _unwrap(current)
        mappings = [typing.get_args(c)[1] for c in options if typing.get_origin(c) is dict]
        if isinstance(step, int):
            candidates = [typing.get_args(c)[0] for c in options if typing.get_origin(c) is list]
        elif mappings:  # a free-keyed mapping such as `readability: {D1: …}`
            candidates = mappings
        else:
            models = [c for c in options if isinstance(c, type) and issubclass(c, BaseModel)]
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


def data_path(loc: tuple[Any, ...], data: Any, kind: str) -> KeyPath:
    """Pydantic's error location reduced to keys and indexes that exist in the data.

    Steps that name union branches or validators (``str``, ``constrained-str``,
    ``function-after[…]``) match nothing in the data and are dropped; the last
    step of a ``missing`` error is kept, since it names the absent key.
    """
    path: list[str | int] = []
    current = data
    for index, step in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(current, dict) and isinstance(step, str) and step in current:
            path.append(step)
            current = current[step]
        elif isinstance(current, list) and isinstance(step, int) and 0 <= step < len(current):
            path.append(step)
            current = current[step]
        elif last and kind == "missing" and isinstance(step, str) and isinstance(current, dict):
            path.append(step)
    return tuple(path)


def _field(root: type[BaseModel], path: KeyPath) -> Any:
    parent = model_at(root, path[:-1]) if path else None
    return parent.model_fields.get(str(path[-1])) if parent and path else None


def _description(root: type[BaseModel], path: KeyPath) -> str:
    field = _field(root, path)
    return (field.description or "").rstrip(".") if field else ""


def _or_remove(root: type[BaseModel], path: KeyPath) -> str:
    """", or remove the key" where the key is optional."""
    field = _field(root, path)
    return "" if field is not None and field.is_required() else ", or remove the key"


def _aside(root: type[BaseModel], path: KeyPath) -> str:
    """The field's description as a parenthesis, e.g. " (number of a layer defined in map.yaml)"."""
    what = _description(root, path)
    return f" ({what})" if what else ""


def _key(path: KeyPath) -> str:
    """The nearest key name of a path, for examples such as `title: "1984"`."""
    return next((str(step) for step in reversed(path) if isinstance(step, str)), "value")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "my-topic"


def _unknown_key(root: type[BaseModel], path: KeyPath) -> tuple[str, str]:
    key = str(path[-1])
    parent = model_at(root, path[:-1])
    if parent is Depths or (parent is None and len(path) >= 2 and path[-2] == "depths"):
        if key.upper() in DEPTH_KEYS:
            return f"depth `{key}` is outside D1–D5 (depth keys are upper-case)", f"did you mean `{key.upper()}`?"
        return f"depth `{key}` is outside D1–D5", f"use one of {', '.join(DEPTH_KEYS)}"
    allowed = sorted(parent.model_fields) if parent else []
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f"unknown key `{key}`", f"did you mean `{close[0]}`?"
    return f"unknown key `{key}`", f"remove it, or use one of: {', '.join(allowed)}"


def _missing(root: type[BaseModel], path: KeyPath) -> tuple[str, str]:
    key = str(path[-1])
    where = ("to the file" if len(path) == 1 else
             "to this item" if isinstance(path[-2], int) else f"under `{path[-2]}:`")
    model = model_at(root, path)
    if model is not None:
        return (f"missing required field `{key}`",
                f"add `{key}:` {where}, with {', '.join(model.model_fields)} indented below it")
    return f"missing required field `{key}`", f"add `{key}: …` {where}{_aside(root, path)}"


def _either(expected: list[str]) -> str:
    """"a number or text" from the expectations of a union's branches."""
    words = list(dict.fromkeys(expected))
    if "a number" in words and "a whole number" in words:
        words.remove("a whole number")
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _type_error(root: type[BaseModel], path: KeyPath, expected: list[str], value: Any) -> tuple[str, str]:
    key = _key(path)
    wanted = _either(expected)
    if value is None:
        model = model_at(root, path)
        if model is not None:
            return (f"is empty, but must be {wanted}",
                    f"write its keys ({', '.join(model.model_fields)}) below it{_or_remove(root, path)}")
        return f"is empty, but must be {wanted}", f"write the value after `{key}:`{_or_remove(root, path)}"
    message = f"expected {wanted}, got {_describe(value)}"
    if len(set(expected)) > 1:
        return message, f"write a single value: {wanted}"
    if wanted == "text" and isinstance(value, (int, float, bool)):
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        return message, f'put it in quotes: `{key}: "{shown}"`'
    if wanted == "text":
        return message, "write a single piece of text (a `|` block for several paragraphs)"
    if wanted == "a list" and isinstance(value, (str, int, float)):
        return message, f'write it as a list: `{key}: ["{value}"]`, or one `- item` per line below `{key}:`'
    if wanted == "a list":
        return message, f"write one `- item` per line below `{key}:`"
    if "mapping" in wanted:
        model = model_at(root, path)
        fields = list(model.model_fields) if model else []
        keys = f", with the keys {', '.join(fields)}" if fields else ""
        if path and isinstance(path[-1], int) and fields and isinstance(value, str):  # `- text` in a list of mappings
            return message, f"write the item as `- {fields[0]}: {value if len(value) <= 30 else value[:29] + '…'}`{keys}"
        return message, f"write indented `key: value` lines below `{key}:`{keys}"
    if "whole number" in wanted:
        return message, f"write digits only, e.g. `{key}: 2`{_aside(root, path)}"
    return message, f"write {wanted}"


def _date_error(error: dict[str, Any], value: Any) -> tuple[str, str]:
    reason = str((error.get("ctx") or {}).get("error", ""))
    detail = ""
    if reason.startswith("month value"):
        detail = " (there is no such month)"
    elif reason.startswith("day value"):
        detail = " (that month has no such day)"
    elif error["type"] == "date_from_datetime_inexact" or isinstance(value, (int, float)):
        detail = " (a full date is needed)"
    return f"{_describe(value)} is not a valid date{detail}", f"write the date as YYYY-MM-DD, e.g. {_DATE_EXAMPLE}"


def _pattern_error(root: type[BaseModel], path: KeyPath, pattern: str, value: Any) -> tuple[str, str]:
    shown = _describe(value)
    key = _key(path)
    if pattern.startswith("^https?"):
        return f"{shown} is not a web address", "write the full address starting with https:// (or http://), without spaces"
    if pattern.startswith("^#"):
        return f"{shown} is not a colour", "write it as # and six hex digits, e.g. `#c62828`"
    if pattern.startswith("^\\d{4}\\."):
        return f"{shown} is not an arXiv identifier", "write the identifier without a version, e.g. `2407.21783`"
    if pattern.startswith("^10\\."):
        return f"{shown} is not a DOI", "write the DOI without https://doi.org/, e.g. `10.1145/361147.361115`"
    if pattern.startswith("^[A-Za-z]"):
        return (f"{shown} is not a valid citation key",
                "start with a letter and use only letters, digits, `_` and `-`, e.g. `smith2024`")
    if pattern.startswith("^[a-z0-9]"):
        return (f"{shown} is not a valid {'id' if key in ('id', 'subject', 'object') else key}: "
                "it must be lower-case words joined by hyphens", f"write `{_slug(str(value))}`")
    what = _description(root, path)
    return f"{shown} has the wrong form", what or f"see schema/ for the form of `{key}`"


def _value_error(root: type[BaseModel], path: KeyPath, error: dict[str, Any], value: Any) -> tuple[str, str]:
    reason = error["msg"].removeprefix("Value error, ")
    what = _description(root, path)
    if "\nfix: " in reason:  # the rule says how to fix it
        message, hint = reason.split("\nfix: ", 1)
        return message, hint
    if isinstance(value, dict):  # a rule across the keys of one mapping
        model = model_at(root, path)
        doc = (model.__doc__ or "").strip().splitlines()[0].rstrip(".") if model and model.__doc__ else ""
        doc = doc[:1].lower() + doc[1:]
        return reason, f"change the keys of this entry ({doc})" if doc else "change the keys of this entry as the message says"
    if "YYYY" in what:  # a partial date (sources' dates)
        detail = "" if reason.startswith("must be") else f" ({reason})"
        return (f"{_describe(value)} is not a valid date{detail}",
                'write it as "YYYY", "YYYY-MM" or "YYYY-MM-DD" in quotes, e.g. "2024-05"')
    return f"{_describe(value)} is not valid: {reason}", what or "see schema/ for the allowed values"


def _length_error(root: type[BaseModel], path: KeyPath, error: dict[str, Any], value: Any) -> tuple[str, str]:
    ctx = error.get("ctx") or {}
    key = _key(path)
    if error["type"] == "string_too_short":
        if path and isinstance(path[-1], int):
            return "is empty", "write the text of this item, or remove the item"
        return "is empty", f"write the text after `{key}:`{_or_remove(root, path)}"
    if error["type"] == "string_too_long":
        limit = ctx.get("max_length")
        hint = "shorten it to one sentence; details belong in the depths" if key == "summary" else "shorten it"
        return f"is {len(str(value))} characters long; at most {limit} are allowed", hint
    if error["type"] == "too_long":
        return f"has more than {ctx.get('max_length')} items", "remove some items"
    least, actual = ctx.get("min_length", 1), ctx.get("actual_length", 0)
    if key == "steps":
        return (f"a flow needs at least {least} steps, found {actual}",
                "add another step, or write the single step into the depth's `body` and remove `flow`")
    noun = "item" if least == 1 else "items"
    return f"needs at least {least} {noun}, found {actual}", f"add items as `- …` lines below `{key}:`{_or_remove(root, path)}"


_LIMIT_WORDS = {"ge": "of at least", "gt": "greater than", "le": "of at most", "lt": "less than"}


def _range_error(root: type[BaseModel], path: KeyPath, error: dict[str, Any], value: Any) -> tuple[str, str]:
    field = _field(root, path)
    limits = {name: getattr(m, name) for m in getattr(field, "metadata", []) for name in _LIMIT_WORDS
              if getattr(m, name, None) is not None}
    limits |= {name: bound for name, bound in (error.get("ctx") or {}).items() if name in _LIMIT_WORDS}
    limits = {name: f"{bound:g}" if isinstance(bound, float) else str(bound) for name, bound in limits.items()}
    if "ge" in limits and "le" in limits:
        bounds = f"from {limits['ge']} to {limits['le']}"
    else:
        bounds = " and ".join(f"{_LIMIT_WORDS[name]} {bound}" for name, bound in limits.items())
    return f"{_describe(value)} is out of range", f"use a number {bounds}{_aside(root, path)}"


def _message(root: type[BaseModel], error: dict[str, Any], path: KeyPath) -> tuple[str, str]:
    kind, value = error["type"], error.get("input")
    if kind == "extra_forbidden":
        return _unknown_key(root, path)
    if kind == "missing":
        return _missing(root, path)
    if kind in _DATE_ERRORS:
        return _date_error(error, value)
    if kind in _EXPECTED:
        return _type_error(root, path, [_EXPECTED[kind]], value)
    if kind == "int_from_float":
        return f"{_describe(value)} is not a whole number", f"use a whole number, e.g. `{_key(path)}: {int(value)}`"
    if kind == "string_pattern_mismatch":
        return _pattern_error(root, path, str((error.get("ctx") or {}).get("pattern", "")), value)
    if kind == "literal_error":
        expected = str((error.get("ctx") or {}).get("expected", "")).replace("'", "`")
        return f"{_describe(value)} is not allowed", f"use one of {expected}"
    if kind == "value_error":
        return _value_error(root, path, error, value)
    if kind in ("too_short", "string_too_short", "too_long", "string_too_long"):
        return _length_error(root, path, error, value)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return _range_error(root, path, error, value)
    what = _description(root, path)
    return error["msg"], what or "see schema/ for the allowed form"


def _where(doc: YamlDocument, kind: str, path: KeyPath) -> tuple[int, int]:
    if kind == "extra_forbidden" and path in doc.key_positions:
        spot = doc.key_positions[path]
    elif kind == "missing":
        spot = doc.position(path[:-1])
    else:
        spot = doc.position(path, value=True)
    return spot.line, spot.column


def diagnostics_from(
    error: ValidationError, root: type[BaseModel], doc: YamlDocument, file: str
) -> list[Diagnostic]:
    """One diagnostic per wrong value, placed at the key or value it concerns."""
    grouped: dict[KeyPath, list[dict[str, Any]]] = {}
    for item in error.errors():
        path = data_path(item["loc"], doc.data, item["type"])
        grouped.setdefault(path, []).append(item)
    extras = {path: items for path, items in grouped.items() if items[0]["type"] == "extra_forbidden"}
    found = []
    for path, items in grouped.items():
        first = items[0]
        type_errors = [i for i in items if i["type"] in _EXPECTED]
        if len(type_errors) > 1:  # one value failed every branch of a union: one message
            message, hint = _type_error(root, path, [_EXPECTED[i["type"]] for i in type_errors], first.get("input"))
        elif first["type"] == "missing" and _misspelt(root, path, extras):
            continue  # reported at the misspelt key instead
        else:
            message, hint = _message(root, first, path)
        if first["type"] == "extra_forbidden":
            missing = [p for p, i in grouped.items() if i[0]["type"] == "missing" and p[:-1] == path[:-1]]
            for other in missing:
                if hint == f"did you mean `{other[-1]}`?":
                    hint = f"did you mean `{other[-1]}`? (`{other[-1]}` is required and missing)"
        line, column = _where(doc, first["type"], path)
        found.append(Diagnostic(file, line, column, "error", dotted(path), message, hint))
    return found


def _misspelt(root: type[BaseModel], missing: KeyPath, extras: dict[KeyPath, Any]) -> bool:
    """Whether a missing key sits beside an unknown key that is its near spelling."""
    for extra in extras:
        if extra[:-1] == missing[:-1] and _unknown_key(root, extra)[1] == f"did you mean `{missing[-1]}`?":
            return True
    return False
