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
    "nvidia-hgx-b300-specs": {
        "id": "nvidia-hgx-b300-specs",
        "title": "NVIDIA HGX platform: HGX B300 specifications",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://www.nvidia.com/en-us/data-center/hgx/",
    },
    "nvidia-gb200-nvl72": {
        "id": "nvidia-gb200-nvl72",
        "title": "NVIDIA GB200 NVL72: specifications",
        "authors": "NVIDIA",
        "date": "2024",
        "url": "https://www.nvidia.com/en-us/data-center/gb200-nvl72/",
    },
    "nvidia-gb300-nvl72": {
        "id": "nvidia-gb300-nvl72",
        "title": "NVIDIA GB300 NVL72: specifications",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://www.nvidia.com/en-us/data-center/gb300-nvl72/",
    },
    "amd-mi355x-datasheet": {
        "id": "amd-mi355x-datasheet",
        "title": "AMD Instinct MI355X GPU data sheet",
        "authors": "AMD",
        "date": "2025-06",
        "url": "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
    },
    "google-tpu-v5p": {
        "id": "google-tpu-v5p",
        "title": "Cloud TPU documentation: TPU v5p",
        "authors": "Google Cloud",
        "date": "2024",
        "url": "https://cloud.google.com/tpu/docs/v5p",
    },
    "google-tpu-ironwood": {
        "id": "google-tpu-ironwood",
        "title": "Cloud TPU documentation: TPU7x (Ironwood)",
        "authors": "Google Cloud",
        "date": "2025-11",
        "url": "https://cloud.google.com/tpu/docs/tpu7x",
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


# Accelerator facts from the vendors' datasheets, in base units, per accelerator:
#   memory               high-bandwidth memory (decimal bytes)
#   memory_bandwidth     peak memory bandwidth (bytes/s)
#   dense_bf16_flops     dense 16-bit (BF16) tensor throughput (FLOP/s)
#   dense_fp8_flops      dense 8-bit floating-point tensor throughput (FLOP/s)
#   dense_fp4_flops      dense 4-bit floating-point tensor throughput (FLOP/s)
#   scale_up_bandwidth   bandwidth to the other accelerators of the scale-up domain (NVLink,
#                        Infinity Fabric, ICI), per accelerator and per direction (bytes/s)
#   scale_up_domain      accelerators in one scale-up domain (one server or one rack)
# Always *dense* figures: NVIDIA prints "with sparsity" figures (2:4 structured sparsity,
# twice the dense rate), which no calculator here uses. A fact a datasheet does not give is
# left out, and a preset that needs it is refused by `layermap check`.
ACCELERATORS: dict[str, dict] = {
    # Datasheet: 80 GB HBM2e; BF16 Tensor Core 312 TFLOPS (624 with sparsity); 2,039 GB/s (SXM);
    # NVLink 600 GB/s (both directions together). No FP8 tensor cores.
    "a100-80gb": {"label": "NVIDIA A100 SXM 80 GB", "memory": 80e9, "dense_bf16_flops": 312e12,
                  "memory_bandwidth": 2.039e12, "scale_up_bandwidth": 300e9, "scale_up_domain": 8,
                  "source": "nvidia-a100-datasheet"},
    # Datasheet: 80 GB HBM3; BF16 1,979 and FP8 3,958 TFLOPS with sparsity -> 989 and 1,979 dense;
    # 3.35 TB/s; NVLink 900 GB/s (both directions together).
    "h100-sxm": {"label": "NVIDIA H100 SXM", "memory": 80e9, "dense_bf16_flops": 989e12,
                 "dense_fp8_flops": 1979e12, "memory_bandwidth": 3.35e12, "scale_up_bandwidth": 450e9,
                 "scale_up_domain": 8, "source": "nvidia-h100-datasheet"},
    # Product page: 141 GB HBM3e; same tensor rates as H100 SXM; 4.8 TB/s; NVLink 900 GB/s.
    "h200-sxm": {"label": "NVIDIA H200 SXM", "memory": 141e9, "dense_bf16_flops": 989e12,
                 "dense_fp8_flops": 1979e12, "memory_bandwidth": 4.8e12, "scale_up_bandwidth": 450e9,
                 "scale_up_domain": 8, "source": "nvidia-h200-datasheet"},
    # HGX B200 (8 GPUs): FP16/BF16 36, FP8 72, FP4 144 PFLOPS with sparsity -> per GPU dense
    # 2.25, 4.5, 9 PFLOPS; 1,440 GB HBM3e -> 180 GB each; 64 TB/s -> 8 TB/s each; NVLink 5
    # 1.8 TB/s per GPU (both directions together).
    "b200": {"label": "NVIDIA B200 (HGX, 180 GB)", "memory": 180e9, "dense_bf16_flops": 2250e12,
             "dense_fp8_flops": 4500e12, "dense_fp4_flops": 9000e12, "memory_bandwidth": 8e12,
             "scale_up_bandwidth": 900e9, "scale_up_domain": 8, "source": "nvidia-hgx-b200-specs"},
    # HGX B300 (Blackwell Ultra, 8 GPUs): FP4 144 PFLOPS with sparsity / 108 dense -> 13.5 dense
    # per GPU; FP8 72 and BF16 36 with sparsity -> 4.5 and 2.25 dense; 2.3 TB HBM3e -> 288 GB
    # each; 8 TB/s each; NVLink 5 1.8 TB/s per GPU.
    "b300": {"label": "NVIDIA B300 (HGX, 288 GB)", "memory": 288e9, "dense_bf16_flops": 2250e12,
             "dense_fp8_flops": 4500e12, "dense_fp4_flops": 13500e12, "memory_bandwidth": 8e12,
             "scale_up_bandwidth": 900e9, "scale_up_domain": 8, "source": "nvidia-hgx-b300-specs"},
    # GB200 NVL72 (72 GPUs in one NVLink domain): FP16/BF16 360, FP8 720, FP4 1,440 PFLOPS with
    # sparsity -> per GPU dense 2.5, 5, 10 PFLOPS; 13.4 TB HBM3e -> 186 GB each; 576 TB/s -> 8 TB/s
    # each; NVLink 130 TB/s -> 1.8 TB/s per GPU (both directions together).
    "gb200-nvl72": {"label": "NVIDIA GB200 NVL72 (per GPU)", "memory": 186e9, "dense_bf16_flops": 2500e12,
                    "dense_fp8_flops": 5000e12, "dense_fp4_flops": 10000e12, "memory_bandwidth": 8e12,
                    "scale_up_bandwidth": 900e9, "scale_up_domain": 72, "source": "nvidia-gb200-nvl72"},
    # GB300 NVL72 (Blackwell Ultra): FP4 1,440 PFLOPS with sparsity / 1,080 dense -> 15 dense per
    # GPU; FP8 720 and FP16/BF16 360 PFLOPS with sparsity -> 5 and 2.5 dense per GPU; up to 20.7 TB
    # HBM3e -> 288 GB each; 576 TB/s -> 8 TB/s each; NVLink 130 TB/s -> 1.8 TB/s per GPU.
    "gb300-nvl72": {"label": "NVIDIA GB300 NVL72 (per GPU)", "memory": 288e9, "dense_bf16_flops": 2500e12,
                    "dense_fp8_flops": 5000e12, "dense_fp4_flops": 15000e12, "memory_bandwidth": 8e12,
                    "scale_up_bandwidth": 900e9, "scale_up_domain": 72, "source": "nvidia-gb300-nvl72"},
    # Data sheet: 192 GB HBM3; BF16 dense 1,307.4 TFLOPS (2,614.9 with sparsity); FP8 dense
    # 2,614.9; 5.3 TB/s peak; Infinity Fabric 896 GB/s aggregate to 7 peers (8-GPU platform).
    "mi300x": {"label": "AMD Instinct MI300X", "memory": 192e9, "dense_bf16_flops": 1307.4e12,
               "dense_fp8_flops": 2614.9e12, "memory_bandwidth": 5.3e12, "scale_up_domain": 8,
               "source": "amd-mi300x-datasheet"},
    # Data sheet: 288 GB HBM3E; 8 TB/s; FP16/BF16 dense 2.5 PFLOPS (2,516.6 TFLOPS), FP8 dense
    # 5.0 PFLOPS (5,033.2), MXFP4 10.1 PFLOPS (10,066.4).
    "mi355x": {"label": "AMD Instinct MI355X", "memory": 288e9, "dense_bf16_flops": 2516.6e12,
               "dense_fp8_flops": 5033.2e12, "dense_fp4_flops": 10066.4e12, "memory_bandwidth": 8e12,
               "scale_up_domain": 8, "source": "amd-mi355x-datasheet"},
    # Cloud TPU docs: v5p chip 95 GB HBM2e, 2,765 GB/s, 459 TFLOPS BF16 (int8 918 TOPS, no FP8).
    "tpu-v5p": {"label": "Google TPU v5p (per chip)", "memory": 95e9, "dense_bf16_flops": 459e12,
                "memory_bandwidth": 2.765e12, "source": "google-tpu-v5p"},
    # Cloud TPU docs: Ironwood (TPU7x) chip 192 GB HBM3E, 7.37 TB/s, 4,614 TFLOPS FP8; BF16 2,307.
    "tpu-ironwood": {"label": "Google TPU Ironwood (TPU7x, per chip)", "memory": 192e9,
                     "dense_bf16_flops": 2307e12, "dense_fp8_flops": 4614e12, "memory_bandwidth": 7.37e12,
                     "source": "google-tpu-ironwood"},
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


def shared_sources(*ids: str) -> list[dict]:
    """The shared source entries with these ids, in this order (KeyError names an unknown one)."""
    return [dict(SHARED[source_id]) for source_id in ids]
