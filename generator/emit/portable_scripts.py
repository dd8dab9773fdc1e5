"""The downloadable copy's scripts, turned into what runs from ``file://``: classic scripts (module
loading is blocked from disk) with the small modules they import inlined, the map's index as a
script, and the frame scripts of Material's search shim (``iframe-worker``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from generator.errors import LayermapError

_MODULE_SYNTAX = re.compile(r"^\s*(import|export)\b|\bimport\.meta\b|\bimport\s*\(", re.MULTILINE)


_SIBLING_IMPORT = re.compile(r'^import \{ ([\w, ]+) \} from "\./([\w-]+\.js)";$', re.MULTILINE)


_EXPORT = re.compile(r"^export (?=function |async function |const |class )", re.MULTILINE)


def inline_imports(source: str, read_sibling: Callable[[str], str]) -> str:
    """Each ``import { a, b } from "./x.js";`` replaced by x.js's own text in a scope of its own.

    Our scripts share small modules (boot.js, pure helpers) that import nothing but each other;
    a classic script cannot import, so each one gets its own copy of what it imports.
    """
    def inlined(match: re.Match) -> str:
        names = match.group(1)
        module = _EXPORT.sub("", inline_imports(read_sibling(match.group(2)), read_sibling)).strip()
        return f"const {{ {names} }} = (() => {{\n{module}\nreturn {{ {names} }};\n}})();"
    return _SIBLING_IMPORT.sub(inlined, source)


def classic_script(source: str, name: str, read_sibling: Callable[[str], str] | None = None) -> str:
    """An ES module as a classic script (its own scope, strict as modules are), its imports of
    sibling modules inlined when ``read_sibling`` reads them by file name; other module syntax is refused."""
    if read_sibling:
        source = inline_imports(source, read_sibling)
    found = _MODULE_SYNTAX.search(source)
    if found:
        line = source.count("\n", 0, found.start()) + 1
        raise LayermapError(f"{name}:{line}: the downloadable copy runs scripts as classic scripts, and this "
                            f"one uses module syntax (`{found.group(0).strip()}`)",
                            f"avoid imports, exports and import.meta in {name}, or add it to SERVED_ONLY_SCRIPTS "
                            "in generator/portable.py if it needs a server")
    return f'(() => {{\n"use strict";\n{source}\n}})();\n'


def map_index_script(index_json: str) -> str:
    """The map's index as a script (map.js reads ``window.layermapMapIndex`` before trying to fetch it)."""
    return f"window.layermapMapIndex = {json.dumps(json.loads(index_json), ensure_ascii=False)};\n"


_SHIM_TEMPLATE = re.compile(r"<script>(.*?)<\\/script>")


_SHIM_SLOT = re.compile(r"\$\{(\w+)\}")


_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.DOTALL)


def _function_text(source: str, name: str) -> str:
    """The text of ``function name(...) {...}`` in ``source`` (what the function's toString() gives)."""
    start = source.find(f"function {name}(")
    if start < 0:
        raise LayermapError(f"the iframe-worker shim has no function {name}", "pin the iframe-worker version layermap expects (package-lock.json)")
    depth = 0
    for index in range(source.index("{", start), len(source)):
        depth += {"{": 1, "}": -1}.get(source[index], 0)
        if depth == 0:
            return source[start: index + 1]
    raise LayermapError(f"the iframe-worker shim's function {name} never ends", "reinstall it with `npm ci`")


def shim_frame_script(shim_source: str, worker_url: str) -> str:
    """The inline script the iframe-worker shim writes into its frame for a worker at ``worker_url``.

    The shim's template interpolates two of its own functions (as their source text) and the worker's
    URL, exactly as given to ``new Worker``: Material passes the page-relative URL from its config.
    """
    template = _SHIM_TEMPLATE.search(shim_source)
    if template is None:
        raise LayermapError("the iframe-worker shim no longer writes an inline <script>", "pin the iframe-worker version layermap expects (package-lock.json)")
    names = {slot for slot in _SHIM_SLOT.findall(template.group(1)) if slot != worker_slot(template.group(1))}
    values = {name: _function_text(shim_source, name) for name in names}
    values[worker_slot(template.group(1))] = worker_url
    return _SHIM_SLOT.sub(lambda m: values[m.group(1)], template.group(1))


def worker_slot(template: str) -> str:
    """The slot holding the worker's URL: the one inside the quoted `filename:"${…}"`."""
    found = re.search(r'filename:"\$\{(\w+)\}"', template)
    if found is None:
        raise LayermapError("the iframe-worker shim's frame script has no worker URL", "pin the iframe-worker version layermap expects (package-lock.json)")
    return found.group(1)


def frame_scripts(shim_source: str, html: str) -> tuple[str, ...]:
    """The inline scripts a page's search writes into the shim's frame (none without search)."""
    worker = search_worker_url(html)
    return (shim_frame_script(shim_source, worker),) if worker else ()


def search_worker_url(html: str) -> str | None:
    """The search worker's URL as the theme's config on this page gives it (None without a config)."""
    config = _CONFIG.search(html)
    return json.loads(config.group(1)).get("search") if config else None
