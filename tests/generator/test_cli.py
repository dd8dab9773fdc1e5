"""The `layermap` command reports content problems as text on stderr, never as a traceback."""

from __future__ import annotations

import shutil
import threading
from datetime import date

import pytest
from mini_project import MiniProject

from generator.cli import main
from generator.errors import LayermapError
from tests.conftest import ROOT


class _FixtureDay(date):
    """A day when the fixture's examples (as of 2026-10-30) are fresh, whenever the test runs."""

    @classmethod
    def today(cls) -> date:
        return date(2026, 12, 2)


def test_check_of_the_mini_project_succeeds(mini: MiniProject, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("generator.checks.lints.date", _FixtureDay)
    assert main(["--project", str(mini.root), "check"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok: 3 topics, 1 edges, 0 warning(s)")
    assert err == ""


def test_check_of_a_broken_project_prints_the_report(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    mini.write("layer-2/boards.yaml", "id: boards\ntitle: Boards\nlayer: 7\nsumary: x\ndepths:\n  D1:\n    body: b\n")
    mini.write("layer-2/chips.yaml", "id: chips\ntitle: [\n")
    assert main(["--project", str(mini.root), "check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "content/layer-2/boards.yaml:4:1: error: `sumary` unknown key `sumary`" in err
    assert "content/layer-2/chips.yaml:3:1: error: YAML syntax: the file ends in the middle of a value" in err
    assert "2 error(s), 0 warning(s)" in err
    assert "Traceback" not in err


def test_check_prints_warnings_to_stderr_and_still_succeeds(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    mini.add_source("lee2021")
    assert main(["--project", str(mini.root), "check"]) == 0
    out, err = capsys.readouterr()
    assert "1 warning(s)" in out
    assert "content/sources.yaml:9:3: warning: `sources.lee2021` source `lee2021` is cited by no topic" in err


def test_check_without_content_folder_is_a_message(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    assert main(["--project", str(tmp_path), "check"]) == 1
    _, err = capsys.readouterr()
    assert "content/map.yaml:1:1: error: the map file is missing" in err
    assert "Traceback" not in err


def test_new_refuses_a_bad_id(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini.root), "new", "Bad Id", "--layer", "1"]) == 1
    _, err = capsys.readouterr()
    assert "error: `Bad Id` is not a valid topic id" in err
    assert not list(mini.content.rglob("*Bad*"))


@pytest.mark.parametrize(("ending", "status"), [(None, 0), (LayermapError("the engine failed"), 1)],
                         ids=["normally (Ctrl+C)", "by an error"])
def test_serve_watches_content_while_serving_and_stops_after(mini: MiniProject, monkeypatch: pytest.MonkeyPatch,
                                                             ending: Exception | None, status: int) -> None:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    monkeypatch.setenv("LAYERMAP_SITE_URL", "")  # serve sets its own; put back afterwards
    watching: list[bool] = []

    def serve_forever(server: object) -> None:
        watching.append(any(thread.name == "layermap-watch" for thread in threading.enumerate()))
        if ending:
            raise ending

    monkeypatch.setattr("generator.incremental.serve_forever", serve_forever)
    assert main(["--project", str(mini.root), "serve", "--address", "127.0.0.1:8765"]) == status
    assert watching == [True]
    assert not any(thread.name == "layermap-watch" for thread in threading.enumerate())


# --- the site address (issue 33, F13) ----------------------------------------------------------


def _site_with_a_page(mini: MiniProject) -> dict[str, bytes]:
    shutil.copy(ROOT / "mkdocs.yml", mini.root / "mkdocs.yml")
    (mini.root / "site").mkdir()
    (mini.root / "site" / "index.html").write_text("the previous site\n", encoding="utf-8")
    return {path.name: path.read_bytes() for path in (mini.root / "site").iterdir()}


def test_a_site_url_with_markup_is_refused_before_the_site_is_written(
        mini: MiniProject, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = _site_with_a_page(mini)
    monkeypatch.setenv("LAYERMAP_SITE_URL", 'https://example.org/"><script>alert(1)</script>')
    assert main(["--project", str(mini.root), "build"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: LAYERMAP_SITE_URL is not a usable site address: it holds a quote (`\"`)")
    assert "fix: set it to the address the site is published at" in err and "Traceback" not in err
    assert {path.name: path.read_bytes() for path in (mini.root / "site").iterdir()} == before


def test_a_site_url_in_mkdocs_yml_is_checked_too(mini: MiniProject, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    before = _site_with_a_page(mini)
    config = mini.root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace('site_url: !ENV [LAYERMAP_SITE_URL, ""]',
                                                                 "site_url: https://admin:pw@example.org/"), encoding="utf-8")
    monkeypatch.delenv("LAYERMAP_SITE_URL", raising=False)
    assert main(["--project", str(mini.root), "build"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: `site_url` in mkdocs.yml is not a usable site address: it holds a user name or password")
    assert {path.name: path.read_bytes() for path in (mini.root / "site").iterdir()} == before


@pytest.mark.parametrize("address", ["8000", '"><script>:8000', "127.0.0.1:http", "127.0.0.1\n:80"])
def test_serve_refuses_an_address_that_is_no_host_and_port(mini: MiniProject, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch, address: str) -> None:
    monkeypatch.setenv("LAYERMAP_SITE_URL", "")  # serve sets its own; put back afterwards
    assert main(["--project", str(mini.root), "serve", "--address", address]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --address ") and "is not a host and a port\n    fix: write it as host:port" in err
    assert "\n:80" not in err


@pytest.mark.parametrize("command", [["build"], ["serve", "--address", "127.0.0.1:8799"]])
def test_build_and_serve_without_mkdocs_yml_say_so_and_write_nothing(mini: MiniProject, command: list[str],
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert not (mini.root / "mkdocs.yml").exists()
    assert main(["--project", str(mini.root), *command]) == 1
    said = capsys.readouterr().err
    assert "there is no mkdocs.yml beside content/" in said and "copy mkdocs.yml" in said
    assert "internal error" not in said
    assert not (mini.root / "site").exists()
