"""Quality lints: warnings (never errors) about content that is valid but could read better.

* **Stale examples**: a topic's ``examples.as_of`` older than map.yaml's
  ``stale_examples_after_days`` (365 unless set) means nobody has checked the list lately.
* **An old frontier**: a D5 whose newest cited source is older than map.yaml's
  ``frontier_source_age_months`` (18 unless set) no longer shows the research frontier.
* **Readability**, per depth, from map.yaml's ``readability:`` section: a sentence longer than
  ``max_sentence_words``, a topic whose sentences at that depth average more than
  ``max_average_words``, and any word on the depth's ``banned`` list (jargon that belongs
  deeper down). Each warning points at the line of the offending text.

Only the reader-facing prose of a depth is read: hook, body, flow, analogy, breaks and
trade-offs. Formulas, calculators and exercises are left alone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from pydantic import BaseModel

from generator.content.citations import cited_keys
from generator.content.clobbering import reserved_id_warnings
from generator.content.loading import Content, TopicFile
from generator.content.raw_html import removed_html
from generator.content.schema import DEPTH_KEYS, Depth, MapConfig, Markdown, ReadabilityRule
from generator.content.schema_errors import dotted
from generator.content.yaml_source import KeyPath, YamlDocument, text_fields
from generator.diagnostics import Diagnostic

# Sentence ends: . ! ? (with closing quotes or brackets) before white space; a blank line;
# or the start of a Markdown list item on the next line.
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]*_]*(?=\s|$)|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|\d+\.)[ \t])")
_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "approx", "dr", "mr", "mrs", "ms"}
# Each of these reads from an opening to the nearest closing and never past another opening, so no
# character is read from more than one opening: a text of 30,000 `[` (or `{{`) is read in one pass.
_CITATION = re.compile(r"\[@[^\[\]]*\]")
_EXPRESSION = re.compile(r"\{\{(?:[^{}]|\{(?!\{)|\}(?!\}))*\}\}")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*\)")
_WORD = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9'’.,-]*[A-Za-z0-9])?")  # "e.g", "1.5", "16,384" are one word
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")


@dataclass(frozen=True)
class Sentence:
    offset: int  # where it starts in the field's text
    words: int


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _reader_text(text: str) -> str:
    """The text as read, same length: citations blanked, a computed number counted as one word."""
    text = _CITATION.sub(_blank, text)
    text = _EXPRESSION.sub(lambda m: "N" + " " * (len(m.group(0)) - 1), text)
    return _LINK.sub(lambda m: " " + m.group(1) + " " * (len(m.group(0)) - len(m.group(1)) - 1), text)


_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")


def _after_abbreviation(readable: str, match: re.Match[str]) -> bool:
    """A single full stop right after "e.g", "etc" and the like does not end a sentence.
    The word is read back from the stop over letters and dots only (the whole text before the
    stop, searched at every stop, made a text of many sentences quadratic): a stop has white
    space after it, so no two stops read the same letters."""
    if match.group(0).rstrip("\"'”’)]*_") != ".":
        return False
    start = match.start()
    while start > 0 and readable[start - 1] in _WORD_CHARACTERS:
        start -= 1
    return readable[start : match.start()].lstrip(".").lower() in _ABBREVIATIONS


def sentences(text: str) -> list[Sentence]:
    """The sentences of a Markdown text with where each starts and how many words it has."""
    readable = _reader_text(text)
    found: list[Sentence] = []
    start = 0

    def close(end: int) -> None:
        piece = readable[start:end]
        marker = _LIST_MARKER.match(piece)
        skip = marker.end() if marker else 0
        words = _WORD.findall(piece[skip:])
        if words:
            lead = len(piece[skip:]) - len(piece[skip:].lstrip())
            found.append(Sentence(start + skip + lead, len(words)))

    for match in _SENTENCE_END.finditer(readable):
        if _after_abbreviation(readable, match):
            continue
        close(match.end())
        start = match.end()
    close(len(readable))
    return found


@functools.lru_cache(maxsize=2048)  # each banned term is compiled once, not once per field it is looked for in
def _term_pattern(term: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(part) for part in term.split())
    return re.compile(rf"(?<![\w-]){words}(?:s|es)?(?![\w-])", re.IGNORECASE)


_TOKEN = re.compile(r"[\w-]+")


def _could_match(term: str, tokens: set[str]) -> bool:
    """False only where the term's pattern cannot match a text made of ``tokens`` (its runs of
    word characters and hyphens, case-folded): the first word of a match is one of them, with
    the plural ending if the term is one word. So only a few terms are searched for in a field."""
    parts = term.casefold().split()
    if not parts or not _TOKEN.fullmatch(parts[0]):
        return True  # a term starting with punctuation: searched for
    first = parts[0]
    return first in tokens or (len(parts) == 1 and (first + "s" in tokens or first + "es" in tokens))


def prose_fields(depth: Depth, key: str) -> Iterator[tuple[KeyPath, str]]:
    """(key path, text) of every piece of reader-facing prose in a depth."""
    base: KeyPath = ("depths", key)
    for name in ("hook", "body", "analogy", "breaks"):
        text = getattr(depth, name)
        if text:
            yield (*base, name), text
    if depth.flow:
        yield (*base, "flow", "title"), depth.flow.title
        for index, step in enumerate(depth.flow.steps):
            yield (*base, "flow", "steps", index, "label"), step.label
            if step.detail:
                yield (*base, "flow", "steps", index, "detail"), step.detail
    for index, tradeoff in enumerate(depth.tradeoffs):
        yield (*base, "tradeoffs", index), tradeoff


def _reads_like(config: MapConfig, key: str, term: str) -> str:
    """The shallowest deeper depth whose banned list allows ``term``: where the word belongs."""
    pattern = _term_pattern(term)
    for deeper in DEPTH_KEYS[DEPTH_KEYS.index(key) + 1:]:
        rule = config.readability.get(deeper)
        if rule is None or not any(pattern.fullmatch(banned) for banned in rule.banned):
            return deeper
    return "a deeper level"


def _readability(tf: TopicFile, config: MapConfig, key: str, depth: Depth, rule: ReadabilityRule,
                 likes: dict[tuple[str, str], str]) -> Iterator[Diagnostic]:
    def warn(path: KeyPath, offset: int | None, message: str, hint: str) -> Diagnostic:
        where = tf.doc.text_position(path, offset) if offset is not None else tf.doc.position(path)
        return Diagnostic.warning(tf.file, where, dotted(path), message, hint)

    counts: list[int] = []
    for path, text in prose_fields(depth, key):
        readable = _reader_text(text)
        tokens = {token.casefold() for token in _TOKEN.findall(readable)}
        for term in rule.banned:
            match = _term_pattern(term).search(readable) if _could_match(term, tokens) else None
            if match:
                like = likes.get((key, term)) or likes.setdefault((key, term), _reads_like(config, key, term))
                yield warn(path, match.start(),
                           f"{key} reads like {like}: '{' '.join(match.group(0).split())}' is on {key}'s banned list",
                           f"say it in everyday words at {key}, or leave the term to {like} (map.yaml `readability.{key}.banned`)")
        for sentence in sentences(text):
            counts.append(sentence.words)
            if rule.max_sentence_words and sentence.words > rule.max_sentence_words:
                yield warn(path, sentence.offset,
                           f"a sentence of {sentence.words} words; {key} sentences have at most {rule.max_sentence_words}",
                           f"split it in two (map.yaml `readability.{key}.max_sentence_words`)")
    if rule.max_average_words and counts:
        average = sum(counts) / len(counts)
        if average > rule.max_average_words:
            yield warn(("depths", key), None,
                       f"{key} sentences average {average:.1f} words; the limit is {rule.max_average_words:g}",
                       f"use shorter sentences (map.yaml `readability.{key}.max_average_words`)")


def check_readability(content: Content) -> list[Diagnostic]:
    """Warnings for prose that breaks its depth's readability rule in map.yaml."""
    config = content.map
    found: list[Diagnostic] = []
    likes: dict[tuple[str, str], str] = {}  # (depth, term) → where the term belongs: worked out once
    for tf in content.topics:
        for key, depth in tf.topic.depths.present():
            rule = config.readability.get(key)
            if rule is not None:
                found += _readability(tf, config, key, depth, rule, likes)
    return found


