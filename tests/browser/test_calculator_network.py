"""A network that never answers (issue 32): the calculator says so within its answer budget,
naming the file, instead of waiting out the start's 120 s; the page's build-time results stay."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.conftest import BuiltSite

pytestmark = pytest.mark.browser
PAGE = "layer-3/gpu-clouds/"


def test_a_hanging_network_fails_the_calculator_with_a_clear_reason(browser: Browser, built_site: BuiltSite) -> None:
    context = browser.new_context(service_workers="block")  # no saved copy to fall back on
    held: list[Route] = []

    def hang(route: Route) -> None:
        held.append(route)  # never answered: a network that has gone quiet

    context.route(re.compile(r".*/assets/pyodide/.*"), hang)
    try:
        page = context.new_page()
        page.goto(built_site.url + PAGE)
        status = page.locator(".lm-calc__status").first
        expect(status).to_have_attribute("data-state", "failed", timeout=60_000)
        expect(status).to_contain_text(re.compile(r"Calculator failed: pyodide[\w.]*: no answer from the server in 15 s"))
        expect(status).to_contain_text("The results shown are for the values the page was built with")
        assert held  # the runtime's files were asked for, and never came
    finally:
        context.close()
