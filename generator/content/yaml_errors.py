"""PyYAML's syntax errors in an editor's words: what is wrong, where, and how to fix it.

PyYAML reports a syntax error as free text (``problem`` and ``context``) with marks, and has no
error codes; so each rule below recognises one of its messages and explains it. The rules are
tried in order and the first that recognises the error wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import yaml

QUOTE_HINT = "put the whole value in quotes"


@dataclass(frozen=True, slots=True)  # slots: a big map holds hundreds of thousands of these
class Position:
    line: int  # 1-based
    column: int  # 1-based


class YamlSyntaxError(Exception):
    """A file that is not valid YAML (or more than layermap reads): what is wrong, where, and how to fix it."""

    def __init__(self, message: str, position: Position, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.hint = hint or "check indentation, quotes and brackets on this line or the one before"


def mark_position(node: yaml.Node | yaml.Event) -> Position:
    """Where a node or event of PyYAML's starts."""
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


@dataclass(frozen=True)
class Explanation:
    message: str
    line: int  # 1-based
    column: int  # 1-based
    hint: str


@dataclass(frozen=True)
class SyntaxProblem:
    """One PyYAML error, with the places and the source line it concerns."""

    problem: str
    context: str
    line: int
    column: int
    opened_line: int  # where the unclosed thing (bracket, quote, alias) started
    opened_column: int
    text: str  # the source line of the error

    def here(self, message: str, hint: str) -> Explanation:
        return Explanation(message, self.line, self.column, hint)

    def where_opened(self, message: str, hint: str) -> Explanation:
        return Explanation(message, self.opened_line, self.opened_column, hint)


def _bad_start(p: SyntaxProblem) -> Explanation | None:
    found = re.match(r"found character '(.*)' that cannot start any token", p.problem)
    if not found:
        return None
    char = found.group(1)
    if char == "\\t":
        return p.here("a tab character is used for indentation", "indent with spaces only; YAML does not allow tabs")
    cited = char == "@" and p.text[p.column - 2 : p.column - 1] == "["
    start = p.column - 2 if cited else p.column - 1
    value = p.text[start:].strip()
    shown = value if len(value) <= 40 else value[:39] + "…"
    what = "a citation `[@…]`" if cited else "a backtick" if char == "`" else f"`{char}`"
    return Explanation(f"a value cannot start with {what}", p.line, start + 1,
                       f'{QUOTE_HINT}: `"{shown}"`, or write it as a `|` block')


def _alias(p: SyntaxProblem) -> Explanation | None:
    if "alias" not in p.context and "alias" not in p.problem:
        return None
    explain = p.where_opened if "alias" in p.context else p.here
    return explain("a value starting with `*` is read as a YAML alias", f"{QUOTE_HINT}, e.g. `body: \"*bold* text\"`")


def _unclosed(p: SyntaxProblem) -> Explanation | None:
    flow = re.match(r"while parsing a flow (sequence|mapping)", p.context)
    if flow:
        bracket, closing = ("[", "]") if flow.group(1) == "sequence" else ("{", "}")
        return p.where_opened(f"the `{bracket}` opened here is never closed",
                              f"add the closing `{closing}`, and quote items that contain `,`, `:` or `#`")
    if "while scanning a quoted scalar" in p.context:
        return p.where_opened("the quote opened here is never closed", "add the closing quote at the end of the text")
    return None


def _key_and_value(p: SyntaxProblem) -> Explanation | None:
    if "could not find expected ':'" in p.problem:
        return p.where_opened("this line has no `:` after its key",
                              "write it as `key: value`, or indent it to continue the text of the line above")
    if p.problem != "mapping values are not allowed here":
        return None
    before = p.text[: p.column - 1]
    if ": " in before or before.rstrip().endswith(":"):
        return p.here("the value contains `: `, which YAML reads as a new key",
                      f"{QUOTE_HINT}, e.g. `title: \"Boards: the basics\"`")
    return p.here("this key is indented more than the keys above it",
                  "line it up with the keys it belongs with (same number of spaces)")


INDENTATION = ("this line is indented differently from the lines above it",
               "indent it with exactly as many spaces as the keys it belongs with")
UNEXPECTED_TOKENS = {
    "-": ("a list item `- ` stands where a `key: value` line was expected", "indent the list under its key, or remove the `- `"),
    "<scalar>": ("unexpected text after the value", f"{QUOTE_HINT}, or move the extra text to its own `key: value` line"),
    "?": ("a `key: value` line stands inside a list", "start it with `- ` to make it a list item, or indent it under an item"),
}


def _unexpected_token(p: SyntaxProblem) -> Explanation | None:
    found = re.match(r"expected <block end>, but found '(.*)'", p.problem)
    return p.here(*UNEXPECTED_TOKENS.get(found.group(1), INDENTATION)) if found else None


def _structure(p: SyntaxProblem) -> Explanation | None:
    if "'<stream end>'" in p.problem:
        return p.here("the file ends in the middle of a value",
                      "close every `[`, `{` and quote that was opened, and finish the last value")
    if p.problem.startswith("expected the node content"):
        return p.here("a value is missing here", "write the value, or put it in quotes")
    escape = re.match(r"found unknown escape character '(.*)'", p.problem)
    if escape:
        return p.here(f"`\\{escape.group(1)}` is not an escape YAML knows inside double quotes",
                      "use single quotes instead, or write `\\\\` for a backslash")
    if "single document" in p.context:
        return p.here("the file holds more than one YAML document", "remove the `---` line: a file is one topic (or the map)")
    if "expected <block end>" in p.problem or "block collection" in p.context:
        return p.here(*INDENTATION)
    return None


RULES: tuple[Callable[[SyntaxProblem], Explanation | None], ...] = (
    _bad_start, _alias, _unclosed, _key_and_value, _unexpected_token, _structure,
)


def syntax_problem(error: yaml.MarkedYAMLError, source: str) -> SyntaxProblem:
    at = error.problem_mark or error.context_mark
    line, column = (at.line + 1, at.column + 1) if at else (1, 1)
    opened = error.context_mark
    opened_line, opened_column = (opened.line + 1, opened.column + 1) if opened else (line, column)
    lines = source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return SyntaxProblem(error.problem or "", error.context or "", line, column, opened_line, opened_column, text)


def explain(error: yaml.MarkedYAMLError, source: str) -> Explanation:
    """What a PyYAML error means for an editor; PyYAML's own words when no rule knows it."""
    problem = syntax_problem(error, source)
    for rule in RULES:
        found = rule(problem)
        if found is not None:
            return found
    return problem.here(problem.problem or problem.context or "invalid YAML", "")
