"""The exercise player (exercise.js) on a bare page holding two calculators that share an input name.

calculators.local and calculators.parallelism both have an input named ``params``, labelled
differently; the player plays an exercise on the second and must name that calculator's own
label, found inside its block (a lookup across the page finds the first block's label).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from html import escape
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from calculators import local, parallelism
from calcview import render_form
from tests.calcview.site_assets import copy_site_assets
from tests.conftest import free_port, serve_folder

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
PLAN = [{}, {"params": "175"}]
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Two calculators</title>
<link rel="stylesheet" href="assets/layermap/calculator.css"></head>
<body><main><h1>Two calculators</h1>
{first}
{second}
<ol><li class="lm-exercise" data-calculator="calc-parallelism" data-plan="{plan}">
<p>Make the model bigger.</p>
<div class="lm-try-row"><button type="button" class="lm-try" hidden>Try it</button></div></li></ol>
</main>
<script type="module" src="assets/layermap/calculator.js"></script>
<script type="module" src="assets/layermap/exercise.js"></script></body></html>
"""


@pytest.fixture(scope="module")
def two_calculators(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("two-calculators")
    copy_site_assets(site)
    shutil.copy(REPO / "generator/assets/exercise.js", site / "assets/layermap/exercise.js")
    plan = escape(str(PLAN).replace("'", '"'))
    page = PAGE.format(first=render_form(local, "calc-local"), second=render_form(parallelism, "calc-parallelism"), plan=plan)
    (site / "index.html").write_text(page, encoding="utf-8")
    port = free_port()
    server = serve_folder(site, port)
    yield f"http://127.0.0.1:{port}/"
    server.shutdown()


def test_the_player_names_the_label_of_its_own_calculator(page: Page, two_calculators: str) -> None:
    page.goto(two_calculators)
    page.get_by_role("button", name="Try it").click()
    player = page.locator("#calc-parallelism .lm-player__text")
    expect(player).to_have_text(re.compile(r"^Step 2 of 2: Model size 175\. "), timeout=90_000)
    expect(page.locator(".lm-exercise")).to_have_attribute("data-playing", "done", timeout=10_000)
    assert page.locator("#calc-parallelism [data-field=params]").input_value() == "175"
    assert page.locator("#calc-local [data-field=params]").input_value() != "175", "the other calculator is untouched"


def test_the_calculator_api_reads_labels_and_outputs_inside_its_block(page: Page, two_calculators: str) -> None:
    page.goto(two_calculators)
    labels = page.evaluate("() => ['calc-local', 'calc-parallelism'].map((id) => window.layermapCalculator.of(id).label('params'))")
    assert labels == ["Model size (all parameters)", "Model size"]
    shown = page.evaluate("""async () => {
        const calc = window.layermapCalculator.of('calc-parallelism');
        calc.set({params: '175'});
        const result = await calc.result();
        return {ok: result.ok, outputs: calc.outputs()};
    }""")
    assert shown["ok"] is True
    memory = shown["outputs"]["memory_each_bytes"]
    assert memory["label"] and memory["text"] == page.locator("#calc-parallelism [data-output=memory_each_bytes]").inner_text()
