"""What page rendering needs from calculators, as a small interface (the bridge implements it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from generator.schema import Exercise, Source


@dataclass(frozen=True)
class ExerciseView:
    """An exercise ready to render: the states to play (form text) and the end state's numbers."""

    plan: list[dict[str, str]]  # first the full starting scenario, then the changes of each state
    end: list[tuple[str, str, str]]  # (output name, label, displayed value) at the end state


class Calculators(Protocol):
    def html(self, name: str, instance_id: str, values: dict[str, Any]) -> str: ...

    def expand(self, text: str) -> str: ...

    def exercise(self, name: str, values: dict[str, Any], exercise: Exercise) -> ExerciseView: ...

    def sources(self, name: str) -> list[Source]: ...
