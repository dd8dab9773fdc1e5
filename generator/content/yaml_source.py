"""Read YAML into plain data while remembering where every key and value stands.

PyYAML composes the node tree (with line and column marks); we construct plain
dicts, lists and scalars from it ourselves so that:

* every key path maps to its position, for error messages;
* duplicate keys are reported instead of silently overwritten;
* dates stay text (the typed model parses them, so a bad date is a normal error);
* only ``true``/``false`` are booleans (``no`` or ``on`` stay words, as in YAML 1.2);
* a syntax error is explained in editors' words, with how to fix it;
* nesting deeper than :data:`MAX_DEPTH` is refused before anything recursive reads it,
  and a byte that is not UTF-8 is reported at its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from generator.content import yaml_limits
from generator.content.yaml_errors import Position, YamlSyntaxError, explain, mark_position
from generator.content.yaml_limits import MAX_DEPTH, MAX_NODES, too_deep  # noqa: F401 - MAX_*: the limits, re-exported
from generator.memo import collector_paused

KeyPath = tuple[str | int, ...]

_BOOLEANS = {"true": True, "false": False}


@dataclass
class _Positions:
    """Where each key and value of a document stands (the key paths are the data's)."""

    keys: dict[KeyPath, Position] = field(default_factory=dict)
    values: dict[KeyPath, Position] = field(default_factory=dict)
    spans: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)  # of each value, as character indexes


@dataclass
class YamlDocument:
    """Plain data plus the positions of its keys and values.

    The positions are only read to say where a problem is, and a big map's documents would hold
    hundreds of thousands of them (half the memory of its reading, kept between builds): they are
    worked out from ``source`` the first time one is asked for, and never kept on disk."""

    data: Any
    duplicate_keys: list[tuple[KeyPath, Position]] = field(default_factory=list)
    first_key_positions: dict[KeyPath, Position] = field(default_factory=dict)  # of duplicated keys
    source: str = ""
    located: _Positions | None = field(default=None, repr=False, compare=False)

    def _positions(self) -> _Positions:
        if self.located is None:
            self.located = _locate(self.source)
        return self.located

    @property
    def key_positions(self) -> dict[KeyPath, Position]:
        return self._positions().keys

    @property
    def value_positions(self) -> dict[KeyPath, Position]:
        return self._positions().values

    @property
    def value_spans(self) -> dict[KeyPath, tuple[int, int]]:
        return self._positions().spans

    def __getstate__(self) -> dict:
        return {**self.__dict__, "located": None}  # worked out again when needed: small on disk

    def text_position(self, path: KeyPath, offset: int) -> Position:
        """Position of the character at ``offset`` of a text value, exact where it can be found.

        The word starting at ``offset`` (such as ``[@smith2020]``) is looked up in the
        value's own stretch of the file, so the place is exact for `|` and `>` blocks,
        plain and quoted text alike; otherwise the value's start is the answer.
        """
        text = self.value(path)
        span = self.value_spans.get(path)
        if isinstance(text, str) and span and 0 <= offset < len(text):
            word = re.match(r"\S+", text[offset:])
            if word:
                needle = word.group(0)
                nth = text.count(needle, 0, offset)
                index = span[0] - 1
                for _ in range(nth + 1):
                    index = self.source.find(needle, index + 1, span[1])
                    if index < 0:
                        break
                if index >= 0:
                    return self.index_position(index)
        return self.position(path, value=True)

    def index_position(self, index: int) -> Position:
        """Line and column of a character index into the source."""
        line_start = self.source.rfind("\n", 0, index) + 1
        return Position(self.source.count("\n", 0, index) + 1, index - line_start + 1)

    def value(self, path: KeyPath) -> Any:
        """The plain value at a key path (KeyError / IndexError / TypeError when absent)."""
        value = self.data
        for step in path:
            value = value[step]
        return value

    _value = value  # the former private name

    def has(self, path: KeyPath) -> bool:
        try:
            self.value(path)
        except (KeyError, IndexError, TypeError):
            return False
        return True

    def position(self, path: KeyPath, *, value: bool = False) -> Position:
        """The best position for a path: the key, its value, or the nearest parent.

        With ``value=True`` a scalar value (text, number) is pointed at itself rather
        than at its key, so the editor's caret lands on the word to change.
        """
        if value and path in self.value_positions and self.has(path):
            if not isinstance(self.value(path), (dict, list, type(None))):
                return self.value_positions[path]
        for length in range(len(path), -1, -1):
            prefix = path[:length]
            if prefix in self.key_positions:
                return self.key_positions[prefix]
            if prefix in self.value_positions:
                return self.value_positions[prefix]
        return Position(1, 1)


def _mark(node: yaml.Node | yaml.Event) -> Position:
    return mark_position(node)


