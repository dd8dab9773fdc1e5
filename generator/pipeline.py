"""The whole pipeline in one place: read → check → model → render → emit (→ engine)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from generator import signed_cache
from generator.calculation import port
from generator.calculation.sources import bibliography_of
from generator.checks import ClaimsMemo, check_claims_and_prose, check_reading
from generator.content.loading import Content, ReadMemo, read_content
from generator.diagnostics import ContentError, Diagnostic, DiagnosticLog
from generator.emit import portable, serve_status
from generator.emit.docs_tree import DocsTree, layermap_assets, write_tree
from generator.emit.engine.prerendered import PrerenderedPages, render_topic_pages
from generator.model.calculators import CalculatorBridge
from generator.model.graph import KnowledgeMap, build_map
from generator.project import Project
from generator.render.bibliography import map_labels, map_sources
from generator.render.map import MAP_STYLES_FILE, map_stylesheet
from generator.render.map_index import INDEX_FILE, map_index_json
from generator.render.pages import (
    PageRenderer,
    PageSource,
    navigation,
    page_renderers,
    render_pages,
    render_topic_page,
    topic_pages,
)
from generator.settings import BuildSettings


def load_content(content_dir: Path, project_root: Path | None = None, memo: ReadMemo | None = None) -> Content:
    """Read and validate all content (schema and cross-file checks); raise :class:`ContentError`
    listing every problem, never just the first. ``memo``: what an earlier reading found (serve)."""
    reading = read_content(content_dir, project_root, memo)
    bibliography = bibliography_of(reading.sources, reading.sources_file)
    log = DiagnosticLog(list(reading.problems))
    known = None if reading.sources_unreadable else set(bibliography) | set(reading.sources)  # an invalid record's key too
    log.extend(check_reading(reading, known))
    if log.errors or reading.map is None:
        raise ContentError(log)
    content = reading.content(bibliography)
    content.warnings = log.warnings
    return content


def load_map(project: Project, memo: ReadMemo | None = None,
             claims: ClaimsMemo | None = None) -> tuple[Content, KnowledgeMap]:
    """Validated content and its map; raises ContentError listing every problem.

    After the schema and cross-file checks, every exercise is played and every number in
    prose computed, so a false claim or a bad expression fails here, before anything is written.
    """
    content = load_content(project.content_dir, project.root, memo)
    log = DiagnosticLog([*content.warnings, *check_claims_and_prose(content, claims)])
    if log.errors:
        raise ContentError(log)
    content.warnings = log.warnings  # with the quality lints' warnings
    return content, build_map(content)


def page_texts(kmap: KnowledgeMap, renderers: dict[str, PageRenderer], redo: set[str], settings: BuildSettings,
               calculators: CalculatorBridge, labels: dict[str, str], kept: PrerenderedPages | None) -> dict[str, bytes]:
    """The Markdown of the pages in ``redo``, as UTF-8 (:class:`PageSource`). With ``kept``, each
    topic page among them is also rendered as the engine would convert it and kept there for the
    engine, over every core; and when every page is rendered, what was kept for pages no longer
    in the map goes."""
    topics = topic_pages(kmap)
    jobs = {path: partial(render_topic_page, kmap, topics[path], calculators, labels, settings)
            for path in renderers if path in redo and path in topics}
    if kept is None:
        texts = {path: job()[0].encode("utf-8") for path, job in jobs.items()}
    else:
        texts = render_topic_pages(jobs, kept, list(renderers))
        if not kept.supported:  # what was kept under other settings is of no use
            kept.keep_only(())
        elif redo >= set(renderers):
            kept.keep_only(topics)
    return {path: texts[path] if path in texts else render().encode("utf-8")
            for path, render in renderers.items() if path in redo}


def uses_calculators(kmap: KnowledgeMap) -> bool:
    return any(depth.calculator for t in kmap.topics.values() for _, depth in t.depths.present())


def docs_tree(project: Project, kmap: KnowledgeMap, settings: BuildSettings = BuildSettings(),
              serving: bool = False, pages: list[PageSource] | None = None) -> DocsTree:
    """The docs tree of the map: its pages (rendered here unless given) and their assets."""
    pages = pages if pages is not None else render_pages(kmap, CalculatorBridge(), settings)
    tree = DocsTree(pages=pages, nav=navigation(kmap, settings), copies=layermap_assets(),
                    texts={INDEX_FILE: map_index_json(kmap),
                           MAP_STYLES_FILE: map_stylesheet(kmap.config.edge_kinds, (page.data for page in pages))})
    tree.styles.append(MAP_STYLES_FILE)
    tree.copies |= portable.site_assets(project.root)  # the downloadable copy's search shim
    if uses_calculators(kmap):
        tree.copies |= port.site_assets(project.root)
        tree.styles.append(port.CALCULATOR_STYLES)
    if serving:  # `layermap serve`: the page shows a failed regeneration's problems (emit/serve_status.py)
        tree.copies |= serve_status.serve_assets()
        tree.texts[serve_status.STATUS_FILE] = serve_status.ok_status()
        tree.styles.append(serve_status.SERVE_STYLES)
        tree.scripts.append(serve_status.SERVE_SCRIPT)
    return tree


def generate(project: Project, out_dir: Path | None = None,
             settings: BuildSettings = BuildSettings(), serving: bool = False) -> tuple[Path, list[Diagnostic]]:
    """Validate content and write the docs tree; return the engine config and the warnings.
    ``serving``: the tree also carries what `layermap serve` shows in the page."""
    content, kmap = load_map(project)
    signed_cache.machine_key()  # made before the page cache keys its entries with it (emit/engine/page_cache.py)
    out_dir = out_dir or project.work_dir
    calculators = CalculatorBridge()
    listed = map_sources(kmap, calculators)
    renderers = page_renderers(kmap, calculators, settings, listed, map_labels(listed))
    texts = page_texts(kmap, renderers, set(renderers), settings, calculators, map_labels(listed),
                       PrerenderedPages(out_dir, project.base_config))
    pages = [PageSource(path, text) for path, text in texts.items()]
    config = write_tree(docs_tree(project, kmap, settings, serving, pages), project.base_config, out_dir)
    return config, content.warnings
