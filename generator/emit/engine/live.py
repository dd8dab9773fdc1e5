"""`layermap serve`'s site: built once in full, then page by page as the docs tree changes.

MkDocs' own `serve` rebuilds the whole site after any change: 70 s for a one-word edit at 1,000
topics. Here the engine's full build runs once, with a small plugin that keeps what it gathered
(the files, the navigation, the template environment) and its pages written on two cores before
serving starts (``page_writers.py``, which also says which search entries each page gave).
After an edit, while the set of files is unchanged, only the changed pages are read, rendered and
written again, their search entries replaced in the index; changed assets are copied. When the
engine config changed in its navigation alone (a new title), the navigation is made again from
it over the pages the engine already read, every page is then stale (each shows the navigation),
and so are the theme's own pages (the 404 page, the sitemap). Anything else (a page added,
removed or renamed, another setting) gets a full build.

An update can put off what the edit did not name (``postpone``): it writes the changed pages
first, with the new navigation, so that the page under edit can be shown at once, and leaves the
stale pages, the theme's pages and the search index to the next update, which a reader's second
edit can interrupt (``stopping``): what it did not write stays stale. A full build of the same
tree is the reference: ``tests/generator/emit/engine/test_live.py`` compares the two byte for byte.

This is the engine adapter's second half (the first is ``engine/__init__.py``): it uses MkDocs' build steps
(``_populate_page``, ``_build_page``, ``get_navigation``, the theme templates' step) as MkDocs
1.6's own build does, and Material's search plugin through its ``search_index.entries``; the
tests fail if either moves.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.emit.engine import CollectWarnings, engine_errors
from generator.emit.engine.page_workers import pages_read_alongside
from generator.emit.engine.page_writers import Finish, pages_written_by
from generator.errors import LayermapError

log = logging.getLogger("mkdocs")
SEARCH_PLUGIN = "material/search"
KEEPER = "layermap/keep-build-state"
CONFIG = "mkdocs.yml"


def never() -> bool:
    return False


@dataclass
class _Gathered:
    """What the engine's full build knew, kept for the page-by-page updates."""

    files: Any = None
    nav: Any = None
    env: Any = None
    search_entries: dict[str, list] = field(default_factory=dict)  # by page src_uri, in build order


@dataclass
class _Stale:
    """What the served site still lacks of the docs tree, put off by an update for the next."""

    pages: set[str] = field(default_factory=set)  # src_uris of pages written with an older navigation
    templates: bool = False  # the theme's own pages (404, sitemap) and the extra templates
    index: bool = False  # the search index and the engine's last event (post_build)

    def __bool__(self) -> bool:
        return bool(self.pages or self.templates or self.index)


def _keeper(gathered: _Gathered) -> Any:
    """An engine plugin (made here: it must not be imported before MkDocs is) that keeps the build's state."""
    from mkdocs.plugins import BasePlugin

    class KeepBuildState(BasePlugin):
        def on_files(self, files: Any, **_: Any) -> Any:
            gathered.files = files
            return files

        def on_nav(self, nav: Any, **_: Any) -> Any:
            gathered.nav = nav
            return nav

        def on_env(self, env: Any, **_: Any) -> Any:
            gathered.env = env
            return env

    return KeepBuildState()


def _settings(config_file: Path) -> dict:
    """The engine config as MkDocs reads it (its tags resolved)."""
    from mkdocs.utils.yaml import yaml_load

    with config_file.open(encoding="utf-8") as text:
        return yaml_load(text)


def _nav_titles(items: Any, titles: dict[str, str | None]) -> dict[str, str | None]:
    """Each page path the navigation names, with the title it gives (None: none), first mention first."""
    if isinstance(items, dict):
        items = list(items.items())
    for item in items if isinstance(items, list) else [items]:
        if isinstance(item, dict):
            _nav_titles(item, titles)
        elif isinstance(item, tuple) and not isinstance(item[1], str):
            _nav_titles(item[1], titles)
        else:
            title, path = item if isinstance(item, tuple) else (None, item)
            titles.setdefault(path, title)
    return titles


