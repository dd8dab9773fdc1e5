"""A search index that stays small as the map grows: an engine hook.

Material's search plugin writes each section's whole text, as HTML, into
``search/search_index.json``; at 1,000 topics that is 12 MB (3 MB compressed) for a reader to
fetch before the first search. Search itself needs less: the theme splits text into terms at its
separator (white space and hyphens) and matches terms, and a result shows the first two lines of
its section. So after the plugin writes the index, this hook keeps, for each section, the opening
words as written (``OPENING_CHARACTERS``, tags removed: what a result shows), then each further
term once, in the order it first appears. Every term that could be found is still there; what is
lost is how often a term repeats, which nudges ranking only (lunr's scoring saturates repetition).

Runs after the search plugin writes the index (priority 0) and before the offline plugin of the
downloadable copy inlines it (-100). Only the standard library is imported: the generated tree
stays buildable alone (this file is copied into it, like the sanitiser).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

SEARCH_INDEX = "search/search_index.json"
OPENING_CHARACTERS = 320  # about two lines of a result on a wide screen, three on a phone
_TAG = re.compile(r"<[^>]*>")
_TRIM = re.compile(r"^\W+|\W+$")  # as lunr's trimmer: what a term is once its edges are cut


def _words(text: str, separator: re.Pattern[str]) -> list[str]:
    return [word for word in separator.split(text) if word]


@lru_cache(maxsize=1 << 16)  # a map's words repeat from section to section: each is trimmed once
def _term(word: str) -> tuple[str, str]:
    """The word as lunr's trimmer leaves it, and that term case-folded."""
    term = _TRIM.sub("", word)
    return term, term.casefold()


def lean_text(html: str, separator: re.Pattern[str]) -> str:
    """A section's text for the index: its opening words, then each further term once."""
    text = " ".join(_TAG.sub(" ", html).split())
    if len(text) <= OPENING_CHARACTERS:
        return text
    cut = text.rfind(" ", 0, OPENING_CHARACTERS)
    cut = cut if cut > 0 else OPENING_CHARACTERS
    opening, rest = text[:cut], text[cut:]
    seen = {_term(word)[1] for word in _words(opening, separator)}
    terms = []
    for word in _words(rest, separator):
        term, folded = _term(word)
        if term and folded not in seen:
            seen.add(folded)
            terms.append(term)
    return f"{opening} … {' '.join(terms)}" if terms else opening


def lean_index(index: dict) -> dict:
    separator = re.compile(index.get("config", {}).get("separator") or r"[\s\-]+")
    for entry in index.get("docs", []):
        entry["text"] = lean_text(entry.get("text", ""), separator)
    return index


def on_post_build(config, **_: object) -> None:  # noqa: ANN001 - the engine's hook signature
    path = Path(config.site_dir) / SEARCH_INDEX
    if path.is_file():
        index = lean_index(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


# After the search plugin writes the index (0), before the offline plugin inlines it (-100); this
# is what MkDocs' @event_priority(-50) sets, without importing MkDocs here.
on_post_build.mkdocs_priority = -50  # type: ignore[attr-defined]
