"""The downloadable copy: derived from the built site (page, script and search-index transforms), and the zip."""

from __future__ import annotations

import json
import re
import shutil
import threading
import zipfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from generator.cli import main
from generator.emit import copy_zip, portable, portable_scripts
from generator.emit.csp import page_policy, source_hash
from generator.emit.engine import trusted_scripts
from generator.emit.portable import index_html_url, search_index_for_disk
from generator.errors import LayermapError
from generator.render.paths import OFFLINE_COPY
from tests.conftest import ROOT

MINI = ROOT / "tests" / "fixtures" / "mini"
SHIM = (ROOT / portable.SHIM_PACKAGE).read_text(encoding="utf-8")


# --- links ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "expected"), [
    ("../gpu-clouds/", "../gpu-clouds/index.html"),
    ("../gpu-clouds/#depth-d4", "../gpu-clouds/index.html#depth-d4"),
    ("layer-3/?h=zero", "layer-3/index.html?h=zero"),
    (".", "./index.html"),
    ("..", "../index.html"),
    ("../..", "../../index.html"),
    ("./", "./index.html"),
    ("?q=1", "index.html?q=1"),
])
def test_links_to_folders_name_their_index_html(url: str, expected: str) -> None:
    assert index_html_url(url) == expected


@pytest.mark.parametrize("url", ["", "#map", "../../assets/layermap/map.css", "https://arxiv.org/abs/1/",
                                 "/absolute/", "mailto:a@example.org", "data:,x", "a..b", "../x.html#y"])
def test_other_urls_are_left_alone(url: str) -> None:
    assert index_html_url(url) == url


def test_pages_rewrite_href_and_svg_xlink_href_only() -> None:
    html = ('<a href="../x/">X</a><a href="#top">T</a><svg><a xlink:href="layer-1/">L</a></svg>'
            '<link rel="stylesheet" href="a.css"><img src="img/">')
    assert portable.links_name_index_html(html) == (
        '<a href="../x/index.html">X</a><a href="#top">T</a><svg><a xlink:href="layer-1/index.html">L</a></svg>'
        '<link rel="stylesheet" href="a.css"><img src="img/">')


def test_search_index_locations_name_index_html_including_the_home_page() -> None:
    index = {"docs": [{"location": ""}, {"location": "#map"}, {"location": "layer-3/"},
                      {"location": "layer-3/gpu-clusters/#depth-d4"}]}
    assert [d["location"] for d in search_index_for_disk(index)["docs"]] == [
        "index.html", "index.html#map", "layer-3/index.html", "layer-3/gpu-clusters/index.html#depth-d4"]


# --- calculators and the download link ---------------------------------------------------------

CALC = ('<div class="lm-calc"><form><p class="lm-calc__status" role="status" data-state="static">Showing results '
        'for the values below; the live calculator starts when you change one.</p>'
        '<fieldset class="lm-calc__presets"><legend>Presets</legend></fieldset>'
        '<fieldset class="lm-calc__inputs"><legend>Inputs</legend><input data-field="n" value="8"></fieldset>'
        '<p class="lm-calc__actions"><button>Reset</button></p></form>'
        '<dl><dd data-output="n">8</dd></dl></div>')


def test_calculators_say_their_numbers_are_from_the_build_and_where_they_run_live() -> None:
    out = portable.static_calculators(CALC, "https://example.org/map/layer-3/gpu-clusters/")
    status = re.search(r'<p class="lm-calc__status"[^>]*>(.*?)</p>', out).group(1)
    assert "starts when you change one" not in out
    assert "computed when it was built" in status and "leaves out" in status
    assert '<a href="https://example.org/map/layer-3/gpu-clusters/">' in status
    assert '<fieldset class="lm-calc__inputs" disabled' in out and '<fieldset class="lm-calc__presets" disabled' in out
    assert '<p class="lm-calc__actions" hidden' in out
    assert '<dd data-output="n">8</dd>' in out  # the build-time numbers stay


def test_without_a_site_url_the_note_names_no_address() -> None:
    status = re.search(r'<p class="lm-calc__status"[^>]*>(.*?)</p>', portable.static_calculators(CALC, "")).group(1)
    assert "<a " not in status and "on the site online" in status


