"""The search reads a page into the very sections the theme's own parser makes: every page of the
real map, the topics of a synthetic map, pages written to be awkward and generated HTML. What it
cannot read as ``HTMLParser`` would, it leaves to the theme's parser."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from material.plugins.search import plugin as theme_search

from generator.emit import search_sections
from generator.emit.page_store import CACHE_FOLDER, PAGES, PRERENDERED, prerendered_places, read_page_content
from generator.emit.search_sections import page_sections, read_sections_quickly, theme_index
from tests.benchmarks.test_build_scale_content import build_scale
from tests.conftest import ROOT, BuiltSite
from tests.generator.render.test_topic_html import EngineConversion


def theme_sections(content: str) -> list[tuple]:
    parser = theme_search.Parser()
    parser.feed(content)
    parser.close()
    return [(s.el.tag, s.id, s.title, s.text, s.depth, s.is_excluded()) for s in parser.data]


def quick_sections(content: str) -> list[tuple] | None:
    sections = page_sections(content)
    return None if sections is None else [(s.tag, s.id, s.title, s.text, s.depth, s.is_excluded()) for s in sections]


def assert_same_sections(content: str) -> None:
    quick = quick_sections(content)
    assert quick is not None, content[:200]
    assert quick == theme_sections(content)


def test_the_tag_sets_are_the_themes() -> None:
    parser = theme_search.Parser()
    assert search_sections.VOID == theme_search.void
    assert search_sections.KEEP == parser.keep
    assert search_sections.ALWAYS_SKIPPED == parser.skip


def built_contents(root: Path) -> dict[str, str]:
    """Every page's content as the theme's search reads it: the engine's conversions, and the
    generator's (prerendered topic pages)."""
    layermap = root / ".layermap"
    contents = {}
    for path in sorted((layermap / CACHE_FOLDER / PAGES).glob("*.json")):
        contents[path.name] = json.loads(path.read_text(encoding="utf-8").split("\n")[1])
    for page, (pack, offset) in sorted(prerendered_places(layermap / PRERENDERED).items()):
        contents[page] = read_page_content(pack, offset, skip=1)
    return contents


def test_every_page_of_the_real_map_reads_as_the_theme_reads_it(built_site: BuiltSite) -> None:
    contents = built_contents(built_site.root)
    assert len(contents) >= 19 + 8  # the topics; home, layers, Sources, ...
    for content in contents.values():
        assert_same_sections(content)


def test_every_topic_of_a_synthetic_map_reads_as_the_theme_reads_it(tmp_path: Path) -> None:
    build_scale().write_project(tmp_path, topics=60, seed=5)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    synthetic = EngineConversion(tmp_path)
    for topic_id in synthetic.kmap.topics:
        assert_same_sections(synthetic.generator(topic_id)["content"])


AWKWARD = {
    "nested heading": '<div><h2 id="a">A</h2><p>in a</p></div><p>back in the preface</p>',
    "nested heading in a list": '<ul><li><h3 id="x">X</h3>one</li><li>two</li></ul><h2 id="y">Y</h2><p>y</p>',
    "no h1 first": '<p>preface</p><h2 id="b">B</h2><p>text</p>',
    "h1 first": '<h1 id="t">Title <a class="headerlink" href="#t">¶</a></h1><p>x</p><h2 id="b">B</h2>',
    "heading without id": '<h1 id="t">T</h1><h2>no id</h2><p>still T</p>',
    "excluded block": '<h1 id="t">T</h1><div data-search-exclude><p>hidden</p></div><p>shown</p>',
    "excluded block, by name": '<h1 id="t">T</h1><div data-search-exclude=""><div>x</div><p>after inner</p></div><p>z</p>',
    "excluded heading": '<h1 id="t">T</h1><h2 id="s" data-search-exclude>S</h2><p>under s</p><h2 id="u">U</h2><p>u</p>',
    "line numbers": '<h1 id="t">T</h1><div class="linenodiv"><pre>1\n2</pre></div><pre><code>a  b\n\n c</code></pre>',
    "empty kept tags": '<h1 id="t">T</h1><p> </p><ul>\n<li>\n</li>\n</ul><p>a</p><p>\n</p>',
    "entities": '<h1 id="t">A &amp; B &lt;c&gt;</h1><p>&quot;q&quot; &#39;s&#39; &nbsp;x &copy; &unknown; a&b</p>',
    "white space": '<h1 id="t">T</h1>\n\n  <p>a\nb   c</p>\n\n\n<pre>  keep\n\n  this</pre>\t<p>\n</p>',
    "void and self-closed": '<h1 id="t">T<br></h1><p>a<br/>b<img src="x.png" alt="y">c<span/>d<hr /></p>',
    "upper case": '<H1 ID="t">T</H1><P CLASS="x">Upper</P><Div Data-Search-Exclude>no</DIV><p>yes</p>',
    "stray end tags": '</p><h1 id="t">T</h1></div><p>a</span>b</p></p>',
    "attribute forms": """<h2 id='single'>S</h2><p title="a > b" data-x=bare hidden>t</p><a class="headerlink x">not a permalink</a>""",
    "code in a title": '<h2 id="c">Use <code>x</code> <sup>2</sup></h2><p>body</p>',
    "first section kept tag emptied": '<h1 id="t">T</h1><p>one</p><p>two</p><p> </p><p>three</p>',
    "text only": "just text &amp; more",
    "empty": "",
    "unclosed": '<h1 id="t">T</h1><p>open <em>still',
}


