"""The typed model of a knowledge map: the single definition of the content schema.

Everything an editor may write in ``content/`` is declared here, once (the kinds of value in
``fields.py``, ``sources.yaml``'s records in ``sources.py``).  The JSON
Schema that editors' tools read (``schema/*.schema.json``) is generated from these
classes, and :mod:`generator.content.loading` validates every YAML file against them.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StringConstraints, model_validator

from generator.content.fields import (  # noqa: F401 - re-exported: the schema's vocabulary
    ARXIV_PATTERN,
    CITATION_KEY_PATTERN,
    COLOUR_PATTERN,
    DEPTH_KEYS,
    DOI_PATTERN,
    MODULE_NAME_PATTERN,
    SLUG_PATTERN,
    URL_PATTERN,
    CitationKey,
    DepthKey,
    InputValue,
    Markdown,
    PartialDate,
    PlainText,
    Slug,
    Strict,
    _number_if_numeric,
    rule_error,
)
from generator.content.sources import Bibliography, Source, SourceKind, SourceRecord  # noqa: F401 - re-exported

# Limits: every text and list has one, well above what real content uses (the longest topic title
# is 58 characters, a depth has at most 7 trade-offs; a title may carry a test's whole hostile payload), so that no file can make a step of the
# generator slow (a 20,000-character title took the map's layout 17 s); Markdown's own limits
# are in generator/content/markdown_limits.py, a file's in yaml_limits.py.
Term = Annotated[PlainText, Field(max_length=80)]
# Things to try are played at check time, each state a run of the calculator (about 0.6 ms; a sweep
# of 10,000 values took 6 s): a sweep has at most MAX_SWEEP values, an exercise MAX_STATES states
# (the longest real one plays 9), so a topic's exercises stay within a few thousand runs.
MAX_SWEEP = 50
MAX_STATES = 60

# --- map.yaml -----------------------------------------------------------------------


class DepthLevel(Strict):
    """One depth level of the map (D1 Story … D5 Frontier)."""

    key: DepthKey
    name: PlainText = Field(max_length=200, description="Short name shown on the depth switcher, e.g. `Story`.")
    audience: PlainText = Field(max_length=200, description="Who the level is written for.")


class Layer(Strict):
    """A horizontal layer of the map, such as `3 · Cloud & Infrastructure`."""

    number: int = Field(ge=1, le=99)
    name: PlainText = Field(max_length=200)
    description: PlainText = Field(max_length=300, description="One line shown on the home page and layer page.")


class EdgeKind(Strict):
    """A kind of edge (powers, connects, …) with the colour the drawn map gives it."""

    id: Slug
    label: PlainText = Field(max_length=100)
    colour: Annotated[str, StringConstraints(pattern=COLOUR_PATTERN)] = "#5c6bc0"
    prerequisite: bool = Field(
        False, description="An edge of this kind means its subject needs its object read first (learning plans).",
    )


class ReadabilityRule(Strict):
    """How plainly one depth must read; `layermap check` warns about text that breaks it."""

    max_sentence_words: int | None = Field(None, ge=1, description="Warn about any sentence longer than this many words.")
    max_average_words: float | None = Field(
        None, gt=0, description="Warn when a topic's average sentence at this depth is longer than this many words."
    )
    banned: list[Term] = Field(
        default_factory=list, max_length=200,
        description="Words or phrases too technical for this depth (whole words, any case, plural too).",
    )


class MapConfig(Strict):
    """The whole map: ``content/map.yaml``."""

    title: PlainText = Field(max_length=200)
    introduction: Markdown = Field(description="Markdown shown on the home page.")
    depths: list[DepthLevel] = Field(min_length=1, max_length=len(DEPTH_KEYS))
    layers: list[Layer] = Field(min_length=1, max_length=99)
    edge_kinds: list[EdgeKind] = Field(default_factory=list, max_length=50)
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

    label: PlainText = Field(max_length=200)
    detail: Markdown | None = Field(None, description="Markdown; cite with [@key].")


class Flow(Strict):
    """A titled, numbered sequence of steps."""

    title: PlainText = Field(max_length=200)
    steps: list[FlowStep] = Field(min_length=2, max_length=30)


class CalculatorRef(Strict):
    """Embeds a calculator module from ``calculators/`` in a depth."""

    name: Annotated[str, StringConstraints(pattern=MODULE_NAME_PATTERN)] = Field(
        description="Module name in calculators/, e.g. `parallelism` or `rent_or_buy`."
    )
    values: dict[str, InputValue] = Field(
        default_factory=dict, max_length=100, description="Overrides of the calculator's default inputs, in base units."
    )


class Step(Strict):
    """One move on the calculator: set some inputs, or sweep one input through values."""

    set: dict[str, InputValue] | None = Field(None, max_length=100, description="Inputs to set, in base units.")
    sweep: str | None = Field(None, max_length=80, description="The input to move through `values`, one state per value.")
    values: list[InputValue] | None = Field(None, min_length=2, max_length=MAX_SWEEP, description="The values of a sweep, in order.")

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

    output: str = Field(max_length=80, description="An output of the calculator, e.g. `bubble`.")
    equals: ClaimValue | None = None
    at: Literal["start", "end"] = "end"
    becomes: ClaimValue | None = None
    when: dict[str, InputValue] | None = Field(None, max_length=100, description="Inputs of the state where `becomes` first holds.")
    trend: Literal["rises", "falls", "constant"] | None = None
    ratio: float | None = Field(None, gt=0, allow_inf_nan=False)  # × ∞ would pass a start at 0
    tolerance: float = Field(1e-3, ge=0, allow_inf_nan=False,  # ∞ would make every claim true
                             description="Relative tolerance for equals and ratio.")

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
    steps: list[Step] = Field(default_factory=list, max_length=20, description="Moves on the calculator, played in order.")
    claims: list[Claim] = Field(default_factory=list, max_length=20, description="What the steps show; proven at build time.")

    @model_validator(mode="after")
    def _few_states(self) -> "Exercise":
        states = sum(len(step.values or ()) if step.sweep is not None else 1 for step in self.steps)
        if states > MAX_STATES:
            raise rule_error("too_many_states", f"the steps play {states} states of the calculator; a thing to try plays at most {MAX_STATES}",
                             "sweep fewer values or in bigger steps, or split it into two things to try")
        return self


class Depth(Strict):
    """One depth of a topic.  Every part is optional, but a depth may not be empty."""

    hook: PlainText | None = Field(None, max_length=400, description="A question that opens the depth (plain text; cite with [@key]).")
    body: Markdown | None = Field(None, description="The main text, in Markdown. Cite with [@key].")
    flow: Flow | None = None
    analogy: Markdown | None = Field(None, description="Shown as `Like: …`, in Markdown.")
    breaks: Markdown | None = Field(None, description="Where the analogy breaks down, in Markdown.")
    tradeoffs: list[Markdown] = Field(default_factory=list, max_length=30, description="Each one in Markdown.")
    formulas: PlainText | None = Field(None, max_length=20_000, description="Shown verbatim as a code block.")
    calculator: CalculatorRef | None = None
    exercises: list[Exercise] = Field(default_factory=list, max_length=12, description="Things to try.")

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

    name: PlainText = Field(max_length=200)
    kind: PlainText = Field(max_length=200)


class Examples(Strict):
    as_of: date = Field(description="When the list was last checked, YYYY-MM-DD.")
    items: list[Example] = Field(min_length=1, max_length=50)


class Edge(Strict):
    """A typed edge, declared once in either of its two topics."""

    subject: Slug = Field(description="Topic id of the sentence's subject.")
    verb: PlainText = Field(max_length=200, description="Verb phrase, e.g. `powers and cools`.")
    object: Slug = Field(description="Topic id of the sentence's object.")
    kind: Slug | None = Field(None, description="One of map.yaml's edge_kinds.")
    depth: DepthKey | None = Field(
        None, description="For a prerequisite kind: the depth of the object the subject needs, e.g. `D3` "
                          "(by default, the depth the reader is going for).",
    )


class Topic(Strict):
    """One topic file: ``content/layer-3/gpu-clusters.yaml``."""

    id: Slug
    title: PlainText = Field(max_length=200)
    layer: int = Field(ge=1, le=99, description="Number of a layer defined in map.yaml.")
    summary: PlainText = Field(max_length=300, description="One line: map, lists, search, description.")
    depths: Depths
    examples: Examples | None = None
    edges: list[Edge] = Field(default_factory=list, max_length=100)
