"""The kinds of value the content schema is made of: depth keys, checked text forms (slugs, citation
keys, partial dates, URLs), Markdown as a type of its own, calculator input values, and the error a
content rule raises. ``generator.content.schema`` builds every model from these."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, GetCoreSchemaHandler, StringConstraints
from pydantic_core import PydanticCustomError, core_schema

from generator.content.markdown_limits import MAX_MARKDOWN, markdown_problem

DEPTH_KEYS: tuple[str, ...] = ("D1", "D2", "D3", "D4", "D5")
DepthKey = Literal["D1", "D2", "D3", "D4", "D5"]

# The forms of text the schema checks with a pattern; generator.content.error_messages says what each one means.
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
CITATION_KEY_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"
MODULE_NAME_PATTERN = r"^[a-z][a-z0-9_]*$"
DOI_PATTERN = r"^10\.\d{4,9}/\S+$"
ARXIV_PATTERN = r"^\d{4}\.\d{4,5}$"
URL_PATTERN = r"^https?://\S+$"


def rule_error(kind: str, message: str, fix: str = "") -> PydanticCustomError:
    """The error of a content rule: ``kind`` names the rule (pydantic's error type), ``message``
    says what is wrong and ``fix`` (in the error's context, when given) how to mend it."""
    return PydanticCustomError(kind, message, {"fix": fix} if fix else None)


PlainText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""Text shown exactly as typed: every renderer escapes it for where it lands."""


class Markdown(str):
    """Text written in Markdown: rendered as Markdown, its HTML kept only through the sanitiser.

    A distinct type, so that a renderer can tell it from plain text: only a ``Markdown`` value
    may enter a page unescaped (:func:`generator.render.escape.markdown_block`).
    """

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        text = core_schema.str_schema(strip_whitespace=True, min_length=1, max_length=MAX_MARKDOWN)
        return core_schema.no_info_after_validator_function(_shaped_markdown, text)


def _shaped_markdown(value: str) -> Markdown:
    """Markdown within the limits on its shape (:mod:`generator.content.markdown_limits`)."""
    problem = markdown_problem(value)
    if problem is not None:
        raise PydanticCustomError("markdown_shape", problem.message, {"fix": problem.fix, "offset": problem.offset})
    return Markdown(value)


Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, min_length=1, max_length=80),
    Field(description="Lower-case words joined by hyphens, e.g. `gpu-clusters`."),
]
CitationKey = Annotated[
    str,
    StringConstraints(pattern=CITATION_KEY_PATTERN, max_length=100),
    Field(description="Key used in citations such as `[@grattafiori2024]`."),
]

_PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def _check_partial_date(value: str) -> str:
    match = _PARTIAL_DATE.match(value)
    if not match:
        raise PydanticCustomError("partial_date", "must be a date written YYYY, YYYY-MM or YYYY-MM-DD")
    year, month, day = (int(part) if part else 1 for part in match.groups())
    try:
        date(year, month, day)
    except ValueError as error:  # 2024-13-01 or 2024-02-30: the calendar's reason, e.g. "month must be in 1..12"
        raise PydanticCustomError("partial_date_not_in_calendar", "{reason}", {"reason": str(error)}) from None
    return value


PartialDate = Annotated[
    str,
    AfterValidator(_check_partial_date),
    Field(description="Publication date: YYYY, YYYY-MM or YYYY-MM-DD."),
]


def _number_if_numeric(value: object) -> object:
    """YAML 1.1 reads ``70e9`` as text; a calculator input means the number."""
    if isinstance(value, str):
        try:
            return float(value) if any(c in value for c in ".eE") else int(value)
        except ValueError:
            return value
    return value


InputValue = Annotated[
    bool | int | float | str,
    BeforeValidator(_number_if_numeric),
    Field(description="An input value in the calculator's base units (e.g. 70e9 parameters), or an option."),
]


class Strict(BaseModel):
    """Base for every content model: unknown keys are errors, text is trimmed."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)
