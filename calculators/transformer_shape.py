"""A dense transformer from its shape: parameters, arithmetic per token and the KV cache.

The arithmetic of "The transformer" card (D3 and D4). A decoder-only transformer is fixed by a
handful of numbers its publisher prints in a table or a config.json: layers L, width d, query
heads h, key-value heads g (grouped-query attention; g = h is ordinary multi-head attention,
g = 1 multi-query attention), head size k, feed-forward width f and vocabulary V. Everything below
follows from them.

**Parameters** (Vaswani et al., 2017, for the block; each matrix is counted as its rows × columns):

    attention per layer  = d·h·k (query) + 2·d·g·k (key and value) + h·k·d (output)
                           + h·k + 2·g·k when the query, key and value projections carry biases
                           (Qwen2 and Qwen2.5), + d more for an output bias (GPT-2 style "all")
                           + 2·k for per-head query and key norms (Qwen3)
    feed-forward         = 3·d·f for a gated unit (SwiGLU: gate, up and down, Shazeer 2020),
                           2·d·f for a plain one; biases add 2f + d (gated) or f + d (plain)
    norms                = 2 per layer and 1 at the end, d weights each (RMSNorm), 2d with a bias
                           (LayerNorm)
    vocabulary tables    = V·d for the input embedding and V·d for the output layer, once if tied
    non-embedding        = all − vocabulary tables (the count Kaplan et al., 2020, and the Qwen
                           model cards use)

**Arithmetic per token.** Every weight a token passes through costs one multiply and one add
(Kaplan et al., 2020, Table 1): 2 operations per weight in the forward pass and twice that in the
backward pass. The input embedding is a table look-up, not a product, so the forward pass costs
2 × (all − V·d) when the tables are separate, 2 × all when they are tied (the shared table then
works as the output layer). Attention adds its own products, which no weight counts: the token's
query meets each of the n keys it attends to (2·n·h·k per layer) and mixes their values (2·n·h·k
more):

    forward per token    = 2·N_matmul + 4·L·n·h·k        (n = the context, or the window if smaller)
    training per token   = 3 × forward = 6·N_matmul + 12·L·n·h·k

The training count is PaLM's model-FLOPs formula 6N + 12·L·H·Q·T (Chowdhery et al., 2022,
Appendix B) and Korthikanti et al.'s (2022) with the full sequence: kernels that skip the masked
half of causal attention do less. Kaplan's rule 6N is shown beside it.

**KV cache** (Kwon et al., 2023, §3; grouped-query attention: Ainslie et al., 2023):

    per token            = 2 (key and value) × L × g × k × bytes per number
    per sequence         = per token × n, where a sliding window of w tokens keeps only the last w
                           (the rolling buffer of Mistral 7B, Jiang et al., 2023)

Base units: parameters, FLOP, bytes, tokens. Standard library only; knows nothing of HTML. The user
interface is declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import at_least, one_of, positive, whole_count
from calculators._datasheets import shared_sources

WEIGHT_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "int4": 0.5}
KV_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0}
MLP_MATRICES: dict[str, int] = {"gated": 3, "plain": 2}
NORM_WEIGHTS: dict[str, int] = {"rms": 1, "layer": 2}  # numbers per channel: a scale, and a bias for LayerNorm
BIASES = ("none", "qkv", "all")
NORMS_PER_LAYER = 2  # before attention and before the feed-forward block
KEY_AND_VALUE = 2
FLOP_PER_WEIGHT_FORWARD = 2  # one multiply and one add (Kaplan et al. 2020, Table 1)
BACKWARD_FACTOR = 3  # forward + backward (twice the forward): 6N in all
ATTENTION_FLOP_PER_KEY = 4  # 2 for the query·key product, 2 for weighting the value, per query channel

# Where the model stops: beyond these a note says so.
ATTENTION_HEAVY = 0.25  # attention's share of the arithmetic from which causal-masking savings matter
EMBEDDING_HEAVY = 0.2  # vocabulary tables' share of the parameters from which "N" is ambiguous

TITLE = "A transformer from its shape: parameters, arithmetic per token and KV cache"


def shape(option_id: str, label: str, source: str, *, layers: int, d_model: int, heads: int, kv_heads: int,
          head_dim: int, d_ff: int, vocab: int, embeddings: str = "separate", biases: str = "none",
          qk_norm: str = "no", mlp: str = "gated", norm: str = "rms", window: int = 0) -> dict:
    """A model-shape preset: every field of the "model" group, as its publisher states it."""
    return {"id": option_id, "label": label, "source": source, "values": {
        "layers": layers, "d_model": d_model, "heads": heads, "kv_heads": kv_heads, "head_dim": head_dim,
        "d_ff": d_ff, "vocab": vocab, "embeddings": embeddings, "biases": biases, "qk_norm": qk_norm,
        "mlp": mlp, "norm": norm, "window": window}}


INPUTS: list[dict] = [
    {
        "name": "layers",
        "label": "Layers",
        "unit": "layers",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 80: Llama 3 70B (Grattafiori et al. 2024, Table 3).
        "default": 80,
        "help": "Transformer blocks stacked one on another; each has its own attention, feed-forward block and cache.",
    },
    {
        "name": "d_model",
        "label": "Width (model dimension)",
        "unit": "numbers per token",
        "control": "number",
        "min": 16,
        "max": 131072,
        "step": 1,
        "scale": "linear",
        # 8,192: Llama 3 70B.
        "default": 8192,
        "help": "The length of the vector that carries each token from layer to layer (hidden_size in a config.json).",
    },
    {
        "name": "heads",
        "label": "Query heads",
        "unit": "heads",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 64: Llama 3 70B.
        "default": 64,
        "help": "Attention heads that each ask their own question of the earlier tokens (num_attention_heads).",
    },
    {
        "name": "kv_heads",
        "label": "Key-value heads",
        "unit": "heads",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 8: Llama 3 70B shares each key-value head among 8 query heads.
        "default": 8,
        "help": "Heads that keep keys and values (num_key_value_heads). Equal to the query heads is ordinary multi-head attention, fewer is grouped-query attention, 1 is multi-query attention. It must divide the query heads.",
    },
    {
        "name": "head_dim",
        "label": "Head size",
        "unit": "numbers per head",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 128: Llama 3 70B (8,192 ÷ 64).
        "default": 128,
        "help": "Length of each head's query, key and value vectors. Usually width ÷ query heads, but not always (Qwen3-32B: 64 heads of 128 on a width of 5,120).",
    },
    {
        "name": "d_ff",
        "label": "Feed-forward width",
        "unit": "numbers",
        "control": "number",
        "min": 1,
        "max": 1048576,
        "step": 1,
        "scale": "linear",
        # 28,672: Llama 3 70B's FFN dimension.
        "default": 28672,
        "help": "Width of the feed-forward block's hidden layer (intermediate_size).",
    },
    {
        "name": "mlp",
        "label": "Feed-forward block",
        "unit": "",
        "control": "select",
        "default": "gated",
        "help": "A gated unit (SwiGLU, as in Llama, Qwen and Mistral) has three weight matrices; the original plain unit has two.",
        "options": [
            {"value": "gated", "label": "Gated, three matrices (SwiGLU)"},
            {"value": "plain", "label": "Plain, two matrices (GELU or ReLU)"},
        ],
    },
    {
        "name": "vocab",
        "label": "Vocabulary",
        "unit": "tokens",
        "control": "number",
        "min": 1,
        "max": 4000000,
        "step": 1,
        "scale": "linear",
        # 128,256: Llama 3's tokenizer (128,000 pieces and 256 special tokens).
        "default": 128256,
        "help": "Entries in the tokenizer's list (vocab_size); each has a row in the input table and another in the output layer.",
    },
    {
        "name": "embeddings",
        "label": "Input and output tables",
        "unit": "",
        "control": "select",
        "default": "separate",
        "help": "Small models often use one table both to read tokens in and to score the next token (tie_word_embeddings), saving vocabulary × width parameters.",
        "options": [
            {"value": "separate", "label": "Separate (two tables)"},
            {"value": "tied", "label": "Tied (one shared table)"},
        ],
    },
    {
        "name": "biases",
        "label": "Bias vectors",
        "unit": "",
        "control": "select",
        "default": "none",
        "help": "Llama, Mistral and Qwen3 have none; Qwen2 and Qwen2.5 add them to the query, key and value projections; GPT-2-style models to every layer.",
        "options": [
            {"value": "none", "label": "None"},
            {"value": "qkv", "label": "Query, key and value only"},
            {"value": "all", "label": "Every projection and feed-forward layer"},
        ],
    },
    {
        "name": "qk_norm",
        "label": "Norms on queries and keys",
        "unit": "",
        "control": "select",
        "default": "no",
        "help": "Qwen3 normalises each head's query and key before attention, with a learned scale of one head's size each.",
        "options": [
            {"value": "no", "label": "No"},
            {"value": "yes", "label": "Yes (Qwen3)"},
        ],
    },
    {
        "name": "norm",
        "label": "Normalisation",
        "unit": "",
        "control": "select",
        "default": "rms",
        "help": "RMSNorm learns one scale per channel; LayerNorm a scale and a shift.",
        "options": [
            {"value": "rms", "label": "RMSNorm (scale only)"},
            {"value": "layer", "label": "LayerNorm (scale and bias)"},
        ],
    },
    {
        "name": "window",
        "label": "Sliding window (0 = attend to everything)",
        "unit": "tokens",
        "control": "number",
        "min": 0,
        "max": 10000000,
        "step": 1,
        "scale": "linear",
        # 0: Llama 3 attends to the whole context.
        "default": 0,
        "help": "If every layer attends only to the last w tokens (Mistral 7B: 4,096), the cache keeps only w tokens and attention's arithmetic stops growing past w. 0 means full attention.",
    },
    {
        "name": "context",
        "label": "Context",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 10000000,
        "step": 1,
        "scale": "log",
        # 8,192: the sequence length Llama 3 was pre-trained with (Grattafiori et al. 2024, §3.4).
        "default": 8192,
        "help": "Tokens in the sequence: its length when training, or the position of the token being written when serving. The cache and attention's arithmetic grow with it.",
    },
    {
        "name": "weight_precision",
        "label": "Weight precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "Bytes each weight is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (BF16, 2 bytes)"},
            {"value": "fp8", "label": "8-bit (FP8, 1 byte)"},
            {"value": "int4", "label": "4-bit (0.5 bytes, scales not counted)"},
        ],
    },
    {
        "name": "kv_precision",
        "label": "KV cache precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "Bytes each cached key and value number is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (2 bytes)"},
            {"value": "fp8", "label": "8-bit (1 byte)"},
        ],
    },
    {
        "name": "train_tokens",
        "label": "Training tokens",
        "unit": "trillion tokens",
        "factor": 1e12,
        "control": "slider",
        "min": 0.000001,
        "max": 1000,
        "step": 0.000001,
        "scale": "log",
        # 15 trillion: "~15 trillion tokens" of pre-training for Llama 3.1 (its model card).
        "default": 15e12,
        "help": "Tokens the model is pre-trained on, in trillions; only the total training compute uses it.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "attention_params_per_layer", "label": "Attention weights per layer", "unit": "parameters", "format": "number"},
    {"name": "mlp_params_per_layer", "label": "Feed-forward weights per layer", "unit": "parameters", "format": "number"},
    {"name": "params_per_layer", "label": "One layer, norms included", "unit": "parameters", "format": "number"},
    {"name": "layer_params", "label": "All layers", "unit": "parameters", "format": "number"},
    {"name": "embedding_params", "label": "Vocabulary tables (input and output)", "unit": "parameters", "format": "number"},
    {"name": "params_total", "announce": True, "label": "Parameters in all", "unit": "parameters", "format": "number"},
    {"name": "params_non_embedding", "label": "Parameters without the vocabulary tables", "unit": "parameters", "format": "number"},
    {"name": "params_matmul", "label": "Parameters used in products (all but the input look-up table)", "unit": "parameters", "format": "number"},
    {"name": "mlp_share", "label": "Share of the parameters in the feed-forward blocks", "unit": "", "format": "percent"},
    {"name": "embedding_share", "label": "Share of the parameters in the vocabulary tables", "unit": "", "format": "percent"},
    {"name": "weight_bytes", "label": "Weights in memory", "unit": "", "format": "bytes"},
    {"name": "forward_weight_flops", "label": "Forward pass per token: products with the weights", "unit": "", "format": "flops"},
    {"name": "forward_attention_flops", "label": "Forward pass per token: attention over the context", "unit": "", "format": "flops"},
    {"name": "forward_flops", "announce": True, "label": "Forward pass per token (writing one token)", "unit": "", "format": "flops"},
    {"name": "attention_share", "label": "Attention's share of the arithmetic", "unit": "", "format": "percent"},
    {"name": "output_layer_flops", "label": "Forward pass per token: scoring every vocabulary entry", "unit": "", "format": "flops"},
    {"name": "output_layer_share", "label": "Output layer's share of the forward pass (scoring the vocabulary)", "unit": "", "format": "percent"},
    {"name": "train_flops", "label": "Training per token (forward and backward)", "unit": "", "format": "flops"},
    {"name": "train_flops_6n", "label": "Training per token by the 6N rule", "unit": "", "format": "flops"},
    {"name": "train_flops_total", "label": "Training compute for the tokens, attention included", "unit": "", "format": "flops"},
    {"name": "train_flops_6nd", "label": "Training compute by the 6ND rule", "unit": "", "format": "flops"},
    {"name": "kv_bytes_per_token", "announce": True, "label": "KV cache per token", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_sequence", "label": "KV cache for one sequence", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_token_mha", "label": "KV cache per token if every query head kept its own keys and values", "unit": "", "format": "bytes"},
    {"name": "query_heads_per_kv_head", "label": "Query heads sharing each key-value head", "unit": "", "format": "number"},
    {"name": "window_saving", "label": "Cache kept without the window ÷ with it", "unit": "×", "format": "number"},
    {"name": "kv_share_of_weights", "label": "One sequence's cache as a share of the weights", "unit": "", "format": "percent"},
    {"name": "context_matching_weights", "label": "Context at which one sequence's cache weighs as much as the weights", "unit": "tokens", "format": "number", "endless": True},
]


PRESETS: list[dict] = [
    {
        "name": "model",
        "label": "Model shape",
        "fields": ["layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "vocab", "embeddings",
                   "biases", "qk_norm", "mlp", "norm", "window"],
        "options": [
            # Grattafiori et al. 2024, Table 3; vocabulary 128,256 and untied tables in the published configs.
            shape("llama31-8b", "Llama 3.1 8B (July 2024): 32 layers × 4,096, 32 query and 8 KV heads of 128, FFN 14,336",
                  "grattafiori2024", layers=32, d_model=4096, heads=32, kv_heads=8, head_dim=128, d_ff=14336, vocab=128256),
            shape("llama31-70b", "Llama 3.1 70B (July 2024): 80 layers × 8,192, 64 query and 8 KV heads of 128, FFN 28,672",
                  "grattafiori2024", layers=80, d_model=8192, heads=64, kv_heads=8, head_dim=128, d_ff=28672, vocab=128256),
            shape("llama31-405b", "Llama 3.1 405B (July 2024): 126 layers × 16,384, 128 query and 8 KV heads of 128, FFN 53,248",
                  "grattafiori2024", layers=126, d_model=16384, heads=128, kv_heads=8, head_dim=128, d_ff=53248, vocab=128256),
            # Llama 3.2 model card: 1B (1.23B) and 3B (3.21B) with shared embeddings; shapes from the released configs.
            shape("llama32-1b", "Llama 3.2 1B (Sept 2024): 16 layers × 2,048, 32 query and 8 KV heads of 64, FFN 8,192, tied tables",
                  "llama32-model-card", layers=16, d_model=2048, heads=32, kv_heads=8, head_dim=64, d_ff=8192, vocab=128256,
                  embeddings="tied"),
            shape("llama32-3b", "Llama 3.2 3B (Sept 2024): 28 layers × 3,072, 24 query and 8 KV heads of 128, FFN 8,192, tied tables",
                  "llama32-model-card", layers=28, d_model=3072, heads=24, kv_heads=8, head_dim=128, d_ff=8192, vocab=128256,
                  embeddings="tied"),
            # Jiang et al. 2023, Table 1: dim 4096, 32 layers, head_dim 128, hidden_dim 14336, 32 heads, 8 KV heads,
            # window 4096, vocabulary 32,000.
            shape("mistral-7b", "Mistral 7B (Oct 2023): 32 layers × 4,096, 32 query and 8 KV heads of 128, FFN 14,336, 4,096-token window",
                  "jiang2023mistral", layers=32, d_model=4096, heads=32, kv_heads=8, head_dim=128, d_ff=14336, vocab=32000,
                  window=4096),
            # Qwen2.5 model cards and config.json: biases on query, key and value; untied tables for 7B and 72B.
            shape("qwen25-7b", "Qwen2.5-7B (Sept 2024): 28 layers × 3,584, 28 query and 4 KV heads of 128, FFN 18,944, QKV biases",
                  "qwen25-model-cards", layers=28, d_model=3584, heads=28, kv_heads=4, head_dim=128, d_ff=18944, vocab=152064,
                  biases="qkv"),
            shape("qwen25-72b", "Qwen2.5-72B (Sept 2024): 80 layers × 8,192, 64 query and 8 KV heads of 128, FFN 29,568, QKV biases",
                  "qwen25-model-cards", layers=80, d_model=8192, heads=64, kv_heads=8, head_dim=128, d_ff=29568, vocab=152064,
                  biases="qkv"),
            # Qwen3 model cards and config.json: head_dim 128 whatever the width, norms on queries and keys, no biases.
            shape("qwen3-4b", "Qwen3-4B (Apr 2025): 36 layers × 2,560, 32 query and 8 KV heads of 128, FFN 9,728, QK norms, tied tables",
                  "qwen3-model-cards", layers=36, d_model=2560, heads=32, kv_heads=8, head_dim=128, d_ff=9728, vocab=151936,
                  embeddings="tied", qk_norm="yes"),
            shape("qwen3-8b", "Qwen3-8B (Apr 2025): 36 layers × 4,096, 32 query and 8 KV heads of 128, FFN 12,288, QK norms",
                  "qwen3-model-cards", layers=36, d_model=4096, heads=32, kv_heads=8, head_dim=128, d_ff=12288, vocab=151936,
                  qk_norm="yes"),
            shape("qwen3-32b", "Qwen3-32B (Apr 2025): 64 layers × 5,120, 64 query and 8 KV heads of 128, FFN 25,600, QK norms",
                  "qwen3-model-cards", layers=64, d_model=5120, heads=64, kv_heads=8, head_dim=128, d_ff=25600, vocab=151936,
                  qk_norm="yes"),
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("grattafiori2024"),
    {"id": "kaplan2020", "kind": "paper", "title": "Scaling Laws for Neural Language Models", "authors": "Kaplan et al.",
     "date": "2020-01-23", "url": "https://arxiv.org/abs/2001.08361"},
    {"id": "korthikanti2022", "kind": "paper", "title": "Reducing Activation Recomputation in Large Transformer Models",
     "authors": "Korthikanti, Casper, Lym, McAfee, Andersch, Shoeybi, Catanzaro", "date": "2022-05-10",
     "url": "https://arxiv.org/abs/2205.05198"},
    {
        "id": "ainslie2023",
        "kind": "paper",
        "title": "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints",
        "authors": "Ainslie et al.",
        "date": "2023-05-22",
        "url": "https://arxiv.org/abs/2305.13245",
    },
    {
        "id": "kwon2023",
        "kind": "paper",
        "title": "Efficient Memory Management for Large Language Model Serving with PagedAttention",
        "authors": "Kwon et al.",
        "date": "2023-09-12",
        "url": "https://arxiv.org/abs/2309.06180",
    },
    {
        "id": "llama31-model-card",
        "kind": "documentation",
        "title": "Llama 3.1 model card",
        "authors": "Meta",
        "date": "2024-07-23",
        "url": "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
    },
    {"id": "shazeer2020glu", "kind": "paper", "title": "GLU Variants Improve Transformer", "authors": ["Shazeer, Noam"],
     "date": "2020-02-12", "arxiv": "2002.05202", "url": "https://arxiv.org/abs/2002.05202"},
    {"id": "chowdhery2022palm", "kind": "paper", "title": "PaLM: Scaling Language Modeling with Pathways",
     "authors": ["Chowdhery, Aakanksha", "Narang, Sharan", "Devlin, Jacob", "Bosma, Maarten"], "date": "2022-04-05",
     "arxiv": "2204.02311", "url": "https://arxiv.org/abs/2204.02311",
     "note": "Table 1 (model shapes and parameter counts) and Appendix B (model FLOPs utilisation, 6N + 12LHQT)."},
    {"id": "jiang2023mistral", "kind": "paper", "title": "Mistral 7B",
     "authors": ["Jiang, Albert Q.", "Sablayrolles, Alexandre", "Mensch, Arthur", "Bamford, Chris"], "date": "2023-10-10",
     "arxiv": "2310.06825", "url": "https://arxiv.org/abs/2310.06825",
     "note": "Table 1 (shape) and §2 (sliding-window attention and its rolling buffer cache)."},
    {"id": "llama32-model-card", "kind": "documentation", "title": "Llama 3.2 model card (text models 1B and 3B)",
     "authors": "Meta", "date": "2024-09-25",
     "url": "https://github.com/meta-llama/llama-models/blob/main/models/llama3_2/MODEL_CARD.md",
     "note": "Parameters 1B (1.23B) and 3B (3.21B), shared embeddings."},
    {"id": "qwen25-model-cards", "kind": "documentation",
     "title": "Qwen2.5-7B and Qwen2.5-72B model cards and config.json (parameters with and without embeddings, layers, heads, QKV bias)",
     "authors": "Qwen Team, Alibaba", "date": "2024-09-19", "url": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct"},
    {"id": "qwen3-model-cards", "kind": "documentation",
     "title": "Qwen3-4B, Qwen3-8B and Qwen3-32B model cards and config.json (parameters with and without embeddings, layers, heads)",
     "authors": "Qwen Team, Alibaba", "date": "2025-04-29", "url": "https://huggingface.co/Qwen/Qwen3-32B"},
]

ASSUMPTIONS: list[str] = [
    "Dense models only: every token passes through every weight. A mixture of experts (DeepSeek-V3, gpt-oss, "
    "Qwen3's MoE models) holds many feed-forward blocks and uses a few per token, and DeepSeek's latent attention "
    "caches one compressed vector per layer instead of keys and values; neither is modelled here (the serving "
    "calculator handles experts).",
    "Parameters are counted from the shape: every matrix, bias, norm and vocabulary table. Rotary position "
    "encodings have no weights; models with a learned table of positions (GPT-2, GPT-3) have context × width more "
    "than shown. Published counts are rounded, and a few model cards differ from the sum of their own tensors by "
    "up to half a per cent.",
    "Arithmetic is counted as multiplies and adds with the weights plus attention's two products over the context, "
    "in full: a token attends to every earlier token, or to the window. Norms, softmax and activations are left out "
    "(a fraction of a per cent). Kernels that skip the masked half of causal attention during training do less "
    "than this count; PaLM's and Megatron-LM's utilisation formulas count attention in full too.",
    "The training count is three forward passes' worth (backward twice the forward) with nothing recomputed; "
    "recomputing activations adds up to one more forward pass.",
    "The sliding window applies to every layer, as in Mistral 7B. Models that mix windowed and full-attention "
    "layers (gpt-oss, Gemma 3) fall between full attention and this.",
    "Bytes of weights are parameters × bytes per number; 4-bit formats also store a scale per small block of "
    "weights, which is not counted (the local calculator has real bits per weight). The cache is stored without "
    "waste, as paged attention nearly achieves.",
    "Hugging Face lists the Llama 3.1 405B cache at twice this: its table of cache sizes for the 405B model is "
    "double what 8 key-value heads of 128 give, while its 8B and 70B rows match.",
]

FIGURES: list[dict] = [
    {
        "name": "parameters",
        "kind": "share_bar",
        "title": "Where the parameters are",
        "parts": [
            {"value": "attention_share_params", "label": "Attention"},
            {"value": "mlp_share", "label": "Feed-forward"},
            {"value": "embedding_share", "label": "Vocabulary tables"},
            {"value": "other_share_params", "label": "Norms and biases"},
        ],
    },
    {
        "name": "forward",
        "kind": "share_bar",
        "title": "Arithmetic for one token",
        "parts": [
            {"value": "weight_share", "label": "Products with the weights"},
            {"value": "attention_share", "label": "Attention over the context"},
        ],
    },
    {
        "name": "memory",
        "kind": "share_bar",
        "title": "Memory for the weights and one sequence's cache",
        "parts": [
            {"value": "weights_memory_share", "label": "Weights"},
            {"value": "cache_memory_share", "label": "KV cache of one sequence"},
        ],
    },
]


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    clean = {name: whole_count(name, inputs[name]) for name in
             ("layers", "d_model", "heads", "kv_heads", "head_dim", "d_ff", "vocab", "context")}
    if clean["kv_heads"] > clean["heads"]:
        raise ValueError(f"kv_heads must be at most the query heads, {clean['heads']} (got {clean['kv_heads']})")
    if clean["heads"] % clean["kv_heads"]:
        raise ValueError(f"kv_heads must divide the {clean['heads']} query heads evenly, so that each key-value head "
                         f"serves the same number of them (got {clean['kv_heads']})")
    window = at_least("window", inputs["window"], 0)
    if not window.is_integer():
        raise ValueError(f"window must be a whole number of tokens ≥ 0 (got {inputs['window']})")
    clean["window"] = int(window)
    clean["train_tokens"] = positive("train_tokens", inputs["train_tokens"])
    clean["mlp"] = one_of("mlp", inputs["mlp"], MLP_MATRICES)
    clean["embeddings"] = one_of("embeddings", inputs["embeddings"], ("separate", "tied"))
    clean["biases"] = one_of("biases", inputs["biases"], BIASES)
    clean["qk_norm"] = one_of("qk_norm", inputs["qk_norm"], ("no", "yes"))
    clean["norm"] = one_of("norm", inputs["norm"], NORM_WEIGHTS)
    clean["weight_precision"] = one_of("weight_precision", inputs["weight_precision"], WEIGHT_BYTES)
    clean["kv_precision"] = one_of("kv_precision", inputs["kv_precision"], KV_BYTES)
    return clean


def attention_params(v: dict) -> int:
    """Query, key, value and output matrices, their biases and the per-head query and key norms."""
    d, query, kv = v["d_model"], v["heads"] * v["head_dim"], v["kv_heads"] * v["head_dim"]
    count = 2 * d * query + 2 * d * kv
    if v["biases"] in ("qkv", "all"):
        count += query + 2 * kv
    if v["biases"] == "all":
        count += d
    if v["qk_norm"] == "yes":
        count += 2 * v["head_dim"]
    return count


def mlp_params(v: dict) -> int:
    """The feed-forward block: three matrices if gated (gate, up, down), two if plain, and their biases."""
    matrices = MLP_MATRICES[v["mlp"]]
    count = matrices * v["d_model"] * v["d_ff"]
    if v["biases"] == "all":
        count += (matrices - 1) * v["d_ff"] + v["d_model"]
    return count


def parameters(v: dict) -> dict:
    """Every parameter of the shape, by part."""
    norm = NORM_WEIGHTS[v["norm"]] * v["d_model"]
    attention, mlp = attention_params(v), mlp_params(v)
    per_layer = attention + mlp + NORMS_PER_LAYER * norm
    layers = v["layers"] * per_layer
    table = v["vocab"] * v["d_model"]
    tables = table if v["embeddings"] == "tied" else 2 * table
    total = layers + norm + tables  # + the final norm
    # The input table is a look-up; when tied it is also the output layer, whose products count.
    matmul = total - (0 if v["embeddings"] == "tied" else table)
    return {
        "attention_params_per_layer": attention,
        "mlp_params_per_layer": mlp,
        "params_per_layer": per_layer,
        "layer_params": layers,
        "embedding_params": tables,
        "params_total": total,
        "params_non_embedding": total - tables,
        "params_matmul": matmul,
        "output_layer_params": table,
        "mlp_share": v["layers"] * mlp / total,
        "attention_share_params": v["layers"] * attention / total,
        "embedding_share": tables / total,
        "other_share_params": (total - v["layers"] * (attention + mlp) - tables) / total,
    }


def attended_tokens(v: dict) -> int:
    """Tokens each query attends to: the context, or the window if it is shorter."""
    return min(v["context"], v["window"]) if v["window"] else v["context"]


def arithmetic(v: dict, p: dict) -> dict:
    """FLOP per token, forward and training, with and without attention; training compute in all."""
    weights = FLOP_PER_WEIGHT_FORWARD * p["params_matmul"]
    attention = ATTENTION_FLOP_PER_KEY * v["layers"] * attended_tokens(v) * v["heads"] * v["head_dim"]
    forward = weights + attention
    train = BACKWARD_FACTOR * forward
    six_n = BACKWARD_FACTOR * FLOP_PER_WEIGHT_FORWARD * p["params_total"]
    return {
        "forward_weight_flops": weights,
        "forward_attention_flops": attention,
        "forward_flops": forward,
        "attention_share": attention / forward,
        "weight_share": weights / forward,
        "output_layer_flops": FLOP_PER_WEIGHT_FORWARD * p["output_layer_params"],
        "output_layer_share": FLOP_PER_WEIGHT_FORWARD * p["output_layer_params"] / forward,
        "train_flops": train,
        "train_flops_6n": six_n,
        "train_flops_total": train * v["train_tokens"],
        "train_flops_6nd": six_n * v["train_tokens"],
    }


def memory(v: dict, p: dict) -> dict:
    """Weights in bytes and the KV cache per token and per sequence."""
    kv_bytes = KV_BYTES[v["kv_precision"]]
    per_token = KEY_AND_VALUE * v["layers"] * v["kv_heads"] * v["head_dim"] * kv_bytes
    kept = attended_tokens(v)
    per_sequence = per_token * kept
    weights = p["params_total"] * WEIGHT_BYTES[v["weight_precision"]]
    matching = weights / per_token
    if v["window"] and v["window"] < matching:
        matching = math.inf  # the window caps the cache below the weights, however long the context
    return {
        "weight_bytes": weights,
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_sequence": per_sequence,
        "kv_bytes_per_token_mha": KEY_AND_VALUE * v["layers"] * v["heads"] * v["head_dim"] * kv_bytes,
        "query_heads_per_kv_head": v["heads"] / v["kv_heads"],
        "window_saving": v["context"] / kept,
        "kv_share_of_weights": per_sequence / weights,
        "context_matching_weights": matching,
        "weights_memory_share": weights / (weights + per_sequence),
        "cache_memory_share": per_sequence / (weights + per_sequence),
    }


def where_the_model_stops(v: dict, p: dict, flops: dict, mem: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if flops["attention_share"] > ATTENTION_HEAVY:
        notes.append(
            f"At {attended_tokens(v):,} tokens attention is {flops['attention_share'] * 100:.0f} % of the arithmetic. "
            "It is counted in full here; training kernels that skip the masked half of causal attention do less, "
            "and the 6N rule, which leaves attention out, falls well short.")
    if v["window"] and v["window"] < v["context"]:
        notes.append(
            f"Every layer is taken to see only the last {v['window']:,} tokens. Models that keep some layers of full "
            "attention cache more than this for those layers.")
    if p["embedding_share"] > EMBEDDING_HEAVY:
        notes.append(
            f"The vocabulary tables hold {p['embedding_share'] * 100:.0f} % of the parameters, so counts with and "
            "without them differ a lot: say which one a figure uses.")
    if mem["kv_share_of_weights"] > 1:
        notes.append(
            f"One sequence's cache at this context ({mem['kv_bytes_per_sequence'] / 1e9:,.1f} GB) outweighs the "
            f"weights ({mem['weight_bytes'] / 1e9:,.1f} GB): serving long contexts is limited by the cache.")
    if v["weight_precision"] == "int4":
        notes.append("4-bit weights also need a scale for every small block of weights, a few per cent more than shown.")
    if v["d_ff"] < v["d_model"]:
        notes.append("The feed-forward block is narrower than the model's width; in published dense models it is "
                     "several times wider.")
    return notes


def compute(
    *,
    layers: int,
    d_model: int,
    heads: int,
    kv_heads: int,
    head_dim: int,
    d_ff: int,
    mlp: str,
    vocab: int,
    embeddings: str,
    biases: str,
    qk_norm: str,
    norm: str,
    window: int,
    context: int,
    weight_precision: str,
    kv_precision: str,
    train_tokens: float,
) -> dict:
    """Parameters by part, FLOP per token for serving and training, and the KV cache, from a shape.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    p = parameters(v)
    flops = arithmetic(v, p)
    mem = memory(v, p)
    return {**v, **p, **flops, **mem, "notes": where_the_model_stops(v, p, flops, mem)}