def check_stale_examples(content: Content, today: date | None = None) -> list[Diagnostic]:
    """Warnings for example lists whose ``as_of`` is older than ``stale_examples_after_days``."""
    today = today or date.today()
    limit = content.map.stale_examples_after_days
    found: list[Diagnostic] = []
    for tf in content.topics:
        examples = tf.topic.examples
        if examples is None:
            continue
        age = (today - examples.as_of).days
        if age > limit:
            path = ("examples", "as_of")
            found.append(Diagnostic.warning(
                tf.file, tf.doc.position(path, value=True), dotted(path),
                f"examples were last checked on {examples.as_of.isoformat()}, {age} days ago (more than {limit})",
                "check the examples are still current, then set `as_of` to today's date "
                "(map.yaml `stale_examples_after_days` sets the age)",
            ))
    return found


def _months_between(earlier: date, later: date) -> int:
    return (later.year - earlier.year) * 12 + later.month - earlier.month


def _source_date(text: str) -> date:
    """A partial date's first day: "2025" is 2025-01-01, "2025-09" is 2025-09-01."""
    parts = [int(p) for p in text.split("-")] + [1, 1]
    return date(parts[0], parts[1], parts[2])


def check_frontier_age(content: Content, today: date | None = None) -> list[Diagnostic]:
    """Warnings for a D5 whose newest cited source is older than ``frontier_source_age_months``."""
    today = today or date.today()
    limit = content.map.frontier_source_age_months
    found: list[Diagnostic] = []
    for tf in content.topics:
        frontier = tf.topic.depths.D5
        if frontier is None:
            continue
        keys = {key for _, text in text_fields(frontier.model_dump(exclude_none=True)) for key, _ in cited_keys(text)}
        dates = [_source_date(content.bibliography[key].date) for key in keys if key in content.bibliography]
        newest = max(dates, default=None)
        if newest is None or _months_between(newest, today) > limit:
            said = f"its newest source is from {newest:%B %Y}" if newest else "it cites no source"
            found.append(Diagnostic.warning(
                tf.file, tf.doc.position(("depths", "D5")), "depths.D5",
                f"D5 is the research frontier, but {said} (more than {limit} months before {today:%B %Y})",
                "cite recent work (papers, operators' reports, vendor engineering posts) for what is new "
                "(map.yaml `frontier_source_age_months` sets the age)",
            ))
    return found


