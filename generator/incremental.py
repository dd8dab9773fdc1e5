"""`layermap serve`: the docs tree regenerated after each edit, redoing only what the edit touched,
and the served site updated page by page (``emit/engine/live.py``, ``emit/engine/serve.py``).

Three memories, each reused only while what it depends on is the same:

- the reading: a topic file whose bytes did not change is not parsed or validated again
  (``content.loading.ReadMemo``);
- the per-topic checks (quality lints, things to try, prose numbers), kept by topic file while
  that file's reading, the map's settings and the bibliography are the same (``checks.ClaimsMemo``);
- the pages: while the *frame* of the map is the same (its settings, the source labels, and each
  topic's face: id, title, layer, summary and edges, which is all that other pages show of a
  topic), only the pages of the topics that changed and the Sources page (it lists which topics
  cite each source) are rendered again; otherwise every page is, as Markdown, and only the topic
  pages whose Markdown changed are converted for the engine again.

The page under edit first: after a save, `layermap serve` writes the pages of the topics that
changed (with the new map's navigation), updates them in the served site and reloads the open
page; then, in the background, the pages that show the edit too (a new title is in every page's
navigation; a summary is on the pages that list the topic). A save meanwhile stops that work
between two batches of pages or two pages written, and its own first step takes the rest over
(``emit/watch.py``), so no edit waits for the one before.

A cold build is the reference: ``tests/generator/test_incremental.py`` makes edits of each kind and
compares the regenerated tree with a cold one, file by file, after the first step and the rest
too. So does the served site (``tests/generator/emit/engine/test_live.py``): an edit's pages,
rebuilt alone, equal a full build's.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import signed_cache
from generator.checks import ClaimsMemo
from generator.content.loading import ReadMemo
from generator.content.schema import Topic
from generator.diagnostics import Diagnostic
from generator.emit import build_record
from generator.emit.build_record import code_fingerprint, engine_inputs
from generator.emit.docs_tree import write_tree
from generator.emit.engine import build_site, configured_site_url, forget_conversions, site_url_ahead
from generator.emit.engine.live import LiveSite, never
from generator.emit.engine.prerendered import PrerenderedPages
from generator.emit.engine.serve import serve_forever, served_site
from generator.emit.serve_status import write_failure
from generator.emit.watch import ContentWatcher, say_on_stderr
from generator.memo import forget_everything
from generator.model.calculators import CalculatorBridge
from generator.model.graph import KnowledgeMap
from generator.pipeline import docs_tree, load_map, page_texts
from generator.processes import fork_context
from generator.project import Project
from generator.render.bibliography import map_labels, map_sources
from generator.render.pages import PageSource, page_renderers, topic_pages
from generator.render.paths import SOURCES_PAGE, topic_page
from generator.render.plan import plan_dependents
from generator.settings import BuildSettings
from generator.work_lock import work_folder_lock


@dataclass(frozen=True)
class Regeneration:
    """What one regeneration wrote: the engine config, the docs-relative paths that changed, the warnings."""

    config: Path
    changed: set[str]
    warnings: list[Diagnostic]
    pages_rendered: int
    pending: int = 0  # pages left stale, for :meth:`Regenerator.regenerate_rest`


def face(topic: Topic) -> tuple:
    """What other pages show of a topic: its place in the map, its name, its one line and its edges."""
    return topic.id, topic.title, topic.layer, topic.summary, tuple(topic.edges)


@dataclass
class PageMemo:
    """The pages as last rendered, with the frame and the topics they were rendered from."""

    frame: tuple = ()
    listing: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # each source and who cites it
    topics: dict[str, Topic] = field(default_factory=dict)
    texts: dict[str, bytes] = field(default_factory=dict)  # each page's Markdown, UTF-8
    stale: set[str] = field(default_factory=set)  # pages whose text is older than the map (left for later)
    rendered: int = 0  # pages rendered by this memory, all told

    def render(self, kmap: KnowledgeMap, settings: BuildSettings, kept: PrerenderedPages | None = None,
               first: bool = False, stopping: Callable[[], bool] = never) -> tuple[list[PageSource], int]:
        """Every page's text, rendering again only what the changes since last time can touch (and
        what an earlier call left :attr:`stale`), and how many pages were; with ``kept``, topic pages
        also as the engine converts them (:meth:`_texts`). While the map has the same pages, some can
        wait: with ``first``, all but the changed topics' pages; those not done when ``stopping``."""
        calculators = CalculatorBridge()
        listed = map_sources(kmap, calculators)
        labels = map_labels(listed)
        renderers = page_renderers(kmap, calculators, settings, listed, labels)
        frame = (kmap.config, settings, kmap.sources, tuple(renderers), labels,
                 tuple(face(t) for t in kmap.topics.values()))
        listing = [(entry.source.id, tuple(t.id for t in entry.topics)) for entry in listed]
        changed = {tid for tid, t in kmap.topics.items() if self.topics.get(tid) != t}
        if frame == self.frame:
            redo = {topic_page(kmap.topics[tid]) for tid in changed} | plan_dependents(kmap, changed)
            redo |= {SOURCES_PAGE} if listing != self.listing else set()
        else:
            redo = set(renderers)
        redo |= self.stale & set(renderers)
        edited = {topic_page(kmap.topics[tid]) for tid in changed} & redo
        now = edited if first and edited and set(renderers) == set(self.texts) else redo
        texts = self._texts(kmap, [path for path in renderers if path in now], renderers, settings, calculators,
                            labels, kept, stopping)
        self.texts = {path: texts[path] if path in texts else self.texts[path] for path in renderers}
        self.frame, self.listing, self.topics, self.stale = frame, listing, dict(kmap.topics), redo - set(texts)
        self.rendered += len(texts)
        return [PageSource(path, text) for path, text in self.texts.items()], len(texts)

    def _texts(self, kmap: KnowledgeMap, now: list[str], renderers: dict, settings: BuildSettings,
               calculators: CalculatorBridge, labels: dict[str, str], kept: PrerenderedPages | None,
               stopping: Callable[[], bool]) -> dict[str, bytes]:
        """The pages ``now``; after a first rendering, as Markdown first (a fifth of the work): a
        topic page whose Markdown is as before keeps the engine's conversion kept for it, and only
        the others are rendered as the engine would convert them too, together over every core
        (``kept.docs_written``: the docs files changed), or, when ``stopping`` can stop it (while
        the map has the same pages), a few pages at a time with a look at it between two."""
        if kept is None or not kept.supported or not self.texts:
            return page_texts(kmap, renderers, set(now), settings, calculators, labels, kept)
        texts: dict[str, bytes] = {}
        topics, again, written = topic_pages(kmap), set(), set()
        size = MARKDOWN_BATCH if stopping is not never and set(renderers) == set(self.texts) else max(len(now), 1)
        for start in range(0, len(now), size):
            if texts and stopping():
                break
            batch = page_texts(kmap, renderers, set(now[start:start + size]), settings, calculators, labels, None)
            texts |= batch
            again = {path for path in batch if path in topics and batch[path] != self.texts.get(path)}
            if again:
                texts |= page_texts(kmap, renderers, again, settings, calculators, labels, kept)
                written |= kept.docs_written
        kept.docs_written = written
        if set(renderers) != set(self.texts):
            kept.keep_only(topics)  # what was kept for pages no longer in the map goes
        return texts


