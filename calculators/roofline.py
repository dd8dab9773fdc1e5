"""Is a kernel limited by the chip's arithmetic or by its memory, and how fast can it run?

The arithmetic of the "GPUs and AI accelerators" card (D4), for the kernel that dominates AI
work, a matrix multiply C (m × n) = A (m × k) · B (k × n), on one accelerator:

    FLOPs              = 2 m n k                                   (a multiply and an add per term)
    bytes moved        = (m k + k n + m n) × bytes per number      (A and B read once, C written once)
    intensity I        = FLOPs ÷ bytes moved                       (FLOPs per byte)
    ridge point        = peak FLOP/s ÷ memory bandwidth            (the intensity where the two roofs meet)
    attainable FLOP/s  = min(peak, bandwidth × I)                  (the roofline: Williams, Waterman
                                                                     and Patterson 2009)
    time               = max(FLOPs ÷ peak, bytes ÷ bandwidth)      (= FLOPs ÷ attainable)
    FLOP/s per watt    = FLOP/s ÷ board power                      (at the board's maximum power)
    compute-bound from m ≥ R b k n ÷ (2 k n − R b (k + n))          (R the ridge, b bytes per number;
                                                                     never when the divisor is ≤ 0)

With each matrix moved once the intensity is m n k ÷ ((m k + k n + m n) × b ÷ 2), NVIDIA's formula
for a GEMM (Matrix Multiplication Background User's Guide): n/3 FLOPs per byte for square 16-bit
matrices, about m for a batch of m tokens through a large weight matrix (decode). That is the
best any kernel can do; a real one moves more bytes and reaches less of each roof.

Base units: FLOP, bytes, seconds, watts. Standard library only; knows nothing of HTML. The user
interface is declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import in_range, one_of, positive, whole_count
from calculators._datasheets import ACCELERATORS, accelerator_options, format_options, shared_sources

TERA = 1e12
# Bytes per number the matrices are stored and moved in (block scales of MX and NVFP4 formats left out).
FORMAT_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5}
CURVE_SPAN = 100  # the drawn roofline runs from ridge ÷ 100 to ridge × 100
CURVE_POINTS = 41
NEAR_RIDGE = 2.0  # within a factor 2 of the ridge, neither roof is reached in practice

TITLE = "Roofline calculator: arithmetic intensity, the ridge point and FLOP/s per watt"


def _dimension(name: str, label: str, default: int, help_text: str) -> dict:
    return {"name": name, "label": label, "unit": "", "control": "slider", "min": 1, "max": 1_000_000, "step": 1,
            "scale": "log", "default": default, "help": help_text}


INPUTS: list[dict] = [
    {
        "name": "peak_flops",
        "label": "Peak dense arithmetic in this format",
        "unit": "TFLOP/s",
        "factor": TERA,
        "control": "number",
        "min": 1,
        "max": 100_000,
        "step": 0.1,
        "scale": "log",
        # 989 TFLOP/s: the H100 SXM's dense BF16 rate (1,979 "with sparsity" on the datasheet, halved).
        "default": 989e12,
        "help": "The datasheet's dense (not sparse) matrix rate for the number format below, in TFLOP/s.",
    },
    {
        "name": "memory_bandwidth",
        "label": "Memory bandwidth",
        "unit": "TB/s",
        "factor": TERA,
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "log",
        # 3.35 TB/s: the H100 SXM's HBM3.
        "default": 3.35e12,
        "help": "How fast the chip reads its main (HBM) memory, in TB/s.",
    },
    {
        "name": "number_format",
        "label": "Number format of the matrices",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "How many bytes each number takes in memory; the peak above must be the rate for the same format.",
        "options": [
            {"value": "bf16", "label": "BF16 (2 bytes)"},
            {"value": "fp8", "label": "FP8 (1 byte)"},
            {"value": "fp4", "label": "FP4 (half a byte, block scales left out)"},
        ],
    },
    # One token through one of Llama 3 8B's 4,096 × 4,096 projections: decode for a single user.
    _dimension("m", "Rows of A (m): tokens in the batch", 1,
               "How many rows the left matrix has: the tokens processed together, or one side of a square matrix."),
    _dimension("k", "Shared dimension (k)", 4096, "Columns of A and rows of B: a layer's input width."),
    _dimension("n", "Columns of B (n)", 4096, "Columns of B and C: a layer's output width."),
    {
        "name": "board_power",
        "label": "Board power, maximum",
        "unit": "W",
        "control": "number",
        "min": 1,
        "max": 10_000,
        "step": 1,
        "scale": "log",
        # 700 W: the H100 SXM's maximum TDP ("up to 700W (configurable)").
        "default": 700,
        "help": "The most power the accelerator's board may draw, from its datasheet (NVIDIA's max TDP, AMD's total board power).",
    },
]

OUTPUTS: list[dict] = [
    {"name": "flops", "label": "Arithmetic in the multiply, 2mnk", "unit": "", "format": "flops"},
    {"name": "bytes_moved", "label": "Bytes moved, each matrix once", "unit": "", "format": "bytes"},
    {"name": "intensity", "announce": True, "label": "Arithmetic intensity", "unit": "FLOP per byte", "format": "number"},
    {"name": "ridge_point", "announce": True, "label": "Ridge point of the chip (peak ÷ bandwidth)", "unit": "FLOP per byte", "format": "number"},
    {"name": "memory_bound", "announce": True, "label": "Limited by memory, not arithmetic", "unit": "", "format": "yesno"},
    {"name": "attainable_tflops", "announce": True, "label": "Attainable speed, min(peak, bandwidth × intensity)", "unit": "TFLOP/s", "format": "number"},
    {"name": "share_of_peak", "label": "Share of the peak it can reach", "unit": "", "format": "percent"},
    {"name": "kernel_seconds", "label": "Time for the multiply at best", "unit": "", "format": "seconds"},
    {"name": "compute_bound_from_m", "label": "Rows of A (tokens) from which arithmetic sets the pace", "unit": "", "format": "integer", "endless": True},
    {"name": "peak_tflops_per_watt", "label": "Peak arithmetic per watt", "unit": "TFLOP/s per W", "format": "number"},
    {"name": "attainable_tflops_per_watt", "label": "This multiply's arithmetic per watt, at full board power", "unit": "TFLOP/s per W", "format": "number"},
    {"name": "energy_joules", "label": "Energy of the multiply at full board power", "unit": "J", "format": "number"},
]


def _power_presets() -> list[dict]:
    """One option per accelerator whose datasheet prints its board power (ids end in "-board", so
    that they differ from the same accelerator's option in the group above)."""
    powered = [accelerator for accelerator, facts in ACCELERATORS.items() if "board_power" in facts]
    options = accelerator_options({"board_power": "board_power"}, *powered)
    for option in options:
        option["id"] = f"{option['id']}-board"
        option["label"] = f"{option['label']}: {option['values']['board_power']:,} W"
    return options

PRESETS: list[dict] = [
    {
        "name": "accelerator",
        "label": "Accelerator and format (datasheets, read 2026-12)",
        "fields": ["peak_flops", "memory_bandwidth", "number_format"],
        "options": format_options("peak_flops", "number_format", {"memory_bandwidth": "memory_bandwidth"}, *ACCELERATORS),
    },
    {
        "name": "power",
        "label": "Board power (datasheets that print it per accelerator)",
        "fields": ["board_power"],
        "options": _power_presets(),
    },
    {
        "name": "kernel",
        "label": "Matrix multiply",
        "fields": ["m", "k", "n"],
        "options": [
            # Llama 3 8B: model dimension 4,096 (Grattafiori et al. 2024, Table 3).
            {"id": "decode-1", "label": "One token through a 4,096 × 4,096 layer (decode, one user)",
             "values": {"m": 1, "k": 4096, "n": 4096}, "source": "grattafiori2024"},
            {"id": "decode-64", "label": "64 tokens through the same layer (decode, 64 users)",
             "values": {"m": 64, "k": 4096, "n": 4096}, "source": "grattafiori2024"},
            # NVIDIA's GEMM examples: 8192 × 128 × 8192 memory-limited, 8192³ math-limited on V100.
            {"id": "nvidia-8192-128", "label": "NVIDIA's example 8,192 × 128 × 8,192",
             "values": {"m": 8192, "k": 8192, "n": 128}, "source": "nvidia-matmul-guide"},
            {"id": "square-8192", "label": "Two square 8,192 × 8,192 matrices (training-sized)",
             "values": {"m": 8192, "k": 8192, "n": 8192}, "source": "nvidia-matmul-guide"},
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("williams2009", "nvidia-a100-datasheet", "nvidia-h100-datasheet", "nvidia-h200-datasheet",
                    "nvidia-hgx-specs", "nvidia-hgx-b200-datasheet", "nvidia-gb200-nvl72", "nvidia-gb300-nvl72",
                    "amd-mi300x-datasheet", "amd-mi355x-datasheet", "google-tpu-v5p", "google-tpu-ironwood",
                    "grattafiori2024"),
    {
        "id": "nvidia-matmul-guide",
        "kind": "documentation",
        "title": "Matrix Multiplication Background User's Guide (NVIDIA Deep Learning Performance): arithmetic intensity "
                 "of a GEMM, 2MNK ÷ 2(MK + NK + MN), and when it is math- or memory-limited",
        "authors": "NVIDIA",
        "date": "2023-02",
        "url": "https://docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication/index.html",
    },
    {
        "id": "nvidia-gpu-performance-guide",
        "kind": "documentation",
        "title": "GPU Performance Background User's Guide (NVIDIA Deep Learning Performance): ops:byte ratio and the "
                 "arithmetic intensity of common operations",
        "authors": "NVIDIA",
        "date": "2023-02",
        "url": "https://docs.nvidia.com/deeplearning/performance/dl-performance-gpu-background/index.html",
    },
]

ASSUMPTIONS: list[str] = [
    "Each matrix travels between memory and the chip exactly once, the most reuse on-chip memory can give; real "
    "kernels move some data more than once and so sit below the roofline, and near the ridge point they reach "
    "neither roof.",
    "The peaks are the datasheets' dense figures for one number format; a kernel reaches only a share of them, "
    "and the share for memory is usually higher than for arithmetic.",
    "FP4 counts half a byte per number: the block scales of MXFP4 (4.25 bits a number) and NVFP4 (4.5) add a "
    "little traffic that is left out.",
    "Power per FLOP/s assumes the board draws its maximum; a memory-bound kernel usually draws less, so its "
    "energy is an upper bound. Only memory traffic to the chip's main memory counts: caches, other kernels and "
    "the network are not modelled.",
]

FIGURES: list[dict] = [
    {
        "name": "roofline",
        "kind": "curve",
        "title": "The roofline: attainable TFLOP/s against arithmetic intensity",
        "points": "roofline_points",
        "marks": "roofline_marks",
        "x_format": "number",
        "y_format": "number",
        "x_label": "FLOP per byte",
        "y_label": "TFLOP/s",
    },
]


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    return {
        "peak_flops": positive("peak_flops", inputs["peak_flops"]),
        "memory_bandwidth": positive("memory_bandwidth", inputs["memory_bandwidth"]),
        "number_format": one_of("number_format", inputs["number_format"], FORMAT_BYTES),
        "m": whole_count("m", inputs["m"]),
        "k": whole_count("k", inputs["k"]),
        "n": whole_count("n", inputs["n"]),
        "board_power": in_range("board_power", inputs["board_power"], 0, 10_000, open_low=True),
    }


def compute_bound_from(ridge: float, width: float, k: int, n: int) -> float:
    """The least m with 2mnk ≥ ridge × b (mk + kn + mn), or +∞ when no m reaches it (the intensity
    tends to 2kn ÷ (b (k + n)) as m grows)."""
    spare = 2 * k * n - ridge * width * (k + n)
    if spare <= 0:
        return math.inf
    return max(1, math.ceil(ridge * width * k * n / spare * (1 - 1e-12)))


def roofline(v: dict) -> dict:
    """The multiply's FLOPs, bytes and intensity, and where it sits on the chip's roofline."""
    width = FORMAT_BYTES[v["number_format"]]
    flops = 2 * v["m"] * v["n"] * v["k"]
    moved = (v["m"] * v["k"] + v["k"] * v["n"] + v["m"] * v["n"]) * width
    intensity = flops / moved
    ridge = v["peak_flops"] / v["memory_bandwidth"]
    attainable = min(v["peak_flops"], v["memory_bandwidth"] * intensity)
    seconds = max(flops / v["peak_flops"], moved / v["memory_bandwidth"])
    return {
        "flops": flops,
        "bytes_moved": moved,
        "intensity": intensity,
        "ridge_point": ridge,
        "memory_bound": intensity < ridge,
        "attainable_tflops": attainable / TERA,
        "share_of_peak": attainable / v["peak_flops"],
        "kernel_seconds": seconds,
        "compute_bound_from_m": compute_bound_from(ridge, width, v["k"], v["n"]),
        "intensity_limit": 2 * v["k"] * v["n"] / (width * (v["k"] + v["n"])),
        "peak_tflops_per_watt": v["peak_flops"] / v["board_power"] / TERA,
        "attainable_tflops_per_watt": attainable / v["board_power"] / TERA,
        "energy_joules": v["board_power"] * seconds,
    }


def figure_values(v: dict, r: dict) -> dict:
    """The roofline drawn from ridge ÷ 100 to ridge × 100 (log-spaced), with the kernel and the ridge marked."""
    ridge, steps = r["ridge_point"], CURVE_POINTS - 1
    points = []
    for index in range(CURVE_POINTS):
        x = ridge * CURVE_SPAN ** (2 * index / steps - 1)
        points.append([x, min(v["peak_flops"], v["memory_bandwidth"] * x) / TERA])
    marks = [["Ridge point", ridge, v["peak_flops"] / TERA], ["This multiply", r["intensity"], r["attainable_tflops"]]]
    return {"roofline_points": points, "roofline_marks": marks}


def where_the_model_stops(v: dict, r: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if r["ridge_point"] / NEAR_RIDGE < r["intensity"] < r["ridge_point"] * NEAR_RIDGE:
        notes.append(f"An intensity of {r['intensity']:,.0f} is within a factor of two of the ridge point "
                     f"({r['ridge_point']:,.0f}): there a real kernel usually falls short of both roofs at once, so the "
                     "line drawn is optimistic.")
    if math.isinf(r["compute_bound_from_m"]):
        notes.append(f"With k = {v['k']:,} and n = {v['n']:,} no batch reaches the ridge: the intensity cannot "
                     f"exceed {r['intensity_limit']:,.0f} FLOP per byte however many rows A has, so these "
                     "layers stay memory-bound on this chip.")
    if v["number_format"] == "fp4":
        notes.append("4-bit formats carry block scales (MXFP4 4.25 bits a number, NVFP4 4.5) that are not "
                     "counted here: the true traffic is 6 to 13 % higher.")
    return notes


def compute(
    *,
    peak_flops: float,
    memory_bandwidth: float,
    number_format: str,
    m: int,
    k: int,
    n: int,
    board_power: float,
) -> dict:
    """Where a matrix multiply sits on an accelerator's roofline, its best time and its FLOP/s per watt.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    r = roofline(v)
    return {**v, **r, **figure_values(v, r), "notes": where_the_model_stops(v, r)}
