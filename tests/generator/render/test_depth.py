"""A depth's things to try (the end state is revealed with the answer, not before; Try it is in the
page from the start) and the depth switcher's tabs and notices, rendered before any script runs."""

from __future__ import annotations

import re

from mini_project import BOARDS, MiniProject

from generator.model.calculators import CalculatorBridge
from generator.render.depth import TRY_IT, depths_served, nearest_depth, render_depth_switcher
from generator.render.topic import render_topic

EXERCISE = """\
  D4:
    body: Arithmetic.
    calculator: {name: parallelism}
    exercises:
      - prompt: How many accelerators does 8-way tensor splitting take?
        answer: Eight, one per slice.
        steps:
          - set: {tp: 8, pp: 1, dp: 1}
        claims:
          - {output: accelerators, equals: 8}
      - prompt: Now split the pipeline four ways too.
        steps:
          - set: {tp: 8, pp: 4, dp: 1}
        claims:
          - {output: accelerators, equals: 32}
"""


def exercises(mini: MiniProject) -> list[str]:
    mini.write("layer-2/boards.yaml", BOARDS + EXERCISE)
    kmap = mini.kmap()
    text = render_topic(kmap, kmap.topics["boards"], CalculatorBridge())
    return re.findall(r'<li class="lm-exercise".*?</li>', text, flags=re.S)


def test_the_end_state_sits_inside_the_answer_disclosure(mini: MiniProject) -> None:
    first, _ = exercises(mini)
    prompt, disclosure = first.split('<details class="lm-answer"', 1)
    assert "data-end-output" not in prompt  # nothing gives the number away before the reader tries
    assert "<summary>Show answer</summary>" in disclosure
    assert disclosure.index("Eight, one per slice.") < disclosure.index('data-end-output="accelerators">8<')


def test_an_exercise_without_an_answer_still_hides_its_end_state(mini: MiniProject) -> None:
    _, second = exercises(mini)
    prompt, disclosure = second.split('<details class="lm-answer"', 1)
    assert "data-end-output" not in prompt
    assert "<summary>Show where it ends</summary>" in disclosure
    assert 'data-end-output="accelerators">32<' in disclosure


def test_try_it_is_in_the_page_hidden_above_the_disclosure_so_nothing_moves_when_the_script_runs(mini: MiniProject) -> None:
    first, second = exercises(mini)
    for item in (first, second):
        assert item.count(TRY_IT) == 1 and item.index(TRY_IT) < item.index('<details class="lm-answer"')
    assert 'class="md-button md-button--primary lm-try" hidden>Try it</button>' in TRY_IT


# --- the switcher in the page from the start (a steady first paint) ---------------------

NAMES = {"D1": "Story", "D2": "Picture", "D3": "Worked example", "D4": "Mechanism", "D5": "Frontier"}


def test_a_missing_depth_opens_the_nearest_and_a_tie_goes_to_the_gentler() -> None:
    assert nearest_depth("D3", ["D1", "D2", "D4"]) == "D2"
    assert nearest_depth("D3", ["D1", "D4"]) == "D4"
    assert nearest_depth("D3", ["D2", "D4"]) == "D2"
    assert nearest_depth("D5", ["D1", "D2"]) == "D2"
    assert nearest_depth("D2", ["D2", "D4"]) == "D2"


def test_each_present_depth_lists_the_wanted_depths_it_is_shown_for() -> None:
    assert depths_served(list(NAMES), ["D1", "D4"]) == {"D1": ["D1", "D2"], "D4": ["D3", "D4", "D5"]}
    assert depths_served(list(NAMES), list(NAMES)) == {key: [key] for key in NAMES}


def test_the_tabs_and_one_notice_per_missing_depth_are_in_the_page_hidden_until_scripts_run() -> None:
    html = render_depth_switcher(NAMES, depths_served(list(NAMES), ["D1", "D4"]))
    tablist = re.search(r'<div class="lm-depth-tabs" role="tablist" aria-label="Depth level"[^>]*\bhidden>(.*?)</div>', html)
    assert tablist
    tabs = re.findall(r'<button type="button" role="tab" id="tab-(depth-d\d)" [^>]*data-serves="([^"]*)" aria-controls="(depth-d\d)"',
                      tablist.group(1))
    assert tabs == [("depth-d1", "D1 D2", "depth-d1"), ("depth-d4", "D3 D4 D5", "depth-d4")]
    notices = re.findall(r'<p class="lm-depth-notice" role="status" data-wanted="(D\d)" hidden>([^<]*)</p>', html)
    assert [wanted for wanted, _ in notices] == ["D2", "D3", "D5"]
    assert notices[1][1] == "This topic has no D3 · Worked example yet, so it shows D4 · Mechanism, the nearest depth."


def test_a_depth_name_is_escaped_in_the_tabs_and_notices() -> None:
    html = render_depth_switcher({**NAMES, "D2": "<b>Picture</b>"}, depths_served(list(NAMES), ["D1", "D2"]))
    assert "<b>" not in html and "&lt;b&gt;Picture&lt;/b&gt;" in html
