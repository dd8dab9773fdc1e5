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

from generator.calculation.exercises import State, claim_failure, plan, play
from generator.calculation.port import calculator_module
from generator.pipeline import load_map
from generator.project import Project
from tests.conftest import ROOT, BuiltSite

pytestmark = pytest.mark.browser
_, KMAP = load_map(Project(ROOT))
CASES = [
    pytest.param(topic, key, depth, index, exercise, id=f"{topic.id}-{key}-{index + 1}")
    for topic in KMAP.topics.values()
    for key, depth in topic.depths.present()
    if depth.calculator
    for index, exercise in enumerate(depth.exercises)
    if exercise.steps
]


def open_calculator(page: Page, site: BuiltSite, topic, key: str, name: str) -> Locator:  # noqa: ANN001
    page.goto(site.url + f"layer-{topic.layer}/{topic.id}/")
    page.get_by_role("tab", name=re.compile(f"^{key}")).click()
    calc = page.locator(f"#calc-{name}-{key.lower()}")
    calc.locator("input, select").first.focus()  # a reader's first interaction starts the calculator
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=90_000)
    return calc


def set_control(calc: Locator, name: str, text: str) -> None:
    field = calc.locator(f'[data-field="{name}"]')
    if field.evaluate("el => el.tagName") == "SELECT":
        field.select_option(text)
    else:
        field.fill(text)


def visible_values(calc: Locator) -> dict:
    pairs = calc.locator("dd[data-output]").evaluate_all("els => els.map(e => [e.dataset.output, e.dataset.value])")
    return {name: json.loads(value) for name, value in pairs}


def play_through_the_controls(calc: Locator, states: list[State]) -> list[State]:
    """Set each state's form text as the plan says; every output must read as the state says
    the page shows it. Returns the states with the values the page holds in place of the build's."""
    seen = []
    for changes, state in zip(plan(states), states, strict=True):
        for field, text in changes.items():
            set_control(calc, field, text)
        for output, shown in state.display.items():
            expect(calc.locator(f'dd[data-output="{output}"]')).to_have_text(shown)
        seen.append(replace(state, outputs=visible_values(calc)))
    return seen


class OpenCalculator:
    """The calculator of the last topic depth played, kept open for the next exercise of the same
    depth (CASES are in page order): its reset button takes it back to the page's starting values,
    so a depth boots Python once, not once an exercise (73 boots were a tenth of the suite)."""

    def __init__(self, context: BrowserContext) -> None:
        self.context, self.shown, self.page, self.calc = context, None, None, None

    def at(self, site: BuiltSite, topic, key: str, name: str) -> Locator:  # noqa: ANN001
        if self.shown == (topic.id, key) and self.calc is not None:
            self.calc.locator("[data-action=reset]").click()  # the page's own values, as a fresh visit has them
            return self.calc
        if self.page is not None:
            self.page.close()
        self.shown, self.page = None, self.context.new_page()
        self.calc = open_calculator(self.page, site, topic, key, name)
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
