"""Datasheets and papers that several calculators cite, written once.

A calculator lists what it cites with ``shared_sources("nvidia-h100-datasheet", ...)``; the topic page
numbers them among its own sources.  Standard library only, like every calculator module.
"""

from __future__ import annotations

SHARED: dict[str, dict] = {
    "nvidia-a100-datasheet": {
        "id": "nvidia-a100-datasheet",
        "title": "NVIDIA A100 Tensor Core GPU datasheet",
        "authors": "NVIDIA",
        "date": "2021-06",
        "url": "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    },
    "nvidia-h100-datasheet": {
        "id": "nvidia-h100-datasheet",
        "title": "NVIDIA H100 Tensor Core GPU datasheet",
        "authors": "NVIDIA",
        "date": "2023",
        "url": "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
    },
    "nvidia-h200-datasheet": {
        "id": "nvidia-h200-datasheet",
        "title": "NVIDIA H200 Tensor Core GPU",
        "authors": "NVIDIA",
        "date": "2024",
        "url": "https://www.nvidia.com/en-us/data-center/h200/",
    },
    "nvidia-hgx-b200-specs": {
        "id": "nvidia-hgx-b200-specs",
        "title": "NVIDIA HGX platform: HGX B200 specifications",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://www.nvidia.com/en-us/data-center/hgx/",
    },
    "amd-mi300x-datasheet": {
        "id": "amd-mi300x-datasheet",
        "title": "AMD Instinct MI300X accelerator data sheet",
        "authors": "AMD",
        "date": "2023-12",
        "url": "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
    },
    "llama3-herd": {
        "id": "llama3-herd",
        "title": "The Llama 3 Herd of Models",
        "authors": "Grattafiori et al.",
        "date": "2024-07-31",
        "url": "https://arxiv.org/abs/2407.21783",
    },
}


# Accelerator facts from the vendors' datasheets, in base units: memory (decimal bytes), dense
# 16-bit (BF16) tensor throughput (FLOP/s; half the "with sparsity" figure NVIDIA prints) and
# peak memory bandwidth (bytes/s). Each calculator picks the facts its fields need.
ACCELERATORS: dict[str, dict] = {
    # Datasheet: 80 GB HBM2e; BF16 Tensor Core 312 TFLOPS (624 with sparsity); 2,039 GB/s (SXM).
    "a100-80gb": {"label": "NVIDIA A100 SXM 80 GB", "memory": 80e9, "dense_bf16_flops": 312e12,
                  "memory_bandwidth": 2.039e12, "source": "nvidia-a100-datasheet"},
    # Datasheet: 80 GB HBM3; BF16 Tensor Core 1,979 TFLOPS with sparsity -> 989 dense; 3.35 TB/s.
    "h100-sxm": {"label": "NVIDIA H100 SXM", "memory": 80e9, "dense_bf16_flops": 989e12,
                 "memory_bandwidth": 3.35e12, "source": "nvidia-h100-datasheet"},
    # Product page: 141 GB HBM3e; BF16 1,979 TFLOPS with sparsity -> 989 dense; 4.8 TB/s.
    "h200-sxm": {"label": "NVIDIA H200 SXM", "memory": 141e9, "dense_bf16_flops": 989e12,
                 "memory_bandwidth": 4.8e12, "source": "nvidia-h200-datasheet"},
    # HGX B200 spec: FP16/BF16 Tensor Core 4.5 PFLOPS per GPU *with sparsity* (36 PFLOPS for 8
    # GPUs) -> 2.25 PFLOPS dense; 1,440 GB for 8 GPUs -> 180 GB each (the first announcement said
    # 192 GB; shipping HGX/DGX B200 have 180 GB).
    "b200": {"label": "NVIDIA B200 (HGX)", "memory": 180e9, "dense_bf16_flops": 2250e12,
             "source": "nvidia-hgx-b200-specs"},
    # Data sheet: 192 GB HBM3; BF16 dense 1,307.4 TFLOPS (2,614.9 with sparsity); 5.3 TB/s peak.
    "mi300x": {"label": "AMD Instinct MI300X", "memory": 192e9, "dense_bf16_flops": 1307.4e12,
               "memory_bandwidth": 5.3e12, "source": "amd-mi300x-datasheet"},
}


def accelerator_options(fields: dict[str, str], *ids: str) -> list[dict]:
    """Preset options for these accelerators; ``fields`` maps each calculator field to the fact
    that fills it, e.g. ``{"memory_per_accelerator": "memory", "peak_flops": "dense_bf16_flops"}``
    (KeyError names an unknown accelerator or a fact its datasheet does not give)."""
    return [
        {"id": accelerator, "label": ACCELERATORS[accelerator]["label"],
         "values": {field: ACCELERATORS[accelerator][fact] for field, fact in fields.items()},
         "source": ACCELERATORS[accelerator]["source"]}
        for accelerator in ids
    ]


def shared_sources(*ids: str) -> list[dict]:
    """The shared source entries with these ids, in this order (KeyError names an unknown one)."""
    return [dict(SHARED[source_id]) for source_id in ids]
