"""Which engine builds the site: MkDocs 1.6.1 or ProperDocs, its maintained drop-in fork.

MkDocs 1.6.1 (August 2024) is MkDocs' last release and mkdocs-material declares it, so the lock
installs it; ProperDocs 1.6.7 keeps the same API under the name ``properdocs`` and, once
``properdocs.replacement`` is imported, answers every ``mkdocs.*`` import itself. Both are in the
lock; ``LAYERMAP_ENGINE=properdocs`` builds and serves with ProperDocs, and a test builds a
project with each and finds the same site but for the generator tag
(tests/generator/emit/test_engine_choice.py). The choice is made once, when ``generator.emit`` is
first imported, before any module of the engine is.
"""

from __future__ import annotations

import importlib
import os
import sys

from generator.errors import LayermapError

VARIABLE = "LAYERMAP_ENGINE"
ENGINES = ("mkdocs", "properdocs")
DEFAULT = "mkdocs"
# What else turns Markdown into the pages: part of the engine as far as a cache is concerned.
CONVERTERS = ("mkdocs-material", "markdown", "pymdown-extensions", "pygments")


def chosen() -> str:
    """The engine ``LAYERMAP_ENGINE`` names (MkDocs when it is unset), or a clear error."""
    name = os.environ.get(VARIABLE, "").strip().lower() or DEFAULT
    if name not in ENGINES:
        raise LayermapError(f"{VARIABLE}={os.environ[VARIABLE]!r} is not an engine layermap knows",
                            f"set {VARIABLE} to one of: {', '.join(ENGINES)} (or leave it unset for {DEFAULT})")
    return name


def engine_packages() -> tuple[str, ...]:
    """The distributions whose versions decide what the engine writes, the chosen engine first."""
    return (chosen(), *CONVERTERS)


def use_chosen_engine() -> str:
    """Route the engine's imports to the chosen package; its name. ProperDocs must come first:
    once MkDocs' own submodules are loaded, its replacement could no longer take their place."""
    name = chosen()
    if name == "properdocs" and "properdocs.replacement" not in sys.modules:
        loaded = sorted(module for module in sys.modules if module.startswith("mkdocs."))
        if loaded:
            raise LayermapError(f"{VARIABLE}=properdocs came too late: MkDocs is already loaded ({loaded[0]})",
                                "set LAYERMAP_ENGINE before starting layermap")
        importlib.import_module("properdocs.replacement")
    return name
