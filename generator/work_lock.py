"""One layermap at a time writes a project's work folder (``.layermap/``).

A build and a serve of one project share the docs tree, the page cache and the prerendered
packs; each removes what its own run no longer points at, so two at once could delete each
other's packs mid-build. `layermap build` holds the folder's lock for its whole run, `layermap
serve` while it builds its site and while it brings it in step after an edit: the other waits,
and says so. An advisory lock (``flock``) is let go when its process ends, however it ends;
where there is none (Windows), nothing waits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "writing.lock"


@contextmanager
def work_folder_lock(folder: Path, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold ``folder``'s lock meanwhile; if another process holds it, say so once and wait."""
    if fcntl is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / LOCK_FILE).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if say is not None:
                say(f"waiting: another layermap (a build or a serve) is writing {folder.name}/ of this project")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
