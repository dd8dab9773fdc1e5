"""Read YAML into plain data while remembering where every key and value stands.

PyYAML composes the node tree (with line and column marks); we construct plain
dicts, lists and scalars from it ourselves so that:

* every key path maps to its position, for error messages;
* duplicate keys are reported instead of silently overwritten;
* dates stay text (the typed model parses them, so a bad date is a normal error);
* only ``true``/``false`` are booleans (``no`` or ``on`` stay words, as in YAML 1.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

KeyPath = tuple[str | int, ...]

_BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class YamlDocument:
    """Plain data plus the positions of its keys and values."""

    data: Any
    key_positions: dict[KeyPath, Position] = field(default_factory=dict)
    value_positions: dict[KeyPath, Position] = field(default_factory=dict)
    duplicate_keys: list[tuple[KeyPath, Position]] = field(default_factory=list)
    literal_blocks: set[KeyPath] = field(default_factory=set)

    def text_position(self, path: KeyPath, offset: int) -> Position:
        """Position of a character inside a text value (exact for `|` blocks)."""
        start = self.position(path)
        text = self._value(path)
        if path in self.literal_blocks and isinstance(text, str):
            return Position(start.line + 1 + text[:offset].count("\n"), start.column)
        return start

    def _value(self, path: KeyPath) -> Any:
        value = self.data
        for step in path:
            value = value[step]
        return value

    def position(self, path: KeyPath) -> Position:
        """The best position for a path: the key, its value, or the nearest parent."""
        for length in range(len(path), -1, -1):
            prefix = path[:length]
            if prefix in self.key_positions:
                return self.key_positions[prefix]
            if prefix in self.value_positions:
                return self.value_positions[prefix]
        return Position(1, 1)


class YamlSyntaxError(Exception):
    def __init__(self, message: str, position: Position) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def _mark(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def _scalar(node: yaml.ScalarNode) -> Any:
    tag, value = node.tag, node.value
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return _BOOLEANS.get(value.lower(), value)
    if tag.endswith(":int"):
        return yaml.SafeLoader.construct_yaml_int(_CONSTRUCTOR, node)
    if tag.endswith(":float"):
        return yaml.SafeLoader.construct_yaml_float(_CONSTRUCTOR, node)
    return value


_CONSTRUCTOR = yaml.SafeLoader("")


def _build(node: yaml.Node, path: KeyPath, doc: YamlDocument) -> Any:
    doc.value_positions[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = str(_scalar(key_node)) if isinstance(key_node, yaml.ScalarNode) else "?"
            child = (*path, key)
            if key in result:
                doc.duplicate_keys.append((child, _mark(key_node)))
            doc.key_positions[child] = _mark(key_node)
            result[key] = _build(value_node, child, doc)
        return result
    if isinstance(node, yaml.ScalarNode) and node.style == "|":
        doc.literal_blocks.add(path)
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, index), doc) for index, item in enumerate(node.value)]
    return _scalar(node)


def parse_yaml(text: str) -> YamlDocument:
    """Parse one YAML document; raise :class:`YamlSyntaxError` with its position."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
        problem = error.problem or error.context or "invalid YAML"
        raise YamlSyntaxError(f"YAML syntax: {problem}", position) from None
    except yaml.YAMLError as error:
        raise YamlSyntaxError(f"YAML syntax: {error}", Position(1, 1)) from None
    doc = YamlDocument(data=None)
    if root is not None:
        doc.data = _build(root, (), doc)
    return doc
