"""Emit: write the generated docs tree and its engine config into a folder.

The tree is complete on its own — Markdown pages, assets and an ``mkdocs.yml``
with the navigation — so any engine that reads mkdocs.yml (MkDocs today,
Zensical tomorrow) can build it without running layermap code.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path

import yaml

from generator.emit.files import write_bytes_atomically, write_text_atomically
from generator.emit.serve_status import SERVE_ONLY_ASSETS
from generator.errors import LayermapError
from generator.memo import forgettable, forgotten_with_the_rest
from generator.render.pages import NavItem, PageSource
from generator.terminal import shown

DOCS = "docs"  # the tree's pages and assets, in the work folder
ASSET_DIR = Path(__file__).parent.parent / "assets"  # generator/assets: the browser code
SANITISER = Path(__file__).parent.parent / "content" / "sanitise.py"  # an engine hook; see generator/content/sanitise.py
SANITISER_HOOK = "hooks/layermap_sanitise.py"
PAGE_CACHE = Path(__file__).parent / "engine" / "page_cache.py"  # an engine hook: converted pages kept across builds
PAGE_CACHE_HOOK = "hooks/layermap_page_cache.py"
# The cache hook's siblings (its keys and its store), copied beside it: it imports them by these names.
PAGE_CACHE_SIBLINGS = {Path(__file__).parent / "page_keys.py": "hooks/layermap_page_keys.py",
                       Path(__file__).parent / "page_store.py": "hooks/layermap_page_store.py"}
SEARCH_TERMS = Path(__file__).parent / "search_terms.py"  # an engine hook: a search index that stays small
SEARCH_TERMS_HOOK = "hooks/layermap_search_terms.py"
SEARCH_SECTIONS = Path(__file__).parent / "search_sections.py"  # an engine hook: the search reads pages faster
SEARCH_SECTIONS_HOOK = "hooks/layermap_search_sections.py"
NOT_FOUND = Path(__file__).parent / "not_found.py"  # an engine hook: a 404 page that leads back into the map
NOT_FOUND_HOOK = "hooks/layermap_not_found.py"
# The downloadable copy's engine config and hook, from when the copy was a second engine build; a
# hook whose work moved into layermap's own finishing step (emit/finishing.py).
RETIRED_FILES = ("mkdocs.portable.yml", "hooks/layermap_portable.py",
                 "hooks/layermap_depth_first_paint.py")  # the head script: layermap's finishing step adds it now
GENERATED_KEYS = ("docs_dir", "site_dir", "nav", "not_in_nav", "extra_css", "extra_javascript", "hooks")
NOT_IN_NAV = "/plans/*-d[1-5].md"  # each learning plan: reached from the plans' index, not from the navigation
STYLES = ["assets/layermap/layermap.css", "assets/layermap/map.css", "assets/layermap/offline.css", "assets/layermap/plans.css"]
# Every page links one stylesheet, the tree's styles joined in order: on a phone each extra
# render-blocking file costs a round trip before the first paint. The parts stay in the tree too.
STYLE_BUNDLE = "assets/layermap/site.css"
SCRIPTS = ["assets/layermap/theme-fixes.js", "assets/layermap/depth.js", "assets/layermap/calculator.js", "assets/layermap/exercise.js", "assets/layermap/map.js", "assets/layermap/offline.js", "assets/layermap/progress.js", "assets/layermap/previews.js"]


@dataclass
class DocsTree:
    """What goes into the generated folder: page texts and files copied from elsewhere."""

    pages: list[PageSource]
    nav: list[NavItem]
    copies: dict[str, Path] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    styles: list[str] = field(default_factory=lambda: list(STYLES))
    scripts: list[str] = field(default_factory=lambda: list(SCRIPTS))


def layermap_assets() -> dict[str, Path]:
    """Every page's browser code; the serve-only files come with ``layermap serve`` alone."""
    return {f"assets/layermap/{p.name}": p for p in sorted(ASSET_DIR.iterdir())
            if p.is_file() and p.name not in SERVE_ONLY_ASSETS}


def style_bundle(tree: DocsTree) -> str:
    """The tree's stylesheets joined in their order (none of them has a relative ``url()``)."""
    parts = []
    for rel in tree.styles:
        text = tree.texts[rel] if rel in tree.texts else tree.copies[rel].read_text(encoding="utf-8")
        parts.append(f"/* {rel} */\n{text.strip()}\n")
    return "\n".join(parts)


def require_base_config(base_config: Path) -> None:
    """The site's name, look and engine settings come from the project's mkdocs.yml: say so when there is none."""
    if not base_config.is_file():
        raise LayermapError(f"{shown(str(base_config))}: there is no mkdocs.yml beside content/, and layermap reads "
                            "the site's name, look and engine settings from it",
                            "copy mkdocs.yml from the layermap repository (or write one with at least `site_name: …` "
                            "and `theme: {name: material, font: false}`), then build again; the previous site/ was kept")


def engine_config(base_config: Path, nav: list[NavItem], styles: list[str] = STYLES,
                  scripts: list[str] = SCRIPTS) -> str:
    """The site's mkdocs.yml plus the generated keys, as text (its !ENV tags stay intact)."""
    require_base_config(base_config)
    return _engine_config(base_config.name, base_config.read_text(encoding="utf-8"), json.dumps(nav),
                          tuple(styles), tuple(scripts))


