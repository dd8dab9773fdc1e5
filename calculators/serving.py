"""How much memory does serving a model take, how fast does it answer, and how many copies?

The arithmetic of the "Training vs inference infrastructure" card (D4). One *replica* is a
copy of the model split over a few accelerators by tensor parallelism. It holds the weights
once, a reserve for activations and the runtime, and a KV cache for every request it serves
at the same time. Each decode step writes one token for every request in the batch.

Memory, per replica:

    weight_bytes          = all params × bytes per weight (a mixture of experts keeps every
                            expert in memory)
    kv_bytes_per_token    = 2 (key and value) × layers × kv_heads × head_dim × bytes per value
                            (Kwon et al., 2023, §3; grouped-query attention: Ainslie et al., 2023)
    kv_heads_each         = ceil(kv_heads / accelerators): a head is never split, so with more
                            accelerators than KV heads each holds a copy of one (vLLM,
                            ModelConfig.get_num_kv_heads: max(1, kv_heads // tensor_parallel_size))
    kv_stored_per_token   = 2 × layers × kv_heads_each × accelerators × head_dim × bytes
    reserved_bytes        = reserved share × replica memory (vLLM's default gpu_memory_utilization
                            of 0.9 leaves a tenth for activations and the runtime)
    max_concurrent        = floor((replica memory − reserved − weights) ÷ (kv_stored_per_token × context))

Decode, one step for the batch (Pope et al., 2022: a step reads the weights and every cache,
and does 2 × active params operations per token; Kaplan et al., 2020, for the 2N):

    batch_used            = min(batch, max_concurrent): speed and fleet are never worked out
                            from a batch that does not fit
    weights read          = shared bytes + expert bytes × (1 − (1 − k/E)^batch_used): the
                            shared (non-expert) weights are read once per step; each of the E
                            experts of a layer is read if any of the batch's tokens picks it, and
                            with each token picking k of E uniformly at random an expert is
                            missed by all with probability (1 − k/E)^batch (the expected number of
                            distinct experts hit when tokens pick independently and uniformly,
                            elementary probability; the routing counts come from the DeepSeek-V3
                            report, §4.2, and the gpt-oss model card). A dense
                            model is E = k = 1: every weight read once per step.
    shared / expert split = solved from total and active parameters by the rule every
                            calculator shares (calculators/_moe.py): the input embedding table
                            (lookup) is only looked up, one row per token, and a model card's
                            active count leaves it out, so total − lookup = shared + experts and
                            active = shared + k/E × experts:
                            experts = (total − lookup − active) ÷ (1 − k/E),
                            shared = total − lookup − experts (gpt-oss model card, Table 1:
                            gpt-oss-20b's 19.12 B of MoE weights come out only with the lookup out)
    memory_seconds        = (weights read + batch_used × cache per request) ÷ replica bandwidth
    compute_seconds       = 2 × active params × batch_used ÷ (replica peak FLOP/s × share achieved)
                            (a dense model's active params: all but the looked-up embedding)
    step_seconds          = max(memory_seconds, compute_seconds)   (a roofline, Williams et al., 2009)
    tokens/s per replica  = batch_used ÷ step_seconds
    compute-bound from    = the smallest batch with compute_seconds ≥ memory_seconds, found by
                            bisection between 1 and all weight bytes ÷ bandwidth ÷ (compute per
                            request − cache read per request), past which it surely holds

Prefill, reading the prompt in large blocks, so paced by arithmetic (Pope et al., 2022):

    prefill_flops         = 2 × active params × prompt tokens (attention's own FLOPs left out)
    prefill_seconds       = max(prefill_flops ÷ (replica peak × share), weights read ÷ bandwidth)
    time_to_first_token   = prefill_seconds + one decode step of the running batch (with
                            continuous batching the prompt is slotted in between decode steps;
                            Yu et al., 2022); queueing is left out

The fleet, the larger of two needs (every prompt token and every reply token is multiplied
through the active weights once, 2 × active params operations; Kaplan et al., 2020):

    replicas_for_decode   = ceil(requests/s × output tokens ÷ tokens/s per replica): decode
                            steps, paced as above at the batch used, that write the replies
    load_flops            = requests/s × (prompt + output tokens) × 2 × active params
    replicas_for_arithmetic = ceil(load_flops ÷ (replica peak FLOP/s × share achieved)):
                            the arithmetic of reading the prompts and writing the replies
    replicas              = max(replicas_for_decode, replicas_for_arithmetic)
                            Taking the larger, not the sum, assumes prompts are read in chunks
                            slotted into decode steps, whose arithmetic a memory-bound step leaves
                            idle (chunked prefill, Agrawal et al., 2024, Sarathi-Serve); an engine
                            that pauses decoding while it reads a prompt needs up to the sum.
    share achieved        = 0.5 by default: SGLang read 2,000-token prompts of DeepSeek-V3 (37 B
                            active) at 52,300 tokens a second per node of 8 H100s (SGLang Team,
                            2025), 52,300 × 2 × 37 × 10⁹ ÷ (8 × 989 × 10¹²) = 0.49 of the dense
                            BF16 peak; Pope et al. (2022) reached 0.76 on TPU v4, and DeepSeek's own
                            service averaged about 0.30 over a day: 73,700 prompt tokens a second
                            per node of 8 H800s, of which 56.25 % came from its cache
                            (DeepSeek-AI, 2025, Day 6), 32,244 × 2 × 37 × 10⁹ ÷ (8 × 989 × 10¹²)

Everything is in base units: bytes, bytes per second, FLOP/s, seconds, tokens. Accelerator
memory is typed in GiB (2^30 bytes), as vendors size HBM ("80 GB" on an H100 is 80 GiB);
outputs are shown in decimal bytes.
Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators import _moe
from calculators._datasheets import GIB, accelerator_options, shared_sources
from calculators._checks import at_least, in_range, one_of, positive, whole_count

# Bytes one stored number takes at each precision.
WEIGHT_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "int4": 0.5}
KV_BYTES: dict[str, float] = {"bf16": 2.0, "fp8": 1.0}
HOURS_PER_YEAR = 365 * 24  # 8,760
KEY_AND_VALUE = 2  # one key vector and one value vector per layer, head and token
FLOPS_PER_PARAM_PER_TOKEN = 2  # one multiply and one add per weight in the forward pass (Kaplan et al., 2020)
FAR_BEYOND_ANY_BATCH = 1e12  # requests; a crossing past this is reported unrounded
NOT_SIZED = math.nan  # shown as "—": no speed or fleet size is given for a replica nothing fits in

TITLE = "Serving calculator: memory, speed and replicas"

ASSUMPTIONS: list[str] = [
    "Every request is counted at its full context for the whole of its reply, and the cache is "
    "stored without waste (as paged attention nearly achieves); real requests start short, so "
    "this overstates the cache of a batch midway through its replies.",
    "A share of each replica's memory is reserved for activations, the CUDA context and the "
    "serving software's buffers (10 % by default, what vLLM leaves unused with its default "
    "gpu_memory_utilization of 0.9); a long prompt's activations can need more than that.",
    "Requests join and leave the batch at every step (continuous batching), the load is steady, "
    "and queueing beyond one decode step is left out: at peaks the time to first token grows "
    "with the queue, and fleets keep spare replicas.",
    "The fleet is the larger of two needs: the replicas whose decode steps write the replies asked "
    "for, and the replicas whose arithmetic, at the share of peak achieved, multiplies every prompt "
    "and reply token through the active weights. Taking the larger assumes prompts are read in chunks "
    "slotted into decode steps, using arithmetic a memory-bound step leaves idle (chunked prefill, as "
    "Sarathi-Serve does); an engine that pauses decoding to read each prompt needs up to the sum of the two.",
    "The share of peak achieved paces prefill, a compute-bound decode step and the fleet's arithmetic "
    "alike. Its default, 0.5, is what a tuned engine measured reading prompts on a benchmark (SGLang, "
    "DeepSeek-V3 on H100s: 0.49 of the dense 16-bit peak); DeepSeek's own service averaged about 0.3 "
    "over a day of real traffic, so the arithmetic's count of replicas is a floor, not a plan.",
    "A decode step takes the longer of reading memory and doing the arithmetic, at the datasheet's "
    "memory bandwidth and a share of the dense 16-bit peak; this is a lower bound on the step time: "
    "communication between the accelerators of a replica, kernel launches and sampling are left out.",
    "Arithmetic runs at the dense 16-bit (BF16) rate, as with weight-only quantisation where 8- "
    "and 4-bit weights are widened before multiplying; a server that multiplies in FP8 or FP4 has "
    "two to six times that peak, which can be typed in.",
    "Attention's own arithmetic (which grows with the context) is left out of both prefill and "
    "decode, and out of the fleet's arithmetic, so long prompts take longer to read, and need more "
    "replicas, than shown.",
    "With more accelerators than key-value heads each accelerator holds a whole copy of a head, as "
    "vLLM does; a split that does not divide the heads evenly is counted with whole heads.",
    "A mixture of experts keeps every expert in memory and multiplies only the active parameters "
    "per token. Its split into shared (non-expert) and expert parameters is not typed in but solved "
    "from the total and active counts and the routing (active = shared + k/E × expert parameters), "
    "after taking out the input embedding table, which a token only looks up and a model card's active "
    "count leaves out (the gpt-oss presets set it); every layer is taken to have the same E experts of "
    "equal size, and where a model has dense layers or experts of other sizes the split is an average.",
    "A decode step reads the shared weights once and each expert that at least one token of the "
    "batch is routed to; tokens are assumed to pick their k of E experts uniformly and "
    "independently, so an expert is read with probability 1 − (1 − k/E)^batch. Real routers are "
    "unbalanced and correlated, so fewer distinct experts are hit than this expectation says.",
    "No speculative decoding, prefix caching, sliding-window attention or cache offloading to host "
    "memory, each of which can change the numbers a lot.",
]

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size (all parameters)",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "slider",
        "min": 0.5,
        "max": 2000,
        "step": 0.1,
        "scale": "log",
        # 70B with the shape of Llama 3 70B: the card's D3 worked example.
        "default": 70e9,
        "help": "Number of parameters (weights) in the model, in billions; for a mixture of experts, all the experts together. All of them sit in memory.",
    },
    {
        "name": "active_params",
        "label": "Active parameters per token (0 = all, a dense model)",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "number",
        "min": 0,
        "max": 2000,
        "step": 0.1,
        "scale": "linear",
        # 0: the default model (Llama 3 70B) is dense, every weight works on every token.
        "default": 0,
        "help": "For a mixture of experts, the parameters one token passes through (DeepSeek-V3: 37 of 671 billion); they set the arithmetic, and with the experts below the split between shared and expert weights. 0 means every parameter is active.",
    },
    # params_lookup. 0: the Llama presets leave their embedding among the weights read; the gpt-oss presets set
    # their 201,088 × 2,880 input embedding table (model card, section 2), as the local calculator does.
    _moe.lookup_input(
        "The input embedding table: it sits in memory, but each token fetches only its own row, so it is not read per step and a model card's active count leaves it out. Taken out before the shared and expert weights are solved, so it is not booked as expert weight."),
    {
        "name": "experts",
        "label": "Experts per layer (1 = dense)",
        "unit": "experts",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 1: the default model (Llama 3 70B) is dense; with 1 expert chosen of 1 all weights are read each step.
        "default": 1,
        "help": "Routed experts in each mixture-of-experts layer (DeepSeek-V3: 256, gpt-oss-120b: 128); an always-active shared expert counts as shared weights, not here. 1 for a dense model.",
    },
    {
        "name": "experts_per_token",
        "label": "Experts each token is routed to",
        "unit": "experts",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        # 1: with 1 expert in all (a dense model) the single expert is always chosen.
        "default": 1,
        "help": "How many of the routed experts each token uses in each layer (DeepSeek-V3: 8, gpt-oss: 4); at most the number of experts.",
    },
    {
        "name": "layers",
        "label": "Layers",
        "unit": "layers",
        "control": "number",
        "min": 1,
        "max": 300,
        "step": 1,
        "scale": "linear",
        "default": 80,
        "help": "Transformer layers; every layer keeps its own keys and values for every token.",
    },
    {
        "name": "kv_heads",
        "label": "Key-value heads",
        "unit": "heads",
        "control": "number",
        "min": 1,
        "max": 256,
        "step": 1,
        "scale": "linear",
        "default": 8,
        "help": "Attention heads that store keys and values. Grouped-query attention shares each among several query heads, so this can be far fewer than the query heads.",
    },
    {
        "name": "head_dim",
        "label": "Head dimension",
        "unit": "numbers per head",
        "control": "number",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "linear",
        "default": 128,
        "help": "Length of each key or value vector.",
    },
    {
        "name": "weight_precision",
        "label": "Weight precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "How many bits each weight is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (BF16, 2 bytes)"},
            {"value": "fp8", "label": "8-bit (FP8, 1 byte)"},
            {"value": "int4", "label": "4-bit (0.5 bytes)"},
        ],
    },
    {
        "name": "kv_precision",
        "label": "KV cache precision",
        "unit": "",
        "control": "select",
        "default": "bf16",
        "help": "How many bits each cached key and value number is stored in.",
        "options": [
            {"value": "bf16", "label": "16-bit (2 bytes)"},
            {"value": "fp8", "label": "8-bit (1 byte)"},
        ],
    },
    {
        "name": "prompt_tokens",
        "label": "Prompt length",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 1000000,
        "step": 1,
        "scale": "log",
        # 7,692: with the 500-token reply it fills the default 8,192-token context.
        "default": 7692,
        "help": "Tokens of the request read before the first reply token (the prefill).",
    },
    {
        "name": "context_tokens",
        "label": "Context kept per request",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 1000000,
        "step": 1,
        "scale": "log",
        "default": 8192,
        "help": "Prompt plus reply that each request keeps in the KV cache, in tokens; memory is planned for this many.",
    },
    {
        "name": "batch",
        "label": "Requests served at once",
        "unit": "requests",
        "control": "slider",
        "min": 1,
        "max": 1024,
        "step": 1,
        "scale": "log",
        "default": 1,
        "help": "Concurrent requests one replica decodes together; each decode step writes one token for each of them. If they do not fit, the largest batch that fits is used.",
    },
    {
        "name": "accelerators",
        "label": "Accelerators per replica",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 64,
        "step": 1,
        "scale": "log",
        # 2: 140 GB of 16-bit 70B weights do not fit one 80 GB H100.
        "default": 2,
        "help": "Accelerators one copy of the model is split across (tensor parallelism); their memory, bandwidth and arithmetic add up.",
    },
    {
        "name": "memory_per_accelerator",
        "label": "Memory per accelerator",
        "unit": "GiB",
        "factor": GIB,
        "control": "number",
        "min": 1,
        "max": 1000,
        "step": 1,
        "scale": "linear",
        # H100 SXM datasheet's "80 GB": HBM is sized in binary units, 80 × 2^30 bytes
        # (nvidia-smi reports 81,559 MiB usable), see calculators/_datasheets.py.
        "default": 80 * GIB,
        "help": "High-bandwidth memory on each accelerator, in GiB (2^30 bytes): the '80 GB' of an H100 is 80 GiB, about 85.9 decimal GB, because memory chips are sized in powers of two. The results show bytes in decimal units.",
    },
    {
        "name": "bandwidth_per_accelerator",
        "label": "Memory bandwidth per accelerator",
        "unit": "TB/s",
        "factor": 1e12,
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "linear",
        "default": 3.35e12,  # H100 SXM datasheet
        "help": "Peak memory bandwidth from the datasheet, in terabytes per second.",
    },
    {
        "name": "peak_flops_per_accelerator",
        "label": "Peak dense 16-bit arithmetic per accelerator",
        "unit": "TFLOP/s",
        "factor": 1e12,
        "control": "number",
        "min": 1,
        "max": 100000,
        "step": 1,
        "scale": "linear",
        "default": 989e12,  # H100 SXM datasheet: BF16 1,979 TFLOPS with sparsity, 989 dense
        "help": "Dense BF16 tensor throughput from the datasheet (never the 'with sparsity' figure), in teraFLOP/s. Type the FP8 or FP4 figure if the server multiplies at that precision.",
    },
    {
        "name": "compute_share",
        "label": "Share of peak arithmetic achieved (MFU)",
        "unit": "",
        "control": "number",
        "min": 0.01,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # 0.5: SGLang's measured prefill of DeepSeek-V3 on H100s, 52,300 prompt tokens a second per
        # 8 GPUs: 52,300 × 2 × 37e9 / (8 × 989e12) = 0.489 of the dense BF16 peak (sglang2025ep);
        # below the 76 % Pope et al. (2022) reached for large-batch prefill of PaLM 540B on TPU v4.
        "default": 0.5,
        "help": "Fraction of the peak arithmetic rate the kernels actually reach, between 0 and 1 (model FLOP utilisation). It paces reading the prompt, a compute-bound decode step and the replicas the arithmetic needs. 0.5: SGLang read 2,000-token prompts of DeepSeek-V3 at 52,300 a second per 8 H100s, 0.49 of their 16-bit peak; DeepSeek's own service averaged about 0.3. Against an FP8 peak typed in, use about half.",
    },
    {
        "name": "reserved_share",
        "label": "Memory reserved for activations and the runtime",
        "unit": "",
        "control": "number",
        "min": 0,
        "max": 0.9,
        "step": 0.01,
        "scale": "linear",
        # 0.1: vLLM's default gpu_memory_utilization is 0.9, so a tenth is never used for weights or cache.
        "default": 0.1,
        "help": "Share of each accelerator's memory that holds neither weights nor KV cache: activations, the CUDA context and the server's buffers (vLLM leaves 0.1 by default).",
    },
    {
        "name": "requests_per_second",
        "label": "Target load",
        "unit": "requests per second",
        "control": "slider",
        "min": 0.01,
        "max": 100000,
        "step": 0.01,
        "scale": "log",
        "default": 10,
        "help": "New requests arriving each second across the whole service.",
    },
    {
        "name": "output_tokens",
        "label": "Reply length",
        "unit": "tokens per request",
        "control": "slider",
        "min": 1,
        "max": 100000,
        "step": 1,
        "scale": "log",
        "default": 500,
        "help": "Tokens generated for each request.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "weight_bytes", "label": "Weights", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_token", "label": "KV cache per token (the model's)", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_token_stored", "label": "KV cache per token as stored on the replica (heads copied when accelerators outnumber them)", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_token_per_accelerator", "label": "KV cache per token on each accelerator", "unit": "", "format": "bytes"},
    {"name": "kv_bytes_per_request", "label": "KV cache per request, as stored", "unit": "", "format": "bytes"},
    {"name": "reserved_bytes", "label": "Reserved for activations and the runtime", "unit": "", "format": "bytes"},
    {"name": "shared_params", "label": "Shared (non-expert) parameters read every step, solved from total and active", "unit": "parameters", "format": "number"},
    {"name": "expert_params", "label": "Routed-expert parameters, solved from total and active", "unit": "parameters", "format": "number"},
    {"name": "memory_needed_bytes", "announce": True, "label": "Memory needed per replica for the batch asked", "unit": "", "format": "bytes"},
    {"name": "replica_memory_bytes", "label": "Memory of one replica", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Batch asked fits in memory", "unit": "", "format": "yesno"},
    {"name": "max_concurrent", "label": "Largest batch that fits (requests)", "unit": "", "format": "integer"},
    {"name": "batch_used", "label": "Batch the speed and fleet are sized for (requests)", "unit": "", "format": "integer"},
    {"name": "step_seconds", "label": "Time per decode step", "unit": "", "format": "seconds"},
    {"name": "compute_bound", "label": "Arithmetic, not memory, sets the pace", "unit": "", "format": "yesno"},
    {"name": "compute_bound_from_batch", "label": "Batch from which arithmetic sets the pace (requests)", "unit": "", "format": "integer", "endless": True},
    {"name": "tokens_per_second_per_request", "announce": True, "label": "Speed each user sees", "unit": "tokens/s", "format": "number"},
    {"name": "prefill_seconds", "label": "Prefill: reading the prompt", "unit": "", "format": "seconds"},
    {"name": "time_to_first_token_seconds", "announce": True, "label": "Time to first token, without a queue", "unit": "", "format": "seconds"},
    {"name": "tokens_per_second_replica", "label": "Output of one replica", "unit": "tokens/s", "format": "number"},
    {"name": "demand_tokens_per_second", "label": "Reply tokens the load asks for", "unit": "tokens/s", "format": "number"},
    {"name": "replicas_for_decode", "label": "Replicas decode needs to write the replies (memory and batch)", "unit": "replicas", "format": "integer"},
    {"name": "load_flops_per_second", "label": "Arithmetic the load asks for (prompts and replies, 2 × active parameters a token)", "unit": "FLOP/s", "format": "number"},
    {"name": "arithmetic_tokens_per_second_replica", "label": "Prompt and reply tokens one replica's arithmetic gets through", "unit": "tokens/s", "format": "number"},
    {"name": "replicas_for_arithmetic", "label": "Replicas the arithmetic needs (prompts and replies)", "unit": "replicas", "format": "integer"},
    {"name": "fleet_set_by_arithmetic", "announce": True, "label": "The prompts' arithmetic, not decode, sets the fleet", "unit": "", "format": "yesno"},
    {"name": "replicas", "announce": True, "label": "Replicas needed (the larger of the two)", "unit": "replicas", "format": "integer"},
    {"name": "accelerators_total", "label": "Accelerators in total", "unit": "accelerators", "format": "integer"},
    {"name": "accelerator_hours_per_year", "label": "Accelerator-hours per year, running all the time", "unit": "accelerator-hours", "format": "number"},
]

ACCELERATOR_FIELDS = {
    "memory_per_accelerator": "memory",
    "bandwidth_per_accelerator": "memory_bandwidth",
    "peak_flops_per_accelerator": "dense_bf16_flops",
}
ACCELERATOR_IDS = ("a100-80gb", "h100-sxm", "h200-sxm", "b200", "b300", "gb200-nvl72", "gb300-nvl72",
                   "mi300x", "mi355x", "tpu-v5p", "tpu-ironwood")

PRESETS: list[dict] = [
    {
        "name": "accelerator",
        "label": "Accelerator",
        "fields": list(ACCELERATOR_FIELDS),
        "options": accelerator_options(ACCELERATOR_FIELDS, *ACCELERATOR_IDS),
    },
    {
        "name": "model",
        "label": "Model shape",
        "fields": ["params", "active_params", "params_lookup", "experts", "experts_per_token", "layers", "kv_heads", "head_dim"],
        "options": [
            {
                "id": "llama2-7b",
                "label": "Llama 2 7B (no grouped-query attention: 32 KV heads)",
                # Llama 2 paper: 7B uses multi-head attention; 32 layers, 32 heads of 128.
                "values": {"params": 7e9, "active_params": 0, "params_lookup": 0, "experts": 1, "experts_per_token": 1, "layers": 32, "kv_heads": 32, "head_dim": 128},
                "source": "llama2",
            },
            {
                "id": "llama3-8b",
                "label": "Llama 3 8B (32 layers, 8 KV heads)",
                "values": {"params": 8e9, "active_params": 0, "params_lookup": 0, "experts": 1, "experts_per_token": 1, "layers": 32, "kv_heads": 8, "head_dim": 128},
                "source": "grattafiori2024",
            },
            {
                "id": "llama3-70b",
                "label": "Llama 3 70B (80 layers, 8 KV heads)",
                "values": {"params": 70e9, "active_params": 0, "params_lookup": 0, "experts": 1, "experts_per_token": 1, "layers": 80, "kv_heads": 8, "head_dim": 128},
                "source": "grattafiori2024",
            },
            {
                "id": "llama3-405b",
                "label": "Llama 3.1 405B (126 layers, 8 KV heads)",
                "values": {"params": 405e9, "active_params": 0, "params_lookup": 0, "experts": 1, "experts_per_token": 1, "layers": 126, "kv_heads": 8, "head_dim": 128},
                "source": "grattafiori2024",
            },
            {
                "id": "gpt-oss-120b",
                "label": "gpt-oss-120b (mixture of experts: 116.8B, 5.13B active; 36 layers, 8 KV heads of 64)",
                # Model card, Table 1: 116.83B parameters, 5.13B active, 114.71B of them MoE weights;
                # config.json: 36 layers, 8 key-value heads, head_dim 64, 128 experts of which 4 are
                # active per token. Its expert weights ship in 4-bit MXFP4. The 201,088 × 2,880 input
                # embedding is looked up, not read (calculators/_moe.py).
                "values": {"params": 116.83e9, "active_params": 5.13e9, "params_lookup": _moe.EMBEDDING_GPT_OSS,
                           "experts": 128, "experts_per_token": 4, "layers": 36, "kv_heads": 8, "head_dim": 64},
                "source": "gpt-oss",
            },
            {
                "id": "gpt-oss-20b",
                "label": "gpt-oss-20b (mixture of experts: 20.9B, 3.61B active; 24 layers, 8 KV heads of 64)",
                # Model card, Table 1: 20.91B parameters, 3.61B active, 19.12B of them MoE weights;
                # 32 experts, top-4 routing; config.json: 24 layers, 8 key-value heads, head_dim 64.
                "values": {"params": 20.91e9, "active_params": 3.61e9, "params_lookup": _moe.EMBEDDING_GPT_OSS,
                           "experts": 32, "experts_per_token": 4, "layers": 24, "kv_heads": 8, "head_dim": 64},
                "source": "gpt-oss",
            },
            {
                "id": "deepseek-v3",
                "label": "DeepSeek-V3 (mixture of experts: 671B, 37B active; 61 layers, latent cache of 576 numbers per layer)",
                # DeepSeek-V3 report: 671B total, 37B activated per token, 61 layers, multi-head latent
                # attention caching a 512-number latent plus a 64-number rotary key per layer and token:
                # 576 numbers, entered here as one "head" of 288 for keys and 288 for values. Each MoE
                # layer has 1 shared expert (counted with the shared weights) and 256 routed experts,
                # 8 chosen per token (§2.1.2 and §4.2).
                "values": {"params": 671e9, "active_params": 37e9, "params_lookup": 0, "experts": 256, "experts_per_token": 8,
                           "layers": 61, "kv_heads": 1, "head_dim": 288},
                "source": "deepseek-v3",
            },
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-a100-datasheet", "nvidia-h100-datasheet", "nvidia-h200-datasheet", "nvidia-hgx-specs",
                    "nvidia-hgx-b200-datasheet", "nvidia-gb200-nvl72", "nvidia-gb300-nvl72", "amd-mi300x-datasheet",
                    "amd-mi355x-datasheet", "google-tpu-v5p", "google-tpu-ironwood", "grattafiori2024"),
    {
        "id": "llama2",
        "kind": "paper",
        "title": "Llama 2: Open Foundation and Fine-Tuned Chat Models",
        "authors": "Touvron et al.",
        "date": "2023-07-18",
        "url": "https://arxiv.org/abs/2307.09288",
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
        "id": "pope2022",
        "kind": "paper",
        "title": "Efficiently Scaling Transformer Inference",
        "authors": "Pope et al.",
        "date": "2022-11-09",
        "url": "https://arxiv.org/abs/2211.05102",
    },
    {
        "id": "kaplan2020",
        "kind": "paper",
        "title": "Scaling Laws for Neural Language Models",
        "authors": "Kaplan et al.",
        "date": "2020-01-23",
        "url": "https://arxiv.org/abs/2001.08361",
    },
    {
        "id": "ainslie2023",
        "kind": "paper",
        "title": "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints",
        "authors": "Ainslie et al.",
        "date": "2023-05-22",
        "url": "https://arxiv.org/abs/2305.13245",
    },
    *shared_sources("williams2009"),
    {
        "id": "yu2022",
        "kind": "paper",
        "title": "Orca: A Distributed Serving System for Transformer-Based Generative Models",
        "authors": "Yu et al.",
        "date": "2022-07",
        "url": "https://www.usenix.org/conference/osdi22/presentation/yu",
    },
    {
        "id": "vllm-kv-heads",
        "kind": "code",
        "title": "vLLM source: ModelConfig.get_num_kv_heads (KV heads replicated when tensor parallelism exceeds them) and CacheConfig.gpu_memory_utilization",
        "authors": "vLLM project",
        "date": "2025",
        "url": "https://github.com/vllm-project/vllm/blob/main/vllm/config.py",
    },
    {
        "id": "gpt-oss",
        "kind": "code",
        "title": "gpt-oss-120b and gpt-oss-20b model card and README",
        "authors": "OpenAI",
        "date": "2025-08-05",
        "url": "https://github.com/openai/gpt-oss",
    },
    {
        "id": "deepseek-v3",
        "kind": "paper",
        "title": "DeepSeek-V3 Technical Report",
        "authors": "DeepSeek-AI",
        "date": "2024-12-27",
        "url": "https://arxiv.org/abs/2412.19437",
    },
    # The share of peak a tuned prefill reaches (compute_share's default); moved here from sources.yaml.
    {
        "id": "sglang2025ep",
        "kind": "blog",
        "title": "Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism on 96 H100 GPUs",
        "authors": ["SGLang Team"],
        "date": "2025-05-05",
        "url": "https://lmsys.org/blog/2025-05-05-large-scale-ep/",
        "note": "LMSYS blog; throughput per node for 2,000-token inputs: 52.3k input and 22.3k output tokens a second "
                "per node of 8 H100s",
    },
    # Chunked prefill: why the fleet is the larger of the two needs, not their sum; moved here from sources.yaml.
    {
        "id": "agrawal2024sarathi",
        "kind": "paper",
        "title": "Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve",
        "authors": ["Agrawal, Amey", "Kedia, Nitin", "Panwar, Ashish", "Mohan, Jayashree", "Kwatra, Nipun",
                    "Gulavani, Bhargav S.", "Tumanov, Alexey", "Ramjee, Ramachandran"],
        "date": "2024-03-04",
        "arxiv": "2403.02310",
        "url": "https://www.usenix.org/conference/osdi24/presentation/agrawal",
        "note": "OSDI 2024; chunked prefills and stall-free batching; 2.6x serving capacity over vLLM for Mistral-7B on one "
                "A100, up to 3.7x for Yi-34B on two, up to 5.6x for Falcon-180B with pipeline parallelism, under tail-latency "
                "limits",
    },
    # DeepSeek's day of serving: the share its production prefill averaged (answer_cost cites it from here).
    {
        "id": "deepseekDay6",
        "kind": "documentation",
        "title": "Day 6: One More Thing, DeepSeek-V3/R1 Inference System Overview (24 h from 2025-02-27: peak 278 H800 nodes, cost $87,072 at $2/GPU-h, theoretical revenue $562,027)",
        "authors": "DeepSeek-AI",
        "date": "2025-03-01",
        "url": "https://github.com/deepseek-ai/open-infra-index/blob/main/202502OpenSourceWeek/day_6_one_more_thing_deepseekV3R1_inference_system_overview.md",
    },
]

FIGURES: list[dict] = [
    {
        "name": "memory",
        "kind": "memory_bar",
        "title": "Memory of one replica, for the batch asked",
        "parts": [
            {"value": "weight_bytes", "label": "Weights"},
            {"value": "reserved_bytes", "label": "Reserved (activations, runtime)"},
            {"value": "kv_cache_bytes", "label": "KV cache"},
        ],
        "capacity": "replica_memory_bytes",
    },
    {
        "name": "step",
        "kind": "memory_bar",
        "title": "One decode step, for the batch used",
        "format": "seconds",
        "parts": [
            {"value": "step_weights_seconds", "label": "Reading weights"},
            {"value": "step_cache_seconds", "label": "Reading KV caches"},
        ],
        "capacity": "step_compute_seconds",
        "words": {
            "capacity": "Arithmetic {capacity}",
            "fits": "Compute-bound: the arithmetic ({capacity}) outlasts the reads ({needed})",
            "over": "Memory-bound: reading takes {needed}, the arithmetic {capacity}",
            "over_by": "Reading beyond the arithmetic: {over}",
            "summary_fits": "reading memory takes {needed} ({breakdown}) and the arithmetic {capacity}, so the step is compute-bound",
            "summary_over": "reading memory takes {needed} ({breakdown}) and the arithmetic {capacity}, so the step is memory-bound",
        },
    },
]


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per_value: float) -> float:
    """Bytes of keys and values one token leaves in the cache, over all layers."""
    return KEY_AND_VALUE * layers * kv_heads * head_dim * bytes_per_value


def kv_heads_per_accelerator(kv_heads: int, accelerators: int) -> int:
    """Whole KV heads each accelerator holds: a head is never split, so past one head per
    accelerator heads are copied (vLLM: max(1, kv_heads // tp), which it only allows when one
    divides the other; ceil equals it then and counts whole heads otherwise)."""
    return math.ceil(kv_heads / accelerators)


def most_that_fit(fixed_bytes: float, per_request: float, capacity: float) -> int:
    """The largest batch whose fixed_bytes + batch × per_request is within capacity (0 if none).

    Counted with the same sum as ``fits``, so a batch fits exactly when it is at most this.
    """
    if fixed_bytes + per_request > capacity:
        return 0
    count = math.floor((capacity - fixed_bytes) / per_request)
    while fixed_bytes + (count + 1) * per_request <= capacity:
        count += 1
    while count > 0 and fixed_bytes + count * per_request > capacity:
        count -= 1
    return count


def replicas_for(demand: float, replica_speed: float) -> int:
    """The fewest replicas whose combined output covers the demand (at least 1)."""
    count = max(1, math.ceil(demand / replica_speed))
    while count > 1 and (count - 1) * replica_speed >= demand:
        count -= 1
    while count * replica_speed < demand:
        count += 1
    return count


def weights_read(shared_bytes: float, expert_bytes: float, miss_share: float, tokens: int) -> float:
    """Expected weight bytes a pass over ``tokens`` tokens reads: the shared weights once, and
    each expert unless every token misses it (``miss_share`` = 1 − k/E per token)."""
    hit_share = 1.0 if miss_share == 0 else -math.expm1(tokens * math.log(miss_share))
    return shared_bytes + expert_bytes * hit_share


def crossover_batch(read_bytes, all_bytes: float, cache_seconds: float, compute_seconds: float,
                    bandwidth: float) -> float:
    """The smallest batch whose arithmetic takes at least as long as its memory reads (inf if none).

    Per request a step costs ``compute_seconds`` of arithmetic and ``cache_seconds`` of cache
    reads; the weights cost ``read_bytes(batch)`` / bandwidth, at most ``all_bytes``. The gap
    arithmetic − reads is convex in the batch (the weights read are concave) and not positive
    at 0, so once compute-bound a batch stays so: a bisection between 1 and the batch that
    covers reading all the weights finds the first.
    """
    def compute_bound(batch: int) -> bool:
        return batch * compute_seconds >= read_bytes(batch) / bandwidth + batch * cache_seconds

    if compute_seconds <= cache_seconds:
        return math.inf  # each request's cache takes longer to read than its arithmetic
    bound = all_bytes / bandwidth / (compute_seconds - cache_seconds)
    if bound > FAR_BEYOND_ANY_BATCH:
        return bound  # no replica holds such a batch; rounding it would mean nothing
    low, high = 0, max(1, math.ceil(bound))  # compute_bound(high) holds but for rounding
    while not compute_bound(high):
        high *= 2
    while high - low > 1:  # invariant: low is not compute-bound (or 0), high is
        middle = (low + high) // 2
        if compute_bound(middle):
            high = middle
        else:
            low = middle
    return high


def active_parameters(params: float, active_params: float, lookup: float = 0.0) -> float:
    """Active parameters per token: all but the looked-up embedding when 0 is given (a dense model)."""
    if active_params > params:
        raise ValueError(f"active_params must be at most the model size, {params / 1e9:g} billion (got {active_params / 1e9:g} billion)")
    return _moe.read_parameters(params, active_params, lookup)


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    clean = {name: whole_count(name, inputs[name]) for name in
             ("layers", "kv_heads", "head_dim", "prompt_tokens", "context_tokens", "batch", "accelerators", "output_tokens",
              "experts", "experts_per_token")}
    if clean["experts_per_token"] > clean["experts"]:
        raise ValueError(f"experts_per_token must be at most experts, {clean['experts']} (got {clean['experts_per_token']})")
    for name in ("params", "memory_per_accelerator", "bandwidth_per_accelerator", "peak_flops_per_accelerator", "requests_per_second"):
        clean[name] = positive(name, inputs[name])
    clean["active_params"] = at_least("active_params", inputs["active_params"], 0)
    clean["params_lookup"] = _moe.lookup_parameters(clean["params"], inputs["params_lookup"])
    clean["compute_share"] = in_range("compute_share", inputs["compute_share"], 0, 1, open_low=True)
    clean["reserved_share"] = in_range("reserved_share", inputs["reserved_share"], 0, 0.9)
    clean["weight_precision"] = one_of("weight_precision", inputs["weight_precision"], WEIGHT_BYTES)
    clean["kv_precision"] = one_of("kv_precision", inputs["kv_precision"], KV_BYTES)
    return clean


def memory_plan(v: dict) -> dict:
    """Weights, reserve and cache of one replica, and the largest batch that fits."""
    weight_bytes = v["params"] * WEIGHT_BYTES[v["weight_precision"]]
    bytes_per_value = KV_BYTES[v["kv_precision"]]
    per_token = kv_bytes_per_token(v["layers"], v["kv_heads"], v["head_dim"], bytes_per_value)
    heads_each = kv_heads_per_accelerator(v["kv_heads"], v["accelerators"])
    stored_per_token = kv_bytes_per_token(v["layers"], heads_each * v["accelerators"], v["head_dim"], bytes_per_value)
    per_request = stored_per_token * v["context_tokens"]
    replica_memory = v["accelerators"] * v["memory_per_accelerator"]
    reserved = v["reserved_share"] * replica_memory
    kv_cache = v["batch"] * per_request
    max_concurrent = most_that_fit(weight_bytes + reserved, per_request, replica_memory)
    return {
        "weight_bytes": weight_bytes,
        "kv_bytes_per_token": per_token,
        "kv_heads_per_accelerator": heads_each,
        "kv_bytes_per_token_stored": stored_per_token,
        "kv_bytes_per_token_per_accelerator": stored_per_token / v["accelerators"],
        "kv_bytes_per_request": per_request,
        "reserved_bytes": reserved,
        "kv_cache_bytes": kv_cache,
        "memory_needed_bytes": weight_bytes + reserved + kv_cache,
        "replica_memory_bytes": replica_memory,
        "fits": v["batch"] <= max_concurrent,
        "max_concurrent": max_concurrent,
        "batch_used": min(v["batch"], max_concurrent),
    }


def speed_plan(v: dict, memory: dict) -> dict:
    """Decode step, prefill and fleet for the batch used (NaN throughout if nothing fits)."""
    active = active_parameters(v["params"], v["active_params"], v["params_lookup"])
    weight_bytes = memory["weight_bytes"]
    shared, expert = _moe.expert_split(v["params"], active, v["experts"], v["experts_per_token"], v["params_lookup"])
    miss_share = 1 - v["experts_per_token"] / v["experts"]
    per_param = weight_bytes / v["params"]

    def read(tokens: int) -> float:
        return weights_read(shared * per_param, expert * per_param, miss_share, tokens)

    bandwidth = v["accelerators"] * v["bandwidth_per_accelerator"]
    flops_rate = v["accelerators"] * v["peak_flops_per_accelerator"] * v["compute_share"]
    compute_each = FLOPS_PER_PARAM_PER_TOKEN * active / flops_rate  # seconds of arithmetic per request per step
    cache_each = memory["kv_bytes_per_request"] / bandwidth  # seconds to read one request's cache
    prefill_flops = FLOPS_PER_PARAM_PER_TOKEN * active * v["prompt_tokens"]
    prefill = max(prefill_flops / flops_rate, read(v["prompt_tokens"]) / bandwidth)
    plan = {
        "active_params_used": active,
        "shared_params": shared,
        "expert_params": expert,
        "replica_bandwidth": bandwidth,
        "replica_flops": flops_rate,
        "compute_bound_from_batch": crossover_batch(read, weight_bytes, cache_each, compute_each, bandwidth),
        "prefill_flops": prefill_flops,
        "prefill_seconds": prefill,
        "demand_tokens_per_second": v["requests_per_second"] * v["output_tokens"],
        "load_flops_per_second": v["requests_per_second"] * (v["prompt_tokens"] + v["output_tokens"]) * FLOPS_PER_PARAM_PER_TOKEN * active,
        "arithmetic_tokens_per_second_replica": 1 / compute_each,
    }
    batch = memory["batch_used"]
    # The step figure: with no request in memory, a step would only read the weights.
    plan["step_weights_seconds"] = read(max(batch, 1)) / bandwidth
    plan["step_cache_seconds"] = batch * cache_each
    plan["step_compute_seconds"] = batch * compute_each
    if batch == 0:
        return {**plan, "memory_seconds": NOT_SIZED, "compute_seconds": NOT_SIZED, "step_seconds": NOT_SIZED,
                "compute_bound": False, "time_to_first_token_seconds": NOT_SIZED,
                "tokens_per_second_per_request": NOT_SIZED, "tokens_per_second_replica": NOT_SIZED,
                "replicas_for_decode": NOT_SIZED, "replicas_for_arithmetic": NOT_SIZED, "fleet_set_by_arithmetic": False,
                "replicas": NOT_SIZED, "accelerators_total": NOT_SIZED, "accelerator_hours_per_year": NOT_SIZED}
    memory_seconds = plan["step_weights_seconds"] + plan["step_cache_seconds"]
    compute_seconds = plan["step_compute_seconds"]
    step = max(memory_seconds, compute_seconds)
    for_decode = replicas_for(plan["demand_tokens_per_second"], batch / step)
    for_arithmetic = replicas_for(plan["load_flops_per_second"], flops_rate)
    replicas = max(for_decode, for_arithmetic)
    return {
        **plan,
        "memory_seconds": memory_seconds,
        "compute_seconds": compute_seconds,
        "step_seconds": step,
        "compute_bound": compute_seconds >= memory_seconds,
        "time_to_first_token_seconds": prefill + step,
        "tokens_per_second_per_request": 1 / step,
        "tokens_per_second_replica": batch / step,
        "replicas_for_decode": for_decode,
        "replicas_for_arithmetic": for_arithmetic,
        "fleet_set_by_arithmetic": for_arithmetic > for_decode,
        "replicas": replicas,
        "accelerators_total": replicas * v["accelerators"],
        "accelerator_hours_per_year": replicas * v["accelerators"] * HOURS_PER_YEAR,
    }


def requests(count: int) -> str:
    """ "1 request", "7 requests"."""
    return f"{count:,} request" if count == 1 else f"{count:,} requests"


def where_the_model_stops(v: dict, memory: dict, speed: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if memory["max_concurrent"] == 0:
        notes.append(
            f"Not even one request fits: the weights ({memory['weight_bytes'] / 1e9:,.0f} GB) and the reserve "
            f"({memory['reserved_bytes'] / 1e9:,.0f} GB) leave less than one request's cache "
            f"({memory['kv_bytes_per_request'] / 1e9:,.2f} GB) of the replica's {memory['replica_memory_bytes'] / 1e9:,.0f} GB "
            f"({memory['replica_memory_bytes'] / GIB:,.0f} GiB); all in decimal GB of 10^9 bytes, "
            "so no speed or fleet size is given; add accelerators, store fewer bits or shorten the context.")
    elif not memory["fits"]:
        notes.append(
            f"A batch of {v['batch']:,} does not fit: at most {requests(memory['max_concurrent'])} of "
            f"{v['context_tokens']:,} tokens {'fits' if memory['max_concurrent'] == 1 else 'fit'} beside the weights and the reserve "
            f"(the batch needs {memory['memory_needed_bytes'] / 1e9:,.1f} GB of the replica's {memory['replica_memory_bytes'] / 1e9:,.1f} GB, "
            f"decimal GB of 10^9 bytes; the replica has {memory['replica_memory_bytes'] / GIB:,.0f} GiB), so the speed and the fleet "
            f"are worked out for {memory['max_concurrent']:,} at a time.")
    if speed["compute_bound"]:
        notes.append(
            f"At a batch of {memory['batch_used']:,} the arithmetic ({speed['compute_seconds'] * 1e3:.3g} ms a step) takes longer "
            f"than reading memory ({speed['memory_seconds'] * 1e3:.3g} ms): decoding is compute-bound, so a bigger batch "
            "adds no output, only waiting for each user.")
    if v["experts_per_token"] == v["experts"] and speed["active_params_used"] < v["params"] - v["params_lookup"]:
        notes.append(
            "Fewer parameters are active than the model holds, but no routing is given (experts per token equals "
            "experts), so every weight is counted as read at every step; enter the experts per layer and how many "
            "each token uses to count only the experts a batch reaches.")
    if v["prompt_tokens"] + v["output_tokens"] > v["context_tokens"]:
        notes.append(
            f"The prompt plus the reply ({v['prompt_tokens'] + v['output_tokens']:,} tokens) is longer than the context kept "
            f"per request ({v['context_tokens']:,}): the cache is sized for the shorter of the two.")
    return notes


def compute(
    *,
    params: float,
    active_params: float,
    params_lookup: float,
    experts: int,
    experts_per_token: int,
    layers: int,
    kv_heads: int,
    head_dim: int,
    weight_precision: str,
    kv_precision: str,
    prompt_tokens: int,
    context_tokens: int,
    batch: int,
    accelerators: int,
    memory_per_accelerator: float,
    bandwidth_per_accelerator: float,
    peak_flops_per_accelerator: float,
    compute_share: float,
    reserved_share: float,
    requests_per_second: float,
    output_tokens: int,
) -> dict:
    """Memory per replica, the largest batch that fits, decode and prefill speed, replicas for a load.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    memory = memory_plan(v)
    speed = speed_plan(v, memory)
    return {**v, **memory, **speed, "notes": where_the_model_stops(v, memory, speed)}
