"""Numbers in prose that a calculator can produce, computed at build time.

Editors write ``{{ parallelism.memory_each_bytes(params=70e9) }}`` where the text would
say "1.12 TB": the calculator runs on its defaults with those inputs changed, and the
output is written the way the calculator shows it.  Prose and calculator cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.calculation.port import calculator_display
from generator.content.schema import _number_if_numeric

EXPRESSION = re.compile(r"\{\{\s*([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)\(([^)]*)\)\s*\}\}")
OPENING = re.compile(r"(?<!\\)\{\{")  # `\{\{` is how prose shows literal braces
CODE_SPAN = re.compile(r"(`+).+?\1", re.S)  # braces inside `code` are code, not a number
ARGUMENT = re.compile(r"^\s*([a-z][a-z0-9_]*)\s*=\s*(\"[^\"]*\"|'[^']*'|[^,\s]+)\s*$")


@dataclass(frozen=True)
class ProseNumber:
    calculator: str
    output: str
    inputs: dict[str, Any]


class ProseNumberError(ValueError):
    pass


def parse_expression(match: re.Match[str]) -> ProseNumber:
    calculator, output, arguments = match.groups()
    inputs: dict[str, Any] = {}
    for part in filter(str.strip, arguments.split(",")):
        found = ARGUMENT.match(part)
        if not found:
            raise ProseNumberError(f"cannot read the argument `{part.strip()}`; write name=value, e.g. params=70e9")
        name, raw = found.groups()
        inputs[name] = raw.strip("\"'") if raw[0] in "\"'" else _number_if_numeric(raw)
    return ProseNumber(calculator, output, inputs)


def evaluate_number(number: ProseNumber) -> str:
    """The output as the calculator displays it; ProseNumberError for any mistake."""
    try:
        return calculator_display(number.calculator, number.output, number.inputs)
    except (ValueError, KeyError, ModuleNotFoundError) as error:
        raise ProseNumberError(str(error).strip("'\"")) from None


def expand_numbers(text: str, evaluate: Callable[[ProseNumber], str] = evaluate_number) -> str:
    return EXPRESSION.sub(lambda m: evaluate(parse_expression(m)), text)


def unmatched_openings(text: str) -> list[tuple[int, str]]:
    """(offset, excerpt) of each `{{` in prose that does not start a well-formed prose number."""
    starts = {match.start() for match in EXPRESSION.finditer(text)}
    code = [span.span() for span in CODE_SPAN.finditer(text)]
    found = []
    for opening in OPENING.finditer(text):
        at = opening.start()
        if at not in starts and not any(start <= at < end for start, end in code):
            close = text.find("}}", at)
            excerpt = text[at : close + 2] if 0 <= close < at + 60 else text[at : at + 40].split("\n")[0] + "…"
            found.append((at, excerpt))
    return found


