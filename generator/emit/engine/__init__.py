"""The one door to the site engine (MkDocs or ProperDocs, with Material): no module outside this
package imports it (tests/test_architecture.py).

Everything engine-specific lives here: building a generated config into a site
folder, and serving it with live reload.  A build goes to a sibling folder first
and replaces ``site/`` only when it succeeded, so a failed build loses nothing.
"""

from __future__ import annotations

import logging
import math
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from generator.emit import copy_zip, page_store, portable, revisioned
from generator.emit.csp import TrustedScripts, refuse_other_hosts, with_security_meta
from generator.emit.depth_first_paint import HEAD_SCRIPTS
from generator.emit.docs_tree import SCRIPTS, written_navigation
from generator.emit.engine.choice import use_chosen_engine
from generator.emit.engine.page_workers import engine_quiet, pages_read_alongside
from generator.emit.engine.page_writers import AllWritten, Finish, pages_written_by
from generator.emit.finishing import NOT_FOUND_PAGE, finished_page
from generator.emit.not_found import not_found_content
from generator.emit.offline import write_service_worker
from generator.emit.portable_scripts import frame_scripts
from generator.emit.search_terms import lean_index_file
from generator.emit.site_address import checked_site_url
from generator.errors import LayermapError
from generator.memo import return_freed_memory
from generator.render.paths import OFFLINE_COPY

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
use_chosen_engine()  # before the engine is first imported: every import of it below is inside a function


class CollectWarnings(logging.Handler):
    """Keeps the message of every warning (and worse) the engine logs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def engine_errors() -> Iterator[None]:
    """Turn the engine's failures into one LayermapError listing what it logged."""
    from mkdocs.exceptions import MkDocsException

    handler = CollectWarnings()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        yield
    except (MkDocsException, OSError) as error:
        details = "\n".join(f"    {m}" for m in handler.messages) or f"    {error}"
        raise LayermapError(f"the site engine (MkDocs) failed:\n{details}",
                            "fix the problems above; the previous site/ was kept") from None
    finally:
        logger.removeHandler(handler)


def _build_into(config_file: Path, target: Path, finish: Finish,
                all_written: AllWritten | None = None) -> tuple[str, str, list[str]]:
    """Build the site into ``target``, its pages written on two cores (``page_writers.py``), each
    handed to ``finish`` once written, and ``all_written`` told once they all are; return its
    site_url ("" when none is set), its site_name and the pages written so."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    with engine_errors(), pages_read_alongside(), pages_written_by(finish, all_written=all_written) as pages:
        config = load_config(config_file=str(config_file), site_dir=str(target), strict=True)
        build(config)
        return config.site_url or "", config.site_name, pages.written


_VERBATIM = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2>)", re.DOTALL | re.IGNORECASE)
_LINE_BREAK_RUN = re.compile(r"[ \t]*\n\s*")


def collapse_whitespace(html: str) -> str:
    """Drop the indentation the theme's templates leave (about a fifth of a page).

    Outside <pre>, <textarea>, <script> and <style>, a run of white space containing a line
    break becomes one line break: the browser renders both as one space, so nothing visible changes.
    """
    parts = _VERBATIM.split(html)
    # split() returns text, then (whole verbatim block, its tag name) pairs: keep those as they are
    out = []
    for index, part in enumerate(parts):
        kind = index % 3
        if kind == 0:
            out.append(_collapse_line_breaks(part))
        elif kind == 1:
            out.append(part)
    return "".join(out)


def _collapse_line_breaks(text: str) -> str:
    """``_LINE_BREAK_RUN.sub("\\n", text)``, line by line (str methods, several times faster):
    spaces and tabs before a line break go, and all white space after it, blank lines included."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    kept = [lines[0].rstrip(" \t")]
    last = len(lines) - 1
    for number, line in enumerate(lines[1:], start=1):
        rest = line.lstrip()
        if number == last:
            kept.append(rest)
        elif rest:
            kept.append(rest.rstrip(" \t"))
    return "\n".join(kept)


