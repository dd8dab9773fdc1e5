"""calculator.js + calc-worker.js in Chromium, on a standalone page (no generator needed).

The page holds render_form's block and the site assets the build copies (generator.calculation.port.site_assets), served
over http://127.0.0.1 (Pyodide cannot run from file://). A second page has the script but no
calculator and must not load any Pyodide byte.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from calculators import parallelism, reliability
from calcview import calculator_python_files, evaluate, render_form
from tests.calcview.site_assets import copy_site_assets
from tests.conftest import free_port, serve_folder

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT_MS = 90_000
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="{root}assets/layermap/calculator.css"></head>
<body><main><h1>{title}</h1><p>Some text.</p>
{body}
<div style="height: 3000px"></div><p id="bottom">End.</p>
</main><script type="module" src="{root}assets/layermap/calculator.js"></script></body></html>
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A served folder with the site assets under a sub-path, like GitHub Pages: /project/."""
    folder = tmp_path_factory.mktemp("calc-harness")
    site = folder / "project"
    copy_site_assets(site)
    (site / "calc" ).mkdir()
    block = render_form(parallelism, "calc-parallelism")
    (site / "calc" / "index.html").write_text(PAGE.format(title="Calculator", root="../", body=block), encoding="utf-8")
    (site / "lazy.html").write_text(PAGE.format(title="Far below", root="", body='<div style="height: 4000px"></div>' + block), encoding="utf-8")
    notes = render_form(reliability, "calc-reliability")
    (site / "notes.html").write_text(PAGE.format(title="Notes", root="", body=notes), encoding="utf-8")
    (site / "plain.html").write_text(PAGE.format(title="No calculator", root="", body="<p>Nothing to compute.</p>"), encoding="utf-8")
    broken = folder / "broken"  # the same site with the wasm missing
    copy_site_assets(broken)
    (broken / "assets/pyodide/pyodide.asm.wasm").unlink()
    (broken / "calc.html").write_text(PAGE.format(title="Broken", root="", body=block), encoding="utf-8")
    port = free_port()
    server = serve_folder(folder, port)
    yield f"http://127.0.0.1:{port}/project/"
    server.shutdown()


