"""calcview.declaration_problems: presets that leave a field unset are named, with the fix."""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace

import pytest

import calculators
from calcview import declaration_problems
from calculators._datasheets import accelerator_options

INPUTS = [{"name": "memory", "control": "number"}, {"name": "bandwidth", "control": "number"}]
SOURCES = [{"id": "sheet"}]


def module(presets: list[dict], **extra: object) -> SimpleNamespace:
    return SimpleNamespace(INPUTS=INPUTS, SOURCES=SOURCES, PRESETS=presets, **extra)


def test_a_complete_preset_has_no_problems():
    group = {"name": "acc", "fields": ["memory", "bandwidth"],
             "options": [{"id": "x", "values": {"memory": 1, "bandwidth": 2}, "source": "sheet"}]}
    assert declaration_problems(module([group])) == []


def test_a_datasheet_without_the_fact_is_named_with_the_fact_and_the_file_to_edit():
    # b200's entry gives no "no_such_fact": the option is kept, with the gap named.
    options = accelerator_options({"memory": "memory", "bandwidth": "no_such_fact"}, "h100-sxm")
    assert options[0]["missing"] == {"bandwidth": "no_such_fact"}
    group = {"name": "acc", "fields": ["memory", "bandwidth"], "options": options}
    problems = declaration_problems(SimpleNamespace(INPUTS=INPUTS, SOURCES=[{"id": options[0]["source"]}], PRESETS=[group]))
    assert len(problems) == 1
    message, fix = problems[0]
    assert "preset `acc` option `h100-sxm` has no value for `bandwidth`" in message
    assert "`no_such_fact`" in message and "calculators/_datasheets.py" in fix


def test_an_unknown_field_and_an_undeclared_source_are_reported():
    group = {"name": "acc", "fields": ["memroy"], "options": [{"id": "x", "values": {"memroy": 1}, "source": "other"}]}
    messages = [message for message, _ in declaration_problems(module([group]))]
    assert any("sets `memroy`, which is not an input" in m for m in messages)
    assert any("cites `other`, which is not in SOURCES" in m for m in messages)


def test_assumptions_must_be_sentences():
    assert declaration_problems(module([], ASSUMPTIONS=["Holds while x is small."])) == []
    assert declaration_problems(module([], ASSUMPTIONS="one string"))[0][0].startswith("ASSUMPTIONS")
    assert declaration_problems(module([], ASSUMPTIONS=["", "x"]))[0][0].startswith("ASSUMPTIONS")


NAMES = sorted(m.name for m in pkgutil.iter_modules(calculators.__path__) if not m.name.startswith("_"))


@pytest.mark.parametrize("name", NAMES)
def test_every_real_calculator_is_well_declared_and_states_its_assumptions(name):
    calculator = importlib.import_module(f"calculators.{name}")
    assert declaration_problems(calculator) == []
    assert len(getattr(calculator, "ASSUMPTIONS", [])) >= 3, "list where the model stops holding"
