"""Read built HTML pages with the standard library: elements, links, loaded resources."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

LOADED = {  # (tag, attribute) pairs whose URL the browser fetches by itself
    ("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"), ("video", "src"),
    ("audio", "src"), ("embed", "src"), ("object", "data"), ("use", "href"), ("image", "href"),
}
LOADED_LINK_RELS = {"stylesheet", "preload", "modulepreload", "icon", "manifest", "prefetch", "preconnect", "dns-prefetch"}
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]


@dataclass
class Page:
    elements: list[Element] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str, **attrs: str) -> list[Element]:
        return [e for e in self.elements if e.tag == tag and all(e.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())]

    def by_id(self, element_id: str) -> Element | None:
        return next((e for e in self.elements if e.attrs.get("id") == element_id), None)

    def loaded_urls(self) -> list[str]:
        urls = []
        for e in self.elements:
            for tag, attr in LOADED:
                if e.tag == tag and e.attrs.get(attr):
                    urls.append(e.attrs[attr])
            if e.tag == "link" and set(e.attrs.get("rel", "").split()) & LOADED_LINK_RELS:
                urls.append(e.attrs.get("href", ""))
            urls += CSS_URL.findall(e.attrs.get("style", ""))
        return urls


INLINE = {"a", "abbr", "b", "cite", "code", "em", "i", "small", "span", "strong", "sub", "sup", "time", "mark"}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.page.elements.append(Element(tag, {k: v or "" for k, v in attrs}))
        if tag not in INLINE:
            self._text.append(" ")
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self._text.append(" ")
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._text.append(data)


def read_page(path: Path) -> Page:
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.page.text = " ".join("".join(parser._text).split())
    return parser.page


def is_external(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme not in ("", "data", "blob") or url.startswith("//")


def local_target(site: Path, page_path: Path, href: str) -> Path | None:
    """The file a relative link of a built page points to (None for external or in-page links)."""
    if is_external(href) or href.startswith(("#", "mailto:")):
        return None
    page_url = "/" + page_path.relative_to(site).as_posix()
    target = urlparse(urljoin(page_url, href)).path
    resolved = site / target.lstrip("/")
    return resolved / "index.html" if target.endswith("/") or resolved.is_dir() else resolved
