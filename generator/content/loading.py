"""Read ``content/`` into one typed model — the only place YAML is read.

``read_content`` reads every file and validates each against the typed schema, collecting every
problem (never just the first); the cross-file checks then run on the result
(``generator.checks``), and ``generator.pipeline.load_content`` puts the two together.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from generator.content.model_paths import dotted
from generator.content.schema import Bibliography, MapConfig, Source, Topic
from generator.content.schema_errors import diagnostics_from
from generator.content.top_level import bibliography_shape_error, not_a_mapping
from generator.content.yaml_limits import MAX_BIBLIOGRAPHY_BYTES, MAX_FILE_BYTES, check_size
from generator.content.yaml_source import YamlDocument, YamlSyntaxError, decode_utf8, parse_yaml
from generator.diagnostics import Diagnostic, DiagnosticLog, relative_name
from generator.processes import fork_context

MAP_FILE = "map.yaml"
SOURCES_FILE = "sources.yaml"  # the bibliography: every source once, keyed
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
    map_doc: YamlDocument | None = None  # positions in map.yaml, for cross-file diagnostics
    sources: dict[str, Source | None] = field(default_factory=dict)  # sources.yaml's records by key (None: invalid)
    sources_file: str = f"content/{SOURCES_FILE}"
    sources_doc: YamlDocument | None = None
    bibliography: dict[str, Source] = field(default_factory=dict)  # sources.yaml + the calculators' SOURCES
    sources_unreadable: bool = False  # sources.yaml names no keys (reported): no citation is judged unknown


@dataclass
class ReadMemo:
    """What earlier readings found, by file, so that `layermap serve` reads again only what changed.

    A file is reused only while its bytes are the same (by their SHA-256): the result is what
    reading those bytes gives, with the same problems (the schema and YAML are all a file's
    reading depends on). ``fresh`` counts the files read anew."""

    files: dict[Path, tuple[bytes, object, list[Diagnostic]]] = field(default_factory=dict)
    fresh: int = 0

    def recall(self, path: Path, data: bytes, log: DiagnosticLog) -> object | None:
        known = self.files.get(path)
        if known is None or known[0] != hashlib.sha256(data).digest():
            return None
        log.extend(known[2])
        return known[1]

    def keep(self, path: Path, data: bytes, result: object, problems: list[Diagnostic]) -> None:
        self.files[path] = (hashlib.sha256(data).digest(), result, problems)
        self.fresh += 1


TOPIC_OR_MAP = (MAX_FILE_BYTES, "a topic file or map.yaml")  # how big a file may be, and what it is
BIBLIOGRAPHY = (MAX_BIBLIOGRAPHY_BYTES, f"content/{SOURCES_FILE}")


def _read(path: Path, name: str, log: DiagnosticLog, memo: ReadMemo | None = None,
          limit: tuple[int, str] = TOPIC_OR_MAP) -> YamlDocument | None:
    try:
        data = path.read_bytes()
    except OSError as error:
        log.add(Diagnostic.error(name, None, "", f"cannot read file: {error.strerror}", "check the file exists and is readable"))
        return None
    if memo is None:
        return _parse(data, name, log, limit)
    known = memo.recall(path, data, log)
    if isinstance(known, YamlDocument):
        return known
    own = DiagnosticLog()
    doc = _parse(data, name, own, limit)
    if doc is not None:
        memo.keep(path, data, doc, own.items)
    log.extend(own.items)
    return doc


def _parse(data: bytes, name: str, log: DiagnosticLog, limit: tuple[int, str] = TOPIC_OR_MAP) -> YamlDocument | None:
    try:
        doc = parse_yaml(decode_utf8(check_size(data, *limit)))
    except YamlSyntaxError as error:
        log.add(Diagnostic.error(name, error.position, "", error.message, error.hint))
        return None
    for path_, position in doc.duplicate_keys:
        first = doc.first_key_positions.get(path_)
        where = f" (first on line {first.line})" if first else ""
        log.add(Diagnostic.error(name, position, dotted(path_), f"key `{path_[-1]}` appears twice{where}",
                                 "keep one of them: YAML would silently use only the last"))
    return doc


def _validate(model: type[ModelT], doc: YamlDocument, name: str, log: DiagnosticLog) -> ModelT | None:
    if not isinstance(doc.data, dict):
        log.add(not_a_mapping(doc, name, model))
        return None
    data = doc.data
    if model is Topic and "sources" in data:  # the old place of sources: say where they went
        where = doc.key_positions.get(("sources",)) or doc.position(("sources",))
        log.add(Diagnostic.error(name, where, "sources",
                                 f"sources are no longer listed in topic files, but once for the whole map in content/{SOURCES_FILE}",
                                 f"move each entry to content/{SOURCES_FILE} under its id as key (add `kind:`), "
                                 "keep the `[@id]` citations, and delete this `sources:` list"))
        data = {key: value for key, value in data.items() if key != "sources"}
    try:
        return model.model_validate(data)
    except ValidationError as error:
        log.extend(diagnostics_from(error, model, doc, name))
        return None


def _visible(path: Path, content_dir: Path) -> bool:
    """Not hidden (editors' lock and backup files such as ``.#gpu.yaml``), and a file."""
    return path.is_file() and not any(part.startswith(".") for part in path.relative_to(content_dir).parts)


def topic_paths(content_dir: Path) -> list[Path]:
    """Topic files: every ``*.yaml`` below ``content/`` except ``map.yaml`` and hidden files, sorted."""
    special = {content_dir / MAP_FILE, content_dir / SOURCES_FILE}
    return sorted(p for p in content_dir.rglob("*.yaml") if p not in special and _visible(p, content_dir))


def _unread_files(content_dir: Path, root: Path) -> list[Diagnostic]:
    """Files that look like content but would be silently skipped: ``.yml`` instead of ``.yaml``."""
    return [Diagnostic.error(relative_name(p, root), None, "", f"`{p.name}` is not read: content files end in `.yaml`",
                             f"rename it to `{p.stem}.yaml`")
            for p in sorted(content_dir.rglob("*")) if p.suffix.lower() in (".yml", ".yaml") and p.suffix != ".yaml"
            and _visible(p, content_dir)]


def _valid_records(doc: YamlDocument) -> dict[str, Source]:
    """The records of a sources.yaml that failed as a whole which are valid on their own."""
    raw = doc.data.get("sources") if isinstance(doc.data, dict) else None
    found = {}
    for key, record in (raw or {}).items() if isinstance(raw, dict) else ():
        try:
            found[key] = Source.model_validate({**record, "id": key}) if isinstance(record, dict) else None
        except ValidationError:
            found[key] = None
    return found  # type: ignore[return-value]


def _load_sources(content_dir: Path, root: Path, log: DiagnosticLog, refused: dict[Path, Path],
                  memo: ReadMemo | None = None) -> tuple[dict[str, Source | None], YamlDocument | None, bool]:
    """``content/sources.yaml``'s records by key (none if the file is absent or a refused link);
    an invalid record's key maps to None, so that citing it does not also count as citing an
    unknown source. Last, whether the file is there but names no keys (a refused link, not YAML,
    or not a mapping of keys to records): then no citation can be judged."""
    path, name = content_dir / SOURCES_FILE, relative_name(content_dir / SOURCES_FILE, root)
    if refused.keys() & {content_dir, path}:
        return {}, None, True
    if not path.exists():
        return {}, None, False
    doc = _read(path, name, log, memo, BIBLIOGRAPHY)
    if doc is None or doc.data is None:
        return {}, doc, doc is None
    shape_error = bibliography_shape_error(doc, name)
    if shape_error is not None:
        log.add(shape_error)
        return {}, doc, True
    bibliography = _validate(Bibliography, doc, name, log)
    return (bibliography.records() if bibliography else _valid_records(doc)), doc, False


def links_leaving_project(content_dir: Path, root: Path) -> dict[Path, Path]:
    """Symbolic links in ``content/`` (files, folders, or content/ itself) whose target is outside
    the project, with that target: never read, or a pull request could publish any file."""
    project = root.resolve()
    below = [Path(folder, name) for folder, dirs, files in os.walk(content_dir) for name in dirs + files]
    return {link: link.resolve() for link in [content_dir, *below]
            if link.is_symlink() and not link.resolve().is_relative_to(project)}


def _refused_link(link: Path, target: Path, root: Path) -> Diagnostic:
    name = link.relative_to(root).as_posix() if link.is_relative_to(root) else link.as_posix()
    return Diagnostic.error(name, None, "", f"`{name}` is a symbolic link to `{target}`, outside the project",
                            "copy the file into content/ instead of linking to it, then remove the link")


@dataclass(frozen=True)
class FailedTopic:
    """A topic file that did not validate (already reported): its YAML, if it parsed, for the
    checks that still apply, and the id other topics may use for it (else its file name)."""

    file: str
    doc: YamlDocument | None
    id: str


@dataclass
class Reading:
    """``content/`` as read: every file that validated against its schema, and every problem met.

    The cross-file checks (``generator.checks``) run on this; :meth:`content` is the typed
    context the later stages read once those pass."""

    map: MapConfig | None
    map_file: str
    map_doc: YamlDocument | None
    topics: list[TopicFile]
    failed_topics: list[FailedTopic]
    sources: dict[str, Source | None]
    sources_file: str
    sources_doc: YamlDocument | None
    problems: list[Diagnostic]
    sources_unreadable: bool = False  # sources.yaml names no keys (reported): no citation is judged unknown

    def content(self, bibliography: dict[str, Source] | None = None) -> Content:
        if self.map is None:
            raise ValueError("the map did not validate: there is no content to build")
        return Content(self.map, self.map_file, self.topics, map_doc=self.map_doc, sources=self.sources,
                       sources_file=self.sources_file, sources_doc=self.sources_doc,
                       bibliography=bibliography or {}, sources_unreadable=self.sources_unreadable)


def _read_map(content_dir: Path, root: Path, log: DiagnosticLog, refused: dict[Path, Path],
              memo: ReadMemo | None = None) -> tuple[MapConfig | None, YamlDocument | None]:
    map_name = relative_name(content_dir / MAP_FILE, root)
    if refused.keys() & {content_dir, content_dir / MAP_FILE}:
        return None, None  # reported with the refused links
    if not (content_dir / MAP_FILE).exists():
        log.add(Diagnostic.error(map_name, None, "", "the map file is missing",
                                 "create content/map.yaml with title, introduction, depths and layers"))
        return None, None
    map_doc = _read(content_dir / MAP_FILE, map_name, log, memo)
    return (_validate(MapConfig, map_doc, map_name, log) if map_doc is not None else None), map_doc


def _read_topics(paths: list[Path], root: Path, log: DiagnosticLog,
                 memo: ReadMemo | None = None) -> list[TopicFile | FailedTopic]:
    """Each topic file read and validated, in order, its problems in the log in the files' order.
    With a ``memo``, a file whose bytes it knows is not parsed again. The files to parse are shared
    with a forked process when they are many (:func:`_parse_all`)."""
    results: list[TopicFile | FailedTopic | None] = [None] * len(paths)
    logs = [DiagnosticLog() for _ in paths]
    to_parse: list[tuple[int, bytes]] = []
    for index, path in enumerate(paths):
        try:
            data = path.read_bytes()
        except OSError:  # reported as unreadable, and not remembered
            results[index] = _topic_of(path, root, _read(path, relative_name(path, root), logs[index]), logs[index])
            continue
        known = memo.recall(path, data, logs[index]) if memo is not None else None
        if isinstance(known, TopicFile | FailedTopic):
            results[index] = known
        else:
            to_parse.append((index, data))
    parsed = _parse_all([(relative_name(paths[index], root), data) for index, data in to_parse])
    for (index, data), (doc, problems) in zip(to_parse, parsed, strict=True):
        logs[index].extend(problems)
        results[index] = _topic_of(paths[index], root, doc, logs[index])
        if memo is not None:
            memo.keep(paths[index], data, results[index], logs[index].items)
    for each in logs:
        log.extend(each.items)
    return [result for result in results if result is not None]


MIN_SHARED_FILES = 200  # fewer files to parse: this process parses them sooner than another starts


def _parse_all(files: list[tuple[str, bytes]]) -> list[tuple[YamlDocument | None, list[Diagnostic]]]:
    """Each file (its name and bytes) parsed, with its problems. Many files: a forked process parses
    the second half while this one parses the first; YAML's plain data comes back quickly (a
    validated model would not: validating stays here)."""
    context = fork_context()
    if context is None or len(files) < MIN_SHARED_FILES:
        return _parse_share(files)
    half = len(files) // 2
    with ProcessPoolExecutor(1, mp_context=context) as other:
        theirs = other.submit(_parse_share, files[half:])
        return _parse_share(files[:half]) + theirs.result()


def _parse_share(files: list[tuple[str, bytes]]) -> list[tuple[YamlDocument | None, list[Diagnostic]]]:
    parsed = []
    for name, data in files:
        own = DiagnosticLog()
        parsed.append((_parse(data, name, own), own.items))
    return parsed


def _topic_of(path: Path, root: Path, doc: YamlDocument | None, log: DiagnosticLog) -> TopicFile | FailedTopic:
    name = relative_name(path, root)
    topic = _validate(Topic, doc, name, log) if doc is not None else None
    if topic is not None and doc is not None:
        return TopicFile(topic, name, doc)
    data = doc.data if doc is not None else None
    return FailedTopic(name, doc, data["id"] if isinstance(data, dict) and isinstance(data.get("id"), str) else path.stem)


def read_content(content_dir: Path, project_root: Path | None = None, memo: ReadMemo | None = None) -> Reading:
    """Read every file of ``content/`` and validate each against its schema; never raises for
    bad content: every problem is in the result's ``problems``. With a ``memo``, a topic file whose
    bytes did not change since the memo's last reading is not parsed again."""
    root = project_root or content_dir.parent
    log = DiagnosticLog()
    refused = links_leaving_project(content_dir, root)
    log.extend([_refused_link(link, target, root) for link, target in refused.items()])
    map_config, map_doc = _read_map(content_dir, root, log, refused, memo)
    log.extend(_unread_files(content_dir, root))
    sources, sources_doc, sources_unreadable = _load_sources(content_dir, root, log, refused, memo)
    paths = [] if content_dir in refused else [p for p in topic_paths(content_dir) if p not in refused]
    read = _read_topics(paths, root, log, memo)
    return Reading(map_config, relative_name(content_dir / MAP_FILE, root), map_doc,
                   [r for r in read if isinstance(r, TopicFile)], [r for r in read if isinstance(r, FailedTopic)],
                   sources, relative_name(content_dir / SOURCES_FILE, root), sources_doc, log.items, sources_unreadable)
