"""Will a model run on my own machine, how fast, and what does each token cost next to the cloud?

The arithmetic of the "Running locally vs in the cloud" card (D4), for one person chatting
with a model on one machine:

    weight_bytes      = params × bits per weight ÷ 8
    fits              ⇔ weight_bytes + allowance ≤ machine memory
    tokens_per_second ≤ memory bandwidth ÷ weight_bytes
                        (each new token reads every weight once: decoding is memory-bound,
                         Pope et al., 2022; the small KV-cache read is left out)
    local cost / year = hardware price ÷ years of use + watts × hours × electricity price
    local cost per million tokens = local cost / year ÷ tokens generated in a year × 10⁶

The cloud price per million tokens is an input the reader sets: prices differ by provider
and model and change often, so the defaults are illustrative, not quotes. Everything is in
base units: bytes (decimal), bytes per second, US dollars, watts, hours, years.

Standard library only; knows nothing of HTML. The user interface is declared as plain data
below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

from calculators._datasheets import shared_sources
from calculators._checks import at_least, in_range, one_of, positive

BITS_PER_WEIGHT: dict[str, int] = {"fp16": 16, "q8": 8, "q4": 4}
SECONDS_PER_HOUR = 3600
DAYS_PER_YEAR = 365
TOKENS_PER_MILLION = 1e6
WATTS_PER_KILOWATT = 1000

TITLE = "Local model calculator: fit, speed and cost per token"

INPUTS: list[dict] = [
    {
        "name": "params",
        "label": "Model size",
        "unit": "billion parameters",
        "factor": 1e9,
        "control": "slider",
        "min": 0.1,
        "max": 1000,
        "step": 0.1,
        "scale": "log",
        # 8B: the size of Llama 3 8B, the card's D3 example on a laptop.
        "default": 8e9,
        "help": "Number of parameters (weights) in the model, in billions.",
    },
    {
        "name": "precision",
        "label": "Bits per weight",
        "unit": "",
        "control": "select",
        "default": "q4",
        "help": "How many bits each weight is stored in. Quantised files shrink 16-bit weights to 8 or 4 bits.",
        "options": [
            {"value": "fp16", "label": "16-bit (2 bytes per weight)"},
            {"value": "q8", "label": "8-bit (1 byte per weight)"},
            {"value": "q4", "label": "4-bit (half a byte per weight)"},
        ],
    },
    {
        "name": "allowance",
        "label": "Room for the conversation and runtime",
        "unit": "GB",
        "factor": 1e9,
        "control": "number",
        "min": 0,
        "max": 256,
        "step": 0.5,
        "scale": "linear",
        "default": 4e9,
        "help": "Memory kept free beside the weights: the KV cache of the conversation, the runtime's buffers, and on a shared-memory computer the operating system and other programs.",
    },
    {
        "name": "memory",
        "label": "Machine memory",
        "unit": "GB",
        "factor": 1e9,
        "control": "number",
        "min": 1,
        "max": 2048,
        "step": 1,
        "scale": "linear",
        "default": 16e9,
        "help": "Graphics-card memory, or the unified memory of a computer whose processor and graphics share it, in decimal gigabytes.",
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
        "default": 100e9,
        "help": "How fast that memory can be read, from the maker's specifications, in gigabytes per second.",
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
    {"name": "weight_bytes", "label": "Weights", "unit": "", "format": "bytes"},
    {"name": "memory_needed_bytes", "label": "Memory needed", "unit": "", "format": "bytes"},
    {"name": "fits", "announce": True, "label": "Fits in memory", "unit": "", "format": "yesno"},
    {"name": "largest_params", "label": "Largest model that fits at these bits", "unit": "parameters", "format": "number"},
    {"name": "tokens_per_second", "announce": True, "label": "Speed ceiling for one user", "unit": "tokens/s", "format": "number"},
    {"name": "tokens_per_year", "label": "Tokens generated in a year", "unit": "tokens", "format": "number"},
    {"name": "local_cost_per_year", "label": "Local cost per year", "unit": "", "format": "usd"},
    {"name": "cloud_cost_per_year", "label": "Cloud cost for the same tokens", "unit": "", "format": "usd"},
    {"name": "local_cost_per_million", "announce": True, "label": "Local cost per million tokens", "unit": "", "format": "usd"},
    {"name": "cost_ratio", "label": "Local cost against the cloud", "unit": "times the cloud price", "format": "number"},
    {"name": "local_cheaper", "label": "Local is cheaper", "unit": "", "format": "yesno"},
]

PRESETS: list[dict] = [
    {
        "name": "machine",
        "label": "Machine",
        "fields": ["memory", "bandwidth"],
        "options": [
            {
                "id": "laptop-m2-16gb",
                "label": "Laptop: Apple M2, 16 GB unified memory (100 GB/s)",
                # Apple: M2 has 100 GB/s of unified memory bandwidth, up to 24 GB.
                "values": {"memory": 16e9, "bandwidth": 100e9},
                "source": "apple-m2",
            },
            {
                "id": "desktop-rtx-4090",
                "label": "Desktop graphics card: NVIDIA GeForce RTX 4090, 24 GB (1,008 GB/s)",
                # NVIDIA Ada architecture whitepaper: 24 GB GDDR6X, 1,008 GB/s.
                "values": {"memory": 24e9, "bandwidth": 1008e9},
                "source": "nvidia-ada-whitepaper",
            },
            {
                "id": "workstation-m4-max-128gb",
                "label": "Workstation: Apple M4 Max, 128 GB unified memory (546 GB/s)",
                # Apple: M4 Max supports up to 128 GB of unified memory at 546 GB/s.
                "values": {"memory": 128e9, "bandwidth": 546e9},
                "source": "apple-m4-max",
            },
        ],
    },
    {
        "name": "model",
        "label": "Model",
        "fields": ["params"],
        "options": [
            {"id": "llama3-8b", "label": "Llama 3 8B", "values": {"params": 8e9}, "source": "llama3-herd"},
            {"id": "llama3-70b", "label": "Llama 3 70B", "values": {"params": 70e9}, "source": "llama3-herd"},
            {"id": "llama3-405b", "label": "Llama 3.1 405B", "values": {"params": 405e9}, "source": "llama3-herd"},
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("llama3-herd"),
    {
        "id": "apple-m2",
        "title": "Apple unveils M2, taking the breakthrough performance and capabilities of M1 even further",
        "authors": "Apple",
        "date": "2022-06-06",
        "url": "https://www.apple.com/newsroom/2022/06/apple-unveils-m2-with-breakthrough-performance-and-capabilities/",
    },
    {
        "id": "nvidia-ada-whitepaper",
        "title": "NVIDIA Ada GPU Architecture (whitepaper)",
        "authors": "NVIDIA",
        "date": "2022",
        "url": "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf",
    },
    {
        "id": "apple-m4-max",
        "title": "Apple introduces M4 Pro and M4 Max",
        "authors": "Apple",
        "date": "2024-10-30",
        "url": "https://www.apple.com/newsroom/2024/10/apple-introduces-m4-pro-and-m4-max/",
    },
]

FIGURES: list[dict] = [
    {
        "name": "memory",
        "kind": "memory_bar",
        "title": "Memory of the machine",
        "parts": [
            {"value": "weight_bytes", "label": "Weights"},
            {"value": "allowance", "label": "Conversation and runtime"},
        ],
        "capacity": "memory",
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


def compute(
    *,
    params: float,
    precision: str,
    allowance: float,
    memory: float,
    bandwidth: float,
    hardware_price: float,
    lifetime_years: float,
    power_watts: float,
    electricity_price: float,
    hours_per_day: float,
    cloud_price: float,
) -> dict:
    """Fit, single-user speed ceiling, and local against cloud cost per million tokens.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    params = positive("params", params)
    precision = one_of("precision", precision, BITS_PER_WEIGHT)
    allowance = at_least("allowance", allowance, 0)
    memory = positive("memory", memory)
    bandwidth = positive("bandwidth", bandwidth)
    hardware_price = at_least("hardware_price", hardware_price, 0)
    lifetime_years = positive("lifetime_years", lifetime_years)
    power_watts = positive("power_watts", power_watts)
    electricity_price = at_least("electricity_price", electricity_price, 0)
    hours_per_day = in_range("hours_per_day", hours_per_day, 0, 24, open_low=True)
    cloud_price = positive("cloud_price", cloud_price)

    bytes_per_weight = BITS_PER_WEIGHT[precision] / 8
    weight_bytes = params * bytes_per_weight
    memory_needed = weight_bytes + allowance
    largest_params = max(memory - allowance, 0.0) / bytes_per_weight

    tokens_per_second = bandwidth / weight_bytes
    hours_per_year = hours_per_day * DAYS_PER_YEAR
    tokens_per_year = tokens_per_second * SECONDS_PER_HOUR * hours_per_year
    hardware_per_year = hardware_price / lifetime_years
    electricity_per_year = power_watts / WATTS_PER_KILOWATT * hours_per_year * electricity_price
    local_per_year = hardware_per_year + electricity_per_year
    local_per_million = local_per_year / tokens_per_year * TOKENS_PER_MILLION
    cloud_per_year = cloud_price * tokens_per_year / TOKENS_PER_MILLION

    return {
        "params": params,
        "precision": precision,
        "allowance": allowance,
        "memory": memory,
        "bandwidth": bandwidth,
        "hardware_price": hardware_price,
        "lifetime_years": lifetime_years,
        "power_watts": power_watts,
        "electricity_price": electricity_price,
        "hours_per_day": hours_per_day,
        "cloud_price": cloud_price,
        "bits_per_weight": BITS_PER_WEIGHT[precision],
        "weight_bytes": weight_bytes,
        "memory_needed_bytes": memory_needed,
        "fits": memory_needed <= memory,
        "largest_params": largest_params,
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
    }