def test_online_address_of_a_page() -> None:
    assert portable.online_address("https://u.github.io/r/", "layer-3/x/index.html") == "https://u.github.io/r/layer-3/x/"
    assert portable.online_address("https://u.github.io/r", "index.html") == "https://u.github.io/r/"
    assert portable.online_address("", "index.html") == ""


def test_the_copy_drops_the_link_to_itself() -> None:
    html = '<p>Intro</p><p class="lm-download"><strong>Read</strong> <a href="downloads/x.zip">it</a></p><p>Map</p>'
    assert portable.without_download_link(html) == "<p>Intro</p><p>Map</p>"


# --- scripts ------------------------------------------------------------------------------------


def test_a_module_without_imports_becomes_a_classic_script_in_its_own_scope() -> None:
    out = portable_scripts.classic_script("const STORAGE_KEY = 1;\nfunction setUp() {}\n", "depth.js")
    assert out.startswith('(() => {\n"use strict";\n') and out.rstrip().endswith("})();")
    assert "const STORAGE_KEY = 1;" in out


@pytest.mark.parametrize("source", ['import { a } from "./a.js";\n', "export const a = 1;\n",
                                    'const u = new URL("x", import.meta.url);\n', 'const m = await import("./m.js");\n'])
def test_module_syntax_is_refused_with_the_file_and_line(source: str) -> None:
    with pytest.raises(LayermapError) as caught:
        portable_scripts.classic_script("// first line\n" + source, "assets/layermap/x.js")
    assert "assets/layermap/x.js:2:" in caught.value.message


def test_our_shipped_scripts_that_the_copy_runs_are_classic_compatible() -> None:
    from generator.emit.docs_tree import ASSET_DIR, SCRIPTS

    for entry in portable.copy_scripts(SCRIPTS):
        if entry["path"] != portable.MAP_INDEX_SCRIPT:
            name = Path(entry["path"]).name
            portable_scripts.classic_script((ASSET_DIR / name).read_text(encoding="utf-8"), name, lambda file: (ASSET_DIR / file).read_text(encoding="utf-8"))


def test_imports_of_sibling_modules_are_inlined_each_in_its_own_scope() -> None:
    siblings = {"boot.js": 'import { b } from "./b.js";\nexport function onPage(start) { b(start); }\n',
                "b.js": "const hidden = 1;\nexport const b = (f) => f(hidden);\n"}
    out = portable_scripts.classic_script('import { onPage } from "./boot.js";\nonPage(run);\n', "x.js", siblings.__getitem__)
    assert "import" not in out and "export" not in out
    assert "const { onPage } = (() => {" in out and "return { onPage };" in out
    assert "const { b } = (() => {\nconst hidden = 1;\nconst b = (f) => f(hidden);\nreturn { b };\n})();" in out


def test_a_sibling_module_with_other_module_syntax_is_refused() -> None:
    with pytest.raises(LayermapError) as caught:
        portable_scripts.classic_script('import { a } from "./a.js";\n', "x.js", {"a.js": "export default 1;\n"}.__getitem__)
    assert "x.js:" in caught.value.message


def test_copy_scripts_leave_out_what_needs_a_server_and_add_the_map_index_before_the_map() -> None:
    scripts = ["assets/layermap/depth.js", "assets/layermap/calculator.js", "assets/layermap/exercise.js",
               "assets/layermap/map.js", "assets/layermap/offline.js"]
    assert portable.copy_scripts(scripts) == [
        {"path": "assets/layermap/depth.js", "defer": True},
        {"path": portable.MAP_INDEX_SCRIPT, "defer": True},
        {"path": "assets/layermap/map.js", "defer": True},
    ]


def test_map_index_script_assigns_the_same_data() -> None:
    index = {"topics": [{"id": "a", "title": "A </script>", "summary": "s"}], "layers": []}
    script = portable_scripts.map_index_script(json.dumps(index))
    assert script.startswith("window.layermapMapIndex = ")
    assert json.loads(script.removeprefix("window.layermapMapIndex = ").rstrip().rstrip(";")) == index


