"""How big a model, on how many tokens, for a compute budget, and what loss to expect?

The arithmetic of the "Pre-training and scaling laws" card (D3, D4). Two questions side by side:
what a budget of C FLOP should buy under each published fit, and how a model of N parameters
trained on D tokens compares with what its own compute could have bought.

**Training compute.** A dense transformer does about 2N operations per token in the forward pass
and twice that in the backward pass, so training costs C ≈ 6ND (Kaplan et al., 2020, §2.1,
Table 1). Their fuller count of the forward pass is 2N + 2 n_layer n_ctx d_attn per token: the
second term is attention's scores and weighted sum over the context, which grows with the context
length and is not in N. Training, three times the forward pass, adds 6 n_layer n_ctx d_model per
token (d_attn = d_model in the usual shapes). Causal masking could skip half of that term; Kaplan's
count, used here, does not.

**Chinchilla, approaches 1 and 2** (Hoffmann et al., 2022, Table 2: N_opt ∝ C^0.50 and
D_opt ∝ C^0.50 (approach 1); 0.49 and 0.51 (approach 2)). With both exponents one half the
compute-optimal model keeps a fixed number r of tokens per parameter; C = 6ND then gives
N = sqrt(C / 6r) and D = rN. r = 20 is the rule the paper's Table 3 implies (its rows run from
20.0 at 400 million parameters to 21.6 at 10 trillion).

**Chinchilla, approach 3**: the loss fitted as L(N, D) = E + A/N^α + B/D^β (Hoffmann et al., 2022,
eq. 2 and Appendix D.2: E = 1.69, A = 406.4, B = 410.7, α = 0.34, β = 0.28, as printed). Minimised
under C = 6ND (their eq. 4): G = (αA / βB)^(1/(α+β)), N_opt = G (C/6)^(β/(α+β)),
D_opt = (C/6) / N_opt. Besiroglu et al. (2024) refitted the same data (read off the paper's
Figure 4) and found E = 1.8172, A = 482.01, B = 2085.43, α = 0.3478, β = 0.3658, whose optimum
agrees with approaches 1 and 2; both fits are offered. Along the optimum α·A/N^α = β·B/D^β, so the
least compute that reaches a loss L is 6ND with N = (A(1 + α/β) / (L − E))^(1/α) and
D = (B(1 + β/α) / (L − E))^(1/β).

**Kaplan et al. (2020)**: N_opt = 1.3 × 10⁹ × (C_min / PF-day)^0.73 non-embedding parameters
(their eq. 6.1 and Table 6), where C_min is the compute at a batch far below the critical batch;
training at the critical batch, as they advise, spends twice that (their eq. 5.5 with B = B_crit),
so C_min = C / 2 here. That is how Hoffmann et al. (2022, D.4) turned Kaplan's rule into
"4.68 billion parameters at 10²¹ FLOP". Tokens are D = C / 6N, so both fits spend the same budget.
Kaplan's loss in N and D is their eq. 1.5: L = ((N_c/N)^(α_N/α_D) + D_c/D)^α_D with
N_c = 8.8 × 10¹³, α_N = 0.076, D_c = 5.4 × 10¹³ tokens, α_D = 0.095 (their eqs. 1.1, 1.2). Its loss is
in nats per token of WebText2 with GPT-2's tokenizer; Chinchilla's is on MassiveText with another
tokenizer: the two losses are not comparable with each other, only within a fit.

Base units: FLOP, parameters, tokens; loss in nats per token.
Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import in_range, one_of, positive, whole_count
from calculators._datasheets import shared_sources

# Approach-3 fits of L(N, D) = E + A/N^alpha + B/D^beta.
LOSS_FITS: dict[str, dict[str, float]] = {
    # Hoffmann et al. 2022, Appendix D.2, as printed (rounded).
    "hoffmann2022": {"E": 1.69, "A": 406.4, "B": 410.7, "alpha": 0.34, "beta": 0.28},
    # Besiroglu et al. 2024, Table 1 (refit on the data of Hoffmann et al.'s Figure 4).
    "besiroglu2024": {"E": 1.8172, "A": 482.01, "B": 2085.43, "alpha": 0.3478, "beta": 0.3658},
}
# Kaplan et al. 2020: eq. 1.1, 1.2 (Table 5) and eq. 6.1 (Table 6).
KAPLAN_N_C = 8.8e13  # non-embedding parameters
KAPLAN_ALPHA_N = 0.076
KAPLAN_D_C = 5.4e13  # tokens
KAPLAN_ALPHA_D = 0.095
KAPLAN_N_PER_PF_DAY = 1.3e9  # N_opt at C_min = 1 PF-day
KAPLAN_EXPONENT = 0.73
PF_DAY = 1e15 * 24 * 3600  # 8.64e19 FLOP
CRITICAL_BATCH_FACTOR = 2  # C = 2 C_min when training at the critical batch size (Kaplan eq. 5.5)
FLOP_PER_PARAM_TOKEN = 6  # 2 forward + 4 backward

# Where the model stops: beyond these, a note says so.
# Hoffmann et al. 2022, Table A3 (approach 3): a 1-billion-parameter model is compute-optimal at 1.62e20 FLOP.
TABLE_A3_PARAMS, TABLE_A3_FLOP = 1e9, 1.62e20
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MEASURED_UP_TO_FLOP = 1e22  # the fits' own runs: Hoffmann et al. up to 16B parameters, Kaplan 1.5B
OPEN_WEB_TOKENS = 15e12  # FineWeb, the largest open English web corpus of 2024 (Penedo et al.)
OVERTRAINED_TOKENS_PER_PARAM = 100

TITLE = "Scaling-laws calculator"

INPUTS: list[dict] = [
    {
        "name": "compute_budget",
        "label": "Compute budget",
        "unit": "FLOP",
        "control": "slider",
        "min": 1e15,
        "max": 1e29,
        "step": 0.01,
        "scale": "log",
        # 5.76e23: the budget Gopher and Chinchilla were both trained with (Hoffmann et al. 2022, Table 3).
        "default": 5.76e23,
        "help": "Training operations you can afford, in FLOP; type 5.76e23 for 5.76 × 10²³.",
    },
    {
        "name": "tokens_per_param",
        "label": "Chinchilla rule: tokens per parameter",
        "unit": "tokens per parameter",
        "control": "slider",
        "min": 1,
        "max": 100,
        "step": 0.1,
        "scale": "linear",
        # 20: the ratio Hoffmann et al.'s Table 3 implies (20.0 to 21.6 along its rows).
        "default": 20,
        "help": "How many training tokens each parameter gets in a compute-optimal run under Chinchilla's approaches 1 and 2 (about 20).",
    },
    {
        "name": "loss_fit",
        "label": "Fit of the loss L(N, D) = E + A/Nᵅ + B/Dᵝ",
        "unit": "",
        "control": "select",
        "default": "hoffmann2022",
        "help": "Hoffmann et al.'s constants as printed, or Besiroglu et al.'s refit of the same data.",
        "options": [
            {"value": "hoffmann2022", "label": "Hoffmann et al. 2022 as printed, rounded: they do not reproduce the paper's own Table A3 (E 1.69, A 406.4, B 410.7, α 0.34, β 0.28)"},
            {"value": "besiroglu2024", "label": "Besiroglu et al. 2024 refit (E 1.82, A 482, B 2085, α 0.348, β 0.366)"},
        ],
    },
    {
        "name": "params",
        "label": "Your model: parameters (N)",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "slider",
        "min": 0.001,
        "max": 100000,
        "step": 0.001,
        "scale": "log",
        # 70B: Chinchilla (Hoffmann et al. 2022, §4).
        "default": 70e9,
        "help": "The model you train or plan, in billions of parameters.",
    },
    {
        "name": "tokens",
        "label": "Your model: training tokens (D)",
        "unit": "trillion tokens",
        "factor": 1e12,
        "control": "slider",
        "min": 0.000001,
        "max": 10000,
        "step": 0.000001,
        "scale": "log",
        # 1.4T: Chinchilla (Hoffmann et al. 2022, §4).
        "default": 1.4e12,
        "help": "Tokens the model is trained on, repeats included, in trillions.",
    },
    {
        "name": "layers",
        "label": "Your model: layers (n_layer)",
        "unit": "layers",
        "control": "slider",
        "min": 1,
        "max": 512,
        "step": 1,
        "scale": "log",
        # 80: Chinchilla 70B (Hoffmann et al. 2022, Table 4).
        "default": 80,
        "help": "Transformer blocks in the model; used only for attention's extra operations.",
    },
    {
        "name": "d_model",
        "label": "Your model: width (d_model)",
        "unit": "",
        "control": "slider",
        "min": 64,
        "max": 65536,
        "step": 1,
        "scale": "log",
        # 8,192: Chinchilla 70B (Hoffmann et al. 2022, Table 4).
        "default": 8192,
        "help": "The model's hidden size; attention's extra operations grow with it.",
    },
    {
        "name": "context",
        "label": "Your model: training context (n_ctx)",
        "unit": "tokens",
        "control": "slider",
        "min": 16,
        "max": 1048576,
        "step": 1,
        "scale": "log",
        # 2,048: the sequence length Gopher and Chinchilla were trained with (Rae et al. 2021).
        "default": 2048,
        "help": "Tokens in each training sequence; attention's extra operations grow in step with it.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "rule_params", "announce": True, "label": "Chinchilla rule: compute-optimal parameters", "unit": "parameters", "format": "number"},
    {"name": "rule_tokens", "label": "Chinchilla rule: compute-optimal tokens", "unit": "tokens", "format": "number"},
    {"name": "rule_loss", "label": "Chinchilla rule: predicted loss (the chosen fit)", "unit": "nats per token", "format": "number"},
    # Worked out here from the chosen constants: never to be read as Hoffmann et al.'s Table A3, which the
    # printed constants do not reproduce (Besiroglu et al. 2024), hence the labels and the note below.
    {"name": "fit_params", "announce": True, "label": "Approach-3 formula with the chosen constants (not the paper's Table A3): compute-optimal parameters", "unit": "parameters", "format": "number"},
    {"name": "fit_tokens", "label": "Approach-3 formula with the chosen constants: compute-optimal tokens", "unit": "tokens", "format": "number"},
    {"name": "fit_tokens_per_param", "label": "Approach-3 formula with the chosen constants: tokens per parameter", "unit": "", "format": "number"},
    {"name": "fit_loss", "label": "Approach-3 formula with the chosen constants: least predicted loss for the budget", "unit": "nats per token", "format": "number"},
    {"name": "kaplan_params", "announce": True, "label": "Kaplan: compute-optimal parameters", "unit": "parameters", "format": "number"},
    {"name": "kaplan_tokens", "label": "Kaplan: tokens (budget ÷ 6N)", "unit": "tokens", "format": "number"},
    {"name": "kaplan_tokens_per_param", "label": "Kaplan: tokens per parameter", "unit": "", "format": "number"},
    {"name": "kaplan_loss", "label": "Kaplan: predicted loss, eq. 1.5 (WebText2, not comparable with Chinchilla's)", "unit": "nats per token", "format": "number"},
    {"name": "kaplan_split_loss", "label": "Kaplan's split, judged by the chosen Chinchilla fit", "unit": "nats per token", "format": "number"},
    {"name": "model_tokens_per_param", "announce": True, "label": "Your model: tokens per parameter", "unit": "", "format": "number"},
    {"name": "model_flops_6nd", "label": "Your model: training compute 6ND", "unit": "", "format": "flops"},
    {"name": "attention_flops", "label": "Your model: attention's extra compute 6 n_layer n_ctx d_model D", "unit": "", "format": "flops"},
    {"name": "model_flops", "label": "Your model: training compute with attention", "unit": "", "format": "flops"},
    {"name": "attention_share", "label": "Your model: attention's share of the compute", "unit": "", "format": "percent"},
    {"name": "model_loss", "label": "Your model: predicted loss (the chosen fit)", "unit": "nats per token", "format": "number"},
    {"name": "model_kaplan_loss", "label": "Your model: predicted loss, Kaplan eq. 1.5", "unit": "nats per token", "format": "number"},
    {"name": "model_optimal_params", "label": "Compute-optimal parameters for your model's 6ND (the chosen fit)", "unit": "parameters", "format": "number"},
    {"name": "model_optimal_loss", "label": "Least loss your model's 6ND could buy (the chosen fit)", "unit": "nats per token", "format": "number"},
    {"name": "compute_equivalent", "label": "Least compute that reaches your model's loss (the chosen fit)", "unit": "", "format": "flops"},
    {"name": "compute_overhead", "label": "Your model's 6ND ÷ that least compute", "unit": "×", "format": "number"},
]

PRESETS: list[dict] = [
    {
        "name": "model",
        "label": "Model",
        "fields": ["params", "tokens", "layers", "d_model", "context"],
        "options": [
            {
                "id": "chinchilla-70b",
                "label": "Chinchilla 70B: 1.4T tokens, 80 layers × 8,192, 2,048 context",
                "values": {"params": 70e9, "tokens": 1.4e12, "layers": 80, "d_model": 8192, "context": 2048},
                "source": "hoffmann2022",
            },
            {
                "id": "gopher-280b",
                "label": "Gopher 280B: 300B tokens, 80 layers × 16,384, 2,048 context",
                "values": {"params": 280e9, "tokens": 300e9, "layers": 80, "d_model": 16384, "context": 2048},
                "source": "hoffmann2022",
            },
            {
                "id": "gpt3-175b",
                "label": "GPT-3 175B: 300B tokens, 96 layers × 12,288, 2,048 context",
                "values": {"params": 175e9, "tokens": 300e9, "layers": 96, "d_model": 12288, "context": 2048},
                "source": "brown2020",
            },
            {
                "id": "llama3-8b",
                "label": "Llama 3 8B: 15T tokens, 32 layers × 4,096, 8,192 context",
                "values": {"params": 8e9, "tokens": 15e12, "layers": 32, "d_model": 4096, "context": 8192},
                "source": "grattafiori2024",
            },
            {
                "id": "llama31-405b",
                "label": "Llama 3.1 405B: 15.6T tokens, 126 layers × 16,384, 8,192 context",
                "values": {"params": 405e9, "tokens": 15.6e12, "layers": 126, "d_model": 16384, "context": 8192},
                "source": "grattafiori2024",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("grattafiori2024"),
    {"id": "kaplan2020", "kind": "paper", "title": "Scaling Laws for Neural Language Models", "authors": "Kaplan et al.",
     "date": "2020-01-23", "url": "https://arxiv.org/abs/2001.08361"},
    {"id": "brown2020", "kind": "paper", "title": "Language Models are Few-Shot Learners", "authors": "Brown et al.",
     "date": "2020-05-28", "url": "https://arxiv.org/abs/2005.14165"},
    {"id": "hoffmann2022", "kind": "paper", "title": "Training Compute-Optimal Large Language Models",
     "authors": ["Hoffmann, Jordan", "Borgeaud, Sebastian", "Mensch, Arthur", "Buchatskaya, Elena"],
     "date": "2022-03-29", "arxiv": "2203.15556", "url": "https://arxiv.org/abs/2203.15556"},
    {"id": "besiroglu2024", "kind": "paper", "title": "Chinchilla Scaling: A replication attempt",
     "authors": ["Besiroglu, Tamay", "Erdil, Ege", "Barnett, Matthew", "You, Josh"],
     "date": "2024-04-15", "arxiv": "2404.10102", "url": "https://arxiv.org/abs/2404.10102"},
    {"id": "muennighoff2023", "kind": "paper", "title": "Scaling Data-Constrained Language Models",
     "authors": ["Muennighoff, Niklas", "Rush, Alexander M.", "Barak, Boaz", "Le Scao, Teven"],
     "date": "2023-05-25", "arxiv": "2305.16264", "url": "https://arxiv.org/abs/2305.16264"},
    {"id": "sardana2023", "kind": "paper", "title": "Beyond Chinchilla-Optimal: Accounting for Inference in Language Model Scaling Laws",
     "authors": ["Sardana, Nikhil", "Portes, Jacob", "Doubov, Sasha", "Frankle, Jonathan"],
     "date": "2023-12-31", "arxiv": "2401.00448", "url": "https://arxiv.org/abs/2401.00448"},
]

ASSUMPTIONS: list[str] = [
    "Training compute is 6 operations per parameter per token, plus Kaplan et al.'s attention term 6 × layers × context × width per token; embeddings, the softmax and causal masking (which could skip half the attention term) are left out, so real counts differ by a few per cent (Hoffmann et al.'s Table A4: 0.99 to 1.10 times 6ND).",
    "The Chinchilla rule keeps a fixed number of tokens per parameter (exponents of one half, approaches 1 and 2); the paper's Table 3 drifts from 20.0 to 21.6 tokens per parameter along its rows, so the rule at 20 lands within about 8 % of each row's compute.",
    "The approach-3 constants as printed are rounded: with α = 0.34 and β = 0.28 the optimum grows as C^0.45 and does not reproduce the approach-3 rows of Hoffmann et al.'s Table A3 (for 1 billion parameters it asks for 1.6 times their 1.62 × 10²⁰ FLOP), and Besiroglu et al. found the printed fit inconsistent with the paper's own data; their refit is offered beside it.",
    "Kaplan's rule is for non-embedding parameters, fitted on models up to 1.5 billion of them with one learning-rate schedule length; Hoffmann et al. traced much of its lean towards big models to that schedule. Its budget is taken as twice Kaplan's C_min, the cost of training at the critical batch size.",
    "Losses are nats per token on each paper's own data and tokenizer (MassiveText for Chinchilla, WebText2 for Kaplan): compare losses within one fit, never across fits, models trained on other data, or other tokenizers.",
    "Every token is assumed new: repeating data for more than about four epochs is worth less than fresh data (Muennighoff et al., 2023), and the laws say nothing of mixtures of experts, whose compute follows active parameters while quality depends on total parameters too.",
    "Compute-optimal means the least training compute for a loss; a model that will answer many requests is cheaper overall when smaller and trained on more tokens (Sardana et al., 2023), which is why recent models sit far past 20 tokens per parameter.",
]

FIGURES: list[dict] = [
    {
        "name": "isoflop",
        "kind": "curve",
        "title": "Predicted loss against model size, all at the compute budget (the chosen fit)",
        "points": "isoflop_points",
        "marks": "isoflop_marks",
        "x_format": "number",
        "y_format": "number",
        "x_label": "Parameters",
        "y_label": "loss",
    },
    {
        "name": "loss_terms",
        "kind": "share_bar",
        "title": "Your model's predicted loss, term by term (the chosen fit)",
        "parts": [
            {"value": "loss_share_entropy", "label": "Irreducible E"},
            {"value": "loss_share_params", "label": "Too few parameters A/Nᵅ"},
            {"value": "loss_share_data", "label": "Too little data B/Dᵝ"},
        ],
    },
    {
        "name": "compute_terms",
        "kind": "share_bar",
        "title": "Your model's training compute",
        "parts": [
            {"value": "dense_share", "label": "6ND"},
            {"value": "attention_share", "label": "Attention over the context"},
        ],
    },
]


def fit_loss(fit: dict[str, float], params: float, tokens: float) -> float:
    """Approach 3: L(N, D) = E + A/N^alpha + B/D^beta (Hoffmann et al. 2022, eq. 2)."""
    return fit["E"] + fit["A"] / params ** fit["alpha"] + fit["B"] / tokens ** fit["beta"]


def fit_optimum(fit: dict[str, float], budget: float) -> tuple[float, float]:
    """(N_opt, D_opt) minimising the fitted loss under C = 6ND (Hoffmann et al. 2022, eq. 4)."""
    alpha, beta = fit["alpha"], fit["beta"]
    g = (alpha * fit["A"] / (beta * fit["B"])) ** (1 / (alpha + beta))
    params = g * (budget / FLOP_PER_PARAM_TOKEN) ** (beta / (alpha + beta))
    return params, budget / (FLOP_PER_PARAM_TOKEN * params)


def least_compute_for(fit: dict[str, float], loss: float) -> float:
    """The least 6ND that reaches ``loss`` under the fit: on the optimum alpha·A/N^alpha = beta·B/D^beta."""
    alpha, beta = fit["alpha"], fit["beta"]
    excess = loss - fit["E"]
    params = (fit["A"] * (1 + alpha / beta) / excess) ** (1 / alpha)
    tokens = (fit["B"] * (1 + beta / alpha) / excess) ** (1 / beta)
    return FLOP_PER_PARAM_TOKEN * params * tokens


def rule_optimum(budget: float, tokens_per_param: float) -> tuple[float, float]:
    """Approaches 1 and 2: D = r N and C = 6ND, so N = sqrt(C / 6r)."""
    params = math.sqrt(budget / (FLOP_PER_PARAM_TOKEN * tokens_per_param))
    return params, tokens_per_param * params


def kaplan_optimum(budget: float) -> tuple[float, float]:
    """Kaplan et al. 2020, eq. 6.1: N = 1.3e9 (C_min / PF-day)^0.73, with C_min = C / 2; D = C / 6N."""
    c_min_pf_days = budget / CRITICAL_BATCH_FACTOR / PF_DAY
    params = KAPLAN_N_PER_PF_DAY * c_min_pf_days ** KAPLAN_EXPONENT
    return params, budget / (FLOP_PER_PARAM_TOKEN * params)


def kaplan_loss(params: float, tokens: float) -> float:
    """Kaplan et al. 2020, eq. 1.5: L = ((N_c/N)^(alpha_N/alpha_D) + D_c/D)^alpha_D."""
    return ((KAPLAN_N_C / params) ** (KAPLAN_ALPHA_N / KAPLAN_ALPHA_D) + KAPLAN_D_C / tokens) ** KAPLAN_ALPHA_D


def checked(inputs: dict) -> dict:
    """The inputs, each checked; ValueError names the field and its range."""
    return {
        "compute_budget": positive("compute_budget", inputs["compute_budget"]),
        "tokens_per_param": in_range("tokens_per_param", inputs["tokens_per_param"], 0, 1e6, open_low=True),
        "loss_fit": one_of("loss_fit", inputs["loss_fit"], LOSS_FITS),
        "params": positive("params", inputs["params"]),
        "tokens": positive("tokens", inputs["tokens"]),
        "layers": whole_count("layers", inputs["layers"]),
        "d_model": whole_count("d_model", inputs["d_model"]),
        "context": whole_count("context", inputs["context"]),
    }


def budget_plan(v: dict, fit: dict[str, float]) -> dict:
    """What the budget buys under each fit, and each split's loss."""
    budget = v["compute_budget"]
    rule_params, rule_tokens = rule_optimum(budget, v["tokens_per_param"])
    fit_params, fit_tokens = fit_optimum(fit, budget)
    kaplan_params, kaplan_tokens = kaplan_optimum(budget)
    return {
        "rule_params": rule_params,
        "rule_tokens": rule_tokens,
        "rule_loss": fit_loss(fit, rule_params, rule_tokens),
        "fit_params": fit_params,
        "fit_tokens": fit_tokens,
        "fit_tokens_per_param": fit_tokens / fit_params,
        "fit_loss": fit_loss(fit, fit_params, fit_tokens),
        "kaplan_params": kaplan_params,
        "kaplan_tokens": kaplan_tokens,
        "kaplan_tokens_per_param": kaplan_tokens / kaplan_params,
        "kaplan_loss": kaplan_loss(kaplan_params, kaplan_tokens),
        "kaplan_split_loss": fit_loss(fit, kaplan_params, kaplan_tokens),
    }


