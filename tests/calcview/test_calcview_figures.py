"""SVG figures: well-formed, accessible, and drawn from the numbers."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import parallelism
from calcview import draw_figures, evaluate, figures
from calcview.figures import declared_names, named_values, pipeline_runs
from calcview.svg_parts import escape

SVG = "{http://www.w3.org/2000/svg}"


def figure(name: str, **raw: str) -> ET.Element:
    result = evaluate(parallelism, raw)
    assert result["ok"], result["errors"]
    return ET.fromstring(result["figures"][name])


def test_memory_bar_marks_a_scenario_that_does_not_fit():
    svg = figure("memory")
    assert svg.get("role") == "img"
    assert "does not fit" in svg.get("aria-label")
    assert "lm-fig--over" in svg.get("class")
    assert svg.findall(f".//{SVG}rect[@class='lm-fig-over']")
    texts = [element.text for element in svg.iter(f"{SVG}text")]
    assert "Does not fit: needs 1.3 TB, has 85.9 GB"  # 80 GiB, in decimal GB like the needs in texts
    assert "Weights 140 GB" in texts and "Optimizer state 840 GB" in texts


def test_pipeline_figure_says_it_draws_plain_1f1b_without_virtual_stages():
    # Regression: the figure ignores virtual stages, and its label did not say so.
    label = figure("pipeline", pp="8", micro_batches="8", virtual_stages="4").get("aria-label")
    assert "plain 1F1B" in label and "ignoring virtual stages" in label


def test_memory_bar_for_a_scenario_that_fits():
    svg = figure("memory", tp="8", pp="4", micro_batches="4")
    assert "lm-fig--over" not in svg.get("class")
    assert not svg.findall(f".//{SVG}rect[@class='lm-fig-over']")
    assert svg.get("aria-label").endswith("; fits.")


def test_memory_bar_parts_are_proportional_to_the_breakdown():
    svg = figure("memory", tp="8", pp="4", micro_batches="4")
    widths = [float(rect.get("width")) for rect in svg.findall(f".//{SVG}rect") if "lm-fig-part " in rect.get("class")]
    assert len(widths) == 5  # weights, gradients, optimizer, gathered layer (none here), activations
    assert widths[2] / widths[0] == pytest.approx(6, rel=0.01)  # 12 bytes vs 2 bytes
    assert widths[3] == 0
    assert widths[4] / widths[0] == pytest.approx(22.8e9 / 4.375e9, rel=0.01)  # 80 layers × 34sbh/8 vs 70B × 2 B / 32


CALCULATOR_CSS = (Path(__file__).resolve().parents[2] / "calcview" / "calculator.css").read_text(encoding="utf-8")


def test_colours_come_from_css_custom_properties_through_classes():
    """No inline style (the site's CSP forbids it): each fill class is a --lm-calc-* rule in the CSS."""
    for name in ("memory", "pipeline"):
        svg = figure(name, pp="4", micro_batches="4")
        assert all(el.get("style") is None for el in svg.iter())
        for rect in svg.iter(f"{SVG}rect"):
            fills = [c for c in rect.get("class").split() if c.startswith("lm-fill-")] or ["lm-fig-over"]
            assert re.search(rf"\.{fills[0]} {{[^}}]*var\(--lm-calc-", CALCULATOR_CSS), fills


def with_class(svg, tag: str, css_class: str) -> list:
    return [el for el in svg.iter(f"{SVG}{tag}") if css_class in el.get("class", "").split()]


def test_pipeline_schedule_follows_stages_and_micro_batches():
    svg = figure("pipeline", pp="8", micro_batches="1")
    assert len(with_class(svg, "rect", "lm-fig-forward")) == 8
    assert len(with_class(svg, "rect", "lm-fig-backward")) == 8
    assert "8 stages and 1 micro-batch per step" in svg.get("aria-label")
    assert "87.5 %" in svg.get("aria-label")


def test_pipeline_schedule_stays_small_for_many_micro_batches():
    result = evaluate(parallelism, {"pp": "128", "micro_batches": "1024"})
    svg = ET.fromstring(result["figures"]["pipeline"])
    assert len(list(svg.iter(f"{SVG}rect"))) <= 2 * 128 + 1 + 3  # runs + idle background + swatches
    assert len(result["figures"]["pipeline"]) < 60_000


def test_pipeline_without_stages_says_there_is_no_bubble():
    assert "no idle bubble" in figure("pipeline").get("aria-label")


def test_pipeline_runs_leave_each_stage_idle_for_the_bubble_share():
    for stages, micro_batches in [(1, 1), (2, 3), (8, 1), (8, 128), (5, 7)]:
        slots = 2 * (micro_batches + stages - 1)
        runs = pipeline_runs(stages, micro_batches)
        for stage in range(stages):
            mine = sorted((start, end) for s, start, end in runs if s == stage)
            assert mine[0][1] <= mine[1][0] and mine[1][1] <= slots  # forward before backward, inside the step
            busy = sum(end - start for start, end in mine)
            assert (slots - busy) / slots == (stages - 1) / (micro_batches + stages - 1)
        # a micro-batch's forward pass reaches the next stage one slot later
        forwards = {s: start for s, start, end in runs if start == s}
        assert all(forwards[s] == s for s in range(stages))


@given(st.text())
def test_escape_matches_the_standard_librarys_html_escape(text):
    assert escape(text) == html.escape(text)


def test_escaped_text_round_trips_through_an_xml_parser():
    text = """Tom & Jerry's <"best"> run"""
    element = ET.fromstring(f"<t a=\"{escape(text)}\" b='{escape(text)}'>{escape(text)}</t>")
    assert element.get("a") == element.get("b") == element.text == text


# --- the last drawing is reused when nothing it is drawn from changed ---------------------------

def test_named_values_are_the_declarations_strings_that_name_values():
    memory = next(f for f in parallelism.FIGURES if f["kind"] == "memory_bar")
    values = evaluate(parallelism, {})["values"]
    names = [name for name, _ in named_values(declared_names(memory), values)]
    assert sorted(names) == sorted([part["value"] for part in memory["parts"]] + [memory["capacity"]])
    declaration = {"name": "x", "parts": [{"value": "tp"}], "title": "Not a value", "height": 3}
    assert declared_names(declaration) == ("x", "tp", "Not a value")
    assert named_values(declared_names(declaration), {"tp": 8}) == (("tp", "8"),)
    assert named_values(("n",), {"n": 1}) != named_values(("n",), {"n": 1.0})  # exact, by repr


def counting_kinds(monkeypatch) -> dict[str, int]:
    calls: dict[str, int] = {}

    def counted(kind, draw):
        def wrapper(figure, values):
            calls[kind] = calls.get(kind, 0) + 1
            return draw(figure, values)
        return wrapper

    monkeypatch.setattr(figures, "_last_drawn", {})
    for kind, draw in list(figures.FIGURE_KINDS.items()):
        monkeypatch.setitem(figures.FIGURE_KINDS, kind, counted(kind, draw))
    return calls


def test_a_figure_is_drawn_again_only_when_what_it_draws_changed(monkeypatch):
    calls = counting_kinds(monkeypatch)
    first = evaluate(parallelism, {"params": "70"})["figures"]
    second = evaluate(parallelism, {"params": "71"})["figures"]  # memory changes, pipeline does not
    assert calls == {"memory_bar": 2, "pipeline_schedule": 1}
    assert second["pipeline"] == first["pipeline"] and second["memory"] != first["memory"]
    evaluate(parallelism, {"params": "71", "pp": "4"})
    assert calls == {"memory_bar": 3, "pipeline_schedule": 2}


def test_an_other_declaration_under_the_same_names_is_drawn_afresh(monkeypatch):
    values = evaluate(parallelism, {})["values"]
    calls = counting_kinds(monkeypatch)
    pipeline = next(f for f in parallelism.FIGURES if f["kind"] == "pipeline_schedule")
    retitled = {**pipeline, "title": "Another title"}
    module = SimpleNamespace(__name__=parallelism.__name__, FIGURES=[pipeline])
    draw_figures(module, values)
    module.FIGURES = [retitled]
    assert draw_figures(module, values)["pipeline"].count("Another title") == 2  # aria-label and <title>
    assert calls == {"pipeline_schedule": 2}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({"params": st.sampled_from(["8", "70", "405"]), "pp": st.sampled_from(["1", "2", "8"]),
                                        "micro_batches": st.sampled_from(["1", "4", "64"]), "tp": st.sampled_from(["1", "8"])}),
                min_size=1, max_size=8))
