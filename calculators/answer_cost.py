"""What does one answer from a chat assistant cost, through an API or on your own accelerators?

The arithmetic of the "Chat assistants and what one answer costs" card (D3). An answer reads a
prompt (the system instructions, the conversation so far, any pasted document) and writes a
reply; a reasoning model also writes hidden "thinking" tokens first. A price sheet charges per
million tokens, at three rates:

    uncached input     = input tokens × (1 − cached share)
    cached input       = input tokens × cached share        (a prefix the provider kept from an
                                                            earlier request: a cache hit)
    billed output      = output tokens + reasoning tokens  (thinking is billed as output)
    cost per answer    = (uncached × input price + cached × cached price
                          + billed output × output price) ÷ 10⁶
    per day / month    = cost per answer × answers per day (× 365/12 days for a month)

Self-hosted, the same answer costs accelerator time (prefill reads the prompt, decode writes
the reply; throughputs per accelerator as the serving calculator works them out, or as DeepSeek
measured them in production, 2025):

    accelerator-seconds per answer = input tokens ÷ prefill tokens/s + billed output ÷ decode tokens/s
    busy accelerators  = answers per day × accelerator-seconds per answer ÷ 86,400
    fleet              = whole replicas of k accelerators, at least one, so that the busy share
                         is at most the utilisation: k × max(1, ceil(busy ÷ utilisation ÷ k))
    cost per day       = fleet × 24 × price per accelerator-hour (paid while idle)
    break-even         = answers per day from which one replica running all day costs no more than
                         the API: k × 24 × hourly price ÷ API cost per answer; it exists only when the
                         API's cost per answer exceeds the fleet's own marginal cost,
                         accelerator-seconds ÷ 3,600 × hourly price ÷ utilisation, and then the
                         first replica can carry that load (both conditions are the same inequality)

Prefill throughput counts every prompt token, cached or not, as DeepSeek reports it; a server
that reuses cached prefixes reads prompts faster, which is typed in as a higher prefill rate.
Everything is in base units: tokens, US dollars, seconds. Standard library only; knows nothing
of HTML. The user interface is declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators import serving
from calculators._checks import at_least, in_range, positive, whole_count

TOKENS_PER_MILLION = 1e6
SECONDS_PER_DAY = 86_400
SECONDS_PER_HOUR = 3_600
HOURS_PER_DAY = 24
DAYS_PER_MONTH = 365 / 12  # 30.42: an average month
ROUNDING_SLACK = 1e-9  # replicas: 2.000000001 replicas' worth of load is 2 replicas, not 3
LONG_PROMPT = 200_000  # tokens; where several price sheets switch to a higher tier
# DeepSeek, 2025-03-01: a prefill deployment unit spans 4 nodes and a decode unit 18, of 8 H800s each.
DEEPSEEK_UNIT = (4 + 18) * 8

TITLE = "Cost of an answer: API price sheet or your own accelerators"


def serving_throughput(model: str, **changes: float | str) -> dict:
    """Decode and prefill tokens per second per accelerator, and the replica's size, from
    calculators.serving for one of its model shapes with ``changes`` to its defaults."""
    inputs = {spec["name"]: spec["default"] for spec in serving.INPUTS}
    inputs.update(next(o["values"] for g in serving.PRESETS if g["name"] == "model" for o in g["options"] if o["id"] == model))
    inputs.update(changes)
    result = serving.compute(**inputs)
    accelerators = result["accelerators"]
    return {
        "decode_tokens_per_second": result["tokens_per_second_replica"] / accelerators,
        "prefill_tokens_per_second": result["prompt_tokens"] / result["prefill_seconds"] / accelerators,
        "accelerators_per_replica": accelerators,
    }


# The serving card's D3 end state: Llama 3 70B, 8-bit weights, 2 × H100 SXM, 31 conversations at once.
LLAMA_70B_H100 = serving_throughput("llama3-70b", weight_precision="fp8", batch=31)
# Llama 3 8B on one H100 SXM, 64 conversations of up to 4,096 tokens (2,000-token prompts).
LLAMA_8B_H100 = serving_throughput("llama3-8b", accelerators=1, batch=64, prompt_tokens=2000, context_tokens=4096)
# DeepSeek's production averages per H800 node (8 GPUs): ~73.7k input tokens/s while prefilling,
# ~14.8k output tokens/s while decoding (DeepSeek, 2025-03-01).
DEEPSEEK_H800 = {"decode_tokens_per_second": 14_800 / 8, "prefill_tokens_per_second": 73_700 / 8,
                 "accelerators_per_replica": DEEPSEEK_UNIT}


def prices(option_id: str, label: str, source: str, per_million: tuple[float, float, float]) -> dict:
    """A price-sheet preset: input, cached input and output, US$ per million tokens."""
    price_input, price_cached, price_output = per_million
    return {"id": option_id, "label": label, "source": source,
            "values": {"price_input": price_input, "price_cached": price_cached, "price_output": price_output}}


def throughput(option_id: str, label: str, source: str, values: dict) -> dict:
    return {"id": option_id, "label": label, "source": source, "values": dict(values)}


INPUTS: list[dict] = [
    {
        "name": "input_tokens",
        "label": "Prompt per answer",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 2_000_000,
        "step": 1,
        "scale": "log",
        # 3,000: a system prompt of a couple of thousand tokens plus a few turns of chat (illustrative).
        "default": 3000,
        "help": "Tokens the model reads for each answer: the instructions, the whole conversation so far and any document, sent again with every new question.",
    },
    {
        "name": "cached_share",
        "label": "Share of the prompt read from the provider's cache",
        "unit": "%",
        "factor": 0.01,
        "control": "slider",
        "min": 0,
        "max": 100,
        "step": 1,
        "scale": "linear",
        # 0: no caching; DeepSeek's service hit its cache for 56.3 % of input tokens (2025-03-01).
        "default": 0,
        "help": "The part of the prompt that starts exactly like a recent request (the same instructions, the same earlier turns), which the provider keeps and charges at its cheaper cached rate.",
    },
    {
        "name": "output_tokens",
        "label": "Reply per answer",
        "unit": "tokens",
        "control": "slider",
        "min": 1,
        "max": 200_000,
        "step": 1,
        "scale": "log",
        # 500: a reply of about 350 to 400 English words (illustrative).
        "default": 500,
        "help": "Tokens of the visible reply.",
    },
    {
        "name": "reasoning_tokens",
        "label": "Hidden reasoning per answer",
        "unit": "tokens",
        "control": "number",
        "min": 0,
        "max": 200_000,
        "step": 1,
        "scale": "linear",
        # 0: a model answering without thinking first.
        "default": 0,
        "help": "Tokens a reasoning model writes to think before it replies. You do not see them, but they are billed as output tokens and take decode time like the reply.",
    },
    {
        "name": "price_input",
        "label": "Price of input",
        "unit": "US$ per million tokens",
        "control": "number",
        "min": 0.001,
        "max": 1000,
        "step": 0.001,
        "scale": "log",
        # $2: Claude Sonnet 5.5 on Anthropic's model overview, read 2026-12-05 (SOURCES anthropic2026sonnet55).
        # Sonnet 4.5 ($3 / $0.30 / $15), the default until then, was retired on 2026-11-30.
        "default": 2.0,
        "help": "What the price sheet charges per million prompt tokens that are not in the cache.",
    },
    {
        "name": "price_cached",
        "label": "Price of cached input",
        "unit": "US$ per million tokens",
        "control": "number",
        "min": 0,
        "max": 1000,
        "step": 0.001,
        "scale": "linear",
        # $0.10: Claude Sonnet 5.5's cache reads since 2026-10-07 as pricing trackers report them, a twentieth
        # of its input price (the undated stored overview still shows $0.20; see anthropic2026sonnet55's note).
        "default": 0.1,
        "help": "What it charges per million prompt tokens read from its cache (\"cache hits\"), usually a twentieth to a half of the input price.",
    },
    {
        "name": "price_output",
        "label": "Price of output",
        "unit": "US$ per million tokens",
        "control": "number",
        "min": 0.001,
        "max": 1000,
        "step": 0.001,
        "scale": "log",
        # $10: Claude Sonnet 5.5 on the same model overview, read 2026-12-05.
        "default": 10.0,
        "help": "What it charges per million tokens the model writes, reply and reasoning alike.",
    },
    {
        "name": "answers_per_day",
        "label": "Answers per day",
        "unit": "answers",
        "control": "slider",
        "min": 1,
        "max": 1e10,
        "step": 1,
        "scale": "log",
        # 100,000: a busy in-house assistant (illustrative).
        "default": 100_000,
        "help": "How many answers the service gives in a day, on average.",
    },
    {
        "name": "accelerator_hour_price",
        "label": "Price per accelerator-hour (self-hosted)",
        "unit": "US$",
        "control": "number",
        "min": 0.01,
        "max": 100,
        "step": 0.01,
        "scale": "linear",
        # $2.69: RunPod's on-demand H100 SXM, read 2026-11-09 (content/sources.yaml runpodPricing2026);
        # DeepSeek assumed $2 for an H800.
        "default": 2.69,
        "help": "What one accelerator costs per hour, rented or owned (the rent-or-buy calculator works out the owner's figure). The fleet is paid for every hour, busy or idle.",
    },
    {
        "name": "decode_tokens_per_second",
        "label": "Decode: output tokens per second per accelerator",
        "unit": "tokens/s",
        "control": "number",
        "min": 0.1,
        "max": 100_000,
        "step": 0.1,
        "scale": "linear",
        # The serving calculator's Llama 3 70B, 8-bit, 2 × H100, 31 at once: about 678 per accelerator.
        "default": round(LLAMA_70B_H100["decode_tokens_per_second"], 1),
        "help": "Reply tokens one accelerator writes per second for all the conversations it serves together: the serving calculator's 'output of one replica' divided by its accelerators.",
    },
    {
        "name": "prefill_tokens_per_second",
        "label": "Prefill: prompt tokens per second per accelerator",
        "unit": "tokens/s",
        "control": "number",
        "min": 1,
        "max": 1_000_000,
        "step": 1,
        "scale": "linear",
        # The serving calculator's prefill of a 7,692-token prompt for the same replica: about 3,532.
        "default": round(LLAMA_70B_H100["prefill_tokens_per_second"]),
        "help": "Prompt tokens one accelerator reads per second. Prefill is paced by arithmetic, so it is several times faster than decode.",
    },
    {
        "name": "accelerators_per_replica",
        "label": "Accelerators per replica (the smallest fleet)",
        "unit": "accelerators",
        "control": "number",
        "min": 1,
        "max": 10_000,
        "step": 1,
        "scale": "linear",
        # 2: the 70B model in 8 bits on two H100s, as in the serving calculator.
        "default": LLAMA_70B_H100["accelerators_per_replica"],
        "help": "Accelerators one copy of the model needs. The fleet grows in whole copies, and even a quiet service pays for one.",
    },
    {
        "name": "utilisation",
        "label": "Average load as a share of the fleet",
        "unit": "%",
        "factor": 0.01,
        "control": "number",
        "min": 1,
        "max": 100,
        "step": 1,
        "scale": "linear",
        # 80 %: a little under DeepSeek's 82 %, its average of 226.75 nodes against a peak of 278 in one day (2025-03-01).
        "default": 0.8,
        "help": "How busy the fleet is on average. Load peaks during the day, so fleets are sized for the peak: DeepSeek's averaged 82 % of its peak in one day.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "uncached_input_tokens", "label": "Prompt tokens at the full input price", "unit": "tokens", "format": "number"},
    {"name": "cached_input_tokens", "label": "Prompt tokens at the cached price", "unit": "tokens", "format": "number"},
    {"name": "billed_output_tokens", "label": "Tokens billed as output (reply and reasoning)", "unit": "tokens", "format": "number"},
    {"name": "cost_per_answer", "announce": True, "label": "API cost per answer", "unit": "", "format": "usd"},
    {"name": "cost_per_thousand", "label": "API cost per 1,000 answers", "unit": "", "format": "usd"},
    {"name": "cost_per_day", "label": "API cost per day", "unit": "", "format": "usd"},
    {"name": "cost_per_month", "announce": True, "label": "API cost per month", "unit": "", "format": "usd"},
    {"name": "input_share", "label": "Share of the cost: uncached prompt", "unit": "", "format": "percent"},
    {"name": "cached_cost_share", "label": "Share of the cost: cached prompt", "unit": "", "format": "percent"},
    {"name": "output_share", "label": "Share of the cost: output", "unit": "", "format": "percent"},
    {"name": "input_cost_saved_share", "label": "Prompt cost saved by the cache", "unit": "", "format": "percent"},
    {"name": "accelerator_seconds_per_answer", "label": "Accelerator time per answer (self-hosted)", "unit": "", "format": "seconds"},
    {"name": "busy_accelerators", "label": "Accelerators busy on average", "unit": "accelerators", "format": "number"},
    {"name": "fleet_accelerators", "label": "Accelerators in the fleet", "unit": "accelerators", "format": "integer"},
    {"name": "self_cost_per_answer", "label": "Self-hosted cost per answer", "unit": "", "format": "usd"},
    {"name": "self_cost_per_month", "announce": True, "label": "Self-hosted cost per month", "unit": "", "format": "usd"},
    {"name": "self_marginal_cost_per_answer", "label": "Self-hosted cost per answer at the set load (the least it can cost)", "unit": "", "format": "usd"},
    {"name": "break_even_answers_per_day", "label": "Answers per day from which self-hosting is no dearer", "unit": "answers", "format": "number", "endless": True},
    {"name": "self_hosting_cheaper", "label": "Self-hosting is cheaper at this load", "unit": "", "format": "yesno"},
]

PRESETS: list[dict] = [
    {
        "name": "price_sheet",
        "label": "Price sheet",
        "fields": ["price_input", "price_cached", "price_output"],
        "options": [
            # Anthropic's pricing page, "Model pricing" table (base input, cache hits and refreshes, output),
            # from a stored copy that carries no date, read 2026-12-03. Its table lists Fable 5.1 and Opus 5
            # but no Opus 5.5, so it is older than the sheet of December 2026. Anthropic's Sonnet 4.5 page
            # set that model's retirement for 2026-11-30; the preset is kept to compare with its successor.
            # Anthropic's sheet of late 2026 (model overview pages, read 2026-12-05): the 5.5 generation. Haiku 5.5's
            # rates hold for prompts up to 100,000 tokens (five times that above); Sonnet 5.5's cache reads were cut
            # from $0.20 to $0.10 on 2026-10-07 (see the source's note).
            prices("claude-opus-5-5", "Claude Opus 5.5: $4 in, $0.20 cached, $20 out (Anthropic, late 2026; read 2026-12-05)",
                   "anthropic2026opus55", (4.0, 0.20, 20.0)),
            prices("claude-sonnet-5-5", "Claude Sonnet 5.5: $2 in, $0.10 cached, $10 out (Anthropic, late 2026; read 2026-12-05)",
                   "anthropic2026sonnet55", (2.0, 0.10, 10.0)),
            prices("claude-haiku-5-5", "Claude Haiku 5.5, prompts up to 100,000 tokens: $0.10 in, $0.01 cached, $0.50 out (Anthropic, from 2026-10-07; read 2026-12-05)",
                   "anthropic2026haiku55", (0.10, 0.01, 0.50)),
            prices("claude-haiku-4-5", "Claude Haiku 4.5: $1 in, $0.10 cached, $5 out (Anthropic sheet as stored, undated; read 2026-12-03)",
                   "anthropic-pricing", (1.0, 0.10, 5.0)),
            prices("claude-sonnet-4-5", "Claude Sonnet 4.5, retired 2026-11-30: $3 in, $0.30 cached, $15 out (Anthropic sheet as stored, undated; read 2026-12-03)",
                   "anthropic-pricing", (3.0, 0.30, 15.0)),
            prices("claude-opus-5", "Claude Opus 5: $5 in, $0.50 cached, $25 out (Anthropic sheet as stored, undated; read 2026-12-03)",
                   "anthropic-pricing", (5.0, 0.50, 25.0)),
            prices("claude-opus-4-1", "Claude Opus 4.1, retired except on Bedrock and Google Cloud: $15 in, $1.50 cached, $75 out (Anthropic sheet as stored, undated; read 2026-12-03)",
                   "anthropic-pricing", (15.0, 1.50, 75.0)),
            # DeepSeek, 2025-03-01: R1's prices, $0.14 (cache hit), $0.55 (cache miss), $2.19 output.
            prices("deepseek-r1-2025", "DeepSeek-R1, early 2025: $0.55 in, $0.14 cached, $2.19 out (DeepSeek, 2025-03-01)",
                   "deepseekDay6", (0.55, 0.14, 2.19)),
        ],
    },
    {
        "name": "throughput",
        "label": "Self-hosted throughput",
        "fields": ["decode_tokens_per_second", "prefill_tokens_per_second", "accelerators_per_replica"],
        "options": [
            throughput("llama3-70b-fp8-2xh100",
                       "Llama 3 70B, 8-bit, 2 × H100, 31 at once (serving calculator): "
                       f"{LLAMA_70B_H100['decode_tokens_per_second']:,.0f} out, {LLAMA_70B_H100['prefill_tokens_per_second']:,.0f} in per s",
                       "grattafiori2024", LLAMA_70B_H100),
            throughput("llama3-8b-1xh100",
                       "Llama 3 8B, 16-bit, 1 × H100, 64 at once (serving calculator): "
                       f"{LLAMA_8B_H100['decode_tokens_per_second']:,.0f} out, {LLAMA_8B_H100['prefill_tokens_per_second']:,.0f} in per s",
                       "grattafiori2024", LLAMA_8B_H100),
            throughput("deepseek-h800-measured",
                       "DeepSeek-V3/R1 on H800, measured: 1,850 out, 9,213 in per s per GPU; "
                       "one prefill and one decode unit, 176 GPUs (DeepSeek, 2025-03-01)",
                       "deepseekDay6", DEEPSEEK_H800),
        ],
    },
]

SOURCES: list[dict] = [
    *[source for source in serving.SOURCES if source["id"] in ("grattafiori2024", "pope2022", "deepseekDay6")],
    {
        "id": "anthropic-pricing",
        "kind": "documentation",
        "title": "Claude API pricing: model pricing table (base input, cache writes, cache hits and refreshes, output), stored copy, undated; read 2026-12-03",
        "authors": "Anthropic",
        "date": "2026",
        "url": "https://platform.claude.com/docs/en/about-claude/pricing",
        "note": "The stored copy carries no date. Its table lists Claude Fable 5.1 and Opus 5 (released 2026-07-24) "
                "but no Opus 5.5, so it is older than the sheet of December 2026; check current prices there.",
    },
    {
        "id": "anthropic2026opus55",
        "kind": "documentation",
        "title": "Claude Opus 5.5: model overview (model IDs, pricing, comparison with the current line-up)",
        "authors": "Anthropic",
        "date": "2026",
        "url": "https://platform.claude.com/docs/en/models/opus-5-5/overview",
        "note": "Stored copies carry no date; read 2026-12-05 in Anthropic's localised copies (es, zh-CN), whose figures are "
                "in English: $4 input, $0.20 cache read, $20 output per million tokens; the line-up table lists Fable 5.1 "
                "at $10/$50, Sonnet 5.5 at $2/$10 and Haiku 5.5 from $0.10/$0.50, and Opus 5 as legacy.",
    },
    {
        "id": "anthropic2026sonnet55",
        "kind": "documentation",
        "title": "Claude Sonnet 5.5: model overview (model IDs, pricing)",
        "authors": "Anthropic",
        "date": "2026",
        "url": "https://platform.claude.com/docs/en/models/sonnet-5-5/overview",
        "note": "Stored copies (zh-CN, pt-BR), undated: $2 input, $10 output per million tokens, cache reads $0.20. Pricing "
                "trackers checked against Anthropic's live page on 2026-10-24 and 2026-12-01 (kurofune/claudit v1.9.2, "
                "phuryn/claude-usage v1.5.7) report the cache read cut to $0.10 from 2026-10-07, which the preset uses.",
    },
    {
        "id": "anthropic2026haiku55",
        "kind": "documentation",
        "title": "Claude Haiku 5.5: model overview (model IDs, pricing)",
        "authors": "Anthropic",
        "date": "2026-10-07",
        "url": "https://platform.claude.com/docs/en/models/haiku-5-5/overview",
        "note": "Released 2026-10-07. For prompts up to 100,000 tokens: $0.10 input, $0.50 output per million tokens "
                "($0.50 and $2.50 above that); cache reads $0.01 (up to 100,000) as API guides of 2026-10-08 list them. "
                "Its tokenizer counts about 30 % more tokens than Haiku 4.5's for the same text.",
    },
]

ASSUMPTIONS: list[str] = [
    "Prices are list prices per token at the standard tier. Batch interfaces that answer within a day "
    "charge about half (Anthropic and OpenAI: 50 % off input and output), and committed-use contracts less; "
    "neither is modelled.",
    "Writing a prompt into the cache can cost extra: Anthropic charges 1.25 times the input price for a "
    "five-minute cache write and twice for an hour, while OpenAI and DeepSeek charge nothing. The cached share "
    "here is billed at the cache-hit price only, so with Anthropic a prefix that is rarely reused costs more than shown.",
    "One price per token whatever the prompt's length: some sheets switch every token of a request to a higher "
    "rate once its prompt passes a threshold (200,000 tokens on several), which is not modelled.",
    "Reasoning tokens are billed as output at the output price, as providers do; how many a model writes varies "
    "from answer to answer and is typed in as an average.",
    "Free tiers, minimum charges, rate limits and taxes are left out; at high volume a provider's rate limits "
    "may cap the answers per day before the price does.",
    "The self-hosted cost counts accelerator-hours only: no staff, networking, storage, software or profit. "
    "An API price includes the provider's margin (DeepSeek reckoned its theoretical revenue at 6.45 times its "
    "accelerator cost), so the two are not like for like.",
    "Prefill and decode throughputs are averages at a steady load; the fleet is sized for the average load "
    "divided by the utilisation, in whole replicas, and queueing at peaks is left out.",
    "Prefill counts every prompt token, cached or not (as DeepSeek reports its throughput); reusing cached "
    "prefixes on your own servers shows up only as a higher prefill rate typed in.",
]

FIGURES: list[dict] = [
    {
        "name": "api_shares",
        "kind": "share_bar",
        "title": "Where the API cost of an answer goes",
        "parts": [
            {"value": "input_share", "label": "Uncached prompt"},
            {"value": "cached_cost_share", "label": "Cached prompt"},
            {"value": "output_share", "label": "Output"},
        ],
    },
    {
        "name": "per_day",
        "kind": "memory_bar",
        "title": "Cost per day: your own fleet against the API",
        "format": "usd",
        "parts": [
            {"value": "self_busy_cost_per_day", "label": "Fleet at work"},
            {"value": "self_idle_cost_per_day", "label": "Fleet idle"},
        ],
        "capacity": "cost_per_day",
        "words": {
            "capacity": "API {capacity}",
            "fits": "Self-hosting costs {needed} a day, less than the API's {capacity}",
            "over": "Self-hosting costs {needed} a day, more than the API's {capacity}",
            "over_by": "Self-hosting costs {over} a day more",
            "summary_fits": "your own fleet costs {needed} a day ({breakdown}) and the API {capacity}, so self-hosting is cheaper",
            "summary_over": "your own fleet costs {needed} a day ({breakdown}) and the API {capacity}, so the API is cheaper",
        },
    },
]


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    clean = {name: whole_count(name, inputs[name]) for name in ("input_tokens", "output_tokens", "accelerators_per_replica")}
    clean["reasoning_tokens"] = at_least("reasoning_tokens", inputs["reasoning_tokens"], 0)
    clean["cached_share"] = in_range("cached_share", inputs["cached_share"], 0, 1)
    clean["utilisation"] = in_range("utilisation", inputs["utilisation"], 0, 1, open_low=True)
    clean["price_cached"] = at_least("price_cached", inputs["price_cached"], 0)
    for name in ("price_input", "price_output", "answers_per_day", "accelerator_hour_price",
                 "decode_tokens_per_second", "prefill_tokens_per_second"):
        clean[name] = positive(name, inputs[name])
    return clean


def api_bill(v: dict) -> dict:
    """Tokens at each rate, the cost of one answer and its shares, per 1,000, per day and per month."""
    cached = v["input_tokens"] * v["cached_share"]
    uncached = v["input_tokens"] - cached
    output = v["output_tokens"] + v["reasoning_tokens"]
    input_cost = uncached * v["price_input"] / TOKENS_PER_MILLION
    cached_cost = cached * v["price_cached"] / TOKENS_PER_MILLION
    output_cost = output * v["price_output"] / TOKENS_PER_MILLION
    per_answer = input_cost + cached_cost + output_cost
    without_cache = v["input_tokens"] * v["price_input"] / TOKENS_PER_MILLION
    per_day = per_answer * v["answers_per_day"]
    return {
        "uncached_input_tokens": uncached,
        "cached_input_tokens": cached,
        "billed_output_tokens": output,
        "input_cost": input_cost,
        "cached_cost": cached_cost,
        "output_cost": output_cost,
        "cost_per_answer": per_answer,
        "cost_per_thousand": per_answer * 1000,
        "cost_per_day": per_day,
        "cost_per_month": per_day * DAYS_PER_MONTH,
        "input_share": input_cost / per_answer,
        "cached_cost_share": cached_cost / per_answer,
        "output_share": output_cost / per_answer,
        "input_cost_saved_share": 1 - (input_cost + cached_cost) / without_cache,
    }


def fleet_bill(v: dict, api_per_answer: float) -> dict:
    """Accelerator time per answer, the fleet in whole replicas, its cost and the break-even load."""
    seconds = (v["input_tokens"] / v["prefill_tokens_per_second"]
               + (v["output_tokens"] + v["reasoning_tokens"]) / v["decode_tokens_per_second"])
    busy = v["answers_per_day"] * seconds / SECONDS_PER_DAY
    replica = v["accelerators_per_replica"]
    fleet = replica * max(1, math.ceil(busy / v["utilisation"] / replica - ROUNDING_SLACK))
    hourly = v["accelerator_hour_price"]
    per_day = fleet * HOURS_PER_DAY * hourly
    marginal = seconds / SECONDS_PER_HOUR * hourly / v["utilisation"]
    break_even = replica * HOURS_PER_DAY * hourly / api_per_answer if api_per_answer > marginal else math.inf
    busy_cost = min(busy, fleet) * HOURS_PER_DAY * hourly
    return {
        "accelerator_seconds_per_answer": seconds,
        "busy_accelerators": busy,
        "fleet_accelerators": fleet,
        "self_cost_per_day": per_day,
        "self_busy_cost_per_day": busy_cost,
        "self_idle_cost_per_day": per_day - busy_cost,
        "self_cost_per_answer": per_day / v["answers_per_day"],
        "self_cost_per_month": per_day * DAYS_PER_MONTH,
        "self_marginal_cost_per_answer": marginal,
        "break_even_answers_per_day": break_even,
    }


def where_the_model_stops(v: dict, api: dict, fleet: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if v["input_tokens"] > LONG_PROMPT:
        notes.append(f"A prompt of {v['input_tokens']:,} tokens is past the {LONG_PROMPT:,} at which several price sheets "
                     "charge a higher rate for every token of the request; check the sheet's long-context tier.")
    if v["cached_share"] > 0 and v["price_cached"] >= v["price_input"]:
        notes.append("The cached price is not below the input price, so the cache saves nothing here.")
    if v["reasoning_tokens"] > 4 * v["output_tokens"]:
        notes.append(f"Hidden reasoning ({v['reasoning_tokens']:,.0f} tokens) is more than four times the reply: "
                     f"output makes up {api['output_share'] * 100:.0f} % of the bill, and reasoning lengths vary widely between answers.")
    if fleet["busy_accelerators"] < 0.1 * fleet["fleet_accelerators"]:
        notes.append(f"The fleet of {fleet['fleet_accelerators']:,} accelerators is busy {fleet['busy_accelerators'] / fleet['fleet_accelerators'] * 100:.1f} % "
                     "of the time: most of the self-hosted cost pays for a replica that waits.")
    if v["utilisation"] > 0.9:
        notes.append("An average load above 90 % of the fleet leaves no room for daily peaks: requests would queue.")
    return notes


def compute(
    *,
    input_tokens: int,
    cached_share: float,
    output_tokens: int,
    reasoning_tokens: float,
    price_input: float,
    price_cached: float,
    price_output: float,
    answers_per_day: float,
    accelerator_hour_price: float,
    decode_tokens_per_second: float,
    prefill_tokens_per_second: float,
    accelerators_per_replica: int,
    utilisation: float,
) -> dict:
    """API cost of an answer (per 1,000, per day, per month, and its shares), the self-hosted
    fleet's cost for the same load, and the load at which self-hosting breaks even.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    api = api_bill(v)
    fleet = fleet_bill(v, api["cost_per_answer"])
    cheaper = fleet["self_cost_per_day"] < api["cost_per_day"]
    return {**v, **api, **fleet, "self_hosting_cheaper": cheaper, "notes": where_the_model_stops(v, api, fleet)}