def model_plan(v: dict, fit: dict[str, float]) -> dict:
    """The given model: its compute with and without attention, its loss, and what its compute could buy."""
    params, tokens = v["params"], v["tokens"]
    dense = FLOP_PER_PARAM_TOKEN * params * tokens
    attention = FLOP_PER_PARAM_TOKEN * v["layers"] * v["context"] * v["d_model"] * tokens
    total = dense + attention
    loss = fit_loss(fit, params, tokens)
    optimal_params, optimal_tokens = fit_optimum(fit, dense)
    least = least_compute_for(fit, loss)
    terms = (fit["E"], fit["A"] / params ** fit["alpha"], fit["B"] / tokens ** fit["beta"])
    return {
        "model_tokens_per_param": tokens / params,
        "model_flops_6nd": dense,
        "attention_flops": attention,
        "model_flops": total,
        "attention_share": attention / total,
        "dense_share": dense / total,
        "model_loss": loss,
        "model_kaplan_loss": kaplan_loss(params, tokens),
        "model_optimal_params": optimal_params,
        "model_optimal_tokens": optimal_tokens,
        "model_optimal_loss": fit_loss(fit, optimal_params, optimal_tokens),
        "compute_equivalent": least,
        "compute_overhead": dense / least,
        "loss_share_entropy": terms[0] / loss,
        "loss_share_params": terms[1] / loss,
        "loss_share_data": terms[2] / loss,
    }


