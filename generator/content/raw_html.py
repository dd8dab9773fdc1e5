"""What ``layermap check`` reports of raw HTML in Markdown: what the sanitiser would remove
(``content/sanitise.py``'s lists, read here), and tags left open, which render balances."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from generator.content.sanitise import (
    ALLOWED_TAGS,
    ATTRIBUTE_PREFIXES,
    GLOBAL_ATTRIBUTES,
    REMOVED_WITH_CONTENT,
    STYLE_PROPERTIES,
    TAG_ATTRIBUTES,
    attribute_allowed,
)

_ALLOWED_LOWER = {tag: {name.lower() for name in names} for tag, names in TAG_ATTRIBUTES.items()}


def _attribute_kept(tag: str, name: str, value: str) -> bool:
    name = "href" if name == "xlink:href" else name
    known = name in GLOBAL_ATTRIBUTES or name in _ALLOWED_LOWER.get(tag, set())
    known = known or any(name.startswith(prefix) for prefix in ATTRIBUTE_PREFIXES)
    if not known or not attribute_allowed(tag, name, value):
        return False
    if name == "style":
        properties = {part.split(":", 1)[0].strip().lower() for part in value.split(";") if part.strip()}
        return properties <= STYLE_PROPERTIES
    return True


class _Finder(HTMLParser):
    """Collects (line, column, what) for each tag or attribute the sanitiser would drop."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, column = self.getpos()
        if tag not in ALLOWED_TAGS:
            what = "with its content" if tag in REMOVED_WITH_CONTENT else "(its text is kept)"
            self.found.append((line, column, f"<{tag}> {what}"))
            return
        for name, value in attrs:
            if not _attribute_kept(tag, name, value or ""):
                self.found.append((line, column, f"`{name}` on <{tag}>"))

    handle_startendtag = handle_starttag


def removed_html(markdown: str) -> list[tuple[int, str]]:
    """Raw HTML in a Markdown text that will not show as HTML: (character offset, what).

    Tags shown as text (:func:`unbalanced_tags`), then attributes the sanitiser removes."""
    if "<" not in markdown:
        return []  # no tag and no autolink: most prose, found at once
    shown = unbalanced_tags(markdown)
    text = balanced_markdown(markdown)
    literal = [*_code_spans(text), *(m.span() for m in _AUTOLINK.finditer(text))]
    for start, end in literal:  # code shows "<" as it is, an autolink is a link: blank them, keep the offsets
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    finder = _Finder()
    finder.feed(text)
    finder.close()
    removed = [(_line_start(markdown, line) + column, what) for line, column, what in finder.found]
    return [(offset, f"{what}, shown as text") for offset, what in shown] + removed


def _line_start(text: str, line: int) -> int:
    """The offset where line ``line`` (1-based, as html.parser counts) of ``text`` starts."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start


# --- a Markdown field's own HTML, before the page is put together ---------------------------
# An element a field opens and never closes (a <table>, a <math>) would swallow or re-parent
# the rest of the page; a tag outside the allow-list could only be removed. Both are shown
# as text instead (their "<" becomes "&lt;"), outside code, where Markdown shows "<" anyway.

VOID_TAGS = frozenset({"br", "hr", "img", "input", "col", "wbr", "area", "source", "path", "line", "rect",
                       "circle", "ellipse", "polyline", "polygon"})
_FIELD_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\"[^\"]*\"|'[^']*'|[^'\">])*)>")
_CODE = re.compile(r"(^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\2[ \t]*$|(`+)(?!`).+?(?<!`)\3(?!`))",
                   re.DOTALL | re.MULTILINE)


_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*|[^\s<>@]+@[^\s<>]+)>")


def _code_spans(markdown: str) -> list[tuple[int, int]]:
    return [match.span() for match in _CODE.finditer(markdown)]


def _tags_outside_code(markdown: str) -> list[re.Match[str]]:
    code = _code_spans(markdown)
    return [m for m in _FIELD_TAG.finditer(markdown)
            if not any(start <= m.start() < end for start, end in code)
            and not m.group(3).startswith(":") and "@" not in m.group(0)]  # <https://…>, <a@b.c>: autolinks


def unbalanced_tags(markdown: str) -> list[tuple[int, str]]:
    """Tags of a Markdown field shown as text: outside the allow-list, or never closed/opened."""
    if "<" not in markdown:
        return []
    shown: list[tuple[int, str]] = []
    open_tags: list[tuple[str, int]] = []
    for match in _tags_outside_code(markdown):
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name not in ALLOWED_TAGS:
            shown.append((match.start(), f"<{closing and '/' or ''}{name}> (not on the allow-list)"))
        elif closing:
            names = [tag for tag, _ in open_tags]
            if name not in names:
                shown.append((match.start(), f"</{name}> (never opened)"))
                continue
            while open_tags:
                tag, start = open_tags.pop()
                if tag == name:
                    break
                shown.append((start, f"<{tag}> (never closed)"))
        elif name not in VOID_TAGS and not match.group(3).rstrip().endswith("/"):
            open_tags.append((name, match.start()))
    shown += [(start, f"<{tag}> (never closed)") for tag, start in open_tags]
    return sorted(shown)


def balanced_markdown(markdown: str) -> str:
    """The field with each tag :func:`unbalanced_tags` finds turned into text."""
    text = markdown
    for start, _ in sorted(unbalanced_tags(markdown), reverse=True):
        text = text[:start] + "&lt;" + text[start + 1:]
    return text