CACHE_FILE = "cache/generation.pickle"  # in the work folder, signed (generator/signed_cache.py)
MARKDOWN_BATCH = 2  # pages rendered between two looks at whether to stop (PageMemo._texts): gaps up to 0.6 s, load 7-10


class Regenerator:
    """Writes the docs tree, again after each edit, reusing what did not change: for `layermap serve`
    in memory, and for `layermap build` from one build to the next (:meth:`restore`, :meth:`keep`)."""

    def __init__(self, project: Project, settings: BuildSettings = BuildSettings(), serving: bool = True,
                 out_dir: Path | None = None) -> None:
        self.project, self.settings, self.serving = project, settings, serving
        self.out_dir = out_dir or project.work_dir
        self.reading, self.claims, self.pages = ReadMemo(), ClaimsMemo(), PageMemo()
        self._kept: tuple[int, int, int] | None = None  # the memories' counts when last kept or taken up
        self._kmap: KnowledgeMap | None = None  # the map last written, while pages of it are stale

    @property
    def cache_file(self) -> Path:
        return self.out_dir / CACHE_FILE

    def restore(self) -> Regenerator:
        """Take up what the last run on this machine kept, when it was made by the same code."""
        kept = signed_cache.load(self.cache_file)
        if isinstance(kept, dict) and kept.get("code") == code_fingerprint():
            self.reading, self.claims, self.pages = kept["reading"], kept["claims"], kept["pages"]
            self._kept = (self.reading.fresh, self.pages.rendered, len(self.claims.topics))
        return self

    def keep(self) -> None:
        """Keep the memories for the next run (a build's, or serve's start), unless this run
        added nothing to what it took up."""
        if self._kept == (self.reading.fresh, self.pages.rendered, len(self.claims.topics)):
            return
        self._kept = (self.reading.fresh, self.pages.rendered, len(self.claims.topics))
        signed_cache.save(self.cache_file, {"code": code_fingerprint(), "reading": self.reading,
                                            "claims": self.claims, "pages": self.pages})

    def regenerate(self, first: bool = False) -> Regeneration:
        """Validate the content and write the tree; raises ContentError (nothing written) on bad
        content. With ``first``, of the pages only those of the topics that changed (with all else
        the map gives: its navigation, its index); the others follow with :meth:`regenerate_rest`."""
        content, kmap = load_map(self.project, self.reading, self.claims)
        return self._write(kmap, content.warnings, first=first)

    def regenerate_rest(self, stopping: Callable[[], bool] = never) -> Regeneration:
        """The pages the last regeneration left stale, from the same map (those rendered before
        ``stopping`` says so: the others stay stale)."""
        if self._kmap is None or not self.pages.stale:
            return Regeneration(self.out_dir / "mkdocs.yml", set(), [], 0)
        return self._write(self._kmap, [], stopping=stopping)

    def _write(self, kmap: KnowledgeMap, warnings: list[Diagnostic], first: bool = False,
               stopping: Callable[[], bool] = never) -> Regeneration:
        signed_cache.machine_key()  # made before the page cache keys its entries with it (emit/engine/page_cache.py)
        kept = PrerenderedPages(self.out_dir, self.project.base_config)
        pages, rendered = self.pages.render(kmap, self.settings, kept, first, stopping)
        changed = set(kept.docs_written)  # topic pages written as they were rendered
        tree = docs_tree(self.project, kmap, self.settings, self.serving, pages)
        config = write_tree(tree, self.project.base_config, self.out_dir, changed)
        self._kmap = kmap if self.pages.stale else None
        return Regeneration(config, changed, warnings, rendered, len(self.pages.stale))


