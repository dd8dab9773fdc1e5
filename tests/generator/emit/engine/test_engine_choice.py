"""MkDocs 1.6 and ProperDocs, its maintained fork, build the same site (issue 32 item 1)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.emit.engine.choice import chosen, engine_packages
from generator.errors import LayermapError
from tests.conftest import ROOT

MINI = ROOT / "tests" / "fixtures" / "mini" / "content"
GENERATOR_TAG = re.compile(rb'<meta name="generator" content="[^"]*">')
PRECACHE = re.compile(rb"const PRECACHE = (\[.*?\]);")


def test_an_unknown_engine_is_refused_with_the_ones_there_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYERMAP_ENGINE", "zensical")
    with pytest.raises(LayermapError) as refused:
        chosen()
    assert "LAYERMAP_ENGINE='zensical'" in str(refused.value) and "mkdocs, properdocs" in str(refused.value)


def test_the_cache_keys_name_the_engine_that_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAYERMAP_ENGINE", raising=False)
    assert engine_packages()[0] == "mkdocs"
    monkeypatch.setenv("LAYERMAP_ENGINE", "ProperDocs")
    assert engine_packages()[0] == "properdocs"
    # the page cache's keys run beside the hooks, without layermap: they read what is loaded
    probe = ("import generator.emit.engine, mkdocs.plugins; from generator.emit.page_keys import package_versions; "
             "print(package_versions()[0], mkdocs.plugins.__name__)")
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                            env={**os.environ, "LAYERMAP_ENGINE": "properdocs"}).stdout.split()
    assert answer[0].startswith("properdocs==") and answer[1] == "properdocs.plugins"


def build_with(engine: str, root: Path) -> Path:
    shutil.copytree(MINI, root / "content")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    environment = {**os.environ, "LAYERMAP_ENGINE": engine, "LAYERMAP_SITE_URL": "https://example.org/map/"}
    done = subprocess.run([sys.executable, "-m", "generator.cli", "--project", str(root), "build"], cwd=ROOT,
                          capture_output=True, text=True, env=environment)
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "site"


def normalised(name: str, data: bytes) -> bytes:
    """What may differ between engines taken out: the generator tag, and the worker's hashes of
    the pages that carry it (the list of files it precaches must stay the same)."""
    data = GENERATOR_TAG.sub(b'<meta name="generator">', data)
    if found := PRECACHE.search(data):
        urls = sorted(entry["url"] for entry in json.loads(found.group(1)))
        data = data.replace(found.group(1), json.dumps(urls).encode())
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as copy:
            data = b"\0".join(member.encode() + b"\0" + normalised(member, copy.read(member)) for member in sorted(copy.namelist()))
    return data


def files_of(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def test_mkdocs_and_properdocs_build_the_same_site_but_for_the_generator_tag(tmp_path: Path) -> None:
    by_mkdocs = files_of(build_with("mkdocs", tmp_path / "mkdocs"))
    by_properdocs = files_of(build_with("properdocs", tmp_path / "properdocs"))
    assert by_mkdocs.keys() == by_properdocs.keys()
    home = by_properdocs["index.html"].decode()
    assert 'content="mkdocs-ProperDocs 1.6.7' in home and "mkdocs-1.6.1" in by_mkdocs["index.html"].decode()
    differing = [name for name in by_mkdocs if normalised(name, by_mkdocs[name]) != normalised(name, by_properdocs[name])]
    assert differing == []
    assert sum(by_mkdocs[name] != by_properdocs[name] for name in by_mkdocs) > 5  # the tag is on every page