def markdown_fields(value: object, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Markdown]]:
    """(key path, text) of every Markdown field in a model, found by its type."""
    if isinstance(value, Markdown):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from markdown_fields(getattr(value, name), (*path, name))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from markdown_fields(item, (*path, index))


def _unsafe_html(file: str, doc: YamlDocument, model: BaseModel) -> Iterator[Diagnostic]:
    for path, text in markdown_fields(model):
        for offset, what in [*removed_html(text), *reserved_id_warnings(text)]:
            yield Diagnostic.warning(file, doc.text_position(path, offset), dotted(path),
                                     f"the page will not show {what}: raw HTML here passes an allow-list",
                                     "write it in Markdown, or use only the HTML the README's Security section lists")


def check_markdown_html(content: Content) -> list[Diagnostic]:
    """Warnings for raw HTML in Markdown fields that the sanitiser would remove."""
    found = list(_unsafe_html(content.map_file, content.map_doc, content.map)) if content.map_doc else []
    for tf in content.topics:
        found += _unsafe_html(tf.file, tf.doc, tf.topic)
    return found


def check_quality(content: Content, today: date | None = None) -> list[Diagnostic]:
    """Every quality lint: stale examples, an old frontier, readability, HTML the sanitiser removes. Warnings only."""
    return [*check_stale_examples(content, today), *check_frontier_age(content, today), *check_readability(content),
            *check_markdown_html(content)]
