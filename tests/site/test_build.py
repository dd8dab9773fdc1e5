"""Building a small project end to end: the CLI, the swap on failure, offline output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import ROOT
from tests.site.html_scan import is_external, local_target, read_page

MINI = ROOT / "tests" / "fixtures" / "mini"


@pytest.fixture
def mini_project(tmp_path: Path) -> Path:
    shutil.copytree(MINI / "content", tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path


def test_build_writes_home_layer_and_topic_pages(mini_project: Path) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    site = mini_project / "site"
    for page in ("index.html", "layer-1/index.html", "layer-2/index.html",
                 "layer-1/power/index.html", "layer-2/chips/index.html", "layer-2/boards/index.html"):
        assert (site / page).is_file(), page


def test_failed_build_keeps_previous_site_and_names_file_and_line(mini_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    home = mini_project / "site" / "index.html"
    before = home.read_bytes()
    topic = mini_project / "content" / "layer-2" / "chips.yaml"
    topic.write_text(topic.read_text().replace("summary:", "sumary:"))
    assert main(["--project", str(mini_project), "build"]) == 1
    err = capsys.readouterr().err
    assert "content/layer-2/chips.yaml:4:1: error: `sumary` unknown key `sumary`" in err
    assert "did you mean `summary`?" in err
    assert "Traceback" not in err
    assert home.read_bytes() == before
    assert not any(p.name.startswith(".site") for p in mini_project.iterdir())


def test_engine_failure_keeps_previous_site(mini_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    before = (mini_project / "site" / "index.html").read_bytes()
    config = mini_project / "mkdocs.yml"
    config.write_text(config.read_text().replace("name: material", "name: no-such-theme"))
    assert main(["--project", str(mini_project), "build"]) == 1
    err = capsys.readouterr().err
    assert "no-such-theme" in err and "Traceback" not in err
    assert (mini_project / "site" / "index.html").read_bytes() == before


def test_built_pages_load_nothing_from_other_hosts(mini_project: Path) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    site = mini_project / "site"
    offenders = [
        f"{page.relative_to(site)}: {url}"
        for page in site.rglob("*.html")
        for url in read_page(page).loaded_urls()
        if is_external(url)
    ]
    assert offenders == []
    css = [p for p in site.rglob("*.css") if "fonts.googleapis" in p.read_text(errors="ignore")]
    assert css == []


def test_every_internal_link_resolves(mini_project: Path) -> None:
    assert main(["--project", str(mini_project), "build"]) == 0
    site = mini_project / "site"
    broken = []
    for page in site.rglob("*.html"):
        for element in read_page(page).elements:
            href = element.attrs.get("href") if element.tag == "a" else None
            target = local_target(site, page, href.split("#")[0]) if href and not href.startswith("#") else None
            if target is not None and not target.exists():
                broken.append(f"{page.relative_to(site)} → {href}")
    assert broken == []


def test_generated_tree_is_engine_readable_without_layermap(mini_project: Path) -> None:
    """The docs tree + config alone build with plain `mkdocs build` (no layermap plugin; the
    hooks, the HTML sanitiser and the page cache, are copies inside the tree that import only nh3,
    MkDocs and the stdlib; the depth's head script is layermap's finishing step now)."""
    import subprocess
    import sys

    assert main(["--project", str(mini_project), "check"]) == 0
    from generator.pipeline import generate
    from generator.project import Project

    config, _ = generate(Project(mini_project))
    text = config.read_text()
    assert "layermap" not in text.split("plugins:")[1].split("\n\n")[0]
    assert text.split("hooks:")[1].split() == ["-", "hooks/layermap_sanitise.py",
                                               "-", "hooks/layermap_page_cache.py", "-", "hooks/layermap_search_sections.py",
                                               "-", "hooks/layermap_search_terms.py", "-", "hooks/layermap_not_found.py"]
    assert not (config.parent / "hooks" / "layermap_depth_first_paint.py").exists()
    for name in ("layermap_sanitise.py", "layermap_page_cache.py", "layermap_page_keys.py",
                 "layermap_page_store.py", "layermap_search_sections.py", "layermap_search_terms.py", "layermap_not_found.py"):
        hook = (config.parent / "hooks" / name).read_text()
        assert "generator" not in {line.split()[1].split(".")[0] for line in hook.splitlines() if line.startswith(("import ", "from "))}
    out = mini_project / "plain-site"
    # With layermap's own package out of reach: the generated tree builds with the engine alone.
    without_layermap = "import sys; sys.modules['generator'] = None; from mkdocs.__main__ import cli; cli()"
    result = subprocess.run([sys.executable, "-c", without_layermap, "build", "-q", "-f", str(config), "-d", str(out)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert (out / "layer-1" / "power" / "index.html").is_file()
    plain = (out / "layer-1" / "power" / "index.html").read_text()
    assert "<!--layermap-sanitised:" in plain  # the sanitiser hook ran and marked what it wrote
    assert "data-lm-depth" not in plain  # the head script is layermap's own step, after the engine


def test_new_scaffolds_a_valid_topic_and_never_overwrites(mini_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(mini_project), "new", "wires", "--layer", "1", "--title", "Wires"]) == 0
    created = mini_project / "content" / "layer-1" / "wires.yaml"
    assert created.is_file()
    assert main(["--project", str(mini_project), "check"]) == 0
    out = capsys.readouterr()
    assert "source `example2024` is never cited" not in out.err  # the template cites its example source
    assert main(["--project", str(mini_project), "new", "wires", "--layer", "1"]) == 1
    assert "already exists" in capsys.readouterr().err
