"""Learning plans as pages: the plan page, "Read first" on topic pages, the index and the picker."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from generator.emit.site_links import resolved_links
from generator.model.calculators import CalculatorBridge
from generator.model.graph import KnowledgeMap
from generator.pipeline import load_map
from generator.project import Project
from generator.render.pages import navigation, page_renderers
from generator.render.plan import plan_dependents, plan_pages, render_plan, render_plans_index
from generator.render.read_first import PLANS, plan_page, read_first_html
from tests.generator.mini_project import MINI
from tests.generator.plan_project import write_plan_project


@pytest.fixture(scope="module")
def kmap(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeMap:
    return load_map(Project(write_plan_project(tmp_path_factory.mktemp("plans"))))[1]


def test_a_plan_page_per_depth_of_each_topic_that_needs_others(kmap: KnowledgeMap) -> None:
    assert [path for path, _, _ in plan_pages(kmap)] == ["plans/boards-d1.md", "plans/chips-d2.md"]
    renderers = page_renderers(kmap, CalculatorBridge())
    assert {PLANS, "plans/boards-d1.md", "plans/chips-d2.md"} <= set(renderers)
    assert {"Learning plans": PLANS} in navigation(kmap)  # the plans themselves: not in the navigation


def test_the_plan_lists_each_step_in_order_at_its_depth_with_its_time(kmap: KnowledgeMap) -> None:
    text = resolved_links(render_plan(kmap, kmap.topics["boards"], "D1", CalculatorBridge()), "plans/boards-d1/index.html")
    steps = re.findall(r'<li class="lm-plan-step" data-topic="([^"]+)" data-depth="(D\d)">', text)
    assert steps == [("power", "D1"), ("chips", "D2"), ("boards", "D1")]
    assert "read these 3 topics in this order: about 3 min in all" in text
    assert '<a href="../../layer-1/power/#depth-d1">Power</a> at D1 · Story, about 1 min' in text
    assert "needed by Chips" in text and "the goal" in text
    assert 'search: {"exclude": true}' in text  # its text repeats the topics': search shows those


def test_the_whole_path_holds_each_depth_s_text_and_only_the_sources_it_cites(kmap: KnowledgeMap) -> None:
    text = render_plan(kmap, kmap.topics["boards"], "D1", CalculatorBridge())
    path = text[text.index("## The whole path"):]
    assert path.index("Power comes from the wall") < path.index("Chips do arithmetic") < path.index("Boards hold chips")
    assert "Watts are joules per second" not in path  # power's D4: not on this path
    listed = re.findall(r'<li id="source-([^"]+)">', text)
    assert listed == ["smith2020"]
    assert "<form" not in path  # no live calculator: its starting case as built


def test_read_first_names_the_direct_needs_and_links_the_plan(kmap: KnowledgeMap) -> None:
    line = resolved_links(read_first_html(kmap, kmap.topics["boards"], "D1"), "layer-2/boards/index.html")
    assert '<a href="../chips/#depth-d2">Chips</a> (D2)' in line
    assert "they need 1 more" in line and 'href="../../plans/boards-d1/">the whole plan, 3 topics' in line
    assert read_first_html(kmap, kmap.topics["power"], "D1") == ""


def test_the_index_and_the_picker_reach_every_topic_at_every_depth(kmap: KnowledgeMap) -> None:
    text = resolved_links(render_plans_index(kmap), "plans/index.html")
    targets = json.loads(html.unescape(re.search(r'data-targets="([^"]+)"', text).group(1)))
    assert targets["boards"] == {"D1": "boards-d1/"}
    assert targets["power"] == {"D1": "../layer-1/power/#depth-d1", "D4": "../layer-1/power/#depth-d4"}  # needs nothing
    assert 'action="./"' in text and 'class="lm-progress-tools"' in text


def test_an_edit_redoes_the_plans_and_topic_pages_that_show_that_topic(kmap: KnowledgeMap) -> None:
    assert plan_dependents(kmap, {"power"}) == {"plans/boards-d1.md", "plans/chips-d2.md", "layer-2/boards.md",
                                                "layer-2/chips.md"}
    assert plan_dependents(kmap, {"boards"}) == {"plans/boards-d1.md"}
    assert plan_page(kmap.topics["chips"], "D2") == "plans/chips-d2.md"


def test_a_map_without_prerequisites_has_no_plans(tmp_path: Path) -> None:
    shutil.copytree(MINI, tmp_path / "content")
    plain = load_map(Project(tmp_path))[1]
    assert not any(path.startswith("plans/") for path in page_renderers(plain, CalculatorBridge()))
