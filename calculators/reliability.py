"""How much of a big training run survives failures, and what does the whole run cost?

The arithmetic of the "GPU clusters & orchestration" card beyond D4 (D5): what the parallelism
calculator leaves out. A job spread over many machines stops whenever any one of them fails,
so its mean time between failures (MTBF) is one machine's MTBF divided by the number of
machines. The job saves a checkpoint every ``interval``; after a failure it loses the work
since the last checkpoint and the time to restart. Young's first-order optimum interval is
sqrt(2 × checkpoint time × MTBF) (Young, 1974).

The model is first order, as in Young (1974) and the first model of Daly (2006): failures are
counted per hour of useful work, and each one costs the restart time plus, on average, half
an interval and half a checkpoint of redone work. So, per hour of useful work, the run spends

    1 + checkpoint/interval + (restart + (interval + checkpoint)/2) / MTBF

hours of wall-clock time. It is optimistic once failures come about as often as a checkpoint
cycle plus a restart takes (Daly's fuller model then applies); it never gives a negative or
infinite time, so every state the form can reach has an answer.

Cost is accelerator-hours × price per accelerator-hour; the projection multiplies by the
growth factor per year (about 2.4 for frontier runs since 2016, Cottier et al., 2024).

Base units: seconds, accelerator-hours, US dollars. Standard library only (plus the shared
input checks in ``calculators._checks``); knows nothing of HTML. The user interface is
declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import at_least, finite_number, one_of, positive, whole_count

SECONDS_PER_HOUR = 3_600
SECONDS_PER_DAY = 86_400
NODE_DAYS_PER_RATE_UNIT = 1_000  # failure rates are given per 1,000 node-days
INTERVAL_RULES = ("young", "fixed")

TITLE = "Failures, checkpoints and cost calculator"

INPUTS: list[dict] = [
    {
        "name": "accelerators",
        "label": "Accelerators in the job",
        "unit": "accelerators",
        "control": "slider",
        "min": 8,
        "max": 262144,
        "step": 1,
        "scale": "log",
        # 16,384: the size of the largest Llama 3 training runs (Grattafiori et al., 2024).
        "default": 16384,
        "help": "How many accelerators one synchronous training job uses.",
    },
    {
        "name": "accelerators_per_node",
        "label": "Accelerators per machine",
        "unit": "accelerators",
        "control": "number",
        "min": 1,
        "max": 72,
        "step": 1,
        "scale": "linear",
        "default": 8,
        "help": "Accelerators in one server (node); a failure usually takes a whole node out.",
    },
    {
        "name": "failures_per_1000_node_days",
        "label": "Failure rate",
        "unit": "failures per 1,000 node-days",
        "control": "slider",
        "min": 0.1,
        "max": 100,
        "step": 0.01,
        "scale": "log",
        # 6.5: the rate Kokolis et al. (2024) fitted for RSC-1, the larger of the two Meta
        # research clusters they studied (about 2.3 for the other, RSC-2).
        "default": 6.5,
        "help": "Failures that stop a job, per 1,000 days of one node's running time.",
    },
    {
        "name": "checkpoint_seconds",
        "label": "Time to save a checkpoint",
        "unit": "minutes",
        "factor": 60,
        "control": "number",
        "min": 0.01,
        "max": 600,
        "step": 0.01,
        "scale": "log",
        # Illustrative: how long the job pauses to write its state; set your own.
        "default": 120,
        "help": "How long training pauses each time it saves its state, in minutes (an assumption: set your own).",
    },
    {
        "name": "restart_seconds",
        "label": "Time to restart after a failure",
        "unit": "minutes",
        "factor": 60,
        "control": "number",
        "min": 0,
        "max": 1440,
        "step": 0.1,
        "scale": "linear",
        # Illustrative: detect the fault, swap or exclude the node, reload the checkpoint.
        "default": 600,
        "help": "From a failure to training again: find the fault, replace the node, reload (an assumption).",
    },
    {
        "name": "interval_rule",
        "label": "Checkpoint interval",
        "unit": "",
        "control": "select",
        "default": "young",
        "help": "Save at Young's optimum interval, or at the fixed interval below.",
        "options": [
            {"value": "young", "label": "Young's optimum √(2 × save time × MTBF)"},
            {"value": "fixed", "label": "Fixed interval (below)"},
        ],
    },
    {
        "name": "fixed_interval_seconds",
        "label": "Fixed checkpoint interval",
        "unit": "minutes",
        "factor": 60,
        "control": "number",
        "min": 0.1,
        "max": 10080,
        "step": 0.1,
        "scale": "log",
        "default": 3600,
        "help": "Training time between two checkpoints when the interval is fixed, in minutes.",
    },
    {
        "name": "work_accelerator_hours",
        "label": "Work without failures",
        "unit": "million accelerator-hours",
        "factor": 1e6,
        "control": "slider",
        "min": 0.001,
        "max": 1000,
        "step": 0.001,
        "scale": "log",
        # 4.42 million: the 70B, 15-trillion-token run of D3/D4 at 40 % of an H100's peak.
        "default": 4.42e6,
        "help": "Accelerator-hours the run would need if nothing ever failed (the parallelism calculator's answer).",
    },
    {
        "name": "price_per_accelerator_hour",
        "label": "Price per accelerator-hour",
        "unit": "US dollars",
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "log",
        # Illustrative: an order-of-magnitude rental price for a data-centre GPU; set your own.
        "default": 2,
        "help": "What one accelerator costs per hour, rented or amortised (an assumption: set your own).",
    },
    {
        "name": "growth_per_year",
        "label": "Cost growth per year",
        "unit": "× per year",
        "control": "number",
        "min": 0.1,
        "max": 10,
        "step": 0.1,
        "scale": "linear",
        # 2.4: growth of the amortised cost of frontier training runs since 2016 (Cottier et al., 2024).
        "default": 2.4,
        "help": "How many times dearer the frontier run becomes each year (about 2.4 since 2016).",
    },
    {
        "name": "years_ahead",
        "label": "Years ahead",
        "unit": "years",
        "control": "slider",
        "min": 0,
        "max": 10,
        "step": 1,
        "scale": "linear",
        "default": 3,
        "help": "How many years of that growth to project the cost forward.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "nodes", "label": "Machines (nodes) in the job", "unit": "", "format": "integer"},
    {"name": "job_mtbf_hours", "announce": True, "label": "Mean time between job failures", "unit": "hours", "format": "number"},
    {"name": "failures", "label": "Failures expected during the run", "unit": "failures", "format": "number"},
    {"name": "young_interval_minutes", "label": "Young's optimum interval", "unit": "minutes", "format": "number"},
    {"name": "interval_minutes", "label": "Interval used", "unit": "minutes", "format": "number"},
    {"name": "effective_share", "announce": True, "label": "Share of time spent training", "unit": "", "format": "percent"},
    {"name": "checkpoint_share", "label": "Share spent saving checkpoints", "unit": "", "format": "percent"},
    {"name": "redone_share", "label": "Share spent redoing lost work", "unit": "", "format": "percent"},
    {"name": "restart_share", "label": "Share spent restarting", "unit": "", "format": "percent"},
    {"name": "failure_free_days", "label": "Run time if nothing failed", "unit": "", "format": "days"},
    {"name": "wall_days", "label": "Run time with failures", "unit": "", "format": "days"},
    {"name": "accelerator_hours", "label": "Accelerator-hours paid for", "unit": "accelerator-hours", "format": "number"},
    {"name": "cost", "announce": True, "label": "Cost of the run", "unit": "", "format": "usd"},
    {"name": "projected_cost", "label": "Cost after that many years of growth", "unit": "", "format": "usd"},
]

PRESETS: list[dict] = [
    {
        "name": "failure_rate",
        "label": "Failure rate measured",
        "fields": ["failures_per_1000_node_days"],
        "options": [
            {
                "id": "rsc-1",
                "label": "Meta RSC-1 research cluster (6.5 per 1,000 node-days)",
                "values": {"failures_per_1000_node_days": 6.5},
                "source": "kokolis2024",
            },
            {
                "id": "rsc-2",
                "label": "Meta RSC-2 research cluster (2.34 per 1,000 node-days)",
                "values": {"failures_per_1000_node_days": 2.34},
                "source": "kokolis2024",
            },
        ],
    },
]

SOURCES: list[dict] = [
    {
        "id": "kokolis2024",
        "title": "Revisiting Reliability in Large-Scale Machine Learning Research Clusters",
        "authors": "Kokolis, Kuchnik, Hoffman, Kumar et al.",
        "date": "2024-10-29",
        "url": "https://arxiv.org/abs/2410.21680",
    },
    {
        "id": "young1974",
        "title": "A first order approximation to the optimum checkpoint interval",
        "authors": "John W. Young",
        "date": "1974-09",
        "url": "https://doi.org/10.1145/361147.361115",
    },
    {
        "id": "daly2006",
        "title": "A higher order estimate of the optimum checkpoint interval for restart dumps",
        "authors": "John T. Daly",
        "date": "2006",
        "url": "https://doi.org/10.1016/j.future.2004.11.016",
    },
    {
        "id": "cottier2024",
        "title": "The rising costs of training frontier AI models",
        "authors": "Cottier, Rahman, Fattorini, Maslej et al.",
        "date": "2024-05-31",
        "url": "https://arxiv.org/abs/2405.21015",
    },
]

FIGURES: list[dict] = [
    {
        "name": "time",
        "kind": "share_bar",
        "title": "Where the run's time goes",
        "parts": [
            {"value": "effective_share", "label": "Training"},
            {"value": "checkpoint_share", "label": "Saving"},
            {"value": "redone_share", "label": "Redoing"},
            {"value": "restart_share", "label": "Restarting"},
        ],
    },
]


def _whole_years(name: str, value: object) -> int:
    """A number of years: a whole number ≥ 0."""
    number = finite_number(name, value)
    if number < 0 or not number.is_integer():
        raise ValueError(f"{name} must be a whole number ≥ 0 (got {value})")
    return int(number)


def job_mtbf_seconds(nodes: int, failures_per_1000_node_days: float) -> float:
    """Mean time between failures of a job on ``nodes`` machines: one node's MTBF ÷ nodes."""
    node_mtbf = NODE_DAYS_PER_RATE_UNIT / failures_per_1000_node_days * SECONDS_PER_DAY
    return node_mtbf / nodes