CURVE_POINTS = 48  # points of the drawn loss curve at the budget
CURVE_MARGIN = 4  # the curve runs this many times beyond the smallest and largest marked size


def isoflop_curve(fit: dict[str, float], budget: float, plan: dict) -> dict:
    """The chosen fit's loss against model size at the budget (C = 6ND), with each split marked."""
    marks = [
        ["Chinchilla rule", plan["rule_params"], plan["rule_loss"]],
        ["Best split of the fit", plan["fit_params"], plan["fit_loss"]],
        ["Kaplan", plan["kaplan_params"], plan["kaplan_split_loss"]],
    ]
    low = math.log10(min(mark[1] for mark in marks) / CURVE_MARGIN)
    high = math.log10(max(mark[1] for mark in marks) * CURVE_MARGIN)
    sizes = [10 ** (low + (high - low) * i / (CURVE_POINTS - 1)) for i in range(CURVE_POINTS)]
    points = [[size, fit_loss(fit, size, budget / (FLOP_PER_PARAM_TOKEN * size))] for size in sizes]
    return {"isoflop_points": points, "isoflop_marks": marks}


def power_of_ten(value: float) -> str:
    """``value`` as "2.64 × 10²⁰" (three figures)."""
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPTS)}"


def printed_fit_gap() -> tuple[float, float]:
    """(FLOP the printed constants ask for a 1-billion-parameter optimum, that ÷ Table A3's 1.62 × 10²⁰)."""
    fit = LOSS_FITS["hoffmann2022"]
    g = fit_optimum(fit, FLOP_PER_PARAM_TOKEN)[0]  # N_opt = g (C/6)^(β/(α+β)), so g is N_opt at C = 6
    budget = FLOP_PER_PARAM_TOKEN * (TABLE_A3_PARAMS / g) ** ((fit["alpha"] + fit["beta"]) / fit["beta"])
    return budget, budget / TABLE_A3_FLOP