# --- the theme on a page read from disk, and which files ----------------------------------------

THEME_CONFIG = ('{"base": "../..", "features": ["navigation.instant", "navigation.instant.progress", "navigation.top", '
                '"search.highlight"], "search": "../../assets/javascripts/workers/search.js", "tags": null}')
PAGE = ('<html><head><meta charset="utf-8"><title>T</title></head><body><p>x</p>'
        f'<script id="__config" type="application/json">{THEME_CONFIG}</script>\n'
        '<script src="../../assets/javascripts/bundle.js"></script>\n'
        '<script src="../../assets/layermap/depth.js" type="module"></script>\n'
        '<script src="../../assets/layermap/calculator.js" type="module"></script>\n'
        '<script src="../../assets/layermap/map.js" type="module"></script>\n'
        '<script src="../../assets/layermap/offline.js" type="module"></script>\n</body></html>')
SITE_SCRIPTS = ["assets/layermap/depth.js", "assets/layermap/calculator.js", "assets/layermap/map.js",
                "assets/layermap/offline.js"]


def test_a_page_read_from_disk_has_no_instant_navigation_and_loads_the_search_shim_in_its_head() -> None:
    out = portable.for_file_protocol(PAGE)
    config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', out).group(1))
    assert config["features"] == ["navigation.top", "search.highlight"]
    assert {k: v for k, v in config.items() if k != "features"} == {k: v for k, v in json.loads(THEME_CONFIG).items() if k != "features"}
    head = out[: out.index("</head>")]
    assert head.endswith(f'<script src="../../{portable.SHIM_PATH}"></script>\n')
    assert out.count("iframe-worker") == 1


def test_on_the_home_page_the_shim_is_named_from_the_site_root() -> None:
    out = portable.for_file_protocol(PAGE.replace('"base": "../.."', '"base": "."'))
    assert f'<script src="{portable.SHIM_PATH}"></script>' in out


def test_a_page_without_the_theme_config_is_left_as_it_is() -> None:
    assert portable.for_file_protocol("<html><head></head><body></body></html>") == "<html><head></head><body></body></html>"


def test_the_theme_config_is_written_back_as_the_theme_writes_it() -> None:
    """Unchanged, it round-trips byte for byte (Jinja's tojson: sorted keys, <, >, & and ' escaped)."""
    written = '{"a": "x \\u003c/script\\u003e \\u0026 \\u0027", "b": [1, null], "c": "\\u00e9"}'
    assert portable.theme_config_json(json.loads(written)) == written


def test_module_scripts_become_classic_deferred_scripts_without_those_that_need_a_server() -> None:
    out = portable.classic_script_tags(PAGE, SITE_SCRIPTS)
    assert 'type="module"' not in out
    assert re.findall(r'<script src="([^"]+)"( defer)?></script>', out) == [
        ("../../assets/javascripts/bundle.js", ""), ("../../assets/layermap/depth.js", " defer"),
        (f"../../{portable.MAP_INDEX_SCRIPT}", " defer"), ("../../assets/layermap/map.js", " defer")]
    assert "\n\n" not in out  # a script left out leaves no blank line


def test_a_module_script_that_is_not_ours_is_left_alone() -> None:
    tag = '<script src="../../assets/layermap/extra.js" type="module"></script>'
    assert portable.classic_script_tags(tag, SITE_SCRIPTS) == tag


@pytest.mark.parametrize(("name", "kept"), [
    ("index.html", True), ("layer-3/gpu-clusters/index.html", True), ("assets/layermap/depth.js", True),
    ("assets/layermap/boot.js", True), (portable.SHIM_PATH, True), ("search/search_index.js", True),
    ("404.html", False), ("search/search_index.json", False), ("assets/javascripts/bundle.js.map", False),
    ("assets/pyodide/pyodide.asm.wasm", False), ("assets/py/calculators/x.py", False),
    ("assets/layermap/calc-worker.js", False), ("assets/layermap/calculator.js", False),
    ("assets/layermap/offline.js", False), ("assets/pyodide-notes.txt", True),
])
def test_which_of_the_sites_files_the_copy_keeps(name: str, kept: bool) -> None:
    assert portable.in_copy(name) is kept


