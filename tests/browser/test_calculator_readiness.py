"""A calculator that is ready when the reader is: started by itself, loading only what the page
uses, and kept running across instant navigation.

On the real site (built and served by the session fixture): the runtime starts without any input
and the status line reaches "ready" on its own; the worker fetches only the Python files the
page's calculator declares; following in-site links from one calculator page to another and back
keeps the same worker (one Pyodide download, generation 1) and the results still update; the
status line keeps its height while it changes, so the form below it never moves.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Request, expect

from generator.calculation.port import calculator_module
from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
READY_MS = 90_000
FIRST = ("layer-3/gpu-clouds/", "ownership")  # two calculator pages linked to each other
SECOND = ("layer-3/cluster-networking/", "allreduce")
DEPTH_KEY = "layermap.depth"  # where depth.js keeps the reader's depth

# Every text and height the status line shows, with the top of the form's first fieldset
# (relative to the calculator) at that moment; and every input event the page sees.
RECORDER = """
(() => {
  const R = window.__readiness = { states: [], inputs: 0 };
  document.addEventListener("input", () => { R.inputs += 1; }, true);
  const record = (status) => {
    const root = status.closest(".lm-calc");
    const fieldset = root.querySelector("fieldset");
    R.states.push({ state: status.dataset.state, text: status.textContent, height: status.getBoundingClientRect().height,
                    below: fieldset.getBoundingClientRect().top - root.getBoundingClientRect().top });
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      const status = change.target.closest?.(".lm-calc__status") ?? change.target.parentElement?.closest(".lm-calc__status");
      if (status) record(status);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-state"] });
  document.addEventListener("DOMContentLoaded", () => document.querySelectorAll(".lm-calc__status").forEach(record));
})();
"""


def python_files(requests: list[Request]) -> list[str]:  # the built site's worker takes them from its versioned folder
    return [r.url.split("/py/", 1)[1] for r in requests if re.search(r"/assets/layermap-\w+/py/", r.url) and r.method == "GET"]


def declared_files(page: Page, name: str) -> list[str]:
    """The Python files the page's block of this calculator declares for the worker."""
    return json.loads(page.locator(f".lm-calc[data-calculator={name}]").first.get_attribute("data-python-files"))


def runtime_status(page: Page) -> dict:
    return page.evaluate("() => window.layermapCalculator.status()")


def expect_ready(page: Page, name: str, timeout: int = READY_MS) -> None:
    block = page.locator(f".lm-calc[data-calculator={name}][data-bound]").first
    expect(block.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=timeout)


def change_and_check(page: Page, name: str) -> None:
    """Change the calculator's first number field and see the live results equal CPython's."""
    import calcview

    block = page.locator(f".lm-calc[data-calculator={name}]").first
    module = calculator_module(name)
    spec = next(s for s in module.INPUTS if "min" in s and "max" in s)  # a number field (min and max as shown)
    raw = json.loads(block.get_attribute("data-defaults"))
    before = calcview.evaluate(module, raw)["display"]
    for text in (str(spec["max"]), str(spec["min"])):  # one of the two changes some output
        raw[spec["name"]] = text
        after = calcview.evaluate(module, raw)["display"]
        if after != before:
            break
    assert after != before, f"no output of {name} moves between {spec['name']}'s min and max"
    block.locator(f'[data-field="{spec["name"]}"]').evaluate(
        "(field, text) => { field.value = text; field.dispatchEvent(new Event('input', { bubbles: true })); }", raw[spec["name"]])
    for output, shown in after.items():
        expect(block.locator(f'dd[data-output="{output}"]')).to_have_text(shown)


def test_the_runtime_starts_by_itself_and_fetches_only_the_pages_calculator(page: Page, built_site: BuiltSite) -> None:
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    page.add_init_script(RECORDER)
    path, name = FIRST
    page.goto(built_site.url + path)
    expect_ready(page, name)  # no input, no focus, no scrolling: it started when the page went idle

    recorded = page.evaluate("() => window.__readiness")
    assert recorded["inputs"] == 0
    states = [s["state"] for s in recorded["states"]]
    assert states[0] == "static" and states[-1] == "ready", states
    assert any("loading the Python runtime" in s["text"] for s in recorded["states"] if s["state"] == "loading")
    declared = declared_files(page, name)
    assert f"calculators/{name}.py" in declared
    assert sorted(python_files(requests)) == sorted(declared)  # each once, and no other calculator
    assert runtime_status(page) == {"state": "ready", "generation": 1, "calculators": [name]}


def test_the_same_worker_serves_the_next_calculator_page_and_the_way_back(page: Page, built_site: BuiltSite) -> None:
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    (first_path, first), (second_path, second) = FIRST, SECOND
    page.goto(built_site.url + first_path)
    expect_ready(page, first)
    first_files = declared_files(page, first)
    page.evaluate("() => { window.__sameDocument = true; }")

    page.locator(f".md-content a[href$='/{second_path}']:visible").first.click()  # an ordinary in-site link
    expect_ready(page, second, timeout=15_000)
    assert page.url.split("#")[0] == built_site.url + second_path
    assert page.evaluate("() => window.__sameDocument") is True  # instant navigation, no reload
    change_and_check(page, second)
    assert runtime_status(page)["generation"] == 1
    # the second page added its calculator's files, and nothing of the calculators neither page has
    declared = set(first_files) | set(declared_files(page, second))
    assert set(python_files(requests)) == declared

    page.locator(f".md-content a[href$='/{first_path}']:visible").first.click()
    expect_ready(page, first, timeout=15_000)
    assert page.evaluate("() => window.__sameDocument") is True
    change_and_check(page, first)

    status = runtime_status(page)
    assert status["generation"] == 1 and sorted(status["calculators"]) == sorted([first, second])
    gets = [r.url for r in requests if r.method == "GET"]
    assert sum(url.endswith("/assets/pyodide/pyodide.asm.wasm") for url in gets) == 1
    assert sum(url.endswith("/calc-worker.js") for url in gets) == 1
    assert len(python_files(requests)) == len(set(python_files(requests)))  # each file fetched once


@pytest.mark.parametrize("width", [320, 1280])
def test_the_status_line_keeps_its_height_while_the_calculator_starts(page: Page, built_site: BuiltSite, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    path, name = FIRST
    probe = page.context.new_page()
    probe.goto(built_site.url + path)
    depth = probe.locator(f".lm-calc[data-calculator={name}]").first.evaluate("el => el.closest('[data-depth]').dataset.depth")
    probe.close()
    page.add_init_script(f"localStorage.setItem({DEPTH_KEY!r}, {depth!r})")  # its tab open, so the block has a size
    page.add_init_script(RECORDER)
    page.goto(built_site.url + path)
    expect_ready(page, name)
    states = page.evaluate("() => window.__readiness.states")
    shown = [s for s in states if s["height"] > 0]
    assert {s["state"] for s in shown} >= {"static", "loading", "ready"}, states
    assert len({round(s["height"], 1) for s in shown}) == 1, shown
    assert len({round(s["below"], 1) for s in shown}) == 1, shown
