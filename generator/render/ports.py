"""What page rendering needs from calculators, as a small interface (``generator.model.calculators`` implements it)."""

from __future__ import annotations

from typing import Any, Protocol

from generator.content.schema import Exercise, Source
from generator.model.calculators import ExerciseView


class Calculators(Protocol):
    def html(self, name: str, instance_id: str, values: dict[str, Any]) -> str: ...

    def expand(self, text: str) -> str: ...

    def exercise(self, name: str, values: dict[str, Any], exercise: Exercise) -> ExerciseView: ...

    def sources(self, name: str) -> list[Source]: ...
