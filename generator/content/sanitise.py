"""The HTML allow-list: what a page's content may hold once Markdown is rendered.

Markdown fields may carry raw HTML; the site engine renders each page and then layermap keeps only
the elements, attributes, URL schemes and style properties listed here.  The list is what
Python-Markdown, its extensions, the theme and layermap's own renderers emit (calculator
forms, figures, the map's SVG, code, tables, admonitions, details, footnotes, anchors);
everything else is removed: ``<script>``, ``<style>``,
``<iframe>``, ``<object>``, event handlers (``on…``), ``javascript:``/``data:`` URLs, images
from other hosts.  Where the engine runs hooks, this module's :func:`on_page_content` (an MkDocs
hook, copied into the generated tree) does it as each page converts, and marks what it did;
layermap's finishing step (``emit/finishing.py``) does it for any page's content not so marked,
whatever engine built it.  ``layermap check`` reads the same lists (``content/raw_html.py``) to warn
about content HTML the sanitiser would remove.

Only the standard library and ``nh3`` are imported: the generated tree stays buildable alone.
"""

from __future__ import annotations

import hashlib
import html
import re
from functools import cache
from urllib.parse import urlsplit

import nh3

_TEXT = {"p", "br", "hr", "span", "div", "em", "strong", "b", "i", "u", "s", "del", "ins", "mark",
         "sub", "sup", "small", "abbr", "kbd", "q", "cite", "code", "pre", "blockquote", "time",
         "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "a", "img",
         "figure", "figcaption", "details", "summary", "section", "nav", "article", "aside",
         "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td"}
_FORMS = {"form", "fieldset", "legend", "label", "input", "select", "option", "button", "output"}
_SVG = {"svg", "g", "defs", "marker", "path", "line", "polyline", "polygon", "rect", "circle",
        "ellipse", "text", "tspan", "title", "desc"}
ALLOWED_TAGS: frozenset[str] = frozenset(_TEXT | _FORMS | _SVG)

# Removed together with everything inside them (the rest of a removed tag keeps its text).
REMOVED_WITH_CONTENT: frozenset[str] = frozenset({"script", "style", "iframe", "object", "embed", "template",
                                                  "noscript", "textarea", "math", "frame", "frameset"})

# On every allowed element: these, and any data-* or aria-* attribute.
GLOBAL_ATTRIBUTES: frozenset[str] = frozenset({"class", "id", "title", "role", "hidden", "tabindex", "lang", "dir", "style"})
ATTRIBUTE_PREFIXES: frozenset[str] = frozenset({"data-", "aria-"})
_SVG_SHAPE = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height", "d", "points",
              "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "transform", "text-anchor",
              "dominant-baseline", "marker-end", "marker-start", "opacity"}
TAG_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "name"}),  # SVG's xlink:href is read as href
    "img": frozenset({"src", "alt", "width", "height", "loading"}),
    "time": frozenset({"datetime"}),
    "details": frozenset({"open"}),
    "ol": frozenset({"start", "reversed", "type"}),
    "li": frozenset({"value"}),
    "th": frozenset({"colspan", "rowspan", "scope", "align"}),
    "td": frozenset({"colspan", "rowspan", "align"}),
    "col": frozenset({"span"}),
    "abbr": frozenset(),
    "form": frozenset({"autocomplete", "novalidate", "action"}),  # action: a page of the site (the plan picker)
    "label": frozenset({"for"}),
    "input": frozenset({"type", "name", "value", "min", "max", "step", "size", "inputmode", "autocomplete",
                        "spellcheck", "checked", "disabled", "readonly", "placeholder", "required"}),
    "select": frozenset({"name", "disabled", "required"}),
    "option": frozenset({"value", "selected", "disabled"}),
    "button": frozenset({"type", "disabled", "name", "value"}),
    "output": frozenset({"for", "name"}),
    "svg": frozenset({"viewBox", "width", "height", "xmlns", "preserveAspectRatio", "focusable"}),
    "marker": frozenset({"viewBox", "markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient"}),
    **{tag: frozenset(_SVG_SHAPE) for tag in ("g", "path", "line", "polyline", "polygon", "rect", "circle",
                                               "ellipse", "text", "tspan")},
}

