"""Will a model run on my own machine, how fast, and what does each token cost next to the cloud?

The arithmetic of the "Running locally vs in the cloud" card (D4), for one person chatting
with a model on one machine:

    bits              = bits per weight of the file's format (llama.cpp block layouts and its
                        quantize README, below), or the reader's own figure
    weight_bytes      = (params − params_16) × bits ÷ 8 + params_16 × 2
                        (params_16: weights the file keeps at 16 bits, e.g. gpt-oss's attention
                         and embeddings beside its MXFP4 experts; 0 for a uniformly quantised file)
    kv_bytes          = context tokens × KV-cache bytes per token
    memory_needed     = weight_bytes + kv_bytes + runtime allowance
    fits              ⇔ memory_needed ≤ machine memory × share the GPU may use
                        (macOS lets the GPU wire only part of unified memory: Metal's
                         recommendedMaxWorkingSetSize; a discrete card may use all of its own)
    bytes_per_token   = active weights' bytes + kv_bytes
                        (a mixture-of-experts model keeps every expert in memory but each token
                         reads only the experts it is routed to: total parameters decide memory,
                         active parameters decide speed; gpt-oss model card, 2025. The input
                         embedding table is looked up, one row per token, so it is not counted
                         as read: params_lookup, which the card's active counts already omit)
    ceiling           = memory bandwidth ÷ bytes_per_token
                        (decoding one sequence is memory-bound: each token reads every active
                         weight and the KV cache once; Pope et al., 2022)
    tokens_per_second = achieved share of bandwidth × ceiling
                        (llama.cpp's Apple-silicon measurements, discussion #4167: base M1–M4 chips
                         reach 0.76–0.83 of the ceiling on a 7B Q4_0 model; wider chips less)
    local cost / year = hardware price ÷ years of use + watts × hours × electricity price
    local cost per million tokens = local cost / year ÷ tokens generated in a year × 10⁶

The cloud price per million tokens is an input the reader sets: prices differ by provider
and model and change often, so the defaults are illustrative, not quotes. Everything is in
base units: bytes, bytes per second, US dollars, watts, hours, years. Machine memory is entered
in GiB (2³⁰ bytes), since memory is sized in binary gigabytes (a "16 GB" Mac holds 16 GiB,
17.18e9 bytes); outputs are bytes, shown in decimal GB.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators._datasheets import GIB, shared_sources
from calculators._checks import at_least, in_range, one_of, positive
from calculators import _moe
from calculators._moe import EMBEDDING_GPT_OSS, lookup_parameters, read_parameters

# Bits per weight of each format, counting the block scales stored beside the weights.
# Block formats, from the block layouts in llama.cpp's ggml/src/ggml-common.h:
#   Q4_0  32 weights in 18 bytes (16 bytes of 4-bit values + a 16-bit scale)  -> 4.5
#   Q6_K  256 weights in 210 bytes                                            -> 6.5625
#   Q8_0  32 weights in 34 bytes (32 bytes of 8-bit values + a 16-bit scale)  -> 8.5
#   MXFP4 32 weights in 17 bytes (16 bytes of 4-bit values + an 8-bit shared scale) -> 4 + 8/32 = 4.25
# Q4_K_M and Q5_K_M are mixes (most tensors at 4 or 5 bits, some, such as parts of attention and
# the feed-forward down-projections, at 6 bits), so their average depends on the model; we use
# the whole-file averages llama.cpp's quantize README measures on Llama 3.1 8B: 4.8944 and 5.7036.
FORMATS: dict[str, tuple[str, float | None]] = {
    "q4_0": ("GGUF Q4_0 (4.5 bits per weight)", 4.5),
    "q4_k_m": ("GGUF Q4_K_M (≈ 4.89 bits per weight)", 4.8944),
    "q5_k_m": ("GGUF Q5_K_M (≈ 5.70 bits per weight)", 5.7036),
    "q6_k": ("GGUF Q6_K (6.56 bits per weight)", 6.5625),
    "q8_0": ("GGUF Q8_0 (8.5 bits per weight)", 8.5),
    "mxfp4": ("MXFP4 (4.25 bits per weight)", 4.25),
    "f16": ("F16, 16-bit floating point", 16.0),
    "bf16": ("BF16, 16-bit brain floating point", 16.0),
    "custom": ("Custom: the bits per weight below", None),
}
BYTES_PER_16_BIT_WEIGHT = 2
BITS_PER_BYTE = 8
SECONDS_PER_HOUR = 3600
DAYS_PER_YEAR = 365
TOKENS_PER_MILLION = 1e6
WATTS_PER_KILOWATT = 1000
KIB = 1024
# The input embedding rule (looked up, not read) and gpt-oss's table live in calculators/_moe.py,
# shared with the serving calculator.

TITLE = "Local model calculator: fit, speed and cost per token"

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size (all parameters)",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "slider",
        "min": 0.1,
        "max": 2000,
        "step": 0.01,
        "scale": "log",
        # 8.03B: Llama 3.1 8B (Hugging Face model card), the card's D3 example on a laptop.
        "default": 8.03e9,
        "help": "Every parameter (weight) stored in the model file, in billions. For a mixture-of-experts model this counts all experts: they all sit in memory.",
    },
    {
        "name": "active_params",
        "label": "Parameters read per token",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "number",
        "min": 0,
        "max": 2000,
        "step": 0.01,
        "scale": "linear",
        # 0: a dense model such as Llama 3.1 8B, where every token reads every weight.
        "default": 0,
        "help": "For a mixture-of-experts model, the parameters each token actually uses (the shared layers plus the experts it is routed to), as the model card states. 0 for a dense model, where every token reads all of them.",
    },
    {
        "name": "weight_format",
        "label": "Weight format",
        "unit": "",
        "control": "select",
        # Q4_K_M: the quantisation llama.cpp's README uses as its example, a common download.
        "default": "q4_k_m",
        "help": "How the weights are stored. Quantised formats keep a scale for each small block of weights, so a '4-bit' file takes a little more than 4 bits per weight.",
        "options": [{"value": value, "label": label} for value, (label, _) in FORMATS.items()],
    },
    {
        "name": "custom_bits",
        "label": "Custom bits per weight",
        "unit": "bits",
        "control": "number",
        "min": 1,
        "max": 32,
        "step": 0.01,
        "scale": "linear",
        # 4: plain 4-bit weights with no scales, the textbook figure.
        "default": 4,
        "help": "Used only when the weight format is Custom: the average bits each weight takes, scales included (a file's size in bits divided by its parameter count).",
    },
    {
        "name": "params_16bit",
        "label": "Parameters kept at 16 bits",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "number",
        "min": 0,
        "max": 2000,
        "step": 0.01,
        "scale": "linear",
        # 0: a file quantised throughout. gpt-oss keeps attention, router and embeddings in BF16.
        "default": 0,
        "help": "Weights the file stores at 16 bits beside the quantised ones, such as gpt-oss's attention layers and embeddings next to its MXFP4 experts. 0 when the whole file uses the format above.",
    },
    # params_lookup. 0: leave the embedding in the read weights (the Llama presets). gpt-oss presets set its
    # 201,088 × 2,880 input embedding table (model card, Table 1 and section 2).
    _moe.lookup_input(
        "The input embedding table, of which each token fetches only its own row, so it sits in memory but is not read per token. Counted among the 16-bit parameters when those are at least this many. A model card's active parameter count already leaves it out."),
    {
        "name": "context_tokens",
        "label": "Conversation length",
        "unit": "tokens",
        "control": "number",
        "min": 0,
        "max": 2000000,
        "step": 1,
        "scale": "linear",
        # 8,192 tokens: a long chat or a few pages of a document (illustrative).
        "default": 8192,
        "help": "How many tokens of conversation the model keeps in its KV cache: your messages, its replies and any document you pasted.",
    },
    {
        "name": "kv_bytes_per_token",
        "label": "KV cache per token",
        "unit": "KiB",
        "factor": KIB,
        "control": "number",
        "min": 0,
        "max": 100000,
        "step": 1,
        "scale": "linear",
        # 128 KiB: Llama 3.1 8B at 16 bits, 2 (K and V) × 32 layers × 8 KV heads × 128 × 2 bytes
        # (layer and head counts from the Llama 3 paper, Table 3).
        "default": 128 * KIB,
        "help": "Bytes the model stores for each token of conversation: 2 (keys and values) × layers × KV heads × head size × bytes per number. Set by the model presets.",
    },
    {
        "name": "allowance",
        "label": "Runtime's working memory (illustrative)",
        "unit": "GB",
        "factor": 1e9,
        "control": "number",
        "min": 0,
        "max": 256,
        "step": 0.1,
        "scale": "linear",
        # 1 GB: a round allowance for the runtime's scratch buffers; not a measured figure.
        "default": 1e9,
        "help": "Memory the program running the model needs beside the weights and the KV cache, for its working buffers.",
    },
    {
        "name": "memory",
        "label": "Machine memory",
        "unit": "GiB",
        "factor": GIB,
        "control": "number",
        "min": 1,
        "max": 2048,
        "step": 1,
        "scale": "linear",
        # 16 GiB: the MacBook Air with M4's standard memory (Apple, 2025-03-05), sold as "16 GB".
        # Macs report memory in powers of two: a "128 GB" M5 Max reads hw.memsize = 137,438,953,472
        # bytes = 128 GiB (osaurus pull request #1958, 2026-07); the GPU shares below are GiB of GiB.
        "default": 16 * GIB,
        "help": "Graphics-card memory, or the unified memory of a computer whose processor and graphics share it, in binary gigabytes (GiB, 2³⁰ bytes): memory chips are sized in powers of two, so a machine sold with '16 GB' holds 16 GiB, about 17.18 billion bytes.",
    },
    {
        "name": "gpu_share",
        "label": "Share of that memory the GPU may use",
        "unit": "%",
        "factor": 0.01,
        "control": "number",
        "min": 1,
        "max": 100,
        "step": 0.1,
        "scale": "linear",
        # 66.7 %: a 16 GiB M4 Mac reports ≈ 10.67 GiB (11,453,251,584 bytes) to Metal by default
        # (exo pull request #1672), two thirds of 16 GiB.
        "default": 0.667,
        "help": "100 % for a graphics card's own memory. A computer with unified memory lets its GPU use only part of it by default: macOS reports the limit to programs as Metal's recommended working set (about two thirds of 16 GiB, about 84 % of 128 GiB), and it can be raised with `sysctl iogpu.wired_limit_mb`.",
    },
    {
        "name": "bandwidth",
        "label": "Memory bandwidth",
        "unit": "GB/s",
        "factor": 1e9,
        "control": "number",
        "min": 1,
        "max": 20000,
        "step": 1,
        "scale": "linear",
        # 120 GB/s: Apple M4 (Apple, 2024-05-07).
        "default": 120e9,
        "help": "How fast that memory can be read, from the maker's specifications, in gigabytes per second.",
    },
    {
        "name": "efficiency",
        "label": "Share of bandwidth reached",
        "unit": "%",
        "factor": 0.01,
        "control": "number",
        "min": 1,
        "max": 100,
        "step": 1,
        "scale": "linear",
        # 80 %: llama.cpp discussion #4167 measures 7B Q4_0 generation on base M1, M2, M3 and M4
        # chips at 0.76–0.83 of bandwidth ÷ model bytes (Pro, Max and Ultra chips reach less).
        "default": 0.8,
        "help": "How much of the memory bandwidth a real program turns into reading weights. llama.cpp reaches about 80 % on base Apple chips; wide chips and fast graphics cards often reach 40–70 % on small models.",
    },
    {
        "name": "hardware_price",
        "label": "Hardware price (illustrative)",
        "unit": "US$",
        "control": "number",
        "min": 0,
        "max": 1000000,
        "step": 1,
        "scale": "linear",
        "default": 1500,
        "help": "What the machine costs, in dollars; 0 if you already own it and would have bought it anyway.",
    },
    {
        "name": "lifetime_years",
        "label": "Years of use",
        "unit": "years",
        "control": "slider",
        "min": 0.5,
        "max": 10,
        "step": 0.5,
        "scale": "linear",
        "default": 3,
        "help": "Over how many years the hardware price is spread.",
    },
    {
        "name": "power_watts",
        "label": "Power while generating (illustrative)",
        "unit": "W",
        "control": "number",
        "min": 1,
        "max": 5000,
        "step": 1,
        "scale": "linear",
        "default": 30,
        "help": "Electrical power the whole machine draws while it writes, in watts.",
    },
    {
        "name": "electricity_price",
        "label": "Electricity price (illustrative)",
        "unit": "US$ per kWh",
        "control": "number",
        "min": 0,
        "max": 5,
        "step": 0.01,
        "scale": "linear",
        "default": 0.3,
        "help": "What a kilowatt-hour costs you, in dollars.",
    },
    {
        "name": "hours_per_day",
        "label": "Hours of generating per day",
        "unit": "hours",
        "control": "slider",
        "min": 0.1,
        "max": 24,
        "step": 0.1,
        "scale": "linear",
        "default": 2,
        "help": "How long the machine spends writing tokens each day, on average.",
    },
    {
        "name": "cloud_price",
        "label": "Cloud API price (illustrative)",
        "unit": "US$ per million tokens",
        "control": "number",
        "min": 0.001,
        "max": 1000,
        "step": 0.01,
        "scale": "log",
        "default": 0.2,
        "help": "What a cloud service charges per million generated tokens for a comparable model; set it from a current price list.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "bits_per_weight", "label": "Bits per weight, whole file", "unit": "bits", "format": "number"},
    {"name": "weight_bytes", "label": "Weights", "unit": "", "format": "bytes"},
    {"name": "kv_cache_bytes", "label": "KV cache for the conversation", "unit": "", "format": "bytes"},
    {"name": "memory_needed_bytes", "label": "Memory needed", "unit": "", "format": "bytes"},
    {"name": "machine_memory_bytes", "label": "Machine memory (in decimal bytes)", "unit": "", "format": "bytes"},
    {"name": "gpu_memory_bytes", "label": "Memory the GPU may use", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Fits in the GPU's memory", "unit": "", "format": "yesno"},
    {"name": "fits_machine", "label": "Fits in the machine's memory", "unit": "", "format": "yesno"},
    {"name": "largest_params", "label": "Largest model that fits in this format", "unit": "parameters", "format": "number"},
    {"name": "bytes_per_token", "label": "Bytes read per token", "unit": "", "format": "bytes"},
    {"name": "tokens_per_second_ceiling", "label": "Speed ceiling (all of the bandwidth)", "unit": "tokens/s", "format": "number"},
    {"name": "tokens_per_second", "announce": True, "label": "Expected speed for one user", "unit": "tokens/s", "format": "number"},
    {"name": "tokens_per_year", "label": "Tokens generated in a year", "unit": "tokens", "format": "number"},
    {"name": "local_cost_per_year", "label": "Local cost per year", "unit": "", "format": "usd"},
    {"name": "cloud_cost_per_year", "label": "Cloud cost for the same tokens", "unit": "", "format": "usd"},
    {"name": "local_cost_per_million", "announce": True, "label": "Local cost per million tokens", "unit": "", "format": "usd"},
    {"name": "cost_ratio", "label": "Local cost against the cloud", "unit": "times the cloud price", "format": "number"},
    {"name": "local_cheaper", "label": "Local is cheaper", "unit": "", "format": "yesno"},
]


def machine(option_id: str, label: str, memory: float, bandwidth: float, gpu_share: float, source: str) -> dict:
    return {"id": option_id, "label": label, "source": source,
            "values": {"memory": memory, "bandwidth": bandwidth, "gpu_share": gpu_share}}


def model(option_id: str, label: str, source: str, **values: float | str) -> dict:
    return {"id": option_id, "label": label, "source": source, "values": values}


PRESETS: list[dict] = [
    {
        "name": "machine",
        "label": "Machine",
        "fields": ["memory", "bandwidth", "gpu_share"],
        "options": [
            # Apple: MacBook Air with M4 (2025-03-05), 16 GB standard; M4 reads memory at 120 GB/s.
            # GPU share: a 16 GiB M4 reports ≈ 10.67 GiB as Metal's working set, 2/3 (exo PR #1672).
            machine("macbook-air-m4-16gb", "Laptop: MacBook Air, Apple M4, 16 GB (120 GB/s; GPU may use ≈ 2/3)",
                    16 * GIB, 120e9, 0.667, "apple-macbook-air-m4"),
            # NVIDIA: GeForce RTX 5090 (January 2025), 32 GB GDDR7, 1,792 GB/s.
            machine("rtx-5090", "Graphics card: NVIDIA GeForce RTX 5090, 32 GB (1,792 GB/s)",
                    32 * GIB, 1792e9, 1.0, "nvidia-rtx-5090"),
            # NVIDIA Ada architecture whitepaper: RTX 4090, 24 GB GDDR6X, 1,008 GB/s.
            machine("rtx-4090", "Graphics card: NVIDIA GeForce RTX 4090, 24 GB (1,008 GB/s)",
                    24 * GIB, 1008e9, 1.0, "nvidia-ada-whitepaper"),
            # Apple: M4 Max, up to 128 GB at 546 GB/s. GPU share: a stock 128 GB Mac reports
            # 107.52 GiB of 128 GiB as its working set, 84 % (antirez/ds4 PR #893, 2026-08).
            machine("macbook-pro-m4-max-128gb", "Workstation laptop: MacBook Pro, Apple M4 Max, 128 GB (546 GB/s; GPU may use 84 %)",
                    128 * GIB, 546e9, 0.84, "apple-m4-max"),
            # Apple: Mac Studio with M3 Ultra (newsroom 2025-03-05: up to 512 GB, "more than 800 GB/s";
            # Apple's technical specifications give 819 GB/s). Press reports (2026-03-08/09): the
            # 512 GB option left Apple's store in March 2026; later only 96 GB remained.
            # GPU share: 75 %, what GPUStack reads from macOS (gpustack issue #1375) and the rule
            # mistral.rs applies above 36 GB (PR #1486); no stock 512 GB measurement was found.
            machine("mac-studio-m3-ultra-512gb", "Desktop: Mac Studio, Apple M3 Ultra, 512 GB (819 GB/s; sold Mar 2025 – Mar 2026)",
                    512 * GIB, 819e9, 0.75, "apple-mac-studio-m3-ultra"),
            # NVIDIA: DGX Spark (GB10), 128 GB LPDDR5x unified memory, 273 GB/s; CUDA may allocate
            # all of it, so the operating system's share comes out of the runtime allowance.
            machine("dgx-spark", "Desktop: NVIDIA DGX Spark, 128 GB unified (273 GB/s)",
                    128 * GIB, 273e9, 1.0, "nvidia-dgx-spark"),
            # AMD: Ryzen AI Max+ 395 with 128 GB LPDDR5X-8000 on a 256-bit bus (256 GB/s), of which
            # up to 96 GB can be given to the GPU as Variable Graphics Memory (AMD, 2025-07-29).
            machine("ryzen-ai-max-395-128gb", "Desktop: AMD Ryzen AI Max+ 395, 128 GB unified (256 GB/s; GPU may use 96 GB)",
                    128 * GIB, 256e9, 0.75, "amd-ryzen-ai-max-vgm"),
        ],
    },
    {
        "name": "model",
        "label": "Model",
        "fields": ["params", "active_params", "params_16bit", "params_lookup", "kv_bytes_per_token", "weight_format"],
        "options": [
            # Llama 3 paper Table 3: 8B has 32 layers, 70B 80, 405B 126; all 8 KV heads of size 128.
            # Parameter counts from the Hugging Face model cards (8.03B, 70.6B, 406B).
            model("llama31-8b", "Llama 3.1 8B (dense), Q4_K_M", "grattafiori2024", params=8.03e9, active_params=0,
                  params_16bit=0, params_lookup=0, kv_bytes_per_token=2 * 32 * 8 * 128 * 2, weight_format="q4_k_m"),
            model("llama31-70b", "Llama 3.1 70B (dense), Q4_K_M", "grattafiori2024", params=70.55e9, active_params=0,
                  params_16bit=0, params_lookup=0, kv_bytes_per_token=2 * 80 * 8 * 128 * 2, weight_format="q4_k_m"),
            model("llama31-405b", "Llama 3.1 405B (dense), Q4_K_M", "grattafiori2024", params=405.85e9, active_params=0,
                  params_16bit=0, params_lookup=0, kv_bytes_per_token=2 * 126 * 8 * 128 * 2, weight_format="q4_k_m"),
            # gpt-oss model card (arXiv 2508.10925), Table 1: 120b has 116.83B parameters, 5.13B active,
            # of which 114.71B are MoE weights in MXFP4 and 2.12B (attention, embeddings) in BF16;
            # 36 layers alternating full and 128-token windowed attention, 8 KV heads of size 64, so
            # the 18 full-attention layers store 2 × 18 × 8 × 64 × 2 bytes per token.
            model("gpt-oss-120b", "gpt-oss-120b (mixture of experts, 5.1B active), MXFP4", "gpt-oss-model-card",
                  params=116.83e9, active_params=5.13e9, params_16bit=2.12e9, params_lookup=EMBEDDING_GPT_OSS,
                  kv_bytes_per_token=2 * 18 * 8 * 64 * 2, weight_format="mxfp4"),
            # Same table: 20b has 20.91B parameters, 3.61B active, 19.12B MoE weights; 24 layers (12 full).
            model("gpt-oss-20b", "gpt-oss-20b (mixture of experts, 3.6B active), MXFP4", "gpt-oss-model-card",
                  params=20.91e9, active_params=3.61e9, params_16bit=1.79e9, params_lookup=EMBEDDING_GPT_OSS,
                  kv_bytes_per_token=2 * 12 * 8 * 64 * 2, weight_format="mxfp4"),
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("grattafiori2024"),
    {
        "id": "gpt-oss-model-card",
        "kind": "paper",
        "title": "gpt-oss-120b & gpt-oss-20b Model Card",
        "authors": "OpenAI",
        "date": "2025-08-05",
        "url": "https://arxiv.org/abs/2508.10925",
    },
    {
        "id": "hf-welcome-gpt-oss",
        "kind": "blog",
        "title": "Welcome GPT OSS, the new open-source model family from OpenAI!",
        "authors": "Hugging Face",
        "date": "2025-08-05",
        "url": "https://huggingface.co/blog/welcome-openai-gpt-oss",
    },
    {
        "id": "llama-cpp-quantize",
        "kind": "documentation",
        "title": "llama.cpp: quantize tool README (bits per weight and sizes of Llama 3.1 quantisations)",
        "authors": "ggml-org",
        "date": "2025",
        "url": "https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md",
    },
    {
        "id": "llama-cpp-ggml-common",
        "kind": "code",
        "title": "llama.cpp: ggml-common.h (block layouts of Q4_0, Q6_K, Q8_0 and MXFP4)",
        "authors": "ggml-org",
        "date": "2025",
        "url": "https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml-common.h",
    },
    {
        "id": "llama-cpp-4167",
        "kind": "discussion",
        "title": "Performance of llama.cpp on Apple Silicon M-series (discussion #4167)",
        "authors": "Gerganov, Georgi and contributors",
        "date": "2023-11-21",
        "url": "https://github.com/ggml-org/llama.cpp/discussions/4167",
    },
    {
        "id": "exo-1672",
        "kind": "code",
        "title": "exo pull request #1672: a 16 GB M4's Metal working set (≈ 10.67, two thirds of 16 GiB)",
        "authors": "exo contributors",
        "date": "2026-03",
        "url": "https://github.com/exo-explore/exo/pull/1672",
    },
    {
        "id": "llmfit-754",
        "kind": "code",
        "title": "llmfit pull request #754: report macOS GPU-available unified memory (11.84 of 16.00 GiB on an M3)",
        "authors": "aramz33",
        "date": "2026-07-15",
        "url": "https://github.com/AlexsJones/llmfit/pull/754",
    },
    {
        "id": "ds4-893",
        "kind": "code",
        "title": "antirez/ds4 pull request #893: stock recommendedMaxWorkingSetSize 107.52 GiB on a 128 GB M5 Max",
        "authors": "eauchs, evandhoffman",
        "date": "2026-08-29",
        "url": "https://github.com/antirez/ds4/pull/893",
    },
    {
        "id": "gpustack-1375",
        "kind": "discussion",
        "title": "GPUStack issue #1375: macOS's recommended max working set, 75 % of RAM",
        "authors": "GPUStack",
        "date": "2025-02-28",
        "url": "https://github.com/gpustack/gpustack/issues/1375",
    },
    {
        "id": "mistralrs-1486",
        "kind": "code",
        "title": "mistral.rs pull request #1486: cap Metal memory at the wired limit (2/3 of RAM up to 36 GB, 3/4 above)",
        "authors": "Buehler, Eric",
        "date": "2025-06-19",
        "url": "https://github.com/EricLBuehler/mistral.rs/pull/1486",
    },
    {
        "id": "apple-macbook-air-m4",
        "kind": "news",
        "title": "Apple introduces the new MacBook Air with the M4 chip",
        "authors": "Apple",
        "date": "2025-03-05",
        "url": "https://www.apple.com/newsroom/2025/03/apple-introduces-the-new-macbook-air-with-the-m4-chip-and-a-sky-blue-color/",
    },
    {
        "id": "nvidia-rtx-5090",
        "kind": "datasheet",
        "title": "NVIDIA GeForce RTX 5090: specifications",
        "authors": "NVIDIA",
        "date": "2025-01-30",
        "url": "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
    },
    {
        "id": "nvidia-ada-whitepaper",
        "kind": "report",
        "title": "NVIDIA Ada GPU Architecture (whitepaper)",
        "authors": "NVIDIA",
        "date": "2022",
        "url": "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf",
    },
    {
        "id": "apple-m4-max",
        "kind": "news",
        "title": "Apple introduces M4 Pro and M4 Max",
        "authors": "Apple",
        "date": "2024-10-30",
        "url": "https://www.apple.com/newsroom/2024/10/apple-introduces-m4-pro-and-m4-max/",
    },
    {
        "id": "apple-mac-studio-m3-ultra",
        "kind": "news",
        "title": "Apple unveils new Mac Studio, the most powerful Mac ever",
        "authors": "Apple",
        "date": "2025-03-05",
        "url": "https://www.apple.com/newsroom/2025/03/apple-unveils-new-mac-studio-the-most-powerful-mac-ever/",
    },
    {
        "id": "nvidia-dgx-spark",
        "kind": "datasheet",
        "title": "NVIDIA DGX Spark: specifications",
        "authors": "NVIDIA",
        "date": "2025-10",
        "url": "https://www.nvidia.com/en-us/products/workstations/dgx-spark/",
    },
    {
        "id": "amd-ryzen-ai-max-vgm",
        "kind": "blog",
        "title": "FAQs: AMD Variable Graphics Memory, VRAM, AI model sizes, quantization, MCP and more",
        "authors": "AMD",
        "date": "2025-07-29",
        "url": "https://www.amd.com/en/blogs/2025/faqs-amd-variable-graphics-memory-vram-ai-model-sizes-quantization-mcp-more.html",
    },
]

ASSUMPTIONS: list[str] = [
    "Speed is that of one conversation decoding one token at a time: each token reads the active weights and the whole KV cache once, and the reading, not the arithmetic, sets the pace; prompt processing (the wait before the first token) is not modelled.",
    "The achieved share of bandwidth defaults to 80 %, what llama.cpp measures on base M1 to M4 chips for a 7B Q4_0 model, while Q8_0 reaches about 87 % on an M2, so its speed comes out about 8 % low; wide chips reach a smaller share of their bandwidth on a 7B model (their Pro, Max and Ultra chips measure 36–74 %), and fast graphics cards do too (an RTX 5090 about 61 %), so set it lower for those.",
    "Q4_K_M and Q5_K_M mix bit widths across tensors; their bits per weight are llama.cpp's whole-file averages for Llama 3.1 8B and differ a little for other models.",
    "Weights kept at 16 bits are counted as read by every token, up to the number of active parameters, except the input embedding table (the gpt-oss presets' 0.58B parameters looked up, not read), of which a token fetches one row; the Llama presets leave their embedding (6.5 % of the 8B model's weights) among the read weights, so their speed comes out a few per cent low.",
    "The KV cache is counted at the full conversation length, so the speed shown is that at the end of a conversation that long; sliding-window layers (half of gpt-oss's) hold only their window and are left out.",
    "The share of unified memory the GPU may use is the operating system's default; it differs between macOS versions (a 16 GB M3 has been measured at 74 %, a 16 GB M4 at 67 %) and can be raised, at the risk of starving other programs; where the GPU may allocate all of it (the DGX Spark preset), the operating system's own use has to come out of the runtime allowance.",
    "A model that does not fit in the GPU's memory may still run with part of it on the CPU or read from disk, far slower than this ceiling; the calculator does not model that.",
]

FIGURES: list[dict] = [
    {
        "name": "memory",
        "kind": "memory_bar",
        "title": "Memory the GPU may use",
        "parts": [
            {"value": "weight_bytes", "label": "Weights"},
            {"value": "kv_cache_bytes", "label": "KV cache"},
            {"value": "allowance", "label": "Runtime"},
        ],
        "capacity": "gpu_memory_bytes",
    },
    {
        "name": "cost",
        "kind": "share_bar",
        "title": "Where the local cost goes",
        "parts": [
            {"value": "hardware_share", "label": "Hardware"},
            {"value": "electricity_share", "label": "Electricity"},
        ],
    },
]


def gigabytes(value: float) -> str:
    """Bytes in both units: decimal GB (as file sizes are given) and binary GiB (as memory is sold)."""
    return f"{value / 1e9:,.1f} GB ({value / GIB:,.1f} GiB)"


def bits_of(weight_format: str, custom_bits: float) -> float:
    """Bits per weight of the chosen format (the reader's own figure for "custom")."""
    bits = FORMATS[weight_format][1]
    return custom_bits if bits is None else bits


def weight_bytes_of(params: float, params_16bit: float, bits: float) -> float:
    """Bytes of ``params`` weights of which ``params_16bit`` are stored at 16 bits, the rest at ``bits``."""
    return (params - params_16bit) * bits / BITS_PER_BYTE + params_16bit * BYTES_PER_16_BIT_WEIGHT


def fit_notes(memory_needed: float, memory: float, gpu_memory: float) -> list[str]:
    if memory_needed > memory:
        return [f"The model and its conversation need {gigabytes(memory_needed)}, more than the machine's "
                f"{gigabytes(memory)}: it does not fit; choose fewer bits per weight, a smaller model or a shorter conversation."]
    if memory_needed > gpu_memory:
        return [f"The model fits in the machine's {gigabytes(memory)} but not in the {gigabytes(gpu_memory)} its GPU may use: "
                "raise the limit (on a Mac, sysctl iogpu.wired_limit_mb) or expect the runtime to leave layers on the CPU, far slower."]
    return []


def speed_notes(kv_bytes: float, active_weight_bytes: float, efficiency: float) -> list[str]:
    notes = []
    if kv_bytes > active_weight_bytes:
        notes.append(f"At this conversation length each token reads more KV cache ({gigabytes(kv_bytes)}) than weights "
                     f"({gigabytes(active_weight_bytes)}): the speed now depends on the conversation's length more than on the model's size.")
    if efficiency > 0.9:
        notes.append("llama.cpp's published runs reach at most about 83 % of the memory bandwidth; a share above 90 % likely overstates the speed.")
    return notes


def compute(
    *,
    params: float,
    active_params: float,
    weight_format: str,
    custom_bits: float,
    params_16bit: float,
    params_lookup: float,
    context_tokens: float,
    kv_bytes_per_token: float,
    allowance: float,
    memory: float,
    gpu_share: float,
    bandwidth: float,
    efficiency: float,
    hardware_price: float,
    lifetime_years: float,
    power_watts: float,
    electricity_price: float,
    hours_per_day: float,
    cloud_price: float,
) -> dict:
    """Fit in the GPU's memory, single-user speed, and local against cloud cost per million tokens.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    params = positive("params", params)
    active_params = in_range("active_params", active_params, 0, params)
    weight_format = one_of("weight_format", weight_format, FORMATS)
    custom_bits = in_range("custom_bits", custom_bits, 0, 32, open_low=True)
    params_16bit = in_range("params_16bit", params_16bit, 0, params)
    params_lookup = lookup_parameters(params, params_lookup)
    context_tokens = at_least("context_tokens", context_tokens, 0)
    kv_bytes_per_token = at_least("kv_bytes_per_token", kv_bytes_per_token, 0)
    allowance = at_least("allowance", allowance, 0)
    memory = positive("memory", memory)
    gpu_share = in_range("gpu_share", gpu_share, 0, 1, open_low=True)
    bandwidth = positive("bandwidth", bandwidth)
    efficiency = in_range("efficiency", efficiency, 0, 1, open_low=True)
    hardware_price = at_least("hardware_price", hardware_price, 0)
    lifetime_years = positive("lifetime_years", lifetime_years)
    power_watts = positive("power_watts", power_watts)
    electricity_price = at_least("electricity_price", electricity_price, 0)
    hours_per_day = in_range("hours_per_day", hours_per_day, 0, 24, open_low=True)
    cloud_price = positive("cloud_price", cloud_price)

    bits = bits_of(weight_format, custom_bits)
    weight_bytes = weight_bytes_of(params, params_16bit, bits)
    kv_bytes = context_tokens * kv_bytes_per_token
    memory_needed = weight_bytes + kv_bytes + allowance
    gpu_memory = memory * gpu_share
    room_for_weights = gpu_memory - kv_bytes - allowance - params_16bit * BYTES_PER_16_BIT_WEIGHT
    largest_params = params_16bit + room_for_weights / (bits / BITS_PER_BYTE) if room_for_weights > 0 else 0.0

    # The embedding table is looked up (one row per token), not read; a card's active count omits it
    # (calculators/_moe.py, the rule the serving calculator uses too).
    read_params = read_parameters(params, active_params, params_lookup)
    read_16bit = params_16bit - params_lookup if params_16bit >= params_lookup else params_16bit
    active_weight_bytes = weight_bytes_of(read_params, min(read_16bit, read_params), bits)
    bytes_per_token = active_weight_bytes + kv_bytes
    ceiling = bandwidth / bytes_per_token
    tokens_per_second = efficiency * ceiling

    hours_per_year = hours_per_day * DAYS_PER_YEAR
    tokens_per_year = tokens_per_second * SECONDS_PER_HOUR * hours_per_year
    hardware_per_year = hardware_price / lifetime_years
    electricity_per_year = power_watts / WATTS_PER_KILOWATT * hours_per_year * electricity_price
    local_per_year = hardware_per_year + electricity_per_year
    local_per_million = local_per_year / tokens_per_year * TOKENS_PER_MILLION
    cloud_per_year = cloud_price * tokens_per_year / TOKENS_PER_MILLION

    return {
        "params": params,
        "active_params": active_params,
        "weight_format": weight_format,
        "custom_bits": custom_bits,
        "params_16bit": params_16bit,
        "params_lookup": params_lookup,
        "context_tokens": context_tokens,
        "kv_bytes_per_token": kv_bytes_per_token,
        "allowance": allowance,
        "memory": memory,
        "gpu_share": gpu_share,
        "bandwidth": bandwidth,
        "efficiency": efficiency,
        "hardware_price": hardware_price,
        "lifetime_years": lifetime_years,
        "power_watts": power_watts,
        "electricity_price": electricity_price,
        "hours_per_day": hours_per_day,
        "cloud_price": cloud_price,
        "format_bits": bits,
        "bits_per_weight": weight_bytes * BITS_PER_BYTE / params,
        "weight_bytes": weight_bytes,
        "kv_cache_bytes": kv_bytes,
        "memory_needed_bytes": memory_needed,
        "machine_memory_bytes": memory,
        "gpu_memory_bytes": gpu_memory,
        "fits": memory_needed <= gpu_memory,
        "fits_machine": memory_needed <= memory,
        "largest_params": largest_params,
        "active_weight_bytes": active_weight_bytes,
        "bytes_per_token": bytes_per_token,
        "tokens_per_second_ceiling": ceiling,
        "tokens_per_second": tokens_per_second,
        "tokens_per_year": tokens_per_year,
        "hardware_cost_per_year": hardware_per_year,
        "electricity_cost_per_year": electricity_per_year,
        "local_cost_per_year": local_per_year,
        "cloud_cost_per_year": cloud_per_year,
        "local_cost_per_million": local_per_million,
        "electricity_cost_per_million": electricity_per_year / tokens_per_year * TOKENS_PER_MILLION,
        "cost_ratio": local_per_million / cloud_price,
        "local_cheaper": local_per_million < cloud_price,
        "hardware_share": hardware_per_year / local_per_year if local_per_year > 0 else 0.0,
        "electricity_share": electricity_per_year / local_per_year if local_per_year > 0 else 0.0,
        "notes": [*fit_notes(memory_needed, memory, gpu_memory), *speed_notes(kv_bytes, active_weight_bytes, efficiency)],
    }
