"""Exercises are played in CPython and every claim is proven, or the build fails with numbers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import calculators.parallelism as parallelism
from generator.calculation.exercises import claim_failure, plan, play
from generator.content.schema import Claim, Exercise
from generator.diagnostics import ContentError
from generator.pipeline import load_map
from generator.project import Project
from tests.conftest import ROOT
from tests.generator.fake_calculators import rounding_calculator


def exercise(steps: list[dict], claims: list[dict] | None = None) -> Exercise:
    return Exercise.model_validate({"prompt": "try", "steps": steps, "claims": claims or []})


def test_play_keeps_the_scenario_then_each_distinct_state() -> None:
    states = play(parallelism, {}, exercise([{"set": {"pp": 8}}, {"sweep": "micro_batches", "values": [1, 2, 4]}]))
    assert [s.inputs["micro_batches"] for s in states] == [1, 1, 2, 4]
    assert states[0].inputs["pp"] == 1 and states[1].inputs["pp"] == 8
    assert states[1].outputs["bubble"] == pytest.approx(7 / 8)


def test_pipeline_sweep_claims_hold_and_a_false_one_names_the_numbers() -> None:
    states = play(parallelism, {}, exercise([{"set": {"pp": 8}}, {"sweep": "micro_batches", "values": [1, 8, 16]}]))
    assert claim_failure(Claim(output="bubble", trend="falls"), states) is None
    failure = claim_failure(Claim(output="bubble", trend="rises"), states)
    assert failure == "bubble did not rise between pp 8 and micro_batches 8: 0.875 → 0.4667"


def test_becomes_checks_the_first_state_where_it_holds() -> None:
    steps = [{"set": {"tp": 1, "pp": 1, "micro_batches": 8}}, {"sweep": "tp", "values": [1, 2, 4, 8]},
             {"sweep": "pp", "values": [1, 2, 4]}]
    states = play(parallelism, {}, exercise(steps))
    assert claim_failure(Claim(output="fits", becomes=True, when={"tp": 8, "pp": 4}), states) is None
    wrong = claim_failure(Claim(output="fits", becomes=True, when={"tp": 8, "pp": 2}), states)
    assert wrong == "fits first becomes yes at tp 8, pp 4, not at tp 8, pp 2"


def test_ratio_between_consecutive_states() -> None:
    states = play(parallelism, {}, exercise([{"set": {"dp": 1}}, {"sweep": "dp", "values": [1, 2, 4]}]))
    assert claim_failure(Claim(output="days", ratio=0.5), states) is None
    assert claim_failure(Claim(output="accelerator_hours", trend="constant"), states) is None
    assert "not × 0.25" in claim_failure(Claim(output="days", ratio=0.25), states)


def test_unknown_output_and_input_are_reported() -> None:
    states = play(parallelism, {}, exercise([{"set": {"dp": 2}}]))
    with pytest.raises(ValueError, match="unknown output `speed`"):
        claim_failure(Claim(output="speed", equals=1), states)
    with pytest.raises(ValueError, match="unknown input `zz`"):
        play(parallelism, {}, exercise([{"set": {"zz": 2}}]))


@pytest.fixture
def project(tmp_path: Path) -> Project:
    shutil.copytree(ROOT / "content", tmp_path / "content")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return Project(tmp_path)


def test_a_false_claim_in_content_fails_the_check_with_file_and_line(project: Project) -> None:
    path = project.content_dir / "layer-3" / "gpu-clusters.yaml"
    text = path.read_text()
    assert "- {output: bubble, trend: falls}" in text
    path.write_text(text.replace("- {output: bubble, trend: falls}", "- {output: bubble, trend: rises}"))
    with pytest.raises(ContentError) as raised:
        load_map(project)
    [error] = raised.value.log.errors
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "trend: rises" in row)
    assert (error.file, error.line) == ("content/layer-3/gpu-clusters.yaml", line)
    assert "false claim: bubble did not rise between pp 8, micro_batches 1 and micro_batches 2: 0.875 → 0.7778" in error.message


def test_a_bad_prose_number_fails_the_check_at_its_line(project: Project) -> None:
    path = project.content_dir / "layer-3" / "gpu-clusters.yaml"
    text = path.read_text()
    path.write_text(text.replace("parallelism.total_state_bytes(params=70e9) }}", "parallelism.total_state_byte(params=70e9) }}", 1))
    with pytest.raises(ContentError) as raised:
        load_map(project)
    [error] = raised.value.log.errors
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "total_state_byte(" in row)  # the first
    assert error.line == line
    assert "has no output `total_state_byte`" in error.message


def test_every_exercise_in_the_content_is_proven() -> None:
    content, kmap = load_map(Project(ROOT))
    playable = [e for t in kmap.topics.values() for _, d in t.depths.present() for e in d.exercises if e.claims]
    assert len(playable) >= 4


def test_becomes_ignores_the_page_scenario_before_the_first_step() -> None:
    # The page's scenario (70B on 16-way tensor × 4-way pipeline) already fits; the exercise
    # starts from its first step (no splitting), so it first fits at 8-way tensor x 4-way pipeline.
    steps = [{"set": {"tp": 1, "pp": 1}}, {"sweep": "tp", "values": [1, 2, 4, 8]}, {"sweep": "pp", "values": [1, 2, 4]}]
    states = play(parallelism, {"tp": 16, "pp": 4, "micro_batches": 8}, exercise(steps))
    assert states[0].outputs["fits"] is True
    assert claim_failure(Claim(output="fits", becomes=True, when={"tp": 8, "pp": 4}), states) is None


def test_a_trend_over_an_output_that_is_not_a_number_is_a_false_claim_not_a_crash() -> None:
    from generator.calculation.exercises import State

    states = [State({"x": 1}, {"months": None}, "start"), State({"x": 1}, {"months": 30.0}, "x 1"),
              State({"x": 2}, {"months": None}, "x 2")]
    failure = claim_failure(Claim(output="months", trend="falls"), states)
    assert failure == "months is not a number between x 1 and x 2 (30 → None): a trend or ratio needs numbers at every step"
    assert "not a number" in claim_failure(Claim(output="months", ratio=2), states)


def test_states_are_what_the_page_computes_from_the_form_text_it_sets() -> None:
    states = play(rounding_calculator(), {}, exercise([{"set": {"x": 1234567.5}}]))
    assert states[-1].inputs == {"x": 1234567.5}  # as the exercise wrote it
    assert states[-1].raw == {"x": "1.23457e+06"}  # the text the page sets
    assert states[-1].outputs == {"y": 1234570}  # what the page computes from that text
    assert plan(states) == [{"x": "1"}, {"x": "1.23457e+06"}]


def test_a_claim_true_of_the_exact_number_but_not_of_the_page_is_false() -> None:
    states = play(rounding_calculator(), {}, exercise([{"set": {"x": 1234567.5}}]))
    failure = claim_failure(Claim(output="y", equals=1234567.5, tolerance=1e-9), states)
    assert failure == "y is 1234570 at x 1.235e+06, not 1234567.5"