@pytest.mark.parametrize("content", list(AWKWARD.values()), ids=list(AWKWARD))
def test_an_awkward_page_reads_as_the_theme_reads_it(content: str) -> None:
    assert_same_sections(content)


LEFT_TO_THE_THEME = {
    "comment": '<h1 id="t">T</h1><!-- a comment --><p>x</p>',
    "doctype": "<!DOCTYPE html><p>x</p>",
    "script": '<p>a</p><script>if (a < b) {}</script><p>b</p>',
    "style": "<style>p > a {}</style><p>x</p>",
    "a bare <": "<p>a < b</p>",
    "an unparsed attribute": '<p a=="b">x</p>',
    "a processing instruction": "<?xml version='1.0'?><p>x</p>",
    "a kept tag closed but never kept": '<div data-search-exclude><code><div></div></code></div>',
}


@pytest.mark.parametrize("content", list(LEFT_TO_THE_THEME.values()), ids=list(LEFT_TO_THE_THEME))
def test_what_htmlparser_reads_by_its_own_rules_is_left_to_the_theme(content: str) -> None:
    assert page_sections(content) is None


TAGS = ["div", "p", "span", "em", "code", "pre", "ul", "li", "a", "h1", "h2", "h3", "sub", "br", "img", "details"]
ATTRIBUTES = ["", ' id="x"', ' id="y"', " data-search-exclude", ' data-search-exclude=""', ' class="headerlink"',
              ' class="linenodiv"', " hidden", ' title="a &amp; b"', ' class="&#104;eaderlink"', ' class="linenod&#105;v"',
              ' DATA-SEARCH-EXCLUDE', ' class="headerlink x"']
TEXTS = ["word", " ", "\n", "two words", "a &amp; b", "&lt;x&gt;", "  \n  ", "é", "&quot;", "x\ny"]


@st.composite
def html_pieces(draw: st.DrawFn) -> str:
    """Start tags, end tags and text in any order: nesting well formed or not."""
    pieces = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["start", "start", "end", "text", "selfclosed"]))
        tag = draw(st.sampled_from(TAGS))
        if kind == "start":
            pieces.append(f"<{tag}{draw(st.sampled_from(ATTRIBUTES))}>")
        elif kind == "end":
            pieces.append(f"</{tag}>")
        elif kind == "selfclosed":
            pieces.append(f"<{tag}{draw(st.sampled_from(ATTRIBUTES))}/>")
        else:
            pieces.append(draw(st.sampled_from(TEXTS)))
    return "".join(pieces)


@settings(max_examples=600, deadline=None)
@given(html_pieces())
def test_generated_html_reads_as_the_theme_reads_it(content: str) -> None:
    try:
        expected = theme_sections(content)
    except ValueError:  # the theme's parser fails on it: so must the search, by reading it itself
        assert page_sections(content) is None
        return
    assert quick_sections(content) == expected


class Page:
    """What the index reads of the engine's page."""

    def __init__(self, content: str, meta: dict | None = None) -> None:
        self.content, self.meta = content, meta or {}
        self.url, self.title, self.toc = "layer-1/t/", "T", []


def entries(content: str, meta: dict | None = None, quick: bool = True) -> list[dict]:
    index = theme_search.SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
    if quick:
        read_sections_quickly(index)
    index.add_entry_from_context(Page(content, meta))
    return index.entries


@pytest.mark.parametrize("content", [*AWKWARD.values(), *LEFT_TO_THE_THEME.values()][:-1])
def test_the_index_gets_the_themes_entries(content: str) -> None:
    meta = {"tags": ["a", 1], "search": {"boost": 2}}
    assert entries(content, meta) == entries(content, meta, quick=False)


def test_a_page_excluded_from_search_gets_no_entry() -> None:
    assert entries("<h1 id='t'>T</h1><p>x</p>", {"search": {"exclude": True}}) == []
    assert entries("<h1 id='t'>T</h1><p>x</p>") != []


def test_the_hook_takes_only_the_themes_index() -> None:
    class Plugins(dict):
        pass

    class Config:
        def __init__(self, index: object) -> None:
            self.plugins = Plugins(search=type("Plugin", (), {"search_index": index})())

    index = theme_search.SearchIndex(lang=["en"], separator=" ", pipeline=[], fields={})
    assert theme_index(Config(index)) is index
    assert theme_index(Config(object())) is None
    search_sections.on_config(Config(index))
    assert index.add_entry_from_context.__code__.co_filename == search_sections.__file__