# --- the search frame's inline script and the policy ----------------------------------------------


def test_the_shim_frame_script_is_what_the_shim_writes() -> None:
    url = "../../assets/javascripts/workers/search.a7633da7.min.js"
    script = portable_scripts.shim_frame_script(SHIM, url)
    assert script.startswith("postMessage=function ") and ";importScripts=function " in script
    assert f'filename:"{url}"' in script and "${" not in script


def test_the_policy_allows_the_frame_script_by_hash_and_nothing_inline_otherwise() -> None:
    html = '<html><head><script id="__config" type="application/json">{"search": "w.js"}</script></head></html>'
    frame = portable_scripts.shim_frame_script(SHIM, portable_scripts.search_worker_url(html))
    policy = page_policy(html, trusted_scripts(), "page", (frame,))
    assert source_hash(frame) in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_a_page_without_the_theme_config_has_no_search_worker() -> None:
    assert portable_scripts.search_worker_url("<html><head></head></html>") is None


# --- the built copy (mini project) ----------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The mini project built once: its site folder and its unzipped copy."""
    root = tmp_path_factory.mktemp("portable")
    shutil.copytree(MINI / "content", root / "content")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    assert main(["--project", str(root), "build"]) == 0
    unzipped = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(root / "site" / OFFLINE_COPY) as archive:
        assert {name.split("/")[0] for name in archive.namelist()} == {portable.COPY_FOLDER}
        archive.extractall(unzipped)
    return root / "site", unzipped / portable.COPY_FOLDER


def test_the_site_links_to_the_zip_from_its_home_page(built: tuple[Path, Path]) -> None:
    site, _ = built
    assert f'href="{OFFLINE_COPY}"' in (site / "index.html").read_text(encoding="utf-8")
    assert (site / OFFLINE_COPY).is_file()
    assert OFFLINE_COPY not in (site / "sw.js").read_text(encoding="utf-8")  # never precached


def test_the_zip_holds_pages_search_and_a_read_me_but_no_runtime(built: tuple[Path, Path]) -> None:
    _, copy = built
    for name in ("index.html", "layer-1/power/index.html", portable.READ_ME, "search/search_index.js",
                 portable.SHIM_PATH, portable.MAP_INDEX_SCRIPT):
        assert (copy / name).is_file(), name
    for name in ("sw.js", "404.html", "downloads", "assets/pyodide", "assets/workbox", "assets/layermap/calculator.js",
                 "assets/layermap/offline.js"):
        assert not (copy / name).exists(), name
    assert not list(copy.rglob("*.map"))
    read_me = " ".join((copy / portable.READ_ME).read_text(encoding="utf-8").split())
    assert "open index.html" in read_me and "calculators show the results computed when this copy was built" in read_me


def test_every_page_of_the_copy_is_ready_for_disk(built: tuple[Path, Path]) -> None:
    _, copy = built
    for page in copy.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(copy).as_posix()
        hrefs = re.findall(r'\shref="([^"#][^"]*)"', html)
        assert [h for h in hrefs if index_html_url(h) != h] == [], name  # no link to a folder left
        assert 'type="module"' not in html, name
        assert 'class="lm-download"' not in html, name
        policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
        frame = portable_scripts.shim_frame_script((copy / portable.SHIM_PATH).read_text(encoding="utf-8"),
                                           portable_scripts.search_worker_url(html))
        assert source_hash(frame) in policy and "unsafe" not in policy, name


def test_the_copys_search_index_is_inlined_with_index_html_locations(built: tuple[Path, Path]) -> None:
    _, copy = built
    text = (copy / "search" / "search_index.js").read_text(encoding="utf-8")
    index = json.loads(text.removeprefix("var __index = "))
    locations = [d["location"] for d in index["docs"]]
    assert locations and all(loc.split("#")[0].endswith("index.html") for loc in locations)


def test_every_built_pages_theme_config_round_trips(built: tuple[Path, Path]) -> None:
    """What the copy writes back for a page's theme config is what the theme wrote (but for the features)."""
    site, _ = built
    for page in site.rglob("*.html"):
        written = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page.read_text(encoding="utf-8"), re.DOTALL).group(1)
        assert portable.theme_config_json(json.loads(written)) == written, page


