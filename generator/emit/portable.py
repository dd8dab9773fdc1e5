"""The downloadable copy: the same docs tree built a second time for reading from disk, zipped.

Opened with ``file://``, a browser gives the page an opaque origin: module scripts, workers and
fetch are refused, and a link to a folder shows a directory listing. So the copy differs from the
site in a few ways, each a small function here (the engine adapter runs them; the pipeline only
orchestrates):

- its engine config (``mkdocs.portable.yml``) inherits the site's and adds Material's ``offline``
  plugin (search index inlined as ``search/search_index.js``) with the ``iframe-worker`` shim the
  theme's search uses on ``file://`` (vendored from npm, never from a CDN), our scripts as classic
  deferred scripts, and the hook in ``generator/portable_hook.py``;
- links to folders name their ``index.html``;
- our scripts are wrapped as classic scripts, the small modules they import (boot.js) inlined;
  the scripts that need a server (the calculator runtime, its exercise player, the service
  worker) are left out, and the map's index is embedded as a script instead of fetched;
- calculators keep their build-time numbers (fields disabled) and say so, and where they run live;
- every page's Content-Security-Policy also allows, by hash, the one inline script the shim writes
  into its frame (its text names the search worker's URL, which differs by folder depth);
- a READ-ME.txt, and the whole folder zipped (the Pyodide runtime is not included).
"""

from __future__ import annotations

import re
import textwrap
import zipfile
from collections.abc import Callable
from datetime import date
from html import escape
from pathlib import Path

import yaml

from generator.emit.portable_hook import index_html_url
from generator.emit.portable_scripts import classic_script, map_index_script
from generator.errors import LayermapError

PORTABLE_CONFIG = "mkdocs.portable.yml"
PORTABLE_HOOK = "hooks/layermap_portable.py"
HOOK_SOURCE = Path(__file__).parent / "portable_hook.py"
SHIM_PATH = "assets/vendor/iframe-worker/shim.js"
SHIM_PACKAGE = Path("node_modules") / "iframe-worker" / "shim" / "index.js"
MAP_INDEX_SCRIPT = "assets/layermap/map-index.js"
MAP_INDEX_FILE = "assets/layermap/map-index.json"
READ_ME = "READ-ME.txt"
COPY_FOLDER = "layermap-offline"  # the one folder the zip unpacks to
# Scripts that need a server: the calculator runtime (Pyodide in a module worker), its exercise
# player, and offline reading (a service worker). The copy shows the build-time numbers instead.
SERVED_ONLY_SCRIPTS = frozenset({"calculator.js", "exercise.js", "offline.js"})
# Docs-tree files the copy leaves out (the engine never copies them): the calculator runtime and
# the scripts that need a server.
NOT_IN_COPY = ("/assets/pyodide/", "/assets/py/", "/assets/layermap/calc-worker.js",
               *(f"/assets/layermap/{name}" for name in sorted(SERVED_ONLY_SCRIPTS)))
# What the engine writes that a copy read from disk has no use for: no server shows its 404 page.
NOT_SHOWN_FROM_DISK = ("404.html",)
RUNTIME_NOTE = ("The live calculator needs its Python runtime (Pyodide, about 13 MB), which this copy leaves "
                "out to stay small, and a web server.")


# --- the copy's engine config ---------------------------------------------------------------


