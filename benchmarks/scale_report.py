"""The scale benchmark's numbers as a Markdown report: min / median / max, ratios, PASS or FAIL.

Pure functions of what was measured (``Measured`` and ``MapMeasured``), so they are tested alone.
A target that was not measured (not selected, or its runs failed) says "n/a" and why.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from scale_pages import PageParts
from scale_procs import Failure, Timing
from scale_search import SearchCost
from scale_serve import Edit

COLD_LIMIT = 0.7         # layermap cold build / baseline build at 1,000 topics
GROWTH_LIMIT = 2.1       # layermap cold build at 2,000 / at 1,000 topics
WARM_LIMIT = 0.2         # warm build / cold build
SERVE_LIMIT = 1.0        # serve start / cold build
EDIT_LIMIT = 2.0         # seconds, save → changed page at 1,000 topics (median of the body, title and summary edits)
REAL_EDIT_LIMIT = 1.0    # seconds, the same on the real map
SEARCH_FIRST_LIMIT = 0   # search-index bytes on a first page view
INDEX_GZ_LIMIT = 1.5e6   # bytes, gzip -9
MEMORY_LIMIT = 1.2       # layermap peak / baseline peak
AT = 1000                # the size the targets are set at


@dataclass(frozen=True)
class Spread:
    low: float
    median: float
    high: float

    def text(self, digits: int = 1, unit: str = "") -> str:
        return f"{self.low:.{digits}f} / {self.median:.{digits}f} / {self.high:.{digits}f}{unit}"


def spread(values: list[float]) -> Spread | None:
    return Spread(min(values), statistics.median(values), max(values)) if values else None


@dataclass
class Measured:
    """Everything measured at one synthetic size."""
    size: int
    cold: list[Timing | Failure] = field(default_factory=list)
    baseline: list[Timing | Failure] = field(default_factory=list)
    warm: list[Timing | Failure] = field(default_factory=list)
    serve_start: list[float | Failure] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    title_edits: list[Edit] = field(default_factory=list)
    summary_edits: list[Edit] = field(default_factory=list)
    search: SearchCost | Failure | None = None
    layermap_page: PageParts | None = None
    baseline_page: PageParts | None = None

    def timings(self, runs: str, kind: str = "wall") -> Spread | None:
        return spread([getattr(t, kind) for t in getattr(self, runs) if isinstance(t, Timing)])


@dataclass
class MapMeasured:
    """The real map (the repository's content/, served from a copy)."""
    topics: int
    serve_start: list[float | Failure] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    title_edits: list[Edit] = field(default_factory=list)
    summary_edits: list[Edit] = field(default_factory=list)


def failures(m: Measured | MapMeasured) -> list[Failure]:
    runs = [*getattr(m, "cold", []), *getattr(m, "baseline", []), *getattr(m, "warm", []), *m.serve_start,
            getattr(m, "search", None)]
    return [r for r in runs if isinstance(r, Failure)]


def ratio(a: Spread | float | None, b: Spread | float | None) -> float | None:
    a = a.median if isinstance(a, Spread) else a
    b = b.median if isinstance(b, Spread) else b
    return a / b if a is not None and b else None


def verdict(value: float | None, limit: float) -> str:
    return "n/a" if value is None else ("PASS" if value <= limit else "FAIL")


def _s(value: Spread | None, digits: int = 1, unit: str = "") -> str:
    return "—" if value is None else value.text(digits, unit)


def _x(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}×"


def edit_seconds(edits: list[Edit]) -> Spread | None:
    return spread([e.seconds for e in edits if e.seconds is not None])


def edit_note(edits: list[Edit], timeout_note: str = "") -> str:
    lost = sum(e.seconds is None for e in edits)
    return f"{len(edits) - lost} of {len(edits)} edits showed" + (f"; {lost} never did {timeout_note}" if lost else "")


def edit_rows(label: str, kind: str, edits: list[Edit], limit: float | None) -> list[Row]:
    """Save → changed page for ``edits`` of one ``kind`` (median ≤ ``limit``, or reported), and,
    when measured, save → every page that shows the edit written."""
    seconds = edit_seconds(edits)
    rows = [(f"{label}save → changed page, {kind} edits (s; {edit_note(edits)})", _s(seconds, 2), "—", "—",
             "report" if limit is None else f"median ≤ {limit:.0f} s",
             "" if limit is None else verdict(seconds and seconds.median, limit))]
    if any(e.everything is not None for e in edits):
        rows.append((f"{label}save → every page written, {kind} edits (s)",
                     _s(spread([e.everything for e in edits if e.everything is not None]), 1), "—", "—", "report", ""))
    return rows


Row = tuple[str, str, str, str, str, str]


def build_rows(m: Measured, bigger: Measured | None) -> list[Row]:
    cold, base, warm = m.timings("cold"), m.timings("baseline"), m.timings("warm")
    cold_mem, base_mem = m.timings("cold", "peak_mib"), m.timings("baseline", "peak_mib")
    rows: list[Row] = [
        (f"cold build, {m.size:,} topics (s)", _s(cold), _s(base), _x(ratio(cold, base)), f"≤ {COLD_LIMIT}× baseline",
         verdict(ratio(cold, base), COLD_LIMIT)),
    ]
    if bigger is not None:
        growth = ratio(bigger.timings("cold"), cold)
        cpu_growth = ratio(bigger.timings("cold", "cpu"), m.timings("cold", "cpu"))
        rows += [(f"cold build, {bigger.size:,} / {m.size:,} topics (s)", _s(bigger.timings("cold")),
                  _s(bigger.timings("baseline")), _x(growth), f"≤ {GROWTH_LIMIT}×", verdict(growth, GROWTH_LIMIT)),
                 (f"cold build CPU, {bigger.size:,} / {m.size:,} topics (s)", _s(bigger.timings("cold", "cpu")),
                  _s(bigger.timings("baseline", "cpu")), _x(cpu_growth), f"≤ {GROWTH_LIMIT}×",
                  verdict(cpu_growth, GROWTH_LIMIT))]
    rows += [
        ("warm build, cache kept (s)", _s(warm), f"cold {_s(cold)}", _x(ratio(warm, cold)), f"≤ {WARM_LIMIT}× cold",
         verdict(ratio(warm, cold), WARM_LIMIT)),
        ("build peak memory, process tree (MiB)", _s(cold_mem, 0), _s(base_mem, 0), _x(ratio(cold_mem, base_mem)),
         f"≤ {MEMORY_LIMIT}× baseline", verdict(ratio(cold_mem, base_mem), MEMORY_LIMIT)),
    ]
    return rows


def serve_rows(m: Measured) -> list[Row]:
    start = spread([s for s in m.serve_start if isinstance(s, float)])
    cold, edits = m.timings("cold"), edit_seconds(m.edits)
    return [
        ("`layermap serve` start → full topic page (s)", _s(start), f"cold build {_s(cold)}", _x(ratio(start, cold)),
         "≤ 1× cold build", verdict(ratio(start, cold), SERVE_LIMIT)),
        (f"save → changed page, body edits (s; {edit_note(m.edits)})", _s(edit_seconds(m.edits), 2), "—",
         "—", f"median ≤ {EDIT_LIMIT:.0f} s", verdict(edits and edits.median, EDIT_LIMIT)),
        *edit_rows("", "title", m.title_edits, EDIT_LIMIT), *edit_rows("", "summary", m.summary_edits, EDIT_LIMIT),
    ]


def search_rows(m: Measured) -> list[Row]:
    cost = m.search
    if not isinstance(cost, SearchCost):
        reason = str(cost) if cost else "not measured"
        return [("search-index bytes on a first page view", reason, "—", "—", "0", "n/a")]
    opened = "no index request after opening search" if cost.opened_bytes is None else f"{cost.opened_bytes:,} B"
    return [
        ("search-index bytes on a first page view", f"{cost.first_view_bytes:,} B", "—", "—", "0 until search opens",
         verdict(cost.first_view_bytes, SEARCH_FIRST_LIMIT)),
        ("search-index bytes once search is opened", opened, "—", "—", "report", ""),
        ("search index, gzip -9 (MB)", f"{cost.index_gz / 1e6:.2f} ({cost.index_raw / 1e6:.1f} raw)", "—", "—",
         f"≤ {INDEX_GZ_LIMIT / 1e6} MB", verdict(cost.index_gz, INDEX_GZ_LIMIT)),
    ]


def real_map_rows(real: MapMeasured) -> list[Row]:
    start, edits = spread([s for s in real.serve_start if isinstance(s, float)]), edit_seconds(real.edits)
    return [
        (f"real map ({real.topics} topics): `serve` start (s)", _s(start), "—", "—", "report", ""),
        (f"real map: save → changed page, body edits (s; {edit_note(real.edits)})", _s(edits, 2), "—", "—",
         f"median ≤ {REAL_EDIT_LIMIT:.0f} s", verdict(edits and edits.median, REAL_EDIT_LIMIT)),
        *edit_rows("real map: ", "title", real.title_edits, None), *edit_rows("real map: ", "summary", real.summary_edits, None),
    ]


def table(rows: list[Row]) -> list[str]:
    out = ["| measure | layermap min / median / max | baseline (or reference) | ratio of medians | target | result |",
           "|---|---:|---:|---:|---|---|"]
    return out + [f"| {' | '.join(row)} |" for row in rows]


def sizes_table(results: list[Measured]) -> list[str]:
    out = ["| topics | layermap cold s | baseline s | ratio | layermap CPU s | baseline CPU s | layermap peak MiB | "
           "baseline peak MiB | warm s |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for m in results:
        out.append(f"| {m.size:,} | {_s(m.timings('cold'))} | {_s(m.timings('baseline'))} | "
                   f"{_x(ratio(m.timings('cold'), m.timings('baseline')))} | {_s(m.timings('cold', 'cpu'))} | "
                   f"{_s(m.timings('baseline', 'cpu'))} | {_s(m.timings('cold', 'peak_mib'), 0)} | "
                   f"{_s(m.timings('baseline', 'peak_mib'), 0)} | {_s(m.timings('warm'))} |")
    return out


def peak_lines(results: list[Measured]) -> list[str]:
    """What the highest memory peak of each kind of build was made of."""
    lines = []
    for m in results:
        for name, runs in (("layermap cold", m.cold), ("baseline", m.baseline), ("layermap warm", m.warm)):
            done = [t for t in runs if isinstance(t, Timing) and t.at_peak]
            if done:
                top = max(done, key=lambda t: t.peak_mib)
                lines.append(f"- {m.size:,} topics, {name}: {top.peak_mib:.0f} MiB = {top.at_peak}")
    return lines


def pages_table(results: list[Measured]) -> list[str]:
    out = ["| topics | site | page KB | sidebar nav KB | table of contents KB | “More in layer” KB |",
           "|---:|---|---:|---:|---:|---:|"]
    for m in results:
        for name, parts in (("layermap", m.layermap_page), ("baseline", m.baseline_page)):
            if parts:
                out.append(f"| {m.size:,} | {name} | {parts.total / 1000:.1f} | {parts.nav / 1000:.1f} | "
                           f"{parts.toc / 1000:.1f} | {parts.siblings / 1000:.1f} |")
    return out if len(out) > 2 else []


ROW_PARTS = {"cold build": {"cold", "memory"}, "warm build": {"warm"}, "build peak": {"cold", "memory"},
             "`layermap serve`": {"serve", "edit"}, "save": {"edit"}, "search": {"search"}}


def selected(row: Row, parts: set[str]) -> bool:
    """A row of a part that was run (a report of ``--only cold`` has no empty serve rows)."""
    return next((bool(ps & parts) for start, ps in ROW_PARTS.items() if row[0].startswith(start)), True)


def target_rows(results: list[Measured], real: MapMeasured | None, parts: set[str]) -> list[Row]:
    by_size = {m.size: m for m in results}
    main = by_size.get(AT) or (results[0] if results else None)
    rows: list[Row] = []
    if main is not None:
        rows += build_rows(main, by_size.get(2 * main.size)) + serve_rows(main) + search_rows(main)
    if real is not None:
        rows += real_map_rows(real)
    return [row for row in rows if selected(row, parts)]


def failure_lines(results: list[Measured], real: MapMeasured | None) -> list[str]:
    found = [(m.size, f) for m in results for f in failures(m)] + ([("real map", f) for f in failures(real)] if real else [])
    lines = []
    for where, failure in found:
        first, *rest = str(failure).splitlines()
        lines.append(f"- {where}: {first}" + "".join(f"\n      {line}" for line in rest))
    return lines


def insert_section(existing: str, section: str) -> str:
    """``existing`` (a Markdown file under one ``# `` title) with ``section`` placed first below the title."""
    title, _, rest = existing.partition("\n")
    if not title.startswith("# "):
        return section.rstrip() + "\n\n" + existing
    return f"{title}\n\n{section.rstrip()}\n\n{rest.lstrip()}"