def test_reused_drawings_equal_fresh_ones_over_any_sequence_of_changes(scenarios):
    for raw in scenarios:
        result = evaluate(parallelism, raw)
        fresh = {f["name"]: figures.FIGURE_KINDS[f["kind"]](f, result["values"]) for f in parallelism.FIGURES}
        assert result["figures"] == fresh


def test_long_legend_labels_flow_into_rows_without_overlapping_and_the_figure_grows():
    import re as _re

    from calcview.figures import share_bar
    from calcview.svg_parts import LEGEND_CHAR_WIDTH, PLOT_LEFT, PLOT_WIDTH

    names = ["Purchase and financing", "Electricity", "Other running costs", "Reserved (activations, runtime)", "KV cache"]
    figure = {"name": "f", "kind": "share_bar", "parts": [{"value": f"v{i}", "label": name} for i, name in enumerate(names)]}
    svg = share_bar(figure, {f"v{i}": 0.2 for i in range(len(names))})
    short = share_bar({**figure, "parts": figure["parts"][:2]}, {"v0": 0.5, "v1": 0.5})
    labels = [(float(x), float(y), text) for x, y, text in _re.findall(r'<text class="lm-fig-text" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)</text>', svg)]
    assert len({y for _, y, _ in labels}) >= 2  # more than one row
    for y in {y for _, y, _ in labels}:
        row = sorted((x, x + len(text) * LEGEND_CHAR_WIDTH) for x, row_y, text in labels if row_y == y)
        assert all(end <= next_start for (_, end), (next_start, _) in zip(row, row[1:]))  # no overlap
        assert row[-1][1] <= PLOT_LEFT + PLOT_WIDTH + 1  # inside the plot
    height = lambda s: float(_re.search(r'viewBox="0 0 \d+ ([\d.]+)"', s).group(1))  # noqa: E731
    assert height(svg) > height(short)


