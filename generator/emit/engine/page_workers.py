"""The pages the engine's cache lacks, converted on two cores during the engine's build.

Part of the engine adapter (with ``engine/__init__.py``): it runs MkDocs' own steps, so it knows MkDocs.

The engine converts pages one after another, as it reads them. :func:`pages_read_alongside`
stands in for MkDocs' page-reading step (:class:`ReadAlongside`): at the first page it works out
which pages the cache (``generator/emit/engine/page_cache.py``) lacks, as the cache's hook would look them
up (not a page the generator converted already, known from its docs file alone), and splits them
in two shares of about the same Markdown (a big map's Sources page alone is more than half of it).
A forked process converts one share while this one converts the other, both with the engine's own
page step (the same MkDocs code and hooks, so the same HTML), which stores each page in the cache;
the build then reads every page in its order and finds the converted ones in the cache.

The other process never reports: a page it could not convert is simply not stored, and the
engine's build converts it again and fails on it as it always has; the warnings a page's
conversion logs are stored with it and said again by the engine's build (strict mode counts them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from generator.emit import page_keys, page_store
from generator.emit.docs_tree import PAGE_CACHE_HOOK
from generator.emit.engine import page_cache
from generator.processes import fork_context

MIN_PAGES = 24  # fewer pages to convert: the engine's build does it sooner than another process starts,
MIN_MARKDOWN = 1_000_000  # unless they are this long (characters): a big map's Sources page alone takes seconds


def missing_pages(config, files, page_of) -> list[tuple[int, str]]:  # noqa: ANN001 - the engine's config and files
    """The pages to be built whose conversion the cache lacks, in the engine's order: each one's
    Markdown's length and path. ``page_of``: a page's engine Page, from its path."""
    from mkdocs.structure.files import InclusionLevel

    build = page_keys.digest(page_keys.conversion_digest(config), page_keys.files_digest(files))
    folder = page_store.cache_folder(config) / page_store.PAGES
    prerendered = page_store.prerendered_places(Path(config.config_file_path).parent / page_store.PRERENDERED)
    stamp = page_cache.prerender_stamp_of(config)
    missing = []
    for file in files.documentation_pages(inclusion=InclusionLevel.is_included):
        place = prerendered.get(file.src_uri)
        if place is not None and _prerendered_as_written(file, place, stamp):
            continue
        page = page_of(file.src_uri)
        page.read_source(config)
        # The generator's conversion first: most pages have one, and its digest is the cheaper.
        markdown_digest = page_keys.text_digest(page.markdown)
        if not ((place is not None and page_store.read_page_facts(
                    place[0], page_keys.prerendered_header(stamp, markdown_digest), place[1]) is not None)
                or (folder / f"{page_keys.page_key(build, page, markdown_digest)}.json").is_file()):
            missing.append((len(page.markdown), file.src_uri))
        page.markdown = None  # read again when converted: a process forked from here need not share it
    return missing


def _prerendered_as_written(file, place: tuple[Path, int], stamp: str) -> bool:  # noqa: ANN001 - the engine's File
    """Whether the generator's conversion (at ``place``: its pack and offset) stands for the docs
    file as it is: known from the file's bytes, without reading its front matter as the engine
    does (a quarter of this step)."""
    try:
        source = Path(file.abs_src_path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return page_store.read_page_facts(place[0], page_keys.prerendered_file_header(stamp, source), place[1]) is not None


@contextmanager
def engine_quiet() -> Iterator[None]:
    """The engine says nothing here: its build says everything again, and nothing is said twice."""
    logger = logging.getLogger("mkdocs")
    quiet = logging.NullHandler()
    propagate, logger.propagate = logger.propagate, False
    logger.addHandler(quiet)
    try:
        yield
    finally:
        logger.removeHandler(quiet)
        logger.propagate = propagate


@dataclass
class ReadAlongside:
    """MkDocs' page-reading step (``build._populate_page``), which converts each page the cache
    lacks. At the first page, a forked process takes one of two shares of those pages (about
    half of their Markdown, :func:`_shares`) while this one converts the other share, out of the
    engine's order; each conversion runs the same step, so the cache's hook stores each page. The
    engine's reading then finds this process's pages in the cache and waits for the other process
    only when it comes to one of that one's pages, which the cache then holds. What a page's
    conversion logs is stored with it and said again when the engine reads it; a page that could
    not be converted ahead is converted in its turn, which fails or warns as it always has."""

    populate: Callable[..., None]
    fork: bool = True
    theirs: set[str] | None = None  # the pages the other process converts (None: not started yet)
    pool: ProcessPoolExecutor | None = None
    converted: Future | None = None

    def __call__(self, page, config, files, *rest, **named) -> None:  # noqa: ANN001 - MkDocs' signature
        if self.theirs is None:
            self.theirs = self._start(config, files)
        if self.converted is not None and page.file.src_uri in self.theirs:
            self._wait()
        self.populate(page, config, files, *rest, **named)

    def _start(self, config, files) -> set[str]:  # noqa: ANN001
        global _alongside  # noqa: PLW0603 - what the forked process starts with
        context = fork_context()
        if not self.fork or context is None or not uses_cache(config):
            return set()
        missing = missing_pages(config, files, partial(_page_of, config, files))
        if len(missing) < MIN_PAGES and sum(length for length, _ in missing) < MIN_MARKDOWN:
            return set()
        theirs, ours = _shares(missing)
        _alongside = (self.populate, config, files)
        self.pool = ProcessPoolExecutor(1, mp_context=context)
        self.converted = self.pool.submit(_populate_share, theirs)
        _populate_share(ours)
        return set(theirs)

    def _wait(self) -> None:
        try:
            self.converted.result()
        except BrokenProcessPool:  # it died (out of memory?): its pages are converted here
            pass
        self.close()

    def close(self) -> None:
        global _alongside  # noqa: PLW0603 - the build's config and files, no longer held once it is done
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        self.pool = self.converted = _alongside = None


def _shares(missing: list[tuple[int, str]]) -> tuple[list[str], list[str]]:
    """The pages in two shares of about the same Markdown: the largest first, each to the lighter
    share (the first share takes the largest page); each share in the engine's order."""
    sizes: list[int] = [0, 0]
    share_of: dict[str, int] = {}
    for length, src_uri in sorted(missing, key=lambda page: -page[0]):
        lighter = sizes.index(min(sizes))
        share_of[src_uri] = lighter
        sizes[lighter] += length
    return ([src_uri for _, src_uri in missing if share_of[src_uri] == 0],
            [src_uri for _, src_uri in missing if share_of[src_uri] == 1])


