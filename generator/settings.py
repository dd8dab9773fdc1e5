"""How a map is built: the few choices the generator makes that are not content, in one typed place.

One :class:`BuildSettings` is made by the CLI (or a test) and passed down the pipeline; no stage
reads a module constant for these. Each value is checked when the settings are made.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class BuildSettings:
    # A layer with more topics than this lists them in alphabetical groups in the navigation.
    # Every page embeds the navigation and navigation.prune keeps only the open section, so without
    # groups each topic page would carry a link to every topic of its layer (benchmarks/RESULTS.md).
    nav_group: int = 25
    # A topic page of a big layer lists this many topics next to it and links to the rest.
    siblings_shown: int = 10
    # Above this many topics the home page draws the overview of the layers instead of every topic.
    full_map_limit: int = 120

    def __post_init__(self) -> None:
        for setting in fields(self):
            value = getattr(self, setting.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"BuildSettings.{setting.name} must be a whole number of at least 1, not {value!r}")
