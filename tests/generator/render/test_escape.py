"""The context escapers: each value reads as typed in its context and never becomes markup."""

from __future__ import annotations

import html
import re
from html import unescape

import markdown
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.content.schema import Markdown
from generator.render.escape import code_block, html_attr, html_text, markdown_block, md_prose_text, md_text, page_description, page_title
from generator.render.text import front_matter

EXTENSIONS = ["attr_list", "tables", "md_in_html", "admonition", "pymdownx.details", "pymdownx.superfences",
              "pymdownx.highlight", "toc"]
HOSTILE = 'a <script>x()</script> [l](javascript:x) *b* _c_ `d` {: onclick=x } \\ | # 1. & "q" \'s\nnext'


def rendered(source: str) -> str:
    return markdown.markdown(source, extensions=EXTENSIONS)


def test_html_text_and_attr_escape_markup_characters() -> None:
    assert html_text('<b a="1">&</b>') == '&lt;b a="1"&gt;&amp;&lt;/b&gt;'
    assert html_attr('"><svg onload=x>') == "&#34;&gt;&lt;svg onload=x&gt;"
    assert html_text("</text><script>") == "&lt;/text&gt;&lt;script&gt;"  # SVG text too


@pytest.mark.parametrize("context", ["# {}", "- [{}](x.md)", "**{}**", "x {} y", "1. {}"])
def test_md_text_renders_as_the_same_words_and_no_markup(context: str) -> None:
    html = rendered(context.format(md_text(HOSTILE)))
    assert "<script" not in html and "<em>" not in html and "<code>" not in html and "javascript:x" not in html.split('"')[1::2]
    words = 'a &lt;script&gt;x()&lt;/script&gt; [l](javascript:x) *b* _c_ `d` {: onclick=x } \\ | # 1. &amp; "q" \'s next'
    assert words in html


@given(st.text(alphabet=st.sampled_from(list("ab 1.)&<>\"'\\`*_{}[]()#+!|-\n\té·")), max_size=40))
def test_md_text_escapes_in_one_pass_what_html_then_markdown_escaping_do(value: str) -> None:
    """The one translation table is the two steps it stands for: HTML's escapes, then a
    backslash before each character Python-Markdown reads inside a line."""
    line = " ".join(value.split())
    two_steps = re.sub(r"([\\`*_{}\[\]()#+!|-])", r"\\\1", html.escape(line, quote=False))
    assert md_text(value) == re.sub(r"^(\s*)(\d+)([.)])", r"\1\2\\\3", two_steps)


def test_md_text_cannot_start_a_block() -> None:
    for value in ("- item", "1. item", "# heading", "> quote", "    code"):
        html = rendered(md_text(value))
        assert html.startswith("<p>"), value


def test_md_prose_text_keeps_citations_and_numbers_for_later_steps() -> None:
    text = md_prose_text("See *this* [@smith2020; @jones] and {{ 2 * x }} <b>")
    assert "[@smith2020; @jones]" in text and "{{ 2 * x }}" in text
    assert "\\*this\\*" in text and "&lt;b&gt;" in text


def test_page_title_and_description_survive_yaml_and_the_theme() -> None:
    value = '</title><img src=x onerror=y> "q" \n---\nkey: 1'
    loaded = yaml.safe_load(front_matter(value, value).strip("-\n"))
    assert loaded == {"title": page_title(value), "description": page_description(value)}
    assert "<" not in loaded["title"] and '"' not in loaded["description"]
    assert "\n" not in loaded["title"]


def test_code_block_fence_is_longer_than_any_backtick_run() -> None:
    value = "a\n```\n<script>x</script>\n`````\nb"
    block = code_block(value)
    assert block.startswith("``````python\n") and block.endswith("\n``````")
    html = rendered(block)
    assert "<script" not in html and html.count("<pre>") == 1
    assert value in unescape(re.sub(r"<[^>]+>", "", html))


def test_only_a_markdown_value_enters_a_page_unescaped() -> None:
    assert markdown_block(Markdown("*fine*")) == "*fine*"
    with pytest.raises(TypeError, match="not a Markdown field"):
        markdown_block("plain text")  # type: ignore[arg-type]


def test_a_markdown_value_keeps_closed_allowed_html_and_shows_the_rest_as_text() -> None:
    value = Markdown("<b>ok</b> <table> `<script>` <marquee>x</marquee>")
    assert markdown_block(value) == "<b>ok</b> &lt;table> `<script>` &lt;marquee>x&lt;/marquee>"
