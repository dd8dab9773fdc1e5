"""`layermap build` and offline reading: the service worker in the built site, and the site URL."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import ROOT
from tests.generator.emit.test_offline import REVISION, worker_manifests

MINI = ROOT / "tests" / "fixtures" / "mini"
PUBLIC_URL = "https://user.github.io/layermap/"


@pytest.fixture
def mini_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(MINI / "content", tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    monkeypatch.delenv("LAYERMAP_SITE_URL", raising=False)
    return tmp_path


def test_the_built_site_precaches_every_page_and_its_assets(mini_project: Path) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    site = mini_project / "site"
    precache, runtime = worker_manifests(site)
    urls = {entry["url"] for entry in precache}
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert pages <= urls
    [versioned] = [p.name for p in (site / "assets").glob("layermap-*")]
    assert {f"assets/{versioned}/offline.js", f"assets/{versioned}/site.css"} <= urls
    assert not any(url.startswith("assets/layermap/") and url.endswith((".js", ".css")) for url in urls)  # no page links them
    assert "search/search_index.json" in urls  # search works offline after one visit
    assert not any(url.startswith("assets/javascripts/lunr/") for url in urls)  # an English site: no language files
    assert all(REVISION.match(entry["revision"]) for entry in precache)
    assert runtime == []  # the mini project has no calculator
    assert f'src="../assets/{versioned}/offline.js"' in (site / "layer-1" / "index.html").read_text(encoding="utf-8")


def test_without_a_site_url_build_warns_and_writes_no_canonical_link_and_an_empty_sitemap(mini_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    err = capsys.readouterr().err
    assert "warning: no site URL is set" in err and "LAYERMAP_SITE_URL=https://USER.github.io/REPO/" in err
    site = mini_project / "site"
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")  # the theme asks for it: no 404, no address
    assert "<urlset" in sitemap and "<loc>" not in sitemap and not (site / "sitemap.xml.gz").exists()
    pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    assert pages and not any('rel="canonical"' in page or "127.0.0.1" in page for page in pages)


def test_require_site_url_refuses_and_keeps_the_previous_site(mini_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    before = (mini_project / "site" / "index.html").read_bytes()
    (mini_project / "content" / "map.yaml").touch()
    assert main(["--project", str(mini_project), "build", "--require-site-url"]) == 1
    err = capsys.readouterr().err
    assert "error: --require-site-url: no site URL is set" in err and "Traceback" not in err
    assert (mini_project / "site" / "index.html").read_bytes() == before


def test_with_a_public_site_url_pages_are_canonical_and_listed_in_the_sitemap(mini_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYERMAP_SITE_URL", PUBLIC_URL)
    assert main(["--project", str(mini_project), "build", "--require-site-url"]) == 0
    assert "warning: " not in capsys.readouterr().err
    site = mini_project / "site"
    assert f"<loc>{PUBLIC_URL}layer-1/</loc>" in (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{PUBLIC_URL}layer-1/">' in (site / "layer-1" / "index.html").read_text(encoding="utf-8")


def test_a_local_site_url_is_warned_about(mini_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYERMAP_SITE_URL", "http://127.0.0.1:8000/")
    assert main(["--project", str(mini_project), "build"]) == 0
    assert "warning: the site URL http://127.0.0.1:8000/ is a local address" in capsys.readouterr().err


def test_without_node_build_fails_clearly_and_keeps_the_previous_site(mini_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    before = (mini_project / "site" / "index.html").read_bytes()
    monkeypatch.setenv("PATH", str(mini_project / "no-programs-here"))
    assert main(["--project", str(mini_project), "build", "--clean"]) == 1  # unchanged content: else nothing is built
    err = capsys.readouterr().err
    assert "error: Node.js (`node`) is not on the PATH" in err and "npm ci" in err and "Traceback" not in err
    assert (mini_project / "site" / "index.html").read_bytes() == before
    assert not any(p.name.startswith(".site") for p in mini_project.iterdir())
