"""The real content's pages, and how to read the drawn map out of one."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from generator.emit.site_links import resolved_links
from generator.model.calculators import CalculatorBridge
from generator.render.pages import render_pages
from generator.render.paths import built_url
from tests.conftest import real_map

KMAP = real_map()
SVG = "{http://www.w3.org/2000/svg}"
RENDERED = {p.path: p.text for p in render_pages(KMAP, CalculatorBridge())}
# As the built pages have them: layermap's site links made relative to each page (emit/site_links.py).
PAGES = {path: resolved_links(text, f"{built_url(path)}index.html") for path, text in RENDERED.items()}


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"  # see svg.py: plain href breaks instant navigation


def svg_of(markdown: str) -> ET.Element:
    match = re.search(r"<svg [^>]*class=\"lm-map-svg[ \"].*?</svg>", markdown, flags=re.DOTALL)
    assert match, "no SVG in the page"
    return ET.fromstring(match.group(0))


def node_links(svg: ET.Element) -> dict[str, str]:
    return {a.get("data-id"): a.get(XLINK_HREF) for a in svg.iter(f"{SVG}a") if "lm-node" in a.get("class", "")}


