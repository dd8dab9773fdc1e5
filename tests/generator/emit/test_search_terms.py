"""The lean search index: a result still shows its section's opening words, and every term a
reader could search for is still there, once."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from material.plugins.search.plugin import SearchIndex

from generator.emit import search_terms
from generator.emit.search_terms import OPENING_CHARACTERS, lean_text

SEPARATOR = re.compile(r"[\s\-]+")  # Material's default, as in the built index's config


def terms(text: str) -> set[str]:
    """What the theme's search would index: split at the separator, edges trimmed, case folded."""
    trimmed = (re.sub(r"^\W+|\W+$", "", word).casefold() for word in SEPARATOR.split(re.sub(r"<[^>]*>", " ", text)))
    return {term for term in trimmed if term}


def test_a_short_section_keeps_its_text_without_tags() -> None:
    assert lean_text("<p>Chips do <strong>arithmetic</strong> fast.</p>", SEPARATOR) == "Chips do arithmetic fast."


def test_a_long_section_keeps_its_opening_then_each_further_term_once() -> None:
    opening = "A story about chips. " * 20
    text = f"<p>{opening}</p><p>Chips and wafers, wafers and dies; dies again — interposers.</p>"
    lean = lean_text(text, SEPARATOR)
    head, _, tail = lean.partition(" … ")
    assert text.startswith(f"<p>{head}") and OPENING_CHARACTERS - 25 < len(head) <= OPENING_CHARACTERS
    assert tail.split() == ["and", "wafers", "dies", "again", "interposers"]  # "Chips" was in the opening; "—" is no term


@given(st.lists(st.sampled_from(["GPU", "gpu", "HBM3e", "tensor-parallel", "1.5", "cost,", "(racks)", "—", "a", "<b>bold</b>",
                                 "the", "“quoted”", "NVLink's", "x" * 40]), max_size=300))
def test_every_term_survives(words: list[str]) -> None:
    text = " ".join(words)
    assert terms(lean_text(text, SEPARATOR)) == terms(text)


class Page:
    def __init__(self, content: str) -> None:
        self.content, self.meta, self.url, self.title, self.toc = content, {}, "a/", "A", []


def test_the_index_makes_each_entry_lean_at_its_own_separator() -> None:
    index = SearchIndex(lang=["en"], separator=r"[\s,]+", pipeline=[], fields={})
    search_terms.lean_entries_as_made(index)
    index.add_entry_from_context(Page('<h1 id="a">A</h1><p>' + "word, " * 100 + "tail</p>"))
    [entry] = index.entries
    assert entry["location"] == "a/" and entry["title"] == "A"
    assert entry["text"].startswith("word, word,") and entry["text"].endswith("… tail")


def test_the_hook_makes_the_themes_index_lean() -> None:
    index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
    config = type("Config", (), {"plugins": {"search": type("Plugin", (), {"search_index": index})()}})()
    assert search_terms.on_config(config) is config
    index.add_entry_from_context(Page("<p>" + "many words here " * 40 + "</p>"))
    assert index.entries[0]["text"] == lean_text("<p>" + "many words here " * 40 + "</p>", SEPARATOR)
    assert len(index.entries[0]["text"]) <= OPENING_CHARACTERS and "…" not in index.entries[0]["text"]  # no term repeats
