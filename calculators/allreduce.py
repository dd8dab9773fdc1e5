"""How long does averaging the gradients take, and how much of a training step is it?

The arithmetic of the "Cluster networking" card (D4). Each of the n data-parallel copies holds
S bytes of gradients (its slice of the model) and all n must end with the sum.

**Ring.** In a ring all-reduce each member sends (and receives) 2(n − 1)/n × S bytes in
2(n − 1) steps: n − 1 to reduce-scatter and n − 1 to all-gather. With a delay α per step and
B bytes/s per direction the time is t = 2(n − 1) × α + 2(n − 1)/n × S / B, the α–β cost of
the ring (Thakur, Rabenseifner & Gropp, 2005); Patarasuk & Yuan (2009) proved 2(n − 1)/n × S
the least any all-reduce built from point-to-point messages can send.

**Hierarchy.** When g members of the ring share one scale-up (NVLink) domain, the all-reduce
splits into three stages (the hierarchy of NCCL's trees: a chain over NVLink inside each
server and a tree between servers, Jeaugey 2019; reduce-scatter then all-gather, Thakur et
al. 2005):
  1. reduce-scatter inside the domain: (g − 1)/g × S over the scale-up links;
  2. all-reduce of the 1/g slice each member now owns, across the m = ⌈n/g⌉ domains, one
     network card per accelerator: 2(m − 1)/m × S/g over the network;
  3. all-gather inside the domain: (g − 1)/g × S over the scale-up links again.
Stages 1 and 3 take 2(g − 1)/g × S / B_up; stage 2 takes 2(m − 1)/m × S / (g × B_net). Run one
after another the times add; NCCL instead cuts the data into chunks that flow through NVLink
and the network at once, so the slower of the two sets the time (the default here).

**Achieved rate.** Links never deliver their rated speed: each B is the datasheet rate times an
achieved share, from NVIDIA engineers' published figures (nccl-tests: ≈370 of 450 GB/s on H100
NVLink; 48–49 of 50 GB/s on a 400 Gb/s ConnectX-7). The outputs follow nccl-tests'
definitions (doc/PERFORMANCE.md): algbw = S/t and busbw = algbw × 2(n − 1)/n.

**In-network reduction.** With SHARP in InfiniBand switches or NVLink SHARP (NVLS) in NVSwitch,
the switches add the data up: each accelerator sends its S bytes once and receives the summed S
once at each stage, instead of 2(k − 1)/k × S each way, so the bytes on each link fall by up to
half (NVIDIA/nccl-tests #212 and NVIDIA/nccl #1442, #1506; NVIDIA SHARP documentation). That
ideal is not what NVLink SHARP (NVLS) reaches: on 8 H100s NCCL's author gives a peak algbw of
about 275 GB/s (busbw about 480), where the ideal at the 370 GB/s NCCL gets from NVLink would
be about 369 (nccl-tests #212). The "as measured" choice runs the in-switch NVLink stage at that
share of its ideal, 275 ÷ (450 × 0.82) ≈ 0.745, and leaves the network's SHARP stage at its
ideal, for which no comparable measurement is cited here.

The share of a training step follows from the compute time per step and how much of the
exchange hides behind it. Base units: bytes (decimal), seconds, bytes/s; algbw and busbw are
reported in GB/s as nccl-tests prints them.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import at_least, in_range, one_of, positive, whole_count
from calculators._datasheets import accelerator_options, shared_sources

# Bytes per gradient value for each number format the gradients are exchanged in.
GRADIENT_BYTES: dict[str, int] = {"bf16": 2, "fp32": 4}
REDUCTIONS = ("ring", "in_network", "in_network_measured")
# NVLink SHARP on 8 H100s: "a peak busBw of ~480GB/s (algbw ~275GB/s)" (S. Jeaugey, NVIDIA, nccl-tests #212),
# against an ideal of the data once each way at the 0.82 × 450 GB/s NCCL achieves on NVLink (same answer).
NVLS_MEASURED_ALGBW = 275e9
H100_NVLINK, H100_NVLINK_ACHIEVED = 450e9, 0.82
NVLS_MEASURED_GROUP = 8  # GPUs of that measurement (one HGX H100 server)
NVLS_MEASURED_SHARE = NVLS_MEASURED_ALGBW / (H100_NVLINK * H100_NVLINK_ACHIEVED)  # ≈ 0.745 of the ideal
PHASES = ("pipelined", "one_after_another")
GB = 1e9  # algbw and busbw are shown in decimal GB/s, as nccl-tests prints them

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
        "label": "Copies of the model that average their gradients (n)",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 16384,
        "step": 1,
        "scale": "log",
        # 64 data-parallel copies × 16 = 1,024 accelerators in all.
        "default": 64,
        "help": "The data-parallel copies that hold the same slice and sum their gradients: n in 2(n − 1)/n.",
    },
    {
        "name": "bandwidth",
        "label": "Network card per accelerator, rated, each direction",
        "unit": "GB/s",
        "factor": 1e9,
        "control": "number",
        "min": 0.1,
        "max": 10000,
        "step": 0.1,
        "scale": "log",
        # 50 GB/s: one 400 Gb/s card (ConnectX-7, NDR InfiniBand or 400 Gb Ethernet) per accelerator.
        "default": 50e9,
        "help": "The datasheet rate of the network card each accelerator has to other servers, in decimal GB/s per direction (a 400 Gb/s card is 50 GB/s).",
    },
    {
        "name": "network_efficiency",
        "label": "Achieved share of the network card's rate",
        "unit": "of the rated speed",
        "control": "slider",
        "min": 0.01,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # 0.96: NVIDIA's nccl-tests maintainer: ConnectX-7 at NDR 400 Gb/s "should achieve up to
        # 48-49GB/s per NIC" of its 50 GB/s (NVIDIA/nccl-tests issue #267).
        "default": 0.96,
        "help": "What a collective really gets of the card's rated speed, between 0 and 1; measure yours with nccl-tests (busbw ÷ rated speed).",
    },
    {
        "name": "scale_up_bandwidth",
        "label": "Scale-up link per accelerator (NVLink), rated, each direction",
        "unit": "GB/s",
        "factor": 1e9,
        "control": "number",
        "min": 0.1,
        "max": 10000,
        "step": 0.1,
        "scale": "log",
        # 450 GB/s: H100 SXM NVLink 4, 900 GB/s counting both directions (datasheet).
        "default": 450e9,
        "help": "Bandwidth from each accelerator to the others of its NVLink (or other scale-up) domain, in GB/s per direction; datasheets print both directions added (H100: 900 GB/s).",
    },
    {
        "name": "scale_up_domain",
        "label": "Accelerators in one scale-up domain",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 576,
        "step": 1,
        "scale": "log",
        # 8: an HGX/DGX H100 server; 72 for a GB200/GB300 NVL72 rack.
        "default": 8,
        "help": "How many accelerators one NVLink domain joins: 8 in an HGX server, 72 in an NVL72 rack, 1 for none.",
    },
    {
        "name": "scale_up_efficiency",
        "label": "Achieved share of the scale-up link's rate",
        "unit": "of the rated speed",
        "control": "slider",
        "min": 0.01,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # 0.82: NCCL's author: H100 NVLink's 450 GB/s line rate gives "an effective NVLink bandwidth
        # of 370GB/s" after protocol overhead (NVIDIA/nccl-tests issue #212); 370 / 450 = 0.822.
        "default": 0.82,
        "help": "What a collective really gets of the scale-up link's rated speed, between 0 and 1.",
    },
    {
        "name": "reduction",
        "label": "Who adds the gradients up",
        "unit": "",
        "control": "select",
        "default": "ring",
        "help": "Ring: the accelerators add as data passes round. In the switches: SHARP (InfiniBand) and NVLink SHARP add the data inside the switches, so each accelerator sends its data once; at the ideal, or with the NVLink stage at the share of that ideal NVIDIA measured on 8 H100s (about 275 GB/s algbw, 0.745 of the ideal).",
        "options": [
            {"value": "ring", "label": "The accelerators (ring: 2(k − 1)/k of the data each way)"},
            {"value": "in_network", "label": "The switches, ideal (SHARP / NVLink SHARP: the data once each way)"},
            {"value": "in_network_measured", "label": "The switches, NVLink SHARP as measured on 8 H100s (0.745 of the ideal)"},
        ],
    },
    {
        "name": "phases",
        "label": "Scale-up and network stages",
        "unit": "",
        "control": "select",
        # NCCL pipelines chunks through NVLink and the network at once.
        "default": "pipelined",
        "help": "Pipelined: chunks flow through NVLink and the network at the same time (as NCCL does), so the slower stage sets the time. One after another: the stages' times add.",
        "options": [
            {"value": "pipelined", "label": "Pipelined (the slower stage sets the time)"},
            {"value": "one_after_another", "label": "One after another (the times add)"},
        ],
    },
    {
        "name": "latency",
        "label": "Fixed delay per step",
        "unit": "µs",
        "factor": 1e-6,
        "control": "number",
        "min": 0,
        "max": 10000,
        "step": 0.1,
        "scale": "linear",
        # 0: the pure bandwidth estimate; set a few microseconds to see when delays matter.
        "default": 0,
        "help": "Start-up time of each message step, in microseconds (α in the α–β model); 0 leaves it out.",
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
    {"name": "members_per_domain", "label": "Copies sharing one scale-up domain (g)", "unit": "", "format": "integer"},
    {"name": "domains", "label": "Scale-up domains the copies span (m)", "unit": "", "format": "integer"},
    {"name": "ring_factor", "label": "Ring factor 2(n − 1)/n", "unit": "× S", "format": "number"},
    {"name": "network_sent_bytes", "label": "Data each accelerator sends over the network", "unit": "", "format": "bytes"},
    {"name": "scale_up_sent_bytes", "label": "Data each accelerator sends over NVLink", "unit": "", "format": "bytes"},
    {"name": "network_seconds", "label": "Network stage", "unit": "", "format": "seconds"},
    {"name": "scale_up_seconds", "label": "Scale-up (NVLink) stages", "unit": "", "format": "seconds"},
    {"name": "latency_seconds", "label": "Time in fixed delays", "unit": "", "format": "seconds"},
    {"name": "allreduce_seconds", "announce": True, "label": "All-reduce time", "unit": "", "format": "seconds"},
    {"name": "algbw", "label": "Algorithm bandwidth S/t (nccl-tests algbw)", "unit": "GB/s", "format": "number"},
    {"name": "busbw", "label": "Bus bandwidth algbw × 2(n − 1)/n (nccl-tests busbw)", "unit": "GB/s", "format": "number"},
    {"name": "latency_share", "label": "Share of the all-reduce spent in fixed delays", "unit": "", "format": "percent"},
    {"name": "exposed_seconds", "label": "Exposed (not hidden) communication", "unit": "", "format": "seconds"},
    {"name": "step_seconds", "announce": True, "label": "Step time", "unit": "", "format": "seconds"},
    {"name": "comm_share", "announce": True, "label": "Communication share of the step", "unit": "", "format": "percent"},
]

# Network cards are rated per direction in gigabits per second (800 Gb/s = 100 GB/s). Scale-up
# presets come from the accelerator datasheets (calculators/_datasheets.py), which print NVLink
# as the sum of both directions and are halved there.
PRESETS: list[dict] = [
    {
        "name": "network",
        "label": "Network card",
        "fields": ["bandwidth"],
        "options": [
            {
                "id": "cx8-800g",
                "label": "ConnectX-8: 800 Gb/s (XDR InfiniBand or 800 Gb Ethernet), 100 GB/s",
                # ConnectX-8 SuperNIC user manual: InfiniBand and Ethernet at up to 800 Gb/s.
                "values": {"bandwidth": 100e9},
                "source": "nvidia-connectx8",
            },
            {
                "id": "cx7-400g",
                "label": "ConnectX-7: 400 Gb/s (NDR InfiniBand or 400 Gb Ethernet), 50 GB/s",
                # ConnectX-7 user manual: up to 400 Gb/s, NDR InfiniBand or Ethernet.
                "values": {"bandwidth": 50e9},
                "source": "nvidia-connectx7",
            },
            {
                "id": "cx6-200g",
                "label": "ConnectX-6: 200 Gb/s (HDR InfiniBand), 25 GB/s",
                # ConnectX-6 user manual: up to 200 Gb/s HDR InfiniBand.
                "values": {"bandwidth": 25e9},
                "source": "nvidia-connectx6",
            },
        ],
    },
    {
        "name": "scale_up",
        "label": "Scale-up domain (NVLink)",
        "fields": ["scale_up_bandwidth", "scale_up_domain"],
        "options": accelerator_options(
            {"scale_up_bandwidth": "scale_up_bandwidth", "scale_up_domain": "scale_up_domain"},
            "gb300-nvl72", "gb200-nvl72", "b300", "b200", "h100-sxm", "a100-80gb",
        ),
    },
]

SOURCES: list[dict] = [
    *shared_sources(
        "nvidia-gb300-nvl72", "nvidia-gb200-nvl72", "nvidia-hgx-specs", "nvidia-hgx-b200-datasheet",
        "nvidia-h100-datasheet", "nvidia-a100-datasheet",
    ),
    {
        "id": "nvidia-connectx8",
        "kind": "documentation",
        "title": "NVIDIA ConnectX-8 SuperNIC User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/networking/display/connectx8supernic/introduction",
    },
    {
        "id": "nvidia-connectx7",
        "kind": "documentation",
        "title": "NVIDIA ConnectX-7 Adapter Cards User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2023",
        "url": "https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction",
    },
    {
        "id": "nvidia-connectx6",
        "kind": "documentation",
        "title": "NVIDIA ConnectX-6 InfiniBand/Ethernet Adapter Cards for OCP Spec 3.0 User Manual: Introduction",
        "authors": "NVIDIA",
        "date": "2021",
        "url": "https://docs.nvidia.com/networking/display/ConnectX6VPIOCP3/Introduction",
    },
    {
        "id": "nccl-tests-performance",
        "kind": "documentation",
        "title": "NCCL tests: Performance reported by NCCL tests (doc/PERFORMANCE.md)",
        "authors": "NVIDIA",
        "date": "2024",
        "url": "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
    },
    {
        "id": "nccl-tests-212",
        "kind": "discussion",
        "title": "H100 all reduce performance is poor (issue #212; answer by S. Jeaugey, NVIDIA)",
        "authors": "NVIDIA/nccl-tests",
        "date": "2024-05-06",
        "url": "https://github.com/NVIDIA/nccl-tests/issues/212",
    },
    {
        "id": "nccl-tests-267",
        "kind": "discussion",
        "title": "How overall throughput is calculated for all2all (issue #267; answer by the NCCL team, NVIDIA)",
        "authors": "NVIDIA/nccl-tests",
        "date": "2025-01-23",
        "url": "https://github.com/NVIDIA/nccl-tests/issues/267",
    },
    {
        "id": "nccl-tests-366",
        "kind": "discussion",
        "title": "ALL_Reduce_Perf with NVLS in one node (issue #366; answer by the NCCL team, NVIDIA)",
        "authors": "NVIDIA/nccl-tests",
        "date": "2026-01-09",
        "url": "https://github.com/NVIDIA/nccl-tests/issues/366",
    },
    {
        "id": "nccl-1442",
        "kind": "discussion",
        "title": "NVLink SHARP performance on AWS P5 (issue #1442; answer by S. Jeaugey, NVIDIA)",
        "authors": "NVIDIA/nccl",
        "date": "2025-01-06",
        "url": "https://github.com/NVIDIA/nccl/issues/1442",
    },
    {
        "id": "thakur2005",
        "kind": "paper",
        "title": "Optimization of Collective Communication Operations in MPICH",
        "authors": "Thakur, Rabenseifner, Gropp",
        "date": "2005",
        "url": "https://doi.org/10.1177/1094342005051521",
    },
    {
        "id": "jeaugey2019",
        "kind": "blog",
        "title": "Massively Scale Your Deep Learning Training with NCCL 2.4",
        "authors": "Jeaugey",
        "date": "2019-02",
        "url": "https://developer.nvidia.com/blog/massively-scale-deep-learning-training-nccl-2-4/",
    },
    {
        "id": "nvidia-sharp",
        "kind": "documentation",
        "title": "NVIDIA Scalable Hierarchical Aggregation and Reduction Protocol (SHARP) Rev 3.10.2 (with NCCL: Using NVIDIA SHARP with NVIDIA NCCL)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/networking/display/nvidia-scalable-hierarchical-aggregation-and-reduction-protocol-sharp-rev-3-10-2.2.pdf",
    },
    {
        "id": "nccl-1455",
        "kind": "discussion",
        "title": "About the intranode allreduce performance with SHArP (issue #1455: nccl-tests on 8 H100 SXM, ring and NVLS from 2 to 8 GPUs)",
        "authors": "NVIDIA/nccl",
        "date": "2024-09-19",
        "url": "https://github.com/NVIDIA/nccl/issues/1455",
    },
    {
        "id": "nccl-1506",
        "kind": "discussion",
        "title": "allgather performance using NVLS (issue #1506; answer by S. Jeaugey, NVIDIA)",
        "authors": "NVIDIA/nccl",
        "date": "2024-11-07",
        "url": "https://github.com/NVIDIA/nccl/issues/1506",
    },
    {
        "id": "nccl-1576",
        "kind": "discussion",
        "title": "BusBW of 2-node tree-based Allreduce exceeds the theoretical limit (issue #1576, quoting an NVIDIA NCCL engineer in #812)",
        "authors": "NVIDIA/nccl",
        "date": "2025-01-16",
        "url": "https://github.com/NVIDIA/nccl/issues/1576",
    },
]

ASSUMPTIONS: list[str] = [
    "Every accelerator has its own network card and every link runs at its achieved share of the rated speed; congestion, oversubscribed upper switch tiers and traffic from other jobs are left out, and each would lengthen the network stage.",
    "The time is the bandwidth term plus a fixed delay per step: for messages of a few megabytes or less the delays dominate and a tree (log n steps) beats the ring, which this model does not compute; NCCL picks ring or tree by message size itself.",
    "The copies of one scale-up domain are counted as g = domain ÷ model split (rounded down) when one copy fits inside a domain, and 1 otherwise; their inter-domain stage is an all-reduce over ⌈n/g⌉ domains, where NCCL's flat ring would send 2(n − 1)/n rather than 2(m − 1)/m of each slice (the same once there are many domains).",
    "In-network reduction is offered at its ideal, each accelerator sending and receiving its data once per stage, and as measured: NVLink SHARP on 8 H100s reaches about 275 GB/s algbw (480 GB/s busbw), about 1.3 times the ring and 0.745 of the ideal, because the switch and protocol add their own limits. The measured share is applied to the NVLink stage on any hardware (it was measured on H100s with NVSwitch 3; newer switches may differ), and the network's SHARP stage stays at its ideal. Bus bandwidth is always algbw × 2(n − 1)/n here, as nccl-tests computes it whatever the algorithm (NVIDIA/nccl-tests issue #366), so with in-network reduction it can exceed the link's speed.",
    "The reduction arithmetic, memory copies and the computation the exchange competes with are left out, and the gradients are exchanged once per step (no gradient accumulation over several micro-steps, no compression).",
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


def stage_factor(members: int, reduction: str) -> float:
    """Bytes each member sends per byte of data in one all-reduce among ``members``: the ring's
    2(k − 1)/k, or 1 when the switches add the data up (nothing at all for a lone member)."""
    if members <= 1:
        return 0.0
    return ring_factor(members) if reduction == "ring" else 1.0


def stage_steps(members: int, reduction: str) -> int:
    """Message steps of one all-reduce stage: 2(k − 1) round a ring, 2 (up and down) via a switch."""
    if members <= 1:
        return 0
    return 2 * (members - 1) if reduction == "ring" else 2


def members_per_domain(ring_size: int, model_split: int, scale_up_domain: int) -> int:
    """Copies of the model (ring members) inside one scale-up domain: domain ÷ split when a copy fits."""
    if model_split > scale_up_domain:
        return 1
    return max(1, min(ring_size, scale_up_domain // model_split))


def range_notes(result: dict, model_split: int, scale_up_domain: int) -> list[str]:
    """One sentence for each way these inputs leave the range where the model holds."""
    notes = []
    g, n = result["members_per_domain"], result["ring_size"]
    if result["latency_share"] > 0.5:
        notes.append(
            "Fixed delays are most of the all-reduce: the messages are small for a ring this long, "
            "so a tree (log n steps), which this model does not compute, would be faster.")
    if g > 1 and n % g:
        notes.append(
            f"{n} copies do not fill whole scale-up domains of {g}: one domain is part-empty, "
            "and the model treats it as full.")
    if model_split < scale_up_domain and scale_up_domain % model_split:
        notes.append(
            f"A domain of {scale_up_domain} is not a whole number of {model_split}-accelerator copies: "
            f"{scale_up_domain % model_split} accelerators of each domain are left out of this job.")
    if result["reduction"] == "in_network" and result["allreduce_seconds"] > 0:
        notes.append(
            "In-network reduction is shown at its ideal (each accelerator sends its data once); "
            "measured NVLink SHARP on 8 H100s gains about 1.3 times over the ring, not 1.75: choose "
            "\"as measured\" to see that (about 275 GB/s algbw where the ideal gives 369).")
    if result["reduction"] == "in_network_measured" and g > 1:
        if result["scale_up_bandwidth"] > H100_NVLINK:
            notes.append(
                f"The NVLink stage runs at {NVLS_MEASURED_SHARE:.3g} of its ideal, the share measured on 8 H100s "
                "(NVSwitch 3); no comparable figure for faster NVLink generations is cited here.")
        if g < NVLS_MEASURED_GROUP:
            notes.append(
                f"The measured share is for {NVLS_MEASURED_GROUP} GPUs: with 2 to 4, a published run of NVLink SHARP on "
                "H100s was no faster than the ring (NVIDIA/nccl #1455), so the ring is the better estimate there.")
    return notes


def compute(
    *,
    params: float,
    model_split: int,
    gradient_type: str,
    ring_size: int,
    bandwidth: float,
    network_efficiency: float,
    scale_up_bandwidth: float,
    scale_up_domain: int,
    scale_up_efficiency: float,
    reduction: str,
    phases: str,
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
    network_efficiency = in_range("network_efficiency", network_efficiency, 0, 1, open_low=True)
    scale_up_bandwidth = positive("scale_up_bandwidth", scale_up_bandwidth)
    scale_up_domain = whole_count("scale_up_domain", scale_up_domain)
    scale_up_efficiency = in_range("scale_up_efficiency", scale_up_efficiency, 0, 1, open_low=True)
    reduction = one_of("reduction", reduction, REDUCTIONS)
    phases = one_of("phases", phases, PHASES)
    latency = at_least("latency", latency, 0)
    compute_seconds = positive("compute_seconds", compute_seconds)
    overlap = in_range("overlap", overlap, 0, 1)

    gradient_bytes = params * GRADIENT_BYTES[gradient_type] / model_split
    g = members_per_domain(ring_size, model_split, scale_up_domain)
    m = math.ceil(ring_size / g)
    # Stages 1 + 3 inside the domain on all S; stage 2 between domains on the 1/g slice.
    scale_up_sent = stage_factor(g, reduction) * gradient_bytes
    network_sent = stage_factor(m, reduction) * gradient_bytes / g
    switch_share = NVLS_MEASURED_SHARE if reduction == "in_network_measured" else 1.0  # NVLink stage only
    scale_up_seconds = scale_up_sent / (scale_up_bandwidth * scale_up_efficiency * switch_share)
    network_seconds = network_sent / (bandwidth * network_efficiency)
    if phases == "pipelined":
        bandwidth_seconds = max(scale_up_seconds, network_seconds)
    else:
        bandwidth_seconds = scale_up_seconds + network_seconds
    latency_seconds = (stage_steps(g, reduction) + stage_steps(m, reduction)) * latency
    allreduce_seconds = bandwidth_seconds + latency_seconds
    hidden_seconds = min(overlap * allreduce_seconds, compute_seconds)
    exposed_seconds = allreduce_seconds - hidden_seconds
    step_seconds = compute_seconds + exposed_seconds
    factor = ring_factor(ring_size)
    algbw = gradient_bytes / allreduce_seconds / GB if allreduce_seconds > 0 else 0.0

    result = {
        "params": params,
        "model_split": model_split,
        "gradient_type": gradient_type,
        "ring_size": ring_size,
        "bandwidth": bandwidth,
        "network_efficiency": network_efficiency,
        "scale_up_bandwidth": scale_up_bandwidth,
        "scale_up_domain": scale_up_domain,
        "scale_up_efficiency": scale_up_efficiency,
        "reduction": reduction,
        "phases": phases,
        "latency": latency,
        "compute_seconds": compute_seconds,
        "overlap": overlap,
        "gradient_bytes": gradient_bytes,
        "members_per_domain": g,
        "domains": m,
        "ring_factor": factor,
        "scale_up_sent_bytes": scale_up_sent,
        "network_sent_bytes": network_sent,
        "sent_bytes": scale_up_sent + network_sent,
        "scale_up_seconds": scale_up_seconds,
        "network_seconds": network_seconds,
        "bandwidth_seconds": bandwidth_seconds,
        "latency_seconds": latency_seconds,
        "allreduce_seconds": allreduce_seconds,
        "algbw": algbw,
        "busbw": algbw * factor,
        "latency_share": latency_seconds / allreduce_seconds if allreduce_seconds > 0 else 0.0,
        "hidden_seconds": hidden_seconds,
        "exposed_seconds": exposed_seconds,
        "step_seconds": step_seconds,
        "comm_share": exposed_seconds / step_seconds,
    }
    result["notes"] = range_notes(result, model_split, scale_up_domain)
    return result
