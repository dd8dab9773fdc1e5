"""Writing the built pages on two cores: the engine's page loop, shared with a forked process.

Part of the engine adapter (with ``engine/__init__.py``): it knows MkDocs' build.

Once MkDocs has converted every page, it renders each page's template and writes the page, one
after another; layermap then finishes each page (``engine/__init__.py``: compacted, its security policy,
the downloadable copy's version of it). At 1,000 topics that is a third of a cold build, on one
core. While the engine builds, :func:`pages_written_by` stands in for MkDocs' page step: it notes
each page, and at the last one writes them all, this process taking every other page and a
forked one the rest, each finishing a page as soon as it is written. The pages are the same
(MkDocs' own page step, the same templates). What rendering a page leaves for the rest of the
build comes back to the engine's process: the theme's search entries, put in the engine's page
order, and the messages logged (a warning still fails a strict build).

A plugin that acts while pages render could keep state that a forked process would lose: when any
handler of those events is not one known here, or there is no ``fork`` (Windows, macOS' default),
the pages are written in the engine's process, in order, each finished as soon as it is written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from generator.emit.docs_tree import PAGE_CACHE_HOOK
from generator.emit.engine.page_cache import Messages, say_again, search_index_of
from generator.processes import fork_context

SHARES = 2
MIN_PAGES = 24  # fewer pages: writing them takes less than starting a process
RENDER_EVENTS = ("page_context", "post_page")
# The handlers of those events that keep nothing a forked process could lose, by module: the
# theme's search (its entries come back) and layermap's page cache (it reads the page's content back; MkDocs names a hook's module by
# its path in the config).
KNOWN_HANDLERS = frozenset({"material.plugins.search.plugin", PAGE_CACHE_HOOK})

Finish = Callable[[str, str], None]  # (the written page's path in the site, the site's URL)
AllWritten = Callable[[list[str], str], None]  # (every page the loop wrote, the site's URL)


def can_share(config) -> bool:  # noqa: ANN001 - the engine's config
    """Whether every handler of the events run while a page renders is known to keep no state."""
    handlers = [h for event in RENDER_EVENTS for h in config.plugins.events.get(event, [])]
    return all(getattr(handler, "__module__", None) in KNOWN_HANDLERS for handler in handlers)


@contextmanager
def _said_not_shown() -> Iterator[Messages]:
    """In a forked process: what MkDocs logs is kept, not shown (the engine's process says it)."""
    logger = logging.getLogger("mkdocs")
    said = Messages()
    handlers, propagate = logger.handlers[:], logger.propagate
    logger.handlers, logger.propagate = [said], False
    try:
        yield said
    finally:
        logger.handlers, logger.propagate = handlers, propagate


@dataclass
class PageLoop:
    """MkDocs' page step (``build._build_page``), its calls noted and run at the last page.

    Once the engine has written its pages: ``written``, each page's path in the site, and
    ``search_entries``, the theme's search entries each page gave (by source path, in the
    engine's order)."""

    write_page: Callable[..., None]
    finish: Finish | None = None
    fork: bool = True  # False where forking is unsafe (once other threads run)
    all_written: AllWritten | None = None  # told once every page is written and finished
    calls: list[tuple] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    search_entries: dict[str, list] = field(default_factory=dict)

    def __call__(self, page, config, doc_files, *rest, **named) -> None:  # noqa: ANN001 - MkDocs' signature
        self.calls.append((page, config, doc_files, rest, named))
        if page is doc_files[-1].page:
            self.write_all(config)

    def write_one(self, number: int) -> list:
        """Write (and finish) the noted page ``number``; return the search entries it added."""
        page, config, doc_files, rest, named = self.calls[number]
        search = search_index_of(config)
        start = len(search.entries) if search is not None else 0
        self.write_page(page, config, doc_files, *rest, **named)
        page.content = None  # written: the theme's search has kept a copy of it too, and nothing reads either again
        if self.finish is not None:
            self.finish(page.file.dest_uri, config.site_url or "")
        self.written.append(page.file.dest_uri)
        return search.entries[start:] if search is not None else []

    def write_share(self, share: int, shares: int) -> dict[int, list]:
        return {n: self.write_one(n) for n in range(share, len(self.calls), shares)}

    def write_all(self, config) -> None:  # noqa: ANN001
        search = search_index_of(config)
        start = len(search.entries) if search is not None else 0
        context = fork_context()
        if not self.fork or len(self.calls) < MIN_PAGES or context is None or not can_share(config):
            entries = self.write_share(0, 1)
        else:
            with ProcessPoolExecutor(1, mp_context=context) as other:
                theirs = other.submit(_other_share, SHARES)
                entries = {}
                for share in range(SHARES - 1):
                    entries |= self.write_share(share, SHARES)
                their_entries, their_pages, said = theirs.result()
            say_again(said)
            entries |= their_entries
            self.written += their_pages
        self.search_entries = {self.calls[n][0].file.src_uri: entries[n] for n in sorted(entries)}
        if search is not None:
            search.entries[start:] = [entry for page_entries in self.search_entries.values() for entry in page_entries]
        if self.all_written is not None:
            self.all_written(self.written, config.site_url or "")


_loop: PageLoop | None = None  # the forked process's, inherited from the engine's process


def _other_share(shares: int) -> tuple[dict[int, list], list[str], list[list]]:
    """In the forked process: the last share of the pages, what their search entries were, the
    pages written and what was logged."""
    assert _loop is not None  # noqa: S101 - set before the fork
    with _said_not_shown() as said:
        _loop.written = []
        entries = _loop.write_share(shares - 1, shares)
    return entries, _loop.written, said.records


@contextmanager
def pages_written_by(finish: Finish | None = None, fork: bool = True, all_written: AllWritten | None = None) -> Iterator[PageLoop]:
    """While the engine builds: its pages written on two cores (with ``fork``) and each finished
    by ``finish``, then ``all_written`` told, while the engine goes on (its search index, its
    last events); gives the loop, whose ``written`` and ``search_entries`` fill as the build goes."""
    global _loop  # noqa: PLW0603 - the forked process finds it here
    from mkdocs.commands import build

    write_page = build._build_page
    _loop = PageLoop(write_page, finish, fork, all_written)
    build._build_page = _loop
    try:
        yield _loop
    finally:
        build._build_page = write_page
        _loop = None