_alongside: tuple | None = None  # (the page step, the engine's config, its files): the forked process's


def _populate_share(src_uris: list[str]) -> int:
    """Run the engine's page step on each page, quietly (the cache's hook stores it, with what
    it logged); return how many were converted. In the forked process, or ahead in this one."""
    assert _alongside is not None  # noqa: S101 - set before the fork (and before this process's share)
    populate, config, files = _alongside
    converted = 0
    with engine_quiet():
        for src_uri in src_uris:
            page = _page_of(config, files, src_uri)
            try:
                populate(page, config, files)
            except Exception:  # noqa: BLE001, S112 - the engine's build meets it again and reports it
                continue
            page.markdown = page.content = None
            converted += 1
    return converted


def _page_of(config, files, src_uri: str):  # noqa: ANN001, ANN202 - the engine's config, files and Page
    from mkdocs.structure.pages import Page

    file = files.get_file_from_path(src_uri)
    return file.page if file.page is not None else Page(None, file, config)


def uses_cache(config) -> bool:  # noqa: ANN001 - the engine's config
    return any(Path(name).name == Path(PAGE_CACHE_HOOK).name for name in config["hooks"])


@contextmanager
def pages_read_alongside(fork: bool = True) -> Iterator[ReadAlongside]:
    """While the engine builds: the pages its cache lacks converted on two cores (:class:`ReadAlongside`)."""
    from mkdocs.commands import build

    populate = build._populate_page
    loop = ReadAlongside(populate, fork)
    build._populate_page = loop
    try:
        yield loop
    finally:
        build._populate_page = populate
        loop.close()