def _scalar(node: yaml.ScalarNode) -> Any:
    tag, value = node.tag, node.value
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return _BOOLEANS.get(value.lower(), value)
    if ":" in value:  # YAML 1.1 base-60 numbers (`12:30:00`) stay text, as in YAML 1.2
        return value
    if tag.endswith(":int"):
        return yaml.SafeLoader.construct_yaml_int(_CONSTRUCTOR, node)
    if tag.endswith(":float"):
        return yaml.SafeLoader.construct_yaml_float(_CONSTRUCTOR, node)
    return value


_CONSTRUCTOR = yaml.SafeLoader("")


class _Builder:
    """Builds plain data from nodes, refusing aliases that contain themselves or explode; with
    ``where``, also notes every key's and value's position there."""

    def __init__(self, doc: YamlDocument, where: _Positions | None = None) -> None:
        self.doc, self.where = doc, where
        self.open: set[int] = set()  # nodes being built: meeting one again is a recursive alias
        self.count = 0

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        doc = self.doc
        self.count += 1
        if len(path) > yaml_limits.MAX_DEPTH:  # aliases can stack shallow pieces into deep ones
            raise too_deep(node)
        if self.count > yaml_limits.MAX_NODES:
            raise YamlSyntaxError("YAML syntax: the file expands to too many values (aliases `*` repeat too much)",
                                  _mark(node), "write the values out instead of repeating anchors with `*`")
        if id(node) in self.open:
            raise YamlSyntaxError("YAML syntax: an alias `*` refers to the value that contains it", _mark(node),
                                  "remove the alias, or write the value out in full")
        where = self.where
        if where is not None:
            where.values[path] = _mark(node)
            where.spans[path] = (node.start_mark.index, node.end_mark.index)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
            result: dict[str, Any] = {}
            key_nodes: dict[str, yaml.Node] = {}
            for key_node, value_node in node.value:
                key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else \
                    doc.source[key_node.start_mark.index : key_node.end_mark.index].strip() or "?"
                child = (*path, key)
                if key in result and where is None:
                    doc.duplicate_keys.append((child, _mark(key_node)))
                    doc.first_key_positions.setdefault(child, _mark(key_nodes[key]))
                key_nodes[key] = key_node
                if where is not None:
                    where.keys[child] = _mark(key_node)  # the last one wins, as its value does
                result[key] = self.build(value_node, child)
            return result
        finally:
            self.open.discard(id(node))


def _build(node: yaml.Node, path: KeyPath, doc: YamlDocument) -> Any:
    return _Builder(doc).build(node, path)


def _locate(source: str) -> _Positions:
    """The positions in a document read before (so valid YAML): the same nodes, composed again."""
    where = _Positions()
    if source:
        with collector_paused():
            root = _compose(source)
            if root is not None:
                _Builder(YamlDocument(data=None, source=source), where).build(root, ())
    return where


def _explain(error: yaml.MarkedYAMLError, text: str) -> tuple[str, Position, str]:
    """(message, position, hint) for a PyYAML error, in an editor's words (content/yaml_errors.py)."""
    found = explain(error, text)
    return found.message, Position(found.line, found.column), found.hint


FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~15× faster, same nodes and marks


def _compose(text: str) -> yaml.Node | None:
    """Compose with libyaml when it is there; any problem is re-read by the pure-Python
    loader, whose error messages the explanations below are written for."""
    if FAST_LOADER is not yaml.SafeLoader:
        try:
            return yaml.compose(text, Loader=FAST_LOADER)
        except yaml.YAMLError:
            pass
    return yaml.compose(text, Loader=yaml.SafeLoader)


def text_fields(value: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    """Every text value below ``value`` with its key path (citations and prose numbers live there)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from text_fields(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from text_fields(item, (*path, index))


def decode_utf8(data: bytes) -> str:
    """The text of a file's bytes; a byte that is not UTF-8 raises :class:`YamlSyntaxError`
    at its line and column (columns count characters, as editors do)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        column = len(data[line_start : error.start].decode("utf-8", errors="replace")) + 1
        raise YamlSyntaxError(f"the byte 0x{data[error.start]:02x} is not UTF-8 text", Position(data.count(b"\n", 0, error.start) + 1, column),
                              "save the file as UTF-8 (most editors: File → Save with Encoding → UTF-8), "
                              "or retype the character here") from None


def parse_yaml(text: str) -> YamlDocument:
    """Parse one YAML document; raise :class:`YamlSyntaxError` with its position."""
    # Parsing makes many objects and no cycles: with the collector running, a document twice as large
    # read twice as slowly per node (sources.yaml at 2,000 topics: 1.9 s, 0.7 s without).
    with collector_paused():
        return _parse_yaml(text)


def _parse_yaml(text: str) -> YamlDocument:
    try:
        yaml_limits.check_events(text, FAST_LOADER)
        root = _compose(text)
    except yaml.MarkedYAMLError as error:
        message, position, hint = _explain(error, text)
        raise YamlSyntaxError(f"YAML syntax: {message}", position, hint) from None
    except yaml.YAMLError as error:
        raise YamlSyntaxError(f"YAML syntax: {error}", Position(1, 1)) from None
    doc = YamlDocument(data=None, source=text)
    if root is not None:
        doc.data = _build(root, (), doc)
    return doc