# Links may leave the site; embedded files (img src) may not (offline is a feature).
LINK_SCHEMES: frozenset[str] = frozenset({"http", "https", "mailto"})
# layermap's own links to a page or file of the site in the raw HTML it renders (the map, Read first,
# plans), which an engine may rewrite if relative: ``layermap:layer-3/gpu-clusters/#depth-d4``, the
# target's built address from the site root, made relative to each page after the engine
# (``generator/emit/site_links.py``). Only a clean path: letters, digits and ``._~%-`` in parts
# joined by single slashes, no leading slash and no ``..``; a query or fragment after it as in any link.
SITE_LINK_SCHEME = "layermap"
SITE_PATH = r"(?:(?:[A-Za-z0-9_~%-]|\.(?!\.))+(?:/(?:[A-Za-z0-9_~%-]|\.(?!\.))+)*/?)?"
_SITE_LINK = re.compile(rf"{SITE_LINK_SCHEME}:{SITE_PATH}(?:[?#].*)?", re.DOTALL)
URL_ATTRIBUTES: frozenset[str] = frozenset({"href", "src", "action"})
STYLE_PROPERTIES: frozenset[str] = frozenset({"fill", "stroke", "stroke-width", "stroke-dasharray", "font-size",
                                              "min-width", "overflow", "text-align"})
# DOM clobbering: the theme reads its own elements by id (#__config, __search, __drawer,
# __palette_*, …) and its components by data-md-* attributes; an element of the page content
# with one of those would be found instead. On every page the sanitiser drops an id, name or
# for that starts with "__" (the highlighter's line anchors excepted) and every data-md-*
# attribute. Ids of layermap's own page structure are renamed in Markdown fields (clobbering.py).
NAMING_ATTRIBUTES: frozenset[str] = frozenset({"id", "name", "for"})
THEME_MARKER_PREFIX = "data-md-"
_THEME_ID = re.compile(r"__(?!codelineno-\d|code_\d)")


def theme_reserved(value: str) -> bool:
    """An id or name of the theme's own kind (``__config``, ``__search``, …)."""
    return bool(_THEME_ID.match(value.strip().lower()))


_UNSAFE_STYLE = re.compile(r"url\s*\(|expression\s*\(|\\|@import", re.IGNORECASE)

_URL_IGNORED = re.compile(r"[\t\n\r]")
_URL_TRIMMED = "".join(map(chr, range(0x21)))  # C0 controls and the space


def normalised_url(value: str) -> str:
    """A URL as a browser reads it before resolving it: character references decoded, C0 controls
    and spaces trimmed from both ends, tabs and line breaks dropped anywhere, and a backslash read
    as a slash (``/\\evil.example/x.png`` is ``//evil.example/x.png``: another host)."""
    text = _URL_IGNORED.sub("", html.unescape(value).strip(_URL_TRIMMED))
    return text.replace("\\", "/")


def url_allowed(attribute: str, value: str) -> bool:
    """A link: relative, or http(s) with a host, or mailto, or a clean ``layermap:`` site link
    (:data:`SITE_LINK_SCHEME`, in any URL attribute). An embedded file (``src``) or a form's
    ``action``: a path relative to the page only (not root-absolute: under a sub-path, or from
    disk, ``/`` is not the site)."""
    text = normalised_url(value)
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    if not parts.scheme and not parts.netloc and not text.startswith("//"):
        return attribute == "href" or not text.startswith("/")
    scheme = parts.scheme.lower()
    if scheme == SITE_LINK_SCHEME:  # exactly as written, for any URL attribute: resolved after the engine
        return bool(_SITE_LINK.fullmatch(html.unescape(value)))
    return attribute == "href" and scheme in LINK_SCHEMES and (scheme == "mailto" or bool(parts.netloc))


def attribute_allowed(tag: str, attribute: str, value: str) -> bool:
    """The checks nh3's lists cannot express: URLs by attribute, style values, and the ids and
    markers the theme looks up (:func:`theme_reserved`)."""
    if attribute in NAMING_ATTRIBUTES and theme_reserved(value):
        return False
    if attribute.startswith(THEME_MARKER_PREFIX):
        return False
    if attribute in URL_ATTRIBUTES:
        return url_allowed(attribute, value)
    if attribute == "style":
        return not _UNSAFE_STYLE.search(value)
    return True


