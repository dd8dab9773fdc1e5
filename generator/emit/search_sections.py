"""The theme's search reads each page into sections faster: an engine hook.

Material's search plugin cuts a page's content into sections, one for each heading with an id,
with ``html.parser.HTMLParser`` and a handler for every tag and every run of text (its
``Parser``). At 1,000 topics that is about 4.5 ms a page, the largest single cost of writing a
page. :func:`page_sections` makes the very same sections, with the same quirks, from a tokenizer
of one regular expression: about 1.1 ms a page. Where the content holds anything that tokenizer
does not read as ``HTMLParser`` would (a comment, a doctype, a ``<`` that starts no tag, a
``<script>`` or ``<style>`` whose text is raw, an attribute it cannot parse), it returns None and
the theme's own parser reads the page. Content the sanitiser has written always qualifies.

The quirks kept, as the theme's parser has them (Material for MkDocs 9.x,
``material/plugins/search/plugin.py``):

- an element is found in the open elements by its tag name alone, so a skipped ``<div
  data-search-exclude>`` skips the text of every ``div`` open until one of them closes;
- a heading nested in an element ends its section when that element closes: text after it goes
  back to the section the heading interrupted;
- an emptied kept tag (only white space since the first such tag of the section) is removed with
  everything after that first tag;
- white space collapses to one space outside ``<pre>``; text inside a heading's permalink is left
  out of the title.

Installed in ``on_config``, after the theme's search plugin made its index and before the page
cache wraps the index (``generator/emit/engine/page_cache.py``, priority -100). The tests read every
page of the real map and of a synthetic one, and generated HTML, with both parsers and compare.
Only the standard library is imported: the generated tree stays buildable alone.
"""

from __future__ import annotations

import re
from html import escape, unescape

THEME_INDEX = "material.plugins.search.plugin"  # the module of the index whose reading this replaces
# The theme parser's tag sets (its module's ``void``, and its parser's ``keep`` and ``skip``).
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr"})
KEEP = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})
ALWAYS_SKIPPED = frozenset({"object", "script", "style"})
RAW_TEXT = frozenset({"script", "style"})  # HTMLParser reads their text raw: left to it
HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
EXCLUDED = "data-search-exclude"

_NAME = r"[^\s/>\"'=]+"
_VALUE = r"\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+)"
# A run of text; a start tag (name, attributes, "/" when self-closed) or an end tag (name), as
# HTMLParser reads them when they are well formed; or a "<" that starts neither.
_TOKEN = re.compile(rf"([^<]+)|<(?:([a-zA-Z][-.a-zA-Z0-9:_]*)((?:\s+{_NAME}(?:{_VALUE})?)*)\s*(/?)>"
                    r"|/([a-zA-Z][-.a-zA-Z0-9:_]*)\s*>)|(<)")
_ATTRIBUTE = re.compile(rf"({_NAME})(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?")


class Section:
    """A heading's part of a page as the theme's search keeps it: title and text as lists of
    escaped pieces (kept tags included), the heading's id, and how deep its heading is."""

    __slots__ = ("depth", "excluded", "id", "tag", "text", "title")

    def __init__(self, tag: str, excluded: bool = False, depth: float = 0) -> None:
        self.tag, self.excluded, self.depth = tag, excluded, depth
        self.text: list[str] = []
        self.title: list[str] = []
        self.id: str | None = None

    def is_excluded(self) -> bool:
        return self.excluded


def attributes(text: str) -> dict[str, str | None]:
    """A start tag's attributes as HTMLParser gives them: names lower-cased, values unescaped,
    None for a name without a value; the last of a repeated name wins (the theme makes a dict)."""
    found: dict[str, str | None] = {}
    for match in _ATTRIBUTE.finditer(text):
        value = next((v for v in match.groups()[1:] if v is not None), None)
        found[match[1].lower()] = unescape(value) if value else value
    return found


def _telling(tag: str, text: str) -> bool:
    """Whether a tag's attributes can matter: a heading's id, a permalink's class, an exclusion.
    A value may be written with character references, so one with an ``&`` is always read."""
    if tag in HEADINGS or "&" in text:
        return True
    if tag == "a" and "headerlink" in text:
        return True
    return "linenodiv" in text or EXCLUDED in text.lower()


