"""Converted pages and their search entries, kept across engine builds: an engine hook.

Converting a page's Markdown (Python-Markdown and its extensions, then the sanitiser) is most of
an engine build, and ``layermap build`` runs the engine twice on the same pages (the site, then
the downloadable copy). This hook keeps each page's conversion in ``<config folder>/cache/pages``,
keyed by a digest of everything the conversion reads (:func:`page_key`): the page's Markdown,
its source path and URL, whether it is itself excluded, the Markdown extensions and their
settings, ``use_directory_urls``, the link-validation settings, the path and URL of every file of
the build (links are resolved against them), the source of every hook or plugin that handles a
page before the theme does (the sanitiser, this file), and the versions of the packages that
convert. On a hit the page is not converted (:func:`on_page_markdown` stands in for the engine's
``page.render``) and :func:`on_page_content` gives back the stored result, with what
the engine learns while converting (table of contents, title, anchors, links to anchors) and the
messages it logged then (a broken link's warning still fails a strict build).

The theme's search index entries of a page are kept the same way in ``cache/search``, keyed by
what the theme's search reads (the page's URL, title, content, table of contents and metadata).

A page the cache lacks may have been converted by the generator already: ``<config folder>/prerendered``
holds, for each such page, what converting it gives (``generator/emit/engine/prerendered.py``), with the
digest of the Markdown it was made from and a stamp of the settings and hooks it assumed
(:func:`prerender_stamp`). It is used when both match this build's (and not copied into the
cache: the generator keeps it); otherwise the engine converts the page. The generator keeps many
pages to a file (packs, one per share of its work), found through one index
(:func:`prerendered_places`): on a file system that has just deleted a build's worth of files,
making a file costs far more than writing one.

The stored entry is the page as this build would make it, so a build from the cache is the same,
byte for byte, as one without it. Each use refreshes an entry's time; the build that owns the
cache removes the entries it did not use.

Three ideas, one module each: the keys (``page_keys.py``: what a conversion reads, as digests), the
store (``page_store.py``: entries and packs on disk), and this hook (a page's conversion kept and
given back, and the engine's events). Only the standard library and MkDocs are imported: the two
siblings are copied beside this hook, so the generated tree stays buildable alone.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

if __name__.startswith("generator."):  # generator.emit.engine.page_cache
    from generator.emit import page_keys as keys
    from generator.emit import page_store as store
else:  # an engine hook in the generated tree's hooks/, beside copies of its siblings: those, each time
    for _sibling in ("layermap_page_keys", "layermap_page_store"):  # the engine loads its hooks again
        sys.modules.pop(_sibling, None)
    import layermap_page_keys as keys
    import layermap_page_store as store


# --- one page's conversion -----------------------------------------------------------------------


class Messages(logging.Handler):
    """What the engine logs while it converts a page, kept to be said again (:func:`say_again`)
    on a hit; also what a forked process logs while it writes pages (``page_writers.py``)."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[list] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append([record.name, record.levelno, record.getMessage()])


def _toc_tokens(items) -> list[dict]:  # noqa: ANN001 - the engine's table of contents
    return [{"level": item.level, "id": item.id, "name": item.title, "children": _toc_tokens(item.children)}
            for item in items]


def stored_page(page, content: str, messages: list[list]) -> dict:  # noqa: ANN001
    """What the engine made of a page: its content and what the build reads of it later."""
    links = page.links_to_anchors
    return {
        "content": content,
        "toc": _toc_tokens(page.toc),
        "title": page._title_from_render,
        "anchors": sorted(page.present_anchor_ids or ()),
        "links": None if links is None else [[file.src_uri, anchors] for file, anchors in links.items()],
        "messages": messages,
    }


