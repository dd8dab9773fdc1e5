"""The scale benchmark's report (benchmarks/scale_report.py, build_scale.parse_args): spreads, ratios,
verdicts, and a new section placed on top of the dated record in RESULTS.md."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
import scale_report as rep
from build_scale import PARTS, parse_args
from scale_procs import Failure, Timing
from scale_search import SearchCost, index_sizes, search_bytes
from scale_serve import Edit


def timings(*walls: float, peak: float = 100.0) -> list[Timing]:
    return [Timing(w, w * 0.9, peak) for w in walls]


def row(rows: list[rep.Row], start: str) -> rep.Row:
    return next(r for r in rows if r[0].startswith(start))


def test_spread_is_min_median_max_and_none_without_values() -> None:
    assert rep.spread([3.0, 1.0, 2.0, 10.0]) == rep.Spread(1.0, 2.5, 10.0)
    assert rep.spread([]) is None
    assert rep.Spread(1, 2.5, 10).text(1, " s") == "1.0 / 2.5 / 10.0 s"


def test_failed_runs_are_left_out_of_the_spread_and_listed() -> None:
    m = rep.Measured(1000, cold=[*timings(70, 80), Failure("layermap cold build", "timed out after 900 s")])
    assert m.timings("cold") == rep.Spread(70, 75, 80)
    lines = rep.failure_lines([m], None)
    assert lines == ["- 1000: layermap cold build failed (timed out after 900 s)"]


def test_verdicts_compare_ratios_of_medians_with_the_limits() -> None:
    m = rep.Measured(1000, cold=timings(30, 31, 40), baseline=timings(45, 44, 46, peak=100),
                     warm=timings(5, 6, 9))
    rows = rep.build_rows(m, rep.Measured(2000, cold=timings(70)))
    assert row(rows, "cold build, 1,000")[3:] == ("0.69×", "≤ 0.7× baseline", "PASS")
    assert row(rows, "cold build, 2,000 / 1,000")[5] == "FAIL"  # 70 / 31 = 2.26
    assert row(rows, "cold build CPU, 2,000 / 1,000")[3] == "2.26×"  # 63 / 27.9
    assert row(rows, "warm build")[5] == "PASS"  # 6 / 31 = 0.19
    assert row(rows, "build peak memory")[3:] == ("1.00×", "≤ 1.2× baseline", "PASS")
    slow = rep.build_rows(rep.Measured(1000, cold=timings(75), baseline=timings(45)), None)
    assert row(slow, "cold build")[5] == "FAIL" and row(slow, "warm build")[5] == "n/a"


def test_serve_and_edit_rows() -> None:
    m = rep.Measured(1000, cold=timings(75), serve_start=[60.0, 80.0, Failure("serve start", "serve ended")],
                     edits=[Edit("a", "depths.D1.body", 1.5), Edit("b", "depths.D2.body", 2.5), Edit("c", "x", None),
                            Edit("d", "x", 1.0), Edit("e", "x", 1.9)],
                     title_edits=[Edit("f", "title", None), Edit("g", "title", 0.8, 12.0), Edit("h", "title", 1.2, 14.0)],
                     summary_edits=[Edit("i", "summary", 2.6, 9.0)])
    rows = rep.serve_rows(m)
    assert row(rows, "`layermap serve` start")[3:] == ("0.93×", "≤ 1× cold build", "PASS")  # median 70 s / 75 s
    assert row(rows, "save → changed page, body edits (s; 4 of 5 edits showed; 1 never did")[1] == "1.00 / 1.70 / 2.50"
    assert row(rows, "save → changed page, body")[5] == "PASS"
    assert row(rows, "save → changed page, title edits (s; 2 of 3 edits showed; 1 never did")[1:] == (
        "0.80 / 1.00 / 1.20", "—", "—", "median ≤ 2 s", "PASS")
    assert row(rows, "save → every page written, title edits")[1] == "12.0 / 13.0 / 14.0"
    assert row(rows, "save → changed page, summary edits")[5] == "FAIL"
    slow = rep.Measured(1000, cold=timings(60), serve_start=[63.0], edits=[Edit("a", "x", 70.0)])
    assert [row(rep.serve_rows(slow), start)[5] for start in ("`layermap", "save → changed page, body")] == ["FAIL", "FAIL"]


def test_search_rows() -> None:
    m = rep.Measured(1000, search=SearchCost(0, 12_000_000, 12_700_000, 2_900_000))
    rows = rep.search_rows(m)
    assert row(rows, "search-index bytes on a first")[5] == "PASS"
    assert row(rows, "search index, gzip")[1:2] == ("2.90 (12.7 raw)",) and row(rows, "search index, gzip")[5] == "FAIL"
    assert rep.search_rows(rep.Measured(1000))[0][5] == "n/a"


def test_a_new_section_goes_on_top_of_the_older_dated_ones() -> None:
    old = "# Build scale\n\n## Measured 2026-12-02\n\nold numbers\n"
    assert rep.insert_section(old, "## Measured 2026-12-03\n\nnew\n") == (
        "# Build scale\n\n## Measured 2026-12-03\n\nnew\n\n## Measured 2026-12-02\n\nold numbers\n")


def test_index_sizes_and_search_bytes(tmp_path: Path) -> None:
    (tmp_path / "search").mkdir()
    data = b'{"docs": []}' * 1000
    (tmp_path / "search/search_index.json").write_bytes(data)
    (tmp_path / "search/worker.js").write_bytes(b"x" * 999)
    assert index_sizes(tmp_path) == (len(data), len(gzip.compress(data, 9)))
    assert search_bytes([("/search/search_index.json", 500, False), ("/index.html", 70, False)]) == 500


def test_parse_args_chooses_parts_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse_args(["--sizes", "1_000,2000", "--only", "cold,warm", "--repeat", "0"])
    assert (args.sizes, args.parts, args.repeat) == ([1000, 2000], {"cold", "warm"}, 1)
    assert parse_args([]).parts == set(PARTS)
    with pytest.raises(SystemExit):
        parse_args(["--only", "cold,speed"])
    assert "unknown part(s) speed" in capsys.readouterr().err


def test_peak_lines_name_the_processes_of_the_highest_peak() -> None:
    m = rep.Measured(1000, cold=[Timing(70, 60, 400, "python3 400 MiB"), Timing(71, 60, 450, "python3 390 MiB + node 60 MiB")],
                     baseline=[Timing(40, 35, 214, "python3 214 MiB")])
    assert rep.peak_lines([m]) == ["- 1,000 topics, layermap cold: 450 MiB = python3 390 MiB + node 60 MiB",
                                   "- 1,000 topics, baseline: 214 MiB = python3 214 MiB"]


def test_a_report_of_some_parts_has_only_their_rows() -> None:
    m = rep.Measured(1000, cold=timings(75), baseline=timings(45))
    labels = [r[0] for r in rep.target_rows([m], None, {"cold"})]
    assert labels == ["cold build, 1,000 topics (s)", "build peak memory, process tree (MiB)"]
    everything = [r[0] for r in rep.target_rows([m], None, set(PARTS))]
    assert len(everything) == 8 and everything[1].startswith("warm build")
