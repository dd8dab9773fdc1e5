"""What `layermap serve` tells the open page: the last regeneration's status as JSON, and the
serve-only script and styles that only a served docs tree carries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from mini_project import MiniProject

from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog
from generator.emit.serve_status import (
    SERVE_SCRIPT,
    SERVE_STYLES,
    STATUS_FILE,
    failed_status,
    ok_status,
    problems_of,
    serve_assets,
    write_failure,
)
from generator.errors import LayermapError
from generator.pipeline import generate
from generator.project import Project
from tests.conftest import ROOT


class Here:
    line, column = 12, 5


def content_error() -> ContentError:
    return ContentError(DiagnosticLog([
        Diagnostic.warning("content/y.yaml", None, "title", "is long", "shorten it"),
        Diagnostic.error("content/x.yaml", Here(), "depths.D2.body", "is empty", "write the body"),
    ]))


def test_ok_is_plain_json() -> None:
    assert json.loads(ok_status()) == {"ok": True}


def test_every_content_error_has_its_place_field_message_and_fix() -> None:
    assert json.loads(failed_status(content_error())) == {"ok": False, "problems": [
        {"where": "content/x.yaml:12:5", "severity": "error", "field": "depths.D2.body",
         "message": "is empty", "fix": "write the body"}]}  # the warning did not stop the update


def test_a_layermap_error_keeps_its_hint() -> None:
    [problem] = problems_of(LayermapError("mkdocs.yml:3: `nav` is set by layermap", "remove `nav`"))
    assert problem["message"] == "mkdocs.yml:3: `nav` is set by layermap"
    assert problem["fix"] == "remove `nav`"


def test_an_unexpected_error_is_a_bug_report_not_a_traceback() -> None:
    [problem] = problems_of(KeyError("depth"))
    assert problem["message"] == "internal error: KeyError: 'depth'"
    assert "bug in layermap" in problem["fix"]


def test_a_failure_writes_the_status_and_touches_nothing_else(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    page = docs / "topics" / "chips.md"
    page.parent.mkdir(parents=True)
    page.write_text("old page\n", encoding="utf-8")
    path = write_failure(docs, content_error())
    assert path == docs / STATUS_FILE
    assert json.loads(path.read_text(encoding="utf-8"))["problems"][0]["where"] == "content/x.yaml:12:5"
    assert sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()) == [
        STATUS_FILE, "topics/chips.md"]
    assert page.read_text(encoding="utf-8") == "old page\n"


def test_the_serve_assets_exist() -> None:
    assert all(source.is_file() for source in serve_assets().values())
    assert {SERVE_SCRIPT, SERVE_STYLES} <= set(serve_assets())


def scripts_of(config: Path) -> list[str]:
    text = config.read_text(encoding="utf-8").split("do not edit ---\n", 1)[1]
    return [entry["path"] for entry in yaml.safe_load(text)["extra_javascript"]]


@pytest.fixture
def project(mini: MiniProject) -> Project:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    return Project(mini.root)


def test_a_served_tree_carries_the_script_its_styles_and_an_ok_status(project: Project, tmp_path: Path) -> None:
    config, _ = generate(project, tmp_path / "served", serving=True)
    docs = config.parent / "docs"
    assert SERVE_SCRIPT in scripts_of(config)
    assert all((docs / rel).is_file() for rel in serve_assets())
    assert json.loads((docs / STATUS_FILE).read_text(encoding="utf-8")) == {"ok": True}
    assert f"/* {SERVE_STYLES} */" in (docs / "assets/layermap/site.css").read_text(encoding="utf-8")


def test_a_built_tree_carries_none_of_it(project: Project, tmp_path: Path) -> None:
    config, _ = generate(project, tmp_path / "built")
    docs = config.parent / "docs"
    assert SERVE_SCRIPT not in scripts_of(config)
    assert not list(docs.rglob("serve-*"))
    assert "lm-serve" not in (docs / "assets/layermap/site.css").read_text(encoding="utf-8")


def test_a_good_regeneration_after_a_failure_writes_ok_again(project: Project, tmp_path: Path) -> None:
    config, _ = generate(project, tmp_path / "served", serving=True)
    write_failure(config.parent / "docs", content_error())
    generate(project, tmp_path / "served", serving=True)
    assert json.loads((config.parent / "docs" / STATUS_FILE).read_text(encoding="utf-8")) == {"ok": True}
