"""Every ``{{ calculator.output(…) }}`` in a topic's prose computed at check time: a typo, an
unknown name or a stray ``{{`` is an error at its line, before any page is written. Only a depth's
text is computed: a ``{{`` in the title, summary, examples or edges (shown as typed, on the map,
in lists, search and the page's description) is an error too."""

from __future__ import annotations

from collections.abc import Iterator

from generator.calculation.prose_numbers import (
    EXPRESSION,
    OPENING,
    ProseNumberError,
    evaluate_number,
    parse_expression,
    unmatched_openings,
)
from generator.content.loading import Content, TopicFile
from generator.content.schema_errors import dotted
from generator.content.yaml_source import text_fields
from generator.diagnostics import Diagnostic

NOT_CHECKED = {"formulas", "calculator"}  # code and calculator settings: braces there are not prose


def _unmatched(tf: TopicFile, path: tuple, text: str) -> Iterator[Diagnostic]:
    for offset, excerpt in unmatched_openings(text):
        yield Diagnostic.error(tf.file, tf.doc.text_position(path, offset), dotted(path),
                               f"`{excerpt}` is not a prose number, so it would be printed as it stands",
                               "write {{ calculator.output(input=value, …) }} with names from calculators/, "
                               "or `\\{\\{` for literal braces")


def _not_computed(tf: TopicFile) -> Iterator[Diagnostic]:
    """A ``{{`` outside the depths: printed as it stands, so named at once (the first of each field)."""
    for path, text in text_fields({key: value for key, value in tf.doc.data.items() if key != "depths"}):
        opening = OPENING.search(text)
        if opening is not None:
            field = dotted(path)
            yield Diagnostic.error(tf.file, tf.doc.text_position(path, opening.start()), field,
                                   "`{{` is not computed here (only a depth's text is), so it would be printed as it stands",
                                   f"write the number itself: `{path[0]}` is shown as typed (on the map, in lists and search); "
                                   "or say it in a depth's text with {{ calculator.output(input=value, …) }}")


def _check_topic(tf: TopicFile) -> Iterator[Diagnostic]:
    yield from _not_computed(tf)
    for path, text in text_fields(tf.doc.data.get("depths", {}), ("depths",)):
        if len(path) > 2 and path[2] in NOT_CHECKED:
            continue
        yield from _unmatched(tf, path, text)
        for match in EXPRESSION.finditer(text):
            try:
                evaluate_number(parse_expression(match))
            except ProseNumberError as error:
                yield Diagnostic.error(tf.file, tf.doc.text_position(path, match.start()), dotted(path),
                                       f"cannot compute `{match.group(0)}`: {error}",
                                       "use {{ calculator.output(input=value, …) }} with names from calculators/")


def check_prose_numbers(content: Content) -> list[Diagnostic]:
    return [d for tf in content.topics for d in _check_topic(tf)]
