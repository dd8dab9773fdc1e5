"""The broken-input corpus: each folder of tests/corpus/broken/ is one case.

A case folder holds the files that differ from tests/fixtures/mini/content (same
relative paths, overlaid onto a copy), an optional ``remove.txt`` naming fixture
files to delete, and ``expected.txt``: report lines that must appear, each
diagnostic line optionally followed by its indented ``fix:`` line, ending with
the ``N error(s), M warning(s)`` line, so no unexpected diagnostic slips in.  A
case whose expected lines hold no error must load, carrying those warnings.
Each case is loaded as `layermap check` loads it (``load_map``: the schema, the cross-file
checks, then every calculator value judged, every exercise played and every number in prose
computed), so a mistake `check` would miss and `build` would meet cannot pass here.
A new case needs a new folder, no new code.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mini_project import MiniProject, copy_mini

from generator.diagnostics import ContentError, DiagnosticLog
from generator.pipeline import load_map
from generator.project import Project

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "broken"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
CONTROL = {"expected.txt", "remove.txt"}


def build_case(case: Path, root: Path) -> MiniProject:
    project = copy_mini(root)
    for line in (case / "remove.txt").read_text().splitlines() if (case / "remove.txt").exists() else []:
        if line.strip():
            (project.content / line.strip()).unlink()
    for source in sorted(case.rglob("*")):
        rel = source.relative_to(case)
        if source.is_file() and rel.as_posix() not in CONTROL:
            target = project.content / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return project


def expected_entries(case: Path) -> list[list[str]]:
    """Groups of consecutive report lines: a diagnostic with its `fix:` line, or the summary."""
    entries: list[list[str]] = []
    for line in (case / "expected.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        if line.startswith(" ") and entries:
            entries[-1].append(line)
        else:
            entries.append([line])
    return entries


def contains_run(lines: list[str], run: list[str]) -> bool:
    return any(lines[i : i + len(run)] == run for i in range(len(lines) - len(run) + 1))


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_broken_case(name: str, tmp_path: Path) -> None:
    case = CORPUS / name
    entries = expected_entries(case)
    assert entries and entries[-1][0].endswith("warning(s)"), "expected.txt must end with the summary line"
    wants_error = any(": error: " in entry[0] for entry in entries)
    project = build_case(case, tmp_path)
    if wants_error:
        with pytest.raises(ContentError) as caught:
            load_map(Project(project.root))
        log = caught.value.log
    else:
        content, _ = load_map(Project(project.root))
        log = DiagnosticLog(list(content.warnings))
    report = log.report()
    lines = report.splitlines()
    missing = ["\n".join(entry) for entry in entries if not contains_run(lines, entry)]
    assert not missing, "missing from the report:\n" + "\n".join(missing) + "\n\nreport:\n" + report
    assert "Traceback" not in report
    for diagnostic in log.items:
        assert diagnostic.hint, f"every diagnostic says how to fix it: {diagnostic.format()}"