class LiveSite:
    """The served site: :meth:`build` in full, then :meth:`update` with what changed in the docs tree."""

    def __init__(self, config_file: Path, site_dir: Path, site_url: str = "", finish: Finish | None = None) -> None:
        self.config_file, self.site_dir, self.site_url = config_file, site_dir, site_url
        self.finish = finish  # layermap's own step for each page the engine wrote (emit/finishing.py)
        self.config: Any = None
        self.gathered = _Gathered()
        self.stale = _Stale()
        self.settings: dict = {}  # the engine config built, its navigation aside
        self.full_builds = 0
        self.pages_written = 0  # by updates, all told

    @property
    def current(self) -> bool:
        """Whether nothing an update put off is still to be written."""
        return self.config is not None and not self.stale

    def _load(self) -> Any:
        from mkdocs.config import load_config

        config = load_config(config_file=str(self.config_file), site_dir=str(self.site_dir), strict=True)
        if self.site_url:
            config.site_url = self.site_url
        return config

    def build(self) -> None:
        """The engine's own full build, keeping what it gathered."""
        from mkdocs.commands.build import build

        self.config = None  # until this build succeeds: a failed one leaves nothing to update page by page
        # Forking only before serving starts: while the server's and the watcher's threads run, a
        # forked process could start with a lock one of them holds.
        before_serving = threading.current_thread() is threading.main_thread()
        with engine_errors():
            settings = _settings(self.config_file)
            config = self._load()
            gathered = _Gathered()
            config.plugins[KEEPER] = _keeper(gathered)
            # Pages converted and written on two cores before serving starts.
            with pages_read_alongside(fork=before_serving), pages_written_by(self.finish, fork=before_serving) as pages:
                build(config)
            gathered.search_entries = pages.search_entries
            self.config, self.gathered, self.stale = config, gathered, _Stale()
            self.settings = {key: value for key, value in settings.items() if key != "nav"}
            self.full_builds += 1

    def update(self, changed: Iterable[str], postpone: bool = False, stopping: Callable[[], bool] = never) -> str:
        """Bring the site in step with the docs tree after ``changed`` (docs-relative paths, or
        ``mkdocs.yml``), and write what an earlier update put off; say which way ("pages" or
        "full"). With ``postpone``, only the changed pages are written (with the navigation as it
        now is), and what else is stale waits for the next update; ``stopping`` says when to
        leave the rest for later (a reader's next edit is waiting)."""
        changed = set(changed)
        if not changed and self.current:
            return "pages"
        with engine_errors():
            nav = self._new_nav() if CONFIG in changed and self.config is not None else None
            if self.config is None or (CONFIG in changed and nav is None) or not self._pages_only(changed - {CONFIG}):
                self.build()
                return "full"
            self._update_pages(changed - {CONFIG}, nav, postpone, stopping)
        return "pages"

    def _pages_only(self, changed: set[str]) -> bool:
        files = self.gathered.files
        return all(files.get_file_from_path(rel) is not None for rel in changed) and all(
            (Path(self.config.docs_dir) / rel).is_file() for rel in changed)

    def _new_nav(self) -> Any:
        """The engine config's navigation, when nothing else in it changed and only the keeper
        handles the navigation event (None: a full build)."""
        settings = _settings(self.config_file)
        handlers = self.config.plugins.events.get("nav", [])
        if {k: v for k, v in settings.items() if k != "nav"} != self.settings or any(
                getattr(h, "__self__", None) is not self.config.plugins[KEEPER] for h in handlers):
            return None
        return settings.get("nav")

    def _renavigate(self, nav_items: Any) -> None:
        """Make the navigation again over the pages already read, as a full build would make it
        from ``nav_items``: each page with the title the navigation gives it (or none), and no
        neighbours until the navigation links it."""
        from mkdocs.structure.nav import get_navigation

        config, files = self.config, self.gathered.files
        titles: dict[str, str | None] = {}
        for path, title in _nav_titles(nav_items, {}).items():
            file = files.get_file_from_path(path)
            if file is not None:
                titles.setdefault(file.src_uri, title)
        for file in files.documentation_pages():
            page, title = file.page, titles.get(file.src_uri)
            if title is None:
                page.__dict__.pop("title", None)  # the title MkDocs works out (the page read sets it)
            else:
                page.title = title
            page.parent = page.previous_page = page.next_page = None
        config["nav"] = nav_items
        config.plugins.on_nav(get_navigation(files, config), config=config, files=files)  # the keeper keeps it
        self.stale = _Stale({file.src_uri for file in files.documentation_pages()}, templates=True, index=True)

    def _update_pages(self, changed: set[str], nav: Any, postpone: bool, stopping: Callable[[], bool]) -> None:
        from mkdocs.commands.build import _populate_page

        config, files = self.config, self.gathered.files
        warnings = CollectWarnings()
        log.addHandler(warnings)
        try:
            if nav is not None:
                self._renavigate(nav)
            pages = [files.get_file_from_path(rel) for rel in sorted(changed)]
            for file in pages:
                if file.page is None:
                    file.copy_file()
                    continue
                _populate_page(file.page, config, files)
            written, doc_files = [f for f in pages if f.page is not None], files.documentation_pages()
            for number, file in enumerate(written):
                if stopping():  # what is left is written with the stale pages, read again then
                    self.stale.pages |= {f.src_uri for f in written[number:]}
                    written = written[:number]
                    break
                self._build_one(file, doc_files)
            self.stale.index = True
            if postpone:
                for file in written:
                    file.page.validate_anchor_links(files=files, log_level=config.validation.links.anchors)
                return
            self._write_stale(stopping)
        finally:
            log.removeHandler(warnings)
        if warnings.messages:
            raise LayermapError("the site engine (MkDocs) warned:\n" + "\n".join(f"    {m}" for m in warnings.messages),
                                "fix the problems above; the rest of the served site is as before")

    def _write_stale(self, stopping: Callable[[], bool]) -> None:
        """Write what earlier updates put off, in the engine's page order, until ``stopping``:
        each stale page read again and written, the theme's pages, then the search index."""
        from mkdocs.commands.build import _build_extra_template, _build_theme_template, _populate_page

        config, files, gathered = self.config, self.gathered.files, self.gathered
        doc_files = files.documentation_pages()
        for file in doc_files:
            if file.src_uri in self.stale.pages:
                if stopping():
                    return
                _populate_page(file.page, config, files)
                self._build_one(file, doc_files)
        if stopping():
            return
        if self.stale.templates:
            for template in config.theme.static_templates:
                _build_theme_template(template, gathered.env, files, config, gathered.nav)
            for template in config.extra_templates:
                _build_extra_template(template, files, config, gathered.nav)
            self.stale.templates = False
        for file in doc_files:
            file.page.validate_anchor_links(files=files, log_level=config.validation.links.anchors)
        search = config.plugins.get(SEARCH_PLUGIN)
        if search is not None:
            search.search_index.entries = [e for f in doc_files for e in gathered.search_entries.get(f.src_uri, [])]
        config.plugins.on_post_build(config=config)
        self.stale.index = False

    def _build_one(self, file: Any, doc_files: Any) -> None:
        """Render one page into the site with the navigation as it now is, its search entries
        replacing its old ones, and finish it."""
        from mkdocs.commands.build import _build_page

        search = self.config.plugins.get(SEARCH_PLUGIN)
        index = search.search_index if search is not None else None
        if index is not None:
            index.entries = []
        gathered = self.gathered
        _build_page(file.page, self.config, doc_files, gathered.nav, gathered.env)
        file.page.content = None  # written: the search index has its entries, and nothing reads it again
        if self.finish is not None:
            self.finish(file.dest_uri, self.site_url)
        if index is not None:
            gathered.search_entries[file.src_uri] = index.entries
        self.stale.pages.discard(file.src_uri)
        self.pages_written += 1
