"""What the last successful build was made from, so that `layermap build` skips the engine when
nothing it reads has changed.

The engine's inputs are the generated folder (the docs tree, its config and hooks: written file by
file only when their text changes, so unchanged files keep their times), the published address
(``LAYERMAP_SITE_URL``), the versions of the engine and its theme, and layermap's own code. The
record also holds a fingerprint of ``site/`` as built, so a site changed or removed by hand is
built again. Fingerprints are of each file's path, size and modification time: a change of any of
them counts as a change.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from generator.emit.engine.choice import engine_packages
from generator.emit.files import write_text_atomically

RECORD = "last-build.json"
SKIPPED_FOLDERS = ("cache", "prerendered")  # the generated folder's caches are not engine inputs (a prerendered page is its Markdown's)
CODE = Path(__file__).resolve().parents[2]  # generator/, calculators/, calcview/ beside each other


def fingerprint(folder: Path, skip: tuple[str, ...] = ()) -> str:
    """A digest of every file below ``folder``: its path, size and modification time."""
    digest = hashlib.sha256()
    if not folder.is_dir():
        return ""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if rel.parts[0] in skip or not path.is_file():
            continue
        stat = path.stat()
        digest.update(f"{rel.as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "-"


@cache  # a run asks up to three times (the kept memories, the build record); the code does not change meanwhile
def code_fingerprint() -> str:
    """layermap's own code (its Python files' contents): a new version of layermap builds again."""
    digest = hashlib.sha256()
    for package in ("generator", "calculators", "calcview"):
        for path in sorted((CODE / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(CODE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def engine_inputs(generated: Path) -> dict[str, str]:
    return {
        "tree": fingerprint(generated, SKIPPED_FOLDERS + (RECORD,)),
        "site_url": os.environ.get("LAYERMAP_SITE_URL", ""),
        "engine": " ".join(f"{name}={_package_version(name)}" for name in (*engine_packages(), "nh3")),
        "code": code_fingerprint(),
    }


def is_current(generated: Path, site: Path, inputs: dict[str, str]) -> bool:
    """Whether ``site`` is what the engine built from exactly these inputs."""
    try:
        record = json.loads((generated / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return record.get("inputs") == inputs and record.get("site") == fingerprint(site)


def remember(generated: Path, site: Path, inputs: dict[str, str]) -> None:
    write_text_atomically(generated / RECORD, json.dumps({"inputs": inputs, "site": fingerprint(site)}, indent=1) + "\n")


def forget(generated: Path) -> None:
    (generated / RECORD).unlink(missing_ok=True)
