"""Where a calculator declares something: the line of ``SOURCES[2].date`` in its Python source.

A calculator's declarations are Python literals (lists of dicts) assigned at the top of its module;
some entries come from calls (``shared_sources(...)``, ``accelerator_options(...)``) whose records
are literals in another module of the package (calculators/_datasheets.py). Reading the source with
``ast`` finds the literal that holds a value; when a path leads into a call, the record is looked up
by its ``id`` in the package's other modules, else the call's own line is the place.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Place:
    """A file and a line and column in it (1-based)."""

    file: Path
    line: int
    column: int


def _tree(file: Path) -> ast.Module | None:
    """The parsed module, or None when it cannot be read (its import failure is reported instead)."""
    try:
        return _parsed(file, file.stat().st_mtime_ns)
    except OSError:
        return None


@cache
def _parsed(file: Path, modified: int) -> ast.Module | None:  # modified: a new parse after each edit
    try:
        return ast.parse(file.read_text(encoding="utf-8"), str(file))
    except (OSError, SyntaxError, ValueError):
        return None


def _assigned(tree: ast.Module, name: str) -> ast.expr | None:
    """The value assigned to a top-level name (``NAME = ...`` or ``NAME: type = ...``)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    return None


def _step(node: ast.expr, key: str | int) -> ast.expr | None:
    """The literal one step further down, or None when it is not written as a literal here."""
    if isinstance(node, (ast.List, ast.Tuple)) and isinstance(key, int):
        before = node.elts[:key + 1]
        if len(node.elts) > key and not any(isinstance(item, ast.Starred) for item in before):
            return node.elts[key]
    if isinstance(node, ast.Dict) and isinstance(key, str):
        for name, value in zip(node.keys, node.values):
            if isinstance(name, ast.Constant) and name.value == key:
                return value
    return None


def _descend(node: ast.expr, path: Path_) -> tuple[ast.expr, Path_]:
    """As far down ``path`` as literals go: the node reached and the rest of the path."""
    for index, key in enumerate(path):
        deeper = _step(node, key)
        if deeper is None:
            return node, path[index:]
        node = deeper
    return node, ()


def _record(tree: ast.Module, record_id: str) -> ast.Dict | None:
    """A dict literal anywhere in the module with ``"id": record_id``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and record_id in [
            value.value for name, value in zip(node.keys, node.values)
            if isinstance(name, ast.Constant) and name.value == "id" and isinstance(value, ast.Constant)
        ]:
            return node
    return None


def _place(file: Path, node: ast.AST) -> Place:
    return Place(file, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)


def declaration_place(file: Path, path: Path_, record_id: str | None = None, others: tuple[Path, ...] = ()) -> Place:
    """Where ``path`` (e.g. ``("SOURCES", 2, "date")``) is written for the calculator in ``file``.

    ``record_id`` is the ``id`` of the record the path goes through (a source or preset option):
    when the record is not a literal in ``file``, it is looked for in ``others`` (the package's shared
    modules, such as calculators/_datasheets.py).
    Falls back to the declaration's own line, then to line 1.
    """
    tree = _tree(file)
    value = _assigned(tree, str(path[0])) if tree and path else None
    if value is None:
        return Place(file, 1, 1)
    node, rest = _descend(value, path[1:])
    if not rest or record_id is None:
        return _place(file, node)
    for other in [file, *others]:
        found = _record(_tree(other), record_id) if _tree(other) else None
        if found is not None:
            record_index = next((i for i, key in enumerate(rest) if not isinstance(key, int)), len(rest))
            deeper, _ = _descend(found, rest[record_index:])
            return _place(other, deeper)
    return _place(file, node)
