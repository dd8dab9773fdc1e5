"""Cross-file checks that no single schema can express: the map's own lists, topic ids, layers,
edges, empty depths, where each file sits, and (from their own modules) calculators and sources."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import PurePosixPath

from generator.checks.calculators import check_calculator_declarations, check_calculator_names
from generator.checks.prerequisites import check_prerequisites
from generator.checks.sources import check_sources
from generator.checks.where import at_path, at_topic, line_of, suggestion
from generator.content.loading import Content, TopicFile
from generator.content.schema import DEPTH_KEYS, MapConfig
from generator.content.yaml_source import KeyPath, YamlDocument
from generator.diagnostics import Diagnostic

# --- map.yaml ---------------------------------------------------------------------------


def _check_map(content: Content) -> Iterator[Diagnostic]:
    doc = content.map_doc or YamlDocument(data={})
    name = content.map_file

    def at(path: KeyPath, message: str, hint: str) -> Diagnostic:
        return at_path(name, doc, path, "error", message, hint, value=True)

    keys = [d.key for d in content.map.depths]
    for key in DEPTH_KEYS:
        if key not in keys:
            yield at(("depths",), f"depth {key} is missing from `depths`",
                     f"add `- {{key: {key}, name: …, audience: …}}`: the map defines all five depths D1–D5")
    for index, key in enumerate(keys):
        if key in keys[:index]:
            yield at(("depths", index, "key"), f"depth {key} is defined twice (also on line "
                     f"{doc.position(('depths', keys.index(key))).line})", "keep one of them")
    numbers = [layer.number for layer in content.map.layers]
    for index, number in enumerate(numbers):
        if number in numbers[:index]:
            yield at(("layers", index, "number"), f"layer {number} is defined twice (also on line "
                     f"{doc.position(('layers', numbers.index(number))).line})", "give each layer its own number")
    kinds = [kind.id for kind in content.map.edge_kinds]
    for index, kind in enumerate(kinds):
        if kind in kinds[:index]:
            yield at(("edge_kinds", index, "id"), f"edge kind `{kind}` is defined twice", "give each edge kind its own id")


# --- topics -----------------------------------------------------------------------------


def _check_ids(topics: list[TopicFile]) -> Iterator[Diagnostic]:
    """One error per extra holder of an id; the file named after the id (else the first) keeps it."""
    holders: dict[str, list[TopicFile]] = {}
    for tf in topics:
        holders.setdefault(tf.topic.id, []).append(tf)
    for tid, group in holders.items():
        if len(group) < 2:
            continue
        owner = next((tf for tf in group if PurePosixPath(tf.file).stem == tid), group[0])
        for tf in group:
            if tf is not owner:
                yield at_topic(tf, ("id",), "error", f"duplicate topic id `{tid}` (also in {line_of(owner, ('id',))})",
                          "give each topic its own id (the file name usually matches it)", value=True)


def _check_layers(topics: list[TopicFile], map_config: MapConfig) -> Iterator[Diagnostic]:
    numbers = sorted({layer.number for layer in map_config.layers})
    for tf in topics:
        if tf.topic.layer not in numbers:
            yield at_topic(tf, ("layer",), "error", f"unknown layer {tf.topic.layer}",
                      f"use one of {', '.join(map(str, numbers))}, or add the layer to content/map.yaml", value=True)


def _check_edges(topics: list[TopicFile], map_config: MapConfig | None, extra_ids: set[str]) -> Iterator[Diagnostic]:
    known = {tf.topic.id for tf in topics} | extra_ids
    ids = sorted(known)  # for suggestions
    kinds = [kind.id for kind in map_config.edge_kinds] if map_config else None
    declared: dict[tuple[str, str, str], tuple[TopicFile, KeyPath]] = {}
    for tf in topics:
        for index, edge in enumerate(tf.topic.edges):
            path = ("edges", index)
            sentence = f"`{edge.subject} · {edge.verb} · {edge.object}`"
            for end in ("subject", "object"):
                target = getattr(edge, end)
                if target not in known:
                    yield at_topic(tf, (*path, end), "error", f"edge to unknown topic `{target}`",
                              suggestion(target, ids) + " (or write that topic first)", value=True)
            if tf.topic.id not in (edge.subject, edge.object):
                yield at_topic(tf, path, "error", f"edge {sentence} does not involve this topic `{tf.topic.id}`",
                          f"move it to the file of `{edge.subject}` or `{edge.object}`, "
                          f"or make `{tf.topic.id}` its subject or object")
            if kinds is not None and edge.kind is not None and edge.kind not in kinds:
                hint = (suggestion(edge.kind, kinds) + " (edge_kinds in content/map.yaml)" if kinds
                        else "add it to `edge_kinds` in content/map.yaml, or remove `kind`")
                yield at_topic(tf, (*path, "kind"), "error", f"unknown edge kind `{edge.kind}`", hint, value=True)
            identity = (edge.subject, edge.verb.casefold(), edge.object)
            if identity in declared:
                yield at_topic(tf, path, "error", f"edge {sentence} is declared twice (also in {line_of(*declared[identity])})",
                          "declare each edge once, in either of its two topics: remove this one")
            else:
                declared[identity] = (tf, path)  # its line is looked up only if it is declared again


def _check_depths(tf: TopicFile) -> Iterator[Diagnostic]:
    raw = tf.doc.data.get("depths")
    for key in DEPTH_KEYS:
        depth = getattr(tf.topic.depths, key)
        present = isinstance(raw, dict) and key in raw
        if present and (depth is None or depth.is_empty()):
            yield at_topic(tf, ("depths", key), "error", f"depth {key} is empty",
                      f"write its body (or hook, flow …), or remove the `{key}:` key")
    if not tf.topic.depths.present() and isinstance(raw, dict) and not raw:
        yield at_topic(tf, ("depths",), "error", "the topic has no depth",
                  "add at least one depth, e.g. `D1:` with a `body:` indented below it")


def _check_place(tf: TopicFile, duplicated: set[str], layers: set[int]) -> Iterator[Diagnostic]:
    """The file's name and folder should say what it holds (`layermap new` writes layer-N/<id>.yaml)."""
    path = PurePosixPath(tf.file)
    if path.stem != tf.topic.id and tf.topic.id not in duplicated:  # a duplicate id is reported already
        yield at_topic(tf, ("id",), "warning", f"the topic id `{tf.topic.id}` differs from the file name `{path.name}`",
                  f"rename the file to `{tf.topic.id}.yaml`, or change the id (pages and links use the id)", value=True)
    folder = re.fullmatch(r"layer-(\d+)", path.parent.name)
    if folder and int(folder.group(1)) != tf.topic.layer and tf.topic.layer in layers:  # else: unknown layer
        yield at_topic(tf, ("layer",), "warning", f"a topic of layer {tf.topic.layer} is in the folder `{path.parent.name}/`",
                  f"move the file to `layer-{tf.topic.layer}/`, or change `layer:`", value=True)


def check_topics(topics: list[TopicFile], map_config: MapConfig | None,
                 unreadable_ids: set[str] | None = None) -> list[Diagnostic]:
    """The topics' cross-file problems; those needing the map are skipped when it is invalid."""
    found = [*_check_ids(topics), *_check_edges(topics, map_config, unreadable_ids or set())]
    if map_config is not None:
        found += [*_check_layers(topics, map_config), *check_prerequisites(topics, map_config)]
    duplicated = {tid for tid, count in Counter(tf.topic.id for tf in topics).items() if count > 1}
    layers = {layer.number for layer in map_config.layers} if map_config else set()
    for tf in topics:
        found += [*_check_depths(tf), *check_calculator_names(tf), *_check_place(tf, duplicated, layers)]
    used = {depth.calculator.name for tf in topics for _, depth in tf.topic.depths.present() if depth.calculator}
    return [*found, *check_calculator_declarations(used)]  # their declarations, at the calculators' lines


def check_content(content: Content, unreadable_ids: set[str] | None = None) -> list[Diagnostic]:
    """Every cross-file problem of the content, errors and warnings."""
    return [*_check_map(content), *check_topics(content.topics, content.map, unreadable_ids), *check_sources(content)]
