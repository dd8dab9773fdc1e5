"""Read ``content/`` into one validated model — the only place YAML is read.

``load_content`` reads every file, validates each against the typed schema, runs
the cross-file checks, and either returns a :class:`Content` or raises
:class:`ContentError` carrying every problem found (never just the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog, relative_name
from generator.model_errors import diagnostics_from, dotted
from generator.schema import MapConfig, Topic
from generator.yaml_source import YamlDocument, YamlSyntaxError, parse_yaml

MAP_FILE = "map.yaml"
ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class TopicFile:
    """A validated topic and where it came from (for later diagnostics)."""

    topic: Topic
    file: str
    doc: YamlDocument


@dataclass
class Content:
    """Everything in ``content/``, validated: the one context every page reads."""

    map: MapConfig
    map_file: str
    topics: list[TopicFile]
    warnings: list[Diagnostic] = field(default_factory=list)


def _read(path: Path, name: str, log: DiagnosticLog) -> YamlDocument | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        log.add(Diagnostic(name, 1, 1, "error", "", f"cannot read file: {error}", "save it as UTF-8 text"))
        return None
    try:
        doc = parse_yaml(text)
    except YamlSyntaxError as error:
        hint = "check indentation, quotes and brackets on this line or the one before"
        log.add(Diagnostic(name, error.position.line, error.position.column, "error", "", error.message, hint))
        return None
    for path_, position in doc.duplicate_keys:
        log.add(Diagnostic(name, position.line, position.column, "error", dotted(path_),
                           f"key `{path_[-1]}` appears twice", "keep one of them"))
    return doc


def _validate(model: type[ModelT], doc: YamlDocument, name: str, log: DiagnosticLog) -> ModelT | None:
    if not isinstance(doc.data, dict):
        log.add(Diagnostic(name, 1, 1, "error", "", "the file must be a mapping of `key: value` lines",
                           "start with `id: …` (run `layermap new` for a template)"))
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as error:
        log.extend(diagnostics_from(error, model, doc, name))
        return None


def topic_paths(content_dir: Path) -> list[Path]:
    """Topic files: every ``*.yaml`` below ``content/`` except ``map.yaml``, sorted."""
    return sorted(p for p in content_dir.rglob("*.yaml") if p != content_dir / MAP_FILE)


def load_content(content_dir: Path, project_root: Path | None = None) -> Content:
    """Load and validate all content; raise :class:`ContentError` listing every problem."""
    from generator.validation import check_content  # local: validation reads Content

    root = project_root or content_dir.parent
    log = DiagnosticLog()
    map_name = relative_name(content_dir / MAP_FILE, root)
    map_config = None
    if not (content_dir / MAP_FILE).exists():
        log.add(Diagnostic(map_name, 1, 1, "error", "", "map file is missing",
                           "create content/map.yaml with title, introduction, depths and layers"))
    elif (map_doc := _read(content_dir / MAP_FILE, map_name, log)) is not None:
        map_config = _validate(MapConfig, map_doc, map_name, log)
    topics, unreadable_ids = [], set()
    for path in topic_paths(content_dir):
        name = relative_name(path, root)
        doc = _read(path, name, log)
        topic = _validate(Topic, doc, name, log) if doc is not None else None
        if topic is not None and doc is not None:
            topics.append(TopicFile(topic, name, doc))
        elif doc is not None and isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
            unreadable_ids.add(doc.data["id"])  # already reported; don't cascade into edge errors
    if map_config is None:
        raise ContentError(log)
    content = Content(map_config, map_name, topics)
    log.extend(check_content(content, unreadable_ids))
    if log.errors:
        raise ContentError(log)
    content.warnings = log.warnings
    return content
