"""Stage 3, checks: everything a single schema cannot say. Each check is a function of the content that
returns diagnostics (errors and warnings); this module runs them in order."""

from __future__ import annotations

from collections.abc import Collection

from generator.checks.exercises import check_exercises
from generator.checks.lints import check_quality
from generator.checks.prose_numbers import check_prose_numbers
from generator.checks.references import check_content, check_topics
from generator.checks.sources import citation_problems
from generator.content.loading import Content, Reading
from generator.diagnostics import Diagnostic


def check_reading(reading: Reading, known_sources: Collection[str]) -> list[Diagnostic]:
    """The cross-file problems of what was read. A file that failed its schema still has its
    citations checked, and its id counts as known, so one mistake does not hide or cascade into others;
    without a valid map only the checks that do not need it run."""
    unreadable = {failed.id for failed in reading.failed_topics}
    found = [d for failed in reading.failed_topics if failed.doc is not None and isinstance(failed.doc.data, dict)
             for d in citation_problems(failed.file, failed.doc, known_sources)]
    if reading.map is None:
        found += check_topics(reading.topics, None, unreadable)
        return found + [d for tf in reading.topics for d in citation_problems(tf.file, tf.doc, known_sources)]
    return found + check_content(reading.content(), unreadable)


def check_claims_and_prose(content: Content) -> list[Diagnostic]:
    """What needs the calculators run and the prose read: quality lints, every thing to try played,
    every number in prose computed."""
    return [*check_quality(content), *check_exercises(content), *check_prose_numbers(content)]
