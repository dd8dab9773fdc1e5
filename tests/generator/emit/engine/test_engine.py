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


def test_line_breaks_collapse_as_the_regular_expression_says() -> None:
    """The line-by-line collapse gives what the rule's regular expression gives, on every mix
    of spaces, tabs, line breaks, other white space (\\r, \\f, \\v, no-break space) and text."""
    import random

    from generator.emit.engine import _LINE_BREAK_RUN, _collapse_line_breaks

    pieces = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u2003", "a", "b c", "\n\n", "  "]
    rng = random.Random(16)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert _collapse_line_breaks(text) == _LINE_BREAK_RUN.sub("\n", text), repr(text)