def test_five_parts_get_five_different_colours():
    from calcview.svg_parts import part_colour

    assert len({part_colour(i) for i in range(5)}) == 5


# --- size caps ---------------------------------------------------------------------------------


def test_a_pipeline_of_many_stages_draws_the_first_ones_and_says_so():
    declaration = {"name": "pipeline", "kind": "pipeline_schedule", "stages": "pp", "micro_batches": "m"}
    svg = figures.pipeline_schedule(declaration, {"pp": 1_000_000, "m": 1_000_000})
    root = ET.fromstring(svg)
    assert len([r for r in root.iter(f"{SVG}rect") if "lm-fig-forward" in r.get("class", "").split()]) == figures.MAX_DRAWN_STAGES
    assert f"First {figures.MAX_DRAWN_STAGES} of 1000000 stages drawn" in [t.text for t in root.iter(f"{SVG}text")]
    assert len(svg) < 30_000  # the repro built a 405 MB string


def test_every_figure_stays_under_the_cap_at_the_largest_declared_inputs():
    largest = {spec["name"]: str(spec["max"]) for spec in parallelism.INPUTS if spec["control"] != "select"}
    result = evaluate(parallelism, {**largest, "active_params": largest["params"], "top_k": "1"})
    assert result["ok"], result["errors"]
    assert all(len(svg) <= figures.MAX_SVG_CHARS for svg in result["figures"].values())


def test_a_drawing_past_the_cap_becomes_a_small_stand_in_that_says_so():
    stand_in = figures.bounded({"title": "Memory"}, "x" * (figures.MAX_SVG_CHARS + 1))
    assert len(stand_in) < 1_000 and "Memory: too large to draw for these values." in stand_in
    assert figures.bounded({}, "<svg/>") == "<svg/>"


def test_a_memory_bar_of_nothing_against_nothing_draws():
    declaration = {"name": "m", "kind": "memory_bar", "parts": [{"label": "Weights", "value": "w"}], "capacity": "c"}
    assert ET.fromstring(figures.memory_bar(declaration, {"w": 0, "c": 0})).get("role") == "img"


def curve_figure(points: list, marks: list) -> ET.Element:
    declaration = {"name": "c", "kind": "curve", "title": "Loss", "points": "p", "marks": "m", "x_label": "Size", "y_label": "loss"}
    return ET.fromstring(figures.curve(declaration, {"p": points, "m": marks}))


def test_a_curve_is_drawn_on_a_log_x_axis_with_its_marks_and_says_where_it_is_lowest():
    points = [[10**k, (k - 3) ** 2 + 1] for k in range(1, 6)]  # lowest at 1,000
    svg = curve_figure(points, [["Here", 1000, 1], ["There", 1e5, 5]])
    path = svg.find(f"{SVG}path").get("d")
    xs = [float(pair.split()[0]) for pair in path[1:].split("L")]
    assert xs == pytest.approx([12 + 456 * i / 4 for i in range(5)])  # equal steps per power of ten
    dots = svg.findall(f"{SVG}rect[@class]")
    dots = [dot for dot in dots if "lm-fig-mark" in dot.get("class")]
    assert [dot.find(f"{SVG}title").text for dot in dots] == ["Here: 1,000, 1", "There: 100,000, 5"]
    assert dots[0].get("class") != dots[1].get("class")
    assert "lowest at 1,000, 1; Here at 1,000, 1; There at 100,000, 5" in svg.get("aria-label")
    labels = [node.text for node in svg.iter(f"{SVG}text")]
    assert {"10", "100", "1,000", "10,000", "100,000"} <= set(labels)


def test_a_curve_keeps_its_valley_readable_when_one_end_shoots_up():
    """The y axis stops at twice the highest mark's rise: a far end is clipped, not the valley flattened."""
    points = [[1, 1000.0], [10, 2.0], [100, 1.0], [1000, 2.0]]
    svg = curve_figure(points, [["Low", 100, 1.0], ["Side", 10, 2.0]])
    ys = [float(pair.split()[1]) for pair in svg.find(f"{SVG}path").get("d")[1:].split("L")]
    assert ys[0] == pytest.approx(10)  # clipped at the top of the plot
    assert ys[2] == pytest.approx(160)  # the lowest point at the bottom
    assert ys[1] == pytest.approx(85)  # 2.0 is half-way up an axis running to 3.0


def test_a_label_in_a_sentence_keeps_its_acronyms_and_symbols() -> None:
    from calcview.svg_parts import in_sentence
    assert in_sentence("Weights") == "weights"
    assert in_sentence("Irreducible E") == "irreducible E"
    assert in_sentence("Too few parameters A/Nᵅ") == "too few parameters A/Nᵅ"
    assert in_sentence("KV cache") == "KV cache"
    assert in_sentence("6ND") == "6ND"