@forgettable
@lru_cache(maxsize=4)  # `layermap serve` asks after every edit; writing the navigation of 1,000 pages as YAML takes 0.2 s
def _engine_config(name: str, text: str, nav_json: str, styles: tuple[str, ...], scripts: tuple[str, ...]) -> str:
    base_config, nav = Path(name), json.loads(nav_json)
    for key in GENERATED_KEYS:
        match = re.search(rf"^{key}\s*:", text, flags=re.MULTILINE)
        if match:
            line = text[: match.start()].count("\n") + 1
            raise LayermapError(f"{base_config.name}:{line}: `{key}` is set by layermap",
                                f"remove `{key}` from {base_config.name}; layermap generates it")
    generated = {
        "docs_dir": DOCS,
        "site_dir": "../site",
        "extra_css": list(styles),
        "extra_javascript": [{"path": path, "type": "module"} for path in scripts],
        "nav": nav,
        "not_in_nav": NOT_IN_NAV,
        "hooks": [SANITISER_HOOK, PAGE_CACHE_HOOK, SEARCH_SECTIONS_HOOK, SEARCH_TERMS_HOOK, NOT_FOUND_HOOK],
    }
    dumped = yaml.safe_dump(generated, sort_keys=False, allow_unicode=True, width=1000)
    return f"{text.rstrip()}\n\n{GENERATED_MARK}\n{dumped}"


GENERATED_MARK = "# --- generated by layermap from content/: do not edit ---"


def written_navigation(config_file: Path) -> list:
    """The navigation layermap wrote into the engine config ``config_file``, read from the keys it
    generated (the site's own keys above them may carry the engine's YAML tags, such as ``!ENV``)."""
    _, _, generated = config_file.read_text(encoding="utf-8").partition(GENERATED_MARK)
    return (yaml.safe_load(generated) or {}).get("nav") or []


# What this process wrote, with the file's size and time just after: while those are the same, the
# file still holds that text and need not be read to compare (`layermap serve` asks after each edit).
_written: dict[Path, tuple[str | bytes, int, int]] = {}
forgotten_with_the_rest(_written.clear)


def _holds(path: Path, text: str | bytes) -> bool:
    try:
        stat = path.stat()
    except OSError:
        return False
    known = _written.get(path)
    if known is not None and (known[1], known[2]) == (stat.st_size, stat.st_mtime_ns):
        return known[0] == text
    if not path.is_file():
        return False
    return (path.read_bytes() if isinstance(text, bytes) else path.read_text(encoding="utf-8")) == text


def _write_text(path: Path, text: str | bytes) -> bool:
    """Write ``text`` (bytes as they are) unless the file holds it already; say whether it was written."""
    if _holds(path, text):
        return False  # unchanged: keeps `serve` from rebuilding for nothing
    if isinstance(text, bytes):
        write_bytes_atomically(path, text)  # `serve` reads the tree while it is rewritten
    else:
        write_text_atomically(path, text)
    stat = path.stat()
    _written[path] = (text, stat.st_size, stat.st_mtime_ns)
    return True


def _copy(source: Path, target: Path) -> bool:
    if target.is_file():
        a, b = source.stat(), target.stat()
        if a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns:
            return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    return True


def write_page(out_dir: Path, path: str, data: bytes) -> bool:
    """Write one page of the docs tree ahead of :func:`write_tree` (the processes that render the
    topic pages write theirs so, on every core); say whether it was written."""
    return _write_text(out_dir / DOCS / path, data)


def write_tree(tree: DocsTree, base_config: Path, out_dir: Path, changed: set[str] | None = None) -> Path:
    """Write the docs tree into ``out_dir`` (only what changed); return the engine config path.
    ``changed`` collects the docs-relative paths written or removed (and ``mkdocs.yml`` when the
    engine config changed); a page :func:`write_page` wrote in another process counts as unchanged."""
    docs = out_dir / DOCS
    changed = set() if changed is None else changed
    files = {page.path: partial(_write_text, docs / page.path, page.data) for page in tree.pages}
    files |= {rel: partial(_write_text, docs / rel, text) for rel, text in tree.texts.items()}
    files |= {rel: partial(_copy, source, docs / rel) for rel, source in tree.copies.items()}
    files[STYLE_BUNDLE] = partial(_write_text, docs / STYLE_BUNDLE, style_bundle(tree))
    changed |= {rel for rel, write in files.items() if write()}
    wanted = {docs / rel for rel in files}
    for stale in [p for p in docs.rglob("*") if p.is_file() and p not in wanted]:
        stale.unlink()
        changed.add(stale.relative_to(docs).as_posix())
    _copy(SANITISER, out_dir / SANITISER_HOOK)
    _copy(PAGE_CACHE, out_dir / PAGE_CACHE_HOOK)
    for sibling, copy in PAGE_CACHE_SIBLINGS.items():
        _copy(sibling, out_dir / copy)
    _copy(SEARCH_SECTIONS, out_dir / SEARCH_SECTIONS_HOOK)
    _copy(SEARCH_TERMS, out_dir / SEARCH_TERMS_HOOK)
    _copy(NOT_FOUND, out_dir / NOT_FOUND_HOOK)
    config = out_dir / "mkdocs.yml"
    if _write_text(config, engine_config(base_config, tree.nav, [STYLE_BUNDLE], tree.scripts)):
        changed.add(config.name)
    for retired in RETIRED_FILES:  # written by earlier versions
        (out_dir / retired).unlink(missing_ok=True)
    return config
