"""Rent accelerators by the hour, or buy them? (The rent-or-buy calculator.)

The arithmetic of the "GPU clouds & neoclouds" card (D4). Owning costs, per hour an accelerator
is actually busy:

    capital     = price × CRF(r, N) / (8,760 h × utilisation)
    electricity = power × PUE × electricity price            (drawn while busy; idle draw ignored)
    operations  = price × operations share per year / (8,760 h × utilisation)

where CRF(r, N) = r(1 + r)^N / ((1 + r)^N − 1) is the capital recovery factor: the equal yearly
payment, per dollar borrowed at the annual cost of capital r, that repays the purchase and its
interest over the N-year depreciation period (the standard annuity formula of engineering
economics, e.g. Short, Packey & Holt 1995, NREL's manual for economic evaluation; CRF → 1/N as
r → 0, the straight-line write-off). Owned hardware is paid for whether busy or idle, hence ÷ utilisation.

Renting on demand costs the rental price for each busy hour and nothing when idle; committed
(reserved) capacity is paid for every hour of the term, so its price per busy hour is the rate ÷
utilisation. The purchase pays for itself once the discounted yearly savings, rent paid −
electricity − operations, add up to the price (the discounted payback period: N* years with
saving × (1 − (1 + r)^−N*) / r = price); it does so within N years exactly when owning is cheaper
per busy hour. A training run of H accelerator-hours costs H × price per hour either way;
finishing it in D days needs H / (24 D) accelerators, which would cost that many times the
purchase price to buy outright.

Every price here is an illustrative assumption for exploring the trade-off, never a quote.
Standard library only; knows nothing of HTML. Base units: US dollars, watts, hours.
"""

from __future__ import annotations

import math

from calculators._checks import at_least, in_range, one_of, positive
from calculators._datasheets import shared_sources

HOURS_PER_YEAR = 8_760
WATTS_PER_KILOWATT = 1_000
RENTAL_TERMS = ("on_demand", "committed")

TITLE = "Rent-or-buy calculator"

