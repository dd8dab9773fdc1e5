"""The downloadable copy's pages, spooled as they are finished, and its zip.

Each process that finishes pages appends them to a spool file of its own in the copy's folder (a
file per page would cost a file and a folder, made during the build and deleted once zipped); the
zip takes the spooled pages, then the copy's other files once they are ready, into one folder
(:data:`generator.emit.portable.COPY_FOLDER`).
"""

from __future__ import annotations

import os
import threading
import time
import zipfile
from pathlib import Path

from generator.emit.portable import COPY_FOLDER

SPOOL_PREFIX = ".pages-"  # in the copy folder: one spool file per process that writes pages
# zlib's level for the zip. The pages of a 1,000-topic site (56 MB) compress to 13.2 MB in 0.97 s at
# zlib's default (6) and to 13.6 MB in 0.55 s at 4: the zip is the last step of a build, and a
# reader who downloads the copy gets 3 % more.
ZIP_LEVEL = 4


def spool_page(copy: Path, name: str, text: str) -> None:
    """Put a page into the copy, appended to this process's spool file. A file of its own would
    cost a file and a folder, made during the build and deleted once zipped (about 2,000 at 1,000
    topics, each slower to make the more were deleted lately)."""
    data = text.encode("utf-8")
    with (copy / f"{SPOOL_PREFIX}{os.getpid()}").open("ab") as spool:
        spool.write(f"{name}\n{len(data)}\n".encode() + data)


def spooled_pages(copy: Path) -> dict[str, tuple[Path, int, int]]:
    """Each spooled page's name, with its spool file, where its text starts and its length."""
    found = {}
    for spool_path in sorted(copy.glob(f"{SPOOL_PREFIX}*")):
        with spool_path.open("rb") as spool:
            while name := spool.readline().decode("utf-8").rstrip("\n"):
                length = int(spool.readline())
                found[name] = (spool_path, spool.tell(), length)
                spool.seek(length, os.SEEK_CUR)
    return found


def zip_folder(folder: Path, zip_path: Path, top: str = COPY_FOLDER, ready: threading.Event | None = None) -> int:
    """Zip ``folder`` as ``top/…``: its spooled pages as files first, then, once ``ready`` is set
    (the copy's other files are in), its files; each part sorted as paths, so the same copy gives
    the same listing. Return the zip's size in bytes."""
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    pages = spooled_pages(folder)
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=ZIP_LEVEL) as archive:
        for name in sorted(pages, key=_as_path):
            _zip_spooled(archive, f"{top}/{name}", *pages[name])
        if ready is not None:
            ready.wait()
        files = {path.relative_to(folder).as_posix(): path for path in folder.rglob("*")
                 if path.is_file() and not path.name.startswith(SPOOL_PREFIX)}
        for name in sorted(files, key=_as_path):
            archive.write(files[name], f"{top}/{name}")
    return zip_path.stat().st_size


def _as_path(name: str) -> list[str]:
    return name.split("/")


def _zip_spooled(archive: zipfile.ZipFile, name: str, spool_path: Path, start: int, length: int) -> None:
    """A spooled page, zipped as a file of its own would be (its spool's time and mode)."""
    with spool_path.open("rb") as spool:
        spool.seek(start)
        data = spool.read(length)
    made = spool_path.stat()
    info = zipfile.ZipInfo(name, date_time=time.localtime(made.st_mtime)[:6])
    info.external_attr = (made.st_mode & 0xFFFF) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data, compresslevel=ZIP_LEVEL)
