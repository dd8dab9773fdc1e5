"""The typed model of a knowledge map: the single definition of the content schema.

Everything an editor may write in ``content/`` is declared here, once.  The JSON
Schema that editors' tools read (``schema/*.schema.json``) is generated from these
classes, and :mod:`generator.loading` validates every YAML file against them.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, GetCoreSchemaHandler, StringConstraints, model_validator
from pydantic_core import PydanticCustomError, core_schema

DEPTH_KEYS: tuple[str, ...] = ("D1", "D2", "D3", "D4", "D5")
DepthKey = Literal["D1", "D2", "D3", "D4", "D5"]

# The forms of text the schema checks with a pattern; generator.error_messages says what each one means.
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
        text = core_schema.str_schema(strip_whitespace=True, min_length=1)
        return core_schema.no_info_after_validator_function(cls, text)


Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, min_length=1, max_length=80),
    Field(description="Lower-case words joined by hyphens, e.g. `gpu-clusters`."),
]
CitationKey = Annotated[
    str,
    StringConstraints(pattern=CITATION_KEY_PATTERN),
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


# --- map.yaml -----------------------------------------------------------------------


class DepthLevel(Strict):
    """One depth level of the map (D1 Story … D5 Frontier)."""

    key: DepthKey
    name: PlainText = Field(description="Short name shown on the depth switcher, e.g. `Story`.")
    audience: PlainText = Field(description="Who the level is written for.")


class Layer(Strict):
    """A horizontal layer of the map, such as `3 · Cloud & Infrastructure`."""

    number: int = Field(ge=1, le=99)
    name: PlainText
    description: PlainText = Field(description="One line shown on the home page and layer page.")


class EdgeKind(Strict):
    """A kind of edge (powers, connects, …) with the colour the drawn map gives it."""

    id: Slug
    label: PlainText
    colour: Annotated[str, StringConstraints(pattern=COLOUR_PATTERN)] = "#5c6bc0"


class ReadabilityRule(Strict):
    """How plainly one depth must read; `layermap check` warns about text that breaks it."""

    max_sentence_words: int | None = Field(None, ge=1, description="Warn about any sentence longer than this many words.")
    max_average_words: float | None = Field(
        None, gt=0, description="Warn when a topic's average sentence at this depth is longer than this many words."
    )
    banned: list[PlainText] = Field(
        default_factory=list,
        description="Words or phrases too technical for this depth (whole words, any case, plural too).",
    )


class MapConfig(Strict):
    """The whole map: ``content/map.yaml``."""

    title: PlainText
    introduction: Markdown = Field(description="Markdown shown on the home page.")
    depths: list[DepthLevel] = Field(min_length=1)
    layers: list[Layer] = Field(min_length=1)
    edge_kinds: list[EdgeKind] = Field(default_factory=list)
    stale_examples_after_days: int = Field(
        365, ge=1, description="Warn when a topic's `examples.as_of` is older than this many days."
    )
    frontier_source_age_months: int = Field(
        18, ge=1, description="Warn when the newest source a topic's D5 cites is older than this many months.",
    )
    readability: dict[DepthKey, ReadabilityRule] = Field(
        default_factory=dict,
        description="Per depth (e.g. `D1`): sentence-length limits and banned jargon, checked as warnings.",
    )


# --- topic files --------------------------------------------------------------------


class FlowStep(Strict):
    """One numbered step of a flow: ``Submit: job request``."""

    label: PlainText
    detail: Markdown | None = Field(None, description="Markdown; cite with [@key].")


class Flow(Strict):
    """A titled, numbered sequence of steps."""

    title: PlainText
    steps: list[FlowStep] = Field(min_length=2)


class CalculatorRef(Strict):
    """Embeds a calculator module from ``calculators/`` in a depth."""

    name: Annotated[str, StringConstraints(pattern=MODULE_NAME_PATTERN)] = Field(
        description="Module name in calculators/, e.g. `parallelism` or `rent_or_buy`."
    )
    values: dict[str, InputValue] = Field(
        default_factory=dict, description="Overrides of the calculator's default inputs, in base units."
    )


class Step(Strict):
    """One move on the calculator: set some inputs, or sweep one input through values."""

    set: dict[str, InputValue] | None = Field(None, description="Inputs to set, in base units.")
    sweep: str | None = Field(None, description="The input to move through `values`, one state per value.")
    values: list[InputValue] | None = Field(None, min_length=2, description="The values of a sweep, in order.")

    @model_validator(mode="after")
    def _one_kind(self) -> "Step":
        if (self.set is None) == (self.sweep is None):
            raise rule_error("step_kind", "a step has either `set:` or `sweep:` with `values:`")
        if self.sweep is not None and not self.values:
            raise rule_error("sweep_without_values", "a sweep needs `values:`, a list of two or more values")
        if self.set is not None and self.values is not None:
            raise rule_error("values_without_sweep", "`values:` belongs to a sweep; use `set:` alone to set inputs")
        return self


ClaimValue = Annotated[bool | int | float | str, BeforeValidator(_number_if_numeric)]


class Claim(Strict):
    """What an exercise teaches about one output, checked against the calculator at build time.

    Exactly one of: ``equals`` (at the end, or ``at: start``), ``becomes`` (the first state where
    the output takes this value must be the one ``when`` describes), ``trend`` (rises, falls or
    stays constant at every step) or ``ratio`` (between every two consecutive states).
    """

    output: str = Field(description="An output of the calculator, e.g. `bubble`.")
    equals: ClaimValue | None = None
    at: Literal["start", "end"] = "end"
    becomes: ClaimValue | None = None
    when: dict[str, InputValue] | None = Field(None, description="Inputs of the state where `becomes` first holds.")
    trend: Literal["rises", "falls", "constant"] | None = None
    ratio: float | None = Field(None, gt=0)
    tolerance: float = Field(1e-3, ge=0, description="Relative tolerance for equals and ratio.")

    @model_validator(mode="after")
    def _one_kind(self) -> "Claim":
        kinds = [k for k in ("equals", "becomes", "trend", "ratio") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise rule_error("claim_kind", "a claim has exactly one of `equals`, `becomes`, `trend` or `ratio`")
        if (self.becomes is None) != (self.when is None):
            raise rule_error("becomes_without_when", "`becomes` and `when` go together")
        return self


class Exercise(Strict):
    """A "thing to try" on the depth's calculator: steps a reader plays, claims the build proves."""

    prompt: Markdown = Field(description="What the reader is asked to try, in Markdown.")
    answer: Markdown | None = Field(None, description="What they should find, in Markdown; revealed on request.")
    steps: list[Step] = Field(default_factory=list, description="Moves on the calculator, played in order.")
    claims: list[Claim] = Field(default_factory=list, description="What the steps show; proven at build time.")


