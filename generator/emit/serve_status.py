"""Serve only: the outcome of the last regeneration, as JSON the open page reads.

``layermap serve`` puts a small page script (``assets/layermap/serve-status.js``) and its
stylesheet into the docs tree, with ``serve-status.json`` beside them. A good regeneration writes
``{"ok": true}`` as part of the tree; a failed one writes its problems into the tree as it stands,
touching nothing else, and the script shows them over the page until a good one follows.
``layermap build`` carries none of this.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.diagnostics import ContentError, Diagnostic
from generator.emit.files import write_text_atomically
from generator.errors import LayermapError

ASSET_DIR = Path(__file__).parent.parent / "assets"
STATUS_FILE = "assets/layermap/serve-status.json"
SERVE_SCRIPT = "assets/layermap/serve-status.js"
SERVE_STYLES = "assets/layermap/serve-status.css"
# The files only served pages carry: the script, the pure helper it imports, its styles.
SERVE_ONLY_ASSETS = ("serve-status.js", "serve-problems.js", "serve-status.css")
BUG_FIX = ("this is a bug in layermap, not in your content; rerun `layermap build` with LAYERMAP_DEBUG=1 "
           "for the details and report them")


def serve_assets() -> dict[str, Path]:
    """The serve-only files, by their place in the docs tree."""
    return {f"assets/layermap/{name}": ASSET_DIR / name for name in SERVE_ONLY_ASSETS}


def problem(diagnostic: Diagnostic) -> dict[str, str]:
    return {"where": f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}", "severity": diagnostic.severity,
            "field": diagnostic.path, "message": diagnostic.message, "fix": diagnostic.hint}


def problems_of(error: Exception) -> list[dict[str, str]]:
    """What the page shows for a failed regeneration: every content error with its place and fix,
    a LayermapError with its hint, anything else as a bug in layermap (never a traceback)."""
    if isinstance(error, ContentError):
        return [problem(d) for d in error.log.errors]
    if isinstance(error, LayermapError):
        return [{"where": "", "severity": "error", "field": "", "message": error.message, "fix": error.hint}]
    return [{"where": "", "severity": "error", "field": "",
             "message": f"internal error: {type(error).__name__}: {error}", "fix": BUG_FIX}]


def ok_status() -> str:
    return json.dumps({"ok": True}) + "\n"


def failed_status(error: Exception) -> str:
    return json.dumps({"ok": False, "problems": problems_of(error)}, ensure_ascii=False, indent=1) + "\n"


def write_failure(docs_dir: Path, error: Exception) -> Path:
    """Write the failure's status into the current docs tree; the rest of the tree stays as it was."""
    path = docs_dir / STATUS_FILE
    write_text_atomically(path, failed_status(error))  # the page polls it: never half a file
    return path
