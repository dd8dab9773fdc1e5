"""Nothing floats over a control: Material's "Back to top" button, shown while the reader scrolls up,
never covers the drawn map's buttons or a calculator's controls."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
CONTROLS = (".lm-map-tools button, .lm-map-frame, .lm-calc input, .lm-calc select, .lm-calc button, "
            ".lm-calc__glance, .lm-player, [role=tab]")
STATE = """controls => {
    const pill = document.querySelector(".md-top"), box = pill.getBoundingClientRect();
    const shown = !pill.hidden && getComputedStyle(pill).visibility === "visible";
    const under = [...document.querySelectorAll(controls)].filter(el => {
        const r = el.getBoundingClientRect();
        return r.width && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
    }).map(el => el.className || el.tagName);
    return { shown, under };
}"""


def sweep_up(page, top: float, bottom: float, step: int = 80) -> tuple[int, list[str]]:  # noqa: ANN001
    """Scroll up from ``bottom`` to ``top`` (page offsets) as a reader does, where Material shows the
    button; count the positions where it shows and list what it covers there."""
    shown, covered = 0, []
    page.evaluate(f"() => window.scrollTo(0, {bottom + 300})")
    page.wait_for_timeout(300)
    for y in range(int(bottom), max(int(top), 1), -step):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        page.wait_for_timeout(350)  # Material decides after 250 ms
        state = page.evaluate(STATE, CONTROLS)
        if state["shown"]:
            shown += 1
            covered += [f"{y}: {name}" for name in state["under"]]
    return shown, covered


def extent(page, selector: str) -> tuple[float, float]:  # noqa: ANN001
    """The page offsets at which ``selector``'s element passes under the header, and then some of the
    text after it (where the button should still show)."""
    return page.locator(selector).first.evaluate(
        "el => { const r = el.getBoundingClientRect(); return [r.top + scrollY - 300, r.bottom + scrollY + 1500]; }")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize(("path", "controls"), [("", ".lm-map"), ("layer-3/gpu-clusters/#depth-d4", "#calc-parallelism-d4")])
def test_back_to_top_never_covers_the_map_buttons_or_a_calculator(browser: Browser, built_site: BuiltSite, width: int,
                                                                 path: str, controls: str) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 600, has_touch=width < 600)
    page = context.new_page()
    page.goto(built_site.url + path)
    page.wait_for_load_state("load")
    page.locator(controls).first.wait_for()
    top, bottom = extent(page, controls)
    shown, covered = sweep_up(page, top, bottom)
    context.close()
    assert covered == []
    assert shown > 0  # it still shows where nothing lies under it
