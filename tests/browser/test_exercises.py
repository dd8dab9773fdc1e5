"""Every exercise of every page, played in a real browser through the visible controls.

The cases come from the content: a new exercise in YAML gets a browser test without new
test code.  The states come from ``play``, the one evaluation the build proves claims with
and the page model takes its plan and end state from: each state's visible outputs must
equal what it says the page shows, and the claims must hold over the values the page shows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from generator.calculation.exercises import State, claim_failure, plan, play
from generator.calculation.port import calculator_module
from tests.conftest import BuiltSite, follow_link, real_map

pytestmark = pytest.mark.browser
KMAP = real_map()
CASES = [
    pytest.param(topic, key, depth, index, exercise, id=f"{topic.id}-{key}-{index + 1}")
    for topic in KMAP.topics.values()
    for key, depth in topic.depths.present()
    if depth.calculator
    for index, exercise in enumerate(depth.exercises)
    if exercise.steps
]


def open_calculator(page: Page, site: BuiltSite, topic, key: str, name: str) -> Locator:  # noqa: ANN001
    page.goto(site.url + topic_path(topic))
    return calculator_at(page, key, name)


def topic_path(topic) -> str:  # noqa: ANN001
    return f"layer-{topic.layer}/{topic.id}/"


def calculator_at(page: Page, key: str, name: str) -> Locator:
    """The calculator of the topic page on show, at depth ``key``, started and ready."""
    page.get_by_role("tab", name=re.compile(f"^{key}")).click()
    calc = page.locator(f"#calc-{name}-{key.lower()}")
    calc.locator("input, select").first.focus()  # a reader's first interaction starts the calculator
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=90_000)
    return calc


def set_control(calc: Locator, name: str, text: str, menus: set[str]) -> None:
    """Type ``text`` into the field, or choose it in the menu (``menus``: the fields that are menus)."""
    field = calc.locator(f'[data-field="{name}"]')
    if name in menus:
        field.select_option(text)
    else:
        field.fill(text)


def visible_values(calc: Locator) -> dict:
    pairs = calc.locator("dd[data-output]").evaluate_all("els => els.map(e => [e.dataset.output, e.dataset.value])")
    return {name: json.loads(value) for name, value in pairs}


# True once every output named reads as given, white space normalised as Playwright's to_have_text does.
SHOWS = r"""([id, display]) => {
    const norm = (text) => text.replace(/\u200b/g, "").trim().replace(/\s+/g, " ");
    const calc = document.getElementById(id);
    return Object.entries(display).every(([name, text]) =>
        norm(calc.querySelector(`dd[data-output="${name}"]`)?.textContent ?? "") === norm(text));
}"""


def expect_outputs(calc: Locator, display: dict[str, str]) -> None:
    """Every output in ``display`` reads as it says. Waited for frame by frame (an answer takes
    milliseconds; expect's retries wait 100 ms and more), then asserted in one expect, which names
    any output that differs."""
    try:
        calc.page.wait_for_function(SHOWS, arg=[calc.get_attribute("id"), display], polling="raf", timeout=5_000)
    except PlaywrightTimeoutError:
        pass  # the expect below fails, and says how
    order = [name for name in calc.locator("dd[data-output]").evaluate_all("els => els.map(e => e.dataset.output)")
             if name in display]
    assert sorted(order) == sorted(display), f"outputs on the page: {order}, the state shows {sorted(display)}"
    expect(calc.locator(", ".join(f'dd[data-output="{name}"]' for name in order))).to_have_text(
        [display[name] for name in order])


def set_form(calc: Locator, changes: dict[str, str], menus: set[str]) -> None:
    """Set the fields as the plan says, through the controls. A field already holding its text is
    left as it is (typing it again changes nothing on the page; the first state names the whole form)."""
    holding = dict(calc.locator("[data-field]").evaluate_all("els => els.map(e => [e.dataset.field, e.value])"))
    for field, text in changes.items():
        if holding.get(field) != text:
            set_control(calc, field, text, menus)


def play_through_the_controls(calc: Locator, states: list[State]) -> list[State]:
    """Set each state's form text as the plan says; every output must read as the state says
    the page shows it. Returns the states with the values the page holds in place of the build's."""
    seen = []
    menus = set(calc.locator("select[data-field]").evaluate_all("els => els.map(e => e.dataset.field)"))
    for changes, state in zip(plan(states), states, strict=True):
        set_form(calc, changes, menus)
        expect_outputs(calc, state.display)
        seen.append(replace(state, outputs=visible_values(calc)))
    return seen


class OpenCalculator:
    """The calculator of the last topic depth played, kept open for the next exercise of the same
    depth (CASES are in page order): its reset button takes it back to the page's starting values.
    The next depth of the same page is its next tab; the next topic is reached by a link, as a
    reader goes on through the site, so the file boots Python once, not once a depth (22 boots at
    4-10 s each; fresh page loads that boot the runtime are the other browser tests' subject)."""

    def __init__(self, context: BrowserContext) -> None:
        self.context, self.shown, self.page, self.calc = context, None, None, None

    def at(self, site: BuiltSite, topic, key: str, name: str) -> Locator:  # noqa: ANN001
        if self.shown == (topic.id, key) and self.calc is not None:
            self.calc.locator("[data-action=reset]").click()  # the page's own values, as a fresh visit has them
            return self.calc
        shown, self.shown = self.shown, None
        if self.page is None or shown is None:  # the first calculator, or the one after a failure: a fresh tab
            if self.page is not None:
                self.page.close()
            self.page = self.context.new_page()
            self.calc = open_calculator(self.page, site, topic, key, name)
        else:
            if shown[0] != topic.id:
                follow_link(self.page, site.url + topic_path(topic))
                expect(self.page).to_have_url(re.compile(re.escape(site.url + topic_path(topic)) + r"(#.*)?$"))
            self.calc = calculator_at(self.page, key, name)
        self.shown = (topic.id, key)
        return self.calc


@pytest.fixture(scope="module")
def calculators(browser: Browser) -> Iterator[OpenCalculator]:
    context = browser.new_context()
    yield OpenCalculator(context)
    context.close()


@pytest.mark.parametrize(("topic", "key", "depth", "index", "exercise"), CASES)
def test_exercise_played_through_the_controls_shows_what_it_claims(calculators: OpenCalculator, built_site: BuiltSite, topic, key, depth, index, exercise) -> None:  # noqa: ANN001, PLR0913
    name, values = depth.calculator.name, dict(depth.calculator.values)
    calc = calculators.at(built_site, topic, key, name)
    seen = play_through_the_controls(calc, play(calculator_module(name), values, exercise))
    for claim in exercise.claims:
        assert claim_failure(claim, seen) is None, claim


@pytest.mark.parametrize(("topic", "key", "depth", "index", "exercise"), CASES[:2])
def test_try_it_plays_to_the_pre_rendered_end_state(page: Page, built_site: BuiltSite, topic, key, depth, index, exercise) -> None:  # noqa: ANN001, PLR0913
    calc = open_calculator(page, built_site, topic, key, depth.calculator.name)
    item = page.locator(f"#depth-{key.lower()} .lm-exercise").nth(index)
    ends = dict(item.locator("dd[data-end-output]").evaluate_all("els => els.map(e => [e.dataset.endOutput, e.textContent])"))
    assert ends, "the end state is pre-rendered"
    item.get_by_role("button", name="Try it").click()
    expect(item).to_have_attribute("data-playing", "done", timeout=60_000)
    for output, shown in ends.items():
        expect(calc.locator(f'dd[data-output="{output}"]')).to_have_text(shown)


def test_an_exercise_can_be_stopped_and_worked_by_keyboard(page: Page, built_site: BuiltSite) -> None:
    topic, key, depth, index, exercise = CASES[1].values
    calc = open_calculator(page, built_site, topic, key, depth.calculator.name)
    item = page.locator(f"#depth-{key.lower()} .lm-exercise").nth(index)
    item.get_by_role("button", name="Try it").focus()
    page.keyboard.press("Enter")
    stop = calc.get_by_role("button", name="Stop")
    expect(stop).to_be_focused()
    page.keyboard.press("Enter")
    expect(item).to_have_attribute("data-playing", "stopped", timeout=10_000)
    back = calc.get_by_role("button", name="Back to the exercise")
    expect(back).to_be_focused()
    page.keyboard.press("Enter")
    expect(item.get_by_role("button", name="Try it")).to_be_focused()
    answer = item.locator("details summary")
    answer.focus()
    page.keyboard.press("Enter")
    expect(item.locator("details")).to_have_attribute("open", "")
