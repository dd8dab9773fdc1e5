"""The downloadable copy: the built site, made ready for reading from disk, and zipped.

Opened with ``file://``, a browser gives the page an opaque origin: module scripts, workers and
fetch are refused, and a link to a folder shows a directory listing. The copy is derived from the
site the engine has just built (no second engine build: the same pages, each read once, see
``engine/__init__.py``), and differs from it in a few ways, each a small function here:

- each page's theme config drops instant navigation, and the page loads the ``iframe-worker`` shim
  the theme's search uses on ``file://`` (vendored from npm, never from a CDN), as Material's own
  ``offline`` plugin would have it; the search index is inlined as ``search/search_index.js``;
- links to folders name their ``index.html``;
- our scripts are classic deferred scripts, the small modules they import (boot.js) inlined;
  the scripts that need a server (the calculator runtime, its exercise player, the service
  worker) are left out, and the map's index is embedded as a script instead of fetched;
- calculators keep their build-time numbers (fields disabled) and say so, and where they run live;
- every page's Content-Security-Policy also allows, by hash, the one inline script the shim writes
  into its frame (its text names the search worker's URL, which differs by folder depth);
- a READ-ME.txt, and the whole folder zipped (the Pyodide runtime is not included).
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Callable
from datetime import date
from functools import lru_cache
from html import escape
from pathlib import Path

from jinja2.utils import htmlsafe_json_dumps

from generator.emit.portable_scripts import classic_script, map_index_script
from generator.errors import LayermapError

SHIM_PATH = "assets/vendor/iframe-worker/shim.js"
SHIM_PACKAGE = Path("node_modules") / "iframe-worker" / "shim" / "index.js"
MAP_INDEX_SCRIPT = "assets/layermap/map-index.js"
MAP_INDEX_FILE = "assets/layermap/map-index.json"
SEARCH_INDEX = "search/search_index.json"
SEARCH_INDEX_SCRIPT = "search/search_index.js"  # what the theme loads from file:// (fetch is refused there)
READ_ME = "READ-ME.txt"
COPY_FOLDER = "layermap-offline"  # the one folder the zip unpacks to
# Scripts that need a server: the calculator runtime (Pyodide in a module worker), its exercise
# player, and offline reading (a service worker). The copy shows the build-time numbers instead.
SERVED_ONLY_SCRIPTS = frozenset({"calculator.js", "exercise.js", "offline.js"})
# Folders (ending in /) and files of the site the copy leaves out: the calculator runtime, the
# scripts that need a server, and the service worker with its runtime (no worker runs from disk).
NOT_IN_COPY = ("/assets/pyodide/", "/assets/py/", "/assets/layermap/calc-worker.js",
               *(f"/assets/layermap/{name}" for name in sorted(SERVED_ONLY_SCRIPTS)), "/assets/workbox/", "/sw.js")
# What the site has that a copy read from disk has no use for: no server shows its 404 page, and
# the theme reads the search index from its script there.
NOT_SHOWN_FROM_DISK = ("404.html", SEARCH_INDEX)
RUNTIME_NOTE = ("The live calculator needs its Python runtime (Pyodide, about 13 MB), which this copy leaves "
                "out to stay small, and a web server.")


# --- which of the site's files ----------------------------------------------------------------


def in_copy(name: str) -> bool:
    """Whether the site's file ``name`` (relative, with /) belongs in the copy."""
    path = f"/{name}"
    if name in NOT_SHOWN_FROM_DISK or name.endswith(".map"):  # .map: the theme's source maps, for debugging
        return False
    return not any(path.startswith(left_out) if left_out.endswith("/") else path == left_out
                   for left_out in NOT_IN_COPY)


def copy_site_files(site: Path, copy: Path) -> None:
    """Copy the site's files that belong in the copy, except its pages (made by :func:`copy_page`)."""
    for path in sorted(site.rglob("*")):
        name = path.relative_to(site).as_posix()
        if path.is_file() and path.suffix != ".html" and in_copy(name):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copy / name)


def site_assets(project_root: Path) -> dict[str, Path]:
    """The iframe-worker shim (npm, pinned in package-lock.json) that the copy's search needs.

    Looked for as Node.js looks for packages: in the project's node_modules, then in those of the
    folders above layermap's own code (where Workbox is found too).
    """
    folders = [Path(project_root).resolve(), *Path(__file__).resolve().parents]
    for shim in (folder / SHIM_PACKAGE for folder in folders):
        if shim.is_file():
            return {SHIM_PATH: shim}
    raise LayermapError(f"the downloadable copy's search needs {SHIM_PACKAGE}, which is not installed",
                        "run `npm ci` in the layermap folder (it installs the pinned iframe-worker package); "
                        "the previous site/ was kept")