def restore_page(page, entry: dict, files) -> None:  # noqa: ANN001
    """Give the page what converting it would have given it, and say what the engine said then."""
    from mkdocs.structure.toc import get_toc

    page.toc = get_toc(entry["toc"])
    page._title_from_render = entry["title"]
    page.present_anchor_ids = set(entry["anchors"])
    links = entry["links"]
    page.links_to_anchors = None if links is None else {files.get_file_from_path(uri): anchors for uri, anchors in links}
    say_again(entry["messages"])


def say_again(records: list) -> None:
    """Log again what a :class:`Messages` kept, each message by the logger that said it."""
    for name, level, message in records:
        logging.getLogger(name).log(level, message)


class _Build:
    """This build's digests and the pages between their Markdown and their content."""

    def __init__(self) -> None:
        self.folder = Path(store.CACHE_FOLDER)
        self.prerendered_folder = Path(store.PRERENDERED)
        self.prerendered: dict[str, tuple[Path, int]] = {}  # where the generator's conversions are (prerendered_places)
        self.stamp = ""
        self.digest = ""
        self.pending: dict[str, tuple[str, dict | None, tuple[Path, int, int]]] = {}
        self.unread: dict[str, tuple[Path, int, int]] = {}  # pages whose content is read when they are written
        self.messages: Messages | None = None

    def start(self, config) -> None:  # noqa: ANN001 - the engine's config
        self.stop_listening()  # a page whose conversion failed in an earlier build
        self.folder, self.digest, self.pending, self.unread = store.cache_folder(config), "", {}, {}
        self.prerendered_folder = Path(config.config_file_path).parent / store.PRERENDERED
        self.prerendered = store.prerendered_places(self.prerendered_folder)
        self.stamp = prerender_stamp_of(config)

    def prerendered_entry(self, src_uri: str, header: dict) -> tuple[dict | None, tuple[Path, int, int] | None]:
        """The generator's conversion of the page, if made from this Markdown for this build, and
        where it is. A page read again (`layermap serve` updating it after an edit) may have been
        converted again since the index was read: then the index is read again."""
        found = self._prerendered_at(src_uri, header)
        if found[0] is None and src_uri in self.prerendered:
            self.prerendered = store.prerendered_places(self.prerendered_folder)
            found = self._prerendered_at(src_uri, header)
        return found

    def _prerendered_at(self, src_uri: str, header: dict) -> tuple[dict | None, tuple[Path, int, int] | None]:
        place = self.prerendered.get(src_uri)
        entry = store.read_page_facts(place[0], header, place[1]) if place is not None else None
        return (entry, (*place, 1)) if entry is not None else (None, None)

    def listen(self) -> None:
        self.stop_listening()
        self.messages = Messages()
        logging.getLogger("mkdocs").addHandler(self.messages)

    def stop_listening(self) -> list[list]:
        messages, self.messages = self.messages, None
        if messages is None:
            return []
        logging.getLogger("mkdocs").removeHandler(messages)
        return messages.records


_build = _Build()


# --- the theme's search entries -------------------------------------------------------------------


def search_index_of(config):  # noqa: ANN001, ANN201
    """The theme's search index (Material's ``SearchIndex``), or None without the search plugin."""
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if callable(getattr(index, "add_entry_from_context", None)) and isinstance(getattr(index, "entries", None), list):
            return index
    return None


def cache_search_entries(index, folder: Path) -> None:  # noqa: ANN001
    """The index reads each page's content once: its entries are stored and reused, keyed by what
    the index reads and by the code that reads a page and makes its entries (``search_sections.py``
    and ``search_terms.py`` where they stand in for the theme's)."""
    add = index.add_entry_from_context
    reader = [keys.source_digest(add), keys.source_digest(index.create_entry_for_section)]

    def add_entry_from_context(page) -> None:  # noqa: ANN001
        key = keys.digest(keys.FORMAT, keys.package_versions(), index.config, reader, page.url, page.title,
                          keys.text_digest(page.content),
                     _toc_tokens(page.toc), page.meta)
        path = folder / store.SEARCH / f"{key}.json"
        entries = store.read_entry(path)
        if isinstance(entries, list):
            index.entries.extend(entries)
            return
        start = len(index.entries)
        add(page)
        store.write_entry(path, index.entries[start:])

    index.add_entry_from_context = add_entry_from_context


