"""What a content file's top level must be, and the one error that says so when it is not.

Every file is `key: value` lines (a mapping); ``sources.yaml`` holds a mapping of source keys to
records under ``sources:``. A bibliography of another shape cannot say which keys exist: the
loader then judges no citation against it, so that its one error is the cause, not the last of a
flood of "unknown source" errors.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from generator.content.schema import MapConfig
from generator.content.yaml_source import YamlDocument
from generator.diagnostics import Diagnostic

SOURCES_FIX = ("write each record under its key, not as a `- ` item: a line `  smith2020:` (the key that "
               "`[@smith2020]` cites; an item's `id:` becomes it) with `kind:`, `title:`, `authors:`, `date:` and "
               "`url:` indented below it")


def _found(value: Any) -> str:
    return "a list (lines starting with `- `)" if isinstance(value, list) else "a single value"


def not_a_mapping(doc: YamlDocument, name: str, model: type[BaseModel]) -> Diagnostic:
    """Why a map or topic file's top level is not `key: value` lines, and how to start it."""
    start = ("start it with `title:`, `introduction:`, `depths:` and `layers:`" if model is MapConfig
             else "start it with `id:`, `title:`, `layer:`, `summary:` and `depths:` (`layermap new` writes a template)")
    if doc.data is None:
        return Diagnostic.error(name, None, "", "the file is empty", start + ", or delete the file")
    if isinstance(doc.data, list):
        return Diagnostic.error(name, doc.position(()), "",
                                "the file is a list (lines starting with `- `), but it must be `key: value` lines",
                                "remove the `- ` in front of the top-level keys")
    return Diagnostic.error(name, doc.position(()), "", "the file holds only a single value, not `key: value` lines", start)


def bibliography_shape_error(doc: YamlDocument, name: str) -> Diagnostic | None:
    """The error of a sources.yaml that is not `sources:` over a mapping of keys to records, else None."""
    if not isinstance(doc.data, dict):
        return Diagnostic.error(name, doc.position(()), "",
                                f"sources.yaml must be a mapping of source keys to records, found {_found(doc.data)}",
                                f"start the file with a line `sources:`, then {SOURCES_FIX}")
    records = doc.data.get("sources")
    if records is None or isinstance(records, dict):
        return None
    return Diagnostic.error(name, doc.position(("sources",), value=True), "sources",
                            f"must be a mapping of source keys to records, found {_found(records)}",
                            SOURCES_FIX)
