"""How many accelerators, and how many days, does training a large model take?

The arithmetic of the "GPU clusters & orchestration" card (D4). Everything is in base units:
bytes (decimal, 1 GB = 1e9 bytes), FLOP, FLOP/s, seconds. The pieces and where they come from:

* Training state per parameter in 16-bit mixed precision with Adam: 2 + 2 + 12 bytes, split
  between the data-parallel copies by ZeRO stages 1-2 (Rajbhandari et al. 2019, section 5).
  Fully sharded (ZeRO-3 / FSDP) it is counted as DeepSpeed's estimator counts it
  (``estimate_zero3_model_states_mem_needs`` in deepspeed/runtime/zero/stage3.py, and the
  "Memory Requirements" docs page): 18 bytes per parameter divided by the copies (a 16-bit
  weight, a 32-bit gradient partition, 12 bytes of Adam state) plus 4 bytes per parameter of
  the unit being gathered (16-bit weights and gradients of the largest layer). Here the
  gathered unit is one transformer block, the unit FSDP wraps.
* Activations per transformer layer (Korthikanti et al. 2022, Table 2), 16-bit:
  s·b·h·(34 + 5·a·s/h) bytes with no parallelism; with tensor parallelism alone
  s·b·h·(10 + 24/t + 5·a·s/(h·t)); with tensor and sequence parallelism that divided by t.
  Selective recomputation (or an attention kernel that never stores the s×s scores) drops the
  5·a·s/h term; full recomputation keeps only each layer's input, 2·s·b·h (Table 2), split over t
  under sequence parallelism, where Megatron-LM's checkpointed layer input is [s/t, b, h]. Under 1F1B the first pipeline stage holds min(m, p) micro-batches of its L/p
  layers, up to L layers' worth; the interleaved schedule with v chunks per accelerator holds
  L·(1 + (p-1)/(p·v)) (Korthikanti et al. 2022, section 4.2.3).
* Training compute: 6 × active parameters × tokens (Kaplan et al. 2020), optionally with the
  attention term 12·L·h·s per token (Korthikanti et al. 2022, model FLOPs
  72·B·s·L·h²·(1 + s/6h + V/12hL); Narayanan et al. 2021 use the same count). Full
  recomputation re-runs the forward pass (2 more per parameter and token: 8ND, the count in
  the training-time estimate 8TP/(nX) of Narayanan et al. 2021); selective re-runs only the
  attention scores (4·L·h·s per token).
* Training time: days = model FLOPs ÷ (accelerators × peak × MFU). ``utilisation`` is model
  FLOPs utilisation as papers report it, *measured*, so it already contains the pipeline
  bubble, communication and recomputation; the bubble is shown to explain it, not divided
  out again (issue 11: dividing by (1 - bubble) counted it twice).
* Pipeline bubble as a share of each step's time: (p-1)/(m+p-1) under 1F1B; with v virtual
  stages per device (interleaved schedule) the idle time shrinks v-fold: ((p-1)/v)/(m+(p-1)/v)
  (Narayanan et al. 2021, section 2.2).
* Mixture of experts: memory from total parameters (expert weights further split over the
  expert-parallel ways), compute from active parameters; all-to-all traffic per token and MoE
  layer = dispatch + combine, each hidden × bytes per number × top-k, forward and backward
  (DeepSeek-AI 2024, on cross-node all-to-all communication). In BF16 both ways carry 2 bytes a
  number. DeepSeek-V3 sends the dispatch in FP8 and keeps the combine in BF16 (its report, §3.3.2,
  "Low-Precision Communication"), with one 32-bit scale per 1 × 128 tile of activations (§3.3.2,
  "Fine-Grained Quantization"): 1 + 4/128 bytes a number out, 2 back. The backward pass sends the
  same the other way round (the backward of a dispatch is a combine, of a combine a dispatch, as
  DeepSeek's DeepEP library implements them), so the gradient bound for the experts goes in FP8 too.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators import _moe
from calculators._checks import in_range, one_of, positive, whole_count
from calculators._datasheets import GIB, format_options, shared_sources

SECONDS_PER_DAY = 86_400
TRAIN_FLOPS_PER_PARAM_TOKEN = 6  # forward (2) + backward (4) per parameter per token (Kaplan et al. 2020)
RECOMPUTE_FLOPS_PER_PARAM_TOKEN = 2  # full recomputation runs the forward pass again: 8ND in all
ATTENTION_FLOPS_PER_LAYER_WIDTH_TOKEN = 12  # 12·L·h·s per token, forward + backward (Korthikanti et al. 2022)
ATTENTION_FORWARD_FLOPS = 4  # QKᵀ and scores × V, forward only: 4·L·h·s per token (recomputed by "selective")
ACTIVATION_BYTES = 2  # 16-bit activations, as in Korthikanti et al. 2022 Table 2
ALL_TO_ALL_BYTES = 2  # 16-bit hidden vectors sent to and back from the experts
FP8_TILE = 128  # values per 32-bit scale in DeepSeek-V3's FP8 activations (1 x 128 tiles)
# Bytes per number of the hidden vectors: (dispatch, towards the experts; combine, back from them).
ALL_TO_ALL_FORMATS: dict[str, tuple[float, float]] = {
    "bf16": (ALL_TO_ALL_BYTES, ALL_TO_ALL_BYTES),
    "fp8-dispatch": (1 + 4 / FP8_TILE, ALL_TO_ALL_BYTES),
}

# Bytes each parameter carries in 16-bit mixed-precision training with Adam (Rajbhandari et al. 2019).
WEIGHT_BYTES = 2  # 16-bit weight
GRADIENT_BYTES = 2  # 16-bit gradient
OPTIMIZER_BYTES = 12  # 32-bit master copy, momentum and variance (4 + 4 + 4)
# Fully sharded, DeepSpeed keeps a 32-bit gradient partition (18 = 2 + 4 + 12 bytes per parameter)
# and gathers the largest layer's 16-bit weights and gradients (4 bytes per parameter of it):
# deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs.
FULLY_SHARDED_GRADIENT_BYTES = 4
GATHERED_BYTES_PER_PARAM = 4

# Which parts of the training state are split between the data-parallel copies
# (ZeRO stages 1, 2 and 3 / FSDP): sharding level -> (weights, gradients, optimizer) sharded?
SHARDED_PARTS: dict[str, tuple[bool, bool, bool]] = {
    "none": (False, False, False),
    "optimizer": (False, False, True),
    "gradients": (False, True, True),
    "everything": (True, True, True),
}
RECOMPUTE = ("none", "selective", "full")
FLOPS_RULES = ("params", "attention")
PRECISIONS = ("bf16", "fp8", "fp4")

# Where the model stops holding (each one turns into a note beside the results).
# 56.3 %: Megatron-LM's 1T-parameter benchmark (MFU 56.3 %, HFU 57.0 %), measured at data-parallel size 1, so
# without the gradient all-reduce of a real run (NVIDIA/Megatron-LM README; Korthikanti et al. 2022). The highest
# MFU we know of; a whole training run at scale reports less (Llama 3 405B: 38-43 %).
HIGHEST_PUBLISHED_MFU = 0.563
SERVER_SCALE_UP = 8  # accelerators per NVLink / Infinity Fabric server (HGX, MI300X platform)
LONG_SEQUENCE = 32_768  # beyond this, stored s×s attention scores dominate activation memory
SHAPE_MISMATCH = 2.0  # 12·L·h² this far from the parameter count: the shape is not this model's

TITLE = "Parallelism and training-time calculator"


def _slider(name: str, label: str, unit: str, low: float, high: float, default: float, help_text: str,
            *, factor: float = 1, step: float = 1, scale: str = "log") -> dict:
    spec = {"name": name, "label": label, "unit": unit, "control": "slider", "min": low, "max": high,
            "step": step, "scale": scale, "default": default, "help": help_text}
    if factor != 1:
        spec["factor"] = factor
    return spec


def _select(name: str, label: str, default: str, help_text: str, options: list[tuple[str, str]]) -> dict:
    return {"name": name, "label": label, "unit": "", "control": "select", "default": default, "help": help_text,
            "options": [{"value": value, "label": text} for value, text in options]}


INPUTS: list[dict] = [
    # 70B: the card's scenario ("the 70B model on one 80 GB accelerator"), Llama 3 70B.
    _slider("params", "Model size", "billion parameters", 0.1, 2000, 70e9,
            "All trainable parameters, in billions; for a mixture of experts, every expert counted.",
            factor=1e9, step=0.1),
    # Dense by default: active = total. DeepSeek-V3 activates 37B of 671B (DeepSeek-AI 2024).
    _slider("active_params", "Active parameters per token", "billion parameters", 0.1, 2000, 70e9,
            "Parameters each token passes through; used only when experts per layer is above 1 "
            "(a dense model uses all of them).", factor=1e9, step=0.1),
    # 15 trillion: what Llama 3 70B was trained on (Grattafiori et al., 2024).
    _slider("tokens", "Training tokens", "trillion tokens", 0.01, 100, 15e12,
            "How many tokens of text the model is trained on, in trillions.", factor=1e12, step=0.01),
    # Llama 3 70B's shape (Grattafiori et al. 2024, Table 3): 80 layers, width 8,192, 64 heads.
    _slider("layers", "Transformer layers", "layers", 1, 512, 80, "Number of transformer blocks (L)."),
    _slider("hidden", "Hidden size", "", 256, 65536, 8192, "Width of the model's hidden vectors (h)."),
    _slider("heads", "Attention heads", "heads", 1, 512, 64, "Query heads per layer (a)."),
    # 8,192: Llama 3's pre-training sequence length (Grattafiori et al. 2024).
    _slider("seq_len", "Sequence length", "tokens", 128, 1048576, 8192, "Tokens in each training sequence (s)."),
    # 1: Llama 3 and Megatron-LM's large runs use one sequence per micro-batch.
    _slider("micro_batch_size", "Micro-batch size", "sequences", 1, 64, 1,
            "Sequences in each micro-batch that flows through the pipeline (b)."),
    _slider("experts", "Experts per layer", "experts", 1, 1024, 1,
            "Routed experts in each mixture-of-experts layer; 1 means a dense model."),
    _slider("top_k", "Experts per token", "experts", 1, 64, 1, "How many experts each token is sent to (top-k)."),
    # BF16 both ways by default (Megatron-LM's and most frameworks'); the DeepSeek-V3 preset sends the dispatch in FP8.
    _select("all_to_all_format", "Number format of the expert all-to-all", "bf16",
            "What the hidden vectors travel in to the experts (dispatch) and back (combine). DeepSeek-V3 sends "
            "the dispatch in FP8 with a 32-bit scale per 128 numbers and keeps the combine in BF16.",
            [("bf16", "BF16 both ways (2 bytes a number)"),
             ("fp8-dispatch", "FP8 dispatch, BF16 combine, as DeepSeek-V3 (1.03 and 2 bytes a number)")]),
    _slider("tp", "Tensor-parallel ways", "accelerators", 1, 64, 1,
            "Each layer's matrices are cut across this many accelerators (usually within one server)."),
    _slider("pp", "Pipeline stages", "accelerators", 1, 128, 1,
            "The layers are split into this many consecutive stages, one per accelerator."),
    _slider("dp", "Data-parallel copies", "copies", 1, 16384, 1,
            "Copies of the (split) model that each train on different data and average their gradients."),
    _slider("ep", "Expert-parallel ways", "accelerators", 1, 1024, 1,
            "The experts of each layer are spread over this many accelerators, taken from the data-parallel copies."),
    # 1, so the card's experiment "set pipeline stages to 8 and move the micro-batch slider from 1
    # up to 128" starts where it says.
    _slider("micro_batches", "Micro-batches per step", "micro-batches", 1, 1024, 1,
            "Each step's batch per data-parallel copy is cut into this many micro-batches (m)."),
    _slider("virtual_stages", "Virtual stages per accelerator", "stages", 1, 16, 1,
            "1 is the plain 1F1B schedule; v > 1 is the interleaved schedule, each accelerator holding v "
            "separate slices of layers."),
    _select("sharding", "Sharding across data-parallel copies", "none",
            "Which parts of the training state the data-parallel copies split between them instead of each keeping a full set.",
            [("none", "None (16 bytes per parameter)"),
             ("optimizer", "Optimizer state, ZeRO-1 (4 + 12/dp bytes)"),
             ("gradients", "Optimizer and gradients, ZeRO-2 (2 + 14/dp bytes)"),
             ("everything", "Everything, ZeRO-3 / FSDP (18/dp bytes + one gathered layer)")]),
    _select("sequence_parallel", "Sequence parallelism", "on",
            "On: the layer norms and dropouts are split along the sequence across the tensor-parallel ways too, "
            "so every activation is divided by tp.", [("on", "On"), ("off", "Off")]),
    # Selective: what Megatron-LM recommends, and what FlashAttention-style kernels do anyway.
    _select("recompute", "Activation recomputation", "selective",
            "What the backward pass recomputes instead of storing.",
            [("none", "None (the s×s attention scores are stored)"),
             ("selective", "Selective: attention scores only (also FlashAttention)"),
             ("full", "Full: only each layer's input is kept")]),
    # 6ND by default: the count Llama 3 reports its compute in (3.8e25 FLOPs for 405B).
    _select("flops_rule", "Training arithmetic counted", "params",
            "6 × active parameters × tokens, or that plus the attention term 12·L·h·s per token, "
            "which grows with sequence length.",
            [("params", "6 × parameters × tokens"), ("attention", "6 × parameters × tokens + attention")]),
    _select("precision", "Number format of the matrix multiplications", "bf16",
            "The format the peak below is quoted for. FP8 doubles the dense BF16 rate on most parts (on TPU v5p it "
            "is no faster); FP4 is 4× BF16 on B200, GB200 and MI355X and 6× on B300 and GB300 (Blackwell Ultra). Papers usually quote MFU against the BF16 peak: against the FP8 peak the "
            "same run shows half the utilisation. Training state stays 16 bytes per parameter.",
            [("bf16", "BF16"), ("fp8", "FP8"), ("fp4", "FP4")]),
    {
        # 80 GiB: the H100 SXM's "80 GB" of HBM3, which vendors size in binary gigabytes (about 85.9e9 bytes).
        "name": "memory_per_accelerator", "label": "Memory per accelerator", "unit": "GiB", "factor": GIB,
        "control": "number", "min": 1, "max": 1000, "step": 1, "scale": "linear", "default": 80 * GIB,
        "help": "High-bandwidth memory on each accelerator, in GiB (2^30 bytes): the number on the datasheet, "
                "since an \"80 GB\" HBM part holds 80 GiB, about 85.9 decimal GB. The memory results are in decimal GB.",
    },
    {
        "name": "peak_flops", "label": "Peak dense compute per accelerator", "unit": "TFLOP/s",
        "factor": 1e12, "control": "number", "min": 1, "max": 100000, "step": 0.1, "scale": "log",
        "default": 989e12,
        "help": "Dense (not sparse) tensor throughput from the datasheet for the number format above, in TFLOP/s.",
    },
    # 0.4: Llama 3 405B measured 43 % MFU on 8,192 GPUs, 41 % and 38 % on 16,384 (Grattafiori et al. 2024, Table 4).
    _slider("utilisation", "Model FLOPs utilisation (MFU)", "of peak", 0.05, 1, 0.4,
            "Measured share of peak the run turns into model arithmetic, as papers report it (between 0 and 1). "
            "It already includes the pipeline bubble, communication and recomputation.",
            step=0.01, scale="linear"),
]

OUTPUTS: list[dict] = [
    {"name": "memory_each_bytes", "announce": True, "label": "Memory needed per accelerator", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Fits in memory", "unit": "", "format": "yesno"},
    {"name": "state_each_bytes", "label": "Training state per accelerator (weights, gradients, optimizer, gathered layer)", "unit": "", "format": "bytes"},
    {"name": "activation_bytes", "label": "Activations per accelerator (first pipeline stage)", "unit": "", "format": "bytes"},
    {"name": "bytes_per_param", "label": "State bytes per parameter on each copy", "unit": "bytes", "format": "number"},
    {"name": "total_state_bytes", "label": "Training state of one full copy", "unit": "", "format": "bytes"},
    {"name": "accelerators", "announce": True, "label": "Accelerators", "unit": "", "format": "integer"},
    {"name": "global_batch_tokens", "label": "Tokens per step (global batch)", "unit": "tokens", "format": "number"},
    {"name": "bubble", "label": "Pipeline bubble (idle share of each step, already inside MFU)", "unit": "", "format": "percent"},
    {"name": "bubble_vs_ideal", "label": "Bubble time ÷ busy time, (p − 1)/(v·m)", "unit": "", "format": "percent"},
    {"name": "train_flops", "label": "Training compute (model FLOPs)", "unit": "", "format": "flops"},
    {"name": "attention_share", "label": "Share of that compute in attention", "unit": "", "format": "percent"},
    {"name": "hardware_flops", "label": "Arithmetic actually run, with recomputation", "unit": "", "format": "flops"},
    {"name": "hardware_utilisation", "label": "Hardware FLOPs utilisation that MFU implies", "unit": "", "format": "percent"},
    {"name": "recompute_overhead", "label": "Extra arithmetic spent recomputing activations", "unit": "", "format": "percent"},
    {"name": "days", "announce": True, "label": "Training time", "unit": "", "format": "days"},
    {"name": "accelerator_hours", "label": "Accelerator-hours", "unit": "accelerator-hours", "format": "number"},
    {"name": "all_to_all_bytes_per_token_layer", "label": "Expert all-to-all per token and MoE layer", "unit": "", "format": "bytes"},
    {"name": "all_to_all_vs_bf16", "label": "Expert all-to-all against sending it all in BF16", "unit": "", "format": "percent"},
    {"name": "all_to_all_bytes_per_step", "label": "Expert all-to-all leaving each accelerator per step", "unit": "", "format": "bytes"},
]


def _accelerator_presets() -> list[dict]:
    """One option per accelerator and number format with a dense peak on its datasheet.

    The BF16 option keeps the accelerator's own id; FP8 and FP4 options add the format. Parts
    without a dense FP8 (A100, TPU v5p) or FP4 figure get no option for that format.
    """
    ids = ("a100-80gb", "h100-sxm", "h200-sxm", "b200", "b300", "gb200-nvl72", "gb300-nvl72", "mi300x", "mi355x",
           "tpu-v5p", "tpu-ironwood")
    return format_options("peak_flops", "precision", {"memory_per_accelerator": "memory"}, *ids)


def _model(option_id: str, label: str, source: str, params: float, tokens: float, layers: int, hidden: int,
           heads: int, seq_len: int, *, active: float | None = None, experts: int = 1, top_k: int = 1,
           all_to_all: str = "bf16") -> dict:
    values = {"params": params, "active_params": params if active is None else active, "tokens": tokens,
              "layers": layers, "hidden": hidden, "heads": heads, "seq_len": seq_len, "experts": experts, "top_k": top_k,
              "all_to_all_format": all_to_all}
    return {"id": option_id, "label": label, "values": values, "source": source}


PRESETS: list[dict] = [
    {
        "name": "accelerator",
        "label": "Accelerator",
        "fields": ["memory_per_accelerator", "peak_flops", "precision"],
        "options": _accelerator_presets(),
    },
    {
        "name": "model",
        "label": "Model",
        "fields": ["params", "active_params", "tokens", "layers", "hidden", "heads", "seq_len", "experts", "top_k",
                   "all_to_all_format"],
        "options": [
            # Llama 3 shapes: Grattafiori et al. 2024, Table 3; 8,192-token pre-training sequences.
            _model("llama3-8b", "8B (Llama 3 8B, 15T tokens)", "grattafiori2024", 8e9, 15e12, 32, 4096, 32, 8192),
            _model("llama3-70b", "70B (Llama 3 70B, 15T tokens)", "grattafiori2024", 70e9, 15e12, 80, 8192, 64, 8192),
            _model("llama3-405b", "405B (Llama 3.1 405B, 15.6T tokens)", "grattafiori2024", 405e9, 15.6e12, 126, 16384, 128, 8192),
            # GPT-3 175B: 96 layers, width 12,288, 96 heads, 2,048-token context, 300B tokens (Brown et al. 2020, Table 2.1).
            _model("gpt3-175b", "175B (GPT-3, 300B tokens)", "brown2020", 175e9, 300e9, 96, 12288, 96, 2048),
            # The 1T model of Narayanan et al. 2021 (Table 1: 128 layers, width 25,600, 160 heads), 450B tokens (section 5.1 estimate).
            _model("megatron-1t", "1T (Megatron-LM 1T, 450B tokens)", "narayanan2021", 1008e9, 450e9, 128, 25600, 160, 2048),
            # DeepSeek-V3: 671B total, 37B active, 61 layers, width 7,168, 128 heads, 256 routed experts, 8 per
            # token, 4K pre-training sequences, 14.8T tokens (DeepSeek-AI 2024).
            _model("deepseek-v3", "671B MoE, 37B active (DeepSeek-V3, 14.8T tokens)", "deepseek-v3", 671e9, 14.8e12,
                   61, 7168, 128, 4096, active=37e9, experts=256, top_k=8, all_to_all="fp8-dispatch"),
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-a100-datasheet", "nvidia-h100-datasheet", "nvidia-h200-datasheet", "nvidia-hgx-specs",
                    "nvidia-hgx-b200-datasheet", "nvidia-gb200-nvl72", "nvidia-gb300-nvl72", "amd-mi300x-datasheet",
                    "amd-mi355x-datasheet", "google-tpu-v5p", "google-tpu-ironwood", "grattafiori2024"),
    {"id": "korthikanti2022", "kind": "paper", "title": "Reducing Activation Recomputation in Large Transformer Models",
     "authors": "Korthikanti, Casper, Lym, McAfee, Andersch, Shoeybi, Catanzaro", "date": "2022-05-10",
     "url": "https://arxiv.org/abs/2205.05198"},
    {"id": "megatron-lm-readme", "kind": "documentation", "title": "Megatron-LM README: model and hardware FLOPs utilisation (22B to 1T)",
     "authors": "NVIDIA", "date": "2023", "url": "https://github.com/NVIDIA/Megatron-LM"},
    {"id": "narayanan2021", "kind": "paper", "title": "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
     "authors": "Narayanan et al.", "date": "2021-04-09", "url": "https://arxiv.org/abs/2104.04473"},
    {"id": "rajbhandari2019", "kind": "paper", "title": "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
     "authors": "Rajbhandari, Rasley, Ruwase, He", "date": "2019-10-04", "url": "https://arxiv.org/abs/1910.02054"},
    {"id": "deepspeed-memory", "kind": "documentation", "title": "DeepSpeed: Memory Requirements (ZeRO-2 and ZeRO-3 estimators)",
     "authors": "Microsoft DeepSpeed", "date": "2025-02",
     "url": "https://deepspeed.readthedocs.io/en/latest/memory.html"},
    {"id": "kaplan2020", "kind": "paper", "title": "Scaling Laws for Neural Language Models", "authors": "Kaplan et al.",
     "date": "2020-01-23", "url": "https://arxiv.org/abs/2001.08361"},
    {"id": "brown2020", "kind": "paper", "title": "Language Models are Few-Shot Learners", "authors": "Brown et al.",
     "date": "2020-05-28", "url": "https://arxiv.org/abs/2005.14165"},
    {"id": "deepseek-v3", "kind": "paper", "title": "DeepSeek-V3 Technical Report", "authors": "DeepSeek-AI", "date": "2024-12-27",
     "url": "https://arxiv.org/abs/2412.19437"},
    {"id": "qi2024", "kind": "paper", "title": "Zero Bubble Pipeline Parallelism", "authors": "Qi, Wan, Huang, Lin", "date": "2024-01-30",
     "url": "https://arxiv.org/abs/2401.10241"},
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
            {"value": "gathered_bytes", "label": "Gathered layer (ZeRO-3)"},
            {"value": "activation_bytes", "label": "Activations"},
        ],
        "capacity": "memory_per_accelerator",
    },
    {
        "name": "pipeline",
        "kind": "pipeline_schedule",
        # Draws plain 1F1B whatever the virtual stages: the interleaved bubble is in the "bubble" result.
        "title": "Pipeline schedule drawn as plain 1F1B, ignoring virtual stages (the bubble result counts them)",
        "stages": "pp",
        "micro_batches": "micro_batches",
    },
]

ASSUMPTIONS: list[str] = [
    "Utilisation is model FLOPs utilisation as papers measure it, so the pipeline bubble, communication "
    "stalls and recomputation are already inside it; training days are model FLOPs ÷ (accelerators × peak × MFU), "
    "and the bubble and hardware utilisation are shown to explain that figure, not taken off it again.",
    "Training state is 16 bytes per parameter (16-bit weight and gradient, 32-bit Adam master copy, momentum and "
    "variance) in every number format; FP8 or FP4 only changes the peak rate the utilisation is measured against.",
    "Fully sharded (ZeRO-3 / FSDP) state is counted like DeepSpeed's estimator: 18 bytes per parameter over the "
    "copies, because it keeps a fp32 gradient partition, plus one gathered transformer block of 16-bit weights and "
    "gradients; the ZeRO paper's 16 bytes ÷ copies is the lower bound, prefetching a second block adds more.",
    "Under full sharding the gathered unit is one transformer block (parameters ÷ layers), not the largest single "
    "module that DeepSpeed's estimator gathers (largest_layer_params, e.g. a 32M-parameter embedding); its documented "
    "ZeRO-3 examples are therefore not matched exactly, and a model whose embedding outweighs a block needs more.",
    "Sharding of optimizer state and gradients (ZeRO-1 and ZeRO-2) follows the ZeRO paper, 4 + 12/dp and 2 + 14/dp "
    "bytes per parameter; DeepSpeed's ZeRO-2 estimator budgets more, 4 + 16/dp bytes per parameter, because it "
    "keeps fp32 gradient partitions and full 16-bit weights and gradients.",
    "Activations follow Korthikanti et al. (2022) for a GPT-style block with a 4h MLP and 16-bit activations; "
    "SwiGLU MLPs, grouped-query attention and mixture-of-experts layers differ somewhat, and the embedding, logits "
    "and temporary buffers of the first and last stages are left out.",
    "The first pipeline stage holds activations of min(m, p) micro-batches of its L/p layers (1F1B), and "
    "(1 + (p - 1)/(p·v)) times that with v interleaved chunks; full recomputation keeps each layer's input, 2·s·b·h, "
    "whole on every tensor-parallel rank without sequence parallelism and split t ways with it, as Megatron-LM stores it.",
    "Selective recomputation re-runs the two attention matrix products, 4·L·h·s operations per token, as "
    "Korthikanti et al. describe in their appendix; their equation 8 adds three times as much, so the recompute "
    "overheads they quote (2.7 % for GPT-3) come out near a third of that here.",
    "A mixture of experts is described by total and active parameters, experts per layer and experts per token; "
    "every layer is taken to be an MoE layer, experts are spread evenly over the expert-parallel ways, and the "
    "all-to-all sends each token's hidden vector to each of its k experts and back, with the share (ep - 1)/ep leaving "
    "each accelerator: in BF16 both ways, or as DeepSeek-V3 sends it, the dispatch in FP8 with a 32-bit scale per 128 "
    "numbers and the combine in BF16 (the backward pass the same the other way round). Tokens bound for several "
    "experts on one accelerator or server are counted once per expert, as DeepEP's low-latency kernels send them; "
    "its training kernels send one copy per server and fan out over NVLink, which this does not model.",
    "The attention term counts the full s × s score matrix as Korthikanti et al. and Narayanan et al. do; causal "
    "attention kernels skip about half of it, so at long sequences the true work lies between the two counts.",
    "Zero-bubble schedules (Qi et al. 2024) split the backward pass to fill the bubble almost entirely; they are "
    "not modelled, so their gain shows up only as a higher utilisation.",
]


def state_bytes_per_param(sharding: str, dp: int) -> tuple[float, float, float]:
    """Bytes per parameter each data-parallel copy keeps: (weights, gradients, optimizer)."""
    weights_sharded, gradients_sharded, optimizer_sharded = SHARDED_PARTS[one_of("sharding", sharding, SHARDED_PARTS)]
    gradient_bytes = FULLY_SHARDED_GRADIENT_BYTES if weights_sharded else GRADIENT_BYTES
    return (
        WEIGHT_BYTES / dp if weights_sharded else WEIGHT_BYTES,
        gradient_bytes / dp if gradients_sharded else gradient_bytes,
        OPTIMIZER_BYTES / dp if optimizer_sharded else OPTIMIZER_BYTES,
    )


def pipeline_bubble(pp: int, micro_batches: int, virtual_stages: int = 1) -> float:
    """Share of each step a pipeline of ``pp`` stages sits idle while filling and draining.

    1F1B: (p - 1)/(m + p - 1). Interleaved with v virtual stages per accelerator the idle time
    is (p - 1)/v micro-batch slots against m busy ones (Narayanan et al. 2021).
    """
    idle = (pp - 1) / virtual_stages
    return idle / (micro_batches + idle)


def activation_bytes_per_layer(seq_len: int, batch: int, hidden: int, heads: int, tp: int,
                               sequence_parallel: bool, recompute: str) -> float:
    """Bytes of 16-bit activations one transformer layer keeps for the backward pass (Korthikanti et al. 2022, Table 2)."""
    sbh = seq_len * batch * hidden
    if recompute == "full":
        # Only the layer's input: whole on every tensor-parallel rank (Korthikanti et al. 2022, Table 2), but under
        # sequence parallelism that input is already split along the sequence, [s/t, b, h] (Megatron-LM checkpoints
        # it as is, and turns off --distribute-saved-activations under sequence parallelism for that reason).
        return ACTIVATION_BYTES * sbh / tp if sequence_parallel else ACTIVATION_BYTES * sbh
    scores = 5 * heads * seq_len / hidden if recompute == "none" else 0.0
    if sequence_parallel:
        return sbh * (34 + scores) / tp
    return sbh * (10 + 24 / tp + scores / tp)


def expert_split(params: float, active: float, experts: int, top_k: int) -> tuple[float, float]:
    """(shared parameters, all experts' parameters) from total and active counts.

    total = shared + E·e and active = shared + k·e give E·e = (total - active) ÷ (1 - k/E), the
    rule calculators/_moe.py keeps for every calculator. An active count below k/E of the total
    would leave a negative shared part (and a negative memory that "fits"): refused by that rule,
    naming active_params and the least it can be.
    """
    if experts == 1:
        return params, 0.0
    if top_k >= experts:
        raise ValueError(f"top_k must be smaller than experts (got {top_k} of {experts}); set experts to 1 for a dense model")
    if active > params:
        raise ValueError(f"active_params must be at most params (got {active:g} > {params:g})")
    return _moe.expert_split(params, active, experts, top_k)


def all_to_all_bytes_per_token_layer(hidden: int, top_k: int, experts: int, fmt: str = "bf16") -> float:
    """Dispatch + combine of one token's hidden vector to each of its k experts, forward and backward:
    2 × hidden × k × (dispatch bytes + combine bytes per number) in the format ``fmt``."""
    if experts == 1:
        return 0.0
    dispatch, combine = ALL_TO_ALL_FORMATS[fmt]
    return 2 * hidden * top_k * (dispatch + combine)


def model_flops_per_token(active: float, layers: int, hidden: int, seq_len: int, rule: str) -> tuple[float, float]:
    """(model FLOPs per token, of which attention): 6N, plus 12·L·h·s when attention is counted."""
    attention = ATTENTION_FLOPS_PER_LAYER_WIDTH_TOKEN * layers * hidden * seq_len if rule == "attention" else 0.0
    return TRAIN_FLOPS_PER_PARAM_TOKEN * active + attention, attention


def recompute_flops_per_token(active: float, layers: int, hidden: int, seq_len: int, rule: str, recompute: str) -> float:
    """Extra arithmetic the backward pass spends recomputing, per token, in the same count as the model FLOPs."""
    attention_forward = ATTENTION_FORWARD_FLOPS * layers * hidden * seq_len if rule == "attention" else 0.0
    if recompute == "full":
        return RECOMPUTE_FLOPS_PER_PARAM_TOKEN * active + attention_forward
    return attention_forward if recompute == "selective" else 0.0


def model_notes(r: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if r["utilisation"] > HIGHEST_PUBLISHED_MFU:
        notes.append(f"A utilisation of {r['utilisation']:.1%} is above the best published MFU we know of, 56.3 % for "
                     "Megatron-LM's 1-trillion-parameter benchmark with no data parallelism (Korthikanti et al. 2022): "
                     "a real run with data parallelism would take longer than this says.")
    if r["hardware_utilisation"] > 1:
        notes.append("With this much recomputation the accelerators would have to run above their peak to reach "
                     "this MFU: lower the utilisation.")
    if r["pp"] > 1 and r["micro_batches"] < r["pp"]:
        notes.append(f"Fewer micro-batches ({r['micro_batches']}) than pipeline stages ({r['pp']}): the pipeline never "
                     "fills, and no published run works like this; use at least as many micro-batches as stages.")
    if r["pp"] > r["layers"]:
        notes.append("More pipeline stages than layers: some stages would hold no layer at all.")
    if not r["fits"]:
        notes.append(f"Does not fit: each accelerator needs {r['memory_each_bytes'] / 1e9:,.1f} GB of its "
                     f"{r['memory_per_accelerator'] / 1e9:,.1f} GB ({r['memory_per_accelerator'] / GIB:,.0f} GiB; "
                     "1 GB = 10^9 bytes); split further, shard, or recompute activations.")
    if r["tp"] > SERVER_SCALE_UP:
        notes.append(f"Tensor parallelism over {r['tp']} ways leaves one {SERVER_SCALE_UP}-accelerator server; only "
                     "rack-scale domains such as GB200/GB300 NVL72 keep it on the fast links, elsewhere it crawls over the network.")
    if r["recompute"] == "none" and r["seq_len"] >= LONG_SEQUENCE:
        notes.append(f"At {r['seq_len']:,} tokens without recomputation the stored s × s attention scores dominate "
                     "memory; no long-context run stores them (use selective recomputation or a FlashAttention-style kernel).")
    shape_params = 12 * r["layers"] * r["hidden"] ** 2
    if r["experts"] == 1 and not 1 / SHAPE_MISMATCH <= shape_params / r["params"] <= SHAPE_MISMATCH:
        notes.append("Layers and hidden size describe a model of about "
                     f"{shape_params / 1e9:,.0f} billion parameters, not {r['params'] / 1e9:,.0f}: pick a model preset "
                     "or set the shape, or activations and attention are counted for the wrong model.")
    if r["experts"] > 1 and r["ep"] > r["dp"]:
        notes.append("Expert parallelism is normally taken from the data-parallel copies (ep ≤ dp); here it is not.")
    if r["experts"] > 1 and r["ep"] > r["experts"]:
        notes.append("More expert-parallel ways than experts: some accelerators would hold no expert.")
    if r["precision"] == "fp4":
        notes.append("Few published training runs do their matrix multiplications in FP4: "
                     "treat any utilisation against the FP4 peak as unproven.")
    return notes


def compute(
    *,
    params: float,
    active_params: float,
    tokens: float,
    layers: int,
    hidden: int,
    heads: int,
    seq_len: int,
    micro_batch_size: int,
    experts: int,
    top_k: int,
    tp: int,
    pp: int,
    dp: int,
    ep: int,
    micro_batches: int,
    virtual_stages: int,
    sharding: str,
    sequence_parallel: str,
    recompute: str,
    flops_rule: str,
    precision: str,
    all_to_all_format: str,
    peak_flops: float,
    utilisation: float,
    memory_per_accelerator: float,
) -> dict:
    """Memory per accelerator, accelerator count, pipeline bubble, training compute and days.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    r = {
        "params": positive("params", params), "active_params": positive("active_params", active_params),
        "tokens": positive("tokens", tokens),
        **{name: whole_count(name, value) for name, value in (
            ("layers", layers), ("hidden", hidden), ("heads", heads), ("seq_len", seq_len),
            ("micro_batch_size", micro_batch_size), ("experts", experts), ("top_k", top_k), ("tp", tp), ("pp", pp),
            ("dp", dp), ("ep", ep), ("micro_batches", micro_batches), ("virtual_stages", virtual_stages))},
        "sharding": one_of("sharding", sharding, SHARDED_PARTS),
        "sequence_parallel": one_of("sequence_parallel", sequence_parallel, ("on", "off")),
        "recompute": one_of("recompute", recompute, RECOMPUTE),
        "flops_rule": one_of("flops_rule", flops_rule, FLOPS_RULES),
        "precision": one_of("precision", precision, PRECISIONS),
        "all_to_all_format": one_of("all_to_all_format", all_to_all_format, ALL_TO_ALL_FORMATS),
        "peak_flops": positive("peak_flops", peak_flops),
        "utilisation": in_range("utilisation", utilisation, 0, 1, open_low=True),
        "memory_per_accelerator": positive("memory_per_accelerator", memory_per_accelerator),
    }
    r.update(_memory(r))
    r.update(_time(r))
    r["notes"] = model_notes(r)
    return r


def _memory(r: dict) -> dict:
    """Training state, gathered layer and activations on one accelerator of the first pipeline stage."""
    shared, all_experts = expert_split(r["params"], r["active_params"], r["experts"], r["top_k"])
    held_shared = shared / (r["tp"] * r["pp"])
    held_experts = all_experts / (r["ep"] * r["tp"] * r["pp"])
    held_params = held_shared + held_experts  # parameters whose state this accelerator keeps
    # Shared state is sharded over all dp copies; an expert's state only over the dp/ep copies that hold
    # that expert (the expert-data-parallel group of DeepSpeed-MoE and Megatron-LM), not over dp again.
    shared_bpp = state_bytes_per_param(r["sharding"], r["dp"])
    expert_bpp = state_bytes_per_param(r["sharding"], max(r["dp"] / r["ep"], 1))
    weights, gradients, optimizer = (held_shared * a + held_experts * b for a, b in zip(shared_bpp, expert_bpp))
    fully_sharded = SHARDED_PARTS[r["sharding"]][0]
    gathered = GATHERED_BYTES_PER_PARAM * held_params * r["pp"] / r["layers"] if fully_sharded else 0.0
    per_layer = activation_bytes_per_layer(r["seq_len"], r["micro_batch_size"], r["hidden"], r["heads"], r["tp"],
                                           r["sequence_parallel"] == "on", r["recompute"])
    in_flight = min(r["micro_batches"], r["pp"])
    interleaving = 1 + (r["pp"] - 1) / (r["pp"] * r["virtual_stages"]) if r["virtual_stages"] > 1 else 1
    activations = per_layer * r["layers"] / r["pp"] * in_flight * interleaving
    stored = activation_bytes_per_layer(r["seq_len"], r["micro_batch_size"], r["hidden"], r["heads"], r["tp"],
                                        r["sequence_parallel"] == "on", "none")
    selective = activation_bytes_per_layer(r["seq_len"], r["micro_batch_size"], r["hidden"], r["heads"], r["tp"],
                                           r["sequence_parallel"] == "on", "selective")
    state = weights + gradients + optimizer + gathered
    return {
        "bytes_per_param": sum(shared_bpp),
        "total_state_bytes": r["params"] * (WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES),
        "weights_bytes": weights,
        "gradients_bytes": gradients,
        "optimizer_bytes": optimizer,
        "gathered_bytes": gathered,
        "state_each_bytes": state,
        "activation_bytes_per_layer": per_layer,
        "attention_score_share": 1 - selective / stored,  # what selective recomputation saves
        "activation_bytes": activations,
        "memory_each_bytes": state + activations,
        "fits": state + activations <= r["memory_per_accelerator"],
    }


def _time(r: dict) -> dict:
    """Compute, bubble, days and the expert all-to-all traffic."""
    active = r["active_params"] if r["experts"] > 1 else r["params"]
    per_token, attention = model_flops_per_token(active, r["layers"], r["hidden"], r["seq_len"], r["flops_rule"])
    extra = recompute_flops_per_token(active, r["layers"], r["hidden"], r["seq_len"], r["flops_rule"], r["recompute"])
    accelerators = r["tp"] * r["pp"] * r["dp"]
    train_flops = per_token * r["tokens"]
    seconds = train_flops / (accelerators * r["peak_flops"] * r["utilisation"])
    days = seconds / SECONDS_PER_DAY
    tokens_per_copy = r["micro_batch_size"] * r["seq_len"] * r["micro_batches"]
    per_token_layer = all_to_all_bytes_per_token_layer(r["hidden"], r["top_k"], r["experts"], r["all_to_all_format"])
    in_bf16 = all_to_all_bytes_per_token_layer(r["hidden"], r["top_k"], r["experts"])
    leaving = (r["ep"] - 1) / r["ep"]
    return {
        "active_params_used": active,
        "accelerators": accelerators,
        "global_batch_tokens": tokens_per_copy * r["dp"],
        "bubble": pipeline_bubble(r["pp"], r["micro_batches"], r["virtual_stages"]),
        "bubble_vs_ideal": (r["pp"] - 1) / (r["virtual_stages"] * r["micro_batches"]),  # Narayanan et al.'s "bubble time fraction"
        "train_flops": train_flops,
        "attention_share": attention / per_token,
        "hardware_flops": (per_token + extra) * r["tokens"],
        "hardware_utilisation": r["utilisation"] * (per_token + extra) / per_token,
        "recompute_overhead": extra / per_token,
        "achieved_flops_per_accelerator": r["peak_flops"] * r["utilisation"],
        "seconds": seconds,
        "days": days,
        "accelerator_days": days * accelerators,
        "accelerator_hours": days * accelerators * 24,
        "all_to_all_bytes_per_token_layer": per_token_layer,
        "all_to_all_vs_bf16": per_token_layer / in_bf16 if in_bf16 else 1.0,
        # this accelerator's share of its copy's tokens (split over tp), through its stage's MoE layers
        "all_to_all_bytes_per_step": tokens_per_copy / r["tp"] * r["layers"] / r["pp"] * per_token_layer * leaving,
    }
