"""How many accelerators, and how many days, does training a large model take?

The arithmetic of the "GPU clusters & orchestration" card (D4): memory per accelerator under
tensor (tp), pipeline (pp) and data (dp) parallelism with optional sharding of the training
state across the data-parallel copies, the pipeline bubble, and training time from
6 × parameters × tokens. Everything is in base units: bytes (decimal, 1 GB = 1e9 bytes),
FLOP, FLOP/s, seconds. Activations are not counted.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators._checks import in_range, one_of, positive, whole_count
from calculators._datasheets import accelerator_options, shared_sources

SECONDS_PER_DAY = 86_400
TRAIN_FLOPS_PER_PARAM_TOKEN = 6  # forward (2) + backward (4) per parameter per token

# Bytes each parameter carries in 16-bit mixed-precision training with Adam.
WEIGHT_BYTES = 2  # 16-bit weight
GRADIENT_BYTES = 2  # 16-bit gradient
OPTIMIZER_BYTES = 12  # 32-bit master copy, momentum and variance (4 + 4 + 4)

# Which parts of the training state are split between the data-parallel copies
# (ZeRO stages 1, 2 and 3 / FSDP): sharding level -> (weights, gradients, optimizer) sharded?
SHARDED_PARTS: dict[str, tuple[bool, bool, bool]] = {
    "none": (False, False, False),
    "optimizer": (False, False, True),
    "gradients": (False, True, True),
    "everything": (True, True, True),
}

TITLE = "Parallelism and training-time calculator"

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size",
        "unit": "billion parameters",
        "factor": 1e9,  # base units (parameters) per displayed unit
        "control": "slider",
        "min": 0.1,
        "max": 2000,
        "step": 0.1,
        "scale": "log",
        # 70B: the card's scenario ("the 70B model on one 80 GB accelerator").
        "default": 70e9,
        "help": "Number of trainable parameters, in billions.",
    },
    {
        "name": "tokens",
        "label": "Training tokens",
        "unit": "trillion tokens",
        "factor": 1e12,
        "control": "slider",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "log",
        # 15 trillion: what Llama 3 70B was trained on (Grattafiori et al., 2024), the run the
        # card's Frontier section cites, so the defaults describe a real, recent training run.
        "default": 15e12,
        "help": "How many tokens of text the model is trained on, in trillions.",
    },
    {
        "name": "tp",
        "label": "Tensor-parallel ways",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 64,
        "step": 1,
        "scale": "log",
        "default": 1,
        "help": "Each layer's matrices are cut across this many accelerators (usually within one machine).",
    },
    {
        "name": "pp",
        "label": "Pipeline stages",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 128,
        "step": 1,
        "scale": "log",
        "default": 1,
        "help": "The layers are split into this many consecutive stages, one per accelerator.",
    },
    {
        "name": "dp",
        "label": "Data-parallel copies",
        "unit": "copies",
        "control": "slider",
        "min": 1,
        "max": 16384,
        "step": 1,
        "scale": "log",
        "default": 1,
        "help": "Copies of the (split) model that each train on different data and average their gradients.",
    },
    {
        "name": "micro_batches",
        "label": "Micro-batches per step",
        "unit": "micro-batches",
        "control": "slider",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "log",
        # 1, so the card's experiment "set pipeline stages to 8 and move the micro-batch slider
        # from 1 up to 128" starts where it says.
        "default": 1,
        "help": "Each step's batch is cut into this many micro-batches that flow through the pipeline.",
    },
    {
        "name": "sharding",
        "label": "Sharding across data-parallel copies",
        "unit": "",
        "control": "select",
        "default": "none",
        "help": "Which parts of the training state the data-parallel copies split between them instead of each keeping a full set.",
        "options": [
            {"value": "none", "label": "None (16 bytes per parameter)"},
            {"value": "optimizer", "label": "Optimizer state (4 + 12/dp bytes)"},
            {"value": "gradients", "label": "Optimizer and gradients (2 + 14/dp bytes)"},
            {"value": "everything", "label": "Everything (16/dp bytes)"},
        ],
    },
    {
        "name": "memory_per_accelerator",
        "label": "Memory per accelerator",
        "unit": "GB",
        "factor": 1e9,
        "control": "number",
        "min": 1,
        "max": 1000,
        "step": 1,
        "scale": "linear",
        "default": 80e9,
        "help": "High-bandwidth memory on each accelerator, in decimal gigabytes.",
    },
    {
        "name": "peak_flops",
        "label": "Peak 16-bit compute per accelerator",
        "unit": "TFLOP/s",
        "factor": 1e12,
        "control": "number",
        "min": 1,
        "max": 100000,
        "step": 0.1,
        "scale": "log",
        "default": 989e12,
        "help": "Dense (not sparse) BF16 tensor throughput from the datasheet, in TFLOP/s.",
    },
    {
        "name": "utilisation",
        "label": "Utilisation",
        "unit": "of peak",
        "control": "slider",
        "min": 0.05,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # 0.4: Llama 3 reported 38-43 % model FLOPs utilisation on 16,000 GPUs.
        "default": 0.4,
        "help": "Share of peak arithmetic the training run really achieves (model FLOPs utilisation), between 0 and 1.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "memory_each_bytes", "announce": True, "label": "Memory needed per accelerator", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Fits in memory", "unit": "", "format": "yesno"},
    {"name": "bytes_per_param", "label": "Bytes per parameter on each copy", "unit": "bytes", "format": "number"},
    {"name": "total_state_bytes", "label": "Training state of one full copy", "unit": "", "format": "bytes"},
    {"name": "accelerators", "announce": True, "label": "Accelerators", "unit": "", "format": "integer"},
    {"name": "bubble", "label": "Pipeline bubble (idle share)", "unit": "", "format": "percent"},
    {"name": "train_flops", "label": "Training compute", "unit": "", "format": "flops"},
    {"name": "days", "announce": True, "label": "Training time", "unit": "", "format": "days"},
    {"name": "accelerator_hours", "label": "Accelerator-hours", "unit": "accelerator-hours", "format": "number"},
]

# Accelerator figures (memory, dense BF16 peak) come from calculators/_datasheets.py.
PRESETS: list[dict] = [
    {
        "name": "accelerator",
        "label": "Accelerator",
        "fields": ["memory_per_accelerator", "peak_flops"],
        "options": accelerator_options({"memory_per_accelerator": "memory", "peak_flops": "dense_bf16_flops"}, "a100-80gb", "h100-sxm", "h200-sxm", "b200", "mi300x"),
    },
    {
        "name": "model",
        "label": "Model",
        "fields": ["params", "tokens"],
        "options": [
            {
                "id": "llama3-8b",
                "label": "8B (Llama 3 8B, 15T tokens)",
                "values": {"params": 8e9, "tokens": 15e12},
                "source": "llama3-herd",
            },
            {
                "id": "llama3-70b",
                "label": "70B (Llama 3 70B, 15T tokens)",
                "values": {"params": 70e9, "tokens": 15e12},
                "source": "llama3-herd",
            },
            {
                "id": "llama3-405b",
                "label": "405B (Llama 3.1 405B, 15.6T tokens)",
                "values": {"params": 405e9, "tokens": 15.6e12},
                "source": "llama3-herd",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-a100-datasheet", "nvidia-h100-datasheet", "nvidia-h200-datasheet", "nvidia-hgx-b200-specs", "amd-mi300x-datasheet", "llama3-herd"),
]

FIGURES: list[dict] = [
    {
        "name": "memory",
        "kind": "memory_bar",
        "title": "Memory per accelerator",
        "parts": [
            {"value": "weights_bytes", "label": "Weights"},
            {"value": "gradients_bytes", "label": "Gradients"},
            {"value": "optimizer_bytes", "label": "Optimizer state"},
        ],
        "capacity": "memory_per_accelerator",
    },
    {
        "name": "pipeline",
        "kind": "pipeline_schedule",
        "title": "Pipeline schedule",
        "stages": "pp",
        "micro_batches": "micro_batches",
    },
]


def state_bytes_per_param(sharding: str, dp: int) -> tuple[float, float, float]:
    """Bytes per parameter each data-parallel copy keeps: (weights, gradients, optimizer)."""
    weights_sharded, gradients_sharded, optimizer_sharded = SHARDED_PARTS[one_of("sharding", sharding, SHARDED_PARTS)]
    return (
        WEIGHT_BYTES / dp if weights_sharded else WEIGHT_BYTES,
        GRADIENT_BYTES / dp if gradients_sharded else GRADIENT_BYTES,
        OPTIMIZER_BYTES / dp if optimizer_sharded else OPTIMIZER_BYTES,
    )


def pipeline_bubble(pp: int, micro_batches: int) -> float:
    """Share of each step a pipeline of ``pp`` stages sits idle while filling and draining."""
    return (pp - 1) / (micro_batches + pp - 1)


def compute(
    *,
    params: float,
    tokens: float,
    tp: int,
    pp: int,
    dp: int,
    micro_batches: int,
    sharding: str,
    peak_flops: float,
    utilisation: float,
    memory_per_accelerator: float,
) -> dict:
    """Memory per accelerator, accelerator count, pipeline bubble and training days.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    params = positive("params", params)
    tokens = positive("tokens", tokens)
    tp = whole_count("tp", tp)
    pp = whole_count("pp", pp)
    dp = whole_count("dp", dp)
    micro_batches = whole_count("micro_batches", micro_batches)
    sharding = one_of("sharding", sharding, SHARDED_PARTS)
    peak_flops = positive("peak_flops", peak_flops)
    utilisation = in_range("utilisation", utilisation, 0, 1, open_low=True)
    memory_per_accelerator = positive("memory_per_accelerator", memory_per_accelerator)

    weight_bpp, gradient_bpp, optimizer_bpp = state_bytes_per_param(sharding, dp)
    bytes_per_param = weight_bpp + gradient_bpp + optimizer_bpp
    model_split = tp * pp
    memory_each_bytes = params * bytes_per_param / model_split

    accelerators = tp * pp * dp
    bubble = pipeline_bubble(pp, micro_batches)
    train_flops = TRAIN_FLOPS_PER_PARAM_TOKEN * params * tokens
    seconds = train_flops / (accelerators * peak_flops * utilisation * (1 - bubble))
    days = seconds / SECONDS_PER_DAY

    return {
        "params": params,
        "tokens": tokens,
        "tp": tp,
        "pp": pp,
        "dp": dp,
        "micro_batches": micro_batches,
        "sharding": sharding,
        "peak_flops": peak_flops,
        "utilisation": utilisation,
        "memory_per_accelerator": memory_per_accelerator,
        "bytes_per_param": bytes_per_param,
        "total_state_bytes": params * (WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES),
        "weights_bytes": params * weight_bpp / model_split,
        "gradients_bytes": params * gradient_bpp / model_split,
        "optimizer_bytes": params * optimizer_bpp / model_split,
        "memory_each_bytes": memory_each_bytes,
        "fits": memory_each_bytes <= memory_per_accelerator,
        "accelerators": accelerators,
        "bubble": bubble,
        "train_flops": train_flops,
        "seconds": seconds,
        "days": days,
        "accelerator_days": days * accelerators,
        "accelerator_hours": days * accelerators * 24,
    }
