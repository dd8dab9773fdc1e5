"""The D4 arithmetic of calculators.ownership: exact values, properties, and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calculators import ownership


def scenario(**changes) -> dict:
    """The card's illustrative scenario ($37,500 per accelerator, 5 years at 8 %, 50 % busy, $2.50/h)."""
    inputs = {spec["name"]: spec["default"] for spec in ownership.INPUTS}
    inputs.update(changes)
    return inputs


def run(**changes) -> dict:
    return ownership.compute(**scenario(**changes))


# The old straight-line card: four years, no cost of capital.
STRAIGHT = {"lifetime_years": 4, "cost_of_capital": 0}

# --- exact values ----------------------------------------------------------------------------


def test_hourly_costs_of_the_straight_line_scenario():
    result = run(**STRAIGHT)
    assert result["purchase_per_hour"] == pytest.approx(37_500 / (4 * 8760 * 0.5), rel=1e-12)  # $2.14
    assert result["electricity_per_hour"] == pytest.approx(1.275 * 1.3 * 0.08, rel=1e-12)  # $0.133
    assert result["operations_per_hour"] == pytest.approx(3_750 / (8760 * 0.5), rel=1e-12)  # $0.856
    assert result["own_per_hour"] == pytest.approx(2.140411 + 0.1326 + 0.856164, rel=1e-6)
    assert result["buying_cheaper"] is False


def test_hardware_alone_at_full_use_is_a_dollar_seven_an_hour():
    assert run(utilisation=1, **STRAIGHT)["purchase_per_hour"] == pytest.approx(37_500 / 35_040, rel=1e-12)


def test_break_even_months_at_full_use():
    saving = (2.5 - 0.1326) * 730 - 3_750 / 12
    assert run(utilisation=1, **STRAIGHT)["break_even_months"] == pytest.approx(37_500 / saving, rel=1e-12)  # 26.5


def test_capital_recovery_factor_is_the_annuity_formula():
    r, n = 0.08, 5
    expected = r * (1 + r) ** n / ((1 + r) ** n - 1)  # 0.25046
    result = run()
    assert result["capital_recovery_factor"] == pytest.approx(expected, rel=1e-12)
    assert result["purchase_per_hour"] == pytest.approx(37_500 * expected / (8760 * 0.5), rel=1e-12)
    assert ownership.capital_recovery_factor(0.08, 10) == pytest.approx(0.149029, abs=5e-7)
    assert ownership.capital_recovery_factor(0.08, 1) == pytest.approx(1.08, rel=1e-12)
    assert ownership.capital_recovery_factor(0, 4) == 0.25


def test_break_even_is_the_discounted_payback_period():
    result = run(utilisation=0.9)
    saving = (2.5 - result["electricity_per_hour"]) * 8760 * 0.9 - 3_750
    years = -math.log(1 - 37_500 * 0.08 / saving) / math.log(1.08)
    assert result["break_even_months"] == pytest.approx(12 * years, rel=1e-12)
    assert result["monthly_saving"] == pytest.approx(saving / 12, rel=1e-12)


def test_cost_of_capital_raises_the_hourly_cost_of_owning():
    costs = [run(cost_of_capital=rate)["purchase_per_hour"] for rate in (0, 0.05, 0.1, 0.15)]
    assert costs == sorted(costs) and costs[0] == pytest.approx(37_500 / (5 * 8760 * 0.5), rel=1e-12)


def test_no_payback_when_interest_alone_eats_the_saving():
    # $37,500 at 30 % costs $11,250 a year in interest, more than the $11,102 a year saved at
    # full use when rent is $1.40 and power $0.13 an hour.
    assert run(utilisation=1, cost_of_capital=0.3, rental_price=1.4, operations_share=0)["break_even_months"] is None


def test_committed_rent_is_paid_while_idle():
    result = run(rental_terms="committed", utilisation=0.5)
    assert result["rent_per_busy_hour"] == pytest.approx(5.0, rel=1e-12)
    assert result["run_rent_cost"] == pytest.approx(7.0e6 * 5.0, rel=1e-12)
    assert run(rental_terms="on_demand")["rent_per_busy_hour"] == 2.5
    # At 50 % busy, committed rent at $2.50 costs more per busy hour than owning.
    assert result["buying_cheaper"] is True


def test_notes_flag_long_write_offs_and_low_use():
    assert run(rental_price=20)["notes"] == []
    assert any("5 to 6 years" in note for note in run(lifetime_years=8)["notes"])
    assert any("idle power" in note for note in run(utilisation=0.2)["notes"])


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
        "cost_of_capital": st.floats(min_value=0, max_value=0.3),
        "rental_terms": st.sampled_from(ownership.RENTAL_TERMS),
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
    inputs = {**inputs, "rental_terms": "on_demand"}  # a committed rent is paid whatever the use
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
    assert result["buying_cheaper"] == (result["own_per_hour"] < result["rent_per_busy_hour"])
    assert result["rent_per_busy_hour"] >= inputs["rental_price"]


@settings(max_examples=300, deadline=None)
@given(inputs=scenarios)
def test_break_even_inside_the_lifetime_exactly_when_owning_is_cheaper(inputs):
    result = ownership.compute(**inputs)
    months = result["break_even_months"]
    gap = (result["rent_per_busy_hour"] - result["own_per_hour"]) / result["rent_per_busy_hour"]
    assume(abs(gap) > 1e-6)  # away from the knife edge where rounding decides
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
        ("cost_of_capital", -0.01, "cost_of_capital must be a number in [0, 1] (got -0.01)"),
        ("rental_terms", "spot", "rental_terms must be one of on_demand, committed (got 'spot')"),
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


# --- presets (generic declaration checks: tests/generator/checks/test_calculator_declarations.py) -------------------------------


def test_illustrative_prices_say_so():
    labels = {spec["name"]: spec["label"] for spec in ownership.INPUTS}
    for name in ("purchase_price", "electricity_price", "rental_price", "cost_of_capital"):
        assert "illustrative" in labels[name]


def test_presets_are_the_datasheet_and_model_card_figures():
    values = {option["id"]: option["values"] for group in ownership.PRESETS for option in group["options"]}
    assert values["amazon-2025"] == {"lifetime_years": 5}
    assert values["coreweave"] == {"lifetime_years": 6}
    assert values["dgx-h100"] == {"power": 10_200 / 8}
    assert values["dgx-b200"] == {"power": 14_300 / 8}
    assert values["llama31-8b"] == {"run_hours": 1.46e6}
    assert values["llama31-70b"] == {"run_hours": 7.0e6}
    assert values["llama31-405b"] == {"run_hours": 30.84e6}
    assert values["deepseek-v3"] == {"run_hours": 2.788e6}


def test_a_break_even_beyond_the_depreciation_period_or_never_is_noted():
    defaults = {spec["name"]: spec["default"] for spec in ownership.INPUTS}
    result = ownership.compute(**defaults)
    beyond = [n for n in result["notes"] if "beyond its" in n]
    if result["break_even_months"] is not None and result["break_even_months"] > 12 * result["lifetime_years"]:
        assert beyond and f"{result['break_even_months']:.0f} months" in beyond[0]
    cheap_rent = ownership.compute(**{**defaults, "rental_price": 0.5})
    assert cheap_rent["break_even_months"] is None
    assert any("never repay" in n for n in cheap_rent["notes"])
    dear_rent = ownership.compute(**{**defaults, "rental_price": 20})
    assert dear_rent["break_even_months"] < 12 * dear_rent["lifetime_years"]
    assert not any("beyond its" in n or "never repay" in n for n in dear_rent["notes"])
