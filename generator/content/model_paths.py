"""Key paths in content data, and the schema's models and fields that they point at.

Pydantic locates an error by its own steps, which include union branch and validator
names (``str``, ``constrained-str``, ``function-after[…]``); editors know only keys and
list indexes.  These helpers translate between the two and read what the schema says
about the field at a path.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.content.yaml_source import KeyPath


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete classes an annotation may hold (Optional, Annotated, list unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [c for arg in typing.get_args(annotation) for c in _unwrap(arg)]
    return [annotation]


def _models(annotation: Any) -> list[type[BaseModel]]:
    return [c for c in _unwrap(annotation) if isinstance(c, type) and issubclass(c, BaseModel)]


def _step_into(annotation: Any, step: str | int) -> Any | None:
    """The annotation of what one key or index below a value of ``annotation`` holds."""
    options = _unwrap(annotation)
    mappings = [typing.get_args(c)[1] for c in options if typing.get_origin(c) is dict]
    if isinstance(step, int):
        candidates = [typing.get_args(c)[0] for c in options if typing.get_origin(c) is list]
    elif mappings:  # a free-keyed mapping such as `readability: {D1: …}`
        candidates = mappings
    else:
        models = _models(annotation)
        if not models or step not in models[0].model_fields:
            return None
        candidates = [models[0].model_fields[step].annotation]
    return candidates[0] if candidates else None


def model_at(root: type[BaseModel], path: KeyPath) -> type[BaseModel] | None:
    """The model class that a key path inside ``root`` points into."""
    current: Any = root
    for step in path:
        current = _step_into(current, step)
        if current is None:
            return None
    models = _models(current)
    return models[0] if models else None


def field_at(root: type[BaseModel], path: KeyPath) -> FieldInfo | None:
    """The schema's declaration of the field a path ends at (None for list items and free keys)."""
    parent = model_at(root, path[:-1]) if path else None
    return parent.model_fields.get(str(path[-1])) if parent and path else None


def dotted(path: KeyPath) -> str:
    """A key path as editors read it: ``depths.D1.flow.steps[0].label``."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _holds(data: Any, step: Any) -> bool:
    """Whether ``step`` is a key of a mapping or an index of a list that ``data`` is."""
    if isinstance(data, dict):
        return isinstance(step, str) and step in data
    return isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data)


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
        if _holds(current, step):
            path.append(step)
            current = current[step]
        elif last and kind == "missing" and isinstance(step, str) and isinstance(current, dict):
            path.append(step)
    return tuple(path)


@dataclass(frozen=True)
class Failure:
    """One schema error at a key path editors know, with what the schema says about that place."""

    root: type[BaseModel]
    path: KeyPath
    kind: str  # pydantic's error type
    value: Any
    context: dict[str, Any]
    rule_message: str  # the message a schema rule was raised with (pydantic's `msg`)

    @classmethod
    def of(cls, root: type[BaseModel], path: KeyPath, error: dict[str, Any]) -> Failure:
        return cls(root, path, error["type"], error.get("input"), dict(error.get("ctx") or {}), error["msg"])

    @property
    def key(self) -> str:
        """The nearest key name of the path, for examples such as `title: "1984"`."""
        return next((str(step) for step in reversed(self.path) if isinstance(step, str)), "value")

    @property
    def shown(self) -> str:
        return describe(self.value)

    @property
    def description(self) -> str:
        field = field_at(self.root, self.path)
        return (field.description or "").rstrip(".") if field else ""

    @property
    def aside(self) -> str:
        """The field's description as a parenthesis, e.g. " (number of a layer defined in map.yaml)"."""
        return f" ({self.description})" if self.description else ""

    @property
    def or_remove(self) -> str:
        """", or remove the key" where the key is optional."""
        field = field_at(self.root, self.path)
        return "" if field is not None and field.is_required() else ", or remove the key"

    @property
    def model(self) -> type[BaseModel] | None:
        return model_at(self.root, self.path)


def describe(value: Any) -> str:
    """A value as a message shows it: `text`, the number `2`, a list, nothing."""
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
