"""The lean search index: a result still shows its section's opening words, and every term a
reader could search for is still there, once."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from generator.emit.search_terms import OPENING_CHARACTERS, lean_index, lean_text

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


def test_the_index_keeps_its_locations_and_titles_and_uses_its_own_separator() -> None:
    index = {"config": {"separator": r"[\s,]+"}, "docs": [
        {"location": "a/", "title": "A", "text": "<p>" + "word, " * 100 + "tail</p>"}]}
    lean = lean_index(index)
    assert lean["docs"][0]["location"] == "a/" and lean["docs"][0]["title"] == "A"
    assert lean["docs"][0]["text"].endswith("… tail")
