"""`layermap serve`'s web server: MkDocs' live-reload server over the live site (``emit/engine/live.py``).

MkDocs' server serves the site folder, adds its reload script to every page, and reloads the open
pages when it is told the site changed. Its own loop rebuilds the whole site when a watched file
changes; here nothing is watched by the server: layermap's content watcher regenerates the docs
tree, the live site updates the pages that changed, and then :meth:`ReloadingServer.site_changed`
tells the open pages to reload.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from generator.emit.engine.live import LiveSite
from generator.emit.finishing import finish_file


def _server_class() -> type:
    """MkDocs' live-reload server with a way to say "the site changed" (made here: MkDocs is imported lazily)."""
    from mkdocs.livereload import LiveReloadServer, _timestamp

    class ReloadingServer(LiveReloadServer):
        def site_changed(self) -> None:
            """Reload every open page: the same step MkDocs takes after its own rebuild."""
            with self._epoch_cond:
                self._wanted_epoch = self._visible_epoch = _timestamp()
                self._epoch_cond.notify_all()

    return ReloadingServer


def make_server(site_dir: Path, address: str) -> Any:
    host, port = address.rsplit(":", 1)
    server = _server_class()(builder=lambda: None, host=host, port=int(port), root=str(site_dir))

    def error_page(code: int) -> bytes | None:
        page = site_dir / f"{code}.html"
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    server.error_handler = error_page
    return server


@contextmanager
def served_site(config_file: Path, address: str) -> Iterator[tuple[LiveSite, Any]]:
    """A live site built in full into a temporary folder, and a server for it (not yet serving);
    the folder is removed afterwards."""
    host, port = address.rsplit(":", 1)
    folder = Path(tempfile.mkdtemp(prefix="layermap-serve-"))
    try:
        site = folder / "site"
        live = LiveSite(config_file, site, f"http://{host}:{port}/", finish=lambda page, _url: finish_file(site, page))
        live.build()
        yield live, make_server(live.site_dir, address)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def serve_forever(server: Any, on_stop: Callable[[], None] = lambda: None) -> None:
    """Serve until Ctrl+C; then shut the server down."""
    logging.getLogger("mkdocs").setLevel(logging.INFO)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        on_stop()
