"""The context escapers: the only way a plain-text value enters a generated page.

Each function takes text as the editor wrote it and returns it ready for one context, so
that the value reads the same to a visitor and can never become markup there:

* ``html_text`` / ``html_attr``: inside raw HTML the generator writes (MarkupSafe).
* ``md_text``: inline Markdown source (a heading, a list item, a link's text); Markdown and
  HTML metacharacters are escaped, line breaks become spaces.
* ``page_title`` / ``page_description``: front matter values, which the theme prints
  unescaped into ``<title>``, the navigation and ``<meta name="description" content="…">``.
* ``code_block``: a fenced block whose fence is longer than any backtick run of the value.

JSON goes out through ``json.dumps`` (a file read with ``textContent``, or an attribute value
through ``html_attr``); SVG text and attributes through ``html_text``/``html_attr``.

Markdown fields are not escaped: they are :class:`generator.content.schema.Markdown` and pass
through :func:`markdown_block`, which refuses anything else; their HTML is sanitised by
the engine hook (:mod:`generator.sanitise`).
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup, escape

from generator.content.clobbering import renamed_ids
from generator.content.raw_html import balanced_markdown
from generator.content.schema import Markdown

# Characters Python-Markdown (with our extensions) gives a meaning to inside a line.
MD_INLINE_CHARACTERS = "\\`*_{}[]()#+!|-"
# In one pass: what ``html_text`` escapes, and a backslash before each of those (no entity holds one).
_MD_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in MD_INLINE_CHARACTERS}})
_MD_LINE_START = re.compile(r"^(\s*)(\d+)([.)])")
_WHITE_SPACE = re.compile(r"\s+")


def html_text(value: str) -> Markup:
    """Text inside an HTML element (quotes need no escaping there)."""
    return Markup(html.escape(str(value), quote=False))


def html_attr(value: str) -> Markup:
    """Text inside a double-quoted HTML attribute value."""
    return escape(str(value))


def one_line(value: str) -> str:
    """Line breaks and runs of white space as one space: a plain value never starts a block."""
    return _WHITE_SPACE.sub(" ", str(value)).strip()


def md_text(value: str) -> str:
    """Plain text placed in Markdown source: shown as typed, never formatting, a link or HTML.

    HTML metacharacters become entities, Markdown's get a backslash (Python-Markdown drops
    it), and a leading ``1.`` cannot start a list.
    """
    return _md_escape(one_line(value))


def _md_escape(text: str) -> str:
    text = str(text).translate(_MD_TEXT_ESCAPES)
    return _MD_LINE_START.sub(r"\1\2\\\3", text)


def markdown_block(value: Markdown) -> str:
    """A Markdown field, as written but for HTML tags it leaves open or that are not on the
    allow-list, which show as text, and ids the theme or layermap's scripts look up, renamed
    (``generator/content/clobbering.py``); only values the content model typed as Markdown pass."""
    if not isinstance(value, Markdown):
        raise TypeError(f"not a Markdown field (a plain value must be escaped): {str(value)[:40]!r}")
    return balanced_markdown(renamed_ids(str(value)))


def page_title(value: str) -> str:
    """A page title for front matter and the navigation: the theme prints it as HTML."""
    return str(html_text(one_line(value)))


def page_description(value: str) -> str:
    """``<meta name="description">``: the theme prints it inside a quoted attribute."""
    return str(html_attr(one_line(value)))


def code_block(value: str, language: str = "python") -> str:
    """A fenced code block no value can close: the fence is longer than any backtick run in it."""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{value}\n{fence}"


_PROSE_TOKEN = re.compile(r"(\[@[A-Za-z][\w-]*(?:\s*;\s*@[A-Za-z][\w-]*)*\]|\{\{.*?\}\})", re.DOTALL)


def md_prose_text(value: str) -> str:
    """Plain text that may cite (``[@key]``) and compute (``{{ … }}``): like :func:`md_text`,
    but those two are kept for the citation and prose-number steps to replace."""
    parts = _PROSE_TOKEN.split(one_line(value))
    return "".join(part if index % 2 else _md_escape(part) for index, part in enumerate(parts))
