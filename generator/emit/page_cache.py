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
holds, for each such page, what converting it gives (``generator/emit/prerendered.py``), with the
digest of the Markdown it was made from and a stamp of the settings and hooks it assumed
(:func:`prerender_stamp`). It is used when both match this build's (and not copied into the
cache: the generator keeps it); otherwise the engine converts the page. The generator keeps many
pages to a file (packs, one per share of its work), found through one index
(:func:`prerendered_places`): on a file system that has just deleted a build's worth of files,
making a file costs far more than writing one.

The stored entry is the page as this build would make it, so a build from the cache is the same,
byte for byte, as one without it. Each use refreshes an entry's time; the build that owns the
cache removes the entries it did not use (:func:`remove_unused`). Only the standard library and
MkDocs are imported: the generated tree stays buildable alone.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import tempfile
from functools import cache
from importlib import metadata
from pathlib import Path

CACHE_FOLDER = "cache"
PRERENDERED = "prerendered"  # beside the config, written by the generator (generator/emit/prerendered.py)
PRERENDER_FORMAT = 3
PAGES, SEARCH = "pages", "search"
FORMAT = 3  # the entries' layout and keys: a change here invalidates every entry
PACKAGES = ("markdown", "pymdown-extensions", "pygments", "mkdocs", "mkdocs-material", "nh3")
# The events whose handlers can change what a page converts to, or what the theme's search reads.
PAGE_EVENTS = ("pre_page", "page_read_source", "page_markdown", "page_content")
MIN_KEY_BYTES, MAX_KEY_BYTES = 32, 64  # blake2b takes a key of up to 64 bytes


def _stable(value: object) -> object:
    """JSON for what the digests read that JSON lacks: sets sorted, functions by name."""
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
    return str(value)


@cache
def machine_key() -> bytes:
    """This machine's cache key (made by the generator: ``generator/signed_cache.py``), or a key of
    this process alone when there is none. Every digest that names a stored entry is keyed with it,
    so an entry this machine's builds did not write (a cache committed to the project, an index
    of prerendered pages) is never found: no path reaches a page without the sanitiser."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    try:
        key = (Path(base) / "layermap" / "cache-key").read_bytes()
    except OSError:
        key = b""
    return key[:MAX_KEY_BYTES] if len(key) >= MIN_KEY_BYTES else secrets.token_bytes(MIN_KEY_BYTES)


def digest(*parts: object) -> str:
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=_stable)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=20, key=machine_key()).hexdigest()


@cache
def package_versions() -> tuple[str, ...]:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} absent")
    return tuple(found)


def file_digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=20).hexdigest()


def _source_digest(handler: object) -> str:
    code = getattr(getattr(handler, "__func__", handler), "__code__", None)
    if code is None:
        return _stable(handler)  # type: ignore[return-value]
    return file_digest(Path(code.co_filename))


def conversion_digest(config) -> str:  # noqa: ANN001 - the engine's config
    """What every page's conversion reads from the build's settings and code."""
    handlers = [(event, _source_digest(handler)) for event in PAGE_EVENTS
                for handler in config.plugins.events.get(event, [])]
    return digest(FORMAT, package_versions(), config["markdown_extensions"], config["mdx_configs"],
                  config.use_directory_urls, dict(config.validation.links), handlers)


def page_handlers(config) -> list[list[str]]:  # noqa: ANN001 - the engine's config
    """Each handler of the events that can change a page's conversion: its event, module and source."""
    return [[event, getattr(handler, "__module__", ""), _source_digest(handler)] for event in PAGE_EVENTS
            for handler in config.plugins.events.get(event, [])]


def prerender_stamp(extensions: list, configs: dict, use_directory_urls: bool, handlers: list[list[str]]) -> str:
    """What a page converted outside the engine assumed of the build: the Markdown extensions and
    their settings, the URL style, and the hooks that handle a page while it converts."""
    return digest(PRERENDER_FORMAT, package_versions(), extensions, configs, use_directory_urls, handlers)


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=20).hexdigest()


def prerendered_header(stamp: str, markdown_digest: str) -> dict:
    """What a prerendered page's file must start with to stand for the Markdown whose
    :func:`text_digest` is ``markdown_digest`` in this build."""
    return {"stamp": stamp, "markdown": markdown_digest}


