"""What each kind of schema error says to an editor, and how it says to fix it: one table.

:data:`EXPLANATIONS` maps a pydantic error type to the function that words it.  The
types are pydantic's own (``missing``, ``extra_forbidden``, ``string_too_short``,
``literal_error``, …) and the schema's rules (raised with
:func:`generator.content.schema.rule_error`, e.g. ``source_not_findable``).  Each function
reads only the error's structured parts: its type, its context (``ctx``), the value
and the schema's declaration of the field; never the wording of pydantic's message.
"""

from __future__ import annotations

import calendar
import difflib
import re
from typing import Any

from pydantic import BaseModel

from generator.content.model_paths import Failure, field_at, model_at
from generator.content.schema import (
    ARXIV_PATTERN,
    CITATION_KEY_PATTERN,
    COLOUR_PATTERN,
    DEPTH_KEYS,
    DOI_PATTERN,
    SLUG_PATTERN,
    URL_PATTERN,
    Depths,
)
from generator.content.yaml_source import KeyPath

Explanation = tuple[str, str]  # (what is wrong, how to fix it)


# --- keys -------------------------------------------------------------------------


def _in_depths(root: type[BaseModel], parent: KeyPath) -> bool:
    """Whether ``parent`` is a topic's ``depths:`` (where keys are depths, not fields)."""
    model = model_at(root, parent)
    return model is Depths or (model is None and parent[-1:] == ("depths",))


def near_spelling(root: type[BaseModel], path: KeyPath) -> str | None:
    """The allowed key that the unknown key at ``path`` is a near spelling of, if any."""
    key = str(path[-1])
    if _in_depths(root, path[:-1]):
        return key.upper() if key.upper() in DEPTH_KEYS else None
    parent = model_at(root, path[:-1])
    close = difflib.get_close_matches(key, sorted(parent.model_fields) if parent else [], n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_key(f: Failure) -> Explanation:
    key, meant = str(f.path[-1]), near_spelling(f.root, f.path)
    if _in_depths(f.root, f.path[:-1]):
        if meant:
            return f"depth `{key}` is outside D1–D5 (depth keys are upper-case)", f"did you mean `{meant}`?"
        return f"depth `{key}` is outside D1–D5", f"use one of {', '.join(DEPTH_KEYS)}"
    if meant:
        return f"unknown key `{key}`", f"did you mean `{meant}`?"
    parent = model_at(f.root, f.path[:-1])
    return f"unknown key `{key}`", f"remove it, or use one of: {', '.join(sorted(parent.model_fields) if parent else [])}"


def missing(f: Failure) -> Explanation:
    key, path = str(f.path[-1]), f.path
    where = ("to the file" if len(path) == 1 else
             "to this item" if isinstance(path[-2], int) else f"under `{path[-2]}:`")
    if f.model is not None:
        return (f"missing required field `{key}`",
                f"add `{key}:` {where}, with {', '.join(f.model.model_fields)} indented below it")
    return f"missing required field `{key}`", f"add `{key}: …` {where}{f.aside}"


# --- types ------------------------------------------------------------------------

# What a type error expected, in words; the errors of a union's branches are joined with "or".
EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping of `key: value` lines",
    "model_type": "a mapping of `key: value` lines",
    "model_attributes_type": "a mapping of `key: value` lines",
}


def _either(expected: list[str]) -> str:
    """"a number or text" from the expectations of a union's branches."""
    words = list(dict.fromkeys(expected))
    if "a number" in words and "a whole number" in words:
        words.remove("a whole number")
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def type_error(f: Failure, expected: list[str]) -> Explanation:
    """A value of the wrong type; ``expected`` holds one wording per union branch that refused it."""
    wanted = _either(expected)
    if f.value is None:
        model = f.model
        if model is not None:
            return (f"is empty, but must be {wanted}",
                    f"write its keys ({', '.join(model.model_fields)}) below it{f.or_remove}")
        return f"is empty, but must be {wanted}", f"write the value after `{f.key}:`{f.or_remove}"
    message = f"expected {wanted}, got {f.shown}"
    if len(set(expected)) > 1:
        return message, f"write a single value: {wanted}"
    return message, _type_fix(f, wanted)


def wrong_type(f: Failure) -> Explanation:
    """A value of the wrong type, refused by the one type its field allows."""
    return type_error(f, [EXPECTED[f.kind]])