INPUTS: list[dict] = [
    {
        "name": "purchase_price",
        "label": "Purchase price per accelerator (illustrative)",
        "unit": "US$",
        "control": "number",
        "min": 100,
        "max": 10_000_000,
        "step": 100,
        "scale": "log",
        # Illustrative, not a quote: a $300,000 eight-accelerator server divided by 8.
        "default": 37_500,
        "help": "What one accelerator costs to buy with its share of the server, in US dollars; add its share of network and installation to count them. An assumption, not a quote.",
    },
    {
        "name": "lifetime_years",
        "label": "Depreciation period (years of service paid off over)",
        "unit": "years",
        "control": "slider",
        "min": 1,
        "max": 10,
        "step": 0.5,
        "scale": "linear",
        # 5: Amazon's period for a subset of its servers from 2025 (cut from 6); CoreWeave books 6.
        "default": 5,
        "help": "How many years of service the purchase and its financing are spread over; large operators book servers over 5 to 6 years.",
    },
    {
        "name": "cost_of_capital",
        "label": "Cost of capital (illustrative)",
        "unit": "per year",
        "control": "slider",
        "min": 0,
        "max": 0.3,
        "step": 0.005,
        "scale": "linear",
        # Illustrative assumption, not a quote: 8 % a year for a blend of borrowing and
        # shareholders' expected return; 0 gives the plain straight-line write-off.
        "default": 0.08,
        "help": "The yearly return the money tied up in the hardware must earn (interest, or what it would earn elsewhere), as a fraction (0.08 = 8 %). An assumption, not a quote.",
    },
    {
        "name": "power",
        "label": "Power per accelerator, with its share of the server",
        "unit": "kW",
        "factor": WATTS_PER_KILOWATT,  # base units (watts) per displayed kW
        "control": "number",
        "min": 0,
        "max": 100,
        "step": 0.001,
        "scale": "linear",
        # DGX H100: about 10.2 kW maximum for 8 GPUs -> 1.275 kW each.
        "default": 1_275,
        "help": "Electrical power drawn while busy, in kilowatts: the whole server's rating divided by its accelerators.",
    },
    {
        "name": "pue",
        "label": "PUE (facility energy ÷ IT energy)",
        "unit": "",
        "control": "number",
        "min": 1,
        "max": 3,
        "step": 0.01,
        "scale": "linear",
        "default": 1.3,
        "help": "Power usage effectiveness: 1.0 would mean no energy spent on cooling and power conversion.",
    },
    {
        "name": "electricity_price",
        "label": "Electricity price (illustrative)",
        "unit": "US$ per kWh",
        "control": "number",
        "min": 0,
        "max": 2,
        "step": 0.001,
        "scale": "linear",
        "default": 0.08,
        "help": "What the facility pays per kilowatt-hour, in US dollars. An assumption, not a tariff.",
    },
    {
        "name": "operations_share",
        "label": "Other running costs per year, share of the purchase price",
        "unit": "per year",
        "control": "slider",
        "min": 0,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # Illustrative: space, network upkeep, spares and staff at 10 % of the price a year.
        "default": 0.1,
        "help": "Space, maintenance, spares and staff each year, as a fraction of the purchase price (0.1 = 10 %).",
    },
    {
        "name": "utilisation",
        "label": "Utilisation",
        "unit": "of all hours",
        "control": "slider",
        "min": 0.01,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        "default": 0.5,
        "help": "Share of all the hours in the year that the owned accelerator does useful work, between 0 and 1.",
    },
    {
        "name": "rental_terms",
        "label": "How the rental is paid",
        "unit": "",
        "control": "select",
        "default": "on_demand",
        "help": "On demand: pay only for the hours used. Committed: a reserved term, paid for every hour whether used or not.",
        "options": [
            {"value": "on_demand", "label": "On demand (only busy hours are paid)"},
            {"value": "committed", "label": "Committed (every hour of the term is paid)"},
        ],
    },
    {
        "name": "rental_price",
        "label": "Rental price (illustrative)",
        "unit": "US$ per accelerator-hour",
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "log",
        "default": 2.5,
        "help": "What a cloud charges for one accelerator for one hour, in US dollars. An assumption, not a quote.",
    },
    {
        "name": "run_hours",
        "label": "One training run",
        "unit": "million accelerator-hours",
        "factor": 1e6,
        "control": "slider",
        "min": 0.001,
        "max": 1000,
        "step": 0.001,
        "scale": "log",
        # 7.0 million H100-hours: Llama 3.1 70B, as its model card reports.
        "default": 7.0e6,
        "help": "Accelerator-hours the run needs, in millions.",
    },
    {
        "name": "run_days",
        "label": "Days to finish the run",
        "unit": "days",
        "control": "slider",
        "min": 1,
        "max": 1000,
        "step": 1,
        "scale": "log",
        "default": 90,
        "help": "The calendar time the run must fit in; it sets how many accelerators are needed at once.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "capital_recovery_factor", "label": "Capital recovery factor (yearly payment per dollar)", "unit": "", "format": "number"},
    {"name": "purchase_per_hour", "label": "Purchase and its financing, per busy hour", "unit": "", "format": "usd"},
    {"name": "electricity_per_hour", "label": "Electricity, per busy hour", "unit": "", "format": "usd"},
    {"name": "operations_per_hour", "label": "Other running costs, per busy hour", "unit": "", "format": "usd"},
    {"name": "own_per_hour", "announce": True, "label": "Owning, per busy accelerator-hour", "unit": "", "format": "usd"},
    {"name": "rent_per_busy_hour", "label": "Renting, per busy accelerator-hour", "unit": "", "format": "usd"},
    {"name": "buying_cheaper", "announce": True, "label": "Owning costs less than renting", "unit": "", "format": "yesno"},
    {"name": "break_even_months", "announce": True, "label": "Break-even after", "unit": "", "format": "months"},
    {"name": "run_rent_cost", "label": "One run, rented", "unit": "", "format": "usd"},
    {"name": "run_own_cost", "label": "One run, on owned hardware (written-off share)", "unit": "", "format": "usd"},
    {"name": "run_accelerators", "label": "Accelerators to finish in time", "unit": "", "format": "integer"},
    {"name": "run_purchase", "label": "Buying those accelerators outright", "unit": "", "format": "usd"},
]

PRESETS: list[dict] = [
    {
        "name": "depreciation",
        "label": "Depreciation period in the wild",
        "fields": ["lifetime_years"],
        "options": [
            {
                "id": "amazon-2025",
                "label": "Amazon, a subset of servers from 2025: 5 years",
                # 10-K for 2024: "changing the useful lives of a subset of our servers and
                # networking equipment, effective January 1, 2025, from six years to five years".
                "values": {"lifetime_years": 5},
                "source": "amazon-10k-2024",
            },
            {
                "id": "coreweave",
                "label": "CoreWeave, technology equipment: 6 years",
                # S-1 (2025), as reported: straight line over six years since 2023.
                "values": {"lifetime_years": 6},
                "source": "bizety-gpu-depreciation",
            },
        ],
    },
    {
        "name": "server",
        "label": "Server power",
        "fields": ["power"],
        "options": [
            {
                "id": "dgx-h100",
                "label": "DGX H100: 10.2 kW ÷ 8 GPUs",
                "values": {"power": 1_275},
                "source": "nvidia-dgx-h100-guide",
            },
            {
                "id": "dgx-b200",
                "label": "DGX B200: 14.3 kW ÷ 8 GPUs",
                "values": {"power": 1_787.5},
                "source": "nvidia-dgx-b200-guide",
            },
        ],
    },
    {
        "name": "run",
        "label": "Training run",
        "fields": ["run_hours"],
        "options": [
            {
                "id": "llama31-8b",
                "label": "Llama 3.1 8B: 1.46 million H100-hours",
                "values": {"run_hours": 1.46e6},
                "source": "llama31-model-card",
            },
            {
                "id": "llama31-70b",
                "label": "Llama 3.1 70B: 7.0 million H100-hours",
                "values": {"run_hours": 7.0e6},
                "source": "llama31-model-card",
            },
            {
                "id": "deepseek-v3",
                "label": "DeepSeek-V3: 2.788 million H800-hours",
                # Technical report, Table 1: 2,788K H800 GPU-hours for the full training.
                "values": {"run_hours": 2.788e6},
                "source": "deepseek-v3",
            },
            {
                "id": "llama31-405b",
                "label": "Llama 3.1 405B: 30.84 million H100-hours",
                "values": {"run_hours": 30.84e6},
                "source": "llama31-model-card",
            },
        ],
    },
]

SOURCES: list[dict] = [
    {
        "id": "amazon-10k-2024",
        "kind": "filing",
        "title": "Amazon.com, Inc. Form 10-K for the fiscal year ended December 31, 2024 (useful lives of servers and networking equipment)",
        "authors": "Amazon.com, Inc.",
        "date": "2025-02-07",
        "url": "https://www.sec.gov/Archives/edgar/data/1018724/000101872425000004/",
    },
    {
        "id": "bizety-gpu-depreciation",
        "kind": "blog",
        "title": "GPU depreciation: CoreWeave vs Nebius (reading CoreWeave's S-1: technology equipment over six years)",
        "authors": "Bizety",
        "date": "2025-09-23",
        "url": "https://bizety.com/2025/09/23/gpu-depreciation-coreweave-vs-nebius",
    },
    {
        "id": "short1995",
        "kind": "report",
        "title": "A Manual for the Economic Evaluation of Energy Efficiency and Renewable Energy Technologies (NREL/TP-462-5173; capital recovery and fixed charge rates)",
        "authors": "Short, Packey, Holt",
        "date": "1995-03",
        "url": "https://www.nrel.gov/docs/legosti/old/5173.pdf",
    },
    {
        "id": "deepseek-v3",
        "kind": "paper",
        "title": "DeepSeek-V3 Technical Report",
        "authors": "DeepSeek-AI",
        "date": "2024-12-27",
        "url": "https://arxiv.org/abs/2412.19437",
    },
    *shared_sources("nvidia-dgx-h100-guide", "nvidia-dgx-b200-guide"),
    {
        "id": "llama31-model-card",
        "kind": "documentation",
        "title": "Llama 3.1 model card",
        "authors": "Meta",
        "date": "2024-07-23",
        "url": "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
    },
]

FIGURES: list[dict] = [
    {
        "name": "hourly",
        "kind": "memory_bar",
        "title": "Cost per busy accelerator-hour",
        "format": "usd",
        "parts": [
            {"value": "purchase_per_hour", "label": "Purchase and financing"},
            {"value": "electricity_per_hour", "label": "Electricity"},
            {"value": "operations_per_hour", "label": "Other running costs"},
        ],
        "capacity": "rent_per_busy_hour",
        "words": {
            "capacity": "Rent {capacity}",
            "fits": "Owning is cheaper: {needed} an hour against {capacity} to rent",
            "over": "Renting is cheaper: owning costs {needed} an hour, renting {capacity}",
            "over_by": "Owning costs {over} more per hour",
            "summary_fits": "owning costs {needed} ({breakdown}), less than the {capacity} rental price",
            "summary_over": "owning costs {needed} ({breakdown}), more than the {capacity} rental price",
        },
    },
]


ASSUMPTIONS: list[str] = [
    "The purchase is repaid in equal yearly amounts over the depreciation period at the cost of capital (an annuity); resale value at the end, taxes and the timing of depreciation in the accounts are left out.",
    "Electricity is counted only while the accelerator is busy: idle power, which the model leaves out, makes owning dearer than shown when utilisation is low.",
    "Every price here is an illustrative assumption, not a quote: rental prices have moved by half or more within a year, so put in current ones.",
    "Committed rental capacity is paid for every hour of its term; on-demand capacity is assumed available whenever it is wanted, which for large blocks of the newest accelerators it often is not.",
    "A depreciation period is an accounting estimate: large operators book servers over 5 to 6 years, while new accelerator generations arrive every year or two and can cut what older ones earn.",
]


def capital_recovery_factor(rate: float, years: float) -> float:
    """Equal yearly payment per dollar repaid over ``years`` at ``rate``: r(1 + r)^N / ((1 + r)^N − 1)."""
    growth_less_one = math.expm1(years * math.log1p(rate))  # (1 + r)^N − 1, exact for tiny r
    if growth_less_one == 0:
        return 1 / years
    return rate * (growth_less_one + 1) / growth_less_one


def payback_years(price: float, saving_per_year: float, rate: float) -> float | None:
    """Years until discounted yearly savings repay ``price`` (None if they never do)."""
    if saving_per_year <= 0:
        return None
    if math.log1p(rate) == 0:
        return price / saving_per_year
    interest_share = price * rate / saving_per_year  # of each year's saving, what interest takes
    return -math.log1p(-interest_share) / math.log1p(rate) if interest_share < 1 else None


def range_notes(result: dict) -> list[str]:
    """One sentence for each way these inputs leave the range where the model holds."""
    notes = []
    if result["lifetime_years"] > 6:
        notes.append(
            "This depreciation period is longer than the 5 to 6 years large operators book servers over; "
            "newer accelerators may cut what these earn before it ends.")
    months, period = result["break_even_months"], 12 * result["lifetime_years"]
    if months is None:
        notes.append("Renting's savings never repay the purchase at this cost of capital: "
                     "the break-even is never, however long the hardware lasts.")
    elif months > period:
        notes.append(f"The purchase would pay for itself only after {months:.0f} months, beyond its "
                     f"{period:.0f}-month depreciation period: the model assumes the hardware earns "
                     "nothing after that, so within its life renting is cheaper.")
    if result["utilisation"] < 0.3:
        notes.append(
            "At this low utilisation the idle power the model leaves out is a larger part of the "
            "electricity bill, so owning costs more than shown.")
    return notes


def compute(
    *,
    purchase_price: float,
    lifetime_years: float,
    cost_of_capital: float,
    power: float,
    pue: float,
    electricity_price: float,
    operations_share: float,
    utilisation: float,
    rental_terms: str,
    rental_price: float,
    run_hours: float,
    run_days: float,
) -> dict:
    """Cost per busy accelerator-hour of owning against renting, the break-even, and one run's bill.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    purchase_price = positive("purchase_price", purchase_price)
    lifetime_years = positive("lifetime_years", lifetime_years)
    cost_of_capital = in_range("cost_of_capital", cost_of_capital, 0, 1)
    power = at_least("power", power, 0)
    pue = at_least("pue", pue, 1)
    electricity_price = at_least("electricity_price", electricity_price, 0)
    operations_share = in_range("operations_share", operations_share, 0, 1)
    utilisation = in_range("utilisation", utilisation, 0, 1, open_low=True)
    rental_terms = one_of("rental_terms", rental_terms, RENTAL_TERMS)
    rental_price = positive("rental_price", rental_price)
    run_hours = positive("run_hours", run_hours)
    run_days = positive("run_days", run_days)

    busy_hours_per_year = HOURS_PER_YEAR * utilisation
    factor = capital_recovery_factor(cost_of_capital, lifetime_years)
    capital_per_year = purchase_price * factor
    purchase_per_hour = capital_per_year / busy_hours_per_year
    electricity_per_hour = power / WATTS_PER_KILOWATT * pue * electricity_price
    operations_per_year = purchase_price * operations_share
    operations_per_hour = operations_per_year / busy_hours_per_year
    own_per_hour = purchase_per_hour + electricity_per_hour + operations_per_hour

    # Committed capacity is paid for every hour of the term, busy or idle.
    rent_per_busy_hour = rental_price if rental_terms == "on_demand" else rental_price / utilisation
    saving_per_year = (rent_per_busy_hour - electricity_per_hour) * busy_hours_per_year - operations_per_year
    years = payback_years(purchase_price, saving_per_year, cost_of_capital)

    run_accelerators = max(1, math.ceil(run_hours / (24 * run_days) * (1 - 1e-12)))  # whole accelerators

    result = {
        "purchase_price": purchase_price,
        "lifetime_years": lifetime_years,
        "cost_of_capital": cost_of_capital,
        "power": power,
        "pue": pue,
        "electricity_price": electricity_price,
        "operations_share": operations_share,
        "utilisation": utilisation,
        "rental_terms": rental_terms,
        "rental_price": rental_price,
        "run_hours": run_hours,
        "run_days": run_days,
        "capital_recovery_factor": factor,
        "capital_per_year": capital_per_year,
        "purchase_per_hour": purchase_per_hour,
        "electricity_per_hour": electricity_per_hour,
        "operations_per_hour": operations_per_hour,
        "own_per_hour": own_per_hour,
        "rent_per_busy_hour": rent_per_busy_hour,
        "buying_cheaper": own_per_hour < rent_per_busy_hour,
        "monthly_saving": saving_per_year / 12,
        "break_even_months": None if years is None else 12 * years,
        "run_rent_cost": run_hours * rent_per_busy_hour,
        "run_own_cost": run_hours * own_per_hour,
        "run_accelerators": run_accelerators,
        "run_purchase": run_accelerators * purchase_price,
    }
    result["notes"] = range_notes(result)
    return result
