"""Reading form text into numbers and writing numbers as the text a reader sees.

One implementation for both the build (CPython) and the live page (Pyodide), so a number
shown with JavaScript off is the same string the live calculator shows.

Input declarations may carry ``factor``: base units per displayed unit (e.g. 1e9 for a field
shown in "billion parameters"). Raw form text is in displayed units; compute() gets base units.
"""

from __future__ import annotations

import math

SUPERSCRIPT_DIGITS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
DECIMAL_BYTE_UNITS = [(1e18, "EB"), (1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
NUMBER_WORDS = [(1e12, "trillion"), (1e9, "billion"), (1e6, "million")]


def input_factor(spec: dict) -> float:
    """Base units per displayed unit of an input (1 when the field shows base units)."""
    return float(spec.get("factor", 1))


MAX_INPUT_CHARS = 100  # no number a reader types is longer; refused before it is read
QUOTED_CHARS = 40  # an error message quotes at most this much of what was typed


def quoted(text: object) -> str:
    """What was typed, quoted for an error message: at most QUOTED_CHARS characters, then "…"."""
    text = str(text)
    return repr(text) if len(text) <= QUOTED_CHARS else repr(text[:QUOTED_CHARS]) + "…"


def bound_text(bound: float) -> str:
    """A declared min or max as a reader reads it: 16384 -> "16,384", 0.05 -> "0.05"."""
    return f"{int(bound):,}" if float(bound).is_integer() else f"{bound:,g}"


def allowed_range(spec: dict) -> str:
    """The interval a field accepts, in its displayed unit: "between 1 and 128 accelerators"."""
    unit = f" {spec['unit']}" if spec.get("unit") else ""
    return f"between {bound_text(spec['min'])} and {bound_text(spec['max'])}{unit}"


def check_range(spec: dict, shown: float, text: object) -> None:
    """Refuse a number outside the field's declared min and max (in displayed units): the
    slider stops there, and so does the typed text, a shared link or a prose number."""
    low, high = spec.get("min"), spec.get("max")
    if (low is not None and shown < low) or (high is not None and shown > high):
        raise ValueError(f"{spec['label']} must be {allowed_range(spec)} (got {quoted(str(text).strip())})")


def parse_input(spec: dict, text: object) -> int | float | str:
    """The base-unit value of one field's raw form text; ValueError with a reader's message.

    Selects return the chosen option value; other controls a number in base units (an int
    when whole, so messages read "got 0", not "got 0.0"), within the declared min and max.
    """
    label = spec["label"]
    if spec["control"] == "select":
        allowed = [option["value"] for option in spec["options"]]
        if text not in allowed:
            raise ValueError(f"{label} must be one of {', '.join(allowed)} (got {quoted(text)})")
        return str(text)
    if len(str(text)) > MAX_INPUT_CHARS:
        raise ValueError(f"{label} must be a number of at most {MAX_INPUT_CHARS} characters (got {quoted(text)})")
    cleaned = str(text).strip().replace(",", "").replace("_", "").replace("\u202f", "")
    try:
        number = float(cleaned)
    except ValueError:
        raise ValueError(f"{label} must be a number (got {quoted(text)})") from None
    if not math.isfinite(number):
        raise ValueError(f"{label} must be a finite number (got {quoted(text)})")
    check_range(spec, number, text)
    value = number * input_factor(spec)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def format_input(spec: dict, value: object) -> str:
    """The raw form text for a base-unit value: what a field shows (e.g. 70e9 -> "70")."""
    if spec["control"] == "select":
        return str(value)
    shown = float(value) / input_factor(spec)
    if shown.is_integer() and abs(shown) < 1e15:
        return str(int(shown))
    return f"{shown:.6g}"


NON_FINITE = {1: "∞", -1: "−∞", 0: "—"}  # infinity, minus infinity, not a number


TINY = 1e-6  # below this, numbers are written as powers of ten


def tiny_number(value: float, digits: int) -> str:
    """A number too small for decimals: 3.2e-9 -> "3.2 × 10⁻⁹"."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")  # exact even for subnormals
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT_DIGITS)}"


def significant(value: float, digits: int = 3) -> str:
    """``value`` rounded to ``digits`` significant figures, grouped by thousands: 184,318 -> "184,000"."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return NON_FINITE[math.copysign(1, value) if math.isinf(value) else 0]
    if abs(value) < TINY:  # 1e-320 would otherwise come out as 330 characters of zeros
        return tiny_number(value, digits)
    decimals = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, decimals)
    text = f"{rounded:,.{max(decimals, 0)}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_bytes(value: float) -> str:
    """Decimal bytes: 1.12e12 -> "1.12 TB", 8e10 -> "80 GB"."""
    for size, unit in DECIMAL_BYTE_UNITS:
        if abs(value) >= size * 0.9995:  # so 999.7 GB reads "1 TB", never "1,000 GB"
            return f"{significant(value / size)} {unit}"
    return f"{significant(value)} B"


def format_percent(share: float) -> str:
    return f"{significant(share * 100)} %"


def format_days(days: float) -> str:
    text = significant(days)
    return f"{text} day" if text == "1" else f"{text} days"


def format_scientific(value: float, digits: int = 3) -> str:
    """6.3e24 -> "6.3 × 10²⁴"; small numbers stay plain."""
    if value == 0 or abs(value) < 1e6 or not math.isfinite(value):
        return significant(value, digits)
    exponent = math.floor(math.log10(abs(value)))
    mantissa = significant(value / 10**exponent, digits)
    if mantissa == "10":
        mantissa, exponent = "1", exponent + 1
    return f"{mantissa} × 10{str(exponent).translate(SUPERSCRIPT_DIGITS)}"


def format_flops(value: float) -> str:
    return f"{format_scientific(value)} FLOP"


def format_integer(value: float) -> str:
    return f"{round(value):,}" if math.isfinite(value) else significant(value)


def format_number(value: float) -> str:
    """Three significant figures, in words above a million: 4.42e6 -> "4.42 million"."""
    if abs(value) >= 1e15:
        return format_scientific(value)
    for size, word in NUMBER_WORDS:
        if abs(value) >= size * 0.9995:
            return f"{significant(value / size)} {word}"
    return significant(value)


def format_yesno(value: object) -> str:
    return "Yes" if value else "No"


DURATION_UNITS = [(3600.0, "h"), (60.0, "min"), (1.0, "s"), (1e-3, "ms"), (1e-6, "µs")]


def format_seconds(seconds: float) -> str:
    """A duration in the largest unit that reads well: 5.17e-4 -> "517 µs", 0.35 -> "350 ms", 4.3 -> "4.3 s"."""
    if seconds == 0 or not math.isfinite(seconds):
        return f"{significant(seconds)} s"
    for size, unit in DURATION_UNITS:
        if abs(seconds) >= size * 0.9995:  # so 0.99996 s reads "1 s", never "1,000 ms"
            return f"{significant(seconds / size)} {unit}"
    return f"{significant(seconds / 1e-6)} µs"


def format_months(months: float | None) -> str:
    """A waiting time in months; None means it never comes: 14.23 -> "14.2 months", None -> "never"."""
    if months is None:
        return "never"
    text = significant(months)
    return f"{text} month" if text == "1" else f"{text} months"


def format_usd(value: float) -> str:
    """US dollars: cents from $1 to $100 (1.8 -> "$1.80"), else three significant figures in words
    from a million (0.1326 -> "$0.133", 37500 -> "$37,500", 4.4e6 -> "$4.4 million")."""
    sign = "-" if value < 0 else ""
    amount = abs(value)
    if 1 <= amount < 99.995:
        return f"{sign}${amount:.2f}"
    return f"{sign}${format_number(amount)}"


FORMATTERS = {
    "bytes": format_bytes,
    "percent": format_percent,
    "days": format_days,
    "flops": format_flops,
    "integer": format_integer,
    "number": format_number,
    "yesno": format_yesno,
    "seconds": format_seconds,
    "usd": format_usd,
    "months": format_months,
}
# Formats that name their own unit; the others are followed by the output's declared unit.
SELF_DESCRIBING_FORMATS = {"bytes", "percent", "days", "flops", "yesno", "seconds", "months"}


def format_output(spec: dict, value: object) -> str:
    """The text a reader sees for one declared output, e.g. "1.12 TB" or "4.42 million accelerator-hours"."""
    fmt = spec.get("format", "number")
    if fmt not in FORMATTERS:
        raise ValueError(f"output {spec['name']}: unknown format {fmt!r} (known: {', '.join(FORMATTERS)})")
    text = FORMATTERS[fmt](value)
    unit = spec.get("unit", "")
    if unit and fmt not in SELF_DESCRIBING_FORMATS:
        text = f"{text} {unit}"
    return text