class _Reader:
    """The theme parser's handlers, on tag names (it compares its elements by tag name)."""

    def __init__(self) -> None:
        self.context: list[str] = []  # the open elements' tags
        self.permalinks: list[bool] = []  # for each, whether it is a heading's permalink
        self.skip = set(ALWAYS_SKIPPED)
        self.skipping = False  # whether an open element's tag is in ``skip``
        self.section: Section | None = None
        self.sections: list[Section] = []

    def _add(self, section: Section) -> Section:
        self.section = section
        self.sections.append(section)
        return section

    def _pieces(self, section: Section) -> list[str]:
        return section.title if section.tag in self.context else section.text

    def start(self, tag: str, attrs: dict[str, str | None]) -> None:
        if tag in VOID:
            return
        context = self.context
        context.append(tag)
        self.permalinks.append(tag == "a" and attrs.get("class") == "headerlink")
        self.skipping = self.skipping or tag in self.skip
        if tag in HEADINGS and "id" in attrs:
            self._start_section(tag, attrs, len(context))
        section = self.section or self._add(Section("hx"))
        if EXCLUDED in attrs or attrs.get("class") == "linenodiv":
            self.skip.add(tag)
            self.skipping = True
        elif not self.skipping and tag in KEEP:
            self._pieces(section).append(f"<{tag}>")

    def _start_section(self, tag: str, attrs: dict[str, str | None], depth: int) -> None:
        if tag != "h1" and not self.sections:
            self._add(Section("hx", depth=depth))
        section = Section(tag, EXCLUDED in attrs, depth)
        if self.sections:
            section.id = attrs["id"]
        self._add(section)

    def end(self, tag: str) -> None:
        context = self.context
        if not context or context[-1] != tag:
            return
        section = self.section
        assert section is not None  # an open element made one
        if section.depth > len(context):  # the element around a nested heading closes
            earlier = next((s for s in reversed(self.sections) if s.depth <= len(context)), None)
            if earlier is not None:
                section.depth = float("inf")
                self.section = section = earlier
        context.pop()
        self.permalinks.pop()
        if tag in self.skip:
            if tag not in ALWAYS_SKIPPED:
                self.skip.remove(tag)
            self.skipping = any(name in self.skip for name in context)
        elif not self.skipping and tag in KEEP:
            _close_kept(self._pieces(section), tag)

    def text(self, data: str) -> None:
        if self.skipping:
            return
        in_pre = "pre" in self.context
        if not in_pre:
            data = " " if data.isspace() else data.replace("\n", " ")
        section = self.section or self._add(Section("hx"))
        if section.tag in self.context:
            if not any(self.permalinks):
                section.title.append(escape(data, quote=False))
        elif data.isspace():
            if not section.text or not section.text[-1].isspace() or in_pre:
                section.text.append(data)
        else:
            section.text.append(escape(data, quote=False))


def _close_kept(pieces: list[str], tag: str) -> None:
    """Close a kept tag, or drop it (and all after the section's first such tag) when empty."""
    first = pieces.index(f"<{tag}>")
    if all(piece.isspace() for piece in pieces[first + 1:]):
        del pieces[first:]
    else:
        pieces.append(f"</{tag}>")


# The comments the sanitiser hook puts about what it wrote (content/sanitise.py): the theme's parser
# skips a comment, so these are left out first rather than sending every page to it.
_SANITISED_MARKS = re.compile(r"^<!--layermap-sanitised:[0-9a-f]{32}-->|<!--/layermap-sanitised:[0-9a-f]{32}-->$")


def page_sections(content: str) -> list[Section] | None:
    """The sections the theme's search parser makes of ``content``, or None where that parser
    must read it itself (see the module's docstring)."""
    try:
        return _read(_SANITISED_MARKS.sub("", content))
    except ValueError:  # a kept tag closed that the theme's parser cannot find: it fails alike
        return None


def _read(content: str) -> list[Section] | None:
    reader = _Reader()
    for text, tag, attrs, closed, end_tag, stray in _TOKEN.findall(content):
        if text:
            reader.text(unescape(text) if "&" in text else text)
        elif tag:
            tag = tag.lower()
            if tag in RAW_TEXT:
                return None
            reader.start(tag, attributes(attrs) if attrs and _telling(tag, attrs) else {})
            if closed:
                reader.end(tag)
        elif end_tag:
            reader.end(end_tag.lower())
        elif stray:  # a "<" that starts no well-formed tag: HTMLParser's own rules apply
            return None
    return reader.sections


def read_sections_quickly(index) -> None:  # noqa: ANN001 - the theme's SearchIndex
    """Have the theme's search index read pages with :func:`page_sections`."""
    read_with_theme = index.add_entry_from_context

    def add_entry_from_context(page) -> None:  # noqa: ANN001 - the engine's page
        sections = page_sections(page.content or "")
        if sections is None:
            read_with_theme(page)
            return
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        for section in sections:
            if not section.is_excluded():
                index.create_entry_for_section(section, page.toc, page.url, page)

    index.add_entry_from_context = add_entry_from_context


def theme_index(config):  # noqa: ANN001, ANN201 - the engine's config; the theme's SearchIndex or None
    """The theme's search index, when it is the one whose parser :func:`page_sections` follows."""
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if type(index).__module__ == THEME_INDEX and callable(getattr(index, "create_entry_for_section", None)):
            return index
    return None


def on_config(config, **_: object):  # noqa: ANN001, ANN201 - the engine's hook signature
    index = theme_index(config)
    if index is not None:
        read_sections_quickly(index)
    return config
