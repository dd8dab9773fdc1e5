"""How much of a big training run survives failures, and what does the whole run cost?

The arithmetic of the "GPU clusters & orchestration" card beyond D4 (D5): what the parallelism
calculator leaves out. A job spread over many machines stops whenever any one of them fails,
so its mean time between failures (MTBF) M is one machine's MTBF divided by the number of
machines (Kokolis et al., IEEE HPCA 2025, project job MTTF the same way from the node failure
rate they measured on Meta's A100 research clusters). The job computes for an interval τ, then
pauses for a time δ to save a checkpoint; after a failure it restarts, which takes a time R
(find the fault, replace or exclude the machine, reload the last checkpoint), and redoes the
work lost since that checkpoint.

Daly's model (Daly 2006, "A higher order estimate of the optimum checkpoint interval for
restart dumps", FGCS 22(3)). Failures arrive at random at rate 1/M (exponential times between
failures, so the past says nothing about the next one), and they can strike while computing,
while saving and while restarting. One segment of τ + δ must then run uninterrupted to be kept.
The expected wall-clock time to finish useful work Ts is

    T_w = M · e^{R/M} · (e^{(τ+δ)/M} − 1) · Ts / τ

and the share of wall-clock time spent training is Ts / T_w. This is exact for the model
above: the number of attempts at a segment is geometric (each survives with probability
e^{−(τ+δ)/M}), each failed attempt loses the time it ran, and each failure is followed by a
restart that itself starts over if a failure interrupts it (expected time M(e^{R/M} − 1)).

How the shares of wall-clock time are derived (they sum to 1 exactly). Write x = (τ+δ)/M,
r = R/M and q = x / (e^x − 1), the fraction of the time spent attempting segments that ends
in a kept segment. Per segment the run spends, in expectation,

    kept segment:         τ + δ                       (training τ, saving δ)
    lost attempts:        M(e^x − 1) − (τ + δ)          (work, and saves, cut short by a failure)
    restarting:           M(e^x − 1)(e^r − 1)          (restarts, including interrupted ones)
    total:                M e^r (e^x − 1)              (= Daly's T_w for one segment)

so restart_share = 1 − e^{−r}, redone_share = e^{−r}(1 − q), and training and saving split
the remaining e^{−r}·q in the ratio τ : δ. Failures during the run: a Poisson process of rate
1/M over the whole wall-clock time, so wall time ÷ M (failures during restarts included).

Checkpoint intervals. Young's first-order optimum is √(2δM) (Young 1974). Daly's higher-order
estimate is √(2δM)·[1 + (1/3)√(δ/(2M)) + (1/9)(δ/(2M))] − δ for δ < 2M, and M otherwise
(Daly 2006). The exact optimum of T_w solves (1 − τ/M)·e^{τ/M} = e^{−δ/M}, found by
Newton's method in u = −ln(1 − τ/M), where the equation is u − 1 + e^{−u} = δ/M (convex and
increasing in u, so Newton converges from any start; a handful of iterations). R does not move
any of the three: it multiplies T_w by e^{R/M} whatever the interval.

Cost is accelerator-hours × price per accelerator-hour; the projection multiplies by the
growth factor per year (about 2.4 for frontier runs since 2016, Cottier et al., 2024).

Base units: seconds, accelerator-hours, US dollars. Standard library only (plus the shared
input checks in ``calculators._checks``); knows nothing of HTML. The user interface is
declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._datasheets import shared_sources
from calculators._checks import at_least, finite_number, one_of, positive, whole_count

SECONDS_PER_HOUR = 3_600
SECONDS_PER_DAY = 86_400
NODE_DAYS_PER_RATE_UNIT = 1_000  # failure rates are given per 1,000 node-days
INTERVAL_RULES = ("daly", "optimum", "young", "fixed")
NEWTON_STEPS = 60  # upper bound; the exact optimum converges in a handful of steps
LARGEST_EXPONENT = 700.0  # e^700 ≈ 1e304: beyond it a ratio is reported as infinite

# Where the model stops holding (thresholds of the notes compute() returns).
CYCLE_SHARE_OF_MTBF = 0.5  # interval + save + restart above half the job's MTBF
LOW_TRAINING_SHARE = 0.5  # less than half the wall-clock time trains
FEW_MACHINES = 16  # too few machines for their failures to merge into a memoryless stream

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
        # 8: an HGX/DGX server, as in the clusters Kokolis et al. and Llama 3 describe.
        "default": 8,
        "help": "Accelerators in one server (node); a failure is counted as taking a whole node, and the job, down.",
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
        # 6.5: the rate Kokolis et al. (HPCA 2025) measured on RSC-1, the larger of the two Meta
        # A100 research clusters they studied (2.34 on the other, RSC-2).
        "default": 6.5,
        "help": "Failures that stop a job, per 1,000 days of one node's running time (A100 research clusters: 2.3 to 6.5).",
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
        # Illustrative: a blocking save of the full state to shared storage; set your own.
        # Asynchronous or in-memory saves stall training for seconds instead.
        "default": 120,
        "help": "How long training stalls each time it saves its state, in minutes (an assumption: set your own).",
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
        "help": "From a failure to training again: detect it, replace the node, reload the checkpoint (an assumption).",
    },
    {
        "name": "interval_rule",
        "label": "Checkpoint interval",
        "unit": "",
        "control": "select",
        # Daly's estimate: within a fraction of a percent of the exact optimum wherever the
        # model holds, and the rule the reliability literature recommends (Daly 2006).
        "default": "daly",
        "help": "Save at Daly's or Young's estimate of the best interval, at the exact best one, or at the fixed interval below.",
        "options": [
            {"value": "daly", "label": "Daly's higher-order estimate"},
            {"value": "optimum", "label": "Exact optimum of Daly's model"},
            {"value": "young", "label": "Young's first-order √(2 × save time × MTBF)"},
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
        # 4.42 million: an estimate, not a measurement: 6 × 70e9 parameters × 15e12 tokens at
        # 40 % of an H100's dense BF16 peak (989 TFLOP/s), the 70B run of D3. Meta's model card
        # reports 6.4 million H100 GPU-hours for Llama 3 70B (7.0 million for 3.1 70B): the
        # total GPU time the run took, lower utilisation and lost time included, so not a
        # failure-free figure to start from.
        "default": 4.42e6,
        "help": "Accelerator-hours the run would need if nothing ever failed (the parallelism calculator's estimate).",
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
    {"name": "failures", "label": "Failures expected during the run (wall-clock, restarts included)", "unit": "failures", "format": "number", "endless": True},
    {"name": "daly_interval_minutes", "label": "Daly's estimate of the best interval", "unit": "minutes", "format": "number"},
    {"name": "optimum_interval_minutes", "label": "Exact best interval (Daly's model)", "unit": "minutes", "format": "number"},
    {"name": "young_interval_minutes", "label": "Young's first-order interval", "unit": "minutes", "format": "number"},
    {"name": "interval_minutes", "label": "Interval used", "unit": "minutes", "format": "number"},
    {"name": "effective_share", "announce": True, "label": "Share of wall-clock time spent training", "unit": "", "format": "percent"},
    {"name": "checkpoint_share", "label": "Share spent saving checkpoints", "unit": "", "format": "percent"},
    {"name": "redone_share", "label": "Share spent on work lost to failures", "unit": "", "format": "percent"},
    {"name": "restart_share", "label": "Share spent restarting", "unit": "", "format": "percent"},
    {"name": "failure_free_days", "label": "Run time if nothing failed", "unit": "", "format": "days"},
    {"name": "wall_days", "label": "Run time with failures", "unit": "", "format": "days", "endless": True},
    {"name": "accelerator_hours", "label": "Accelerator-hours paid for", "unit": "accelerator-hours", "format": "number", "endless": True},
    {"name": "extra_accelerator_hours", "label": "Of which lost to saving, failures and restarts", "unit": "accelerator-hours", "format": "number", "endless": True},
    {"name": "cost", "announce": True, "label": "Cost of the run", "unit": "", "format": "usd", "endless": True},
    {"name": "projected_cost", "label": "Cost after that many years of growth", "unit": "", "format": "usd", "endless": True},
]

PRESETS: list[dict] = [
    {
        "name": "failure_rate",
        "label": "Failure rate measured",
        "fields": ["failures_per_1000_node_days"],
        "options": [
            {
                "id": "rsc-1",
                "label": "Meta RSC-1 A100 research cluster (6.5 per 1,000 node-days)",
                "values": {"failures_per_1000_node_days": 6.5},
                "source": "kokolis2024",
            },
            {
                "id": "rsc-2",
                "label": "Meta RSC-2 A100 research cluster (2.34 per 1,000 node-days)",
                "values": {"failures_per_1000_node_days": 2.34},
                "source": "kokolis2024",
            },
            {
                # 419 unexpected interruptions in 54 days on 2,048 eight-GPU H100 machines:
                # 419 / (54 × 2,048) × 1,000 = 3.789 per 1,000 node-days.
                "id": "llama3-405b",
                "label": "Llama 3 405B pre-training, H100 (3.79 per 1,000 node-days)",
                "values": {"failures_per_1000_node_days": 3.789},
                "source": "grattafiori2024",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("grattafiori2024"),
    {
        "id": "kokolis2024",
        "kind": "paper",
        "title": "Revisiting Reliability in Large-Scale Machine Learning Research Clusters",
        "authors": "Kokolis, Kuchnik, Hoffman, Kumar et al.",
        "date": "2025-03",
        "url": "https://arxiv.org/abs/2410.21680",
        "note": "IEEE HPCA 2025 (doi 10.1109/HPCA61900.2025.00096); arXiv 2024-10-29. A100 research clusters.",
    },
    {
        "id": "young1974",
        "kind": "paper",
        "title": "A first order approximation to the optimum checkpoint interval",
        "authors": "John W. Young",
        "date": "1974-09",
        "url": "https://doi.org/10.1145/361147.361115",
    },
    {
        "id": "daly2006",
        "kind": "paper",
        "title": "A higher order estimate of the optimum checkpoint interval for restart dumps",
        "authors": "John T. Daly",
        "date": "2006",
        "url": "https://doi.org/10.1016/j.future.2004.11.016",
    },
    {
        "id": "cottier2024",
        "kind": "paper",
        "title": "The rising costs of training frontier AI models",
        "authors": "Cottier, Rahman, Fattorini, Maslej et al.",
        "date": "2024-05-31",
        "url": "https://arxiv.org/abs/2405.21015",
    },
]

ASSUMPTIONS: list[str] = [
    "Failures arrive at random at a constant rate, with exponentially distributed times between "
    "them (memoryless): real fleets also see bursts after repairs, lemon machines that fail again "
    "and again, and failures that take out many machines at once, such as a switch.",
    "Every failure takes one whole machine and with it the whole synchronous job down; the job "
    "then restarts from its last checkpoint, and the restart time includes finding the fault, "
    "replacing or excluding the machine and reloading the checkpoint.",
    "Each checkpoint stalls training for the whole save time and is written to storage that "
    "survives the failure: asynchronous saves shrink the stall to the time to copy the state "
    "out of accelerator memory, and in-memory copies kept on other machines shrink the restart "
    "to reloading from a neighbour; set the two times accordingly.",
    "The default failure rates were measured on Meta's A100 research clusters (Kokolis et al., "
    "HPCA 2025), whose job MTBF projection divides one node's MTBF by the number of nodes, as "
    "this calculator does; newer accelerators, larger machines and other operators may fail "
    "more or less often.",
    "The measured job MTTF of Kokolis et al. at 1,024 GPUs (7.9 hours) is about a quarter of "
    "what the node rate alone implies (28.8 hours), so the node rate is a best case for jobs "
    "of that size: jobs also stop for reasons it does not count.",
    "Reported effective training times (more than 90 % for Llama 3, 97 % for ByteRobust on "
    "9,600 GPUs) cannot be checked against this model without published save and restart times, "
    "and those systems also restart in place, keep warm standby machines and save asynchronously.",
    "Meta's model card reports 6.4 million H100 GPU-hours for Llama 3 70B: a measured total, which "
    "also holds utilisation below the 40 % that the default work assumes, so the calculator does "
    "not reproduce it from the failure-free estimate.",
    "The numbers are expectations over many runs: one run that expects few failures will "
    "usually see none, or one that costs far more than the average; stragglers, silent data "
    "corruption and slow steps are left out.",
]

FIGURES: list[dict] = [
    {
        "name": "time",
        "kind": "share_bar",
        "title": "Where the run's time goes",
        "parts": [
            {"value": "effective_share", "label": "Training"},
            {"value": "checkpoint_share", "label": "Saving"},
            {"value": "redone_share", "label": "Lost work"},
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


def daly_interval(checkpoint_seconds: float, mtbf_seconds: float) -> float:
    """Daly's higher-order estimate of the optimum interval (Daly 2006); M once δ ≥ 2M."""
    if checkpoint_seconds >= 2 * mtbf_seconds:
        return mtbf_seconds
    ratio = checkpoint_seconds / (2 * mtbf_seconds)
    correction = 1 + math.sqrt(ratio) / 3 + ratio / 9
    return young_interval(checkpoint_seconds, mtbf_seconds) * correction - checkpoint_seconds


