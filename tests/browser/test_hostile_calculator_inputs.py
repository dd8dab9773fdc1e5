"""Hostile calculator inputs played in Chromium: typed into fields and arriving in a shared
link's query. Each one gets a clear, short message by its field; nothing runs; the status
never says "ready" while the worker is stuck; a request past its deadline restarts the worker.

The shared links are opened in one tab: the first as a link from elsewhere opens (a fresh page
load, which boots the calculator runtime), each next one followed from the page on show as a
link inside the site is (instant navigation keeps the runtime, and the new page's calculators
take the link's values as they bind). One boot serves the seven links, not seven.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.conftest import BuiltSite, follow_link

pytestmark = pytest.mark.browser

BOOT_MS = 90_000  # a cold Pyodide start on a busy shared machine
HUGE = "9" * 100_000
MESSAGE_MAX_CHARS = 220  # a field's message never echoes a long input back

PARALLELISM_PAGE = "layer-3/gpu-clusters/"
PARALLELISM = "calc-parallelism-d4"

# (field, typed text, what the message by the field must say)
TYPED = [
    ("pp", "1000000", "between 1 and 128"),
    ("micro_batches", "1000000", "between 1 and 1,024"),
    ("pp", "129", "between 1 and 128"),
    ("params", "nan", "finite number"),
    ("params", "inf", "finite number"),
    ("params", "-Infinity", "finite number"),
    ("params", "1e308", "between 0.1 and 2,000"),
    ("params", "1e-320", "between 0.1 and 2,000"),
    ("peak_flops", "1e309", "finite number"),
    ("seq_len", HUGE, "at most 100 characters"),
    ("tp", "<img src=x onerror=alert(1)>", "must be a number"),
    ("hidden", "0x10", "must be a number"),
    ("layers", "-1", "between 1 and 512"),
    ("memory_per_accelerator", "", "must be a number"),
    ("utilisation", "0", "between 0.05 and 1"),
    ("dp", "1_000_000_000", "between 1 and 16,384"),
]

# (page, calculator block, query parameters, field -> what its message must say)
SHARED_LINKS = [
    pytest.param(PARALLELISM_PAGE, PARALLELISM, {"pp": "1000000", "micro_batches": "1000000"},
                 {"pp": "between 1 and 128", "micro_batches": "between 1 and 1,024"}, id="issue-repro"),
    pytest.param(PARALLELISM_PAGE, PARALLELISM, {"sharding": "<script>alert(1)</script>", "seq_len": "9" * 5000},
                 {"sharding": "must be one of", "seq_len": "at most 100 characters"}, id="script-and-long"),
    pytest.param("layer-3/cluster-networking/", "calc-allreduce-d4", {"ring_size": "1e9", "latency": "nan"},
                 {"ring_size": "between 1 and 16,384", "latency": "finite number"}, id="allreduce"),
    pytest.param("layer-3/gpu-clusters/", "calc-reliability-d5", {"accelerators": "0", "checkpoint_seconds": "inf"},
                 {"accelerators": "between 8 and 262,144", "checkpoint_seconds": "finite number"}, id="reliability"),
    pytest.param("layer-3/training-vs-inference/", "calc-serving-d4", {"batch": "1e308", "prompt_tokens": "-5"},
                 {"batch": "between 1 and 1,024", "prompt_tokens": "between 1 and 1,000,000"}, id="serving"),
    pytest.param("layer-3/local-vs-cloud/", "calc-local-d4", {"memory": "1e-320", "bandwidth": "Infinity"},
                 {"memory": "between 1 and 2,048", "bandwidth": "finite number"}, id="local"),
    pytest.param("layer-3/gpu-clouds/", "calc-ownership-d4", {"run_days": "1e-320", "pue": "99"},
                 {"run_days": "between 1 and 1,000", "pue": "between 1 and 3"}, id="ownership"),
]


def watch_dialogs(page: Page) -> list[str]:
    """Every alert/confirm/prompt the page opens (a payload that ran would open one)."""
    opened: list[str] = []
    page.on("dialog", lambda dialog: (opened.append(dialog.message), dialog.dismiss()))
    return opened


def live_calculator(page: Page, site: BuiltSite, path: str, block: str, query: str = "") -> Locator:
    page.goto(f"{site.url}{path}{query}#{block}")
    page.get_by_role("tab", name=re.compile(f"^{block[-2:].upper()}")).click()
    calc = page.locator(f"#{block}")
    calc.locator("input, select").first.focus()  # a reader's first interaction starts the calculator
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    return calc


def error_by(calc: Locator, field: str) -> Locator:
    return calc.locator(f'[data-error-for="{field}"]')


def assert_short_message(message: str, expected: str) -> None:
    assert expected in message
    assert len(message) <= MESSAGE_MAX_CHARS, f"{len(message)} characters: {message[:80]}…"


def test_every_hostile_typed_input_gets_a_short_message_by_its_field(page: Page, built_site: BuiltSite) -> None:
    dialogs = watch_dialogs(page)
    calc = live_calculator(page, built_site, PARALLELISM_PAGE, PARALLELISM)
    defaults = calc.evaluate("el => JSON.parse(el.dataset.defaults)")
    for field, text, expected in TYPED:
        calc.locator(f'[data-field="{field}"]').fill(text)
        slot = error_by(calc, field)
        expect(slot).to_contain_text(expected, timeout=10_000)
        assert_short_message(slot.inner_text(), expected)
        expect(calc.locator(f'[data-field="{field}"]')).to_have_attribute("aria-invalid", "true")
        expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready")
        calc.locator(f'[data-field="{field}"]').fill(defaults[field])
        expect(slot).to_have_text("", timeout=10_000)
    assert calc.locator("img").count() == 0 and dialogs == []


class SharedLinks:
    """The tab the shared links open in: a fresh load for the first (and after a test that failed),
    a followed link for the others."""

    def __init__(self, context: BrowserContext) -> None:
        self.context, self.page, self.dialogs, self.clean = context, None, [], False

    def open(self, url: str) -> Page:
        if self.page is not None and self.clean:
            self.clean = False
            follow_link(self.page, url)
            return self.page
        if self.page is not None:
            self.page.close()
        self.page = self.context.new_page()
        self.dialogs = watch_dialogs(self.page)
        self.page.goto(url)
        return self.page

    def passed(self) -> None:
        """The last link's test passed: the next one may follow a link from its page."""
        self.clean = True


