"""The D3 arithmetic of calculators.facility_power: Colossus by hand, the rack presets against NVIDIA's
figures, what PUE, load and WUE each move, properties, notes and refusals."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import facility_power

PRESET = {option["id"]: option["values"] for group in facility_power.PRESETS for option in group["options"]}


def run(**changes) -> dict:
    """The default: about 100,000 H100s in DGX H100s, four to a rack, PUE 1.2, flat out, 0.30 L/kWh, $0.08/kWh."""
    inputs = {spec["name"]: spec["default"] for spec in facility_power.INPUTS}
    inputs.update(changes)
    return facility_power.compute(**inputs)


def test_colossus_by_hand_as_the_topic_works_it():
    result = run()
    # 100,000 ÷ 8 = 12,500 servers × 10.2 kW = 127.5 MW; × 1.2 = 153 MW; × 8,760 h = 1.34 TWh.
    assert result["systems"] == 12_500 and result["racks"] == 3_125
    assert result["it_power_mw"] == pytest.approx(127.5)
    assert result["facility_power_mw"] == pytest.approx(153.0)
    assert result["overhead_power_mw"] == pytest.approx(25.5)
    assert result["annual_energy_gwh"] == pytest.approx(153 * 8.76)
    assert result["facility_power_per_accelerator_kw"] == pytest.approx(1.53)
    # Water: 127.5 MW of IT × 8,760 h = 1,116,900 MWh × 0.30 L/kWh = 335 million litres.
    assert result["annual_water_litres"] == pytest.approx(127.5e3 * 8760 * 0.30)
    assert result["daily_water_litres"] * 365 == pytest.approx(result["annual_water_litres"])
    # Money: 1,340,280 MWh × $80/MWh = $107 million, $0.12 per GPU-hour.
    assert result["annual_cost"] == pytest.approx(153e3 * 8760 * 0.08)
    assert result["cost_per_accelerator_hour"] == pytest.approx(1.53 * 0.08)
    assert result["it_share"] + result["overhead_share"] == pytest.approx(1)


def test_presets_carry_nvidias_figures():
    assert PRESET["dgx-h100"] == {"accelerators_per_system": 8, "system_power": 10_200, "systems_per_rack": 4}
    assert PRESET["dgx-b200"]["system_power"] == 14_300
    assert PRESET["dgx-b300"]["system_power"] * 4 == 56_000  # "four DGX B300 ... ~56kW" a rack
    gb200 = PRESET["gb200-nvl72"]
    assert gb200["accelerators_per_system"] == 72 and gb200["systems_per_rack"] == 1
    assert run(accelerators=576, pue=1, **gb200)["it_power_mw"] == pytest.approx(1.2)  # 1.2 MW per 8-rack unit
    assert all(option["label"].count("2026-12") == 1 for option in facility_power.PRESETS[0]["options"])


def test_the_same_gpus_in_nvl72_racks_draw_more_in_far_fewer_racks():
    h100, gb200 = run(), run(**PRESET["gb200-nvl72"])
    assert gb200["racks"] == math.ceil(100_000 / 72) < h100["racks"] / 2
    assert gb200["rack_power_kw"] == 150 > 3 * h100["rack_power_kw"]
    assert gb200["facility_power_mw"] > h100["facility_power_mw"]


def test_pue_moves_only_the_overhead_and_load_only_the_energy():
    low, high = run(pue=1.1), run(pue=1.5)
    assert low["it_power_mw"] == high["it_power_mw"]
    assert high["facility_power_mw"] / low["facility_power_mw"] == pytest.approx(1.5 / 1.1)
    assert high["annual_water_litres"] == low["annual_water_litres"]  # WUE is per kWh of IT energy
    half = run(load_share=0.5)
    assert half["facility_power_mw"] == run()["facility_power_mw"]  # the connection is sized for the peak
    assert half["annual_energy_gwh"] == pytest.approx(run()["annual_energy_gwh"] / 2)
    assert half["annual_water_litres"] == pytest.approx(run()["annual_water_litres"] / 2)
    assert run(wue=0)["annual_water_litres"] == 0


def test_notes_say_where_the_model_stops():
    assert run(systems_per_rack=2)["notes"] == []  # 20.4 kW racks, a PUE of 1.2, 153 MW, whole servers
    assert any("30 kW" in note for note in run()["notes"])
    assert any("Uptime Institute" in note and "1.54" in note for note in run(pue=1.05, systems_per_rack=2)["notes"])
    assert any("GW" in note for note in run(accelerators=1_000_000, systems_per_rack=2)["notes"])
    odd = run(accelerators=100_001, systems_per_rack=2)["notes"]
    assert any("7 empty places" in note for note in odd)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("accelerators", 0, "accelerators must be a whole number ≥ 1"),
    ("accelerators_per_system", 2.5, "accelerators_per_system must be a whole number ≥ 1"),
    ("system_power", 0, "system_power must be a number > 0"),
    ("pue", 0.9, "pue must be a number in [1, 3]"),
    ("load_share", 0, "load_share must be a number in (0, 1]"),
    ("wue", -1, "wue must be a number in [0, 10]"),
    ("price", float("nan"), "price must be a finite number"),
])
def test_bad_input_is_refused_naming_the_field(field, value, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        run(**{field: value})


scenarios = st.fixed_dictionaries({
    "accelerators": st.integers(1, 10_000_000),
    "accelerators_per_system": st.integers(1, 1_000),
    "system_power": st.floats(min_value=10, max_value=1e7),
    "systems_per_rack": st.integers(1, 100),
    "pue": st.floats(min_value=1, max_value=3),
    "load_share": st.floats(min_value=0.05, max_value=1),
    "wue": st.floats(min_value=0, max_value=10),
    "price": st.floats(min_value=0.001, max_value=2),
})


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_every_result_is_finite_and_never_negative_and_the_site_covers_its_it(inputs):
    result = facility_power.compute(**inputs)
    for spec in facility_power.OUTPUTS:
        value = result[spec["name"]]
        assert math.isfinite(value) and value >= 0, spec["name"]
    assert result["facility_power_mw"] >= result["it_power_mw"]
    assert result["systems"] * inputs["accelerators_per_system"] >= inputs["accelerators"]
    assert result["average_power_mw"] <= result["facility_power_mw"] * (1 + 1e-12)