# --- links ------------------------------------------------------------------------------------

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def index_html_url(url: str) -> str:
    """``url`` naming the ``index.html`` of the folder it points to; other URLs as they are.

    A relative URL points to a folder when its path is empty (but not a bare ``#fragment``), ends
    with ``/``, or its last segment is ``.`` or ``..``: ``../gpu-clouds/#d4`` →
    ``../gpu-clouds/index.html#d4``, ``../..`` → ``../../index.html``.
    Absolute URLs (with a scheme or a leading slash) and fragments alone are left alone.
    """
    if not url or url.startswith(("#", "/")) or _SCHEME.match(url):
        return url
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    path, rest = url[:cut], url[cut:]
    if path.rsplit("/", 1)[-1] in (".", ".."):
        path += "/"
    return f"{path}index.html{rest}" if path == "" or path.endswith("/") else url


def search_index_for_disk(index: dict) -> dict:
    """The search index with every entry's location naming its page's ``index.html``."""
    for entry in index.get("docs", []):
        location = entry.get("location", "")
        # the home page's entries are "" and "#section": relative to the site's root folder
        entry["location"] = f"index.html{location}" if location[:1] in ("", "#") else index_html_url(location)
    return index


def write_search_index_script(site: Path, copy: Path) -> None:
    """The site's search index, its locations naming index.html, as the script the theme loads from disk."""
    source = site / SEARCH_INDEX
    if source.is_file():
        index = search_index_for_disk(json.loads(source.read_text(encoding="utf-8")))
        data = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
        (copy / SEARCH_INDEX_SCRIPT).parent.mkdir(parents=True, exist_ok=True)
        (copy / SEARCH_INDEX_SCRIPT).write_text(f"var __index = {data}", encoding="utf-8")


# --- the theme's config and our scripts, on each page -------------------------------------------

_THEME_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
_MODULE_SCRIPT = re.compile(r'<script src="([^"]*?)(assets/layermap/[\w.-]+\.js)" type="module"></script>\n?')


def theme_config_json(config: dict) -> str:
    """The theme's page config as its template writes it (Jinja's ``tojson``: keys sorted, HTML-safe)."""
    return str(htmlsafe_json_dumps(config, sort_keys=True))  # a plain str: Markup would escape what it is joined to


def for_file_protocol(html: str) -> str:
    """The theme on a page read from disk, as Material's ``offline`` plugin sets it up: no instant
    navigation, and the ``iframe-worker`` shim loaded in the head (the theme's search worker then
    runs in a frame, where ``file://`` refuses workers).

    On ``file://`` instant navigation is an empty stream that the theme subscribes its ``document$``
    to, so ``document$`` completes before the page loads and nothing bound to it (the depth
    switcher, the map) ever starts: the copy loads each page in full instead.
    """
    found = _THEME_CONFIG.search(html)
    if found is None:
        return html
    config = json.loads(found.group(2))
    config["features"] = [f for f in config.get("features") or [] if not str(f).startswith("navigation.instant")]
    base = config.get("base", ".")
    shim = SHIM_PATH if base in ("", ".") else f"{base}/{SHIM_PATH}"
    html = html[: found.start(2)] + theme_config_json(config) + html[found.end(2):]
    return html.replace("</head>", f'<script src="{escape(shim)}"></script>\n</head>', 1)


def copy_scripts(site_scripts: list[str]) -> list[dict]:
    """The site's scripts the copy runs, as classic deferred scripts, with the map index before map.js."""
    scripts = []
    for path in site_scripts:
        if Path(path).name in SERVED_ONLY_SCRIPTS:
            continue
        if Path(path).name == "map.js":
            scripts.append({"path": MAP_INDEX_SCRIPT, "defer": True})
        scripts.append({"path": path, "defer": True})
    return scripts


def classic_script_tags(html: str, site_scripts: list[str]) -> str:
    """Each of our module scripts on a page becomes the copy's classic deferred scripts (none for
    the ones that need a server; the map index before the map)."""
    def tags(found: re.Match) -> str:
        prefix, path = found.groups()
        if path not in site_scripts:
            return found.group(0)
        return "".join(f'<script src="{prefix}{entry["path"]}" defer></script>\n' for entry in copy_scripts([path]))
    return _MODULE_SCRIPT.sub(tags, html)


# --- pages ------------------------------------------------------------------------------------

_HREF_VALUE = re.compile(r'href="([^"]*)"')  # a literal start: found quickly (the white space before is checked after)
_CALC_STATUS = re.compile(r'(<p class="lm-calc__status"[^>]*>)(.*?)(</p>)', re.DOTALL)
_CALC_FIELDSET = re.compile(r'<fieldset class="lm-calc__(inputs|presets)"')
_CALC_ACTIONS = re.compile(r'<p class="lm-calc__actions"')
_DOWNLOAD = re.compile(r'<p class="lm-download"[^>]*>.*?</p>', re.DOTALL)


def links_name_index_html(html: str) -> str:
    """Every link to a folder names its index.html (a folder opened from disk is a directory listing):
    each ``href="…"`` (or ``xlink:href``) after white space."""
    return _HREF_VALUE.sub(_href_naming_index_html, html)


