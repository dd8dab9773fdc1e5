"""The Content-Security-Policy and referrer policy every built page carries, as <meta> tags.

GitHub Pages sets no security headers, so the policy travels in the page. Only the inline
scripts layermap knows at build time enter it, by their SHA-256 hash: layermap's own (exact
texts) and the theme's (taken from its templates, where only a page's relative base path may
vary). Any other inline script, any ``<style>`` element and any inline event handler on a built
page fails the build, naming the page: whatever reached it (a cache, a theme override, a hole
in the sanitiser) is refused, not allowed by its own hash. The policy goes first in <head>,
after the charset only: a <meta> policy governs only what comes after it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlsplit

from generator.content.sanitise import normalised_url
from generator.errors import LayermapError

# Each directive and why it is there (README, "Security").
BASE_POLICY = (
    ("default-src", "'self'"),  # anything not named below: this site only
    ("script-src", "'self'"),  # our modules and the theme's bundle; inline scripts by hash
    ("style-src", "'self'"),  # stylesheets only: no style= attribute, no <style> element
    ("img-src", "'self' data:"),  # the theme's icons are data: SVGs in its stylesheet
    ("connect-src", "'self'"),  # the search index, the map index, the calculators' files
    ("worker-src", "'self'"),  # the search worker and the calculator worker
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
)
REFERRER_POLICY = "no-referrer"
# A page's <meta> policy does not reach the calculator worker (its policy comes with its own
# response; measured in Chromium 156), and Pyodide there needs WebAssembly compilation, not eval.
# GitHub Pages sends no headers; a host that can should send this with calc-worker.js.
WORKER_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; base-uri 'none'"

_INLINE = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
_OPENING = re.compile(r"<(?:script|style)\b", re.IGNORECASE)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
_SRC = re.compile(r"\bsrc\s*=", re.IGNORECASE)
_HEAD_START = re.compile(r"<head\b[^>]*>(\s*<meta\s+charset\s*=[^>]*>)?", re.IGNORECASE)
_RUNNABLE_TYPES = {"", "module", "text/javascript", "application/javascript"}
# Where a theme template interpolates a value into an inline script: a relative base path or
# the site's address (letters, digits and URL punctuation; no quote, backslash or angle bracket).
_TEMPLATE_VALUE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_SAFE_VALUE = r"[A-Za-z0-9._~/:%-]*"
# A possible inline event handler: an attribute name starting with "on" (names are never
# entity-encoded, so this finds every one; the parser then tells an attribute from prose).
_MAYBE_HANDLER = re.compile(r"""[\s/"']on[a-z]+\s*=""", re.IGNORECASE)
PREVIEW_CHARACTERS = 80


class UntrustedInline(LayermapError):
    """A built page carries an inline script, style or handler layermap did not write."""


@dataclass(frozen=True)
class TrustedScripts:
    """The inline scripts a built page may carry: exact texts, and template shapes (compiled)."""

    exact: frozenset[str]
    shapes: tuple[re.Pattern[str], ...] = ()

    @classmethod
    def of(cls, exact: Iterable[str], templates: Iterable[str] = ()) -> TrustedScripts:
        """``templates``: inline script bodies with Jinja ``{{ … }}`` slots, each slot standing for a path."""
        shapes = tuple(re.compile(_SAFE_VALUE.join(re.escape(part) for part in _TEMPLATE_VALUE.split(text)))
                       for text in templates)
        return cls(frozenset(exact), shapes)

    def trusts(self, body: str, more: tuple[str, ...] = ()) -> bool:
        return body in self.exact or body in more or any(shape.fullmatch(body) for shape in self.shapes)


