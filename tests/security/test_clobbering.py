"""No clobbering (issue 33, F2): content cannot take an id the theme or layermap's scripts look up.

Every id the theme's templates and bundle name (``__config``, ``__search``, ``__drawer``, …) and
every id of a built topic page's own structure (depths, their tabs, the map, citations, sections)
is written into a topic's Markdown in each way content can set one; the built page must still
have each of those ids once, on layermap's or the theme's element, and `check` must say so.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from generator.content.clobbering import CONTENT_ID_PREFIX, renamed_ids, reserved
from generator.content.sanitise import sanitise
from generator.pipeline import load_map
from generator.project import Project
from tests.conftest import ROOT, free_port, serve_folder
from tests.generator.mini_project import MINI

MATERIAL = ROOT / ".venv" / "lib"
PAGE = Path("layer-1") / "power" / "index.html"


def theme_ids() -> set[str]:
    """The ids Material's templates give its elements and its bundle looks up."""
    import material

    templates = Path(material.__file__).parent / "templates"
    found = set()
    for path in [*templates.rglob("*.html"), *templates.glob("assets/javascripts/bundle.*.min.js")]:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'id="(__[a-z]+)', text)) | set(re.findall(r'["`#](__[a-z]+)["_`]', text))
    return found


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[tuple[str, str, str]] = []  # (value, tag, class) of each id, name and for

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name", "for"):
            if values.get(name):
                self.ids.append((values[name] or "", tag if name == "id" else f"{tag}[{name}]", values.get("class") or ""))

    handle_startendtag = handle_starttag


def ids_of(html: str) -> list[tuple[str, str, str]]:
    parser = _Ids()
    parser.feed(html)
    return parser.ids


def _payload(ids: list[str]) -> str:
    """Each id set in raw HTML, in an attribute list and as a heading's words."""
    spans = " ".join(f'<span class="hostile" id="{i}">a</span><a class="hostile" name="{i}">b</a>' for i in ids)
    lists = "\n\n".join(f"para {n}\n{{: #{i} .hostile }}" for n, i in enumerate(ids))
    return f"{spans}\n\n{lists}\n\n## Sources\n\n## Depth D4\n\nend"


@pytest.fixture(scope="module")
def clobbered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], str]:
    """The mini project built, then built again with every reserved id written into a topic."""
    root = tmp_path_factory.mktemp("clobber")
    shutil.copytree(MINI, root / "content")
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    assert main(["--project", str(root), "build"]) == 0
    structure = {i for i, _, _ in ids_of((root / "site" / PAGE).read_text(encoding="utf-8")) if reserved(i)}
    ids = sorted(structure | theme_ids())
    topic = root / "content" / "layer-1" / "power.yaml"
    data = yaml.safe_load(topic.read_text(encoding="utf-8"))
    data["depths"]["D1"]["body"] += "\n\n" + _payload(ids)
    topic.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    assert main(["--project", str(root), "build"]) == 0
    return root, ids, (root / "site" / PAGE).read_text(encoding="utf-8")


def test_every_id_the_theme_and_layermap_look_up_is_in_the_corpus(clobbered: tuple[Path, list[str], str]) -> None:
    _, ids, _ = clobbered
    assert {"__config", "__search", "__drawer", "__toc", "__palette", "__consent"} <= set(ids)
    assert {"depth-d1", "depth-d4", "tab-depth-d1", "sources", "examples", "connections"} <= set(ids)
    assert any(i.startswith("source-") for i in ids) and any(i.startswith("lm-map") for i in ids)


def test_no_content_element_takes_a_reserved_id_and_each_stays_once(clobbered: tuple[Path, list[str], str]) -> None:
    _, ids, html = clobbered
    found = ids_of(html)
    taken = [(i, tag) for i, tag, cls in found if "hostile" in cls and reserved(i)]
    assert taken == []
    counts = Counter(i for i, tag, _ in found if i in ids and "[" not in tag)  # ids only: a label's for repeats
    assert [i for i, n in counts.items() if n > 1] == []
    assert any(i == f"{CONTENT_ID_PREFIX}__config" for i, _, _ in found)  # renamed, not lost
    assert 'id="__config" type="application/json"' in html  # the theme's own, once
    assert html.count('id="__config"') == 1


def test_check_warns_of_each_with_its_line(clobbered: tuple[Path, list[str], str]) -> None:
    root, ids, _ = clobbered
    content, _ = load_map(Project(root))
    said = [w for w in content.warnings if "look that id up" in w.message]
    lines = (root / "content" / "layer-1" / "power.yaml").read_text(encoding="utf-8").splitlines()
    assert len(said) >= 3 * len(ids)
    assert all(w.path == "depths.D1.body" and w.file == "content/layer-1/power.yaml" for w in said)
    config = next(w for w in said if '`id="__config"`' in w.message)
    assert 'id=\\"__config\\"' in lines[config.line - 1] or 'id="__config"' in lines[config.line - 1]


@pytest.mark.parametrize("html", ['<div id="__config">x</div>', '<p id="__search">x</p>', '<input name="__drawer">',
                                  '<label for="__palette_0">x</label>', '<div data-md-component="search">x</div>',
                                  '<div data-md-toggle="drawer">x</div>'])
def test_the_page_sanitiser_drops_the_theme_s_ids_and_markers(html: str) -> None:
    kept = sanitise(html)
    assert "__" not in kept and "data-md-" not in kept


def test_the_highlighter_s_own_line_anchors_are_kept() -> None:
    assert 'id="__codelineno-0-1"' in sanitise('<a id="__codelineno-0-1" name="__codelineno-0-1" href="#__codelineno-0-1"></a>')


def test_renaming_leaves_code_and_ordinary_ids_alone() -> None:
    text = 'see `<div id="__config">` and <span id="mine">x</span>\n\n```\n{: #depth-d4 }\n```'
    assert renamed_ids(text) == text


@pytest.mark.browser
def test_the_theme_and_the_depths_still_find_their_own_elements(clobbered: tuple[Path, list[str], str], page) -> None:  # noqa: ANN001
    root, _, _ = clobbered
    port = free_port()
    server = serve_folder(root / "site", port)
    try:
        page.goto(f"http://127.0.0.1:{port}/{PAGE.parent.as_posix()}/")
        found = page.evaluate("""() => ({
            config: document.getElementById('__config').tagName,
            search: document.getElementById('__search').closest('.md-header') !== null
                    || document.getElementById('__search').type === 'checkbox',
            depth: document.getElementById('depth-d4').classList.contains('lm-depth'),
        })""")
        assert found == {"config": "SCRIPT", "search": True, "depth": True}
        page.get_by_role("tab", name=re.compile("D4")).click()
        assert page.locator("#depth-d4").is_visible()
    finally:
        server.shutdown()


def test_the_sanitiser_fails_closed_when_judging_a_value_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """nh3 keeps an attribute whose filter raised: the filter itself must drop it instead."""
    from generator.content import sanitise as module

    def broken(*_: object) -> bool:
        raise ValueError("cannot judge")

    monkeypatch.setattr(module, "attribute_allowed", broken)
    assert module.sanitise('<img src="/\\evil.example/x.png" alt="a">') == "<img>"
