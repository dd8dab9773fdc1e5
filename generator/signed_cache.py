"""Python objects kept on disk between runs, signed so that only this machine's own runs are read back.

A pickle can run code when it is loaded, and the work folder sits inside a project that may come
from a pull request: a cache file someone committed there must never be loaded. Each file is signed
with HMAC-SHA256 under a random key kept outside the project (``~/.cache/layermap/cache-key``,
readable by its owner only); a file whose signature does not check out, from another machine or
altered, is ignored like a missing one.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
from pathlib import Path
from typing import BinaryIO

from generator.memo import collector_paused

KEY_FILE = "cache-key"
SIGNATURE_BYTES = 32
CHUNK_BYTES = 1 << 20


def key_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "layermap"


def _stored_key(path: Path) -> bytes | None:
    try:
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) >= SIGNATURE_BYTES else None


def machine_key() -> bytes:
    """This machine's signing key, made on first use. Made whole and put in place only if none is
    there yet (a hard link fails on an existing file): two processes starting at once both end up
    with the one that got there first, never each with its own."""
    path = key_folder() / KEY_FILE
    key = _stored_key(path)
    if key is not None:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    made = path.with_name(f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(secrets.token_bytes(SIGNATURE_BYTES))
    try:
        os.link(made, path)
    except FileExistsError:
        pass  # another process made it first: theirs is the key
    except OSError:
        made.replace(path)  # a file system without hard links
    finally:
        made.unlink(missing_ok=True)
    key = _stored_key(path)
    if key is None:
        raise OSError(f"{path}: the cache key could not be read back")
    return key


class _SigningWriter:
    """A file that signs what is written through it (the pickle is streamed, never held whole)."""

    def __init__(self, file: BinaryIO, key: bytes) -> None:
        self.file, self.mac = file, hmac.new(key, digestmod=hashlib.sha256)

    def write(self, data: bytes) -> int:
        self.mac.update(data)
        return self.file.write(data)


def save(path: Path, value: object) -> None:
    """Write ``value`` signed, replacing the file whole (a reader never sees half of it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # Pickling makes a tuple or a dict for each object it takes apart, and unpickling makes the
    # objects: the collector walking them meanwhile was a quarter of keeping a 2,000-topic build's memories.
    with partial.open("wb") as file, collector_paused():
        file.write(bytes(SIGNATURE_BYTES))  # the signature's place, filled in below
        writer = _SigningWriter(file, machine_key())
        pickle.dump(value, writer, protocol=pickle.HIGHEST_PROTOCOL)
        file.seek(0)
        file.write(writer.mac.digest())
    partial.replace(path)


def _signed(file: BinaryIO, key: bytes) -> bool:
    signature = file.read(SIGNATURE_BYTES)
    mac = hmac.new(key, digestmod=hashlib.sha256)
    while chunk := file.read(CHUNK_BYTES):
        mac.update(chunk)
    return len(signature) == SIGNATURE_BYTES and hmac.compare_digest(signature, mac.digest())


def load(path: Path) -> object | None:
    """The value saved at ``path``, or None when there is none or it is not this machine's, unaltered."""
    try:
        with path.open("rb") as file:
            if not _signed(file, machine_key()):
                return None
            file.seek(SIGNATURE_BYTES)
            try:
                with collector_paused():
                    return pickle.load(file)  # noqa: S301 - signed by this machine's key, checked above
            except Exception:  # noqa: BLE001 - an unreadable cache (older code, truncated) is no cache
                return None
    except OSError:
        return None
