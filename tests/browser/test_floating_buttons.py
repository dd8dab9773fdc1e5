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


# Scroll to a page offset and wait until the button has settled there: the scroll event comes with
# the next frame, where Material shows or hides the button at once and theme-fixes.js checks, in a
# frame callback, what lies under it; then the button's own transition (125 ms) runs to its end.
# (Checked against a fixed 350 ms wait at every step of these sweeps: the same state each time.)
SCROLL_AND_SETTLE = """async (y) => {
    window.scrollTo(0, y);
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame(); await frame(); await frame();
    await Promise.all(document.querySelector(".md-top").getAnimations().map((a) => a.finished));
}"""


def sweep_up(page, top: float, bottom: float, step: int = 80) -> tuple[int, list[str]]:  # noqa: ANN001
    """Scroll up from ``bottom`` to ``top`` (page offsets) as a reader does, where Material shows the
    button; count the positions where it shows and list what it covers there."""
    shown, covered = 0, []
    page.evaluate(SCROLL_AND_SETTLE, bottom + 300)
    for y in range(int(bottom), max(int(top), 1), -step):
        page.evaluate(SCROLL_AND_SETTLE, y)
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
