"""Under real mkdocs-material: instant navigation keeps the worker; dark mode stays accessible.

A two-page mkdocs-material site built here (independent of the generator), in the dark
"slate" scheme: page code binds through Material's document$, and returning to the
calculator reuses the running worker.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from calculators import parallelism
from calcview import render_form
from tests.calcview.site_assets import copy_site_assets
from tests.conftest import free_port, serve_folder

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
CONFIG = """site_name: calc test
site_url: {url}
theme:
  name: material
  font: false
  features: [navigation.instant]
  palette:
    scheme: slate
    primary: indigo
    accent: light blue
nav: [index.md, calc.md]
extra_css: [assets/layermap/calculator.css]
extra_javascript:
  - path: assets/layermap/calculator.js
    type: module
"""


@pytest.fixture(scope="module")
def material_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = tmp_path_factory.mktemp("material-site")
    docs = project / "docs"
    copy_site_assets(docs)
    (docs / "index.md").write_text("# Home\n\nNo calculator here. Go to [the calculator](calc.md).\n", encoding="utf-8")
    block = render_form(parallelism, "calc-parallelism")
    (docs / "calc.md").write_text(f"# Calculator\n\nBack [home](index.md).\n\n{block}\n", encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    (project / "mkdocs.yml").write_text(CONFIG.format(url=url), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml")],
                   check=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"}, timeout=300)
    server = serve_folder(project / "site", port)
    yield url
    server.shutdown()


def test_worker_survives_instant_navigation_and_rebinds(page, material_site):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if request.method == "GET" else None)
    page.goto(material_site)
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if "pyodide" in url]  # home has no calculator

    page.evaluate("window.__sameDocument = true")
    page.locator(".md-content").get_by_role("link", name="the calculator").click()
    page.wait_for_selector(".lm-calc__status[data-state=ready]", timeout=90_000)
    assert page.evaluate("window.__sameDocument") is True  # instant navigation, no reload
    page.fill("#calc-parallelism-pp", "8")
    page.wait_for_function("document.querySelector('[data-output=bubble]').textContent === '87.5 %'")

    page.locator(".md-content").get_by_role("link", name="home").click()
    page.wait_for_function("!document.querySelector('.lm-calc')")
    wasm_loads = sum(url.endswith("pyodide.asm.wasm") for url in requests)
    page.locator(".md-content").get_by_role("link", name="the calculator").click()
    page.wait_for_selector(".lm-calc[data-bound] .lm-calc__status[data-state=ready]", timeout=90_000)
    page.fill("#calc-parallelism-tp", "8")
    page.wait_for_function("document.querySelector('[data-output=accelerators]').textContent === '8'")
    assert page.evaluate("window.__sameDocument") is True
    assert sum(url.endswith("pyodide.asm.wasm") for url in requests) == wasm_loads == 1
    assert len(page.workers) >= 1


def test_calculator_in_dark_mode_has_no_axe_violations(page, material_site):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(material_site + "calc/")
    page.wait_for_selector(".lm-calc__status[data-state=ready]", timeout=90_000)
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"
    page.fill("#calc-parallelism-tp", "0")  # include the error state
    page.locator("#calc-parallelism-tp-error").wait_for(state="visible")
    results = Axe().run(page, context=".lm-calc")
    assert results.violations_count == 0, results.generate_report()


def test_leaving_before_the_url_is_written_keeps_the_scenario_off_other_pages(page, material_site):
    """The URL is written once the reader pauses; a reader who leaves first must not carry it along."""
    page.goto(material_site + "calc/")
    page.wait_for_selector(".lm-calc__status[data-state=ready]", timeout=90_000)
    # type and leave in one task, so the pause cannot end in between however loaded the machine is
    page.evaluate("""() => {
        const field = document.querySelector('#calc-parallelism-pp');
        field.value = '8';
        field.dispatchEvent(new Event('input', { bubbles: true }));
        [...document.querySelectorAll('.md-content a')].find(a => a.textContent.trim() === 'home').click();
    }""")
    page.wait_for_function("!document.querySelector('.lm-calc')")
    page.wait_for_timeout(1_000)  # well past the calculator's pause before writing the URL
    assert "calc-parallelism" not in page.url

    page.locator(".md-content").get_by_role("link", name="the calculator").click()
    page.wait_for_selector(".lm-calc[data-bound] .lm-calc__status[data-state=ready]", timeout=90_000)
    assert page.input_value("#calc-parallelism-pp") == "1"  # a fresh visit starts from the defaults
