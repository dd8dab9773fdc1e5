"""A file of the wrong shape is one clear error first, not silence or a flood (issue 33, F12).

A topic saved as `.yml` is never read: `check` says so and how to rename it. A sources.yaml that
is a list (or holds a list under `sources:`) names no keys: its one error, at its line, says what
was found and how to write it, and no citation is reported as unknown because of it.
"""

from __future__ import annotations

import pytest
from mini_project import MiniProject

from generator.cli import main

RECORD = "kind: paper\n  title: All about power\n  authors: [\"Smith, Alice\"]\n  date: 2020\n  url: https://example.org/power\n"
A_LIST = f"# The bibliography\n\n- id: smith2020\n  {RECORD}"
A_LIST_UNDER_SOURCES = "# The bibliography\nsources:\n" + "\n".join(f"  {line}" for line in A_LIST.splitlines()[2:]) + "\n"
RECORDS_FIX = "write each record under its key, not as a `- ` item: a line `  smith2020:`"


def test_a_topic_saved_as_yml_fails_check_naming_the_file_and_the_fix(mini: MiniProject,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    mini.write("layer-2/cables.yml", "id: cables\ntitle: Cables\n")
    assert main(["--project", str(mini.root), "check"]) == 1
    err = capsys.readouterr().err
    assert ("content/layer-2/cables.yml:1:1: error: `cables.yml` is not read: content files end in `.yaml`\n"
            "    fix: rename it to `cables.yaml`\n") in err


def test_sources_yaml_as_a_list_is_one_error_at_its_first_item(mini: MiniProject) -> None:
    mini.write("sources.yaml", A_LIST)
    assert mini.report() == (
        "content/sources.yaml:3:1: error: sources.yaml must be a mapping of source keys to records, found a list "
        "(lines starting with `- `)\n"
        f"    fix: start the file with a line `sources:`, then {RECORDS_FIX} (the key that `[@smith2020]` cites; "
        "an item's `id:` becomes it) with `kind:`, `title:`, `authors:`, `date:` and `url:` indented below it\n"
        "1 error(s), 0 warning(s)")


@pytest.mark.parametrize(("records", "where", "found"), [
    (A_LIST_UNDER_SOURCES, "2:1", "a list (lines starting with `- `)"),  # at `sources:`
    ("sources: smith2020\n", "1:10", "a single value"),  # at the value
], ids=["a list", "a single value"])
def test_a_list_under_sources_is_one_error_at_sources(mini: MiniProject, records: str, where: str, found: str) -> None:
    mini.write("sources.yaml", records)
    report = mini.report()
    assert report.startswith(f"content/sources.yaml:{where}: error: `sources` must be a mapping of source keys to "
                             f"records, found {found}\n    fix: {RECORDS_FIX}")
    assert report.endswith("1 error(s), 0 warning(s)")


def test_sources_yaml_that_is_not_yaml_brings_no_unknown_citations(mini: MiniProject) -> None:
    mini.write("sources.yaml", "sources: [\n")
    report = mini.report()
    assert "content/sources.yaml:2:1: error: YAML syntax" in report
    assert report.endswith("1 error(s), 0 warning(s)")


def test_without_sources_yaml_a_citation_is_still_unknown(mini: MiniProject) -> None:
    mini.remove("sources.yaml")
    assert "error: `depths.D1.body` citation of unknown source `[@smith2020]`" in mini.report()


@pytest.mark.parametrize("name", ["map.yaml", "layer-2/boards.yaml"])
def test_a_map_or_topic_file_as_a_list_is_one_error_at_its_first_item(mini: MiniProject, name: str) -> None:
    mini.write(name, "# notes first\n\n- id: boards\n- title: Boards\n")
    report = mini.report()
    assert report.startswith(f"content/{name}:3:1: error: the file is a list (lines starting with `- `), "
                             "but it must be `key: value` lines\n    fix: remove the `- ` in front of the top-level keys")
    assert report.endswith("1 error(s), 0 warning(s)")
