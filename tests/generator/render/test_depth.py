"""A depth's things to try: the end state is revealed with the answer, not before."""

from __future__ import annotations

import re

from generator.calculator_bridge import CalculatorBridge
from generator.render.topic import render_topic

from mini_project import BOARDS, MiniProject

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
