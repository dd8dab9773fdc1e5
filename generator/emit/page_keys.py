"""What a page's conversion reads, as digests: the keys of the page cache (``page_cache.py``).

A stored conversion is found by a digest of everything converting the page reads (:func:`page_key`):
its Markdown, its source path and URL, whether it is itself excluded, the Markdown extensions and
their settings, ``use_directory_urls``, the link-validation settings, the path and URL of every file
of the build (links are resolved against them), the source of every hook or plugin that handles a
page before the theme does (the sanitiser, the cache itself) and the versions of the packages that
convert. A page the generator converted ahead carries a stamp of the settings and hooks it assumed
(:func:`prerender_stamp`). Every digest is keyed with this machine's key (:func:`machine_key`), so
an entry this machine's builds did not write is never found.

Copied beside the cache hook into the generated tree: only the standard library is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

PRERENDER_FORMAT = 3
FORMAT = 3  # the entries' layout and keys: a change here invalidates every entry
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


# What else turns Markdown into pages; the engine itself is whichever one is building (engine_package).
CONVERTERS = ("markdown", "pymdown-extensions", "pygments", "mkdocs-material", "nh3")


def engine_package() -> str:
    """The engine building now: ProperDocs once its replacement answers MkDocs' imports, else MkDocs.
    (Read from what is loaded: this module runs beside the hooks, without layermap's package.)"""
    return "properdocs" if "properdocs.replacement" in sys.modules else "mkdocs"


@cache
def package_versions() -> tuple[str, ...]:
    found = []
    for name in (engine_package(), *CONVERTERS):
        try:
            found.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} absent")
    return tuple(found)


def file_digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=20).hexdigest()


def source_digest(handler: object) -> str:
    code = getattr(getattr(handler, "__func__", handler), "__code__", None)
    if code is None:
        return _stable(handler)  # type: ignore[return-value]
    return file_digest(Path(code.co_filename))


def conversion_digest(config) -> str:  # noqa: ANN001 - the engine's config
    """What every page's conversion reads from the build's settings and code."""
    handlers = [(event, source_digest(handler)) for event in PAGE_EVENTS
                for handler in config.plugins.events.get(event, [])]
    return digest(FORMAT, package_versions(), config["markdown_extensions"], config["mdx_configs"],
                  config.use_directory_urls, dict(config.validation.links), handlers, cache_code())


def page_handlers(config) -> list[list[str]]:  # noqa: ANN001 - the engine's config
    """Each handler of the events that can change a page's conversion: its event, module and source."""
    return [[event, getattr(handler, "__module__", ""), source_digest(handler)] for event in PAGE_EVENTS
            for handler in config.plugins.events.get(event, [])]


def prerender_stamp(extensions: list, configs: dict, use_directory_urls: bool, handlers: list[list[str]]) -> str:
    """What a page converted outside the engine assumed of the build: the Markdown extensions and
    their settings, the URL style, and the hooks that handle a page while it converts."""
    return digest(PRERENDER_FORMAT, package_versions(), extensions, configs, use_directory_urls, handlers, cache_code())


@cache
def cache_code() -> tuple[str, str]:
    """The hook's two siblings, this file and the store's (the hook's own file is among the handlers):
    a change to how entries are keyed or kept is a new cache."""
    here = Path(__file__)
    return file_digest(here), file_digest(here.with_name(here.name.replace("page_keys", "page_store")))


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


def files_digest(files) -> str:  # noqa: ANN001 - the engine's Files
    """The files links are resolved against: each one's source path and URL."""
    return digest(sorted((file.src_uri, file.url) for file in files))


def page_key(build_digest: str, page, markdown_digest: str) -> str:  # noqa: ANN001 - the engine's Page
    """The page's entry, by the build, the Markdown's :func:`text_digest` (hashed as it is, not
    written out as JSON first) and the page's place."""
    file = page.file
    return digest(build_digest, markdown_digest, file.src_uri, file.url, file.inclusion.is_excluded())
