"""Diagnostics: one line an editor can click, a fix below it, and a summary."""

from __future__ import annotations

from pathlib import Path

from generator.content.yaml_source import Position
from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog, relative_name


def test_format_with_path_and_hint() -> None:
    d = Diagnostic("content/a.yaml", 3, 8, "error", "layer", "unknown layer 7", "use one of 1, 2")
    assert d.format() == "content/a.yaml:3:8: error: `layer` unknown layer 7\n    fix: use one of 1, 2"


def test_format_without_path_or_hint() -> None:
    assert Diagnostic("content/a.yaml", 1, 1, "error", "", "the file is empty").format() == \
        "content/a.yaml:1:1: error: the file is empty"


def test_error_and_warning_constructors_take_a_position_or_the_whole_file() -> None:
    at = Position(3, 8)
    assert Diagnostic.error("content/a.yaml", at, "layer", "unknown layer 7", "use one of 1, 2") == \
        Diagnostic("content/a.yaml", 3, 8, "error", "layer", "unknown layer 7", "use one of 1, 2")
    assert Diagnostic.warning("content/a.yaml", None, "", "old") == Diagnostic("content/a.yaml", 1, 1, "warning", "", "old")


def test_report_is_sorted_by_file_and_position_and_counts_both_severities() -> None:
    log = DiagnosticLog()
    log.add(Diagnostic("content/b.yaml", 2, 1, "error", "", "second"))
    log.extend([Diagnostic("content/a.yaml", 10, 1, "warning", "", "third", "w"),
                Diagnostic("content/a.yaml", 9, 5, "error", "", "first", "e")])
    assert log.report().splitlines() == [
        "content/a.yaml:9:5: error: first", "    fix: e",
        "content/a.yaml:10:1: warning: third", "    fix: w",
        "content/b.yaml:2:1: error: second",
        "2 error(s), 1 warning(s)",
    ]
    assert [d.message for d in log.errors] == ["first", "second"]
    assert [d.message for d in log.warnings] == ["third"]


def test_content_error_carries_the_log_and_its_report() -> None:
    log = DiagnosticLog([Diagnostic("content/a.yaml", 1, 1, "error", "", "bad", "fix it")])
    error = ContentError(log)
    assert error.log is log
    assert str(error) == "content/a.yaml:1:1: error: bad\n    fix: fix it\n1 error(s), 0 warning(s)"


def test_relative_name(tmp_path: Path) -> None:
    assert relative_name(tmp_path / "content" / "map.yaml", tmp_path) == "content/map.yaml"
    outside = Path("/elsewhere/map.yaml")
    assert relative_name(outside, tmp_path) == "/elsewhere/map.yaml"