def _filter(tag: str, attribute: str, value: str) -> str | None:
    """nh3's attribute filter, failing closed: nh3 keeps an attribute whose filter raised."""
    try:
        return value if attribute_allowed(tag, attribute, value) else None
    except Exception:  # noqa: BLE001 - any failure judging a value removes it
        return None


def _attributes() -> dict[str, set[str]]:
    every = {tag: set(GLOBAL_ATTRIBUTES) for tag in ALLOWED_TAGS}
    every["*"] = set(GLOBAL_ATTRIBUTES)
    for tag, names in TAG_ATTRIBUTES.items():
        every[tag] = every.get(tag, set()) | set(names)
    return every


# Elements whose content the HTML parser reads as raw text up to their end tag: one left
# open in a Markdown field would swallow the rest of the page. Their tags are dropped first
# (their text stays visible, inert), so nothing after them can be lost.
_RAW_TEXT_TAG = re.compile(r"</?(?:script|style|iframe|noscript|noembed|noframes|xmp|plaintext|textarea|template|math)\b[^>]*>",
                           re.IGNORECASE)


_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_SVG_ELEMENT = re.compile(r"(<svg\b.*?</svg>)", re.DOTALL | re.IGNORECASE)
_TITLE_TAG = re.compile(r"</?title\b[^>]*>", re.IGNORECASE)


def _drop_raw_text_tags(html: str) -> str:
    """Comments out, a comment left open shown as text, raw-text tags dropped (``<title>`` too,
    outside an ``<svg>``, where it is not raw text but the drawing's name)."""
    html = _COMMENT.sub("", html).replace("<!--", "&lt;!--")
    parts = _SVG_ELEMENT.split(html)
    html = "".join(part if index % 2 else _TITLE_TAG.sub("", part) for index, part in enumerate(parts))
    while True:  # `<scr<script>ipt>` becomes a tag once the inner one goes
        dropped = _RAW_TEXT_TAG.sub("", html)
        if dropped == html:
            return html
        html = dropped


def sanitise(html: str) -> str:
    """Page content with everything outside the allow-list removed."""
    return _cleaner().clean(_drop_raw_text_tags(html))


@cache  # nh3 takes a while to set up a sanitiser (0.3 ms, a sixth of sanitising a topic page): once per process
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(REMOVED_WITH_CONTENT),
        attributes=_attributes(),
        generic_attribute_prefixes=set(ATTRIBUTE_PREFIXES),
        attribute_filter=_filter,
        url_schemes=set(LINK_SCHEMES | {SITE_LINK_SCHEME}),
        link_rel=None,
        strip_comments=True,
        filter_style_properties=set(STYLE_PROPERTIES),
    )


# --- where a page's content starts and ends, on any engine ---------------------------------------
# Render writes ``<!--layermap-content:KEY-->`` before a page's Markdown body and ``<!--/…:KEY-->``
# after it, KEY the digest of that body: the body cannot hold its own digest, so no content can fake
# an end (``render/text.with_content_region``). This hook, where the engine runs it, sanitises the
# content and marks it ``layermap-sanitised`` with the digest of what it wrote; layermap's finishing
# step (``emit/finishing.py``) sanitises every region not so marked, whatever engine built the page.
CONTENT_MARK = "layermap-content"
SANITISED_MARK = "layermap-sanitised"
_OUTER_CONTENT_MARKS = re.compile(rf"^\s*<!--{CONTENT_MARK}:[0-9a-f]{{32}}-->\s*|\s*<!--/{CONTENT_MARK}:[0-9a-f]{{32}}-->\s*$")


def region_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def marked_sanitised(clean: str) -> str:
    key = region_key(clean)
    return f"<!--{SANITISED_MARK}:{key}-->{clean}<!--/{SANITISED_MARK}:{key}-->"


def sanitised_content(html: str) -> str:
    """A page's converted content, its region marks and the white space about them dropped,
    sanitised, and marked as sanitised."""
    return marked_sanitised(sanitise(_OUTER_CONTENT_MARKS.sub("", html)))


def on_page_content(html: str, **_: object) -> str:
    """MkDocs hook: sanitise each page's rendered content before the theme wraps it (a page the
    page cache gives back has none yet: nothing to do)."""
    return sanitised_content(html) if html else html