def optimum_interval(checkpoint_seconds: float, mtbf_seconds: float) -> float:
    """The interval τ that minimises Daly's wall time: the root of (1 − τ/M)·e^{τ/M} = e^{−δ/M}.

    With u = −ln(1 − τ/M) the equation reads k(u) = u − 1 + e^{−u} − δ/M = 0, convex and
    increasing for u > 0, so Newton's method converges from any positive start (after one
    step it approaches the root from above). Started from Daly's estimate it needs a few steps.
    """
    d = checkpoint_seconds / mtbf_seconds
    start = daly_interval(checkpoint_seconds, mtbf_seconds) / mtbf_seconds
    u = -math.log1p(-start) if start < 0.5 else d + 1  # d + 1 lies above the root: k(d + 1) > 0
    for _ in range(NEWTON_STEPS):
        step = (u + math.expm1(-u) - d) / -math.expm1(-u)
        u -= step
        if abs(step) <= 1e-15 * u:
            break
    return -mtbf_seconds * math.expm1(-u)


def time_shares(interval: float, checkpoint: float, restart: float, mtbf: float) -> dict[str, float]:
    """Shares of wall-clock time in Daly's exponential model (summing to 1): training, saving,
    work lost to failures, restarting. See the module docstring for the derivation.

    Written with x = (τ + δ)/M and r = R/M so that no term overflows, however large x and r:
    restart 1 − e^{−r}; lost work e^{−r}(1 − q); training and saving e^{−r}·q split τ : δ,
    where q = x/(e^x − 1) = x·e^{−x}/(1 − e^{−x}).
    """
    x = (interval + checkpoint) / mtbf
    kept = math.exp(-restart / mtbf)  # share of wall time not spent restarting
    attempt_kept = x * math.exp(-x) / -math.expm1(-x)  # q
    segment = kept * attempt_kept
    return {
        "effective_share": segment * interval / (interval + checkpoint),
        "checkpoint_share": segment * checkpoint / (interval + checkpoint),
        "redone_share": kept * (1 - attempt_kept),
        "restart_share": -math.expm1(-restart / mtbf),
    }


