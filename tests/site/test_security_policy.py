"""Every built page carries its Content-Security-Policy first in <head>, hashed from what it holds."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.emit.csp import REFERRER_POLICY
from tests.conftest import BuiltSite

CSP = "content-security-policy"
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}


@dataclass
class HeadScan:
    """The tags of <head> in order, the inline scripts and <style> texts, and any style= attribute."""

    head: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    style_attributes: list[str] = field(default_factory=list)


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scan = HeadScan()
        self._in_head = False
        self._collect: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "head":
            self._in_head = True
        elif self._in_head:
            self.scan.head.append((tag, values))
        if "style" in values:
            self.scan.style_attributes.append(tag)
        runs = tag == "script" and "src" not in values and values.get("type", "").lower() not in DATA_SCRIPT_TYPES
        if runs or tag == "style":
            self._collect = []
            (self.scan.scripts if runs else self.scan.styles).append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self._in_head = False
        if tag in ("script", "style") and self._collect is not None:
            target = self.scan.scripts if tag == "script" else self.scan.styles
            target[-1] = "".join(self._collect)
            self._collect = None

    def handle_data(self, data: str) -> None:
        if self._collect is not None:
            self._collect.append(data)


def scan(path: Path) -> HeadScan:
    scanner = _Scanner()
    scanner.feed(path.read_text(encoding="utf-8"))
    return scanner.scan


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy_of(page: HeadScan) -> dict[str, set[str]]:
    metas = [attrs for tag, attrs in page.head if tag == "meta" and attrs.get("http-equiv", "").lower() == CSP]
    assert len(metas) == 1, "one Content-Security-Policy meta in <head>"
    return {name: set(values) for name, *values in (part.split() for part in metas[0]["content"].split(";"))}


def pages(site: BuiltSite) -> list[Path]:
    return sorted(site.site.rglob("*.html"))


def test_the_site_has_pages_to_check(built_site: BuiltSite) -> None:
    assert len(pages(built_site)) > 10 and (built_site.site / "404.html").is_file()


def test_every_page_opens_its_head_with_the_policy_and_the_referrer_policy(built_site: BuiltSite) -> None:
    for path in pages(built_site):
        head = scan(path).head
        first = [tag for tag, attrs in head[:3]]
        charset = 1 if head[0][0] == "meta" and "charset" in head[0][1] else 0
        assert head[charset][1].get("http-equiv", "").lower() == CSP, f"{path}: {first}"
        assert head[charset + 1][1] == {"name": "referrer", "content": REFERRER_POLICY}, f"{path}: {first}"


def test_every_inline_script_and_style_is_allowed_by_hash_and_nothing_else_is(built_site: BuiltSite) -> None:
    for path in pages(built_site):
        page = scan(path)
        policy = policy_of(page)
        scripts, styles = {sha256(s) for s in page.scripts}, {sha256(s) for s in page.styles}
        assert policy["script-src"] == {"'self'"} | scripts, path
        assert policy["style-src"] == {"'self'"} | styles, path
        assert page.style_attributes == [], f"{path}: style= attributes on {page.style_attributes} are blocked"


@pytest.mark.parametrize(
    ("directive", "sources"),
    [("default-src", {"'self'"}), ("object-src", {"'none'"}), ("base-uri", {"'self'"}), ("form-action", {"'self'"}),
     ("worker-src", {"'self'"}), ("connect-src", {"'self'"}), ("img-src", {"'self'", "data:"})],
)
def test_every_page_has_the_strict_directives(built_site: BuiltSite, directive: str, sources: set[str]) -> None:
    for path in pages(built_site):
        policy = policy_of(scan(path))
        assert policy[directive] == sources, path
        assert not any("unsafe" in source for values in policy.values() for source in values), path
