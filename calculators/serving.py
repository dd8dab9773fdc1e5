"""How much memory does serving a model take, how fast does it answer, and how many copies?

The arithmetic of the "Training vs inference infrastructure" card (D4). One *replica* is a
copy of the model spread over a few accelerators. It holds the weights once, plus a KV cache
for every request it is serving at the same time. While it writes replies (decoding), each
step produces one token for every request in the batch and has to read all the weights and
every request's KV cache from memory, so memory bandwidth sets the pace (Pope et al., 2022).

    weight_bytes        = params × bytes per weight
    kv_bytes_per_token  = 2 (key and value) × layers × kv_heads × head_dim × bytes per value
                          (Kwon et al., 2023; with grouped-query attention, Ainslie et al., 2023)
    kv_bytes_per_request = kv_bytes_per_token × context_tokens
    step_seconds        ≥ (weight_bytes + batch × kv_bytes_per_request) / replica bandwidth
    tokens/s per replica = batch ÷ step_seconds
    replicas            = ceil(requests/s × output tokens per request ÷ tokens/s per replica)

It is a memory-bandwidth bound: the arithmetic, prefill (reading the prompt), activations and
the runtime's own buffers are left out, and every request is counted at its full context.
Everything is in base units: bytes (decimal), bytes per second, seconds, tokens.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._datasheets import accelerator_options, shared_sources
from calculators._checks import one_of, positive, whole_count

# Bytes one stored number takes at each precision.
WEIGHT_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "int4": 0.5}
KV_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0}
HOURS_PER_YEAR = 365 * 24  # 8,760
KEY_AND_VALUE = 2  # one key vector and one value vector per layer, head and token

TITLE = "Serving calculator: memory, speed and replicas"

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "slider",
        "min": 0.5,
        "max": 2000,
        "step": 0.1,
        "scale": "log",
        # 70B with the shape of Llama 3 70B: the card's D3 worked example.
        "default": 70e9,
        "help": "Number of parameters (weights) in the model, in billions.",
    },
    {
        "name": "layers",
        "label": "Layers",
        "unit": "layers",
        "control": "number",
        "min": 1,
        "max": 300,
        "step": 1,
        "scale": "linear",
        "default": 80,
        "help": "Transformer layers; every layer keeps its own keys and values for every token.",
    },
    {
        "name": "kv_heads",
        "label": "Key-value heads",
        "unit": "heads",
        "control": "number",
        "min": 1,
        "max": 256,
        "step": 1,
        "scale": "linear",
        "default": 8,
        "help": "Attention heads that store keys and values. Grouped-query attention shares each among several query heads, so this can be far fewer than the query heads.",
    },
    {
        "name": "head_dim",
        "label": "Head dimension",
        "unit": "numbers per head",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        "default": 128,
        "help": "Length of each key or value vector.",
    },
    {
        "name": "weight_precision",
        "label": "Weight precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "How many bits each weight is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (BF16, 2 bytes)"},
            {"value": "fp8", "label": "8-bit (FP8, 1 byte)"},
            {"value": "int4", "label": "4-bit (0.5 bytes)"},
        ],
    },
    {
        "name": "kv_precision",
        "label": "KV cache precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "How many bits each cached key and value number is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (2 bytes)"},
            {"value": "fp8", "label": "8-bit (1 byte)"},
        ],
    },
    {
        "name": "context_tokens",
        "label": "Context per request",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 1000000,
        "step": 1,
        "scale": "log",
        "default": 8192,
        "help": "Prompt plus reply that each request keeps in the KV cache, in tokens.",
    },
    {
        "name": "batch",
        "label": "Requests served at once",
        "unit": "requests",
        "control": "slider",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "log",
        "default": 1,
        "help": "Concurrent requests one replica decodes together; each decode step writes one token for each of them.",
    },
    {
        "name": "accelerators",
        "label": "Accelerators per replica",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 64,
        "step": 1,
        "scale": "log",
        # 2: 140 GB of 16-bit 70B weights do not fit one 80 GB H100.
        "default": 2,
        "help": "Accelerators one copy of the model is split across (tensor parallelism); their memory and bandwidth add up.",
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
        "name": "bandwidth_per_accelerator",
        "label": "Memory bandwidth per accelerator",
        "unit": "TB/s",
        "factor": 1e12,
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "linear",
        "default": 3.35e12,
        "help": "Peak memory bandwidth from the datasheet, in terabytes per second.",
    },
    {
        "name": "requests_per_second",
        "label": "Target load",
        "unit": "requests per second",
        "control": "slider",
        "min": 0.01,
        "max": 100000,
        "step": 0.01,
        "scale": "log",
        "default": 10,
        "help": "New requests arriving each second across the whole service.",
    },
    {
        "name": "output_tokens",
        "label": "Reply length",
        "unit": "tokens per request",
        "control": "slider",
        "min": 1,
        "max": 100000,
        "step": 1,
        "scale": "log",
        "default": 500,
        "help": "Tokens generated for each request.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "weight_bytes", "label": "Weights", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_token", "label": "KV cache per token", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_request", "label": "KV cache per request", "unit": "", "format": "bytes"},
    {"name": "memory_needed_bytes", "announce": True, "label": "Memory needed per replica", "unit": "", "format": "bytes"},
    {"name": "replica_memory_bytes", "label": "Memory of one replica", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Fits in memory", "unit": "", "format": "yesno"},
    {"name": "max_concurrent", "label": "Most requests that fit at once", "unit": "requests", "format": "integer"},
    {"name": "step_seconds", "label": "Time per decode step", "unit": "", "format": "seconds"},
    {"name": "tokens_per_second_per_request", "announce": True, "label": "Speed each user sees", "unit": "tokens/s", "format": "number"},
    {"name": "tokens_per_second_replica", "label": "Output of one replica", "unit": "tokens/s", "format": "number"},
    {"name": "demand_tokens_per_second", "label": "Tokens the load asks for", "unit": "tokens/s", "format": "number"},
    {"name": "replicas", "announce": True, "label": "Replicas needed", "unit": "replicas", "format": "integer"},
    {"name": "accelerators_total", "label": "Accelerators in total", "unit": "accelerators", "format": "integer"},
    {"name": "accelerator_hours_per_year", "label": "Accelerator-hours per year, running all the time", "unit": "accelerator-hours", "format": "number"},
]

PRESETS: list[dict] = [
    {
        "name": "accelerator",
        "label": "Accelerator",
        "fields": ["memory_per_accelerator", "bandwidth_per_accelerator"],
        "options": accelerator_options({"memory_per_accelerator": "memory", "bandwidth_per_accelerator": "memory_bandwidth"}, "a100-80gb", "h100-sxm", "h200-sxm", "mi300x"),
    },
    {
        "name": "model",
        "label": "Model shape",
        "fields": ["params", "layers", "kv_heads", "head_dim"],
        "options": [
            {
                "id": "llama2-7b",
                "label": "Llama 2 7B (no grouped-query attention: 32 KV heads)",
                # Llama 2 paper: 7B uses multi-head attention; 32 layers, 32 heads of 128.
                "values": {"params": 7e9, "layers": 32, "kv_heads": 32, "head_dim": 128},
                "source": "llama2",
            },
            {
                "id": "llama3-8b",
                "label": "Llama 3 8B (32 layers, 8 KV heads)",
                "values": {"params": 8e9, "layers": 32, "kv_heads": 8, "head_dim": 128},
                "source": "llama3-herd",
            },
            {
                "id": "llama3-70b",
                "label": "Llama 3 70B (80 layers, 8 KV heads)",
                "values": {"params": 70e9, "layers": 80, "kv_heads": 8, "head_dim": 128},
                "source": "llama3-herd",
            },
            {
                "id": "llama3-405b",
                "label": "Llama 3.1 405B (126 layers, 8 KV heads)",
                "values": {"params": 405e9, "layers": 126, "kv_heads": 8, "head_dim": 128},
                "source": "llama3-herd",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-a100-datasheet", "nvidia-h100-datasheet", "nvidia-h200-datasheet", "amd-mi300x-datasheet", "llama3-herd"),
    {
        "id": "llama2",
        "title": "Llama 2: Open Foundation and Fine-Tuned Chat Models",
        "authors": "Touvron et al.",
        "date": "2023-07-18",
        "url": "https://arxiv.org/abs/2307.09288",
    },
]

FIGURES: list[dict] = [
    {
        "name": "memory",
        "kind": "memory_bar",
        "title": "Memory of one replica",
        "parts": [
            {"value": "weight_bytes", "label": "Weights"},
            {"value": "kv_cache_bytes", "label": "KV cache"},
        ],
        "capacity": "replica_memory_bytes",
    },
]


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per_value: float) -> float:
    """Bytes of keys and values one token leaves in the cache, over all layers."""
    return KEY_AND_VALUE * layers * kv_heads * head_dim * bytes_per_value


def most_that_fit(weight_bytes: float, per_request: float, capacity: float) -> int:
    """The largest batch whose weights + batch × per_request is within capacity (0 if none).

    Counted with the same sum as ``fits``, so a batch fits exactly when it is at most this.
    """
    if weight_bytes + per_request > capacity:
        return 0
    count = math.floor((capacity - weight_bytes) / per_request)
    while weight_bytes + (count + 1) * per_request <= capacity:
        count += 1
    while count > 0 and weight_bytes + count * per_request > capacity:
        count -= 1
    return count


def replicas_for(demand: float, replica_speed: float) -> int:
    """The fewest replicas whose combined output covers the demand (at least 1)."""
    count = max(1, math.ceil(demand / replica_speed))
    while count > 1 and (count - 1) * replica_speed >= demand:
        count -= 1
    while count * replica_speed < demand:
        count += 1
    return count


def compute(
    *,
    params: float,
    layers: int,
    kv_heads: int,
    head_dim: int,
    weight_precision: str,
    kv_precision: str,
    context_tokens: int,
    batch: int,
    accelerators: int,
    memory_per_accelerator: float,
    bandwidth_per_accelerator: float,
    requests_per_second: float,
    output_tokens: int,
) -> dict:
    """Memory per replica, requests that fit, decode speed and replicas for a load.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    params = positive("params", params)
    layers = whole_count("layers", layers)
    kv_heads = whole_count("kv_heads", kv_heads)
    head_dim = whole_count("head_dim", head_dim)
    weight_precision = one_of("weight_precision", weight_precision, WEIGHT_BYTES)
    kv_precision = one_of("kv_precision", kv_precision, KV_BYTES)
    context_tokens = whole_count("context_tokens", context_tokens)
    batch = whole_count("batch", batch)
    accelerators = whole_count("accelerators", accelerators)
    memory_per_accelerator = positive("memory_per_accelerator", memory_per_accelerator)
    bandwidth_per_accelerator = positive("bandwidth_per_accelerator", bandwidth_per_accelerator)
    requests_per_second = positive("requests_per_second", requests_per_second)
    output_tokens = whole_count("output_tokens", output_tokens)

    weight_bytes = params * WEIGHT_BYTES[weight_precision]
    per_token = kv_bytes_per_token(layers, kv_heads, head_dim, KV_BYTES[kv_precision])
    per_request = per_token * context_tokens
    kv_cache_bytes = batch * per_request
    memory_needed = weight_bytes + kv_cache_bytes
    replica_memory = accelerators * memory_per_accelerator
    max_concurrent = most_that_fit(weight_bytes, per_request, replica_memory)

    replica_bandwidth = accelerators * bandwidth_per_accelerator
    step_seconds = memory_needed / replica_bandwidth  # one decode step reads everything once
    per_request_speed = 1 / step_seconds
    replica_speed = batch / step_seconds
    demand = requests_per_second * output_tokens
    replicas = replicas_for(demand, replica_speed)

    return {
        "params": params,
        "layers": layers,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "weight_precision": weight_precision,
        "kv_precision": kv_precision,
        "context_tokens": context_tokens,
        "batch": batch,
        "accelerators": accelerators,
        "memory_per_accelerator": memory_per_accelerator,
        "bandwidth_per_accelerator": bandwidth_per_accelerator,
        "requests_per_second": requests_per_second,
        "output_tokens": output_tokens,
        "weight_bytes": weight_bytes,
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_request": per_request,
        "kv_cache_bytes": kv_cache_bytes,
        "memory_needed_bytes": memory_needed,
        "replica_memory_bytes": replica_memory,
        "fits": memory_needed <= replica_memory,
        "max_concurrent": max_concurrent,
        "replica_bandwidth": replica_bandwidth,
        "step_seconds": step_seconds,
        "tokens_per_second_per_request": per_request_speed,
        "tokens_per_second_replica": replica_speed,
        "demand_tokens_per_second": demand,
        "replicas": replicas,
        "accelerators_total": replicas * accelerators,
        "accelerator_hours_per_year": replicas * accelerators * HOURS_PER_YEAR,
    }
