"""Ids a Markdown field may not take: those the theme and layermap's scripts look up (DOM clobbering).

``document.getElementById`` returns the first element with an id, and a named element becomes a
property of ``window``: a field that wrote ``<div id="__config">`` or ``{: #depth-d4 }`` would be
found in place of the theme's configuration or a depth's section. The page-wide sanitiser drops
the theme's kind (``__…``, :func:`generator.content.sanitise.theme_reserved`); this module finds,
in a field's own Markdown, every id that is the theme's or one of layermap's page structure
(depths and their tabs, calculators, the map, citations, the page's own sections) — set in raw
HTML (``id``, ``name``, ``for``), in an attribute list (``{: #x }``, ``{: id="x" }``), or made by
the table of contents from a heading's words — and renames it ``content-<id>`` before the page is
put together. ``layermap check`` warns of each, by file, line and field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.content.raw_html import _code_spans, _tags_outside_code
from generator.content.sanitise import theme_reserved

CONTENT_ID_PREFIX = "content-"
# layermap's page structure: depth-d4, tab-depth-d4, calc-…, lm-map-…, source-…, d4-things-to-try, …
_LAYERMAP_ID = re.compile(r"(?:depth-|tab-|calc-|lm-|source-|d[1-5]-)|(?:connections|examples|siblings|sources)\Z")
_HTML_NAMING = re.compile(r"""(?:^|\s)(id|name|for)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_ATTRIBUTE_LIST = re.compile(r"\{:?[ \t]*([^{}\n]*)\}")
_LIST_ID = re.compile(r"""(?:(?<=\s)|^)(?:#([^\s}"'.#=]+)|id=(?:"([^"]*)"|'([^']*)'|([^\s}"']+)))""")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def reserved(value: str) -> bool:
    """An id the theme or layermap's scripts look up."""
    text = value.strip().lower()
    return theme_reserved(text) or bool(_LAYERMAP_ID.match(text))


def _slug(words: str) -> str:
    from markdown.extensions.toc import slugify  # the table of contents' own (the engine's default)

    return slugify(words, "-")


def _value_span(match: re.Match[str], first: int) -> tuple[int, int]:
    """Where the value is: the first of the groups from ``first`` on that matched."""
    group = next(index for index in range(first, match.re.groups + 1) if match.group(index) is not None)
    return match.span(group)


def _outside_code(markdown: str, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    code = _code_spans(markdown)
    return (m for m in pattern.finditer(markdown) if not any(start <= m.start() < end for start, end in code))


def reserved_ids(markdown: str) -> list[tuple[int, int, str]]:
    """(start, end, how it is set) of each reserved id the field sets, in text order; for a
    heading whose words make a reserved anchor, start == end: where its attribute list goes."""
    if not any(mark in markdown for mark in ("id", "name", "for", "#", "{")):
        return []
    found: list[tuple[int, int, str]] = []
    for tag in _tags_outside_code(markdown):
        for attribute in _HTML_NAMING.finditer(tag.group(3)):
            start, end = (tag.start(3) + offset for offset in _value_span(attribute, 2))
            found.append((start, end, f'`{attribute.group(1).lower()}="{markdown[start:end]}"` on <{tag.group(2).lower()}>'))
    for listed in _outside_code(markdown, _ATTRIBUTE_LIST):
        for attribute in _LIST_ID.finditer(listed.group(1)):
            start, end = (listed.start(1) + offset for offset in _value_span(attribute, 1))
            found.append((start, end, f"`#{markdown[start:end]}` in an attribute list"))
    for heading in _outside_code(markdown, _HEADING):
        if "{" not in heading.group(2) and reserved(_slug(heading.group(2))):
            found.append((heading.end(2), heading.end(2), f"the heading's anchor `#{_slug(heading.group(2))}`"))
    return sorted(spot for spot in found if spot[0] == spot[1] or reserved(markdown[spot[0]:spot[1]]))


def renamed_ids(markdown: str) -> str:
    """The field with each reserved id it sets renamed ``content-<id>`` (a heading given that id)."""
    text = markdown
    for start, end, _ in reversed(reserved_ids(markdown)):
        if start == end:
            line_start = text.rfind("\n", 0, start) + 1
            words = text[line_start:start].lstrip("#").strip()
            text = f"{text[:start]} {{: #{CONTENT_ID_PREFIX}{_slug(words)} }}{text[start:]}"
        else:
            text = f"{text[:start]}{CONTENT_ID_PREFIX}{text[start:end]}{text[end:]}"
    return text


def reserved_id_warnings(markdown: str) -> list[tuple[int, str]]:
    """What ``layermap check`` says of each: (offset, what), as :func:`raw_html.removed_html` gives."""
    return [(start, f"{what} as written: the theme or layermap's scripts look that id up, so the page "
                    f"names it `{CONTENT_ID_PREFIX}…`") for start, _, what in reserved_ids(markdown)]
