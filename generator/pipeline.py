"""The whole pipeline in one place: load → map → pages → docs tree (→ engine)."""

from __future__ import annotations

from pathlib import Path

from generator import calculator_bridge, portable
from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog
from generator.exercises import check_exercises
from generator.lints import check_quality
from generator.prose_numbers import check_prose_numbers
from generator.graph import KnowledgeMap, build_map
from generator.loading import Content, load_content
from generator.map_index import INDEX_FILE, map_index_json
from generator.pages import navigation, render_pages
from generator.render.map import MAP_STYLES_FILE, map_stylesheet
from generator.project import Project
from generator.site_tree import DocsTree, layermap_assets, write_tree


def load_map(project: Project) -> tuple[Content, KnowledgeMap]:
    """Validated content and its map; raises ContentError listing every problem.

    After the schema and cross-file checks, every exercise is played and every number in
    prose computed, so a false claim or a bad expression fails here, before anything is written.
    """
    content = load_content(project.content_dir, project.root)
    log = DiagnosticLog([*content.warnings, *check_quality(content), *check_exercises(content), *check_prose_numbers(content)])
    if log.errors:
        raise ContentError(log)
    content.warnings = log.warnings  # with the quality lints' warnings
    return content, build_map(content)


def uses_calculators(kmap: KnowledgeMap) -> bool:
    return any(depth.calculator for t in kmap.topics.values() for _, depth in t.depths.present())


def docs_tree(project: Project, kmap: KnowledgeMap) -> DocsTree:
    pages = render_pages(kmap, calculator_bridge.CalculatorBridge())
    tree = DocsTree(pages=pages, nav=navigation(kmap), copies=layermap_assets(),
                    texts={INDEX_FILE: map_index_json(kmap),
                           MAP_STYLES_FILE: map_stylesheet(kmap.config.edge_kinds, (page.text for page in pages))})
    tree.styles.append(MAP_STYLES_FILE)
    tree.copies |= portable.site_assets(project.root)  # the downloadable copy's search shim
    if uses_calculators(kmap):
        tree.copies |= calculator_bridge.site_assets(project.root)
        tree.styles.append(calculator_bridge.CALCULATOR_STYLES)
    return tree


def generate(project: Project, out_dir: Path | None = None) -> tuple[Path, list[Diagnostic]]:
    """Validate content and write the docs tree; return the engine config and the warnings."""
    content, kmap = load_map(project)
    config = write_tree(docs_tree(project, kmap), project.base_config, out_dir or project.work_dir)
    return config, content.warnings
