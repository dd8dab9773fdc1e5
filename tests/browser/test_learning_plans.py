"""Learning plans and reading progress in Chromium (issue 31): pick a plan, mark topics read,
see the plan and the map follow, reload, go offline, move the marks to another browser, forget
them; the downloadable copy shows plans from disk; a plan prints as one document with only its
sources; axe finds nothing serious on the new pages.

The mini map with prerequisites (``tests/generator/plan_project.py``): boards needs chips, which
needs power; boards' plan is power D1 → chips D2 → boards D1.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from generator.cli import main
from generator.emit.portable import COPY_FOLDER
from generator.render.paths import OFFLINE_COPY
from tests.browser.test_accessibility import blocking_violations
from tests.conftest import ROOT, free_port, serve_folder, wait_for_worker_control
from tests.generator.plan_project import write_plan_project

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class PlanSite:
    site: Path
    url: str


@pytest.fixture(scope="module")
def plan_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlanSite]:
    root = write_plan_project(tmp_path_factory.mktemp("plan-site"))
    (root / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LAYERMAP_SITE_URL", url)
        assert main(["--project", str(root), "build"]) == 0
    server = serve_folder(root / "site", port)
    yield PlanSite(root / "site", url)
    server.shutdown()


def _errors(page: Page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: m.type == "error" and found.append(m.text))
    page.on("pageerror", lambda e: found.append(str(e)))
    return found


def _mark(page: Page, url: str, depth: str) -> None:
    page.goto(url + f"#depth-{depth.lower()}")
    button = page.locator(f'.lm-read-mark[data-depth="{depth}"] button')
    expect(button).to_be_visible()
    # shown from the head script on (no shift), it answers once progress.js has bound it
    expect(page.locator(f'.lm-read-mark[data-depth="{depth}"]')).to_have_attribute("data-bound", "")
    before = button.get_attribute("aria-pressed")
    button.press("Enter")  # by keyboard
    expect(button).not_to_have_attribute("aria-pressed", before or "")


def test_pick_a_plan_mark_topics_read_and_see_plan_and_map_follow(plan_site: PlanSite, page: Page) -> None:
    errors = _errors(page)
    page.goto(plan_site.url)
    page.select_option("#lm-plan-topic", "boards")
    page.select_option("#lm-plan-depth", "D1")
    page.get_by_role("button", name="Show my plan").click()
    page.wait_for_url(re.compile(r"/plans/boards-d1/$"))
    steps = page.locator(".lm-plan-step")
    expect(steps).to_have_count(3)
    assert [steps.nth(i).get_attribute("data-topic") for i in range(3)] == ["power", "chips", "boards"]
    expect(page.locator("[data-plan-progress]")).to_have_text("0 of 3 read in this browser.")

    _mark(page, plan_site.url + "layer-1/power/", "D1")
    _mark(page, plan_site.url + "layer-2/chips/", "D2")
    page.goto(plan_site.url + "plans/boards-d1/")
    expect(page.locator("[data-plan-progress]")).to_have_text("2 of 3 read in this browser.")
    expect(page.locator('.lm-plan-step[data-topic="power"]')).to_have_class(re.compile(r"\blm-done\b"))
    page.goto(plan_site.url)
    expect(page.locator('.lm-node[data-id="power"]')).to_have_class(re.compile(r"\blm-read\b"))
    assert "; read" in page.locator('.lm-node[data-id="chips"]').get_attribute("aria-label")
    expect(page.locator('.lm-node[data-id="boards"]')).not_to_have_class(re.compile(r"\blm-read"))

    page.reload()  # kept across a reload
    expect(page.locator('.lm-node[data-id="power"]')).to_have_class(re.compile(r"\blm-read\b"))
    _mark(page, plan_site.url + "layer-2/chips/", "D2")  # pressed again: undone
    page.goto(plan_site.url + "plans/boards-d1/")
    expect(page.locator("[data-plan-progress]")).to_have_text("1 of 3 read in this browser.")
    assert errors == []


def test_a_mark_clicked_before_its_script_arrives_is_kept(plan_site: PlanSite, page: Page) -> None:
    """On a slow network the mark shows (from the head script on) before progress.js binds it: a
    click then is noted, and the depth is marked read once the script arrives."""
    held = []
    page.route("**/progress.js", lambda route: held.append(route))  # the script, held back until after the click
    page.goto(plan_site.url + "layer-1/power/#depth-d1", wait_until="commit")
    mark = page.locator('.lm-read-mark[data-depth="D1"]')
    mark.locator("button").click()
    while not held:
        page.wait_for_timeout(50)
    assert mark.get_attribute("data-bound") is None  # clicked before progress.js could bind it
    expect(mark).to_have_attribute("data-lm-clicked", "")
    held[0].continue_()
    expect(mark.locator("button")).to_have_attribute("aria-pressed", "true")
    expect(mark).not_to_have_attribute("data-lm-clicked", "")
    page.unroute("**/progress.js")
    page.reload()  # stored
    expect(mark).to_have_attribute("data-bound", "")
    expect(mark.locator("button")).to_have_attribute("aria-pressed", "true")


def test_a_mark_below_the_chosen_depth_shows_in_progress(plan_site: PlanSite, page: Page) -> None:
    page.goto(plan_site.url)
    page.evaluate("localStorage.setItem('layermap.depth', 'D4')")
    _mark(page, plan_site.url + "layer-1/power/", "D1")
    page.goto(plan_site.url)
    expect(page.locator('.lm-node[data-id="power"]')).to_have_class(re.compile(r"\blm-reading\b"))
    assert "; in progress" in page.locator('.lm-node[data-id="power"]').get_attribute("aria-label")


def test_export_in_one_browser_import_in_another_and_forget(plan_site: PlanSite, browser: Browser,
                                                            tmp_path: Path) -> None:
    first = browser.new_context(accept_downloads=True)
    page = first.new_page()
    _mark(page, plan_site.url + "layer-1/power/", "D1")
    page.goto(plan_site.url + "plans/")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export my progress").click()
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["version"] == 1 and list(record["read"]) == ["power"] and list(record["read"]["power"]) == ["D1"]
    first.close()

    second = browser.new_context()
    page = second.new_page()
    page.goto(plan_site.url + "plans/boards-d1/")
    expect(page.locator("[data-plan-progress]")).to_have_text("0 of 3 read in this browser.")
    page.goto(plan_site.url + "plans/")
    page.set_input_files("#lm-progress-file", str(saved))
    expect(page.locator("[data-progress=status]")).to_contain_text("Added the marks of 1 topics")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 99, "read": {}}', encoding="utf-8")
    page.set_input_files("#lm-progress-file", str(bad))
    expect(page.locator("[data-progress=status]")).to_contain_text("is not a layermap progress file")
    page.goto(plan_site.url + "plans/boards-d1/")
    expect(page.locator("[data-plan-progress]")).to_have_text("1 of 3 read in this browser.")

    page.goto(plan_site.url + "plans/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Forget my progress").click()
    expect(page.locator("[data-progress=status]")).to_contain_text("Forgotten")
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('layermap.progress'))") == []
    second.close()


@pytest.mark.browser_context_args(service_workers="allow")  # the site's service worker is part of it
def test_marks_survive_going_offline_and_a_new_deployment(plan_site: PlanSite, context: BrowserContext, page: Page) -> None:
    _mark(page, plan_site.url + "layer-1/power/", "D1")
    page.goto(plan_site.url + "plans/boards-d1/")
    wait_for_worker_control(page)
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-plan-progress]")).to_have_text("1 of 3 read in this browser.")
    context.set_offline(False)
    page.evaluate("caches.keys().then((names) => Promise.all(names.map((n) => caches.delete(n))))")  # as a deployment does
    page.evaluate("navigator.serviceWorker.getRegistrations().then((r) => Promise.all(r.map((x) => x.unregister())))")
    page.reload()
    expect(page.locator("[data-plan-progress]")).to_have_text("1 of 3 read in this browser.")


def test_the_copy_from_disk_shows_plans_and_keeps_marks(plan_site: PlanSite, page: Page, tmp_path: Path) -> None:
    with zipfile.ZipFile(plan_site.site / OFFLINE_COPY) as archive:
        archive.extractall(tmp_path)
    copy = tmp_path / COPY_FOLDER
    errors = _errors(page)
    page.goto((copy / "plans" / "boards-d1" / "index.html").as_uri())
    expect(page.locator(".lm-plan-step")).to_have_count(3)
    expect(page.locator("[data-plan-progress]")).to_have_text("0 of 3 read in this browser.")
    page.locator(".lm-plan-step").first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"layer-1/power/index\.html#depth-d1$"))
    expect(page.locator('.lm-read-mark[data-depth="D1"]')).to_have_attribute("data-bound", "")  # see _mark
    page.locator('.lm-read-mark[data-depth="D1"] button').click()
    expect(page.locator('.lm-read-mark[data-depth="D1"] button')).to_have_attribute("aria-pressed", "true")
    page.goto((copy / "plans" / "boards-d1" / "index.html").as_uri())
    expect(page.locator("[data-plan-progress]")).to_have_text("1 of 3 read in this browser.")
    assert errors == []


def test_a_plan_prints_its_topics_in_order_and_only_its_sources(plan_site: PlanSite, page: Page, tmp_path: Path) -> None:
    from pypdf import PdfReader

    page.goto(plan_site.url + "plans/boards-d1/")
    pdf = tmp_path / "plan.pdf"
    page.pdf(path=str(pdf), format="A4")
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(str(pdf)).pages)
    order = [text.index(words) for words in ("Power comes from the wall", "Chips do arithmetic", "Boards hold chips")]
    assert order == sorted(order)
    assert "Watts are joules per second" not in text  # power's D4: not on this path
    assert "Show my plan" not in text and "Mark D1 as read" not in text and "Search" not in text.split("Learning plan")[0]
    sources = text[text.rindex("Sources"):]
    assert "1. Smith, Alice; Jones, Bob; Lee, Carol. All about power <https://example.org/power>" in sources
    assert " 2. " not in sources  # only what the path cites


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["plans/", "plans/boards-d1/", "layer-2/boards/"])
def test_plan_pages_have_no_serious_accessibility_violations(plan_site: PlanSite, page: Page, path: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(plan_site.url + path)
    page.wait_for_timeout(300)
    assert blocking_violations(page) == []


# --- hover previews ---------------------------------------------------------------------------------


def test_a_topic_link_previews_its_summary_on_hover_and_on_keyboard_focus(plan_site: PlanSite, page: Page) -> None:
    requests: list[str] = []
    page.goto(plan_site.url + "layer-2/boards/")
    page.wait_for_load_state("networkidle")
    page.on("request", lambda request: requests.append(request.url))
    link = page.locator(".lm-connections a", has_text="Chips").first
    link.hover()
    tip = page.locator("#lm-preview")
    expect(tip).to_be_visible()
    expect(tip).to_have_text("Chips Tiny calculators made of silicon.")
    expect(link).to_have_attribute("aria-describedby", "lm-preview")
    page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    link.focus()  # by keyboard: at once
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    assert not link.get_attribute("aria-describedby")
    assert [r for r in requests if not r.endswith("/favicon.png")] == []  # the preview came from the page (the browser asks for the icon itself)


def test_a_citation_previews_its_source_entry(plan_site: PlanSite, page: Page) -> None:
    page.goto(plan_site.url + "layer-1/power/#depth-d1")
    citation = page.locator('#depth-d1 a[href$="#source-smith2020"]').first
    citation.focus()
    tip = page.locator("#lm-preview")
    expect(tip).to_contain_text("All about power")
    assert tip.locator("a").count() == 0
    box, card = citation.bounding_box(), tip.bounding_box()
    assert card["y"] >= box["y"] + box["height"] or card["y"] + card["height"] <= box["y"]  # never over the link
