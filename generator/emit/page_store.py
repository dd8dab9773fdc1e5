"""Where the page cache keeps what it keeps (``page_cache.py``): entries on disk and the
generator's packs of prerendered pages.

A page's entry is two lines: what the build reads of the page while it reads every page (its
facts), then its content, read only when the page is written, so the engine's process never holds
every page's content at once. Entries are written whole (a temporary file, then renamed), each use
refreshes an entry's time, and the build that owns the cache removes what it did not use. The
generator keeps many prerendered pages to a file (packs), found through one index: on a file system
that has just deleted a build's worth of files, making a file costs far more than writing one.

Copied beside the cache hook into the generated tree: only the standard library is imported
(and the sibling that makes the keys).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

if __name__.startswith("generator."):  # generator.emit.page_store
    from generator.emit.page_keys import prerendered_file_header, prerendered_header, text_digest
else:  # in the generated tree's hooks/, beside a copy of its sibling
    from layermap_page_keys import prerendered_file_header, prerendered_header, text_digest

CACHE_FOLDER = "cache"
PRERENDERED = "prerendered"  # beside the config, written by the generator (generator/emit/engine/prerendered.py)
PAGES, SEARCH = "pages", "search"


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
    write_text(path, json.dumps(entry, ensure_ascii=False, separators=(",", ":"), default=str))  # one call, one write


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


def write_text(path: Path, text: str) -> None:
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