_TEMPLATE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def theme_inline_scripts(templates: Path | None = None) -> tuple[str, ...]:
    """The inline scripts the theme's templates write into every page (``partials/javascripts``
    under ``templates``, Material's own by default), each with its Jinja slots (``{{ … }}``) as they stand."""
    if templates is None:
        import material

        templates = Path(material.__file__).parent / "templates"
    folder = templates / "partials" / "javascripts"
    return tuple(body for template in sorted(folder.glob("*.html"))
                 for body in _TEMPLATE_SCRIPT.findall(template.read_text(encoding="utf-8")))


def trusted_scripts(templates: Path | None = None) -> TrustedScripts:
    """The only inline scripts a built page may carry: layermap's head scripts and those of the
    theme whose ``templates`` wrote the page (Material's by default)."""
    return TrustedScripts.of(HEAD_SCRIPTS, theme_inline_scripts(templates))


class _PageFinisher:
    """Finishes a built page: layermap's own step (``emit/finishing.py``: content sanitised, links
    resolved, the depth script in the head), compacted and given its security policy (hashed from the final
    text); with a copy folder, also put into it ready for disk (``portable.page_for_disk``,
    ``copy_zip.spool_page``), with a policy that allows the search shim's frame script too. Each
    page is read once for both."""

    def __init__(self, site: Path, copy: Path | None, trusted: TrustedScripts | None = None, nav: list | None = None) -> None:
        self.site, self.copy, self.shim, self.nav = site, copy, None, nav or []
        self.trusted = trusted or trusted_scripts()
        self.versioned = revisioned.Versioner(site)  # the site's page links layermap's files by their version

    def __call__(self, name: str, site_url: str) -> None:
        page = self.site / name
        text = page.read_text(encoding="utf-8")
        not_found = not_found_content(self.nav, site_url) if name == NOT_FOUND_PAGE else ""
        compact = collapse_whitespace(finished_page(text, name, not_found))
        finished = with_security_meta(self.versioned(compact), self.trusted, name)
        if finished != text:
            page.write_text(finished, encoding="utf-8")
        if self.copy is not None and portable.in_copy(name):
            if self.shim is None:
                self.shim = (self.site / portable.SHIM_PATH).read_text(encoding="utf-8")
            for_disk = portable.page_for_disk(compact, name, site_url, SCRIPTS)
            refuse_other_hosts(for_disk, name)
            copy_zip.spool_page(self.copy, name, with_security_meta(for_disk, self.trusted, name, frame_scripts(self.shim, for_disk)))


CLOCK_SLACK = 2.0  # seconds: a file system may round the times it keeps down
SITEMAP_FILES = ("sitemap.xml", "sitemap.xml.gz")
# Listing no page: the theme's instant navigation asks for sitemap.xml on every first page view,
# and a missing file is a 404 in the reader's console; an empty list makes it load pages whole.
EMPTY_SITEMAP = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n'


def _empty_sitemap(site: Path) -> None:
    """Without a site URL the engine's sitemap could only name a wrong address: list no page instead
    (the service worker answers sitemap.xml for the address it serves, once it controls the page)."""
    for name in SITEMAP_FILES:
        (site / name).unlink(missing_ok=True)
    (site / SITEMAP_FILES[0]).write_text(EMPTY_SITEMAP, encoding="utf-8")


def _build_site_and_copy(config_file: Path, staging: Path) -> None:
    """The site, its downloadable copy (``generator/emit/portable.py``: derived from the built
    pages) and its service worker, which never precaches the copy (``downloads/``). Once the
    pages are written, the zip (:class:`_CopyZip`) takes the copy's pages while the engine ends
    its build (its search index) and this process then makes the copy's other files, which the
    zip takes last, and then Workbox (its own process) reads the site."""
    with tempfile.TemporaryDirectory(prefix="layermap-copy-") as scratch, _CopyZip(Path(scratch)) as zipping:
        copy = zipping.copy
        finish = _PageFinisher(staging, copy, nav=written_navigation(config_file))

        def zip_pages(written: list[str], site_url: str) -> None:
            for name in _pages(staging) - set(written):  # the theme's own (404.html), written before the others
                finish(name, site_url)
            zipping.start()

        try:
            site_url, site_name, written = _build_into(config_file, staging, finish, zip_pages)
            lean_index_file(staging)  # whether or not the engine ran layermap's hooks
            if not zipping.started:  # no page went through the page loop
                zip_pages(written, site_url)
            if not site_url:
                _empty_sitemap(staging)
            portable.copy_site_files(staging, copy)
            portable.prepare_copy(staging, copy, SCRIPTS, site_name, site_url)
        finally:
            zipping.copy_ready.set()  # on a failure too: the zip ends, the build reports the failure
        # Workbox's process starts once the copy's search index (read whole, 5 MB at 1,000 topics)
        # is written and the memory it took returned: the two at once were the build's highest point.
        return_freed_memory()
        write_service_worker(staging, revisioned.write_versioned_folder(staging))
        zipping.result()
        (staging / OFFLINE_COPY).parent.mkdir(parents=True, exist_ok=True)
        shutil.move(zipping.zip_path, staging / OFFLINE_COPY)


