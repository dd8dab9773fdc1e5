"""layermap's scripts, stylesheet and calculator Python under a folder named after their bytes (issue 34, 3)."""

from __future__ import annotations

import fnmatch
import re
import shutil
from pathlib import Path

from generator.emit import revisioned

PAGE = """<head><link rel="stylesheet" href="../../assets/stylesheets/main.57a0d79d.min.css">
<link rel="stylesheet" href="../../assets/layermap/site.css"></head><body>
<figure class="lm-map" data-index="../../assets/layermap/map-index.json"></figure>
<a href="../../assets/layermap/site.css">a link in the text</a>
<script src="../../assets/layermap/depth.js" type="module"></script>
<script src="../../assets/layermap/unknown.js" type="module"></script></body>"""


def assets(root: Path, depth: str = "// depth", python: str = "def compute(): return 1\n") -> Path:
    folder = root / "assets" / "layermap"
    folder.mkdir(parents=True)
    for name, text in {"depth.js": depth, "boot.js": "// boot", "site.css": "a{}", "map.css": "b{}",
                       "map-index.json": "{}"}.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, text in {"calcview/__init__.py": "", "calculators/roofline.py": python}.items():
        (root / "assets" / "py" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "assets" / "py" / name).write_text(text, encoding="utf-8")
    return root


def test_the_pages_links_and_scripts_name_the_versioned_folder_and_nothing_else_changes() -> None:
    page = revisioned.with_versioned_assets(PAGE, "assets/layermap-0123456789ab", frozenset({"site.css", "depth.js"}))
    assert '<link rel="stylesheet" href="../../assets/layermap-0123456789ab/site.css">' in page
    assert '<script src="../../assets/layermap-0123456789ab/depth.js" type="module">' in page
    assert 'data-index="../../assets/layermap/map-index.json"' in page  # data, read by map.js
    assert '<a href="../../assets/layermap/site.css">' in page and "assets/layermap/unknown.js" in page
    home = revisioned.with_versioned_assets('<script src="assets/layermap/depth.js" type="module"></script>',
                                            "assets/layermap-0123456789ab", frozenset({"depth.js"}))
    assert home == '<script src="assets/layermap-0123456789ab/depth.js" type="module"></script>'
    not_found = revisioned.with_versioned_assets('<link rel="stylesheet" href="/REPO/assets/layermap/site.css">',
                                                 "assets/layermap-0123456789ab", frozenset({"site.css"}))
    assert not_found == '<link rel="stylesheet" href="/REPO/assets/layermap-0123456789ab/site.css">'  # the 404 page: from the root


def test_the_folder_is_named_after_every_script_and_the_stylesheet(tmp_path: Path) -> None:
    one = revisioned.version_folder(assets(tmp_path / "one"))
    assert re.fullmatch(r"assets/layermap-[0-9a-f]{12}", one)
    assert revisioned.version_folder(assets(tmp_path / "same")) == one
    assert revisioned.version_folder(assets(tmp_path / "changed", depth="// depth, changed")) != one
    unchanged_parts = assets(tmp_path / "parts")
    (unchanged_parts / "assets/layermap/map.css").write_text("b{color:red}", encoding="utf-8")  # a part, joined into site.css
    (unchanged_parts / "assets/layermap/map-index.json").write_text('{"x": 1}', encoding="utf-8")
    assert revisioned.version_folder(unchanged_parts) == one


def test_the_folder_changes_when_a_calculators_python_changes(tmp_path: Path) -> None:
    one = revisioned.version_folder(assets(tmp_path / "one"))
    changed = revisioned.version_folder(assets(tmp_path / "changed", python="def compute(): return 2\n"))
    assert changed != one  # the page's form and the worker's Python come from the same deployment
    renamed = assets(tmp_path / "renamed")
    (renamed / "assets/py/calculators/roofline.py").rename(renamed / "assets/py/calculators/roofline_v2.py")
    assert revisioned.version_folder(renamed) != one
    added = assets(tmp_path / "added")
    (added / "assets/py/calculators/serving.py").write_text("", encoding="utf-8")
    assert revisioned.version_folder(added) != one


def test_the_python_folder_is_where_the_calculators_python_ships() -> None:
    from calcview.site_files import PYTHON_PREFIX

    assert PYTHON_PREFIX == revisioned.PYTHON_FOLDER + "/"


def test_the_versioned_folder_holds_the_scripts_the_stylesheet_and_the_python(tmp_path: Path) -> None:
    site = assets(tmp_path)
    not_precached = revisioned.write_versioned_folder(site)
    folder = site / revisioned.version_folder(site)
    held = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert held == ["boot.js", "depth.js", "py/calculators/roofline.py", "py/calcview/__init__.py", "site.css"]
    assert (folder / "depth.js").read_bytes() == (site / "assets/layermap/depth.js").read_bytes()
    assert (folder / "py/calculators/roofline.py").read_bytes() == (site / "assets/py/calculators/roofline.py").read_bytes()
    assert not_precached == ("assets/layermap/*.js", "assets/layermap/*.css", "assets/py/**")
    assert folder.parent == site / "assets"  # beside assets/layermap/: ../pyodide/ and ../../sw.js still resolve


def test_a_site_without_calculators_has_no_python_in_the_folder(tmp_path: Path) -> None:
    site = assets(tmp_path)
    shutil.rmtree(site / "assets/py")
    revisioned.write_versioned_folder(site)
    folder = site / revisioned.version_folder(site)
    assert sorted(p.name for p in folder.iterdir()) == ["boot.js", "depth.js", "site.css"]


def test_each_page_gets_the_folder_worked_out_from_the_built_site(tmp_path: Path) -> None:
    site = assets(tmp_path)
    versioner = revisioned.Versioner(site)
    page = versioner('<link rel="stylesheet" href="assets/layermap/site.css">')
    assert page == (f'<link rel="stylesheet" href="{revisioned.version_folder(site)}/site.css">'
                    '<script src="assets/stale-page.js" defer></script>')
    assert revisioned.Versioner(tmp_path / "no-assets")(PAGE) == PAGE


def test_a_page_whose_versioned_stylesheet_is_gone_can_reload_itself() -> None:
    folder = "assets/layermap-0123456789ab"
    for up in ("", "../../", "/REPO/"):  # the home page, a topic page, the 404 page (from the root)
        link = f'<link rel="stylesheet" href="{up}{folder}/site.css">'
        page = revisioned.with_stale_page_check(f"<head>{link}</head>")
        assert page == f'<head>{link}<script src="{up}assets/stale-page.js" defer></script></head>'
        assert revisioned.with_stale_page_check(page) == page  # once
    unversioned = '<head><link rel="stylesheet" href="assets/layermap/site.css"></head>'  # layermap serve
    assert revisioned.with_stale_page_check(unversioned) == unversioned
    other = f'<head><link rel="stylesheet" href="{folder}/calculator.css"></head>'
    assert revisioned.with_stale_page_check(other) == other


def test_the_stale_page_script_is_outside_every_versioned_folder(tmp_path: Path) -> None:
    site = assets(tmp_path)
    not_precached = revisioned.write_versioned_folder(site)
    script = site / revisioned.STALE_PAGE
    assert script.read_bytes() == revisioned.STALE_PAGE_SOURCE.read_bytes()
    assert script.parent == site / "assets"  # a name that every deployment keeps, and the worker precaches
    assert not any(fnmatch.fnmatch(revisioned.STALE_PAGE, pattern) for pattern in not_precached)
