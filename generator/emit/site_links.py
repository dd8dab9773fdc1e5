"""layermap's links to pages of the site in the raw HTML it renders, made relative after the engine.

An engine converts a page's Markdown links itself; raw HTML it should leave alone. MkDocs does, but
Zensical rewrites a relative link there as if it were relative to the Markdown file, not to the
built page (``../power-cooling/`` became ``../../power-cooling/``: 1,979 broken links). So render
writes each link of its own raw HTML (the map's drawing and its text, Read first, plan links and the
plan picker, previews, the sources page, topic pages it renders itself) to a page or file of the site
as ``layermap:`` and the target's address from the site root (``render/paths.site_link``), a scheme
no engine rewrites and the sanitiser keeps when its path is clean (``content/sanitise.SITE_PATH``).
:func:`resolved_links`, in layermap's finishing step of every built page, makes each one the
relative URL from that page, exactly the link render wrote before, which a site under a sub-path and
the copy read from disk need.

Only a placeholder inside a tag is resolved: at the start of the value of ``href``, ``xlink:href``,
``action``, ``src`` or a ``data-*`` attribute, or, in a ``data-*`` value, at the start of a JSON
string in it (the plan picker's targets). One with a path that is not clean stays as written (the
sanitiser removes it from content, and a browser follows no link of an unknown scheme).
"""

from __future__ import annotations

import posixpath
import re

from generator.content.sanitise import SITE_LINK_SCHEME, SITE_PATH
from generator.render.paths import relative_path

_MARK = f"{SITE_LINK_SCHEME}:"
_NAME = r"[^\s\"'>/=]+"
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+)"
_TAG = re.compile(rf"<[A-Za-z][^\s/>]*(?:\s+{_NAME}(?:\s*=\s*{_VALUE})?)*\s*/?>")  # a start tag, values quoted or not
_ATTRIBUTE = re.compile(rf"(\s+)({_NAME})(\s*=\s*)({_VALUE})")
_URL_ATTRIBUTES = frozenset({"href", "xlink:href", "action", "src"})
_AT_START = re.compile(rf"^{_MARK}({SITE_PATH})(?=[?#]|$)")
# In a data-* value, also at the start of a JSON string (its quotes escaped one way or another).
_IN_JSON = re.compile(rf"(?:^|(?<=&quot;)|(?<=&#34;)|(?<=\")){_MARK}({SITE_PATH})(?=[?#]|&quot;|&#34;|\"|$)")
# How many "<" before a placeholder are tried as the start of its tag: an attribute value may hold
# a "<" (the sanitiser writes one as it is), so the nearest is not always the tag's.
_TAG_STARTS_TRIED = 8


def relative_link(target: str, base: str) -> str:
    """The link from a page in the folder ``base`` of the site to ``target`` (a clean path from
    the site root: a folder, ending in ``/`` or empty for the home page, or a file)."""
    rel = relative_path(target or ".", base or ".")
    if not target or target.endswith("/"):
        return "./" if rel == "." else rel + "/"
    return rel


def resolved_links(html: str, page: str) -> str:
    """``html``, the built page ``page`` (its path in the site: ``index.html``,
    ``layer-3/gpu-clusters/index.html``), with each of layermap's ``layermap:`` links in it made
    relative to that page. One pass: the page is searched for the scheme (a plain string search)
    and only the tags that hold it are read."""
    at = html.find(_MARK)
    if at < 0:
        return html
    resolve = _Resolver(posixpath.dirname(page))
    out: list[str] = []
    done = 0
    while at >= 0:
        tag = _tag_holding(html, at, done)
        if tag is None:
            at = html.find(_MARK, at + len(_MARK))
            continue
        out += [html[done:tag.start()], _ATTRIBUTE.sub(resolve.attribute, tag[0])]
        done = tag.end()
        at = html.find(_MARK, done)
    out.append(html[done:])
    return "".join(out)


def _tag_holding(html: str, at: int, after: int) -> re.Match[str] | None:
    """The start tag (from ``after`` on) whose text holds the position ``at``, or None (text)."""
    start = at
    for _ in range(_TAG_STARTS_TRIED):
        start = html.rfind("<", after, start)
        if start < 0:
            return None
        tag = _TAG.match(html, start)
        if tag is not None and tag.end() > at:
            return tag
    return None


class _Resolver:
    """Resolves the site links of one page's tags, each target worked out once."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.known: dict[str, str] = {}

    def link(self, match: re.Match[str]) -> str:
        target = match[1]
        if target not in self.known:
            self.known[target] = relative_link(target, self.base)
        return self.known[target]

    def attribute(self, match: re.Match[str]) -> str:
        space, name, equals, value = match.groups()
        lowered = name.lower()
        found = _IN_JSON if lowered.startswith("data-") else _AT_START if lowered in _URL_ATTRIBUTES else None
        if found is None or _MARK not in value:
            return match[0]
        quote = value[0] if value[0] in "\"'" else ""
        inner = value[1:-1] if quote else value
        return f"{space}{name}{equals}{quote}{found.sub(self.link, inner)}{quote}"
