"""The allow-list sanitiser: what stays (everything the site emits), what goes, and what check reports."""

from __future__ import annotations

import pytest

from generator.content.raw_html import balanced_markdown, removed_html
from generator.content.sanitise import on_page_content, region_key, sanitise

KEPT = [
    '<div class="admonition note"><p class="admonition-title">Note</p><p>x</p></div>',
    '<details class="lm-answer"><summary>Show answer</summary><p>y</p></details>',
    '<table><thead><tr><th style="text-align:left">a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    '<h2 id="x" data-search-exclude="">T<a class="headerlink" href="#x" title="Permanent link">¶</a></h2>',
    '<form class="lm-calc" aria-label="Calc" autocomplete="off"><fieldset><legend>L</legend><label for="i">I</label>'
    '<input id="i" type="text" inputmode="decimal" data-field="n" value="3" min="1" max="9"><select name="s"><option value="a" selected="">A</option></select>'
    '<button type="button" data-action="reset">Reset</button></fieldset></form>',
    '<svg viewBox="0 0 10 10" width="10" height="10" role="group" aria-labelledby="t"><title id="t">Map</title><defs>'
    '<marker id="m" viewBox="0 0 4 4" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto"><path d="M0 0L4 2"></path></marker></defs>'
    '<a xlink:href="../x/" data-id="x"><rect x="1" y="1" width="5" height="5" rx="1" style="fill:red"></rect><text x="1" y="2" text-anchor="middle"><tspan x="1" y="2">t</tspan></text></a></svg>',
    '<div class="highlight"><pre><span></span><code><span class="n">a</span></code></pre></div>',
    '<p><a href="https://example.org/x">e</a> <a href="mailto:a@b.c">m</a> <a href="../y/#s">r</a> <img src="../i.png" alt="i"></p>',
    '<ol><li id="fn:1"><p>n <a class="footnote-backref" href="#fnref:1">↩</a></p></li></ol>',
]


@pytest.mark.parametrize("html", KEPT, ids=range(len(KEPT)))
def test_what_the_site_emits_is_kept(html: str) -> None:
    assert sanitise(html) == html


@pytest.mark.parametrize("html, left", [
    ("<p>a<script>x()</script>b</p>", "<p>ax()b</p>"),
    ('<p><img src="x" onerror="y()">t</p>', '<p><img src="x">t</p>'),
    ('<p><a href="javascript:y()">j</a><a href="data:text/html,x">d</a><a href=" JaVaScRiPt:y">k</a></p>', "<p><a>j</a><a>d</a><a>k</a></p>"),
    ('<svg><a xlink:href="javascript:y()"><text>t</text></a></svg>', "<svg><a><text>t</text></a></svg>"),
    ('<p><img src="https://other.host/i.png"><img src="data:image/png;base64,AA"></p>', "<p><img><img></p>"),
    ("<p>a <iframe src=x></iframe> b</p>", "<p>a  b</p>"),
    ("<p>a <style>p{}</style></p><p>after</p>", "<p>a p{}</p><p>after</p>"),
    ("<p>x<!-- open</p><p>after</p>", "<p>x&lt;!-- open</p><p>after</p>"),
    ("<p><title>t</p><p>after</p>", "<p>t</p><p>after</p>"),
    ('<p style="background:url(https://x/y)">s</p><p style="position:fixed">f</p>', '<p>s</p><p style="">f</p>'),
    ('<details open ontoggle="y()"><summary>s</summary></details>', '<details open=""><summary>s</summary></details>'),
])
def test_what_could_run_or_leave_the_site_is_removed(html: str, left: str) -> None:
    assert sanitise(html) == left


# URLs are judged as a browser reads them (issue 33, F3): entities decoded, controls trimmed,
# tabs and line breaks dropped, a backslash read as a slash. Each of these reaches another host.
OTHER_HOST_IMAGES = [
    '<img src="/\\evil.example/x.png">',
    '<img src="\\\\evil.example/x.png">',
    '<img src="/&#92;evil.example/x.png">',
    '<img src="/&bsol;evil.example/x.png">',
    '<img src="&#47;&#47;evil.example/x.png">',
    '<img src=" \x01//evil.example/x.png">',
    '<img src="/\t/evil.example/x.png">',
    '<img src="/\n/evil.example/x.png">',
    '<img src="/images/x.png">',  # root-absolute: under a sub-path, or from disk, not the site
    '<img src="ht&#x09;tps://evil.example/x.png">',
]


