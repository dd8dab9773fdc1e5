"""The shape a Markdown value may have: what keeps reading it linear and its nesting off the stack.

Python-Markdown and the HTML parser beneath it scan forward from each opening they meet until
it closes: from a `[` to its `]` (three times: links, images, references), from a link's `(` to
its `)`, from a tag's `<` to its `>`; an opening never closed is scanned from to the end of the
text, and brackets inside brackets are scanned once per level. Two thousand `[` in a row took
4 s to render, thirty thousand would take hours. So a Markdown value nests `[` (and `{{`) at most
:data:`MAX_BRACKET_DEPTH` deep, counting those never closed, and leaves at most
:data:`MAX_UNCLOSED` links' `(` and tags' `<` unclosed: the work stays a small multiple of the
text's length.

Lists, block quotes and HTML elements inside each other are rendered by recursion: 800 nested
list items overflow Python's stack. They nest at most :data:`MAX_NESTING` deep.

Everything here is read from the text in one pass over its special characters (a backslash
escape, or a code span, takes its characters out of the count, as Markdown does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

MAX_MARKDOWN = 50_000  # characters of one Markdown value; the longest real body is under 10,000
MAX_UNCLOSED = 4  # links' `(` never closed, and tags' `<`
MAX_BRACKET_DEPTH = 4  # `[` inside `[` (a link around a citation is 2), `{{` inside `{{`; each one left open counts
MAX_NESTING = 16  # lists and quotes inside each other, or HTML elements; real text nests 2 or 3

_TOKEN = re.compile(r"\\.|`+|\]\(|[\[\]()]|\{\{|\}\}", re.S)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)?[^<>]*(>)?")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_MARKER = re.compile(r"[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))")  # a quote's or a list item's
_FENCE = re.compile(r"[ \t]*(?:```|~~~)")


@dataclass(frozen=True)
class MarkdownProblem:
    offset: int  # of the character the problem is found at
    message: str
    fix: str


def markdown_problem(text: str) -> MarkdownProblem | None:
    """The first thing in ``text`` beyond these limits, or None."""
    tokens = list(_TOKEN.finditer(text))
    code = _code_spans(tokens)
    return _openings(_outside(tokens, code)) or _block_nesting(text) or _tags(text, code)


def _code_spans(tokens: list[re.Match[str]]) -> list[tuple[int, int]]:
    """Where code spans are: a run of backticks to the next run of the same length, as Markdown
    reads them (a run with none after it is text). Found from the end, so in one pass."""
    following: dict[int, int] = {}  # length of a run → index of the nearest such run after this one
    closes: dict[int, int] = {}
    for index in range(len(tokens) - 1, -1, -1):
        run = tokens[index].group(0)
        if run[0] == "`":
            if len(run) in following:
                closes[index] = following[len(run)]
            following[len(run)] = index
    spans, index = [], 0
    while index < len(tokens):
        if index in closes:
            spans.append((tokens[index].start(), tokens[closes[index]].end()))
            index = closes[index]
        index += 1
    return spans


def _outside(matches: Iterable[re.Match[str]], spans: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """The matches that start outside every span (both in text order)."""
    spans_left = iter(spans)
    span = next(spans_left, None)
    for match in matches:
        while span is not None and span[1] <= match.start():
            span = next(spans_left, None)
        if span is None or match.start() < span[0]:
            yield match


def _openings(tokens: Iterable[re.Match[str]]) -> MarkdownProblem | None:
    open_: dict[str, list[int]] = {"[": [], "(": [], "{{": []}
    links: list[int] = []  # for each link whose `(` is open: how many `(` were open before it
    for match in tokens:
        token, at = match.group(0), match.start()
        if token in ("]", "](") and open_["["]:
            open_["["].pop()
        if token in ("[", "{{"):
            open_[token].append(at)
            if len(open_[token]) > MAX_BRACKET_DEPTH:
                return _too_deep(token, at)
        elif token in ("(", "]("):
            if token == "](":
                links.append(len(open_["("]))
            open_["("].append(at + len(token) - 1)
        elif token in (")", "}}"):
            opening = open_["(" if token == ")" else "{{"]
            if opening:
                opening.pop()
            while links and links[-1] >= len(open_["("]):
                links.pop()
    return _unclosed("](", [open_["("][depth] for depth in links])  # a `[` or `{{` left open is counted as nested


_SAID = {  # what is left open, what closes it, how to fix it
    "](": ("links `[…](`", "their `)`", "end each link's address with `)`"),
    "<": ("`<` that start an HTML tag", "`>`", "end each tag with `>`, or write a `<` meant as text as `&lt;`"),
}


def _unclosed(kind: str, offsets: list[int]) -> MarkdownProblem | None:
    if len(offsets) <= MAX_UNCLOSED:
        return None
    what, closer, fix = _SAID[kind]
    return MarkdownProblem(offsets[0], f"{len(offsets):,} {what} are never closed with {closer} (the first is here); "
                                       f"Markdown reads on to the end of the text from each, so at most {MAX_UNCLOSED} may be",
                           fix)


def _too_deep(kind: str, at: int) -> MarkdownProblem:
    fix = ("close one before opening the next (a link around a citation is two deep: `[text [@key]](url)`), "
           "or write a bracket meant as text as `\\[`") if kind == "[" else "close each computed number with `}}` before the next"
    return MarkdownProblem(at, f"this `{kind}` is the {MAX_BRACKET_DEPTH + 1}th still open: `{kind}` nest at most "
                               f"{MAX_BRACKET_DEPTH} deep (one never closed stays open to the end of the text)", fix)


def _block_nesting(text: str) -> MarkdownProblem | None:
    """Lists and quotes inside each other: indentation (4 columns a level, as Markdown reads
    it) plus the markers that start the line (`- - x` is two lists deep); fenced code is left out."""
    fenced, offset = False, 0
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            indent = len(line) - len(line.lstrip(" \t"))
            levels, end = len(line[:indent].expandtabs(4)) // 4, 0
            while levels <= MAX_NESTING and (marker := _MARKER.match(line, end)):
                levels, end = levels + 1, marker.end()
            if levels > MAX_NESTING:
                return MarkdownProblem(offset + indent, f"lists and quotes are nested more than {MAX_NESTING} deep here",
                                       "flatten it: a reader follows two or three levels of a list, never dozens")
        offset += len(line) + 1
    return None


def _tags(text: str, code: list[tuple[int, int]]) -> MarkdownProblem | None:
    """HTML tags never closed with `>`, and elements nested more than :data:`MAX_NESTING` deep."""
    unclosed: list[int] = []
    elements: list[str] = []
    for tag in _outside(_TAG.finditer(text), code):
        closing, name, ended = tag.groups()
        if (name is None and not tag.group(0).startswith(("<!", "<?"))) or text[tag.start() - 1 : tag.start()] == "\\":
            continue  # `<` before a space or a digit, or escaped: text, not a tag
        if ended is None:
            unclosed.append(tag.start())
            continue
        name = (name or "").lower()
        if closing:
            if name in elements:
                while elements.pop() != name:
                    pass
        elif name and name not in _VOID and not tag.group(0).endswith("/>"):
            elements.append(name)
            if len(elements) > MAX_NESTING:
                return MarkdownProblem(tag.start(), f"HTML elements are nested more than {MAX_NESTING} deep here",
                                       "close elements sooner, or write it in Markdown")
    return _unclosed("<", unclosed)
