"""JSON Schemas for editors' tools, generated from the typed model (never written by hand)."""

from __future__ import annotations

import json
from pathlib import Path

from generator.content.schema import Bibliography, MapConfig, Topic

SCHEMAS = {"topic.schema.json": Topic, "map.schema.json": MapConfig, "sources.schema.json": Bibliography}


def schema_text(model: type) -> str:
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in SCHEMAS.items():
        path = folder / name
        path.write_text(schema_text(model), encoding="utf-8")
        written.append(path)
    return written