@pytest.mark.parametrize("html", OTHER_HOST_IMAGES)
def test_an_image_from_another_host_is_removed_however_its_url_is_written(html: str) -> None:
    assert sanitise(html) == "<img>"
    assert removed_html(html) == [(0, "`src` on <img>")]


@pytest.mark.parametrize("html, left", [
    ('<form action="../plans/">x</form>', '<form action="../plans/">x</form>'),
    ('<form action="https://evil.example/">x</form>', "<form>x</form>"),
    ('<form action="/\\evil.example/">x</form>', "<form>x</form>"),
    ('<form action="javascript:x()">x</form>', "<form>x</form>"),
])
def test_a_form_may_go_to_a_page_of_the_site_only(html: str, left: str) -> None:
    assert sanitise(html) == left


@pytest.mark.parametrize("href", ["/\\evil.example/", "&#92;&#92;evil.example/", "//evil.example/", "java&#x09;script:x()",
                                  "https:evil.example", "\x01javascript:x()"])
def test_a_link_to_another_host_must_name_its_scheme_and_host(href: str) -> None:
    assert sanitise(f'<a href="{href}">x</a>') == "<a>x</a>"


def test_the_engine_hook_sanitises_page_content_and_marks_what_it_wrote() -> None:
    key = "0" * 32
    converted = f"<!--layermap-content:{key}-->\n\n<p>a<script>b</script></p>\n<!--/layermap-content:{key}-->"
    clean = "<p>ab</p>"
    digest = region_key(clean)
    expected = f"<!--layermap-sanitised:{digest}-->{clean}<!--/layermap-sanitised:{digest}-->"
    assert on_page_content(converted, page=None, config={}, files=[]) == expected
    assert on_page_content("<p>a<script>b</script></p>", page=None, config={}, files=[]) == expected
    assert on_page_content("", page=None, config={}, files=[]) == ""  # a page the page cache gives back


def test_check_reports_each_removed_thing_at_its_offset() -> None:
    text = "ok `<script>` <https://x.org>\n<b onclick='x'>b</b> <a href=\"javascript:x\">j</a> <table>"
    found = removed_html(text)
    assert found == [
        (text.index("<table>"), "<table> (never closed), shown as text"),
        (text.index("<b "), "`onclick` on <b>"),
        (text.index('<a href'), "`href` on <a>"),
    ]
    assert removed_html("plain *Markdown* with <b>bold</b> and <br> and `<code>`") == []


def test_balanced_markdown_leaves_code_and_autolinks_alone() -> None:
    text = "```\n<div>\n```\n`<span>` <https://x.org> <me@x.org> <div>open"
    assert balanced_markdown(text) == "```\n<div>\n```\n`<span>` <https://x.org> <me@x.org> &lt;div>open"


def test_offsets_on_later_lines_and_text_without_tags() -> None:
    text = "first line\n\nthird <i style='x'>i</i>\nfourth <u onmouseover=y>u</u>"
    assert removed_html(text) == [(text.index("<i "), "`style` on <i>"), (text.index("<u "), "`onmouseover` on <u>")]
    assert removed_html("no tag at all: 3 > 2, *emphasis*\nand a second line") == []


@pytest.mark.parametrize("url", ["layermap:layer-3/gpu-clusters/#depth-d4", "layermap:", "layermap:#sources",
                                 "layermap:assets/map-index.json", "layermap:plans/?for=x&amp;d=2"])
def test_layermaps_own_site_links_are_kept_in_every_url_attribute(url: str) -> None:
    html = f'<p><a href="{url}">a</a><img src="{url}"></p><form action="{url}"></form><svg><a xlink:href="{url}"></a></svg>'
    assert sanitise(html) == html


@pytest.mark.parametrize("url", ["layermap:../x/", "layermap:/x/", "layermap:a//b/", "layermap:a/../b/", "layermap:a b/",
                                 "layermap:a\\b", "LayerMap:a/", " layermap:a/", "layermap:javascript:x()", "layermap://host/"])
def test_a_malformed_site_link_is_removed(url: str) -> None:
    assert sanitise(f'<a href="{url}">a</a><form action="{url}"></form>') == "<a>a</a><form></form>"
    assert removed_html(f'<a href="{url}">a</a>') == [(0, "`href` on <a>")]
