"""The schema of ``content/sources.yaml``: the map's bibliography, every source once under its key.
A record must be findable (a URL, DOI or arXiv id); citations in prose name it as ``[@key]``."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints, model_validator

from generator.content.fields import (
    ARXIV_PATTERN,
    DOI_PATTERN,
    URL_PATTERN,
    CitationKey,
    PartialDate,
    PlainText,
    Strict,
    rule_error,
)

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
    title: PlainText = Field(max_length=500)
    authors: list[Annotated[PlainText, Field(max_length=200)]] = Field(
        min_length=1, max_length=1_000,
        description="`Family, Given` or `Given Family`; an organisation as one entry.",
    )
    date: PartialDate
    url: Url | None = None
    doi: Doi | None = None
    arxiv: ArxivId | None = None
    note: PlainText | None = Field(None, max_length=1_000)

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
