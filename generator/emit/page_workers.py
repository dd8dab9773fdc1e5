"""Filling the engine's page cache over every core before the engine builds (a cold build).

Part of the engine adapter (with ``engine.py``): it runs MkDocs' own steps, so it knows MkDocs.

The engine converts pages one after another. Before it builds, :func:`fill_page_cache` reads the
config, the files and the navigation as the engine's build does, works out which pages the cache
(``generator/emit/page_cache.py``) lacks (not a page the generator converted already: its search
entries are made while the engine writes pages, on every core, ``page_writers.py``), and has
worker processes convert them: each runs the engine's own page step (the same MkDocs code and
hooks, so the same HTML) on its share of the pages, which stores each page and its search entries
in the cache. The engine's build then finds
every page there. A worker never reports: a page it could not convert is simply not stored, and
the engine's build converts it again and fails on it as it always has; the warnings a page's
conversion logs are stored with it and said again by the engine's build (strict mode counts them).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path

from generator.emit import page_cache
from generator.emit.docs_tree import PAGE_CACHE_HOOK
from generator.processes import fork_context

MIN_PAGES = 24  # fewer pages to convert: the engine's build does it sooner than workers start,
MIN_MARKDOWN = 1_000_000  # unless they are this long (characters): a big map's Sources page alone takes seconds
CHUNKS_PER_WORKER = 4  # pages differ in size: smaller shares keep every worker busy to the end


class _Engine:
    """The engine's config, files and navigation, as its build has them before converting pages."""

    def __init__(self, config_file: str) -> None:
        from mkdocs.config import load_config
        from mkdocs.structure.files import get_files, set_exclusions
        from mkdocs.structure.nav import get_navigation

        self.config_file = config_file
        config = load_config(config_file=config_file)
        self.config = config = config.plugins.on_config(config)
        files = get_files(config)
        files.add_files_from_theme(config.theme.get_env(), config)
        self.files = files = config.plugins.on_files(files, config=config)
        set_exclusions(files, config)
        self.nav = config.plugins.on_nav(get_navigation(files, config), config=config, files=files)

    def uses_cache(self) -> bool:
        return any(Path(name).name == Path(PAGE_CACHE_HOOK).name for name in self.config["hooks"])

    def page(self, src_uri: str):  # noqa: ANN201 - the engine's Page
        from mkdocs.structure.pages import Page

        file = self.files.get_file_from_path(src_uri)
        return file.page if file.page is not None else Page(None, file, self.config)

    def missing(self) -> list[tuple[int, str]]:
        """The pages to be built whose conversion the cache lacks (their Markdown's length and
        path), the longest first: a map's Sources page alone is a few seconds of one worker's time."""
        from mkdocs.structure.files import InclusionLevel

        build = page_cache.digest(page_cache.conversion_digest(self.config), page_cache.files_digest(self.files))
        folder = page_cache.cache_folder(self.config) / page_cache.PAGES
        prerendered = Path(self.config_file).parent / page_cache.PRERENDERED
        stamp = page_cache.prerender_stamp_of(self.config)

        missing = []
        for file in self.files.documentation_pages(inclusion=InclusionLevel.is_included):
            if self._prerendered_as_written(file, prerendered, stamp):
                continue
            page = self.page(file.src_uri)
            page.read_source(self.config)
            # The generator's conversion first: most pages have one, and its digest is the cheaper.
            if not (page_cache.read_page_facts(page_cache.prerendered_file(prerendered, file.src_uri),
                                               page_cache.prerendered_header(stamp, page.markdown)) is not None
                    or (folder / f"{page_cache.page_key(build, page, page.markdown)}.json").is_file()):
                missing.append((len(page.markdown), file.src_uri))
            page.markdown = None  # the workers read it again: the workers forked from here need not share it
        return sorted(missing, key=lambda pair: -pair[0])

    @staticmethod
    def _prerendered_as_written(file, folder: Path, stamp: str) -> bool:  # noqa: ANN001 - the engine's File
        """Whether the generator's conversion stands for the docs file as it is: known from the
        file's bytes, without reading its front matter as the engine does (a quarter of this step)."""
        try:
            source = Path(file.abs_src_path).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        where = page_cache.prerendered_file(folder, file.src_uri)
        return page_cache.read_page_facts(where, page_cache.prerendered_file_header(stamp, source)) is not None

    def convert(self, src_uris: list[str]) -> int:
        """Convert pages as the engine's build does (which stores them); return how many were."""
        from mkdocs.commands.build import _populate_page

        search = page_cache.search_index_of(self.config)
        converted = 0
        for src_uri in src_uris:
            page = self.page(src_uri)
            try:
                _populate_page(page, self.config, self.files)
            except Exception:  # noqa: BLE001, S112 - the engine's build meets it again and reports it
                continue
            if search is not None:
                search.add_entry_from_context(page)  # stored by the cache's hook
                search.entries.clear()
            page.markdown = page.content = None  # stored: a worker need not hold every page it converted
            converted += 1
        return converted


_engine: _Engine | None = None  # a worker's, inherited from the parent where processes fork


@contextmanager
def _engine_quiet() -> Iterator[None]:
    """The engine's build says everything again: nothing is said twice."""
    logger = logging.getLogger("mkdocs")
    quiet = logging.NullHandler()
    propagate, logger.propagate = logger.propagate, False
    logger.addHandler(quiet)
    try:
        yield
    finally:
        logger.removeHandler(quiet)
        logger.propagate = propagate


def _convert_share(config_file: str, src_uris: list[str]) -> int:
    global _engine  # noqa: PLW0603 - one engine per worker process
    with _engine_quiet():
        if _engine is None or _engine.config_file != config_file:
            _engine = _Engine(config_file)
        return _engine.convert(src_uris)


def _shares(items: list[str], workers: int) -> list[list[str]]:
    """Dealt round the shares in turn: given the longest pages first, each share starts with one
    of them, and the pool hands out the shares in order, so no long page is left for the end."""
    count = max(1, min(len(items), workers * CHUNKS_PER_WORKER))
    return [items[start::count] for start in range(count)]


def fill_page_cache(config_file: Path, workers: int | None = None) -> int:
    """Convert the pages the cache lacks in worker processes; return how many were converted."""
    global _engine  # noqa: PLW0603
    workers = workers or os.cpu_count() or 1
    with _engine_quiet():
        _engine = _Engine(str(config_file))
        missing = _engine.missing() if _engine.uses_cache() else []
    if (len(missing) < MIN_PAGES and sum(length for length, _ in missing) < MIN_MARKDOWN) or workers < 2:
        return 0
    shares = _shares([src_uri for _, src_uri in missing], workers)
    try:
        with ProcessPoolExecutor(workers, mp_context=fork_context() or multiprocessing.get_context()) as pool:
            return sum(pool.map(_convert_share, [str(config_file)] * len(shares), shares))
    except BrokenProcessPool:  # a worker died (out of memory?): the engine's build converts the pages
        return 0
    finally:
        _engine = None