class _CopyZip:
    """The copy's folder and its zip (``copy_zip.zip_folder``), made by a thread (zlib lets the
    rest run): it takes the spooled pages at :meth:`start`, the copy's other files once
    ``copy_ready`` is set. (A forked process made it no sooner, and its copy of the engine's
    memory was the build's highest point.)"""

    def __init__(self, scratch: Path) -> None:
        self.copy, self.zip_path = scratch / portable.COPY_FOLDER, scratch / OFFLINE_COPY
        self.copy.mkdir()
        self.copy_ready = threading.Event()
        self.pool = ThreadPoolExecutor(1)
        self.zipped: Future | None = None

    @property
    def started(self) -> bool:
        return self.zipped is not None

    def start(self) -> None:
        self.zipped = self.pool.submit(copy_zip.zip_folder, self.copy, self.zip_path, ready=self.copy_ready)

    def result(self) -> int:
        assert self.zipped is not None  # noqa: S101 - started when the pages were written
        return self.zipped.result()

    def __enter__(self) -> _CopyZip:
        return self

    def __exit__(self, *_: object) -> None:
        self.copy_ready.set()
        self.pool.shutdown()


def _pages(site: Path) -> set[str]:
    return {page.relative_to(site).as_posix() for page in site.rglob("*.html")}


def build_site(config_file: Path, site_dir: Path) -> None:
    """Build into a temporary sibling folder with the service worker and the downloadable copy
    (the pages the engine's cache lacks converted on two cores: ``page_workers.py``), then swap it
    in place of ``site_dir``."""
    staging = site_dir.with_name(f".{site_dir.name}.new")
    retired = site_dir.with_name(f".{site_dir.name}.old")
    for leftover in (staging, retired):
        shutil.rmtree(leftover, ignore_errors=True)
    started = time.time()
    try:
        _build_site_and_copy(config_file, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if site_dir.exists():
        site_dir.rename(retired)
    staging.rename(site_dir)
    shutil.rmtree(retired, ignore_errors=True)
    page_store.remove_unused(config_file.parent / page_store.CACHE_FOLDER, started - CLOCK_SLACK)


def forget_conversions(config_file: Path) -> None:
    """`layermap build --clean`: no page conversion or search entry an earlier build kept is used."""
    page_store.remove_unused(config_file.parent / page_store.CACHE_FOLDER, math.inf)


def configured_site_url(config_file: Path, docs_dir: Path | None = None) -> str:
    """The site_url the engine will build with ("" when none is set), read as the engine reads it,
    and checked to be a site address (a LayermapError if not, before the engine writes anything).
    ``docs_dir``: for the project's own config, which has none (layermap adds it); site_url is
    never one of the keys layermap adds, so that config gives the engine's."""
    from mkdocs.config import load_config

    overrides = {"docs_dir": str(docs_dir)} if docs_dir is not None else {}
    with engine_errors():
        site_url = load_config(config_file=str(config_file), **overrides).site_url or ""
    return checked_site_url(site_url)


def site_url_ahead(base_config: Path, docs_dir: Path) -> str | None:
    """The engine's site_url, read from the project's own config while another process writes
    the docs tree: reading it imports the engine, its theme, plugins and Markdown extensions
    on a core that would otherwise wait. None when it cannot be read so: the engine config
    is read after, and says what is wrong with it."""
    try:
        with engine_quiet():
            return configured_site_url(base_config, docs_dir)
    except Exception:  # noqa: BLE001 - read again from the engine config, whose errors are reported
        return None