def wall_per_useful(interval: float, checkpoint: float, restart: float, mtbf: float) -> float:
    """Daly's T_w / Ts = M·e^{R/M}·(e^{(τ+δ)/M} − 1)/τ, or infinity when it exceeds ~1e304.

    Computed as a logarithm first: ln(M/τ) + R/M + ln(e^x − 1), with ln(e^x − 1) = x + ln(1 − e^{−x}).
    """
    x = (interval + checkpoint) / mtbf
    log_ratio = math.log(mtbf / interval) + restart / mtbf + x + math.log(-math.expm1(-x))
    return math.exp(log_ratio) if log_ratio < LARGEST_EXPONENT else math.inf


def model_notes(*, interval: float, checkpoint: float, restart: float, mtbf: float,
                nodes: int, effective_share: float, failures: float) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model is a fair guide."""
    notes = []
    cycle = interval + checkpoint + restart
    if cycle > CYCLE_SHARE_OF_MTBF * mtbf:
        notes.append(
            f"Interval, save and restart together take {cycle / mtbf:.2g} times the job's MTBF: the job "
            "fails about as often as it can save and restart, so most of its time goes to lost work and "
            "restarts; shorten the save or the restart (asynchronous or in-memory checkpoints), or run "
            "on fewer machines.")
    if effective_share < LOW_TRAINING_SHARE:
        shown = f"{effective_share * 100:.3g} %" if effective_share >= 0.001 else "almost none"
        notes.append(
            f"Less than half of the wall-clock time trains ({shown}): no real run would be left like "
            "this, and how the operator reacts (spares, faster restarts, smaller jobs) matters more "
            "than this average.")
    if nodes < FEW_MACHINES:
        notes.append(
            f"With only {nodes} machines, their failures do not merge into a memoryless stream: each "
            "machine's own pattern (early failures after a repair, wear) shows, so treat the "
            "exponential model as a rough guide.")
    if failures < 1:
        notes.append(
            f"Fewer than one failure is expected ({failures:.2g}): the shares are averages over many "
            "runs; a single run most likely sees no failure, or one that costs more than the average.")
    return notes


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
    """Job MTBF, checkpoint intervals, where the wall-clock time goes, run time and cost.

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
    intervals = {
        "daly": daly_interval(checkpoint, mtbf),
        "optimum": optimum_interval(checkpoint, mtbf),
        "young": young_interval(checkpoint, mtbf),
        "fixed": fixed_interval,
    }
    interval = intervals[rule]
    shares = time_shares(interval, checkpoint, restart, mtbf)

    failure_free_seconds = work / accelerators * SECONDS_PER_HOUR
    wall_seconds = failure_free_seconds * wall_per_useful(interval, checkpoint, restart, mtbf)
    accelerator_hours = wall_seconds / SECONDS_PER_HOUR * accelerators
    cost = accelerator_hours * price if price else 0.0
    failures = wall_seconds / mtbf  # a Poisson stream of rate 1/M over the whole wall-clock time

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
        "failures": failures,
        "young_interval_seconds": intervals["young"],
        "young_interval_minutes": intervals["young"] / 60,
        "daly_interval_seconds": intervals["daly"],
        "daly_interval_minutes": intervals["daly"] / 60,
        "optimum_interval_seconds": intervals["optimum"],
        "optimum_interval_minutes": intervals["optimum"] / 60,
        "interval_seconds": interval,
        "interval_minutes": interval / 60,
        **shares,
        "failure_free_days": failure_free_seconds / SECONDS_PER_DAY,
        "wall_days": wall_seconds / SECONDS_PER_DAY,
        "accelerator_hours": accelerator_hours,
        "extra_accelerator_hours": accelerator_hours - work,
        "cost": cost,
        "projected_cost": cost * growth**years if cost else 0.0,
        "notes": model_notes(interval=interval, checkpoint=checkpoint, restart=restart, mtbf=mtbf,
                             nodes=nodes, effective_share=shares["effective_share"], failures=failures),
    }