class Depth(Strict):
    """One depth of a topic.  Every part is optional, but a depth may not be empty."""

    hook: PlainText | None = Field(None, description="A question that opens the depth (plain text; cite with [@key]).")
    body: Markdown | None = Field(None, description="The main text, in Markdown. Cite with [@key].")
    flow: Flow | None = None
    analogy: Markdown | None = Field(None, description="Shown as `Like: …`, in Markdown.")
    breaks: Markdown | None = Field(None, description="Where the analogy breaks down, in Markdown.")
    tradeoffs: list[Markdown] = Field(default_factory=list, description="Each one in Markdown.")
    formulas: PlainText | None = Field(None, description="Shown verbatim as a code block.")
    calculator: CalculatorRef | None = None
    exercises: list[Exercise] = Field(default_factory=list, description="Things to try.")

    def is_empty(self) -> bool:
        return not any(
            (self.hook, self.body, self.flow, self.analogy, self.breaks, self.tradeoffs,
             self.formulas, self.calculator, self.exercises)
        )


class Depths(Strict):
    """The depths a topic explains itself at: any subset of D1–D5."""

    D1: Depth | None = None
    D2: Depth | None = None
    D3: Depth | None = None
    D4: Depth | None = None
    D5: Depth | None = None

    def present(self) -> list[tuple[str, Depth]]:
        return [(key, getattr(self, key)) for key in DEPTH_KEYS if getattr(self, key) is not None]


