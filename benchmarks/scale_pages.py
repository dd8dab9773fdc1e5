"""What a built topic page is made of: the embedded navigation, the table of contents, the
"More in this layer" list and the rest (sizes in bytes, medians over a sample of pages)."""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from pathlib import Path


def _element(html: str, start: int, tag: str = "nav") -> str:
    """The element opening at ``start``, up to its balanced closing tag."""
    depth, pos = 0, start
    opening, closing = re.compile(rf"<{tag}\b"), f"</{tag}>"
    while True:
        next_open = opening.search(html, pos + 1) if depth else opening.search(html, pos)
        next_close = html.find(closing, pos)
        if next_close < 0:
            return html[start:]
        if next_open and next_open.start() < next_close:
            depth += 1
            pos = next_open.end()
        else:
            depth -= 1
            pos = next_close + len(closing)
            if depth == 0:
                return html[start:pos]


def _navs(html: str, css_class: str) -> list[str]:
    return [_element(html, m.start()) for m in re.finditer(rf'<nav class="[^"]*\b{css_class}\b', html)]


@dataclass
class PageParts:
    total: int
    nav: int        # primary navigation, without the copy of the TOC nested in it
    toc: int        # table of contents, every copy
    siblings: int   # the "More in <layer>" list (page content)


def page_parts(html: str) -> PageParts:
    primary = _navs(html, "md-nav--primary")
    tocs = _navs(html, "md-nav--secondary")
    nested = sum(len(t) for p in primary for t in _navs(p, "md-nav--secondary"))
    siblings = 0
    if (m := re.search(r'<h2 [^>]*\bid="siblings"', html)):
        end = min(i for i in (html.find("<h2", m.end()), html.find("</article>", m.end())) if i >= 0)
        siblings = end - m.start()
    return PageParts(len(html.encode()), sum(len(p) for p in primary) - nested, sum(len(t) for t in tocs), siblings)


def median_parts(files: list[Path]) -> PageParts:
    parts = [page_parts(f.read_text(encoding="utf-8")) for f in files]
    return PageParts(*(int(statistics.median(getattr(p, a) for p in parts))
                       for a in ("total", "nav", "toc", "siblings")))
