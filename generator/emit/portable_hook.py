"""MkDocs hook for the downloadable copy (read from disk, ``file://``): links that name ``index.html``.

Copied into the generated tree and named only by the copy's config (``mkdocs.portable.yml``).
Material's ``offline`` plugin, which that config enables, inlines the search index into
``search/search_index.js`` (the theme's bundle loads it from ``file://``, where fetch is blocked)
and turns directory URLs off. This hook turns them back on: layermap's raw HTML (the drawn map,
the figures) is laid out for ``page/index.html`` folders, and with directory URLs off a page
would move to ``page.html`` and those links would point one folder too deep. Instead, every link
to a folder is made to name its ``index.html``: the search index's entries here (before the
offline plugin inlines them), the built pages afterwards (``generator/portable.py``).

Only the standard library is imported: the generated tree stays buildable alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

SEARCH_INDEX = "search/search_index.json"
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def index_html_url(url: str) -> str:
    """``url`` naming the ``index.html`` of the folder it points to; other URLs as they are.

    A relative URL points to a folder when its path is empty (but not a bare ``#fragment``), ends
    with ``/``, or its last segment is ``.`` or ``..``: ``../gpu-clouds/#d4`` →
    ``../gpu-clouds/index.html#d4``, ``../..`` → ``../../index.html``.
    Absolute URLs (with a scheme or a leading slash) and fragments alone are left alone.
    """
    if not url or url.startswith(("#", "/")) or _SCHEME.match(url):
        return url
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    path, rest = url[:cut], url[cut:]
    if path.rsplit("/", 1)[-1] in (".", ".."):
        path += "/"
    return f"{path}index.html{rest}" if path == "" or path.endswith("/") else url


def search_index_for_disk(index: dict) -> dict:
    """The search index with every entry's location naming its page's ``index.html``."""
    for entry in index.get("docs", []):
        location = entry.get("location", "")
        # the home page's entries are "" and "#section": relative to the site's root folder
        entry["location"] = f"index.html{location}" if location[:1] in ("", "#") else index_html_url(location)
    return index


def on_config(config, **_: object):  # noqa: ANN001, ANN201 - the engine's hook signature
    # Runs after the offline plugin's on_config (hooks come after the plugins): see the docstring.
    config.use_directory_urls = True
    return config


def on_post_build(config, **_: object) -> None:  # noqa: ANN001
    path = Path(config.site_dir) / SEARCH_INDEX
    if path.is_file():
        index = search_index_for_disk(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


# After the search plugin writes the index (0), before the offline plugin inlines it (-100); this
# is what MkDocs' @event_priority(-50) sets, without importing MkDocs here.
on_post_build.mkdocs_priority = -50  # type: ignore[attr-defined]
