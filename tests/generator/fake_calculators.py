"""Small stand-in calculators for tests that need a calculator to behave in one particular way."""

from __future__ import annotations

from types import ModuleType


def rounding_calculator() -> ModuleType:
    """A calculator whose form writes a number to six significant figures, as every form does:
    1,234,567.5 is set as the text "1.23457e+06", which the page reads as 1,234,570."""
    module = ModuleType("rounding")
    module.INPUTS = [{"name": "x", "label": "X", "control": "number", "default": 1, "min": 0, "max": 1e9}]
    module.OUTPUTS = [{"name": "y", "label": "Y", "format": "number"}]
    module.compute = lambda x: {"y": x}
    return module