def _type_fix(f: Failure, wanted: str) -> str:
    key, value = f.key, f.value
    if wanted == "text" and isinstance(value, (int, float, bool)):
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        return f'put it in quotes: `{key}: "{shown}"`'
    if wanted == "text":
        return "write a single piece of text (a `|` block for several paragraphs)"
    if wanted == "a list" and isinstance(value, (str, int, float)):
        return f'write it as a list: `{key}: ["{value}"]`, or one `- item` per line below `{key}:`'
    if wanted == "a list":
        return f"write one `- item` per line below `{key}:`"
    if "mapping" in wanted:
        return _mapping_fix(f)
    if "whole number" in wanted:
        return f"write digits only, e.g. `{key}: 2`{f.aside}"
    return f"write {wanted}"


def _mapping_fix(f: Failure) -> str:
    fields = list(f.model.model_fields) if f.model else []
    keys = f", with the keys {', '.join(fields)}" if fields else ""
    if f.path and isinstance(f.path[-1], int) and fields and isinstance(f.value, str):  # `- text` in a list of mappings
        text = f.value if len(f.value) <= 30 else f.value[:29] + "…"
        return f"write the item as `- {fields[0]}: {text}`{keys}"
    return f"write indented `key: value` lines below `{f.key}:`{keys}"


def whole_number(f: Failure) -> Explanation:
    return f"{f.shown} is not a whole number", f"use a whole number, e.g. `{f.key}: {int(f.value)}`"


# --- dates ------------------------------------------------------------------------

DATE_ERRORS = ("date_type", "date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact")
DATE_FIX = "write the date as YYYY-MM-DD, e.g. 2026-10-30"
PARTIAL_DATE_FIX = 'write it as "YYYY", "YYYY-MM" or "YYYY-MM-DD" in quotes, e.g. "2024-05"'


def _calendar_slip(value: Any) -> str:
    """Which part of a text starting `YYYY-MM-DD` names no day of the calendar: "month", "day" or ""."""
    head = value[:10] if isinstance(value, str) else ""
    parts = head.split("-")
    if len(head) != 10 or [len(p) for p in parts] != [4, 2, 2] or not all(p.isdigit() for p in parts):
        return ""
    year, month, day = (int(p) for p in parts)
    if not 1 <= month <= 12:
        return "month"
    return "" if 1 <= day <= calendar.monthrange(year, month)[1] else "day"


def date_error(f: Failure) -> Explanation:
    slip = _calendar_slip(f.value)
    detail = ""
    if slip == "month":
        detail = " (there is no such month)"
    elif slip == "day":
        detail = " (that month has no such day)"
    elif f.kind == "date_from_datetime_inexact" or isinstance(f.value, (int, float)):
        detail = " (a full date is needed)"
    return f"{f.shown} is not a valid date{detail}", DATE_FIX


def partial_date(f: Failure) -> Explanation:
    detail = f" ({f.context['reason']})" if "reason" in f.context else ""
    return f"{f.shown} is not a valid date{detail}", PARTIAL_DATE_FIX


# --- forms of text ----------------------------------------------------------------

# Each pattern of the schema: (message, fix), formatted with the value as `shown`, the noun the key
# names as `noun` and the value written as a slug as `slug`.
PATTERNS: dict[str, Explanation] = {
    URL_PATTERN: ("{shown} is not a web address",
                  "write the full address starting with https:// (or http://), without spaces"),
    COLOUR_PATTERN: ("{shown} is not a colour", "write it as # and six hex digits, e.g. `#c62828`"),
    ARXIV_PATTERN: ("{shown} is not an arXiv identifier", "write the identifier without a version, e.g. `2407.21783`"),
    DOI_PATTERN: ("{shown} is not a DOI", "write the DOI without https://doi.org/, e.g. `10.1145/361147.361115`"),
    CITATION_KEY_PATTERN: ("{shown} is not a valid citation key",
                           "start with a letter and use only letters, digits, `_` and `-`, e.g. `smith2024`"),
    SLUG_PATTERN: ("{shown} is not a valid {noun}: it must be lower-case words joined by hyphens", "write `{slug}`"),
}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "my-topic"


def pattern_error(f: Failure) -> Explanation:
    known = PATTERNS.get(str(f.context.get("pattern", "")))
    if known is None:
        return f"{f.shown} has the wrong form", f.description or f"see schema/ for the form of `{f.key}`"
    noun = "id" if f.key in ("id", "subject", "object") else f.key
    words = {"shown": f.shown, "noun": noun, "slug": _slug(str(f.value))}
    return known[0].format(**words), known[1].format(**words)


