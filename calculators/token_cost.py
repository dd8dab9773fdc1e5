"""How many tokens does a text become, and what do they cost?

The arithmetic of the "Tokenisation" card (D4). A price sheet charges per million tokens, and a
context window is measured in tokens, but people write in words. The bridge is the number of
tokens a tokenizer makes of a word, which depends on the language and on the tokenizer:

    tokens per word      = r × p
                           r: tokens per English word for GPT-4's tokenizer (cl100k_base); OpenAI's
                              rule of thumb is 100 tokens for 75 words, r = 4/3, and Google's for
                              Gemini 100 tokens for 60 to 80 words
                           p: the language's token premium, the tokens the same text takes in this
                              language and tokenizer ÷ the tokens its English original takes in
                              cl100k_base (Petrov et al., 2023: the FLORES-200 dev and devtest sets,
                              about 2,000 sentences in 200 languages, tokenized by 27 tokenizers)
    prompt tokens        = prompt words × r × p      (words counted in the English original)
    reply tokens         = reply words × r × p
    cost per request     = (prompt tokens × input price + reply tokens × output price) ÷ 10⁶
    cost per month       = cost per request × requests per month
    words in the window  = context window ÷ (r × p)

Everything is in base units: words, tokens, US dollars. Standard library only; knows nothing of
HTML. The user interface is declared as plain data below and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators import answer_cost
from calculators._checks import positive

TOKENS_PER_MILLION = 1e6
OPENAI_TOKENS_PER_WORD = 100 / 75  # "100 tokens ≈ 75 words" (OpenAI Help Center)
GEMINI_TOKENS_PER_WORD = (100 / 80, 100 / 60)  # "100 tokens is equal to about 60-80 English words" (Google)
LONG_PROMPT = 200_000  # tokens; where several price sheets have charged more per token
HIGH_PREMIUM = 3  # premiums above this were measured on 2023 tokenizers that newer vocabularies improve on

TITLE = "Tokens and their cost: words, languages, tokenizers and price sheets"

# Tokens that the FLORES-200 dev and devtest sentences (joined) take, from Petrov et al.'s table
# assets/tokenization_lengths_validated.csv. Columns: cl100k_base (GPT-3.5 and GPT-4), LLAMA
# (meta-llama/Llama-2-7b-chat-hf) and Qwen (Qwen/Qwen-7B-Chat), as tokenizer_interface.py defines them.
FLORES_ENGLISH_CL100K = 52_835
FLORES_TOKENS: dict[str, tuple[str, str, int]] = {
    # id: (language, tokenizer, tokens)
    "english": ("English", "cl100k_base", 52_835),
    "portuguese": ("Portuguese", "cl100k_base", 78_313),
    "spanish": ("Spanish", "cl100k_base", 81_735),
    "german": ("German", "cl100k_base", 83_450),
    "french": ("French", "cl100k_base", 84_407),
    "chinese": ("Chinese (Simplified)", "cl100k_base", 101_138),
    "swahili": ("Swahili", "cl100k_base", 103_109),
    "japanese": ("Japanese", "cl100k_base", 121_627),
    "korean": ("Korean", "cl100k_base", 125_737),
    "russian": ("Russian", "cl100k_base", 131_496),
    "arabic": ("Standard Arabic", "cl100k_base", 160_485),
    "hindi": ("Hindi", "cl100k_base", 253_270),
    "bengali": ("Bengali", "cl100k_base", 308_325),
    "burmese": ("Burmese", "cl100k_base", 618_268),
    "shan": ("Shan", "cl100k_base", 795_074),
    "english-llama2": ("English", "Llama 2", 60_621),
    "chinese-llama2": ("Chinese (Simplified)", "Llama 2", 121_054),
    "hindi-llama2": ("Hindi", "Llama 2", 278_602),
    "english-qwen": ("English", "Qwen-7B", 53_726),
    "chinese-qwen": ("Chinese (Simplified)", "Qwen-7B", 57_735),
    "hindi-qwen": ("Hindi", "Qwen-7B", 240_076),
}


def premium(option_id: str) -> float:
    """Tokens of the FLORES text in this language and tokenizer ÷ its English original in cl100k_base."""
    return FLORES_TOKENS[option_id][2] / FLORES_ENGLISH_CL100K


def language(option_id: str) -> dict:
    name, tokenizer, tokens = FLORES_TOKENS[option_id]
    label = (f"{name}, {tokenizer} tokenizer: {premium(option_id):.2f}× "
             f"({tokens:,} tokens for the FLORES-200 text against {FLORES_ENGLISH_CL100K:,})")
    return {"id": option_id, "label": label, "source": "petrov2023-lengths",
            "values": {"language_premium": round(premium(option_id), 4)}}


def sheet(option_id: str, label: str, source: str, price_input: float, price_output: float, context: int) -> dict:
    return {"id": option_id, "label": label, "source": source,
            "values": {"price_input": price_input, "price_output": price_output, "context_tokens": context}}


INPUTS: list[dict] = [
    {
        "name": "prompt_words",
        "label": "Prompt per request",
        "unit": "words of English",
        "control": "slider",
        "min": 1,
        "max": 10_000_000,
        "step": 1,
        "scale": "log",
        # 1,500: OpenAI's example of an essay that comes to about 2,048 tokens.
        "default": 1500,
        "help": "How much text the model reads per request, counted as the words of its English version (instructions, conversation and documents together).",
    },
    {
        "name": "reply_words",
        "label": "Reply per request",
        "unit": "words of English",
        "control": "slider",
        "min": 1,
        "max": 1_000_000,
        "step": 1,
        "scale": "log",
        # 300: a reply of a few paragraphs (illustrative).
        "default": 300,
        "help": "How much text the model writes per request, counted the same way.",
    },
    {
        "name": "tokens_per_word",
        "label": "Tokens per English word",
        "unit": "tokens",
        "control": "number",
        "min": 0.1,
        "max": 10,
        "step": 0.0001,
        "scale": "linear",
        # 1.3333: OpenAI's rule of thumb, 100 tokens for about 75 English words.
        "default": round(OPENAI_TOKENS_PER_WORD, 4),
        "help": "Tokens the reference tokenizer makes of an average English word. OpenAI's rule of thumb gives 1.33 (100 tokens for 75 words); Google's for Gemini 1.25 to 1.67 (100 tokens for 60 to 80 words).",
    },
    {
        "name": "language_premium",
        "label": "Token premium of the language and tokenizer",
        "unit": "× English",
        "control": "number",
        "min": 0.1,
        "max": 30,
        "step": 0.0001,
        "scale": "linear",
        # 1: English in GPT-4's tokenizer, the reference.
        "default": 1,
        "help": "How many times as many tokens the same text takes in this language and tokenizer as its English original takes in GPT-4's tokenizer (cl100k_base). Measured on FLORES-200 by Petrov et al. (2023): Hindi 4.79, Shan 15.",
    },
    {
        "name": "context_tokens",
        "label": "Context window",
        "unit": "tokens",
        "control": "slider",
        "min": 1000,
        "max": 100_000_000,
        "step": 1,
        "scale": "log",
        # 1,000,000: Claude Sonnet 5.5's window (Anthropic's model pages, read 2026-12-05).
        "default": 1_000_000,
        "help": "The most tokens the model takes in one request, prompt and reply together.",
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
        # $2: Claude Sonnet 5.5 (Anthropic's model pages as stored, read 2026-12-05).
        "default": 2.0,
        "help": "What the price sheet charges per million tokens the model reads (without any cache discount).",
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
        # $10: Claude Sonnet 5.5.
        "default": 10.0,
        "help": "What it charges per million tokens the model writes.",
    },
    {
        "name": "requests_per_month",
        "label": "Requests per month",
        "unit": "requests",
        "control": "slider",
        "min": 1,
        "max": 1e12,
        "step": 1,
        "scale": "log",
        # 100,000: a small service (illustrative).
        "default": 100_000,
        "help": "How many requests of this size the service sends in a month.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "tokens_per_word_used", "label": "Tokens per English word, in this language and tokenizer", "unit": "tokens", "format": "number"},
    {"name": "prompt_tokens", "announce": True, "label": "Prompt tokens per request", "unit": "tokens", "format": "number"},
    {"name": "reply_tokens", "label": "Reply tokens per request", "unit": "tokens", "format": "number"},
    {"name": "request_tokens", "label": "Tokens per request, prompt and reply", "unit": "tokens", "format": "number"},
    {"name": "cost_per_request", "announce": True, "label": "Cost per request", "unit": "", "format": "usd"},
    {"name": "cost_per_month", "announce": True, "label": "Cost per month", "unit": "", "format": "usd"},
    {"name": "cost_per_thousand_words_read", "label": "Cost of reading 1,000 words", "unit": "", "format": "usd"},
    {"name": "cost_per_thousand_words_written", "label": "Cost of writing 1,000 words", "unit": "", "format": "usd"},
    {"name": "prompt_cost_share", "label": "Share of the cost: prompt", "unit": "", "format": "percent"},
    {"name": "reply_cost_share", "label": "Share of the cost: reply", "unit": "", "format": "percent"},
    {"name": "english_cost_per_month", "label": "Cost per month for the same text in English (GPT-4's tokenizer)", "unit": "", "format": "usd"},
    {"name": "extra_cost_per_month", "label": "Extra cost per month against English", "unit": "", "format": "usd"},
    {"name": "words_in_context", "label": "Text the window holds, in English words", "unit": "words", "format": "number"},
    {"name": "context_used_share", "label": "Share of the window one request fills", "unit": "", "format": "percent"},
    {"name": "fits_context", "label": "Prompt and reply fit in the window", "unit": "", "format": "yesno"},
]

PRESETS: list[dict] = [
    {
        "name": "language",
        "label": "Language and tokenizer",
        "fields": ["language_premium"],
        "options": [language(option_id) for option_id in FLORES_TOKENS],
    },
    {
        "name": "price_sheet",
        "label": "Price sheet",
        "fields": ["price_input", "price_output", "context_tokens"],
        "options": [
            # Anthropic's model overview pages of late 2026 (stored, undated; read 2026-12-05), the sources the
            # chat-assistants calculator cites: the line-up table on Opus 5.5's page gives Fable 5.1 at $10/$50.
            sheet("claude-fable-5-1", "Claude Fable 5.1: $10 in, $50 out, 1M window (Anthropic, late 2026; read 2026-12-05)",
                  "anthropic2026opus55", 10.0, 50.0, 1_000_000),
            sheet("claude-opus-5-5", "Claude Opus 5.5: $4 in, $20 out, 1M window (Anthropic, late 2026; read 2026-12-05)",
                  "anthropic2026opus55", 4.0, 20.0, 1_000_000),
            sheet("claude-sonnet-5-5", "Claude Sonnet 5.5: $2 in, $10 out, 1M window (Anthropic, late 2026; read 2026-12-05)",
                  "anthropic2026sonnet55", 2.0, 10.0, 1_000_000),
            sheet("claude-haiku-5-5", "Claude Haiku 5.5, prompts up to 100,000 tokens: $0.10 in, $0.50 out, 1M window (Anthropic, from 2026-10-07)",
                  "anthropic2026haiku55", 0.10, 0.50, 1_000_000),
            # DeepSeek's Models & Pricing page naming DeepSeek-V4.1-Flash-1017 and DeepSeek-V4-Pro-0813
            # (cache-miss input and output; peak hours 01:00-04:00 and 06:00-10:00 UTC on weekdays).
            sheet("deepseek-v4-pro-peak", "DeepSeek-V4-Pro, peak hours: $1.32 in, $3.96 out, 1M window (DeepSeek, Oct 2026)",
                  "deepseek-pricing-2026", 1.32, 3.96, 1_000_000),
            sheet("deepseek-v4-pro-offpeak", "DeepSeek-V4-Pro, off-peak: $0.66 in, $1.98 out, 1M window (DeepSeek, Oct 2026)",
                  "deepseek-pricing-2026", 0.66, 1.98, 1_000_000),
            sheet("deepseek-flash-peak", "DeepSeek Flash (V4.1), peak hours: $0.30 in, $1.20 out, 1M window (DeepSeek, Oct 2026)",
                  "deepseek-pricing-2026", 0.30, 1.20, 1_000_000),
            sheet("deepseek-flash-offpeak", "DeepSeek Flash (V4.1), off-peak: $0.15 in, $0.60 out, 1M window (DeepSeek, Oct 2026)",
                  "deepseek-pricing-2026", 0.15, 0.60, 1_000_000),
        ],
    },
]

SOURCES: list[dict] = [
    *[source for source in answer_cost.SOURCES
      if source["id"] in ("anthropic2026opus55", "anthropic2026sonnet55", "anthropic2026haiku55")],
    {
        "id": "petrov2023-lengths",
        "kind": "dataset",
        "title": "Tokenization lengths of the FLORES-200 dev and devtest sentences in 200 languages for 27 tokenizers "
                 "(tokenization_lengths_validated.csv), with the code that computed them",
        "authors": ["Petrov, Aleksandar", "La Malfa, Emanuele", "Torr, Philip H. S.", "Bibi, Adel"],
        "date": "2023",
        "url": "https://github.com/AleksandarPetrov/tokenization-fairness/blob/main/assets/tokenization_lengths_validated.csv",
        "note": "The data behind Petrov et al. (2023), Language Model Tokenizers Introduce Unfairness Between Languages; "
                "pairs with more than 10 % of characters mapped to the unknown token are left out.",
    },
    {
        "id": "gemini-tokens",
        "kind": "documentation",
        "title": "Understand and count tokens (Gemini API): a token is about 4 characters, 100 tokens about 60-80 English words",
        "authors": "Google",
        "date": "2026",
        "url": "https://ai.google.dev/gemini-api/docs/tokens",
    },
    {
        "id": "deepseek-pricing-2026",
        "kind": "documentation",
        "title": "Models & Pricing: deepseek-flash (DeepSeek-V4.1-Flash-1017) and deepseek-v4-pro (DeepSeek-V4-Pro-0813), "
                 "peak and off-peak prices per million tokens, 1M context",
        "authors": "DeepSeek-AI",
        "date": "2026-10",
        "url": "https://api-docs.deepseek.com/quick_start/pricing",
        "note": "Undated stored copy; the model version it names is of 17 October 2026. Off-peak prices are half the peak ones.",
    },
]

ASSUMPTIONS: list[str] = [
    "Text is counted in the words of its English version, and every other language as a multiple of it: the token "
    "premium, measured by Petrov et al. (2023) on about 2,000 sentences of the FLORES-200 parallel corpus, the "
    "same sentences in 200 languages. Other kinds of text (code, chat, tables) tokenize differently; count your own text with the "
    "provider's tokenizer.",
    "The premiums were measured with 2023 tokenizers (GPT-4's cl100k_base, Llama 2's and Qwen's first). Newer "
    "vocabularies are larger and cover more languages, so their premiums are usually smaller; a model's tokenizer "
    "can also change between versions at the same price per token.",
    "Tokens per English word differ between tokenizers too: OpenAI's rule of thumb gives 1.33 and Google's for "
    "Gemini 1.25 to 1.67. The premium is taken against cl100k_base's English, so a tokenizer that is less "
    "efficient on English (Llama 2's: 1.15×) shows that in its premium. A provider can change its tokenizer at "
    "the same price per token: Claude Haiku 5.5's counts about 30 % more tokens than Haiku 4.5's for the same text, "
    "as its source reports; type 1.3 times the rate to see the effect.",
    "List prices per token without a cache: cached prompt tokens cost a tenth or less on the sheets offered (the chat "
    "assistants calculator models this), batch interfaces about half, and reasoning tokens are billed as output.",
    "One price per token whatever the length of the request: some sheets switch to a higher rate past a threshold, "
    "which is not modelled.",
]

FIGURES: list[dict] = [
    {
        "name": "cost_split",
        "kind": "share_bar",
        "title": "Where the cost of a request goes",
        "parts": [
            {"value": "prompt_cost_share", "label": "Prompt"},
            {"value": "reply_cost_share", "label": "Reply"},
        ],
    },
    {
        "name": "window",
        "kind": "memory_bar",
        "title": "One request in the context window",
        "format": "number",
        "parts": [
            {"value": "prompt_tokens", "label": "Prompt tokens"},
            {"value": "reply_tokens", "label": "Reply tokens"},
        ],
        "capacity": "context_tokens",
        "words": {
            "capacity": "Window {capacity} tokens",
            "fits": "The request's {needed} tokens fit in the window of {capacity}",
            "over": "The request's {needed} tokens do not fit in the window of {capacity}",
            "over_by": "{over} tokens too many",
            "summary_fits": "the request takes {needed} tokens ({breakdown}) of a {capacity}-token window, so it fits",
            "summary_over": "the request takes {needed} tokens ({breakdown}), more than the {capacity}-token window",
        },
    },
]


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    clean = {name: positive(name, inputs[name]) for name in
             ("prompt_words", "reply_words", "tokens_per_word", "language_premium", "context_tokens",
              "price_input", "price_output", "requests_per_month")}
    return clean


def bill(v: dict) -> dict:
    """Tokens per request, their cost, and the same text's cost in English."""
    rate = v["tokens_per_word"] * v["language_premium"]
    prompt, reply = v["prompt_words"] * rate, v["reply_words"] * rate
    prompt_cost = prompt * v["price_input"] / TOKENS_PER_MILLION
    reply_cost = reply * v["price_output"] / TOKENS_PER_MILLION
    per_request = prompt_cost + reply_cost
    per_month = per_request * v["requests_per_month"]
    english = per_month / v["language_premium"]
    return {
        "tokens_per_word_used": rate,
        "prompt_tokens": prompt,
        "reply_tokens": reply,
        "request_tokens": prompt + reply,
        "prompt_cost": prompt_cost,
        "reply_cost": reply_cost,
        "cost_per_request": per_request,
        "cost_per_month": per_month,
        "cost_per_thousand_words_read": 1000 * rate * v["price_input"] / TOKENS_PER_MILLION,
        "cost_per_thousand_words_written": 1000 * rate * v["price_output"] / TOKENS_PER_MILLION,
        "prompt_cost_share": prompt_cost / per_request,
        "reply_cost_share": reply_cost / per_request,
        "english_cost_per_month": english,
        "extra_cost_per_month": per_month - english,
        "words_in_context": v["context_tokens"] / rate,
        "context_used_share": (prompt + reply) / v["context_tokens"],
        "fits_context": prompt + reply <= v["context_tokens"],
    }