def where_the_model_stops(v: dict, budget: dict, model: dict) -> list[str]:
    """One sentence for each way these inputs leave the range where the fits were measured."""
    notes = []
    if v["loss_fit"] == "hoffmann2022":
        needed, ratio = printed_fit_gap()
        notes.append(
            "The approach-3 figures are worked out here from Hoffmann et al.'s constants as printed, which are "
            "rounded; they are not the paper's Table A3 and do not reproduce it: the table puts a "
            f"1-billion-parameter optimum at 1.62 × 10²⁰ FLOP, these constants at {power_of_ten(needed)} FLOP ({ratio:.2g} times "
            "as much). Besiroglu et al.'s refit is the other choice of fit.")
    if max(v["compute_budget"], model["model_flops_6nd"]) > MEASURED_UP_TO_FLOP * 1000:
        notes.append(
            "Both fits were measured on runs below about 10²² FLOP (Chinchilla's largest model had 16 billion "
            "parameters, Kaplan's 1.5 billion): this far beyond, the split is an extrapolation.")
    if max(budget["rule_tokens"], budget["fit_tokens"]) > OPEN_WEB_TOKENS:
        notes.append(
            "The compute-optimal run wants more than 15 trillion tokens, the size of the largest open web "
            "corpus (FineWeb): the data would have to be repeated, which is worth less after about four "
            "epochs (Muennighoff et al., 2023).")
    if model["model_tokens_per_param"] > OVERTRAINED_TOKENS_PER_PARAM:
        notes.append(
            f"Your model sees {model['model_tokens_per_param']:,.0f} tokens per parameter, far past "
            "compute-optimal: a deliberate trade of extra training compute for a smaller model that is "
            "cheaper to serve (Sardana et al., 2023).")
    return notes


def compute(
    *,
    compute_budget: float,
    tokens_per_param: float,
    loss_fit: str,
    params: float,
    tokens: float,
    layers: int,
    d_model: int,
    context: int,
) -> dict:
    """Compute-optimal splits of a budget under three fits, and a given model against its own budget.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked({
        "compute_budget": compute_budget, "tokens_per_param": tokens_per_param, "loss_fit": loss_fit,
        "params": params, "tokens": tokens, "layers": layers, "d_model": d_model, "context": context,
    })
    fit = LOSS_FITS[v["loss_fit"]]
    budget = budget_plan(v, fit)
    model = model_plan(v, fit)
    curve = isoflop_curve(fit, v["compute_budget"], budget)
    return {**v, **budget, **model, **curve, "notes": where_the_model_stops(v, budget, model)}
