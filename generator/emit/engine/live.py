"""`layermap serve`'s site: built once in full, then page by page as the docs tree changes.

MkDocs' own `serve` rebuilds the whole site after any change: 70 s for a one-word edit at 1,000
topics. Here the engine's full build runs once, with a small plugin that keeps what it gathered
(the files, the navigation, the template environment) and its pages written on two cores before
serving starts (``page_writers.py``, which also says which search entries each page gave).
After an edit, while the set of files and the engine config are unchanged (so every page's
navigation is too), only the changed pages are read, rendered and written again, their search
entries replaced in the index; changed assets are copied. Anything else (a page added, removed or
renamed, a new title in the navigation) gets a full build. A full build of the same tree is the
reference: ``tests/generator/emit/test_live.py`` compares the two byte for byte.

This is the engine adapter's second half (the first is ``engine/__init__.py``): it uses MkDocs' build steps
(``_populate_page``, ``_build_page``) as MkDocs 1.6's own build does, and Material's search plugin
through its ``search_index.entries``; the tests fail if either moves.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.emit.engine import CollectWarnings, engine_errors
from generator.emit.engine.page_workers import pages_read_alongside
from generator.emit.engine.page_writers import Finish, pages_written_by
from generator.errors import LayermapError

log = logging.getLogger("mkdocs")
SEARCH_PLUGIN = "material/search"


@dataclass
class _Gathered:
    """What the engine's full build knew, kept for the page-by-page updates."""

    files: Any = None
    nav: Any = None
    env: Any = None
    search_entries: dict[str, list] = field(default_factory=dict)  # by page src_uri, in build order


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


class LiveSite:
    """The served site: :meth:`build` in full, then :meth:`update` with what changed in the docs tree."""

    def __init__(self, config_file: Path, site_dir: Path, site_url: str = "", finish: Finish | None = None) -> None:
        self.config_file, self.site_dir, self.site_url = config_file, site_dir, site_url
        self.finish = finish  # layermap's own step for each page the engine wrote (emit/finishing.py)
        self.config: Any = None
        self.gathered = _Gathered()
        self.full_builds = 0

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
            config = self._load()
            gathered = _Gathered()
            config.plugins["layermap/keep-build-state"] = _keeper(gathered)
            # Pages converted and written on two cores before serving starts.
            with pages_read_alongside(fork=before_serving), pages_written_by(self.finish, fork=before_serving) as pages:
                build(config)
            gathered.search_entries = pages.search_entries
            self.config, self.gathered = config, gathered
            self.full_builds += 1

    def update(self, changed: Iterable[str]) -> str:
        """Bring the site in step with the docs tree after ``changed`` (docs-relative paths, or
        ``mkdocs.yml``); say which way ("pages" or "full")."""
        changed = set(changed)
        if self.config is None or not self._pages_only(changed):
            self.build()
            return "full"
        with engine_errors():
            self._update_pages(changed)
        return "pages"

    def _pages_only(self, changed: set[str]) -> bool:
        files = self.gathered.files
        return "mkdocs.yml" not in changed and all(files.get_file_from_path(rel) is not None for rel in changed) and all(
            (Path(self.config.docs_dir) / rel).is_file() for rel in changed)

    def _update_pages(self, changed: set[str]) -> None:
        from mkdocs.commands.build import _build_page, _populate_page

        config, files = self.config, self.gathered.files
        warnings = CollectWarnings()
        log.addHandler(warnings)
        try:
            pages = [files.get_file_from_path(rel) for rel in sorted(changed)]
            for file in pages:
                if file.page is None:
                    file.copy_file()
                    continue
                _populate_page(file.page, config, files)
            doc_files = files.documentation_pages()
            search = config.plugins.get(SEARCH_PLUGIN)
            for file in (f for f in pages if f.page is not None):
                self._build_one(file, _build_page, doc_files, search)
            for file in doc_files:
                file.page.validate_anchor_links(files=files, log_level=config.validation.links.anchors)
            if search is not None:
                search.search_index.entries = [e for f in doc_files for e in self.gathered.search_entries.get(f.src_uri, [])]
            config.plugins.on_post_build(config=config)
        finally:
            log.removeHandler(warnings)
        if warnings.messages:
            raise LayermapError("the site engine (MkDocs) warned:\n" + "\n".join(f"    {m}" for m in warnings.messages),
                                "fix the problems above; the rest of the served site is as before")

    def _build_one(self, file: Any, build_page: Any, doc_files: Any, search: Any) -> None:
        """Render one page into the site, its search entries replacing its old ones."""
        index = search.search_index if search is not None else None
        if index is not None:
            index.entries = []
        build_page(file.page, self.config, doc_files, self.gathered.nav, self.gathered.env)
        if self.finish is not None:
            self.finish(file.dest_uri, self.site_url)
        if index is not None:
            self.gathered.search_entries[file.src_uri] = index.entries
