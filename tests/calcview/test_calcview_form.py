"""render_form: one raw HTML block with labels, pre-rendered results, and Markdown-safe."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import markdown
import pytest

from calculators import parallelism
from calcview import evaluate, render_form
from calcview.evaluate import key_outputs


class Collector(HTMLParser):
    """Elements (tag, attrs) of an HTML fragment, and whether every opened tag was closed."""

    VOID = {"input", "br", "hr", "img", "meta", "link"}

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture(scope="module")
def form_html() -> str:
    return render_form(parallelism, "calc-parallelism")


@pytest.fixture(scope="module")
def parsed(form_html) -> Collector:
    collector = Collector()
    collector.feed(form_html)
    collector.close()
    assert collector.stack == [], "unclosed elements"
    return collector


def by_id(parsed: Collector) -> dict[str, tuple[str, dict]]:
    return {attrs["id"]: (tag, attrs) for tag, attrs in parsed.elements if "id" in attrs}


def test_root_names_the_calculator(parsed):
    tag, attrs = parsed.elements[0]
    assert tag == "div" and attrs["class"] == "lm-calc" and attrs["id"] == "calc-parallelism"
    assert attrs["data-calculator"] == "parallelism"
    assert json.loads(attrs["data-defaults"])["params"] == "70"
    assert "calculators/parallelism.py" in json.loads(attrs["data-python-files"])


def test_ids_are_unique(parsed):
    ids = [attrs["id"] for _, attrs in parsed.elements if "id" in attrs]
    assert len(ids) == len(set(ids))


def test_every_input_has_a_visible_label_help_and_error_slot(parsed):
    elements = by_id(parsed)
    labels = {attrs["for"] for tag, attrs in parsed.elements if tag == "label"}
    text = "".join(parsed.text)
    for spec in parallelism.INPUTS:
        field_id = f"calc-parallelism-{spec['name']}"
        assert field_id in labels
        assert spec["label"] in text
        tag, attrs = elements[field_id]
        assert attrs["aria-describedby"] == f"{field_id}-help {field_id}-error"
        assert f"{field_id}-help" in elements and f"{field_id}-error" in elements
        if spec["control"] == "slider":
            assert elements[f"{field_id}-slider"][1]["type"] == "range"


def test_fields_show_the_default_values(parsed):
    elements = by_id(parsed)
    assert elements["calc-parallelism-params"][1]["value"] == "70"
    assert elements["calc-parallelism-peak_flops"][1]["value"] == "989"
    assert elements["calc-parallelism-utilisation"][1]["value"] == "0.4"
    selected = [attrs["value"] for tag, attrs in parsed.elements if tag == "option" and "selected" in attrs]
    # accelerator and model presets, then the selects: all-to-all format, sharding, sequence parallelism,
    # recompute, FLOPs rule, format
    assert selected == ["h100-sxm", "llama3-70b", "bf16", "none", "on", "selective", "params", "bf16"]


def test_results_and_figures_are_pre_rendered(form_html):
    assert re.search(r'<dd data-output="memory_each_bytes"[^>]*>1\.3 TB</dd>', form_html)
    assert re.search(r'<dd data-output="state_each_bytes"[^>]*>1\.12 TB</dd>', form_html)
    assert re.search(r'<dd data-output="days"[^>]*>184,000 days</dd>', form_html)
    assert form_html.count("<svg") == 2
    assert 'role="status"' in form_html and 'aria-live="polite"' in form_html
    assert 'data-action="reset"' in form_html


def test_key_results_are_repeated_at_a_glance_hidden_from_assistive_technology(form_html):
    glance = re.search(r'<p class="lm-calc__glance" aria-hidden="true">(.*?)</p>', form_html)
    assert glance, "the glance bar is in the form"
    assert form_html.index("lm-calc__glance") < form_html.index("</form>")  # sticky within the inputs
    display = evaluate(parallelism, {})["display"]
    shown = re.findall(r'<b data-glance="([^"]+)">([^<]+)</b>', glance.group(1))
    assert shown == [(spec["name"], html.escape(display[spec["name"]])) for spec in key_outputs(parallelism)]
    assert [name for name, _ in shown] == ["memory_each_bytes", "fits", "accelerators", "days"]


def test_without_marked_outputs_the_first_three_are_key():
    class Plain:
        OUTPUTS = [{"name": n, "label": n} for n in "abcd"]

    assert [spec["name"] for spec in key_outputs(Plain)] == ["a", "b", "c"]


def test_values_override_the_defaults_and_select_matching_presets():
    page = render_form(parallelism, "calc-b", {"tp": 8, "pp": 2, "memory_per_accelerator": 192 * 2**30, "peak_flops": "1307.4"})
    assert re.search(r'<dd data-output="memory_each_bytes"[^>]*>81\.4 GB</dd>', page)  # 70 GB state + 11.4 GB activations
    assert re.search(r'<dd data-output="fits"[^>]*>Yes</dd>', page)
    assert re.search(r'<option value="mi300x" selected', page)
    root = Collector()
    root.feed(page)
    defaults = json.loads(root.elements[0][1]["data-defaults"])  # what Reset restores
    assert defaults["tp"] == "8" and defaults["memory_per_accelerator"] == "192" and defaults["params"] == "70"


def test_an_invalid_scenario_fails_the_build():
    with pytest.raises(ValueError, match="tp"):
        render_form(parallelism, "calc-x", {"tp": 0})
    with pytest.raises(ValueError, match="unknown input 'gpus'"):
        render_form(parallelism, "calc-x", {"gpus": 8})


def test_block_survives_python_markdown_untouched(form_html):
    assert "\n\n" not in form_html
    page = f"# Training\n\nSome *prose* first.\n\n{form_html}\n\nAnd **after**.\n"
    out = markdown.markdown(page, extensions=["md_in_html", "attr_list"])
    assert form_html in out
    assert "<p>Some <em>prose</em> first.</p>" in out and "<p>And <strong>after</strong>.</p>" in out


class Shape(HTMLParser):
    """The element structure of HTML (tags, attributes, non-blank text), blind to whitespace."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        # a bare boolean attribute equals its long form: hidden == hidden="hidden"
        self.items.append(("<", tag, tuple(sorted((name, name if value is None else value) for name, value in attrs))))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self.items.append((">", tag))

    def handle_data(self, data):
        if data.strip():
            self.items.append(("text", data.strip()))


