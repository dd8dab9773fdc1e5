"""The Content-Security-Policy and referrer policy every built page carries, as <meta> tags.

GitHub Pages sets no security headers, so the policy travels in the page. It is worked out
from each built page: the inline scripts the theme writes (and any <style> element) are
allowed by their SHA-256 hash, so nothing else inline runs or styles the page. The policy goes
first in <head>, after the charset only: a <meta> policy governs only what comes after it.
"""

from __future__ import annotations

import base64
import hashlib
import re

from generator.errors import LayermapError

# Each directive and why it is there (README, "Security").
BASE_POLICY = (
    ("default-src", "'self'"),  # anything not named below: this site only
    ("script-src", "'self'"),  # our modules and the theme's bundle; inline scripts by hash
    ("style-src", "'self'"),  # stylesheets only: no style= attribute; a <style> element only by hash
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
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
_SRC = re.compile(r"\bsrc\s*=", re.IGNORECASE)
_HEAD_START = re.compile(r"<head\b[^>]*>(\s*<meta\s+charset\s*=[^>]*>)?", re.IGNORECASE)
_RUNNABLE_TYPES = {"", "module", "text/javascript", "application/javascript"}


def source_hash(text: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _runs(attributes: str) -> bool:
    """An inline <script> the browser executes (JSON data blocks are not run, so need no hash)."""
    kind = _TYPE.search(attributes)
    return not _SRC.search(attributes) and (kind.group(1).lower() if kind else "") in _RUNNABLE_TYPES


def inline_hashes(html: str) -> tuple[list[str], list[str]]:
    """Hashes of the page's inline scripts that run and of its <style> elements, in page order, once each."""
    scripts: list[str] = []
    styles: list[str] = []
    for match in _INLINE.finditer(html):
        tag, attributes, body = match.group(1).lower(), match.group(2), match.group(3)
        if tag == "style":
            styles.append(source_hash(body))
        elif _runs(attributes):
            scripts.append(source_hash(body))
    return list(dict.fromkeys(scripts)), list(dict.fromkeys(styles))


def page_policy(html: str, more_scripts: tuple[str, ...] = ()) -> str:
    """The policy for one built page: the base policy plus the hashes of what it has inline
    (and of ``more_scripts``, inline scripts its own scripts write into a frame)."""
    scripts, styles = inline_hashes(html)
    extra = {"script-src": list(dict.fromkeys([*scripts, *map(source_hash, more_scripts)])), "style-src": styles}
    return "; ".join(" ".join([name, value, *extra.get(name, [])]) for name, value in BASE_POLICY)


def security_meta(html: str, more_scripts: tuple[str, ...] = ()) -> str:
    return (f'<meta http-equiv="Content-Security-Policy" content="{page_policy(html, more_scripts)}">'
            f'<meta name="referrer" content="{REFERRER_POLICY}">')


def with_security_meta(html: str, page: str = "page", more_scripts: tuple[str, ...] = ()) -> str:
    """The page with its policy inserted first in <head> (after the charset declaration)."""
    head = _HEAD_START.search(html)
    if head is None:
        raise LayermapError(f"{page}: the built page has no <head>, so no place for its Content-Security-Policy",
                            "check the theme's templates (custom_dir in mkdocs.yml); the previous site/ was kept")
    return html[: head.end()] + security_meta(html, more_scripts) + html[head.end():]
