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


def shared_sources(*ids: str) -> list[dict]:
    """The shared source entries with these ids, in this order (KeyError names an unknown one)."""
    return [dict(SHARED[source_id]) for source_id in ids]