def shape(fragment: str) -> list[tuple]:
    parser = Shape()
    parser.feed(fragment)
    parser.close()
    return parser.items


def test_block_keeps_its_structure_inside_a_markdown_section(form_html):
    """The generator nests the block in <section markdown>, where md_in_html re-parses HTML."""
    page = f'<section class="lm-depth" markdown>\n\n## D4\n\nSome text.\n\n{form_html}\n\nAfter.\n\n</section>\n'
    out = markdown.markdown(page, extensions=["md_in_html", "attr_list", "toc"])
    start, end = out.index('<div class="lm-calc"'), out.index("<p>After.</p>")
    assert shape(out[start:end]) == shape(form_html)


def test_text_is_escaped():
    class Evil:
        __name__ = "calculators.evil"
        TITLE = 'x"<script>'
        INPUTS = [{"name": "a", "label": "<b>A</b>", "unit": "", "control": "number", "min": 1, "max": 2, "step": 1, "scale": "linear", "default": 1, "help": "&"}]
        OUTPUTS = [{"name": "a", "label": "A", "unit": "", "format": "number"}]

        @staticmethod
        def compute(*, a):
            return {"a": a}

    page = render_form(Evil, "calc-evil")
    assert "<b>A</b>" not in page and "<script>" not in page
    assert html.escape("<b>A</b>") in page


def test_model_notes_and_assumptions_are_shown_as_text_and_the_notes_box_hides_when_empty(monkeypatch):
    """compute()'s ``notes`` (where the model stops holding) show beside the results, escaped;
    the ASSUMPTIONS list sits under the figures."""
    real = parallelism.compute

    def with_notes(**inputs):
        values = real(**inputs)
        return {**values, "notes": ["<b>far</b> outside the range"] if inputs["pp"] > 1 else []}

    monkeypatch.setattr(parallelism, "compute", with_notes)
    monkeypatch.setattr(parallelism, "ASSUMPTIONS", ["Holds <i>only</i> while x is small."], raising=False)
    quiet = render_form(parallelism, "calc-a", {})
    noted = render_form(parallelism, "calc-b", {"pp": 8})
    assert re.search(r'<div class="lm-calc__notes" data-role="notes" hidden>', quiet)
    assert '<li>&lt;b&gt;far&lt;/b&gt; outside the range</li>' in noted
    assert 'data-role="notes" hidden' not in noted
    assert "<li>Holds &lt;i&gt;only&lt;/i&gt; while x is small.</li>" in quiet
    result = evaluate(parallelism, {"pp": "8"})
    assert result["notes"] == ["<b>far</b> outside the range"]
    assert result["announcement"].endswith("Note: <b>far</b> outside the range")