def prerendered_file_header(stamp: str, source: str) -> dict:
    """The same, from the docs file's whole text (front matter included): a look that need not
    read the front matter first (``page_workers.missing_pages``)."""
    return {"stamp": stamp, "file": text_digest(source)}


PRERENDERED_INDEX = "index.json"  # in the prerendered folder: {"pages": {src_uri: [pack file name, offset]}}
PACK_SUFFIX = ".pack"


def prerendered_places(folder: Path) -> dict[str, tuple[Path, int]]:
    """Where each prerendered page is: its pack file, and the offset of its record there
    ({} when there is no index, or one that cannot be read: every page is then converted)."""
    try:
        pages = json.loads((folder / PRERENDERED_INDEX).read_bytes())["pages"]
        return {src_uri: (folder / pack, offset) for src_uri, (pack, offset) in pages.items()
                if isinstance(pack, str) and "/" not in pack and pack.endswith(PACK_SUFFIX) and isinstance(offset, int)}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def prerendered_record(stamp: str, source: str, markdown: str, entry: dict) -> bytes:
    """A prerendered page's record in its pack: its header line (what it was made from, the docs
    file's text and its Markdown, and for which build), then the entry (:func:`page_entry_text`)
    on two lines, then a line break."""
    header = prerendered_header(stamp, text_digest(markdown)) | prerendered_file_header(stamp, source)
    return (json.dumps(header) + "\n" + page_entry_text(entry) + "\n").encode("utf-8")


def files_digest(files) -> str:  # noqa: ANN001 - the engine's Files
    """The files links are resolved against: each one's source path and URL."""
    return digest(sorted((file.src_uri, file.url) for file in files))


def page_key(build_digest: str, page, markdown_digest: str) -> str:  # noqa: ANN001 - the engine's Page
    """The page's entry, by the build, the Markdown's :func:`text_digest` (hashed as it is, not
    written out as JSON first) and the page's place."""
    file = page.file
    return digest(build_digest, markdown_digest, file.src_uri, file.url, file.inclusion.is_excluded())


# --- the store ----------------------------------------------------------------------------------


def cache_folder(config) -> Path:  # noqa: ANN001
    return Path(config.config_file_path).parent / CACHE_FOLDER