class Example(Strict):
    """A dated real-world example: ``Slurm (job scheduler)``."""

    name: PlainText
    kind: PlainText


class Examples(Strict):
    as_of: date = Field(description="When the list was last checked, YYYY-MM-DD.")
    items: list[Example] = Field(min_length=1)


SourceKind = Literal[
    "paper", "book", "report", "datasheet", "documentation", "blog", "news", "dataset", "filing", "standard",
    "talk", "code", "discussion", "web",
]
Doi = Annotated[str, StringConstraints(pattern=DOI_PATTERN), Field(description="A DOI such as `10.1145/361147.361115`.")]
ArxivId = Annotated[str, StringConstraints(pattern=ARXIV_PATTERN),
                    Field(description="An arXiv identifier without version, such as `2407.21783`.")]
Url = Annotated[str, StringConstraints(pattern=URL_PATTERN)]


class SourceRecord(Strict):
    """One record of the map's bibliography (``content/sources.yaml``), cited in text as ``[@key]``.

    Findable by construction: it needs at least one locator (``url``, ``doi`` or ``arxiv``).
    """

    model_config = ConfigDict(**{**Strict.model_config, "json_schema_extra": {
        "anyOf": [{"required": ["url"]}, {"required": ["doi"]}, {"required": ["arxiv"]}],
    }})

    kind: SourceKind = Field(description="What it is: paper, datasheet, blog, dataset, report, documentation, …")
    title: PlainText
    authors: list[PlainText] = Field(
        min_length=1,
        description="`Family, Given` or `Given Family`; an organisation as one entry.",
    )
    date: PartialDate
    url: Url | None = None
    doi: Doi | None = None
    arxiv: ArxivId | None = None
    note: PlainText | None = None

    @model_validator(mode="after")
    def _findable(self) -> SourceRecord:
        if not (self.url or self.doi or self.arxiv):
            raise rule_error("source_not_findable", "the source cannot be found: it has no `url`, `doi` or `arxiv`",
                             "add where readers find it: `url: https://…`, `doi: 10.…` or `arxiv: 2407.21783`")
        return self

    @property
    def link(self) -> str:
        """Where a reader finds it: the URL, else the DOI or arXiv page."""
        if self.url:
            return self.url
        return f"https://doi.org/{self.doi}" if self.doi else f"https://arxiv.org/abs/{self.arxiv}"

    @property
    def locators(self) -> set[str]:
        """Normalised ways of finding it: two records sharing one are the same source."""
        found = {self.link.rstrip("/").lower()}
        if self.doi:
            found.add(f"doi:{self.doi.lower()}")
        if self.arxiv:
            found.add(f"arxiv:{self.arxiv}")
        arxiv = re.match(r"https?://arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})", self.link)
        if arxiv:
            found.add(f"arxiv:{arxiv.group(1)}")
        return found


class Source(SourceRecord):
    """A record with its key: what pages list and citations point at."""

    id: CitationKey


class Bibliography(Strict):
    """``content/sources.yaml``: every source of the map, once, keyed by the key text cites."""

    sources: dict[CitationKey, SourceRecord] = Field(
        default_factory=dict, description="Key → source record; cite it in any topic as `[@key]`."
    )

    def records(self) -> dict[str, Source]:
        return {key: Source(id=key, **record.model_dump()) for key, record in self.sources.items()}


class Edge(Strict):
    """A typed edge, declared once in either of its two topics."""

    subject: Slug = Field(description="Topic id of the sentence's subject.")
    verb: PlainText = Field(description="Verb phrase, e.g. `powers and cools`.")
    object: Slug = Field(description="Topic id of the sentence's object.")
    kind: Slug | None = Field(None, description="One of map.yaml's edge_kinds.")


class Topic(Strict):
    """One topic file: ``content/layer-3/gpu-clusters.yaml``."""

    id: Slug
    title: PlainText
    layer: int = Field(ge=1, le=99, description="Number of a layer defined in map.yaml.")
    summary: PlainText = Field(max_length=300, description="One line: map, lists, search, description.")
    depths: Depths
    examples: Examples | None = None
    edges: list[Edge] = Field(default_factory=list)
