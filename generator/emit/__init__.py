"""Stage 6, emit: the docs tree and engine config written out, the only code that knows MkDocs (build aside and swap, serve and watch), the service worker and the downloadable copy."""

from generator.emit.engine_choice import use_chosen_engine

use_chosen_engine()  # before any module of the engine is imported (LAYERMAP_ENGINE: mkdocs or properdocs)