def _href_naming_index_html(match: re.Match[str]) -> str:
    text, start = match.string, match.start()
    before = start - 6 if start >= 6 and text.startswith("xlink:", start - 6) else start  # ``xlink:`` is part of the name
    if before > 0 and text[before - 1].isspace():
        return _href_attribute(match[1])
    return match[0]


@lru_cache(maxsize=1 << 14)  # a page's 150 links are mostly its navigation's, the same on page after page
def _href_attribute(url: str) -> str:
    return f'href="{index_html_url(url)}"'


def static_note(online_page: str) -> str:
    """What a calculator says in the copy: where its numbers come from and where it runs live (HTML)."""
    where = (f'To change the values, use this page on the site, <a href="{escape(online_page)}">{escape(online_page)}</a>.'
             if online_page else "To change the values, use this page on the site online.")
    return f"This downloaded copy shows the results computed when it was built, for the values below. {RUNTIME_NOTE} {where}"


def static_calculators(html: str, online_page: str = "") -> str:
    """Calculators keep their build-time numbers and say so, and where they run live; their inputs are disabled."""
    html = _CALC_STATUS.sub(lambda m: m.group(1) + static_note(online_page) + m.group(3), html)
    html = _CALC_FIELDSET.sub(lambda m: f'<fieldset class="lm-calc__{m.group(1)}" disabled', html)
    return _CALC_ACTIONS.sub('<p class="lm-calc__actions" hidden', html)


def without_download_link(html: str) -> str:
    """The copy is what the home page's download link fetches: the link goes."""
    return _DOWNLOAD.sub("", html)


def online_address(site_url: str, page: str) -> str:
    """The page's address on the published site ("" without a site URL): ``layer-3/x/index.html`` → ``…/layer-3/x/``."""
    if not site_url:
        return ""
    folder = page[: -len("index.html")] if page.endswith("index.html") else page
    return site_url.rstrip("/") + "/" + folder


def page_for_disk(html: str, page: str, site_url: str, site_scripts: list[str]) -> str:
    """A page of the site, ready to be read from disk (its security policy is added after, from the final text)."""
    html = classic_script_tags(for_file_protocol(html), site_scripts)
    html = static_calculators(links_name_index_html(html), online_address(site_url, page))
    return without_download_link(html)


# --- the copy's folder and the zip -----------------------------------------------------------


def read_me(site_name: str, site_url: str, built: date) -> str:
    online = f" The site itself: {site_url}" if site_url else ""
    where = f"use the site online, {site_url}" if site_url else "use the site online"
    paragraphs = [
        f"Built on {built.isoformat()}.{online}",
        "To read it, open index.html in this folder with a web browser (double-click it). Every page, the "
        "depth levels, the drawn map and search work from disk, with no connection and no web server.",
        f"The calculators show the results computed when this copy was built, for each page's values. "
        f"{RUNTIME_NOTE} To change the values, {where} (after one visit it works offline in that browser "
        "too: \"Save for offline\" at the foot of any page), or build and serve the site from its source "
        "with ./scripts/serve.",
        "Every page carries a Content-Security-Policy: nothing runs but this copy's own scripts.",
    ]
    title = f"{site_name}: the downloadable copy"
    return "\n\n".join([f"{title}\n{'=' * len(title)}", *(textwrap.fill(p, 96, break_long_words=False, break_on_hyphens=False) for p in paragraphs)]) + "\n"


def _reader(folder: Path) -> Callable[[str], str]:
    """Reads a file of ``folder`` by its name (what an import of ``./name`` there finds)."""
    return lambda file_name: (folder / file_name).read_text(encoding="utf-8")


def prepare_scripts(copy: Path, site_scripts: list[str]) -> None:
    """Our scripts as classic scripts, plus the map index as a script; the modules they import
    are inlined into them, so those files go."""
    entries = copy_scripts(site_scripts)
    for entry in entries:
        path = copy / entry["path"]
        if entry["path"] == MAP_INDEX_SCRIPT:
            index = copy / MAP_INDEX_FILE
            path.write_text(map_index_script(index.read_text(encoding="utf-8")) if index.is_file()
                            else "window.layermapMapIndex = null;\n", encoding="utf-8")
        else:
            path.write_text(classic_script(path.read_text(encoding="utf-8"), entry["path"], _reader(path.parent)), encoding="utf-8")
    kept = {copy / entry["path"] for entry in entries}
    for folder in {(copy / entry["path"]).parent for entry in entries}:
        for module in folder.glob("*.js"):
            if module not in kept:
                module.unlink()


def prepare_copy(site: Path, copy: Path, site_scripts: list[str], site_name: str, site_url: str) -> None:
    """The copy's own files, once its pages and the site's files are in: the search index as a
    script, classic scripts, a READ-ME."""
    write_search_index_script(site, copy)
    prepare_scripts(copy, site_scripts)
    (copy / READ_ME).write_text(read_me(site_name, site_url, date.today()), encoding="utf-8")