def young_interval(checkpoint_seconds: float, mtbf_seconds: float) -> float:
    """Young's first-order optimum time between checkpoints: sqrt(2 × checkpoint time × MTBF)."""
    return math.sqrt(2 * checkpoint_seconds * mtbf_seconds)


def time_shares(interval: float, checkpoint: float, restart: float, mtbf: float) -> dict[str, float]:
    """Shares of wall-clock time (summing to 1): training, saving, redoing lost work, restarting.

    Per unit of useful work the run spends 1 + δ/τ + (R + (τ + δ)/2)/M; each term's share is
    the term divided by that sum.
    """
    saving = checkpoint / interval
    redoing = (interval + checkpoint) / 2 / mtbf
    restarting = restart / mtbf
    total = 1 + saving + redoing + restarting
    return {
        "effective_share": 1 / total,
        "checkpoint_share": saving / total,
        "redone_share": redoing / total,
        "restart_share": restarting / total,
    }


def compute(
    *,
    accelerators: int,
    accelerators_per_node: int,
    failures_per_1000_node_days: float,
    checkpoint_seconds: float,
    restart_seconds: float,
    interval_rule: str,
    fixed_interval_seconds: float,
    work_accelerator_hours: float,
    price_per_accelerator_hour: float,
    growth_per_year: float,
    years_ahead: int,
) -> dict:
    """Job MTBF, checkpoint interval, share of time spent training, run time and cost.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    accelerators = whole_count("accelerators", accelerators)
    accelerators_per_node = whole_count("accelerators_per_node", accelerators_per_node)
    rate = positive("failures_per_1000_node_days", failures_per_1000_node_days)
    checkpoint = positive("checkpoint_seconds", checkpoint_seconds)
    restart = at_least("restart_seconds", restart_seconds, 0)
    rule = one_of("interval_rule", interval_rule, INTERVAL_RULES)
    fixed_interval = positive("fixed_interval_seconds", fixed_interval_seconds)
    work = positive("work_accelerator_hours", work_accelerator_hours)
    price = at_least("price_per_accelerator_hour", price_per_accelerator_hour, 0)
    growth = positive("growth_per_year", growth_per_year)
    years = _whole_years("years_ahead", years_ahead)

    nodes = math.ceil(accelerators / accelerators_per_node)
    mtbf = job_mtbf_seconds(nodes, rate)
    young = young_interval(checkpoint, mtbf)
    interval = young if rule == "young" else fixed_interval
    shares = time_shares(interval, checkpoint, restart, mtbf)

    failure_free_seconds = work / accelerators * SECONDS_PER_HOUR
    wall_seconds = failure_free_seconds / shares["effective_share"]
    accelerator_hours = wall_seconds / SECONDS_PER_HOUR * accelerators
    cost = accelerator_hours * price

    return {
        "accelerators": accelerators,
        "accelerators_per_node": accelerators_per_node,
        "failures_per_1000_node_days": rate,
        "checkpoint_seconds": checkpoint,
        "restart_seconds": restart,
        "interval_rule": rule,
        "fixed_interval_seconds": fixed_interval,
        "work_accelerator_hours": work,
        "price_per_accelerator_hour": price,
        "growth_per_year": growth,
        "years_ahead": years,
        "nodes": nodes,
        "job_mtbf_seconds": mtbf,
        "job_mtbf_hours": mtbf / SECONDS_PER_HOUR,
        # First order: failures are counted per hour of useful work (Young 1974; Daly 2006).
        "failures": failure_free_seconds / mtbf,
        "young_interval_seconds": young,
        "young_interval_minutes": young / 60,
        "interval_seconds": interval,
        "interval_minutes": interval / 60,
        **shares,
        "failure_free_days": failure_free_seconds / SECONDS_PER_DAY,
        "wall_days": wall_seconds / SECONDS_PER_DAY,
        "accelerator_hours": accelerator_hours,
        "cost": cost,
        "projected_cost": cost * growth**years,
    }