def literal_error(f: Failure) -> Explanation:
    expected = str(f.context.get("expected", "")).replace("'", "`")
    return f"{f.shown} is not allowed", f"use one of {expected}"


# --- lengths and ranges -----------------------------------------------------------


def empty_text(f: Failure) -> Explanation:
    if f.path and isinstance(f.path[-1], int):
        return "is empty", "write the text of this item, or remove the item"
    return "is empty", f"write the text after `{f.key}:`{f.or_remove}"


def text_too_long(f: Failure) -> Explanation:
    most = f.context.get("max_length")
    most = f"{most:,}" if isinstance(most, int) else str(most)
    if f.key == "summary":
        hint = "shorten it to one sentence; details belong in the depths"
    elif f.key in ("title", "label", "name", "verb"):
        hint = f"shorten it to {most} characters or fewer: it is shown where a few words fit (map boxes, lists, tabs)"
    else:
        hint = f"shorten it to {most} characters or fewer"
    return f"is {len(str(f.value)):,} characters long; at most {most} are allowed", hint


def too_many_items(f: Failure) -> Explanation:
    most, found = f.context.get("max_length"), f.context.get("actual_length")
    counted = f" ({found:,})" if isinstance(found, int) else ""
    why = _FEWER.get(f.key, "remove some")
    return f"has more than {most} items{counted}", f"at most {most} are allowed: {why}"


_FEWER = {  # how to need fewer items, by key
    "banned": "keep the terms that matter most at this depth",
    "values": "sweep fewer values (a reader follows a few dozen states, not thousands), or sweep in bigger steps",
    **{key: "remove some, or move them to another depth or topic" for key in ("tradeoffs", "exercises", "items", "edges")},
}


def too_few_items(f: Failure) -> Explanation:
    least, actual = f.context.get("min_length", 1), f.context.get("actual_length", 0)
    if f.key == "steps":
        return (f"a flow needs at least {least} steps, found {actual}",
                "add another step, or write the single step into the depth's `body` and remove `flow`")
    noun = "item" if least == 1 else "items"
    return f"needs at least {least} {noun}, found {actual}", f"add items as `- …` lines below `{f.key}:`{f.or_remove}"


_LIMIT_WORDS = {"ge": "of at least", "gt": "greater than", "le": "of at most", "lt": "less than"}


def out_of_range(f: Failure) -> Explanation:
    field = field_at(f.root, f.path)
    limits = {name: getattr(m, name) for m in getattr(field, "metadata", []) for name in _LIMIT_WORDS
              if getattr(m, name, None) is not None}
    limits |= {name: bound for name, bound in f.context.items() if name in _LIMIT_WORDS}
    shown = {name: f"{bound:g}" if isinstance(bound, float) else str(bound) for name, bound in limits.items()}
    if "ge" in shown and "le" in shown:
        bounds = f"from {shown['ge']} to {shown['le']}"
    else:
        bounds = " and ".join(f"{_LIMIT_WORDS[name]} {bound}" for name, bound in shown.items())
    if f.kind == "finite_number":  # .inf or .nan where only a finite number means anything
        return f"{f.shown} is not a finite number", f"use a finite number {bounds}{f.aside}"
    return f"{f.shown} is out of range", f"use a number {bounds}{f.aside}"


# --- rules across keys ------------------------------------------------------------


def entry_rule(f: Failure) -> Explanation:
    """A rule across the keys of one mapping (a step, a claim): the rule's message, and the entry's purpose."""
    model = f.model
    doc = (model.__doc__ or "").strip().splitlines()[0].rstrip(".") if model and model.__doc__ else ""
    doc = doc[:1].lower() + doc[1:]
    return f.rule_message, f"change the keys of this entry ({doc})" if doc else "change the keys of this entry as the message says"


def rule_with_fix(f: Failure) -> Explanation:
    """A rule raised with its own fix (:func:`generator.content.schema.rule_error`)."""
    return f.rule_message, str(f.context.get("fix", "")) or "change the entry as the message says"


def value_error(f: Failure) -> Explanation:
    """A plain ``ValueError`` of a model outside the schema's own rules: its reason, as written."""
    if isinstance(f.value, dict):
        return entry_rule(Failure(f.root, f.path, f.kind, f.value, f.context, str(f.context.get("error", ""))))
    return f"{f.shown} is not valid: {f.context.get('error', '')}", f.description or "see schema/ for the allowed values"


def unexplained(f: Failure) -> Explanation:
    """An error type no entry of the table words: pydantic's message and the field's description."""
    return f.rule_message, f.description or "see schema/ for the allowed form"