def test_the_copys_scripts_are_classic(built: tuple[Path, Path]) -> None:
    _, copy = built
    depth = (copy / "assets/layermap/depth.js").read_text(encoding="utf-8")
    assert depth.startswith("(() => {") and "import.meta" not in depth
    assert "function onPage(start)" in depth, "boot.js is inlined"
    assert not (copy / "assets/layermap/boot.js").exists(), "so it is not in the copy"
    assert (copy / portable.MAP_INDEX_SCRIPT).read_text(encoding="utf-8").startswith("window.layermapMapIndex = {")


def test_a_failed_copy_leaves_the_previous_site_untouched(built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    site, _ = built
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}

    def refuse(*_: object) -> None:
        raise LayermapError("assets/layermap/x.js:1: the downloadable copy runs scripts as classic scripts", "fix it")

    monkeypatch.setattr(portable, "prepare_scripts", refuse)
    assert main(["--project", str(site.parent), "build", "--clean"]) == 1  # unchanged content: else nothing is built
    assert "classic scripts" in capsys.readouterr().err
    assert {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert not list(site.parent.glob(".site.*"))  # no staging folder left behind


def test_spooled_pages_are_zipped_as_files_among_the_others_in_path_order(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes' spools and the copy's own files give one listing: the pages, then the other
    files, each part sorted as paths (``a/…`` before ``a-b/…``); each page's text as spooled, with
    a file's mode."""
    copy = tmp_path / "copy"
    (copy / "assets").mkdir(parents=True)
    (copy / "assets" / "x.js").write_text("x()", encoding="utf-8")
    pages = {"a/index.html": "<p>a ·</p>", "a-b/index.html": "<p>a-b</p>", "index.html": "<p>home</p>" * 500}
    for pid, name in zip((101, 202, 101), pages):
        monkeypatch.setattr(copy_zip.os, "getpid", lambda pid=pid: pid)
        copy_zip.spool_page(copy, name, pages[name])
    assert sorted(p.name for p in copy.iterdir()) == [".pages-101", ".pages-202", "assets"]  # no file of a page's own
    ready = threading.Event()
    ready.set()
    size = copy_zip.zip_folder(copy, tmp_path / "copy.zip", top="top", ready=ready)
    with zipfile.ZipFile(tmp_path / "copy.zip") as archive:
        assert archive.namelist() == ["top/a/index.html", "top/a-b/index.html", "top/index.html", "top/assets/x.js"]
        assert {name: archive.read(f"top/{name}").decode("utf-8") for name in pages} == pages
        modes = {info.external_attr >> 16 for info in archive.infolist()}
        assert modes == {(copy / "assets" / "x.js").stat().st_mode}
        assert all(info.compress_type == zipfile.ZIP_DEFLATED for info in archive.infolist())
    assert size == (tmp_path / "copy.zip").stat().st_size


BEFORE_HREF = ["", " ", "\n", "\t", "x", "-", "data-", "xlink:", " xlink:", "\txlink:", "axlink:", '"']
URLS = ["", "../a/", "..", "#b", "c.html", "../a/?q#b", "https://x.org/", "/abs/", "a", ".", 'x" y']


@given(st.lists(st.tuples(st.sampled_from(BEFORE_HREF), st.sampled_from(URLS), st.sampled_from(["", " ", "<a", "href="])),
                max_size=8))
@example([("x", "", ""), (" xlink:", "../a/", ""), ("axlink:", "..", ""), ("", "../a/", "")])
def test_links_name_index_html_rewrites_each_href_after_white_space_as_the_plain_rule_does(
        links: list[tuple[str, str, str]]) -> None:
    """The quick search (``href="`` found, the white space before it checked after) rewrites
    exactly what one pattern for the whole attribute, white space included, rewrites."""
    html = "".join(f'{before}href="{url}"{after}' for before, url, after in links)
    plain = re.sub(r'(\s(?:xlink:)?href=")([^"]*)(")', lambda m: m.group(1) + index_html_url(m.group(2)) + m.group(3), html)
    assert portable.links_name_index_html(html) == plain