@pytest.fixture(scope="module")
def live_page(browser, harness):
    """One calculator page, booted once for the tests that only change values (each resets first)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(harness + "calc/")
    wait_ready(page)
    yield page
    context.close()


def reset(page) -> None:
    page.click("[data-action=reset]")
    page.wait_for_function("document.querySelector('[data-output=memory_each_bytes]').textContent === '1.3 TB'")


def wait_ready(page) -> None:
    page.wait_for_selector(".lm-calc__status[data-state=ready]", timeout=READY_TIMEOUT_MS)


def output(page, name: str) -> str:
    return page.locator(f"[data-output={name}]").inner_text()


def test_page_without_calculator_loads_no_pyodide(page, harness):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(harness + "plain.html")
    page.wait_for_load_state("networkidle")
    assert any(url.endswith("calculator.js") for url in requests)
    assert not [url for url in requests if "pyodide" in url or "calc-worker" in url or "/assets/py/" in url]
    assert page.workers == []


def test_worker_starts_when_the_page_is_idle_even_far_from_the_calculator(page, harness):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(harness + "lazy.html")
    assert output(page, "memory_each_bytes") == "1.3 TB"  # pre-rendered, no script needed
    wait_ready(page)  # no scrolling, no input
    assert page.evaluate("() => window.scrollY") == 0
    assert output(page, "memory_each_bytes") == "1.3 TB"  # still the pre-rendered numbers: nothing changed
    assert len(page.workers) == 1
    assert page.evaluate("typeof globalThis.loadPyodide") == "undefined"  # not on the main thread
    assert any(url.endswith("/project/assets/pyodide/pyodide.asm.wasm") for url in requests)
    python = sorted(url.split("/assets/py/", 1)[1] for url in requests if "/assets/py/" in url)
    assert python == sorted(calculator_python_files("parallelism"))  # the worker's files for this calculator only
    assert "calcview/form.py" not in python
    assert "calculators/reliability.py" not in python


def test_inputs_recompute_outputs_figures_and_errors(live_page):
    page = live_page
    reset(page)
    page.fill("#calc-parallelism-tp", "8")
    page.fill("#calc-parallelism-pp", "4")
    page.wait_for_function("document.querySelector('[data-output=memory_each_bytes]').textContent === '40.7 GB'")
    assert output(page, "fits") == "Yes"
    assert output(page, "accelerators") == "32"
    glance = page.locator(".lm-calc__glance")
    assert glance.evaluate("e => getComputedStyle(e).position") == "sticky"
    for name in ("memory_each_bytes", "fits", "accelerators", "days"):
        assert glance.locator(f"[data-glance={name}]").inner_text() == output(page, name)
    # the figures are drawn in the next animation frame, before it is painted
    page.evaluate("() => new Promise((resolve) => requestAnimationFrame(resolve))")
    assert "lm-fig--over" not in page.locator("[data-figure-art=memory] svg").get_attribute("class")
    assert "4 stages" in page.locator("[data-figure-art=pipeline] svg").get_attribute("aria-label")

    page.fill("#calc-parallelism-tp", "0")
    error = page.locator("#calc-parallelism-tp-error")
    error.wait_for(state="visible")
    assert error.inner_text() == "Tensor-parallel ways must be between 1 and 64 accelerators (got '0')"
    assert page.get_attribute("#calc-parallelism-tp", "aria-invalid") == "true"
    assert "lm-calc--invalid" in page.get_attribute(".lm-calc", "class")
    assert page.locator("[data-role=invalid-note]").is_visible()

    page.fill("#calc-parallelism-tp", "8")
    page.wait_for_function("document.querySelector('#calc-parallelism-tp-error').textContent === ''")
    page.wait_for_function("document.querySelector('[data-role=announce]').textContent.includes('40.7 GB')")


def test_slider_and_number_stay_in_sync(live_page):
    page = live_page
    reset(page)
    page.fill("#calc-parallelism-pp-slider", str(math.log10(8)))
    assert page.input_value("#calc-parallelism-pp") == "8"
    page.wait_for_function("document.querySelector('[data-output=bubble]').textContent === '87.5 %'")
    page.fill("#calc-parallelism-micro_batches", "128")
    page.wait_for_function("document.querySelector('[data-output=bubble]').textContent === '5.19 %'")
    assert float(page.input_value("#calc-parallelism-micro_batches-slider")) == pytest.approx(math.log10(128))


def test_presets_fill_fields_and_reset_restores_defaults(live_page):
    page = live_page
    reset(page)
    page.select_option("#calc-parallelism-preset-accelerator", "mi300x")
    assert page.input_value("#calc-parallelism-memory_per_accelerator") == "192"
    assert page.input_value("#calc-parallelism-peak_flops") == "1307.4"
    page.fill("#calc-parallelism-params", "405")
    page.wait_for_function("document.querySelector('[data-output=memory_each_bytes]').textContent === '6.66 TB'")  # 6.48 TB of state + activations
    # the menus follow once the result is shown (changing a <select> from script costs a form scan)
    assert page.input_value("#calc-parallelism-preset-model") == ""  # no model preset matches now
    page.click("[data-action=reset]")
    assert page.input_value("#calc-parallelism-params") == "70"
    assert page.input_value("#calc-parallelism-preset-accelerator") == "h100-sxm"
    page.wait_for_function("document.querySelector('[data-output=memory_each_bytes]').textContent === '1.3 TB'")
    page.wait_for_function("location.search === ''", timeout=5_000)  # the URL is written once the reader pauses


def test_scenario_lives_in_the_url_and_a_link_restores_it(live_page):
    page = live_page
    reset(page)
    page.fill("#calc-parallelism-tp", "4")
    page.select_option("#calc-parallelism-sharding", "everything")
    page.wait_for_function("location.search.includes('calc-parallelism.sharding=everything')")
    assert "calc-parallelism.tp=4" in page.evaluate("location.search")
    url = page.locator("[data-role=link]").evaluate("link => link.href")
    assert re.search(r"\?calc-parallelism\.tp=4&calc-parallelism\.sharding=everything#calc-parallelism$", url)

    fresh = page.context.new_page()
    fresh.goto(url)
    assert fresh.input_value("#calc-parallelism-tp") == "4"
    assert fresh.input_value("#calc-parallelism-sharding") == "everything"
    wait_ready(fresh)
    fresh.wait_for_function("document.querySelector('[data-output=memory_each_bytes]').textContent === '362 GB'")  # 18 B × 70B ÷ 4, a gathered block, activations
    fresh.close()


def test_calculator_has_no_axe_violations(page, harness):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(harness + "calc/")
    wait_ready(page)
    page.fill("#calc-parallelism-tp", "0")  # include the error state
    page.locator("#calc-parallelism-tp-error").wait_for(state="visible")
    results = Axe().run(page, context=".lm-calc")
    assert results.violations_count == 0, results.generate_report()


def test_worker_failure_is_shown_with_a_reason(page, harness):
    page.goto(harness.replace("/project/", "/broken/") + "calc.html")
    page.wait_for_selector(".lm-calc__status[data-state=failed]", timeout=READY_TIMEOUT_MS)
    assert page.locator(".lm-calc__status").inner_text().startswith("Calculator failed:")
    assert output(page, "memory_each_bytes") == "1.3 TB"  # the pre-rendered numbers stay


def test_notes_on_the_models_range_appear_live_as_text_and_go_away(page, harness):
    """Inputs past where the model holds bring a visible note beside the results (and in the
    announcement); back inside the range, the note box hides again."""
    page.goto(harness + "notes.html")
    wait_ready(page)
    box = page.locator("[data-role=notes]")
    assert box.is_hidden()  # the defaults are inside the model's range
    expected = evaluate(reliability, {"interval_rule": "fixed", "fixed_interval_seconds": "600"})["notes"]
    assert expected
    page.select_option("#calc-reliability-interval_rule", "fixed")
    page.fill("#calc-reliability-fixed_interval_seconds", "600")  # ten hours between saves
    # The fixed rule's default interval has notes of its own, shown first: wait for the last inputs' notes.
    page.wait_for_function(
        "expected => JSON.stringify([...document.querySelectorAll('[data-role=notes] li')]"
        ".map((li) => li.innerText)) === JSON.stringify(expected)",
        arg=expected,
    )
    assert box.is_visible()
    assert box.locator("li *").count() == 0  # text only, no markup from the notes
    page.wait_for_function("document.querySelector('[data-role=announce]').textContent.includes('Note:')")
    page.click("[data-action=reset]")
    box.wait_for(state="hidden")


def test_the_calculator_and_its_figures_fit_a_phone_screen(browser, harness):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(harness + "calc/")
    # As in Material on a phone: a 20 px rem (html 125 %) and a content column of 316 px.
    page.add_style_tag(content="html { font-size: 125%; } main { width: 316px; margin-left: 37px; }")
    wide = page.evaluate("""() => {
        const column = document.querySelector('main').getBoundingClientRect().right;
        // a figure wider than the phone scrolls inside its own box (issue 34 item 7: drawn text is
        // never scaled below its size); what it clips does not widen the column
        const clipped = (el) => { for (let a = el.parentElement; a; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== 'visible') return true; } return false; };
        return [...document.querySelectorAll('.lm-calc, .lm-calc *')]
            .filter((el) => el.getBoundingClientRect().right > column + 0.5 && !clipped(el))
            .map((el) => el.tagName + '.' + (el.className.baseVal ?? el.className));
    }""")
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
