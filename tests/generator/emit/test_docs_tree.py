"""The generated docs tree: one stylesheet per page, joined from the tree's parts in order."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from generator.emit.docs_tree import STYLE_BUNDLE, STYLES, DocsTree, layermap_assets, style_bundle, write_tree

ROOT = Path(__file__).resolve().parents[3]


def small_tree() -> DocsTree:
    tree = DocsTree(pages=[], nav=[], copies=layermap_assets(), texts={"assets/layermap/extra.css": ".lm-extra { color: red; }\n"})
    tree.styles.append("assets/layermap/extra.css")
    return tree


def test_the_bundle_holds_every_part_in_order() -> None:
    tree = small_tree()
    bundle = style_bundle(tree)
    positions = [bundle.index(f"/* {rel} */") for rel in tree.styles]
    assert positions == sorted(positions) and len(positions) == len(STYLES) + 1
    for rel in STYLES:
        assert tree.copies[rel].read_text(encoding="utf-8").strip() in bundle
    assert bundle.rstrip().endswith(".lm-extra { color: red; }")


def test_no_part_has_a_relative_url_that_the_bundle_would_break() -> None:
    for path in [*(ROOT / "generator" / "assets").glob("*.css"), ROOT / "calcview" / "calculator.css"]:
        assert not re.search(r"url\(\s*['\"]?(?!data:|#)", path.read_text(encoding="utf-8")), path.name


def test_pages_link_the_bundle_only(tmp_path: Path) -> None:
    base = tmp_path / "mkdocs.yml"
    base.write_text("site_name: t\n", encoding="utf-8")
    config = write_tree(small_tree(), base, tmp_path / "out")
    generated = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert generated["extra_css"] == [STYLE_BUNDLE]
    written = (tmp_path / "out" / "docs" / STYLE_BUNDLE).read_text(encoding="utf-8")
    assert written == style_bundle(small_tree())
