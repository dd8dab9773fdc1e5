"""The engine adapter's own work: compacting built pages without changing what they show."""

from __future__ import annotations

from generator.emit.engine import collapse_whitespace


def test_indentation_between_tags_collapses_to_one_line_break() -> None:
    html = "<ul>\n      <li>\n        <a href='x'>A</a>\n      </li>\n\n\n    </ul>"
    assert collapse_whitespace(html) == "<ul>\n<li>\n<a href='x'>A</a>\n</li>\n</ul>"


def test_spaces_inside_a_line_are_kept() -> None:
    assert collapse_whitespace("<p>two  spaces <b>bold</b> text</p>") == "<p>two  spaces <b>bold</b> text</p>"


def test_verbatim_blocks_are_untouched() -> None:
    html = "<div>\n   <pre><code>a\n    indented\n</code></pre>\n   <script>\n  const s = 'x\\n   y';\n</script>\n <style>\n  p { }\n</style></div>"
    out = collapse_whitespace(html)
    assert "<pre><code>a\n    indented\n</code></pre>" in out
    assert "<script>\n  const s = 'x\\n   y';\n</script>" in out
    assert "<style>\n  p { }\n</style>" in out
    assert out.startswith("<div>\n<pre>")
