"""Stage 3, checks: everything a single schema cannot say. Each check is a function of the content that
returns diagnostics (errors and warnings); this module runs them in order."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace

from generator.checks.exercises import check_exercises
from generator.checks.lints import check_quality
from generator.checks.page_links import check_page_links
from generator.checks.prose_numbers import check_prose_numbers
from generator.checks.references import check_content, check_topics
from generator.checks.sources import citation_problems
from generator.content.loading import Content, Reading, TopicFile
from generator.diagnostics import Diagnostic


def check_reading(reading: Reading, known_sources: Collection[str] | None) -> list[Diagnostic]:
    """The cross-file problems of what was read. A file that failed its schema still has its
    citations checked, and its id counts as known, so one mistake does not hide or cascade into others;
    without a valid map only the checks that do not need it run (``known_sources`` None: sources.yaml
    names no keys, and no citation is judged)."""
    unreadable = {failed.id for failed in reading.failed_topics}
    found = [d for failed in reading.failed_topics if failed.doc is not None and isinstance(failed.doc.data, dict)
             for d in citation_problems(failed.file, failed.doc, known_sources)]
    if reading.map is None:
        found += check_topics(reading.topics, None, unreadable)
        return found + [d for tf in reading.topics for d in citation_problems(tf.file, tf.doc, known_sources)]
    content = reading.content()
    return found + check_content(content, unreadable) + check_page_links(content)  # links: the whole map at once


def check_claims_and_prose(content: Content, memo: ClaimsMemo | None = None) -> list[Diagnostic]:
    """What needs the calculators run and the prose read: quality lints, every thing to try played,
    every number in prose computed. Each of these looks at one topic at a time (with the map's
    settings and the bibliography), so with a ``memo`` a topic read the same as last time keeps
    its findings."""
    if memo is None:
        return [*check_quality(content), *check_exercises(content), *check_prose_numbers(content)]
    memo.follow(content)
    found = []
    for tf in content.topics:
        known = memo.topics.get(tf.file)
        if known is None or known[0] is not tf:
            known = (tf, check_claims_and_prose(replace(content, topics=[tf], warnings=[])))
            memo.topics[tf.file] = known
        found += known[1]
    return found


@dataclass
class ClaimsMemo:
    """Each topic file's findings, kept while its reading (the same object) and the context are unchanged."""

    context: tuple = ()
    topics: dict[str, tuple[TopicFile, list[Diagnostic]]] = field(default_factory=dict)

    def follow(self, content: Content) -> None:
        """Forget everything when the map's settings or the bibliography changed."""
        context = (content.map, content.bibliography)
        if context != self.context:
            self.context = context
            self.topics.clear()
