"""The citation syntax of content: ``[@key]`` or ``[@a; @b]`` in any prose field."""

from __future__ import annotations

import re
from collections.abc import Iterator

CITATION = re.compile(r"\[@([A-Za-z][\w-]*(?:\s*;\s*@[A-Za-z][\w-]*)*)\]")


def cited_keys(text: str) -> Iterator[tuple[str, int]]:
    """Every cited key with the character offset of its citation."""
    for match in CITATION.finditer(text):
        for key in match.group(1).split(";"):
            yield key.strip().lstrip("@"), match.start()
