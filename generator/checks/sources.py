"""The bibliography checked as a whole (sources.yaml and the calculators' SOURCES, joined in
``generator.calculation.sources``): a key names one record, no source sits under two keys, every
citation resolves, and every record in sources.yaml is cited somewhere."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterator

from generator.calculation.sources import Declared, declared_sources
from generator.checks.where import at_path
from generator.content.citations import cited_keys
from generator.content.loading import Content
from generator.content.schema import Source
from generator.content.schema_errors import dotted
from generator.content.yaml_source import KeyPath, YamlDocument, text_fields
from generator.diagnostics import Diagnostic
from generator.memo import remembered_by_identity


def _same(a: Source, b: Source) -> bool:
    return a.model_dump(exclude={"note"}) == b.model_dump(exclude={"note"})


def _at_key(content: Content, key: str, severity: str, message: str, hint: str) -> Diagnostic:
    doc = content.sources_doc or YamlDocument(data={})
    return at_path(content.sources_file, doc, ("sources", key), severity, message, hint)


def _key_problems(content: Content, key: str, declarations: list[Declared]) -> Iterator[Diagnostic]:
    """A key declared in sources.yaml and a calculator, or by two calculators with different records."""
    files = [d.file for d in declarations]
    if content.sources_file in files and len(files) > 1:
        others = ", ".join(f for f in files if f != content.sources_file)
        yield _at_key(content, key, "error", f"source `{key}` is also declared in {others}",
                      f"keep the calculator's record and delete this one: `[@{key}]` cites it from any topic")
    elif any(not _same(d.source, declarations[0].source) for d in declarations[1:]):
        first = declarations[0].source
        differing = next(d for d in declarations[1:] if not _same(d.source, first))
        yield Diagnostic.error(differing.file, None, "SOURCES",
                               f"source `{key}` differs from the record of the same key in {declarations[0].file}",
                               "declare it once in calculators/_datasheets.py and use `shared_sources(...)` in both")


def _locator_problems(content: Content, bibliography: dict[str, Source]) -> Iterator[Diagnostic]:
    """Two keys for one source (same URL, DOI or arXiv id): its metadata would drift apart."""
    owner: dict[str, str] = {}
    for key, source in bibliography.items():
        for locator in sorted(source.locators):
            other = owner.setdefault(locator, key)
            if other != key:
                hint = f"keep one record: cite `[@{other}]` where `[@{key}]` is cited and delete `{key}`"
                if key in content.sources:
                    yield _at_key(content, key, "error", f"`{key}` and `{other}` are the same source ({locator})", hint)
                else:
                    yield Diagnostic.error("calculators", None, "SOURCES",
                                           f"`{key}` and `{other}` are the same source ({locator})", hint)
                break


def topic_citations(doc: YamlDocument) -> list[tuple[str, KeyPath, int]]:
    """Every ``[@key]`` in a topic's depths: the key, the field's path and the offset in it."""
    return list(_citations(doc))


@remembered_by_identity(20_000)  # `layermap serve` asks again for every unchanged document after each edit
def _citations(doc: YamlDocument) -> tuple[tuple[str, KeyPath, int], ...]:
    depths = doc.data.get("depths", {}) if isinstance(doc.data, dict) else {}
    return tuple((key, path, offset) for path, text in text_fields(depths, ("depths",)) for key, offset in cited_keys(text))


def unknown_citations(file: str, doc: YamlDocument, known: Collection[str] | None) -> Iterator[Diagnostic]:
    """A citation whose key no record declares, placed at the key itself (``known``: every declared
    key, an invalid record's too, so that one mistake is reported once; None when sources.yaml
    names no keys, so that its one error is not followed by one for every citation)."""
    if known is None:
        return
    for key, path, offset in topic_citations(doc):
        if key in known:
            continue
        text = doc.value(path)
        if not text.startswith(f"[@{key}", offset):  # a later key of `[@a; @b]`: point at it
            offset = max(text.find(f"@{key}", offset), offset)
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
        hint = (f"did you mean `[@{close[0]}]`?" if close
                else f"add a record with the key `{key}` to content/sources.yaml")
        yield Diagnostic.error(file, doc.text_position(path, offset), dotted(path), f"citation of unknown source `[@{key}]`", hint)


def _uncited(content: Content) -> Iterator[Diagnostic]:
    cited = {key for tf in content.topics for key, _, _ in topic_citations(tf.doc)}
    for key, source in content.sources.items():
        if source is not None and key not in cited:
            yield _at_key(content, key, "warning", f"source `{key}` is cited by no topic",
                          f"cite it in a topic as [@{key}], or delete it from content/sources.yaml")


def check_sources(content: Content) -> list[Diagnostic]:
    """Every bibliography problem: duplicate records, unknown citations, records nobody cites."""
    declared = declared_sources(content.sources, content.sources_file)
    bibliography = {key: declarations[0].source for key, declarations in declared.items()}
    found = [d for key, declarations in declared.items() for d in _key_problems(content, key, declarations)]
    found += _locator_problems(content, bibliography)
    known = None if content.sources_unreadable else set(bibliography) | set(content.sources)
    for tf in content.topics:
        found += unknown_citations(tf.file, tf.doc, known)
    found += _uncited(content)
    return found



def citation_problems(file: str, doc: YamlDocument, known: Collection[str] | None) -> list[Diagnostic]:
    """Citations of unknown sources in one topic file, typed or not: a topic that failed its schema,
    or any topic when the map failed, so that one mistake does not hide the others."""
    return list(unknown_citations(file, doc, known))
