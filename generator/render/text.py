"""Small text helpers shared by the page renderers."""

from __future__ import annotations

import json
from datetime import date

from generator.content.sanitise import CONTENT_MARK, region_key
from generator.render.escape import html_attr, html_text, page_description, page_title


def attr(value: str) -> str:
    """Escape text for an HTML attribute value."""
    return str(html_attr(value))


def inline(value: str) -> str:
    """Escape text placed inside raw HTML (Markdown is not processed there)."""
    return str(html_text(value))


def long_date(value: date) -> str:
    return f"{value.day} {value:%B %Y}"


def front_matter(title: str, description: str | None = None, *, searched: bool = True) -> str:
    """YAML front matter, escaped for where the theme prints it (``<title>``, the navigation,
    ``<meta name="description">``); each value as an ASCII JSON string, which YAML reads back exactly.
    ``searched=False``: the theme's search leaves the page out (it repeats other pages' text)."""
    fields: dict[str, object] = {"title": page_title(title)}
    if description is not None:
        fields["description"] = page_description(description)
    if not searched:
        fields["search"] = {"exclude": True}
    lines = [f"{key}: {json.dumps(value)}" for key, value in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---"


def with_content_region(page: str) -> str:
    """A page's Markdown with its body between the marks that tell where its content starts and
    ends in whatever HTML an engine makes of it (``content/sanitise.py``: keyed by the body's digest,
    which the body cannot hold), after its front matter."""
    front, body = "", page
    if page.startswith("---\n"):
        end = page.find("\n---", 4)
        front, body = page[: end + 4] + "\n\n", page[end + 4:]
    body = body.strip("\n")
    key = region_key(body)
    return f"{front}<!--{CONTENT_MARK}:{key}-->\n\n{body}\n\n<!--/{CONTENT_MARK}:{key}-->\n"


def block(*parts: str) -> str:
    """Join Markdown blocks with blank lines, skipping empty parts."""
    return "\n\n".join(part.strip("\n") for part in parts if part and part.strip())
