"""The site's own JavaScript has no DOM sinks: nothing turns a string into markup or code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.calculation.port import CALCULATOR_GLUE
from generator.emit.docs_tree import layermap_assets

ROOT = Path(__file__).resolve().parents[3]

# Each: what it is, and a pattern for it in JavaScript source.
SINKS = {
    "innerHTML": re.compile(r"\binnerHTML\b"),
    "outerHTML": re.compile(r"\bouterHTML\b"),
    "insertAdjacentHTML": re.compile(r"\binsertAdjacentHTML\b"),
    "document.write": re.compile(r"\bdocument\s*\.\s*write(ln)?\b"),
    "eval": re.compile(r"(?<![\w.$])eval\s*\("),
    "new Function": re.compile(r"\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\("),
    "a timer given a string": re.compile(r"\bset(Timeout|Interval)\s*\(\s*[\"'`]"),
    "srcdoc": re.compile(r"\bsrcdoc\b"),
    "createContextualFragment": re.compile(r"\bcreateContextualFragment\b"),
    "a text/html parse": re.compile(r"parseFromString\s*\([^)]*text/html"),
}


def shipped_scripts() -> list[Path]:
    """Every JavaScript file the build copies into the site from this repository."""
    sources = {*layermap_assets().values(), *CALCULATOR_GLUE.values()}
    return sorted(path.resolve() for path in sources if path.suffix in {".js", ".mjs"})


def sinks_in(text: str, name: str) -> list[str]:
    """`name:line: sink` for every sink found, in order."""
    return [
        f"{name}:{number}: {sink}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        for sink, pattern in SINKS.items()
        if pattern.search(line)
    ]


def test_the_scripts_that_ship_are_all_found() -> None:
    names = {path.name for path in shipped_scripts()}
    assert {"calculator.js", "calc-worker.js", "depth.js", "exercise.js", "map.js", "theme-fixes.js", "boot.js", "calc-runtime.js", "calc-figure.js", "calc-text.js", "search-terms.js"} <= names


@pytest.mark.parametrize("path", shipped_scripts(), ids=lambda p: p.name)
def test_no_dom_sinks_in_shipped_javascript(path: Path) -> None:
    found = sinks_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "DOM sinks (use createElement/textContent):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("source", "sink"),
    [
        ("el.innerHTML = text;", "innerHTML"),
        ("el.outerHTML = text;", "outerHTML"),
        ("el.insertAdjacentHTML('beforeend', text);", "insertAdjacentHTML"),
        ("document.write(text);", "document.write"),
        ("document.writeln(text);", "document.write"),
        ("const f = eval(code);", "eval"),
        ("const f = new Function('a', body);", "new Function"),
        ("setTimeout('run()', 10);", "a timer given a string"),
        ("setInterval(`tick()`, 10);", "a timer given a string"),
        ("frame.srcdoc = page;", "srcdoc"),
        ("range.createContextualFragment(text);", "createContextualFragment"),
        ('new DOMParser().parseFromString(text, "text/html");', "a text/html parse"),
    ],
)
def test_each_sink_is_caught_with_its_line(source: str, sink: str) -> None:
    assert sinks_in(f"// a harmless first line\n{source}\n", "x.js") == [f"x.js:2: {sink}: {source}"]


@pytest.mark.parametrize(
    "source",
    ["setTimeout(() => run(), 10);", "el.textContent = text;", 'parseFromString(text, "image/svg+xml")', "retrieval(x);"],
)
def test_safe_calls_are_not_flagged(source: str) -> None:
    assert sinks_in(source, "x.js") == []


def test_the_figure_allow_list_keeps_every_element_the_figures_draw() -> None:
    """calc-figure.js drops SVG elements it does not know: each one the figures write must be known."""
    script = (ROOT / "generator" / "assets" / "calc-figure.js").read_text(encoding="utf-8")
    allowed = set(re.findall(r'"(\w+)"', re.search(r"FIGURE_ELEMENTS = new Set\(\[([^\]]*)\]\)", script).group(1)))
    drawn = {element for module in ("figures.py", "svg_parts.py")
             for element in re.findall(r"<(\w+)[\s>]", (ROOT / "calcview" / module).read_text(encoding="utf-8"))}
    assert drawn and drawn <= allowed, drawn - allowed
