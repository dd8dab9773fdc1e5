"""Topic pages converted by the generator, for the engine to take up instead of converting them.

``render/topic_html.py`` renders a topic page as the engine would convert its Markdown. This module
writes the result where the engine's page-cache hook looks for it (``<work folder>/prerendered/``,
found through its index: ``page_store.prerendered_places``): for each topic page, what converting it gives, the digest
of the Markdown it stands for, and a stamp of what it assumed of the engine (its Markdown extensions
and their settings, as MkDocs reads them from the project's ``mkdocs.yml``; directory URLs; the
hooks that handle a page while it converts). The hook uses an entry only when both match, so a
changed page, setting or hook means the engine converts the page as before.

Rendering the topic pages is shared out over the machine's cores (:func:`render_topic_pages`):
forked processes each render a share, Markdown and HTML, write the HTML into a pack of their own
here and the Markdown into the docs tree, and send the Markdown back with where each page's HTML
is; the index is written once every share is in.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from copy import deepcopy
from pathlib import Path

from generator.emit import page_keys, page_store
from generator.emit.docs_tree import PAGE_CACHE, PAGE_CACHE_HOOK, SANITISER, SANITISER_HOOK, require_base_config, write_page
from generator.emit.files import write_text_atomically
from generator.errors import LayermapError
from generator.processes import fork_context
from generator.render.prose_converter import WRITTEN_HERE, ProseConverter, RenderedPage

FOLDER = page_store.PRERENDERED
MIN_PAGES = 48  # fewer topic pages: one process renders them sooner than a second one starts
PART = 50  # topic pages a forked process renders before it sends their Markdown back

TopicJob = Callable[[ProseConverter | None], tuple[str, RenderedPage | None]]  # a topic page's Markdown, and its HTML


def engine_markdown(base_config: Path) -> tuple[list[str], dict[str, dict]]:
    """The Markdown extensions and their settings as the engine will read them from the project's
    config (MkDocs' own option: its built-in extensions first)."""
    from mkdocs.config.base import ValidationError
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import yaml_load

    require_base_config(base_config)
    try:
        with base_config.open(encoding="utf-8") as text:
            read = yaml_load(text)
        if not isinstance(read, dict):
            raise ConfigurationError("it holds no settings (a YAML mapping of names to values, such as `site_name: …`)")
        option = deepcopy(MkDocsConfig.markdown_extensions)
        return option.run_validation(read.get("markdown_extensions") or []), option.configdata
    except (ConfigurationError, ValidationError) as error:
        raise LayermapError(f"{base_config.name} cannot be read: {error}",
                            f"correct {base_config.name} where the message points; the previous site/ was kept") from None


def engine_stamp(extensions: list[str], configs: dict[str, dict]) -> str:
    """``page_keys.prerender_stamp`` of a build of the generated tree: directory URLs, and the page
    hooks the tree's config lists (the sanitiser, then the page cache, which runs last)."""
    cache, sanitiser = page_keys.file_digest(PAGE_CACHE), page_keys.file_digest(SANITISER)
    handlers = [["page_markdown", PAGE_CACHE_HOOK, cache],
                ["page_content", SANITISER_HOOK, sanitiser], ["page_content", PAGE_CACHE_HOOK, cache]]
    return page_keys.prerender_stamp(extensions, configs, True, handlers)


# The extensions whose work on a page is the sum of their work on each Markdown field (none reads
# the page as a whole: footnotes or abbreviations would); render/topic_html.py does the others' itself.
FIELD_BY_FIELD = frozenset({"tables", "fenced_code", "attr_list", "admonition", "pymdownx.details",
                            "pymdownx.superfences", "pymdownx.highlight"})
WRITTEN_BY_THE_RENDERER = frozenset(WRITTEN_HERE)


def renderer_supports(extensions: list[str], configs: dict[str, dict]) -> bool:
    """Whether the engine's Markdown settings are those ``render/topic_html.py`` renders as the engine
    would: known extensions only, md_in_html among them, and the table of contents with a ¶ permalink
    by each heading and every heading level the renderer writes (1 to 3) in it."""
    toc = configs.get("toc", {})
    depth = toc.get("toc_depth", 6)
    return (set(extensions) <= FIELD_BY_FIELD | WRITTEN_BY_THE_RENDERER and WRITTEN_BY_THE_RENDERER <= set(extensions)
            and set(toc) <= {"permalink", "toc_depth"} and toc.get("permalink") is True
            and isinstance(depth, int) and depth >= 3)


Place = tuple[str, int] | None  # a rendered page's record: its pack's name and offset; None: left to the engine


class PrerenderedPages:
    """The work folder's ``prerendered/``: what the engine would make of each topic page (nothing,
    when the project's Markdown settings are not those the renderer knows: :func:`renderer_supports`).
    The pages are written into packs, a file per share of the rendering (:class:`Pack`), and found
    through the folder's index (``page_store.prerendered_places``), which points at the newest
    record of each page; the folder holds the index and the packs it points at, nothing else."""

    def __init__(self, out_dir: Path, base_config: Path) -> None:
        self.out_dir, self.folder = out_dir, out_dir / FOLDER
        self.docs_written: set[str] = set()  # the topic pages whose docs-tree file the rendering changed
        self.extensions, self.configs = engine_markdown(base_config)
        self.stamp = engine_stamp(self.extensions, self.configs)
        self.supported = renderer_supports(self.extensions, self.configs)

    def converter(self, pages: Iterable[str]) -> ProseConverter | None:
        return ProseConverter(self.extensions, self.configs, pages) if self.supported else None

    def record(self, text: str, rendered: RenderedPage) -> bytes:
        """The page's record: its HTML, and the Markdown it stands for."""
        from mkdocs.utils.meta import get_data

        return page_store.prerendered_record(self.stamp, text, get_data(text)[0], rendered.entry())

    def take_up(self, places: dict[str, Place]) -> None:
        """Point the index at the records just written (a page left to the engine: at nothing)."""
        index = self._index()
        for path, place in places.items():
            if place is None:
                index.pop(path, None)
            else:
                index[path] = place
        self._write_index(index)

    def keep_only(self, paths: Iterable[str]) -> None:
        """Forget what was kept for pages no longer in the map."""
        wanted = set(paths)
        self._write_index({path: place for path, place in self._index().items() if path in wanted})

    def _index(self) -> dict[str, tuple[str, int]]:
        return {path: (pack.name, offset) for path, (pack, offset) in page_store.prerendered_places(self.folder).items()}

    def _write_index(self, index: dict[str, tuple[str, int]]) -> None:
        """Write the index whole, then remove what it does not point at (packs no page is in any more,
        an older layout's files)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomically(self.folder / page_store.PRERENDERED_INDEX,
                              json.dumps({"pages": {path: list(place) for path, place in sorted(index.items())}}))
        used = {pack for pack, _ in index.values()} | {page_store.PRERENDERED_INDEX}
        for entry in self.folder.iterdir():
            if entry.name not in used:
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink(missing_ok=True)


class Pack:
    """One share's pages, one record after another, in a file of their own, made when the first
    page is added (nothing points at it until the index does, so it need not be written in one step)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.name, self.file, self.size = folder, f"{secrets.token_hex(8)}{page_store.PACK_SUFFIX}", None, 0

    def add(self, record: bytes) -> tuple[str, int]:
        if self.file is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.file = (self.folder / self.name).open("xb")
        offset, self.size = self.size, self.size + len(record)
        self.file.write(record)
        return self.name, offset

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


_work: tuple[dict[str, TopicJob], PrerenderedPages, list[str]] | None = None  # a forked process's, from its parent


_converter: ProseConverter | None = None  # each process's, made for its first part


def _render_share(paths: list[str]) -> tuple[dict[str, bytes], set[str], dict[str, Place]]:
    """Render the topic pages ``paths``; return their Markdown, those whose docs-tree file changed,
    and where each one's record is (:class:`Pack`)."""
    global _converter  # noqa: PLW0603 - one per process, for every part it renders
    assert _work is not None
    jobs, kept, pages = _work
    prose = _converter = _converter or kept.converter(pages)
    texts, written, places, pack = {}, set(), {}, Pack(kept.folder)
    try:
        for path in paths:
            text, rendered = jobs[path](prose)
            texts[path] = text.encode("utf-8")
            if write_page(kept.out_dir, path, texts[path]):  # the docs tree's page too: its file made on this core
                written.add(path)
            places[path] = None if rendered is None else pack.add(kept.record(text, rendered))
    finally:
        pack.close()
    return texts, written, places


def render_topic_pages(jobs: dict[str, TopicJob], kept: PrerenderedPages, pages: list[str],
                       workers: int | None = None) -> dict[str, bytes]:
    """Run each topic page's job; keep its HTML in ``kept`` and write its Markdown into the docs tree
    (``kept.docs_written``: the pages whose file changed); return each page's Markdown (UTF-8), in
    the jobs' order. ``pages``: every page of the map (a link in a Markdown field resolves against them)."""
    global _work  # noqa: PLW0603 - what forked processes start with
    workers = workers or os.cpu_count() or 1
    paths, context = list(jobs), fork_context()
    _work = (jobs, kept, pages)
    try:
        if context is None or workers < 2 or len(paths) < MIN_PAGES:
            texts, kept.docs_written, places = _render_share(paths)
            kept.take_up(places)
            return texts
        shares = [paths[start::workers] for start in range(workers)]
        # The other processes' shares go in small parts: each part's Markdown comes back as soon as
        # it is rendered, so a forked process never holds much more than the map it shares.
        parts = [share[start:start + PART] for share in shares[1:] for start in range(0, len(share), PART)]
        with ProcessPoolExecutor(workers - 1, mp_context=context) as pool:
            others = [pool.submit(_render_share, part) for part in parts]
            texts, kept.docs_written, places = _render_share(shares[0])
            for other in others:
                their_texts, their_written, their_places = other.result()
                texts |= their_texts
                kept.docs_written |= their_written
                places |= their_places
        kept.take_up(places)
        return {path: texts[path] for path in paths}
    finally:
        _work = _converter = None