def read_entry(path: Path) -> object | None:
    """The stored entry (its time refreshed: it is in use), or None."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        os.utime(path)
    except (OSError, ValueError):
        return None
    return entry


def write_entry(path: Path, entry: object) -> None:
    """Written whole (a temporary file, then renamed): builds in parallel never read half an entry.
    A cache that cannot be written (a read-only folder, a full disk) only makes the next build slower."""
    _write_text(path, json.dumps(entry, ensure_ascii=False, separators=(",", ":"), default=str))  # one call, one write


def page_entry_text(entry: dict) -> str:
    """A page's entry as stored: one line of what the build reads of the page while it reads every
    page (:func:`read_page_facts`), then one of its content, read only when the page is written
    (:func:`read_page_content`): the engine's process never holds every page's content at once."""
    facts = {key: value for key, value in entry.items() if key != "content"}
    return (json.dumps(facts, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
            + json.dumps(entry["content"], ensure_ascii=False))


def read_page_facts(path: Path, header: dict | None = None, offset: int = 0) -> dict | None:
    """The first line of a page's entry (at ``offset`` in the file), its time refreshed, or None;
    with ``header``, only if the entry starts with a line that holds it (a prerendered page's,
    :func:`prerendered_header`)."""
    try:
        with path.open("rb") as stored:
            stored.seek(offset)
            if header is not None and not _holds_header(json.loads(stored.readline()), header):
                return None
            facts = json.loads(stored.readline())
        os.utime(path)
    except (OSError, ValueError):
        return None
    return facts if isinstance(facts, dict) else None


def _holds_header(line: object, header: dict) -> bool:
    return isinstance(line, dict) and all(line.get(key) == value for key, value in header.items())


def read_page_content(path: Path, offset: int = 0, skip: int = 0) -> str | None:
    """The content line of the entry at ``offset``, after its facts line and ``skip`` lines before them."""
    try:
        with path.open("rb") as stored:
            stored.seek(offset)
            for _ in range(skip + 1):
                stored.readline()
            content = json.loads(stored.readline())
    except (OSError, ValueError):
        return None
    return content if isinstance(content, str) else None


def _write_text(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError:
        return


def remove_unused(folder: Path, used_since: float) -> int:
    """Remove the entries no build has used since ``used_since`` (a time.time()); return how many."""
    removed = 0
    for path in [*folder.glob("*/*.json"), *folder.glob("*/*.tmp")]:  # .tmp: a write cut short
        if path.stat().st_mtime < used_since:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


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
        self.folder = Path(CACHE_FOLDER)
        self.prerendered_folder = Path(PRERENDERED)
        self.prerendered: dict[str, tuple[Path, int]] = {}  # where the generator's conversions are (prerendered_places)
        self.stamp = ""
        self.digest = ""
        self.pending: dict[str, tuple[str, dict | None, tuple[Path, int, int]]] = {}
        self.unread: dict[str, tuple[Path, int, int]] = {}  # pages whose content is read when they are written
        self.messages: Messages | None = None

    def start(self, config) -> None:  # noqa: ANN001 - the engine's config
        self.stop_listening()  # a page whose conversion failed in an earlier build
        self.folder, self.digest, self.pending, self.unread = cache_folder(config), "", {}, {}
        self.prerendered_folder = Path(config.config_file_path).parent / PRERENDERED
        self.prerendered = prerendered_places(self.prerendered_folder)
        self.stamp = prerender_stamp_of(config)

    def prerendered_entry(self, src_uri: str, header: dict) -> tuple[dict | None, tuple[Path, int, int] | None]:
        """The generator's conversion of the page, if made from this Markdown for this build, and
        where it is. A page read again (`layermap serve` updating it after an edit) may have been
        converted again since the index was read: then the index is read again."""
        found = self._prerendered_at(src_uri, header)
        if found[0] is None and src_uri in self.prerendered:
            self.prerendered = prerendered_places(self.prerendered_folder)
            found = self._prerendered_at(src_uri, header)
        return found

    def _prerendered_at(self, src_uri: str, header: dict) -> tuple[dict | None, tuple[Path, int, int] | None]:
        place = self.prerendered.get(src_uri)
        entry = read_page_facts(place[0], header, place[1]) if place is not None else None
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
    reader = [_source_digest(add), _source_digest(index.create_entry_for_section)]

    def add_entry_from_context(page) -> None:  # noqa: ANN001
        key = digest(FORMAT, package_versions(), index.config, reader, page.url, page.title, text_digest(page.content),
                     _toc_tokens(page.toc), page.meta)
        path = folder / SEARCH / f"{key}.json"
        entries = read_entry(path)
        if isinstance(entries, list):
            index.entries.extend(entries)
            return
        start = len(index.entries)
        add(page)
        write_entry(path, index.entries[start:])

    index.add_entry_from_context = add_entry_from_context


# --- the engine's events ------------------------------------------------------------------------------


def on_config(config, **_: object):  # noqa: ANN001, ANN201
    _build.start(config)
    index = search_index_of(config)
    if index is not None:
        cache_search_entries(index, _build.folder)
    return config


def on_files(files, config, **_: object):  # noqa: ANN001, ANN201
    _build.digest = digest(conversion_digest(config), files_digest(files))
    return files


def on_page_markdown(markdown: str, page, **_: object) -> str:  # noqa: ANN001
    # A page read again (`layermap serve` updating it) starts afresh: where its content was last
    # time is stale (and still noted here when another process wrote the page then).
    _build.unread.pop(page.file.src_uri, None)
    markdown_digest = text_digest(markdown)  # once, for both looks
    key = page_key(_build.digest, page, markdown_digest)
    where = (_build.folder / PAGES / f"{key}.json", 0, 0)  # the file, the entry's offset, lines before its facts
    entry = read_page_facts(where[0])
    if entry is None:  # the generator's conversion, when made from this Markdown for this build
        entry, prerendered = _build.prerendered_entry(page.file.src_uri, prerendered_header(_build.stamp, markdown_digest))
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
    return prerender_stamp(config["markdown_extensions"], config["mdx_configs"], config.use_directory_urls,
                           page_handlers(config))


def on_page_content(html: str, page, files, **_: object) -> str:  # noqa: ANN001
    key, entry, where = _build.pending.pop(page.file.src_uri)
    if entry is None:
        stored = stored_page(page, html, _build.stop_listening())
        _write_text(_build.folder / PAGES / f"{key}.json", page_entry_text(stored))
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
        content = read_page_content(*where)
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
