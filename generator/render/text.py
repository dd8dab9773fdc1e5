"""Small text helpers shared by the page renderers."""

from __future__ import annotations

import html
import json
from datetime import date


def attr(value: str) -> str:
    """Escape text for an HTML attribute value."""
    return html.escape(value, quote=True)


def inline(value: str) -> str:
    """Escape text placed inside raw HTML (Markdown is not processed there)."""
    return html.escape(value, quote=False)


def long_date(value: date) -> str:
    return f"{value.day} {value:%B %Y}"


def front_matter(**fields: str) -> str:
    """YAML front matter; each value as a JSON string, which YAML reads back exactly."""
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---"


def block(*parts: str) -> str:
    """Join Markdown blocks with blank lines, skipping empty parts."""
    return "\n\n".join(part.strip("\n") for part in parts if part and part.strip())
