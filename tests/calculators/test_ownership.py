"""The D4 arithmetic of calculators.ownership: exact values, properties, and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calculators import ownership


def scenario(**changes) -> dict:
    """The card's illustrative scenario ($37,500 per accelerator, 4 years, 50 % busy, $2.50/h)."""
    inputs = {spec["name"]: spec["default"] for spec in ownership.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return ownership.compute(**scenario(**changes))


# --- exact values ----------------------------------------------------------------------------


def test_hourly_costs_of_the_default_scenario():
    result = run()
    assert result["purchase_per_hour"] == pytest.approx(37_500 / (4 * 8760 * 0.5), rel=1e-12)  # $2.14
    assert result["electricity_per_hour"] == pytest.approx(1.275 * 1.3 * 0.08, rel=1e-12)  # $0.133
    assert result["operations_per_hour"] == pytest.approx(3_750 / (8760 * 0.5), rel=1e-12)  # $0.856
    assert result["own_per_hour"] == pytest.approx(2.140411 + 0.1326 + 0.856164, rel=1e-6)
    assert result["buying_cheaper"] is False


def test_hardware_alone_at_full_use_is_a_dollar_seven_an_hour():
    assert run(utilisation=1)["purchase_per_hour"] == pytest.approx(37_500 / 35_040, rel=1e-12)


def test_break_even_months_at_full_use():
    saving = (2.5 - 0.1326) * 730 - 3_750 / 12
    assert run(utilisation=1)["break_even_months"] == pytest.approx(37_500 / saving, rel=1e-12)  # 26.5


def test_no_break_even_when_renting_costs_less_than_the_power_bill():
    result = run(rental_price=0.1)
    assert result["break_even_months"] is None
    assert result["buying_cheaper"] is False


def test_no_break_even_when_running_costs_eat_the_saving():
    assert run(utilisation=0.1)["break_even_months"] is None


def test_one_run_rented_and_cluster_to_finish_in_ninety_days():
    result = run()
    assert result["run_rent_cost"] == pytest.approx(7.0e6 * 2.5, rel=1e-12)  # $17.5 million
    assert result["run_accelerators"] == math.ceil(7.0e6 / (24 * 90))  # 3,241
    assert result["run_purchase"] == 3_241 * 37_500


def test_a_whole_number_of_accelerators_is_not_rounded_up_by_float_error():
    assert run(run_hours=2160, run_days=90)["run_accelerators"] == 1
    assert run(run_hours=24 * 90 * 7, run_days=90)["run_accelerators"] == 7
    assert run(run_hours=1, run_days=1000)["run_accelerators"] == 1


def test_pue_of_one_is_allowed_and_zero_power_costs_nothing():
    assert run(pue=1, power=0)["electricity_per_hour"] == 0


# --- properties ------------------------------------------------------------------------------

scenarios = st.fixed_dictionaries(
    {
        "purchase_price": st.floats(min_value=100, max_value=1e7),
        "lifetime_years": st.floats(min_value=0.5, max_value=15),
        "power": st.floats(min_value=0, max_value=1e5),
        "pue": st.floats(min_value=1, max_value=3),
        "electricity_price": st.floats(min_value=0, max_value=2),
        "operations_share": st.floats(min_value=0, max_value=1),
        "utilisation": st.floats(min_value=0.01, max_value=1),
        "rental_price": st.floats(min_value=0.01, max_value=100),
        "run_hours": st.floats(min_value=1, max_value=1e9),
        "run_days": st.floats(min_value=1, max_value=1000),
    }
)


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, more=st.floats(min_value=0.001, max_value=1))
def test_owning_gets_cheaper_per_hour_and_pays_back_sooner_as_use_rises(inputs, more):
    higher = min(1.0, inputs["utilisation"] + more)
    assume(higher > inputs["utilisation"])
    before = ownership.compute(**inputs)
    after = ownership.compute(**{**inputs, "utilisation": higher})
    assert after["own_per_hour"] <= before["own_per_hour"]
    if before["break_even_months"] is not None:
        assert after["break_even_months"] is not None
        assert after["break_even_months"] <= before["break_even_months"] * (1 + 1e-12)


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_parts_sum_to_the_hourly_cost_and_verdict_matches(inputs):
    result = ownership.compute(**inputs)
    parts = result["purchase_per_hour"] + result["electricity_per_hour"] + result["operations_per_hour"]
    assert parts == pytest.approx(result["own_per_hour"], rel=1e-12)
    assert result["buying_cheaper"] == (result["own_per_hour"] < inputs["rental_price"])


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_break_even_inside_the_lifetime_exactly_when_owning_is_cheaper(inputs):
    result = ownership.compute(**inputs)
    months = result["break_even_months"]
    gap = (inputs["rental_price"] - result["own_per_hour"]) / inputs["rental_price"]
    assume(abs(gap) > 1e-9)  # away from the knife edge where rounding decides
    within = months is not None and months <= inputs["lifetime_years"] * 12
    assert within == result["buying_cheaper"]


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios, times=st.floats(min_value=1.01, max_value=10))
def test_run_bills_scale_with_the_run(inputs, times):
    before = ownership.compute(**inputs)
    after = ownership.compute(**{**inputs, "run_hours": inputs["run_hours"] * times})
    assert after["run_rent_cost"] == pytest.approx(before["run_rent_cost"] * times, rel=1e-12)
    assert after["run_own_cost"] == pytest.approx(before["run_own_cost"] * times, rel=1e-12)
    assert after["run_accelerators"] >= before["run_accelerators"]
    assert before["run_accelerators"] * 24 * inputs["run_days"] >= inputs["run_hours"] * (1 - 1e-9)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("purchase_price", 0, "purchase_price must be a number > 0 (got 0)"),
        ("lifetime_years", -1, "lifetime_years must be a number > 0 (got -1)"),
        ("power", -5, "power must be a number ≥ 0 (got -5)"),
        ("pue", 0.9, "pue must be a number ≥ 1 (got 0.9)"),
        ("electricity_price", -0.01, "electricity_price must be a number ≥ 0 (got -0.01)"),
        ("operations_share", 1.2, "operations_share must be a number in [0, 1] (got 1.2)"),
        ("utilisation", 0, "utilisation must be a number in (0, 1] (got 0)"),
        ("utilisation", 1.01, "utilisation must be a number in (0, 1] (got 1.01)"),
        ("rental_price", 0, "rental_price must be a number > 0 (got 0)"),
        ("run_hours", math.nan, "run_hours must be a finite number (got nan)"),
        ("run_days", math.inf, "run_days must be a finite number (got inf)"),
        ("purchase_price", True, "purchase_price must be a number (got True)"),
        ("rental_price", "2.5", "rental_price must be a number (got '2.5')"),
    ],
)
def test_bad_input_raises_value_error_naming_field_and_range(field, value, message):
    with pytest.raises(ValueError) as caught:
        run(**{field: value})
    assert str(caught.value).startswith(message)


# --- presets (generic declaration checks: test_declarations.py) -------------------------------


def test_illustrative_prices_say_so():
    labels = {spec["name"]: spec["label"] for spec in ownership.INPUTS}
    for name in ("purchase_price", "electricity_price", "rental_price"):
        assert "illustrative" in labels[name]


def test_presets_are_the_datasheet_and_model_card_figures():
    values = {option["id"]: option["values"] for group in ownership.PRESETS for option in group["options"]}
    assert values["dgx-h100"] == {"power": 10_200 / 8}
    assert values["dgx-b200"] == {"power": 14_300 / 8}
    assert values["llama31-8b"] == {"run_hours": 1.46e6}
    assert values["llama31-70b"] == {"run_hours": 7.0e6}
    assert values["llama31-405b"] == {"run_hours": 30.84e6}