@pytest.fixture(scope="module")
def shared_links(browser: Browser) -> Iterator[SharedLinks]:
    context = browser.new_context()
    yield SharedLinks(context)
    context.close()


@pytest.mark.parametrize(("path", "block", "query", "expected"), SHARED_LINKS)
def test_a_hostile_shared_link_gets_messages_by_its_fields(shared_links: SharedLinks, built_site: BuiltSite, path: str, block: str,
                                                          query: dict, expected: dict) -> None:
    search = "?" + "&".join(f"{block}.{name}={text}" for name, text in query.items())
    page = shared_links.open(f"{built_site.url}{path}{search.replace('<', '%3C').replace('>', '%3E')}#{block}")
    dialogs = shared_links.dialogs
    calc = page.locator(f"#{block}")
    for field, message in expected.items():
        expect(error_by(calc, field)).to_contain_text(message, timeout=BOOT_MS)
        assert_short_message(error_by(calc, field).inner_text(), message)
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready")
    started = time.monotonic()
    assert page.evaluate("1 + 1") == 2 and time.monotonic() - started < 1  # the page answers at once
    sizes = calc.locator("[data-figure-art]").evaluate_all("arts => arts.map(a => a.innerHTML.length)")
    assert all(size < 120_000 for size in sizes)
    assert dialogs == [] and calc.locator("script, img").count() == 0
    shared_links.passed()


def block_worker(page: Page, seconds: float) -> None:
    """Keep the calculator worker's thread busy, as a runaway computation would."""
    worker = next(w for w in page.workers if "calc-worker" in w.url)
    worker.evaluate(f"setTimeout(() => {{ const end = Date.now() + {seconds * 1000}; while (Date.now() < end) {{}} }}, 0)")


def one_micro_batch(calc: Locator) -> None:
    """Whatever the page opens at, one micro-batch: the bubble is then (pp - 1) / pp."""
    calc.locator('[data-field="micro_batches"]').fill("1")
    pp = int(calc.locator('[data-field="pp"]').input_value())
    expect(calc.locator('[data-output="bubble"]')).to_have_attribute("data-value", re.compile(rf"^{(pp - 1) / pp:.4f}".rstrip("0")))


def test_a_stuck_request_is_stopped_and_the_worker_restarted(page: Page, built_site: BuiltSite) -> None:
    calc = live_calculator(page, built_site, PARALLELISM_PAGE, PARALLELISM)
    one_micro_batch(calc)
    status = calc.locator(".lm-calc__status")
    block_worker(page, 60)
    calc.locator('[data-field="pp"]').fill("8")
    started = time.monotonic()
    expect(status).not_to_have_attribute("data-state", "ready", timeout=2_000)  # "working", not "ready"
    while time.monotonic() - started < 2.5:  # never "ready" while the request is stuck
        assert status.get_attribute("data-state") != "ready"
        assert page.evaluate("1 + 1") == 2  # and the page stays responsive
        time.sleep(0.2)
    expect(error_by(calc, "pp")).to_contain_text("took longer than 3 s", timeout=5_000)
    expect(status).to_contain_text("restarted")
    expect(calc.locator('[data-field="pp"]')).to_have_attribute("aria-invalid", "true")
    expect(status).to_have_attribute("data-state", "ready", timeout=BOOT_MS)  # a fresh worker
    calc.locator('[data-field="pp"]').fill("4")
    expect(calc.locator('[data-output="bubble"]')).to_have_text("75 %", timeout=10_000)
    expect(error_by(calc, "pp")).to_have_text("")


def test_edits_during_a_stuck_request_do_not_queue_behind_it(page: Page, built_site: BuiltSite) -> None:
    calc = live_calculator(page, built_site, PARALLELISM_PAGE, PARALLELISM)
    one_micro_batch(calc)
    block_worker(page, 60)
    field = calc.locator('[data-field="pp"]')
    for text in ("2", "3", "4", "5", "6", "7", "8"):
        field.fill(text)
    # The first edit is stuck; the others collapse into the latest, asked of the fresh worker.
    expect(calc.locator(".lm-calc__status")).to_contain_text("restarted", timeout=6_000)
    expect(calc.locator('[data-output="bubble"]')).to_have_text("87.5 %", timeout=BOOT_MS)
    expect(calc.locator(".lm-calc__status")).to_have_attribute("data-state", "ready")
    expect(error_by(calc, "pp")).to_have_text("")
    assert re.search(r"pp=8\b", page.url) or field.input_value() == "8"
