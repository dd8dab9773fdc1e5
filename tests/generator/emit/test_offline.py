"""The build step that writes the service worker: its two manifests and its errors."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from generator.emit import offline
from generator.errors import LayermapError

REVISION = re.compile(r"^[0-9a-f]{32}$")


def worker_manifests(site: Path) -> tuple[list[dict], list[dict]]:
    """The precache and runtime manifests written into site/sw.js."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    precache = re.search(r"const PRECACHE = (\[.*?\]);\n", text).group(1)
    runtime = re.search(r"const RUNTIME = (\[.*?\]);\n", text).group(1)
    return json.loads(precache), json.loads(runtime)


def small_site(root: Path) -> Path:
    """A built-site-like folder: two pages, an asset, a sitemap and a (tiny) Pyodide runtime."""
    files = {"index.html": "<h1>Home</h1>", "layer-1/index.html": "<h1>Layer</h1>",
             "assets/layermap/offline.js": "// js", "sitemap.xml": "<urlset/>",
             "assets/pyodide/pyodide.mjs": "// runtime", "assets/pyodide/pyodide.asm.wasm": "\0asm"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_pages_and_assets_are_precached_with_revisions_and_the_runtime_listed_apart(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    counts = offline.write_service_worker(site)
    precache, runtime = worker_manifests(site)
    assert sorted(e["url"] for e in precache) == ["assets/layermap/offline.js", "index.html", "layer-1/index.html"]
    assert sorted(e["url"] for e in runtime) == ["assets/pyodide/pyodide.asm.wasm", "assets/pyodide/pyodide.mjs"]
    assert all(REVISION.match(e["revision"]) for e in precache + runtime)
    assert counts["precached"] == 3 and counts["runtime"] == 2
    assert sorted(p.name for p in (site / "assets" / "workbox").iterdir()) == [
        "workbox-core.prod.js", "workbox-precaching.prod.js", "workbox-routing.prod.js", "workbox-strategies.prod.js"]


def test_a_changed_page_gets_a_new_revision_and_the_others_keep_theirs(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    offline.write_service_worker(site)
    before = {e["url"]: e["revision"] for e in worker_manifests(site)[0]}
    (site / "layer-1" / "index.html").write_text("<h1>Layer, changed</h1>", encoding="utf-8")
    offline.write_service_worker(site)
    after = {e["url"]: e["revision"] for e in worker_manifests(site)[0]}
    assert after["layer-1/index.html"] != before["layer-1/index.html"]
    assert after["index.html"] == before["index.html"]
    assert "sw.js" not in after and not any(url.startswith("assets/workbox/") for url in after)


def test_a_site_without_calculators_has_an_empty_runtime_manifest(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    shutil.rmtree(site / "assets" / "pyodide")
    offline.write_service_worker(site)
    precache, runtime = worker_manifests(site)
    assert runtime == [] and len(precache) == 3


def test_without_node_the_error_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(LayermapError) as raised:
        offline.write_service_worker(small_site(tmp_path))
    assert "Node.js (`node`) is not on the PATH" in str(raised.value)
    assert "npm ci" in raised.value.hint and not (tmp_path / "sw.js").exists()


def test_without_workbox_build_the_error_says_to_run_npm_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lone_script = tmp_path / "scripts" / offline.BUILD_SCRIPT.name  # no node_modules above it
    lone_script.parent.mkdir()
    shutil.copy(offline.BUILD_SCRIPT, lone_script)
    monkeypatch.setattr(offline, "BUILD_SCRIPT", lone_script)
    with pytest.raises(LayermapError) as raised:
        offline.write_service_worker(small_site(tmp_path / "site"))
    assert "workbox-build is not installed" in str(raised.value) and "npm ci" in raised.value.hint


def test_the_search_index_is_precached_so_that_search_works_offline_after_one_visit(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    (site / "search").mkdir()
    (site / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    counts = offline.write_service_worker(site)
    assert "search/search_index.json" in {e["url"] for e in worker_manifests(site)[0]}
    assert counts["search"] == 1 and counts["precached"] == 4


LUNR = "assets/javascripts/lunr"
LANGUAGE_FILES = ["tinyseg.js", "wordcut.js", "min/lunr.stemmer.support.min.js", "min/lunr.multi.min.js",
                  "min/lunr.de.min.js", "min/lunr.fr.min.js", "min/lunr.ja.min.js", "min/lunr.th.min.js"]


def site_with_search_languages(root: Path, languages: list[str] | None) -> Path:
    site = small_site(root)
    for name in LANGUAGE_FILES:
        (site / LUNR / name).parent.mkdir(parents=True, exist_ok=True)
        (site / LUNR / name).write_text("// lunr", encoding="utf-8")
    if languages is not None:
        (site / "search").mkdir()
        index = {"config": {"lang": languages, "separator": "[\\s\\-]+"}, "docs": []}
        (site / "search" / "search_index.json").write_text(json.dumps(index), encoding="utf-8")
    return site


@pytest.mark.parametrize(("languages", "kept"), [
    (["en"], []),  # an English site needs none of them (issue 34, 10: 26 % of every install)
    (["de"], ["min/lunr.de.min.js", "min/lunr.stemmer.support.min.js"]),
    (["en", "ja"], ["min/lunr.ja.min.js", "min/lunr.multi.min.js", "min/lunr.stemmer.support.min.js", "tinyseg.js"]),
    (["th"], ["min/lunr.stemmer.support.min.js", "min/lunr.th.min.js", "wordcut.js"]),
    (None, []),  # no search at all
])
def test_only_the_search_language_files_the_index_asks_for_are_precached(tmp_path: Path, languages: list[str] | None, kept: list[str]) -> None:
    # As Material's search worker loads them: for its index's config.lang (the theme's language by default).
    site = site_with_search_languages(tmp_path, languages)
    offline.write_service_worker(site)
    precached = sorted(e["url"][len(LUNR) + 1:] for e in worker_manifests(site)[0] if e["url"].startswith(LUNR + "/"))
    assert precached == sorted(kept)


def test_files_no_page_links_can_be_left_out_of_the_precache(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    (site / "assets" / "layermap-0123abcd").mkdir(parents=True)
    (site / "assets" / "layermap-0123abcd" / "offline.js").write_text("// js", encoding="utf-8")
    offline.write_service_worker(site, ("assets/layermap/*.js", "assets/layermap/*.css"))
    urls = {e["url"] for e in worker_manifests(site)[0]}
    assert "assets/layermap-0123abcd/offline.js" in urls and "assets/layermap/offline.js" not in urls


def test_every_entry_says_its_size_for_what_the_page_says_is_held(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    offline.write_service_worker(site)
    precache, runtime = worker_manifests(site)
    for entry in precache + runtime:
        assert entry["bytes"] == (site / entry["url"]).stat().st_size, entry["url"]


def test_every_entry_of_every_manifest_carries_the_sha256_digest_of_its_file(tmp_path: Path) -> None:
    # The worker serves a cached copy only if its bytes have this digest (issue 33, F9).
    site = small_site(tmp_path)
    (site / "search").mkdir()
    (site / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    offline.write_service_worker(site)
    precache, runtime = worker_manifests(site)
    entries = precache + runtime
    assert len(entries) == 6
    for entry in entries:
        digest = base64.b64encode(hashlib.sha256((site / entry["url"]).read_bytes()).digest()).decode()
        assert entry["integrity"] == f"sha256-{digest}", entry["url"]
