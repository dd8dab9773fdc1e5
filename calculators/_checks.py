"""Input checks shared by calculators: each returns the clean value or raises ValueError.

Every message starts with the field's name and says the allowed range, e.g. "ring_size must be
a whole number ≥ 1 (got 0)"; calcview swaps the name for the field's label. Standard library
only, like the calculators (this module is shipped to the browser with them). The leading
underscore keeps it out of the list of calculators.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def shown(value: object) -> str:
    """``value`` as an error message quotes it: at most 40 characters of its repr, then "…"."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def finite_number(name: str, value: object) -> float:
    """``value`` as a float, refusing bools, non-numbers, NaN and infinities."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number (got {shown(value)})")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number (got {value})")
    return float(value)


def positive(name: str, value: object) -> float:
    number = finite_number(name, value)
    if number <= 0:
        raise ValueError(f"{name} must be a number > 0 (got {value})")
    return number


def at_least(name: str, value: object, low: float) -> float:
    number = finite_number(name, value)
    if number < low:
        raise ValueError(f"{name} must be a number ≥ {low:g} (got {value})")
    return number


def whole_count(name: str, value: object) -> int:
    """A count of accelerators, stages and the like: a whole number ≥ 1."""
    number = finite_number(name, value)
    if number < 1 or not number.is_integer():
        raise ValueError(f"{name} must be a whole number ≥ 1 (got {value})")
    return int(number)


def in_range(name: str, value: object, low: float, high: float, *, open_low: bool = False) -> float:
    """A number in [low, high], or (low, high] with ``open_low``."""
    number = finite_number(name, value)
    if (number <= low if open_low else number < low) or number > high:
        interval = f"({low:g}, {high:g}]" if open_low else f"[{low:g}, {high:g}]"
        raise ValueError(f"{name} must be a number in {interval} (got {value})")
    return number


def one_of(name: str, value: object, allowed: Iterable[str]) -> str:
    allowed = list(allowed)
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)} (got {shown(value)})")
    return value
