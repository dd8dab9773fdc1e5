"""Every calculator × extreme inputs, through calcview.evaluate (the path the build and the
browser worker share): declared ranges hold for every field, messages stay short, results
stay finite and readable, figures stay small."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET

import pytest

from calcview import evaluate
from calcview.figures import MAX_SVG_CHARS
from calcview.values import format_input

NAMES = ["allreduce", "answer_cost", "facility_power", "local", "ownership", "parallelism", "reliability", "roofline", "scaling", "serving",
         "token_cost", "transformer_shape"]
MODULES = {name: importlib.import_module(f"calculators.{name}") for name in NAMES}
MESSAGE_MAX_CHARS = 220
DISPLAY_MAX_CHARS = 40
HUGE = "9" * 100_000


def specs(selects: bool) -> list:
    """(module, input declaration) for every number field, or every select, of every calculator."""
    return [pytest.param(module, spec, id=f"{name}.{spec['name']}")
            for name, module in MODULES.items() for spec in module.INPUTS if (spec["control"] == "select") == selects]


NUMBER_SPECS, SELECT_SPECS = specs(selects=False), specs(selects=True)


def plain(bound: float) -> str:
    return format_input({"control": "number"}, bound)


def assert_readable(result: dict) -> None:
    """No exception got here; what comes back is short and bounded, whichever way it went."""
    assert all(len(message) <= MESSAGE_MAX_CHARS for message in result["errors"].values()), result["errors"]
    if result["ok"]:
        assert all(len(text) <= DISPLAY_MAX_CHARS for text in result["display"].values()), result["display"]
        assert "∞ EB" not in result["display"].values()
        for svg in result["figures"].values():
            assert len(svg) <= MAX_SVG_CHARS
            ET.fromstring(svg)


@pytest.mark.parametrize(("module", "spec"), NUMBER_SPECS)
@pytest.mark.parametrize("edge", ["min", "max"])
def test_each_field_at_its_declared_edge_is_computed_or_refused_clearly(module, spec, edge):
    result = evaluate(module, {spec["name"]: plain(spec[edge])})
    assert spec["name"] not in result["errors"] or "between" not in result["errors"][spec["name"]]
    assert_readable(result)


@pytest.mark.parametrize(("module", "spec"), NUMBER_SPECS)
def test_beyond_the_declared_range_is_refused_naming_field_and_range(module, spec):
    span = spec["max"] - spec["min"]
    for text in (plain(spec["max"] + max(span, 1)), plain(spec["min"] - max(span, 1)), "1e308", "-1e308"):
        result = evaluate(module, {spec["name"]: text})
        message = result["errors"][spec["name"]]
        assert not result["ok"] and message.startswith(spec["label"] + " must be between"), message
        assert_readable(result)


@pytest.mark.parametrize(("module", "spec"), NUMBER_SPECS)
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e309", "Infinity"])
def test_non_finite_text_is_refused(module, spec, text):
    result = evaluate(module, {spec["name"]: text})
    assert result["errors"] == {spec["name"]: f"{spec['label']} must be a finite number (got {text!r})"}


@pytest.mark.parametrize(("module", "spec"), NUMBER_SPECS)
def test_a_subnormal_number_is_refused_or_shown_short(module, spec):
    result = evaluate(module, {spec["name"]: "1e-320"})
    if spec["min"] > 0:
        assert "between" in result["errors"][spec["name"]]
    assert_readable(result)


@pytest.mark.parametrize(("module", "spec"), NUMBER_SPECS)
def test_a_huge_string_is_refused_and_quoted_short(module, spec):
    result = evaluate(module, {spec["name"]: HUGE})
    message = result["errors"][spec["name"]]
    assert "at most 100 characters" in message and message.endswith("'…)")
    assert len(message) <= MESSAGE_MAX_CHARS


@pytest.mark.parametrize(("module", "spec"), SELECT_SPECS)
@pytest.mark.parametrize("text", [HUGE, "<script>alert(1)</script>", "", "nan"])
def test_a_select_refuses_anything_but_its_options_with_a_short_quote(module, spec, text):
    result = evaluate(module, {spec["name"]: text})
    message = result["errors"][spec["name"]]
    assert "must be one of" in message and len(message) <= MESSAGE_MAX_CHARS


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edge", ["min", "max"])
def test_every_field_at_once_at_its_edge_is_computed_or_refused_clearly(name, edge):
    module = MODULES[name]
    raw = {spec["name"]: plain(spec[edge]) for spec in module.INPUTS if spec["control"] != "select"}
    assert_readable(evaluate(module, raw))
