"""In-text citations: ``[@key]`` or ``[@a; @b]`` → "(Family et al., 2024)" linked to the source."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from string import ascii_lowercase

from generator.content.citations import CITATION
from generator.content.schema import Source
from generator.render.escape import html_attr, md_text

_ORGANISATION_WORDS = {
    "agency", "association", "centre", "center", "committee", "company", "consortium", "corporation",
    "corp", "council", "court", "foundation", "group", "inc", "institute", "laboratory", "labs", "ltd",
    "llc", "magazine", "organisation", "organization", "project", "scientists", "society", "team",
    "university",
    "energy", "hardware",  # news outlets named after their beat: "NS Energy", "Tom's Hardware"
}


def _is_organisation(words: list[str]) -> bool:
    """``International Energy Agency``, ``Epoch AI``: a word of organisations, or an acronym at the end."""
    last = words[-1].strip(".")
    return any(w.strip(".,").lower() in _ORGANISATION_WORDS for w in words) or (len(last) > 1 and last.isupper())


def family_name(author: str) -> str:
    """``Grattafiori, Aaron`` → Grattafiori; ``Aaron Grattafiori`` → Grattafiori; ``Epoch AI`` stays."""
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    if len(parts) > 1 and parts[-1][0].isupper() and not _is_organisation(parts):
        return parts[-1]
    return author


def short_reference(source: Source) -> str:
    """Author-year label: "Kaplan et al., 2020", "Smith and Jones, 2021", "Epoch AI, 2024"."""
    year = source.date[:4]
    names = [family_name(a) for a in source.authors]
    if not names:
        who = source.title
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {year}"


def year_suffix(index: int) -> str:
    """a, b, …, z, aa, ab, …: tells apart sources with the same author and year."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = ascii_lowercase[remainder] + letters
    return letters


def reference_labels(sources: Iterable[Source]) -> dict[str, str]:
    """Author-year label per source id; sources sharing one get a, b, … in list order ("Smith, 2024a")."""
    by_label: dict[str, list[str]] = defaultdict(list)
    for source in sources:
        if source.id not in by_label[short_reference(source)]:  # a source reachable under two keys
            by_label[short_reference(source)].append(source.id)
    labels = {}
    for label, ids in by_label.items():
        for index, source_id in enumerate(ids):
            labels[source_id] = label if len(ids) == 1 else label + year_suffix(index)
    return labels


def source_anchor(key: str) -> str:
    return f"source-{key}"


def render_citations(text: str, sources: dict[str, Source], link: Callable[[str], str] = source_anchor,
                     labels: dict[str, str] | None = None) -> str:
    """Replace citations with linked author-year references (unknown keys are left as typed).

    ``labels`` (default: worked out from ``sources``) should come from the whole bibliography, so a
    label such as "Smith, 2024a" means the same source on every page.
    """
    labels = labels if labels is not None else reference_labels(sources.values())

    def replace(match: re.Match[str]) -> str:
        keys = [k.strip().lstrip("@") for k in match.group(1).split(";")]
        if any(k not in sources for k in keys):
            return match.group(0)
        parts = [f'<a href="#{html_attr(link(sources[k].id))}" class="lm-cite">{md_text(labels[sources[k].id])}</a>'
                 for k in keys]
        return "(" + "; ".join(parts) + ")"

    return CITATION.sub(replace, text)
