"""Quality lints: stale examples and readability warnings, each at the file and line to change."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mini_project import BOARDS, MiniProject

from generator.checks import lints
from generator.checks.lints import (
    check_frontier_age,
    check_markdown_html,
    check_quality,
    check_readability,
    check_stale_examples,
    sentences,
)
from generator.cli import main
from generator.diagnostics import ContentError
from generator.pipeline import load_map
from generator.project import Project

MAP = (
    "title: Mini map\n"
    "introduction: A tiny map used by the tests.\n"
    "depths:\n"
    "  - {key: D1, name: Story, audience: Beginners}\n"
    "  - {key: D2, name: Picture, audience: Curious beginners}\n"
    "  - {key: D3, name: Worked example, audience: Learners}\n"
    "  - {key: D4, name: Mechanism, audience: Practitioners}\n"
    "  - {key: D5, name: Frontier, audience: Experts}\n"
    "layers:\n"
    "  - {number: 1, name: Ground, description: What everything stands on.}\n"
    "  - {number: 2, name: Middle, description: What is built on the ground.}\n"
    "edge_kinds:\n"
    "  - {id: powers, label: powers, colour: \"#c62828\"}\n"
)
RULES = (
    "readability:\n"
    "  D1: {max_sentence_words: 8, max_average_words: 6, banned: [bandwidth, neural network, parameter]}\n"
    "  D2: {max_sentence_words: 20, banned: [parameter]}\n"
)


def topic(depths: str, examples: str = "") -> str:
    return "id: boards\ntitle: Boards\nlayer: 2\nsummary: Where chips are mounted.\ndepths:\n" + depths + examples


def warnings_of(mini: MiniProject) -> list:
    return check_readability(mini.load())


def line_of(path, needle: str) -> int:
    return next(n for n, row in enumerate(path.read_text().splitlines(), 1) if needle in row)


# --- stale examples --------------------------------------------------------------------------


def test_examples_older_than_a_year_warn_at_the_as_of_line(mini: MiniProject) -> None:
    content = mini.load()
    [warning] = check_stale_examples(content, today=date(2027, 11, 30))
    path = mini.content / "layer-1" / "power.yaml"
    assert (warning.file, warning.line, warning.severity) == ("content/layer-1/power.yaml", line_of(path, "as_of:"), "warning")
    assert warning.path == "examples.as_of"
    assert "last checked on 2026-10-30, 396 days ago (more than 365)" in warning.message


def test_examples_within_the_age_limit_do_not_warn(mini: MiniProject) -> None:
    assert check_stale_examples(mini.load(), today=date(2027, 10, 30)) == []  # exactly 365 days


def test_the_age_limit_is_read_from_map_yaml(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + "stale_examples_after_days: 30\n")
    assert check_stale_examples(mini.load(), today=date(2026, 11, 29)) == []
    [warning] = check_stale_examples(mini.load(), today=date(2026, 11, 30))
    assert "31 days ago (more than 30)" in warning.message


def test_a_topic_without_examples_never_warns(mini: MiniProject) -> None:
    mini.remove("layer-1/power.yaml")
    mini.write("layer-2/chips.yaml", "id: chips\ntitle: Chips\nlayer: 2\nsummary: s\ndepths:\n  D2:\n    body: b\n")
    assert check_stale_examples(mini.load(), today=date(2100, 1, 1)) == []


# --- readability -----------------------------------------------------------------------------


def test_a_banned_word_warns_at_its_own_line_and_column(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    path = mini.write("layer-2/boards.yaml", topic(
        "  D1:\n"
        "    body: |\n"
        "      Boards hold chips.\n"
        "      Wires give them bandwidth.\n"
    ))
    [warning] = warnings_of(mini)
    assert warning.severity == "warning"
    assert (warning.line, warning.column) == (line_of(path, "bandwidth"), 23)
    assert warning.message == "D1 reads like D2: 'bandwidth' is on D1's banned list"
    assert warning.path == "depths.D1.body"


def test_a_word_banned_at_d1_and_d2_reads_like_the_next_depth(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic("  D1:\n    hook: How many parameters?\n"))
    [warning] = warnings_of(mini)
    assert warning.message == "D1 reads like D3: 'parameters' is on D1's banned list"
    assert warning.path == "depths.D1.hook"


def test_banned_phrases_match_across_line_breaks_and_any_case(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    path = mini.write("layer-2/boards.yaml", topic(
        "  D1:\n"
        "    analogy: |\n"
        "      Like a Neural\n"
        "      Network of friends.\n"
    ))
    [warning] = warnings_of(mini)
    assert warning.message == "D1 reads like D2: 'Neural Network' is on D1's banned list"
    assert (warning.line, warning.column) == (line_of(path, "Like a Neural"), 14)


def test_banned_words_inside_other_words_citations_or_formulas_do_not_warn(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.add_source("bandwidth2020")
    mini.write("layer-2/boards.yaml", topic(
        "  D1:\n"
        "    body: Parameterised boards are fun [@bandwidth2020].\n"
        "  D4:\n"
        "    body: Bandwidth is fine here [@bandwidth2020].\n"
        "    formulas: bandwidth = bytes / seconds\n",
    ))
    assert warnings_of(mini) == []


def test_every_prose_part_of_a_depth_is_read(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic(
        "  D1:\n"
        "    hook: Bandwidth?\n"
        "    flow:\n"
        "      title: Bandwidth flows\n"
        "      steps:\n"
        "        - {label: Bandwidth, detail: more bandwidth}\n"
        "        - {label: Stop}\n"
        "    breaks: Some bandwidth.\n"
        "    tradeoffs: [Less bandwidth.]\n"
    ))
    paths = sorted(w.path for w in warnings_of(mini))
    assert paths == ["depths.D1.breaks", "depths.D1.flow.steps[0].detail", "depths.D1.flow.steps[0].label",
                     "depths.D1.flow.title", "depths.D1.hook", "depths.D1.tradeoffs[0]"]


def test_a_long_sentence_warns_at_the_line_where_it_starts(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    path = mini.write("layer-2/boards.yaml", topic(
        "  D2:\n"
        "    body: |\n"
        "      Boards hold chips. They sit in a box. Then one very long sentence goes on\n"
        "      and on and on, far past the limit for this depth, until the reader has\n"
        "      forgotten how it began.\n"
    ))
    [warning] = warnings_of(mini)
    assert warning.path == "depths.D2.body"
    assert (warning.line, warning.column) == (line_of(path, "Then one very long"), 45)
    assert warning.message == "a sentence of 26 words; D2 sentences have at most 20"


def test_an_average_over_the_limit_warns_once_at_the_depth(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    path = mini.write("layer-2/boards.yaml", topic(
        "  D1:\n"
        "    hook: Why do boards hold chips so well?\n"
        "    body: Boards hold the chips very tightly. Chips sit on boards all day.\n"
    ))
    [warning] = warnings_of(mini)
    assert warning.path == "depths.D1"
    assert warning.line == line_of(path, "D1:")
    assert warning.message == "D1 sentences average 6.3 words; the limit is 6"  # (7 + 6 + 6) / 3


def test_depths_without_a_rule_are_not_read(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic("  D4:\n    body: A very long sentence about bandwidth and parameters that goes on and on.\n"))
    assert warnings_of(mini) == []


def test_no_readability_section_means_no_readability_warnings(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", topic("  D1:\n    body: A very long sentence about bandwidth that goes on and on and on and on.\n"))
    assert warnings_of(mini) == []


# --- sentences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("One two three. Four five!", [3, 2]),
        ("Chips, e.g. GPUs, do sums. Done.", [5, 1]),
        ("It costs 1.5 times more. Yes.", [5, 1]),
        ("It is {{ parallelism.days(dp=16) }} long [@kaplan2020].", [4]),
        ("Intro:\n\n- **First** item here\n- second\n", [1, 3, 1]),
        ("See [the paper](https://example.org/a.b) now.", [4]),
        ("No full stop at the end", [6]),
    ],
)
def test_sentences_are_split_and_counted_as_read(text: str, counts: list[int]) -> None:
    assert [s.words for s in sentences(text)] == counts


def test_sentence_offsets_point_at_the_first_word() -> None:
    text = "First one.  Second one.\n- Third"
    assert [text[s.offset:].split()[0] for s in sentences(text)] == ["First", "Second", "Third"]


@pytest.mark.parametrize(("unit", "words"), [("x. ", 1), ("e.g. ", 1), ("[", 0), ("[@", 0), ("{{", 0), ("[a](", 1),
                                             ("[a](b (c", 3)])
def test_sentences_read_a_long_text_in_one_pass(unit: str, words: int) -> None:
    """Issue 33, F6: each stop searched the whole text before it for an abbreviation, and citations,
    computed numbers and links were read from every opening to the end: 20,000 repeats took from
    2 s to minutes. Now the words come out the same, in one pass."""
    assert sum(s.words for s in sentences(unit * 20_000)) == words * 20_000


@given(st.lists(st.sampled_from(["GPU", "gpus", "token", "tokens", "Tokenes", "neural", "network", "all-reduce",
                                 "all", "reduce", "C++", "x", "-", " ", "\n", ".", "(", "é", "ſ"]), max_size=12),
       st.sampled_from(["gpu", "token", "neural network", "all-reduce", "reduce", "C++", "x", "s"]))
@settings(max_examples=300, deadline=None)
def test_a_banned_term_is_only_skipped_where_it_cannot_match(words: list[str], term: str) -> None:
    text = "".join(words)
    tokens = {token.casefold() for token in lints._TOKEN.findall(text)}
    if lints._term_pattern(term).search(text):
        assert lints._could_match(term, tokens)


def test_a_long_banned_list_is_refused_and_each_term_compiled_once(mini: MiniProject) -> None:
    terms = [f"term{n}" for n in range(201)]
    mini.write("map.yaml", MAP + "readability:\n  D1: {banned: [" + ", ".join(terms) + "]}\n")
    assert "`readability.D1.banned` has more than 200 items (201)" in mini.report()
    mini.write("map.yaml", MAP + "readability:\n  D1: {banned: [" + ", ".join(terms[:200]) + "]}\n")
    mini.write("layer-2/boards.yaml", topic("  D1:\n    body: term7 and term9.\n    tradeoffs: [term7 again, term8]\n"))
    lints._term_pattern.cache_clear()
    warned = [w.message for w in warnings_of(mini)]
    assert len(warned) == 4 and "'term7' is on D1's banned list" in warned[0]  # term7, term9; term7, term8
    assert lints._term_pattern.cache_info().misses == 3  # only the terms the text holds, each once


# --- map.yaml validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ("readability:\n  D9: {max_sentence_words: 10}\n", "readability"),
        ("readability:\n  D1: {max_sentence_words: 0}\n", "max_sentence_words"),
        ("readability:\n  D1: {max_words: 10}\n", "max_words"),
        ("readability:\n  D1: {banned: bandwidth}\n", "banned"),
        ("stale_examples_after_days: 0\n", "stale_examples_after_days"),
    ],
)
def test_bad_lint_settings_are_errors_in_map_yaml(mini: MiniProject, section: str, expected: str) -> None:
    mini.write("map.yaml", MAP + section)
    report = mini.report()
    assert "content/map.yaml:" in report and expected in report


# --- wiring ----------------------------------------------------------------------------------


def test_layermap_check_prints_lint_warnings_and_still_succeeds(mini: MiniProject, capsys: pytest.CaptureFixture[str]) -> None:
    mini.write("map.yaml", MAP + RULES)
    path = mini.write("layer-2/boards.yaml", topic("  D1:\n    body: Wires give boards bandwidth.\n"))
    assert main(["--project", str(mini.root), "check"]) == 0
    out, err = capsys.readouterr()
    assert f"content/layer-2/boards.yaml:{line_of(path, 'bandwidth')}:" in err
    assert "warning: `depths.D1.body` D1 reads like D2: 'bandwidth' is on D1's banned list" in err
    assert "1 warning(s)" in out


def test_load_map_keeps_lint_warnings_with_the_loading_warnings(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic("  D1:\n    body: Wires give boards bandwidth.\n"))
    mini.add_source("lee2021")  # cited by no topic: a warning of the loading's checks
    content, _ = load_map(Project(mini.root))
    messages = [w.message for w in content.warnings]
    assert any("banned list" in m for m in messages)
    assert any("is cited by no topic" in m for m in messages)


def test_lint_warnings_never_stop_a_build_with_errors_from_being_reported(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic("  D1:\n    body: Wires give boards bandwidth {{ nosuch.output() }}.\n"))
    with pytest.raises(ContentError) as raised:
        load_map(Project(mini.root))
    assert raised.value.log.errors and any("banned list" in w.message for w in raised.value.log.warnings)


def test_check_quality_is_both_lints(mini: MiniProject) -> None:
    mini.write("map.yaml", MAP + RULES)
    mini.write("layer-2/boards.yaml", topic("  D1:\n    body: Wires give boards bandwidth.\n"))
    found = check_quality(mini.load(), today=date(2030, 1, 1))
    assert sorted(w.path for w in found) == ["depths.D1.body", "examples.as_of"]


# --- an old frontier ------------------------------------------------------------------------

TODAY = date(2026, 12, 3)


def frontier(mini: MiniProject, citations: str, map_extra: str = "") -> list:
    mini.write("map.yaml", MAP + map_extra)
    mini.add_source("old2023", date="2023-05")
    mini.add_source("new2026", date="2026-02")
    mini.write("layer-2/boards.yaml", topic(
        "  D1:\n    body: Boards hold chips [@old2023; @new2026].\n"
        f"  D5:\n    body: What research measured{citations}.\n"
    ))
    return check_frontier_age(mini.load(), today=TODAY)


def test_a_frontier_citing_only_old_work_is_a_warning_at_its_d5(mini: MiniProject) -> None:
    [warning] = frontier(mini, " [@old2023]")
    assert (warning.file, warning.line, warning.path) == ("content/layer-2/boards.yaml", 8, "depths.D5")
    assert warning.message == ("D5 is the research frontier, but its newest source is from May 2023 "
                               "(more than 18 months before December 2026)")
    assert "frontier_source_age_months" in warning.hint


def test_one_recent_source_is_enough(mini: MiniProject) -> None:
    assert frontier(mini, " [@old2023; @new2026]") == []


def test_a_frontier_citing_nothing_says_so(mini: MiniProject) -> None:
    [warning] = frontier(mini, "")
    assert "it cites no source" in warning.message


def test_a_shorter_age_set_in_the_map_warns_sooner(mini: MiniProject) -> None:
    assert frontier(mini, " [@new2026]", "frontier_source_age_months: 6\n")  # ten months old


def test_a_longer_age_set_in_the_map_accepts_older_work(mini: MiniProject) -> None:
    assert frontier(mini, " [@old2023]", "frontier_source_age_months: 48\n") == []


def test_a_year_only_date_counts_from_january(mini: MiniProject) -> None:
    mini.add_source("year2025", date="2025")  # January 2025: 23 months before December 2026
    mini.write("layer-2/boards.yaml", topic("  D5:\n    body: Measured [@year2025].\n"))
    mini.write("map.yaml", MAP)
    [warning] = check_frontier_age(mini.load(), today=TODAY)
    assert "January 2025" in warning.message


def test_html_the_sanitiser_removes_from_a_markdown_field_warns_at_its_line(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("    body: Boards hold chips.", (
        "    body: |\n"
        "      Fine <b>bold</b> and `<script>` in code.\n"
        "      Then <img src=x onerror=y()> here.\n")))
    warnings = [d for d in check_markdown_html(mini.load()) if d.file.endswith("boards.yaml")]
    assert [(d.path, d.message) for d in warnings] == [
        ("depths.D1.body", "the page will not show `onerror` on <img>: raw HTML here passes an allow-list")]
    line = (mini.content / "layer-2" / "boards.yaml").read_text().splitlines()[warnings[0].line - 1]
    assert "<img src=x onerror=y()>" in line


def test_html_in_a_plain_text_field_is_escaped_not_reported(mini: MiniProject) -> None:
    mini.write("layer-2/boards.yaml", BOARDS.replace("title: Boards", "title: Boards <script>x</script>"))
    assert [d for d in check_markdown_html(mini.load()) if d.file.endswith("boards.yaml")] == []
