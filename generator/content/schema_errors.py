"""Turn pydantic's validation errors into editor-friendly diagnostics.

Each diagnostic says what is wrong and how to fix it, and stands at the key or
value it concerns.  Pydantic's own vocabulary never reaches the editor: union
branch names (``str``, ``constrained-str``, ``function-after[…]``) are dropped
from key paths, the errors of one value's union branches become one message,
and a missing field that is only misspelt is reported once, at the misspelling.

What each error type says is declared once, in :data:`EXPLANATIONS`; the words
come from the error's structured parts (type, context, value), never from the
text of pydantic's message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.content import error_messages as words
from generator.content.model_paths import Failure, data_path, dotted, model_at
from generator.content.yaml_source import KeyPath, Position, YamlDocument
from generator.diagnostics import Diagnostic

__all__ = ["EXPLANATIONS", "data_path", "diagnostics_from", "dotted", "model_at"]

Explain = Callable[[Failure], words.Explanation]

EXPLANATIONS: dict[str, Explain] = {
    # keys
    "extra_forbidden": words.unknown_key,
    "missing": words.missing,
    # types (a union's branches are worded together by diagnostics_from)
    **{kind: words.wrong_type for kind in words.EXPECTED},
    "int_from_float": words.whole_number,
    **{kind: words.date_error for kind in words.DATE_ERRORS},
    # forms, lengths, ranges, choices
    "string_pattern_mismatch": words.pattern_error,
    "literal_error": words.literal_error,
    "string_too_short": words.empty_text,
    "string_too_long": words.text_too_long,
    "too_short": words.too_few_items,
    "too_long": words.too_many_items,
    **{kind: words.out_of_range
       for kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than", "finite_number")},
    "value_error": words.value_error,
    # the schema's own rules (generator.content.schema.rule_error and its validators)
    "partial_date": words.partial_date,
    "partial_date_not_in_calendar": words.partial_date,
    "step_kind": words.entry_rule,
    "sweep_without_values": words.entry_rule,
    "values_without_sweep": words.entry_rule,
    "claim_kind": words.entry_rule,
    "becomes_without_when": words.entry_rule,
    "source_not_findable": words.rule_with_fix,
    "markdown_shape": words.rule_with_fix,
    "too_many_states": words.rule_with_fix,
}


def explain(failure: Failure) -> words.Explanation:
    """What is wrong and how to fix it, as the table says for the failure's type."""
    return EXPLANATIONS.get(failure.kind, words.unexplained)(failure)


def _place(doc: YamlDocument, failure: Failure) -> Position:
    kind, path = failure.kind, failure.path
    if kind == "extra_forbidden" and path in doc.key_positions:
        return doc.key_positions[path]
    if kind == "missing":
        return doc.position(path[:-1])
    offset = failure.context.get("offset")
    if isinstance(offset, int) and isinstance(failure.value, str):  # a place inside the (trimmed) text
        return doc.text_position(path, offset + len(failure.value) - len(failure.value.lstrip()))
    return doc.position(path, value=True)


def _grouped(error: ValidationError, data: Any) -> dict[KeyPath, list[dict[str, Any]]]:
    """Pydantic's errors by the key path they concern (a union's branches share one path)."""
    grouped: dict[KeyPath, list[dict[str, Any]]] = {}
    for item in error.errors():
        grouped.setdefault(data_path(item["loc"], data, item["type"]), []).append(item)
    return grouped


def diagnostics_from(
    error: ValidationError, root: type[BaseModel], doc: YamlDocument, file: str
) -> list[Diagnostic]:
    """One diagnostic per wrong value, placed at the key or value it concerns."""
    grouped = _grouped(error, doc.data)
    missing = [path for path, items in grouped.items() if items[0]["type"] == "missing"]
    extras = [path for path, items in grouped.items() if items[0]["type"] == "extra_forbidden"]

    found = []
    for path, items in grouped.items():
        first = Failure.of(root, path, items[0])
        if first.kind == "missing" and _misspelt(root, path, extras):
            continue  # reported at the misspelt key instead
        type_errors = [words.EXPECTED[i["type"]] for i in items if i["type"] in words.EXPECTED]
        if len(type_errors) > 1:  # one value failed every branch of a union: one message
            message, hint = words.type_error(first, type_errors)
        else:
            message, hint = explain(first)
        if first.kind == "extra_forbidden" and (meant := words.near_spelling(root, path)) in _beside(path, missing):
            hint = f"did you mean `{meant}`? (`{meant}` is required and missing)"
        found.append(Diagnostic.error(file, _place(doc, first), dotted(path), message, hint))
    return found


def _beside(path: KeyPath, others: list[KeyPath]) -> set[str | int]:
    """The last steps of the paths among ``others`` that share ``path``'s parent."""
    return {other[-1] for other in others if other[:-1] == path[:-1]}


def _misspelt(root: type[BaseModel], missing: KeyPath, extras: list[KeyPath]) -> bool:
    """Whether a missing key sits beside an unknown key that is its near spelling."""
    return any(words.near_spelling(root, extra) == missing[-1] for extra in extras if extra[:-1] == missing[:-1])