# --- the engine's events ------------------------------------------------------------------------------


def on_config(config, **_: object):  # noqa: ANN001, ANN201
    _build.start(config)
    index = search_index_of(config)
    if index is not None:
        cache_search_entries(index, _build.folder)
    return config


def on_files(files, config, **_: object):  # noqa: ANN001, ANN201
    _build.digest = keys.digest(keys.conversion_digest(config), keys.files_digest(files))
    return files


def on_page_markdown(markdown: str, page, **_: object) -> str:  # noqa: ANN001
    # A page read again (`layermap serve` updating it) starts afresh: where its content was last
    # time is stale (and still noted here when another process wrote the page then).
    _build.unread.pop(page.file.src_uri, None)
    markdown_digest = keys.text_digest(markdown)  # once, for both looks
    key = keys.page_key(_build.digest, page, markdown_digest)
    where = (_build.folder / store.PAGES / f"{key}.json", 0, 0)  # the file, the entry's offset, lines before its facts
    entry = store.read_page_facts(where[0])
    if entry is None:  # the generator's conversion, when made from this Markdown for this build
        entry, prerendered = _build.prerendered_entry(page.file.src_uri, keys.prerendered_header(_build.stamp, markdown_digest))
        where = prerendered if entry is not None else where
    _build.pending[page.file.src_uri] = (key, entry, where)
    if entry is None:
        _build.listen()
    else:
        page.render = _skip_render(page)  # nothing to convert: on_page_content gives the stored content
    return markdown


def _skip_render(page):  # noqa: ANN001, ANN202
    """The engine's ``page.render`` for a page found in the cache: no conversion, empty content
    for the handlers between (the sanitiser); :func:`on_page_content` puts the page back."""
    def render(config, files) -> None:  # noqa: ANN001, ARG001 - the engine's signature
        page.content = ""
    return render


def prerender_stamp_of(config) -> str:  # noqa: ANN001 - the engine's config
    return keys.prerender_stamp(config["markdown_extensions"], config["mdx_configs"], config.use_directory_urls,
                                keys.page_handlers(config))


def on_page_content(html: str, page, files, **_: object) -> str:  # noqa: ANN001
    key, entry, where = _build.pending.pop(page.file.src_uri)
    if entry is None:
        stored = stored_page(page, html, _build.stop_listening())
        store.write_text(_build.folder / store.PAGES / f"{key}.json", store.page_entry_text(stored))
        return html
    del page.render  # the engine's own again
    restore_page(page, entry, files)
    _build.unread[page.file.src_uri] = where
    return ""  # read when the page is written (on_page_context)


def on_page_context(context, page, **_: object):  # noqa: ANN001, ANN201
    """The content of a page the cache gave back, read just before the page is written (and
    before the theme's search reads it): each page's content is in memory only while it is written."""
    where = _build.unread.pop(page.file.src_uri, None)
    if where is not None:
        content = store.read_page_content(*where)
        if content is None:
            from mkdocs.exceptions import PluginError

            raise PluginError(f"the page cache entry of {page.file.src_uri} ({where[0]}) went missing during the build; build again")
        page.content = content
    return context


# Last of each event: the key reads the Markdown every other handler has changed, and the stored
# content is the one every other handler (the sanitiser) has made. MkDocs' @event_priority(-100)
# sets this, without importing MkDocs here.
for _event in (on_config, on_files, on_page_markdown, on_page_content):
    _event.mkdocs_priority = -100  # type: ignore[attr-defined]
on_page_context.mkdocs_priority = 100  # type: ignore[attr-defined] # first: the theme's search reads the content