# Python's cycle collector, tuned for a run that reads a whole map into memory: each of its full
# passes walks every live object, and with the defaults (700, 10, 10) a 2,000-topic generation ran
# 2.5 times as long as a 1,000-topic one; with young generations of this size it grows 1.8 times.
COLLECTOR_THRESHOLDS = (100_000, 50, 1_000)


@contextmanager
def tuned_collector() -> Iterator[None]:
    previous = gc.get_threshold()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


@dataclass(frozen=True)
class Built:
    warnings: list[Diagnostic]
    engine_ran: bool  # False: nothing the engine reads had changed since the last build, so site/ stands


def build(project: Project, before_engine: Callable[[list[Diagnostic], str], None] = lambda *_: None,
          settings: BuildSettings = BuildSettings(), clean: bool = False) -> Built:
    """`layermap build`: the docs tree (reusing the last build's readings, checks and pages where
    their inputs are the same), then the site, unless the engine's inputs are exactly those of the
    site already built. ``before_engine`` sees the warnings and the site URL the engine will build
    with first (and may refuse). ``clean``: none of that reuse; everything is made afresh."""
    with tuned_collector(), work_folder_lock(project.work_dir, say_on_stderr):
        return _build(project, before_engine, settings, clean)


def _build(project: Project, before_engine: Callable[[list[Diagnostic], str], None], settings: BuildSettings,
           clean: bool) -> Built:
    done, site_url = _regenerate_apart(project, settings, clean)
    before_engine(done.warnings, configured_site_url(done.config) if site_url is None else site_url)
    generated, inputs = done.config.parent, engine_inputs(done.config.parent)
    if not clean and build_record.is_current(generated, project.site_dir, inputs):
        return Built(done.warnings, engine_ran=False)
    build_record.forget(generated)
    if clean:
        forget_conversions(done.config)
    build_site(done.config, project.site_dir)
    build_record.remember(generated, project.site_dir, inputs)
    return Built(done.warnings, engine_ran=True)


