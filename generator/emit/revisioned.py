"""layermap's own scripts, stylesheet and calculator Python under a name that changes with their bytes (issue 34, 3).

Every built page links the site's stylesheet (``assets/layermap/site.css``) and layermap's module
scripts (``assets/layermap/*.js``), which import one another by relative names; the calculator
worker among them fetches the calculators' Python (``assets/py/calcview/…``, ``…/calculators/…``).
A browser reuses what it fetched for a while (GitHub Pages lets it for ten minutes), so under one
unchanging name a page of a new deployment could get the old stylesheet, one old module beside new
ones, or the old Python behind a new form. So the built site also holds these files in a folder
named after a digest of all of them, ``assets/layermap-<digest>/`` (the Python under its ``py/``),
and its pages link that copy: a deployment that changes any of them changes the folder every page
names, and a page only ever loads the scripts, stylesheet and Python of its own build. The folder
sits beside ``assets/layermap/``, so the scripts' other relative addresses (``../pyodide/``,
``../../sw.js``) name what they did; the worker takes its Python from ``py/`` beside itself when
its folder is a versioned one (generator/assets/calc-worker.js).

A page the browser still holds from an earlier deployment names that deployment's folder, gone
from the site once a newer one replaced it: each page also loads ``assets/stale-page.js``, a name
every deployment keeps, which loads the page again (once) when its versioned stylesheet is gone
(``generator/emit/stale-page.js``).

The unversioned files stay where they were (``layermap serve`` and the downloadable copy, which is
made from the pages before they are given the folder, use them), but no page of the built site
links them, and the service worker does not precache them (:data:`NOT_PRECACHED`).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

FOLDER = "assets/layermap"
STYLESHEET = "site.css"  # docs_tree.STYLE_BUNDLE's name: the one stylesheet of layermap every page links
PYTHON_FOLDER = "assets/py"  # calcview.site_files.PYTHON_PREFIX: the Python the calculator worker imports
VERSIONED_PYTHON = "py"  # the Python's folder inside the versioned one
DIGEST_LENGTH = 12  # hex digits: 48 bits, for the few versions a site ever has
# Superseded in the built site by the versioned folder; map-index.json and the like stay (read as data).
NOT_PRECACHED = (f"{FOLDER}/*.js", f"{FOLDER}/*.css", f"{PYTHON_FOLDER}/**")
STALE_PAGE = "assets/stale-page.js"  # the same name in every deployment, outside every versioned folder
STALE_PAGE_SOURCE = Path(__file__).with_name("stale-page.js")
# A page's <link> to the versioned stylesheet, with the way up to the site's root.
_VERSIONED_STYLESHEET = re.compile(r'<link\b[^>]*\bhref="((?:[^"]*/)?)assets/layermap-[0-9a-f]+/'
                                   + re.escape(STYLESHEET) + r'"[^>]*>')
# A page's <link href> or <script src> naming one of the files: relative (../../assets/layermap/…) or,
# on the theme's 404 page, from the site's root (/REPO/assets/layermap/…).
_LINKED = re.compile(r'(<(?:link|script)\b[^>]*?\b(?:href|src)=")((?:[^"]*/)?)assets/layermap/([\w.-]+\.(?:js|css))"')


def versioned_files(site: Path) -> list[Path]:
    """The built site's files that go into the versioned folder: every script, and the stylesheet."""
    folder = site / FOLDER
    return sorted(p for p in folder.iterdir() if p.is_file() and (p.suffix == ".js" or p.name == STYLESHEET))


def python_files(site: Path) -> dict[str, Path]:
    """The calculators' Python in the built site, by its name in the versioned folder
    (``py/calcview/evaluate.py``); none on a site without calculators."""
    folder = site / PYTHON_FOLDER
    if not folder.is_dir():
        return {}
    return {f"{VERSIONED_PYTHON}/{p.relative_to(folder).as_posix()}": p for p in sorted(folder.rglob("*.py")) if p.is_file()}


def _folder_contents(site: Path) -> dict[str, Path]:
    """Name in the versioned folder -> the built file copied there."""
    return {**{p.name: p for p in versioned_files(site)}, **python_files(site)}


def version_folder(site: Path) -> str:
    """``assets/layermap-<digest>``: the digest of every versioned file's name and bytes."""
    digest = hashlib.sha256()
    for name, path in sorted(_folder_contents(site).items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return f"{FOLDER}-{digest.hexdigest()[:DIGEST_LENGTH]}"


def with_versioned_assets(html: str, folder: str, names: frozenset[str]) -> str:
    """The page with each ``<link>`` and ``<script>`` of a versioned file naming it in ``folder``."""
    def versioned(found: re.Match[str]) -> str:
        start, up, name = found.groups()
        return f'{start}{up}{folder}/{name}"' if name in names else found.group(0)
    return _LINKED.sub(versioned, html)


def with_stale_page_check(html: str) -> str:
    """The page with ``assets/stale-page.js`` (deferred) right after its versioned stylesheet's ``<link>``."""
    if STALE_PAGE in html:
        return html

    def checked(found: re.Match[str]) -> str:
        return f'{found.group(0)}<script src="{found.group(1)}{STALE_PAGE}" defer></script>'
    return _VERSIONED_STYLESHEET.sub(checked, html, count=1)


class Versioner:
    """Gives each page of a built site the versioned folder's names (worked out at the first page,
    once the engine has copied the assets; each process that finishes pages works it out itself)."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.folder: str | None = None
        self.names: frozenset[str] = frozenset()

    def __call__(self, html: str) -> str:
        if self.folder is None:
            if not (self.site / FOLDER).is_dir():
                return html
            self.folder = version_folder(self.site)
            self.names = frozenset(p.name for p in versioned_files(self.site))
        return with_stale_page_check(with_versioned_assets(html, self.folder, self.names))


def write_versioned_folder(site: Path) -> tuple[str, ...]:
    """Copy the versioned files into their folder; return what the service worker need not precache."""
    if not (site / FOLDER).is_dir():
        return ()
    target = site / version_folder(site)
    for name, path in _folder_contents(site).items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target / name)
    shutil.copy2(STALE_PAGE_SOURCE, site / STALE_PAGE)
    return NOT_PRECACHED
