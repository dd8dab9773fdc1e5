"""Zero console errors on every page of a default build (no site URL), as `layermap build` makes it
on an editor's machine (issue 32): the theme's instant navigation asks for sitemap.xml on every
first page view, and a build without an address must still answer it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page

from generator.cli import main
from tests.conftest import ROOT, free_port, serve_folder
from tests.generator.mini_project import MINI

pytestmark = pytest.mark.browser


@pytest.mark.browser_context_args(service_workers="allow")  # the site's service worker is part of it
def test_every_page_of_a_build_without_a_site_url_logs_no_error(page: Page, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(MINI, tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    monkeypatch.delenv("LAYERMAP_SITE_URL", raising=False)
    assert main(["--project", str(tmp_path), "build"]) == 0
    site = tmp_path / "site"
    port = free_port()
    server = serve_folder(site, port)
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(f"{page.url}: {m.text}"))
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    try:
        paths = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")
                       if "downloads" not in p.parts)
        assert len(paths) >= 6
        for path in paths:
            page.goto(f"http://127.0.0.1:{port}/" + ("" if path == "." else path + "/"))
            page.wait_for_load_state("networkidle")
    finally:
        server.shutdown()
    assert errors == []
