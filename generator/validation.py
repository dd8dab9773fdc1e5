"""Cross-file checks that no single schema can express (ids, layers, edges, citations)."""

from __future__ import annotations

import difflib
import importlib.util
from collections.abc import Iterator
from typing import Any

from generator.citations import cited_keys
from generator.diagnostics import Diagnostic
from generator.loading import Content, TopicFile
from generator.model_errors import dotted
from generator.schema import DEPTH_KEYS
from generator.yaml_source import KeyPath


def _at(tf: TopicFile, path: KeyPath, severity: str, message: str, hint: str = "") -> Diagnostic:
    where = tf.doc.position(path)
    return Diagnostic(tf.file, where.line, where.column, severity, dotted(path), message, hint)  # type: ignore[arg-type]


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f"did you mean `{close[0]}`?" if close else f"use one of: {', '.join(sorted(choices))}"


def _check_map(content: Content) -> Iterator[Diagnostic]:
    keys = [d.key for d in content.map.depths]
    for key in DEPTH_KEYS:
        if keys.count(key) != 1:
            yield Diagnostic(content.map_file, 1, 1, "error", "depths",
                             f"depth {key} must be defined exactly once (found {keys.count(key)})",
                             "list D1 to D5, each with key, name and audience")
    numbers = [layer.number for layer in content.map.layers]
    for number in sorted({n for n in numbers if numbers.count(n) > 1}):
        yield Diagnostic(content.map_file, 1, 1, "error", "layers", f"layer {number} is defined twice",
                         "give each layer its own number")


def _check_ids(content: Content) -> Iterator[Diagnostic]:
    first_file: dict[str, str] = {}
    for tf in content.topics:
        if tf.topic.id in first_file:
            yield _at(tf, ("id",), "error", f"duplicate topic id `{tf.topic.id}` (also in {first_file[tf.topic.id]})",
                      "give each topic its own id")
        else:
            first_file[tf.topic.id] = tf.file


def _check_layers(content: Content) -> Iterator[Diagnostic]:
    numbers = [layer.number for layer in content.map.layers]
    for tf in content.topics:
        if tf.topic.layer not in numbers:
            yield _at(tf, ("layer",), "error", f"unknown layer {tf.topic.layer}",
                      f"use one of {', '.join(map(str, numbers))}, or add the layer to content/map.yaml")


def _check_edges(content: Content, extra_ids: set[str]) -> Iterator[Diagnostic]:
    ids = sorted({tf.topic.id for tf in content.topics} | extra_ids)
    kinds = [kind.id for kind in content.map.edge_kinds]
    declared: dict[tuple[str, str, str], str] = {}
    for tf in content.topics:
        for index, edge in enumerate(tf.topic.edges):
            path = ("edges", index)
            for end in ("subject", "object"):
                target = getattr(edge, end)
                if target not in ids:
                    yield _at(tf, (*path, end), "error", f"edge to unknown topic `{target}`", _suggest(target, ids))
            if tf.topic.id not in (edge.subject, edge.object):
                yield _at(tf, path, "error", f"edge `{edge.subject} · {edge.verb} · {edge.object}` does not involve this topic",
                          f"declare it in the file of `{edge.subject}` or `{edge.object}`")
            if edge.kind is not None and edge.kind not in kinds:
                yield _at(tf, (*path, "kind"), "error", f"unknown edge kind `{edge.kind}`",
                          _suggest(edge.kind, kinds) + " (edge_kinds in content/map.yaml)")
            identity = (edge.subject, edge.verb.casefold(), edge.object)
            if identity in declared:
                yield _at(tf, path, "error", f"edge `{edge.subject} · {edge.verb} · {edge.object}` is declared twice "
                          f"(also in {declared[identity]})", "declare each edge once, in either of its two topics")
            else:
                declared[identity] = tf.file


def _text_fields(value: Any, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _text_fields(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _text_fields(item, (*path, index))


def _check_citations(tf: TopicFile) -> Iterator[Diagnostic]:
    keys = [source.id for source in tf.topic.sources]
    for index, key in enumerate(keys):
        if key in keys[:index]:
            yield _at(tf, ("sources", index, "id"), "error", f"source id `{key}` is used twice", "give each source its own id")
    cited: set[str] = set()
    for path, text in _text_fields(tf.doc.data.get("depths", {}), ("depths",)):
        for key, offset in cited_keys(text):
            cited.add(key)
            if key not in keys:
                where = tf.doc.text_position(path, offset)
                hint = _suggest(key, keys) if keys else "add the source under `sources:`"
                yield Diagnostic(tf.file, where.line, where.column, "error", dotted(path),
                                 f"citation of unknown source `[@{key}]`", hint)
    for index, key in enumerate(keys):
        if key not in cited:
            yield _at(tf, ("sources", index, "id"), "warning", f"source `{key}` is never cited",
                      f"cite it in the text as [@{key}], or remove it")


def _check_depths(tf: TopicFile) -> Iterator[Diagnostic]:
    raw = tf.doc.data.get("depths")
    for key in DEPTH_KEYS:
        depth = getattr(tf.topic.depths, key)
        present = isinstance(raw, dict) and key in raw
        if present and (depth is None or depth.is_empty()):
            yield _at(tf, ("depths", key), "error", f"depth {key} is empty",
                      f"write its body (or hook, flow …), or remove the `{key}:` key")
    if not tf.topic.depths.present() and isinstance(raw, dict) and not raw:
        yield _at(tf, ("depths",), "error", "the topic has no depth", "add at least D1 with a body")


def _check_calculators(tf: TopicFile) -> Iterator[Diagnostic]:
    for key, depth in tf.topic.depths.present():
        if depth.calculator and importlib.util.find_spec(f"calculators.{depth.calculator.name}") is None:
            yield _at(tf, ("depths", key, "calculator", "name"), "error",
                      f"unknown calculator `{depth.calculator.name}`",
                      "use the name of a module in calculators/, e.g. `parallelism`")


def check_content(content: Content, unreadable_ids: set[str] | None = None) -> list[Diagnostic]:
    """Every cross-file problem of the content, errors and warnings."""
    found = [*_check_map(content), *_check_ids(content), *_check_layers(content),
             *_check_edges(content, unreadable_ids or set())]
    for tf in content.topics:
        found += [*_check_citations(tf), *_check_depths(tf), *_check_calculators(tf)]
    return found