class _AnyTagLoader(yaml.SafeLoader):
    """Reads a config with engine tags (``!ENV``) just to see its plain keys."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


class _BlockTextDumper(yaml.SafeDumper):
    """Writes a string with line breaks as a `|` block (exclude_docs reads as it is written)."""


_BlockTextDumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def _site_settings(base_config_text: str) -> dict:
    return yaml.load(base_config_text, Loader=_AnyTagLoader) or {}  # noqa: S506 - a SafeLoader


def site_plugins(base_config_text: str) -> list:
    """The plugins the site's own mkdocs.yml lists (the engine's default, search, when none)."""
    return list(_site_settings(base_config_text).get("plugins") or ["search"])


def _site_excluded(base_config_text: str) -> list[str]:
    """The site's own exclude_docs patterns (the copy's list replaces it, so it repeats them)."""
    return str(_site_settings(base_config_text).get("exclude_docs") or "").splitlines()


def copy_features(base_config_text: str) -> list[str]:
    """The theme's features without instant navigation.

    On ``file://`` Material's instant navigation is an empty stream that it subscribes its
    ``document$`` to, so ``document$`` completes before the page loads and nothing bound to it
    (the depth switcher, the map) ever starts. The copy loads each page in full instead.
    """
    features = (_site_settings(base_config_text).get("theme") or {}).get("features") or []
    return [f for f in features if not str(f).startswith("navigation.instant")]


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


def copy_config(site_config_name: str, base_config_text: str, site_scripts: list[str], hooks: list[str]) -> str:
    """The copy's engine config: the site's (inherited) with the offline plugin and classic scripts."""
    plugins = [p for p in site_plugins(base_config_text) if p != "offline"] + ["offline"]
    generated = {
        "INHERIT": site_config_name,
        "theme": {"features": copy_features(base_config_text)},
        "plugins": plugins,
        # Named before the offline plugin runs, so it adds no CDN copy of the shim (it looks for "iframe-worker").
        "extra": {"polyfills": [SHIM_PATH]},
        "extra_javascript": copy_scripts(site_scripts),
        "exclude_docs": "".join(f"{line}\n" for line in [*_site_excluded(base_config_text), *NOT_IN_COPY]),
        "hooks": [*hooks, PORTABLE_HOOK],
    }
    dumped = yaml.dump(generated, Dumper=_BlockTextDumper, sort_keys=False, allow_unicode=True, width=1000)
    return f"# The downloadable copy (file://), generated by layermap: do not edit.\n{dumped}"


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


# --- pages ------------------------------------------------------------------------------------

_HREF = re.compile(r'(\s(?:xlink:)?href=")([^"]*)(")')
_CALC_STATUS = re.compile(r'(<p class="lm-calc__status"[^>]*>)(.*?)(</p>)', re.DOTALL)
_CALC_FIELDSET = re.compile(r'<fieldset class="lm-calc__(inputs|presets)"')
_CALC_ACTIONS = re.compile(r'<p class="lm-calc__actions"')
_DOWNLOAD = re.compile(r'<p class="lm-download"[^>]*>.*?</p>', re.DOTALL)


def links_name_index_html(html: str) -> str:
    """Every link to a folder names its index.html (a folder opened from disk is a directory listing)."""
    return _HREF.sub(lambda m: m.group(1) + index_html_url(m.group(2)) + m.group(3), html)


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


def page_for_disk(html: str, page: str, site_url: str) -> str:
    """A built page, ready to be read from disk (its security policy is added after, from the final text)."""
    html = static_calculators(links_name_index_html(html), online_address(site_url, page))
    return without_download_link(html)


# --- scripts ----------------------------------------------------------------------------------


# --- the search frame's inline script (for the page's policy) -----------------------------


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


def trim_copy(copy: Path) -> None:
    """Remove what the engine wrote that a copy read from disk has no use for."""
    for name in NOT_SHOWN_FROM_DISK:
        (copy / name).unlink(missing_ok=True)
    for source_map in copy.rglob("*.map"):  # the theme's source maps: for debugging its bundle
        source_map.unlink()


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


def prepare_copy(copy: Path, site_scripts: list[str], site_name: str, site_url: str) -> None:
    """The copy's files, once the engine has built it: trimmed, classic scripts, a READ-ME."""
    trim_copy(copy)
    prepare_scripts(copy, site_scripts)
    (copy / READ_ME).write_text(read_me(site_name, site_url, date.today()), encoding="utf-8")


def zip_folder(folder: Path, zip_path: Path, top: str = COPY_FOLDER) -> int:
    """Zip ``folder`` as ``top/…`` (sorted, so the same copy gives the same listing); return its size in bytes."""
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, f"{top}/{path.relative_to(folder).as_posix()}")
    return zip_path.stat().st_size
