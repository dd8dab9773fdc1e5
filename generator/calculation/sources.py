"""The map's bibliography: ``content/sources.yaml``'s records joined with the sources each
calculator declares (a calculator runs alone in the browser, so it keeps its own records)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.calculation.port import calculator_names, typed_calculator_sources
from generator.content.schema import Source


@dataclass(frozen=True)
class Declared:
    """A source record and where it is written: sources.yaml or a calculator module."""

    source: Source
    file: str


def declared_sources(sources: dict[str, Source | None], sources_file: str) -> dict[str, list[Declared]]:
    """Every declaration of every key: sources.yaml's first, then each calculator's in name order."""
    found: dict[str, list[Declared]] = {}
    for key, source in sources.items():
        if source is not None:  # None: an invalid record, reported by loading
            found.setdefault(key, []).append(Declared(source, sources_file))
    for name in calculator_names():
        for source in typed_calculator_sources(name):
            found.setdefault(source.id, []).append(Declared(source, f"calculators/{name}.py"))
    return found


def bibliography_of(sources: dict[str, Source | None], sources_file: str) -> dict[str, Source]:
    """One record per key (the first declared): what citations resolve to and pages list."""
    return {key: declarations[0].source for key, declarations in declared_sources(sources, sources_file).items()}
