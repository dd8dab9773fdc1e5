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

KEY_FILE = "cache-key"
SIGNATURE_BYTES = 32


def key_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "layermap"


def machine_key() -> bytes:
    """This machine's signing key, made on first use."""
    path = key_folder() / KEY_FILE
    try:
        key = path.read_bytes()
        if len(key) >= SIGNATURE_BYTES:
            return key
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(SIGNATURE_BYTES)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key)
    return key


def save(path: Path, value: object) -> None:
    """Write ``value`` signed, replacing the file whole (a reader never sees half of it)."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    signature = hmac.new(machine_key(), data, hashlib.sha256).digest()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(signature + data)
    partial.replace(path)


def load(path: Path) -> object | None:
    """The value saved at ``path``, or None when there is none or it is not this machine's, unaltered."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    signature, data = blob[:SIGNATURE_BYTES], blob[SIGNATURE_BYTES:]
    if not hmac.compare_digest(signature, hmac.new(machine_key(), data, hashlib.sha256).digest()):
        return None
    try:
        return pickle.loads(data)  # noqa: S301 - signed by this machine's key above
    except Exception:  # noqa: BLE001 - an unreadable cache (older code, truncated) is no cache
        return None
