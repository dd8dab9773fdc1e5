"""How long does averaging the gradients take, and how much of a training step is it?

The arithmetic of the "Cluster networking" card (D4): a ring all-reduce of each accelerator's
gradients over a ring of n accelerators. Each accelerator sends (and receives) 2(n − 1)/n × S
bytes for S bytes of gradients, the least any all-reduce can manage (Patarasuk & Yuan, 2009),
in 2(n − 1) steps: n − 1 to reduce-scatter and n − 1 to all-gather. With a fixed delay α per
step and a link of B bytes per second in each direction, the time is

    t = 2(n − 1) × α + 2(n − 1)/n × S / B

(the α–β cost model of Thakur, Rabenseifner & Gropp, 2005; the reduction arithmetic itself is
left out). The share of a training step follows from the compute time per step and how much of
the exchange hides behind it. Everything is in base units: bytes (decimal), seconds, bytes/s.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators._datasheets import shared_sources
from calculators._checks import at_least, in_range, one_of, positive, whole_count

# Bytes per gradient value for each number format the gradients are exchanged in.
GRADIENT_BYTES: dict[str, int] = {"bf16": 2, "fp32": 4}

TITLE = "All-reduce time calculator"

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size",
        "unit": "billion parameters",
        "factor": 1e9,  # base units (parameters) per displayed unit
        "control": "slider",
        "min": 0.01,
        "max": 2000,
        "step": 0.01,
        "scale": "log",
        # 70B: the same model as the GPU clusters card (Llama 3 70B-sized).
        "default": 70e9,
        "help": "Number of trainable parameters in the whole model, in billions.",
    },
    {
        "name": "model_split",
        "label": "Model split (tensor × pipeline ways)",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 512,
        "step": 1,
        "scale": "log",
        # 16: 8-way tensor × 2-way pipeline, the fewest that hold 70B in 80 GB (GPU clusters card).
        "default": 16,
        "help": "How many accelerators share one copy of the model; each holds and all-reduces only its slice of the gradients.",
    },
    {
        "name": "gradient_type",
        "label": "Gradient number format",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "The number format in which gradients are exchanged.",
        "options": [
            {"value": "bf16", "label": "16-bit (2 bytes per value)"},
            {"value": "fp32", "label": "32-bit (4 bytes per value)"},
        ],
    },
    {
        "name": "ring_size",
        "label": "Accelerators in the ring",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 16384,
        "step": 1,
        "scale": "log",
        # 64 data-parallel copies × 16 = 1,024 accelerators in all.
        "default": 64,
        "help": "The data-parallel copies that average their gradients together: n in 2(n − 1)/n.",
    },
    {
        "name": "bandwidth",
        "label": "Link speed per accelerator, each direction",
        "unit": "GB/s",
        "factor": 1e9,
        "control": "number",
        "min": 0.1,
        "max": 10000,
        "step": 0.1,
        "scale": "log",
        # 50 GB/s: one 400 Gb/s (NDR InfiniBand or 400 Gb Ethernet) card per accelerator.
        "default": 50e9,
        "help": "Bytes per second each accelerator can send while it also receives as much, in decimal GB/s (a 400 Gb/s card is 50 GB/s).",
    },
    {
        "name": "latency",
        "label": "Fixed delay per ring step",
        "unit": "µs",
        "factor": 1e-6,
        "control": "number",
        "min": 0,
        "max": 10000,
        "step": 0.1,
        "scale": "linear",
        # 0: the pure bandwidth estimate; set a few microseconds to see when delays matter.
        "default": 0,
        "help": "Start-up time of each of the 2(n − 1) messages, in microseconds (α in the α–β model); 0 leaves it out.",
    },
    {
        "name": "compute_seconds",
        "label": "Compute time per step",
        "unit": "s",
        "control": "number",
        "min": 0.001,
        "max": 100000,
        "step": 0.001,
        "scale": "log",
        # 4.35 s: 6 × 70e9 × 4,194,304 tokens ÷ 1,024 H100s at 40 % of 989 TFLOP/s (see the card's D3).
        "default": 4.35,
        "help": "Seconds of arithmetic (forward and backward passes) in one training step on each accelerator.",
    },
    {
        "name": "overlap",
        "label": "Share of the exchange hidden behind compute",
        "unit": "of the all-reduce",
        "control": "slider",
        "min": 0,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        "default": 0,
        "help": "0: the exchange starts after the backward pass; 1: all of it runs while the backward pass goes on (never more than the compute time).",
    },
]

OUTPUTS: list[dict] = [
    {"name": "gradient_bytes", "label": "Gradients on each accelerator (S)", "unit": "", "format": "bytes"},
    {"name": "ring_factor", "label": "Ring factor 2(n − 1)/n", "unit": "× S", "format": "number"},
    {"name": "sent_bytes", "label": "Data each accelerator sends", "unit": "", "format": "bytes"},
    {"name": "bandwidth_seconds", "label": "Time moving data", "unit": "", "format": "seconds"},
    {"name": "latency_seconds", "label": "Time in fixed delays", "unit": "", "format": "seconds"},
    {"name": "allreduce_seconds", "announce": True, "label": "All-reduce time", "unit": "", "format": "seconds"},
    {"name": "latency_share", "label": "Share of the all-reduce spent in fixed delays", "unit": "", "format": "percent"},
    {"name": "exposed_seconds", "label": "Exposed (not hidden) communication", "unit": "", "format": "seconds"},
    {"name": "step_seconds", "announce": True, "label": "Step time", "unit": "", "format": "seconds"},
    {"name": "comm_share", "announce": True, "label": "Communication share of the step", "unit": "", "format": "percent"},
]

# Link speeds in bytes per second *in each direction*. Datasheets print NVLink and PCIe as the
# sum of both directions (H100: "900 GB/s"), so those are halved; network cards are rated per
# direction in gigabits per second (400 Gb/s = 50 GB/s). Rated speeds: real collectives reach
# somewhat less.
PRESETS: list[dict] = [
    {
        "name": "link",
        "label": "Link",
        "fields": ["bandwidth"],
        "options": [
            {
                "id": "nvlink5-b200",
                "label": "Inside a server: NVLink 5 (B200), 900 GB/s each way",
                # HGX B200: fifth-generation NVLink, 1.8 TB/s per GPU (both directions).
                "values": {"bandwidth": 900e9},
                "source": "nvidia-hgx-b200-specs",
            },
            {
                "id": "nvlink4-h100",
                "label": "Inside a server: NVLink 4 (H100 SXM), 450 GB/s each way",
                # H100 SXM datasheet: NVLink 900 GB/s (both directions).
                "values": {"bandwidth": 450e9},
                "source": "nvidia-h100-datasheet",
            },
            {
                "id": "nvlink3-a100",
                "label": "Inside a server: NVLink 3 (A100 SXM), 300 GB/s each way",
                # A100 datasheet: NVLink 600 GB/s (both directions).
                "values": {"bandwidth": 300e9},
                "source": "nvidia-a100-datasheet",
            },
            {
                "id": "pcie5-x16",
                "label": "Inside a server: PCIe Gen5 x16, 64 GB/s each way",
                # H100 datasheet: PCIe Gen5 128 GB/s (both directions).
                "values": {"bandwidth": 64e9},
                "source": "nvidia-h100-datasheet",
            },
            {
                "id": "xdr-800g",
                "label": "Between servers: 800 Gb/s card (XDR InfiniBand), 100 GB/s",
                # ConnectX-8 SuperNIC: InfiniBand and Ethernet at up to 800 Gb/s.
                "values": {"bandwidth": 100e9},
                "source": "nvidia-connectx8",
            },
            {
                "id": "ndr-400g",
                "label": "Between servers: 400 Gb/s card (NDR InfiniBand or 400 Gb Ethernet), 50 GB/s",
                # ConnectX-7: up to 400 Gb/s, NDR InfiniBand or Ethernet.
                "values": {"bandwidth": 50e9},
                "source": "nvidia-connectx7",
            },
            {
                "id": "hdr-200g",
                "label": "Between servers: 200 Gb/s card (HDR InfiniBand), 25 GB/s",
                # ConnectX-6: up to 200 Gb/s HDR InfiniBand.
                "values": {"bandwidth": 25e9},
                "source": "nvidia-connectx6",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-h100-datasheet", "nvidia-a100-datasheet", "nvidia-hgx-b200-specs"),
    {
        "id": "nvidia-connectx8",
        "title": "NVIDIA ConnectX-8 SuperNIC User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/networking/display/connectx8supernic/introduction",
    },
    {
        "id": "nvidia-connectx7",
        "title": "NVIDIA ConnectX-7 Adapter Cards User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2023",
        "url": "https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction",
    },
    {
        "id": "nvidia-connectx6",
        "title": "NVIDIA ConnectX-6 InfiniBand/Ethernet Adapter Cards for OCP Spec 3.0 User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2021",
        "url": "https://docs.nvidia.com/networking/display/ConnectX6VPIOCP3/Introduction",
    },
]

FIGURES: list[dict] = [
    {
        "name": "step",
        "kind": "memory_bar",
        "title": "One training step",
        "format": "seconds",
        "parts": [
            {"value": "compute_seconds", "label": "Compute"},
            {"value": "exposed_seconds", "label": "Exposed all-reduce"},
        ],
        "capacity": "compute_seconds",
        "words": {
            "capacity": "Compute alone {capacity}",
            "fits": "All-reduce hidden: the step takes {needed}",
            "over": "The all-reduce adds {over}: the step takes {needed}",
            "over_by": "Exposed all-reduce {over}",
            "summary_fits": "the step takes {needed} ({breakdown}); the all-reduce is fully hidden",
            "summary_over": "the step takes {needed} ({breakdown}), of which {over} is all-reduce not hidden behind compute",
        },
    },
]


def ring_factor(ring_size: int) -> float:
    """Bytes each member sends per byte of data in a ring all-reduce: 2(n − 1)/n."""
    return 2 * (ring_size - 1) / ring_size


def compute(
    *,
    params: float,
    model_split: int,
    gradient_type: str,
    ring_size: int,
    bandwidth: float,
    latency: float,
    compute_seconds: float,
    overlap: float,
) -> dict:
    """All-reduce time of each accelerator's gradients and its share of a training step.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    params = positive("params", params)
    model_split = whole_count("model_split", model_split)
    gradient_type = one_of("gradient_type", gradient_type, GRADIENT_BYTES)
    ring_size = whole_count("ring_size", ring_size)
    bandwidth = positive("bandwidth", bandwidth)
    latency = at_least("latency", latency, 0)
    compute_seconds = positive("compute_seconds", compute_seconds)
    overlap = in_range("overlap", overlap, 0, 1)

    gradient_bytes = params * GRADIENT_BYTES[gradient_type] / model_split
    factor = ring_factor(ring_size)
    sent_bytes = factor * gradient_bytes
    bandwidth_seconds = sent_bytes / bandwidth
    latency_seconds = 2 * (ring_size - 1) * latency
    allreduce_seconds = bandwidth_seconds + latency_seconds
    hidden_seconds = min(overlap * allreduce_seconds, compute_seconds)
    exposed_seconds = allreduce_seconds - hidden_seconds
    step_seconds = compute_seconds + exposed_seconds

    return {
        "params": params,
        "model_split": model_split,
        "gradient_type": gradient_type,
        "ring_size": ring_size,
        "bandwidth": bandwidth,
        "latency": latency,
        "compute_seconds": compute_seconds,
        "overlap": overlap,
        "gradient_bytes": gradient_bytes,
        "ring_factor": factor,
        "sent_bytes": sent_bytes,
        "bandwidth_seconds": bandwidth_seconds,
        "latency_seconds": latency_seconds,
        "allreduce_seconds": allreduce_seconds,
        "latency_share": latency_seconds / allreduce_seconds if allreduce_seconds > 0 else 0.0,
        "hidden_seconds": hidden_seconds,
        "exposed_seconds": exposed_seconds,
        "step_seconds": step_seconds,
        "comm_share": exposed_seconds / step_seconds,
    }