def where_the_model_stops(v: dict, b: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if not b["fits_context"]:
        notes.append(f"The request needs {b['request_tokens']:,.0f} tokens, more than the {v['context_tokens']:,.0f}-token "
                     "window: the provider would refuse it, or the prompt would have to be cut or split.")
    if b["prompt_tokens"] > LONG_PROMPT:
        notes.append(f"A prompt of {b['prompt_tokens']:,.0f} tokens is past the {LONG_PROMPT:,} at which some price "
                     "sheets have charged a higher rate for the whole request; check the sheet.")
    if v["language_premium"] > HIGH_PREMIUM:
        notes.append(f"A premium of {v['language_premium']:.1f}× was measured with 2023 tokenizers; tokenizers with "
                     "larger vocabularies usually need fewer tokens for this language, so count a sample of your own text.")
    low, high = GEMINI_TOKENS_PER_WORD
    if not low <= v["tokens_per_word"] <= high:
        notes.append(f"{v['tokens_per_word']:g} tokens per English word is outside the 1.25 to 1.67 that OpenAI's and "
                     "Google's rules of thumb span.")
    return notes


def compute(
    *,
    prompt_words: float,
    reply_words: float,
    tokens_per_word: float,
    language_premium: float,
    context_tokens: float,
    price_input: float,
    price_output: float,
    requests_per_month: float,
) -> dict:
    """Tokens per request for a language and tokenizer, their cost per request and per month, the
    extra cost against English, and how much text the context window holds.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    b = bill(v)
    return {**v, **b, "notes": where_the_model_stops(v, b)}