def source_hash(text: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _runs(attributes: str) -> bool:
    """An inline <script> the browser executes (JSON data blocks are not run, so need no hash)."""
    kind = _TYPE.search(attributes)
    return not _SRC.search(attributes) and (kind.group(1).lower() if kind else "") in _RUNNABLE_TYPES


def _preview(text: str) -> str:
    shown = " ".join(text.split())
    shown = shown if len(shown) <= PREVIEW_CHARACTERS else shown[:PREVIEW_CHARACTERS] + "…"
    return shown.encode("unicode_escape").decode("ascii")


def _refuse(page: str, what: str) -> UntrustedInline:
    return UntrustedInline(
        f"{page}: {what} that layermap did not write; the page's policy allows only layermap's and the theme's own scripts",
        "content HTML is sanitised, so this came from elsewhere: a theme override (custom_dir), a hook, or an "
        "altered cache in .layermap/ (`layermap build --clean` rebuilds it); the previous site/ was kept")


def trusted_script_hashes(html: str, trusted: TrustedScripts, page: str = "page",
                          more_scripts: tuple[str, ...] = ()) -> list[str]:
    """Hashes of the page's inline scripts that run, in page order, once each; an inline script
    ``trusted`` does not know, or a ``<style>`` element, is an :class:`UntrustedInline` error."""
    scripts: list[str] = []
    matches = list(_INLINE.finditer(html))
    if len(_OPENING.findall(html)) > len(matches):
        raise _refuse(page, "a <script> or <style> element that is never closed")
    for match in matches:
        tag, attributes, body = match.group(1).lower(), match.group(2), match.group(3)
        if tag == "style":
            raise _refuse(page, f"a <style> element (`{_preview(body)}`)")
        if _runs(attributes):
            if not trusted.trusts(body, more_scripts):
                raise _refuse(page, f"an inline script (`{_preview(body)}`)")
            scripts.append(source_hash(body))
    _refuse_handlers(_INLINE.sub("", html), page)
    return list(dict.fromkeys(scripts))


class _Handlers(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [f"`{name}` on <{tag}>" for name, _ in attrs if name.startswith("on")]

    handle_startendtag = handle_starttag


def _refuse_handlers(html: str, page: str) -> None:
    if not _MAYBE_HANDLER.search(html):
        return  # most pages: no attribute name starting with "on" anywhere
    parser = _Handlers()
    parser.feed(html)
    parser.close()
    if parser.found:
        raise _refuse(page, f"an inline event handler ({parser.found[0]})")


_EMBEDDED = re.compile(r"""<(?:[a-z][a-z0-9-]*)\b[^>]*?\s(?:src|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_STYLESHEET = re.compile(r"""<link\b(?=[^>]*\brel\s*=\s*["']?[^"'>]*\b(?:stylesheet|icon|preload|modulepreload|prefetch|manifest)\b)"""
                         r"""[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)  # what a link loads


def refuse_other_hosts(html: str, page: str = "page") -> None:
    """A page of the downloadable copy embeds only files beside it: a path relative to the page.

    From disk, ``'self'`` admits any ``file:`` URL, ``file://host/…`` (a network share) too, and a
    policy cannot name "files without a host"; so the copy's pages are checked instead (the
    sanitiser already refuses such URLs in content: this is the second line)."""
    for match in [*_EMBEDDED.finditer(html), *_STYLESHEET.finditer(html)]:
        url = normalised_url(next(group for group in match.groups() if group is not None))
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith("/"):
            raise LayermapError(f"{page}: the downloadable copy's page embeds `{_preview(url)}`, which is not a file beside it",
                                "from disk that could reach another machine; embed files by a path relative to the page; "
                                "the previous site/ was kept")


def page_policy(html: str, trusted: TrustedScripts, page: str = "page", more_scripts: tuple[str, ...] = ()) -> str:
    """The policy for one built page: the base policy plus the hashes of its trusted inline scripts
    (``more_scripts``: inline scripts its own scripts write into a frame, trusted too)."""
    scripts = trusted_script_hashes(html, trusted, page, more_scripts)
    extra = {"script-src": list(dict.fromkeys([*scripts, *map(source_hash, more_scripts)]))}
    return "; ".join(" ".join([name, value, *extra.get(name, [])]) for name, value in BASE_POLICY)


def security_meta(html: str, trusted: TrustedScripts, page: str = "page", more_scripts: tuple[str, ...] = ()) -> str:
    return (f'<meta http-equiv="Content-Security-Policy" content="{page_policy(html, trusted, page, more_scripts)}">'
            f'<meta name="referrer" content="{REFERRER_POLICY}">')


def with_security_meta(html: str, trusted: TrustedScripts, page: str = "page", more_scripts: tuple[str, ...] = ()) -> str:
    """The page with its policy inserted first in <head> (after the charset declaration)."""
    head = _HEAD_START.search(html)
    if head is None:
        raise LayermapError(f"{page}: the built page has no <head>, so no place for its Content-Security-Policy",
                            "check the theme's templates (custom_dir in mkdocs.yml); the previous site/ was kept")
    return html[: head.end()] + security_meta(html, trusted, page, more_scripts) + html[head.end():]
