"""Serve-start and save-to-page helpers (benchmarks/scale_serve.py): the edits must change exactly the
field they name and leave valid YAML, and the page poll must see what a reader would."""

from __future__ import annotations

import functools
import http.server
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from scale_serve import edit_prose, edit_title, full_content, marker_word, prose_keys, wait_for

TOPIC = """\
id: power
title: Power & cooling
layer: 1
summary: One line about power.
depths:
  D1:
    hook: Why?
    body: |
      Power comes in through thick cables and leaves the building as heat.
  D2:
    body: "Use {{ energy.total(power=5) }} watts because transformers step voltage down."
    analogy: A bakery.
  D4:
    body: >-
      Almost every watt ends as heat, so cooling budgets follow power budgets exactly.
"""


def test_edit_prose_replaces_one_plain_word_of_that_field_only() -> None:
    changed = edit_prose(TOPIC, ["depths", "D1", "body"], "zqmarker")
    before, after = yaml.safe_load(TOPIC), yaml.safe_load(changed)
    assert "zqmarker" in after["depths"]["D1"]["body"]
    assert after["depths"]["D1"]["body"] != before["depths"]["D1"]["body"]
    after["depths"]["D1"]["body"] = before["depths"]["D1"]["body"]
    assert after == before


def test_edit_prose_leaves_calculator_expressions_alone() -> None:
    changed = yaml.safe_load(edit_prose(TOPIC, ["depths", "D2", "body"], "zqmarker"))["depths"]["D2"]["body"]
    assert "{{ energy.total(power=5) }}" in changed and "zqmarker" in changed


def test_edit_prose_works_in_folded_scalars_too() -> None:
    changed = yaml.safe_load(edit_prose(TOPIC, ["depths", "D4", "body"], "zqmarker"))
    assert "zqmarker" in changed["depths"]["D4"]["body"]


@pytest.mark.parametrize("line", ["title: Power & cooling", "title: 'Power & cooling'", 'title: "Power & cooling"'])
def test_edit_title_appends_the_marker_in_any_quoting(line: str) -> None:
    text = TOPIC.replace("title: Power & cooling", line)
    assert yaml.safe_load(edit_title(text, "zqmarker"))["title"] == "Power & cooling zqmarker"


def test_prose_keys_take_the_depths_with_a_body_in_turn_the_deepest_by_default() -> None:
    assert prose_keys(TOPIC) == ["depths", "D4", "body"]
    assert [prose_keys(TOPIC, turn)[1] for turn in range(4)] == ["D1", "D2", "D4", "D1"]


def test_full_content_is_the_escaped_title_and_a_plain_phrase_from_the_end_of_the_deepest_body() -> None:
    assert full_content(TOPIC) == ["Power &amp; cooling", "follow power budgets"]


def test_markers_are_unique_single_words() -> None:
    rng = random.Random(1)
    words = {marker_word(rng) for _ in range(50)}
    assert len(words) == 50 and all(w.isalpha() and w.islower() for w in words)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", tmp_path
    server.shutdown()
    server.server_close()


def test_wait_for_returns_once_the_page_holds_every_needle(site: tuple[str, Path]) -> None:
    base, root = site
    (root / "page.html").write_text("<h1>Power &amp; cooling</h1>\n<p>follow\n  power budgets</p>", encoding="utf-8")
    assert wait_for(base + "page.html", ["Power &amp; cooling", "follow power budgets"], 5) is not None


def test_wait_for_gives_up_at_the_timeout_on_a_missing_page_or_marker(site: tuple[str, Path]) -> None:
    base, root = site
    (root / "page.html").write_text("<p>old text</p>", encoding="utf-8")
    assert wait_for(base + "page.html", ["zqmarker"], 0.3) is None
    assert wait_for(base + "missing.html", ["old"], 0.3) is None
