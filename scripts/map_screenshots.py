"""Screenshots of the drawn map for the docs: build the real content, shoot it in headless Chromium.

Usage (from the repository root)::

    .venv/bin/python scripts/map_screenshots.py [--out docs/images]

Writes map-home.png (the whole map on the home page), map-local.png (a topic's local
map), and their dark-scheme twins map-home-dark.png and map-local-dark.png.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.conftest import CHROMIUM, CHROMIUM_FLAGS, build_project, copy_project, free_port, serve_folder  # noqa: E402

SHOTS = [("map-home", ""), ("map-local", "layer-3/gpu-clusters/")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        site = build_project(copy_project(Path(tmp)), url)
        server = serve_folder(site, port)
        try:
            with sync_playwright() as p:
                launch = {"args": CHROMIUM_FLAGS}
                if not Path(p.chromium.executable_path).exists():
                    launch["executable_path"] = str(CHROMIUM)
                browser = p.chromium.launch(**launch)
                for scheme, suffix in (("light", ""), ("dark", "-dark")):
                    page = browser.new_page(viewport={"width": 1280, "height": 1000}, color_scheme=scheme)
                    for name, path in SHOTS:
                        page.goto(url + path)
                        figure = page.locator("figure.lm-map").first
                        figure.scroll_into_view_if_needed()
                        page.wait_for_timeout(300)
                        target = args.out / f"{name}{suffix}.png"
                        figure.screenshot(path=str(target))
                        print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
                    page.close()
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