def _regenerate(project: Project, settings: BuildSettings, clean: bool) -> Regeneration:
    regenerator = Regenerator(project, settings, serving=False)
    if not clean:
        regenerator.restore()
    done = regenerator.regenerate()
    # Its memories are kept on disk, for the next build. (Returning the freed heap first lowered
    # nothing: pickling a 1,000-topic map peaked at 220 MiB either way, below the rendering's 230.)
    regenerator.keep()
    return done


def _regenerate_apart(project: Project, settings: BuildSettings, clean: bool) -> tuple[Regeneration, str | None]:
    """The docs tree, written by a process forked for it: the map, its checks and its pages never
    take up the engine's process, nor the processes the engine forks from it. Meanwhile this
    process reads the site URL from the project's config, and so imports the engine
    (:func:`site_url_ahead`; None when it could not). Where there is no fork, here, and every
    memory that holds the map is emptied before the engine starts."""
    context = fork_context()
    if context is None:
        done, site_url = _regenerate(project, settings, clean), None
    else:
        with ProcessPoolExecutor(1, mp_context=context) as apart:
            regenerating = apart.submit(_regenerate, project, settings, clean)
            site_url = site_url_ahead(project.base_config, project.content_dir)
            done = regenerating.result()
    forget_everything()  # and whatever this process remembers of a map (none, when run from the command line)
    return done, site_url


def serve(project: Project, address: str, say: Callable[[str], None] = say_on_stderr) -> None:
    """Build the docs tree and the site, serve it, and keep both in step with content/ until Ctrl+C."""
    with tuned_collector():
        _serve(project, address, say)


def _serve(project: Project, address: str, say: Callable[[str], None]) -> None:
    with ExitStack() as serving:
        with work_folder_lock(project.work_dir, say):  # the first site built; let go while serving
            regenerator = Regenerator(project).restore()
            first = regenerator.regenerate()
            regenerator.keep()
            live, server = serving.enter_context(served_site(first.config, address))
        for warning in first.warnings:
            say(warning.format())
        _serve_edits(project, regenerator, live, server, address, say)


def _serve_edits(project: Project, regenerator: Regenerator, live: LiveSite, server: Any, address: str,
                 say: Callable[[str], None]) -> None:
    """Keep the served site in step with content/ (each edit's work under the folder's lock) until
    Ctrl+C: the pages under edit first, then the rest (:func:`the_rest`)."""
    docs = project.work_dir / "docs"

    def regenerate() -> list[Diagnostic]:
        with work_folder_lock(project.work_dir, say):
            done = regenerator.regenerate(first=True)
            live.update(done.changed, postpone=True)
        server.site_changed()
        return done.warnings

    def show_failure(error: Exception) -> None:
        write_failure(docs, error)
        write_failure(live.site_dir, error)  # the served copy too, without the engine (which may be what failed)
        server.site_changed()

    def rest(stopping: Callable[[], bool]) -> None:
        written = the_rest(regenerator, live, stopping, lambda: work_folder_lock(project.work_dir, say))
        if written:
            server.site_changed()
            say(f"layermap: {written} more pages brought up to date")

    with ContentWatcher(project.content_dir, regenerate, say, show_failure, rest):  # stopped when serving ends
        say(f"serving http://{address}/ — edit content/*.yaml and the page reloads (Ctrl+C stops)")
        serve_forever(server)


def the_rest(regenerator: Regenerator, live: LiveSite, stopping: Callable[[], bool],
             locked: Callable[[], AbstractContextManager]) -> int:
    """After an edit's first step (``locked``): the pages it left, then the served pages the new
    navigation left stale, until done or ``stopping``; say how many served pages were written."""
    written = live.pages_written
    while not stopping():
        with locked():
            done = regenerator.regenerate_rest(stopping)
            live.update(done.changed, postpone=done.pending > 0, stopping=stopping)
        if not done.pending and live.current:
            break
    return live.pages_written - written
