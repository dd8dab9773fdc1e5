"""A search index that stays small as the map grows: an engine hook.

Material's search plugin writes each section's whole text, as HTML, into
``search/search_index.json``; at 1,000 topics that is 12 MB (3 MB compressed) for a reader to
fetch before the first search. Search itself needs less: the theme splits text into terms at its
separator (white space and hyphens) and matches terms, and a result shows the first two lines of
its section. So this hook keeps, for each section, the opening words as written
(``OPENING_CHARACTERS``, tags removed: what a result shows), then each further term once, in the
order it first appears. Every term that could be found is still there; what is lost is how often
a term repeats, which nudges ranking only (lunr's scoring saturates repetition).

Each entry is made lean as the theme's index makes it (its ``create_entry_for_section``), so the
work is shared by the processes that write the pages, a page's cached entries are lean already,
and ``layermap serve`` does not make the whole index lean again after every edit. Installed in
``on_config``, after the theme's search plugin made its index; once the plugin has written the
index, it is written again as UTF-8. Only the standard library is
imported: the generated tree stays buildable alone (this file is copied into it, like the sanitiser).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

DEFAULT_SEPARATOR = r"[\s\-]+"  # the theme's, when its config names none
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


def lean_entries_as_made(index) -> None:  # noqa: ANN001 - the theme's SearchIndex
    """Each entry the index makes gets its lean text at once, at the index's own separator."""
    make = index.create_entry_for_section
    separator = re.compile(index.config.get("separator") or DEFAULT_SEPARATOR)

    def create_entry_for_section(section, toc, url, page) -> None:  # noqa: ANN001 - the theme's signature
        start = len(index.entries)
        make(section, toc, url, page)
        for entry in index.entries[start:]:
            entry["text"] = lean_text(entry.get("text", ""), separator)

    index.create_entry_for_section = create_entry_for_section


def on_config(config, **_: object):  # noqa: ANN001, ANN201 - the engine's hook signature
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if callable(getattr(index, "create_entry_for_section", None)) and isinstance(getattr(index, "config", None), dict):
            lean_entries_as_made(index)
    return config


def _looks_lean(text: str) -> bool:
    return "<" not in text and (len(text) <= OPENING_CHARACTERS or " … " in text[: OPENING_CHARACTERS + 3])


def lean_entry(entry: dict, separator: re.Pattern[str]) -> None:
    """An entry of an index no hook made lean: its text made so, and no markup left in its text or
    title (the index was made from the content before layermap sanitised it)."""
    entry["text"] = lean_text(entry.get("text", ""), separator).replace("<", "&lt;")
    title = entry.get("title")
    if isinstance(title, str) and "<" in title:
        entry["title"] = " ".join(_TAG.sub(" ", title).split()).replace("<", "&lt;")


def lean_index_file(site: Path) -> None:
    """The theme's index in ``site`` made lean where no hook did it (an engine that runs no hooks),
    and written as UTF-8 (the theme writes every other character as a six-byte escape): layermap's
    own step after the engine, and this hook's last act where the engine runs it."""
    path = site / SEARCH_INDEX
    if not path.is_file():
        return
    written = path.read_text(encoding="utf-8")
    index = json.loads(written)
    separator = re.compile((index.get("config") or {}).get("separator") or DEFAULT_SEPARATOR)
    for entry in index.get("docs") or []:
        if not _looks_lean(entry.get("text", "")):
            lean_entry(entry, separator)
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    if text != written:
        path.write_text(text, encoding="utf-8")


def on_post_build(config, **_: object) -> None:  # noqa: ANN001 - the engine's hook signature
    lean_index_file(Path(config.site_dir))


# After the search plugin writes the index (0), before the offline plugin inlines it (-100); this
# is what MkDocs' @event_priority(-50) sets, without importing MkDocs here.
on_post_build.mkdocs_priority = -50  # type: ignore[attr-defined]
