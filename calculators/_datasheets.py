"""Datasheets and papers that several calculators cite, written once.

A calculator lists what it cites with ``shared_sources("nvidia-h100-datasheet", ...)``; the topic page
numbers them among its own sources.  Standard library only, like every calculator module.
"""

from __future__ import annotations

GIB = 2**30  # one binary gigabyte: how memory capacities are really sized (see ACCELERATORS)

SHARED: dict[str, dict] = {
    "nvidia-a100-datasheet": {
        "id": "nvidia-a100-datasheet",
        "kind": "datasheet",
        "title": "NVIDIA A100 Tensor Core GPU datasheet",
        "authors": "NVIDIA",
        "date": "2021-06",
        "url": "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    },
    "nvidia-h100-datasheet": {
        "id": "nvidia-h100-datasheet",
        "kind": "datasheet",
        "title": "NVIDIA H100 Tensor Core GPU: specifications (H100 SXM)",
        "authors": "NVIDIA",
        "date": "2022-03-22",
        "url": "https://www.nvidia.com/en-us/data-center/h100/",
    },
    "nvidia-h200-datasheet": {
        "id": "nvidia-h200-datasheet",
        "kind": "datasheet",
        "title": "NVIDIA H200 Tensor Core GPU: specifications (H200 SXM)",
        "authors": "NVIDIA",
        "date": "2023-11-13",
        "url": "https://www.nvidia.com/en-us/data-center/h200/",
    },
    "nvidia-hgx-specs": {
        "id": "nvidia-hgx-specs",
        "kind": "datasheet",
        "title": "NVIDIA HGX platform: HGX B200 and HGX B300 specifications",
        "authors": "NVIDIA",
        "date": "2025-03-18",
        "url": "https://www.nvidia.com/en-us/data-center/hgx/",
    },
    "nvidia-gb200-nvl72": {
        "id": "nvidia-gb200-nvl72",
        "kind": "datasheet",
        "title": "NVIDIA GB200 NVL72: specifications",
        "authors": "NVIDIA",
        "date": "2024-03-18",
        "url": "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
    },
    "nvidia-gb300-nvl72": {
        "id": "nvidia-gb300-nvl72",
        "kind": "datasheet",
        "title": "NVIDIA GB300 NVL72: specifications",
        "authors": "NVIDIA",
        "date": "2025-03-18",
        "url": "https://www.nvidia.com/en-us/data-center/gb300-nvl72/",
    },
    # The HGX B200's own datasheet prints the per-GPU row the HGX page leaves out: 180 GB HBM3E and
    # 7.7 TB/s (the DGX B200 page's 64 TB/s for 8 GPUs, 8 TB/s each, is the full chip's figure as
    # announced, 192 GB at 8 TB/s).
    "nvidia-hgx-b200-datasheet": {
        "id": "nvidia-hgx-b200-datasheet",
        "kind": "datasheet",
        "title": "NVIDIA HGX B200 datasheet (HGX B200 column: GPU memory | bandwidth per GPU)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://dam-cdn.nvd.orangelogic.com/AssetLink/y441155802qub41q118b2852i557jem5.pdf",
        "note": "NVIDIA's asset server; the same 7,680-bit memory bus at 3,996 MHz that the CUDA driver "
                "reports for a B200 gives 7,680 ÷ 8 × 3,996 × 10⁶ × 2 ≈ 7.67 TB/s (pytorch/ao pull request 4002, "
                "March 2026).",
    },
    # The per-GPU memory of the Blackwell parts is printed only here and on the DGX pages (the
    # HGX and NVL72 pages give rounded totals for 8 or 72 GPUs).
    "nvidia-dgx-b200": {
        "id": "nvidia-dgx-b200",
        "kind": "datasheet",
        "title": "NVIDIA DGX B200: specifications",
        "authors": "NVIDIA",
        "date": "2024-03-18",
        "url": "https://www.nvidia.com/en-us/data-center/dgx-b200/",
    },
    # Whole-system power of NVIDIA's eight-GPU servers, from their user guides (the ownership and
    # facility_power calculators both cite them).
    "nvidia-dgx-h100-guide": {
        "id": "nvidia-dgx-h100-guide",
        "kind": "documentation",
        "title": "NVIDIA DGX H100/H200 User Guide: Introduction (power specifications)",
        "authors": "NVIDIA",
        "date": "2024",
        "url": "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
    },
    "nvidia-dgx-b200-guide": {
        "id": "nvidia-dgx-b200-guide",
        "kind": "documentation",
        "title": "NVIDIA DGX B200 User Guide: Introduction (power specifications)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/dgx/dgxb200-user-guide/introduction-to-dgxb200.html",
    },
    "nvidia-blackwell-ultra-datasheet": {
        "id": "nvidia-blackwell-ultra-datasheet",
        "kind": "datasheet",
        "title": "NVIDIA Blackwell Ultra datasheet (GB300 NVL72 and HGX B300; individual GPU specifications)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet",
    },
    "amd-mi355x-datasheet": {
        "id": "amd-mi355x-datasheet",
        "kind": "datasheet",
        "title": "AMD Instinct MI355X GPU: specifications",
        "authors": "AMD",
        "date": "2025-06-12",
        "url": "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
    },
    "google-tpu-v5p": {
        "id": "google-tpu-v5p",
        "kind": "documentation",
        "title": "Cloud TPU documentation: TPU v5p",
        "authors": "Google Cloud",
        "date": "2023-12-06",
        "url": "https://docs.cloud.google.com/tpu/docs/v5p",
    },
    "google-tpu-ironwood": {
        "id": "google-tpu-ironwood",
        "kind": "documentation",
        "title": "Cloud TPU documentation: TPU7x (Ironwood)",
        "authors": "Google Cloud",
        "date": "2025-11",
        "url": "https://docs.cloud.google.com/tpu/docs/tpu7x",
    },
    "amd-mi300x-datasheet": {
        "id": "amd-mi300x-datasheet",
        "kind": "datasheet",
        "title": "AMD Instinct MI300X accelerator data sheet",
        "authors": "AMD",
        "date": "2023-12",
        "url": "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
    },
    "williams2009": {
        "id": "williams2009",
        "kind": "paper",
        "title": "Roofline: An Insightful Visual Performance Model for Multicore Architectures",
        "authors": "Williams, Waterman and Patterson",
        "date": "2009-04",
        "url": "https://doi.org/10.1145/1498765.1498785",
    },
    "grattafiori2024": {
        "id": "grattafiori2024",
        "kind": "paper",
        "title": "The Llama 3 Herd of Models",
        "authors": ["Grattafiori, Aaron", "Dubey, Abhimanyu", "Jauhri, Abhinav", "Pandey, Abhinav"],
        "date": "2024-07-31",
        "url": "https://arxiv.org/abs/2407.21783",
        "note": "The Llama Team at Meta, several hundred authors; the first four are listed.",
    },
}


# Accelerator facts from the vendors' datasheets, in base units, per accelerator:
#   memory               high-bandwidth memory in bytes. Vendors print memory capacity as "GB" but
#                        mean binary gigabytes (GiB, 2^30 bytes): HBM stacks come in powers of two,
#                        an "80 GB" H100 holds 80 GiB ≈ 85.9e9 bytes (the driver reports 81,559 MiB
#                        usable) and Google's TPU pages now print GiB outright. So a printed "N GB"
#                        of memory is stored as N × GIB. Bandwidth and FLOP/s stay decimal.
#   memory_bandwidth     peak memory bandwidth (bytes/s)
#   dense_bf16_flops     dense 16-bit (BF16) tensor throughput (FLOP/s)
#   dense_fp8_flops      dense 8-bit floating-point tensor throughput (FLOP/s)
#   dense_fp4_flops      dense 4-bit floating-point tensor throughput (FLOP/s)
#   scale_up_bandwidth   bandwidth to the other accelerators of the scale-up domain (NVLink,
#                        Infinity Fabric, ICI), per accelerator and per direction (bytes/s)
#   scale_up_domain      accelerators in one scale-up domain (one server or one rack)
#   board_power          the most power one accelerator's board may draw (W) as its datasheet
#                        prints it (NVIDIA's "max TDP", AMD's "total board power"); only where a
#                        datasheet gives it per accelerator
# Always *dense* figures: NVIDIA prints "with sparsity" figures (2:4 structured sparsity,
# twice the dense rate), which no calculator here uses; for FP4 on Blackwell Ultra it prints a
# separate dense figure that is 3/4 of the sparse one, not 1/2. A fact a datasheet does not
# give is left out, and a preset that needs it is refused by `layermap check`.
# Checked 2026-12 against the vendors' pages (Google's directly; NVIDIA's and AMD's through
# faithful quotations of their spec tables) — see the comment above each entry.
ACCELERATORS: dict[str, dict] = {
    # Datasheet (SXM 80 GB column): 80 GB HBM2e; BF16 Tensor Core 312 TFLOPS (624 with
    # sparsity); 2,039 GB/s; NVLink 600 GB/s (both directions together) -> 300 GB/s each way;
    # HGX A100 joins 8 GPUs through NVSwitch; max TDP 400 W. No FP8 tensor cores, so no FP8 or
    # FP4 figure.
    "a100-80gb": {"label": "NVIDIA A100 SXM 80 GB", "memory": 80 * GIB, "dense_bf16_flops": 312e12,
                  "memory_bandwidth": 2.039e12, "scale_up_bandwidth": 300e9, "scale_up_domain": 8,
                  "board_power": 400, "source": "nvidia-a100-datasheet"},
    # Product page (H100 SXM column): 80 GB; 3.35 TB/s; BF16 1,979 and FP8 3,958 TFLOPS "with
    # sparsity" -> dense 989 and 1,979 (the Hopper whitepaper's unrounded dense rates are 989.4
    # and 1,978.9); NVLink 900 GB/s (both directions together) -> 450 GB/s each way; HGX H100 has
    # 8 GPUs on NVSwitch; max TDP "up to 700W (configurable)".
    "h100-sxm": {"label": "NVIDIA H100 SXM", "memory": 80 * GIB, "dense_bf16_flops": 989e12,
                 "dense_fp8_flops": 1979e12, "memory_bandwidth": 3.35e12, "scale_up_bandwidth": 450e9,
                 "scale_up_domain": 8, "board_power": 700, "source": "nvidia-h100-datasheet"},
    # Product page (H200 SXM column): 141 GB HBM3e; 4.8 TB/s; BF16 1,979 and FP8 3,958 TFLOPS
    # with sparsity (same GH100 compute as H100 SXM) -> 989 and 1,979 dense; NVLink 900 GB/s ->
    # 450 GB/s each way; HGX H200 has 8 GPUs; max TDP "up to 700W (configurable)".
    "h200-sxm": {"label": "NVIDIA H200 SXM", "memory": 141 * GIB, "dense_bf16_flops": 989e12,
                 "dense_fp8_flops": 1979e12, "memory_bandwidth": 4.8e12, "scale_up_bandwidth": 450e9,
                 "scale_up_domain": 8, "board_power": 700, "source": "nvidia-h200-datasheet"},
    # HGX page (HGX B200, 8 GPUs): FP4 "144 PFLOPS | 72 PFLOPS" (sparse | dense) -> 9 PFLOPS dense
    # per GPU; FP8/FP6 72 and FP16/BF16 36 PFLOPS with sparsity -> 4.5 and 2.25 dense per GPU;
    # NVSwitch GPU-to-GPU 1.8 TB/s (both directions together) -> 900 GB/s each way; total memory
    # "1.4 TB". The HGX B200 datasheet's per-GPU column agrees (FP4 18, FP8/FP6 9 and FP16/BF16
    # 4.5 PFLOPS with sparsity, dense one half) and prints "GPU Memory | Bandwidth: 180 GB HBM3E |
    # 7.7 TB/s". The DGX B200 page's 1,440 GB and 64 TB/s for the same 8 GPUs would give 8 TB/s
    # each: the full chip's figure as announced (192 GB at 8 TB/s), while the part sold exposes 180
    # GB and, by its own datasheet and the bus width its driver reports, 7.7 TB/s. The per-GPU
    # datasheet's 7.7 TB/s is used (issue 30), as for the HGX B300 below.
    "b200": {"label": "NVIDIA B200 (HGX, 180 GB)", "memory": 180 * GIB, "dense_bf16_flops": 2250e12,
             "dense_fp8_flops": 4500e12, "dense_fp4_flops": 9000e12, "memory_bandwidth": 7.7e12,
             "scale_up_bandwidth": 900e9, "scale_up_domain": 8, "source": "nvidia-hgx-b200-datasheet"},
    # HGX page (HGX B300, 8 Blackwell Ultra GPUs): FP4 "144 PFLOPS | 108 PFLOPS" (sparse | dense)
    # -> 13.5 PFLOPS dense per GPU (the Blackwell Ultra datasheet's per-GPU row rounds this to
    # "18 | 14"); FP8/FP6 72 and FP16/BF16 36 PFLOPS with sparsity -> 4.5 and 2.25 dense; NVSwitch
    # GPU-to-GPU 1.8 TB/s -> 900 GB/s each way; total memory "2.1 TB". Per GPU, the Blackwell
    # Ultra datasheet (HGX B300 column) prints 270 GB HBM3E and 7.7 TB/s (not the 288 GB of the
    # HBM stacks, nor 8 TB/s).
    "b300": {"label": "NVIDIA B300 (HGX, 270 GB)", "memory": 270 * GIB, "dense_bf16_flops": 2250e12,
             "dense_fp8_flops": 4500e12, "dense_fp4_flops": 13500e12, "memory_bandwidth": 7.7e12,
             "scale_up_bandwidth": 900e9, "scale_up_domain": 8, "source": "nvidia-hgx-specs"},
    # GB200 NVL72 page (72 GPUs in one NVLink domain): NVFP4 "1,440 | 720 PFLOPS" (sparse | dense)
    # -> 10 PFLOPS dense per GPU; FP8/FP6 720 and FP16/BF16 360 PFLOPS, footnoted "sparse, dense
    # is one-half" -> 5 and 2.5 dense per GPU; GB200 Superchip (2 GPUs) 372 GB HBM3E | 16 TB/s
    # -> 186 GB and 8 TB/s per GPU (rack: 13.4 TB, 576 TB/s); NVLink 130 TB/s for 72 GPUs
    # (3.6 TB/s per Superchip) -> 1.8 TB/s per GPU, 900 GB/s each way.
    "gb200-nvl72": {"label": "NVIDIA GB200 NVL72 (per GPU)", "memory": 186 * GIB, "dense_bf16_flops": 2500e12,
                    "dense_fp8_flops": 5000e12, "dense_fp4_flops": 10000e12, "memory_bandwidth": 8e12,
                    "scale_up_bandwidth": 900e9, "scale_up_domain": 72, "source": "nvidia-gb200-nvl72"},
    # GB300 NVL72 page (72 Blackwell Ultra GPUs): FP4 "1,440 | 1,080 PFLOPS", the second
    # footnoted "without sparsity" -> 15 PFLOPS dense per GPU; FP8/FP6 720 and FP16/BF16 360
    # PFLOPS with sparsity -> 5 and 2.5 dense per GPU; GPU memory "20 TB | up to 576 TB/s" -> 8
    # TB/s per GPU; NVLink 130 TB/s -> 1.8 TB/s per GPU, 900 GB/s each way. Per GPU, the
    # Blackwell Ultra datasheet (GB300 column) prints 279 GB HBM3E | 8 TB/s (72 x 279 GB ≈ the
    # page's rounded 20 TB), not the 288 GB of the HBM stacks.
    "gb300-nvl72": {"label": "NVIDIA GB300 NVL72 (per GPU)", "memory": 279 * GIB, "dense_bf16_flops": 2500e12,
                    "dense_fp8_flops": 5000e12, "dense_fp4_flops": 15000e12, "memory_bandwidth": 8e12,
                    "scale_up_bandwidth": 900e9, "scale_up_domain": 72, "source": "nvidia-gb300-nvl72"},
    # Data sheet: 192 GB HBM3; 5.3 TB/s peak; BF16 1,307.4 TFLOPS dense (2,614.9 with
    # sparsity); FP8 2,614.9 dense (5.22 PFLOPS with sparsity); 8 GPUs per platform, each with 7
    # Infinity Fabric links of 128 GB/s. Which direction(s) the 128 GB/s counts is not stated
    # beside it, so no scale_up_bandwidth is given. Total board power 750 W peak.
    "mi300x": {"label": "AMD Instinct MI300X", "memory": 192 * GIB, "dense_bf16_flops": 1307.4e12,
               "dense_fp8_flops": 2614.9e12, "memory_bandwidth": 5.3e12, "scale_up_domain": 8,
               "board_power": 750, "source": "amd-mi300x-datasheet"},
    # Product page / data sheet: 288 GB HBM3E; 8 TB/s; FP16/BF16 2.5 PFLOPS dense (2,516.6
    # TFLOPS; 5.0 with sparsity), FP8 5.0 PFLOPS dense (5,033.2), MXFP4 10.1 PFLOPS (10,066.4);
    # 8 GPUs per platform; total board power 1,400 W peak (liquid-cooled). Infinity Fabric
    # bandwidth: not given, for the same reason as MI300X.
    "mi355x": {"label": "AMD Instinct MI355X", "memory": 288 * GIB, "dense_bf16_flops": 2516.6e12,
               "dense_fp8_flops": 5033.2e12, "dense_fp4_flops": 10066.4e12, "memory_bandwidth": 8e12,
               "scale_up_domain": 8, "board_power": 1400, "source": "amd-mi355x-datasheet"},
    # Cloud TPU docs (v5p table): peak compute per chip 459 TFLOPs BF16 and 459 FP8 (no faster
    # FP8 path); HBM capacity per chip 95 GiB -> 95 x 2^30 B ≈ 102.0 GB (an older version of the
    # page wrote "95GB"); HBM bandwidth 2,765 GBps; bidirectional ICI bandwidth per chip 1,200
    # GBps -> 600 GB/s each way. The ICI domain is a 3-D torus slice (largest single slice 6,144
    # chips), not an all-to-all switch, so no scale_up_domain is given.
    "tpu-v5p": {"label": "Google TPU v5p (per chip)", "memory": 95 * GIB, "dense_bf16_flops": 459e12,
                "dense_fp8_flops": 459e12, "memory_bandwidth": 2.765e12, "scale_up_bandwidth": 600e9,
                "source": "google-tpu-v5p"},
    # Cloud TPU docs (TPU7x table): 2,307 TFLOPs BF16 and 4,614 FP8 per chip; HBM capacity per
    # chip 192 GiB -> 192 x 2^30 B ≈ 206.2 GB (Google's launch post wrote "192 GB"); HBM
    # bandwidth 7,380 GBps; bidirectional ICI bandwidth per chip 1,200 GBps -> 600 GB/s each
    # way; 9,216 chips per pod, on a 3-D torus, so no scale_up_domain is given (as for v5p).
    "tpu-ironwood": {"label": "Google TPU Ironwood (TPU7x, per chip)", "memory": 192 * GIB,
                     "dense_bf16_flops": 2307e12, "dense_fp8_flops": 4614e12, "memory_bandwidth": 7.38e12,
                     "scale_up_bandwidth": 600e9, "source": "google-tpu-ironwood"},
}


def accelerator_options(fields: dict[str, str], *ids: str) -> list[dict]:
    """Preset options for these accelerators; ``fields`` maps each calculator field to the fact
    that fills it, e.g. ``{"memory_per_accelerator": "memory", "peak_flops": "dense_bf16_flops"}``.

    An accelerator whose datasheet lacks a fact gets no value for that field and names it under
    ``missing`` (field -> fact): ``layermap check`` refuses such a preset and says which figure
    to add, instead of the option being dropped silently or the import failing.
    """
    options = []
    for accelerator in ids:
        facts = ACCELERATORS[accelerator]
        options.append({
            "id": accelerator, "label": facts["label"],
            "values": {field: facts[fact] for field, fact in fields.items() if fact in facts},
            "source": facts["source"],
            **({"missing": {field: fact for field, fact in fields.items() if fact not in facts}}
               if any(fact not in facts for fact in fields.values()) else {}),
        })
    return options


# Number formats with a dense peak in ACCELERATORS: (format, fact, name shown).
FORMATS = (("bf16", "dense_bf16_flops", "BF16"), ("fp8", "dense_fp8_flops", "FP8"), ("fp4", "dense_fp4_flops", "FP4"))


def format_options(peak_field: str, format_field: str, fields: dict[str, str], *ids: str) -> list[dict]:
    """One preset option per accelerator and number format with a dense peak on its datasheet:
    ``peak_field`` takes that format's peak, ``format_field`` the format's name, ``fields`` map as
    in ``accelerator_options``. The BF16 option keeps the accelerator's id and label; FP8 and FP4
    add the format. A part without a dense figure for a format gets no option for it."""
    options = []
    for fmt, fact, name in FORMATS:
        having = [accelerator for accelerator in ids if fact in ACCELERATORS[accelerator]]
        for option in accelerator_options({**fields, peak_field: fact}, *having):
            option["values"][format_field] = fmt
            if fmt != "bf16":
                option["id"], option["label"] = f"{option['id']}-{fmt}", f"{option['label']}, {name}"
            options.append(option)
    return options


def shared_sources(*ids: str) -> list[dict]:
    """The shared source entries with these ids, in this order (KeyError names an unknown one)."""
    return [dict(SHARED[source_id]) for source_id in ids]
