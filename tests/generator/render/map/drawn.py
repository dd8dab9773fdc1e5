"""The real content's pages, and how to read the drawn map out of one."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from generator.model.calculators import CalculatorBridge
from generator.model.graph import build_map
from generator.pipeline import load_content
from generator.render.pages import render_pages
from tests.conftest import ROOT

KMAP = build_map(load_content(ROOT / "content", ROOT))
SVG = "{http://www.w3.org/2000/svg}"
PAGES = {p.path: p.text for p in render_pages(KMAP, CalculatorBridge())}


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"  # see svg.py: plain href breaks instant navigation


def svg_of(markdown: str) -> ET.Element:
    match = re.search(r"<svg [^>]*class=\"lm-map-svg[ \"].*?</svg>", markdown, flags=re.DOTALL)
    assert match, "no SVG in the page"
    return ET.fromstring(match.group(0))


def node_links(svg: ET.Element) -> dict[str, str]:
    return {a.get("data-id"): a.get(XLINK_HREF) for a in svg.iter(f"{SVG}a") if "lm-node" in a.get("class", "")}


