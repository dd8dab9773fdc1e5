"""Rent accelerators by the hour, or buy them? (The rent-or-buy calculator.)

The arithmetic of the "GPU clouds & neoclouds" card (D4). Owning costs, per hour an accelerator
is actually busy:

    purchase    = price / (lifetime_years × 8,760 h × utilisation)
    electricity = power × PUE × electricity price            (drawn while busy; idle draw ignored)
    operations  = price × operations share per year / (8,760 h × utilisation)

Renting costs the rental price for each busy hour and nothing when idle. The purchase pays for
itself once the monthly saving, (rental − electricity) × busy hours − operations, has added up to
the price: the break-even. A training run of H accelerator-hours costs H × price per hour either
way; finishing it in D days needs H / (24 D) accelerators, which would cost that many times the
purchase price to buy outright.

Every price here is an illustrative assumption for exploring the trade-off, never a quote.
Standard library only; knows nothing of HTML. Base units: US dollars, watts, hours.
"""

from __future__ import annotations

import math

from calculators._checks import at_least, in_range, positive

HOURS_PER_YEAR = 8_760
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730
WATTS_PER_KILOWATT = 1_000

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
        "label": "Years to write it off over",
        "unit": "years",
        "control": "slider",
        "min": 1,
        "max": 10,
        "step": 0.5,
        "scale": "linear",
        "default": 4,
        "help": "How many years of service the purchase price is spread over.",
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
    {"name": "purchase_per_hour", "label": "Purchase, per busy hour", "unit": "", "format": "usd"},
    {"name": "electricity_per_hour", "label": "Electricity, per busy hour", "unit": "", "format": "usd"},
    {"name": "operations_per_hour", "label": "Other running costs, per busy hour", "unit": "", "format": "usd"},
    {"name": "own_per_hour", "announce": True, "label": "Owning, per busy accelerator-hour", "unit": "", "format": "usd"},
    {"name": "buying_cheaper", "announce": True, "label": "Owning costs less than renting", "unit": "", "format": "yesno"},
    {"name": "break_even_months", "announce": True, "label": "Break-even after", "unit": "", "format": "months"},
    {"name": "run_rent_cost", "label": "One run, rented", "unit": "", "format": "usd"},
    {"name": "run_own_cost", "label": "One run, on owned hardware (written-off share)", "unit": "", "format": "usd"},
    {"name": "run_accelerators", "label": "Accelerators to finish in time", "unit": "", "format": "integer"},
    {"name": "run_purchase", "label": "Buying those accelerators outright", "unit": "", "format": "usd"},
]

PRESETS: list[dict] = [
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
        "id": "nvidia-dgx-h100-guide",
        "title": "NVIDIA DGX H100/H200 User Guide: Introduction (power specifications)",
        "authors": "NVIDIA",
        "date": "2024",
        "url": "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
    },
    {
        "id": "nvidia-dgx-b200-guide",
        "title": "NVIDIA DGX B200 User Guide: Introduction (power specifications)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
    },
    {
        "id": "llama31-model-card",
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
            {"value": "purchase_per_hour", "label": "Purchase"},
            {"value": "electricity_per_hour", "label": "Electricity"},
            {"value": "operations_per_hour", "label": "Other running costs"},
        ],
        "capacity": "rental_price",
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


def compute(
    *,
    purchase_price: float,
    lifetime_years: float,
    power: float,
    pue: float,
    electricity_price: float,
    operations_share: float,
    utilisation: float,
    rental_price: float,
    run_hours: float,
    run_days: float,
) -> dict:
    """Cost per busy accelerator-hour of owning against renting, the break-even, and one run's bill.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    purchase_price = positive("purchase_price", purchase_price)
    lifetime_years = positive("lifetime_years", lifetime_years)
    power = at_least("power", power, 0)
    pue = at_least("pue", pue, 1)
    electricity_price = at_least("electricity_price", electricity_price, 0)
    operations_share = in_range("operations_share", operations_share, 0, 1)
    utilisation = in_range("utilisation", utilisation, 0, 1, open_low=True)
    rental_price = positive("rental_price", rental_price)
    run_hours = positive("run_hours", run_hours)
    run_days = positive("run_days", run_days)

    busy_hours_per_year = HOURS_PER_YEAR * utilisation
    purchase_per_hour = purchase_price / (lifetime_years * busy_hours_per_year)
    electricity_per_hour = power / WATTS_PER_KILOWATT * pue * electricity_price
    operations_per_year = purchase_price * operations_share
    operations_per_hour = operations_per_year / busy_hours_per_year
    own_per_hour = purchase_per_hour + electricity_per_hour + operations_per_hour

    monthly_saving = (rental_price - electricity_per_hour) * HOURS_PER_MONTH * utilisation - operations_per_year / 12
    break_even_months = purchase_price / monthly_saving if monthly_saving > 0 else None

    run_accelerators = max(1, math.ceil(run_hours / (24 * run_days) * (1 - 1e-12)))  # whole accelerators

    return {
        "purchase_price": purchase_price,
        "lifetime_years": lifetime_years,
        "power": power,
        "pue": pue,
        "electricity_price": electricity_price,
        "operations_share": operations_share,
        "utilisation": utilisation,
        "rental_price": rental_price,
        "run_hours": run_hours,
        "run_days": run_days,
        "purchase_per_hour": purchase_per_hour,
        "electricity_per_hour": electricity_per_hour,
        "operations_per_hour": operations_per_hour,
        "own_per_hour": own_per_hour,
        "buying_cheaper": own_per_hour < rental_price,
        "monthly_saving": monthly_saving,
        "break_even_months": break_even_months,
        "run_rent_cost": run_hours * rental_price,
        "run_own_cost": run_hours * own_per_hour,
        "run_accelerators": run_accelerators,
        "run_purchase": run_accelerators * purchase_price,
    }
