"""The HTML block of a calculator, drawn entirely from its declaration.

Results and figures are pre-rendered from compute() so the page shows real numbers with
JavaScript off; calculator.js later wires the same elements to the live worker. The block
has no blank lines, so Python-Markdown passes it through as one raw HTML block.
"""

from __future__ import annotations

import json
import math
from html import escape

from .evaluate import evaluate, key_outputs, raw_from_values
from .site_files import calculator_python_files
from .values import format_input


def attributes(**pairs: object) -> str:
    """HTML attributes from keyword pairs: data_x -> data-x, True -> bare, None/False -> left out."""
    parts = []
    for key, value in pairs.items():
        name = key.rstrip("_").replace("_", "-")
        if value is None or value is False:
            continue
        parts.append(f" {name}" if value is True else f' {name}="{escape(str(value))}"')
    return "".join(parts)


def slider_position(spec: dict, shown: float) -> str:
    """The range input's value: the shown number, or its log10 for a log-scale slider."""
    if spec.get("scale") == "log":
        return f"{math.log10(min(max(shown, spec['min']), spec['max'])):.6g}"
    return f"{min(max(shown, spec['min']), spec['max']):.6g}"


def slider(spec: dict, field_id: str, raw_text: str) -> str:
    try:
        shown = float(raw_text)
    except ValueError:
        shown = float(spec["min"])
    log = spec.get("scale") == "log"
    return "<input" + attributes(
        type="range",
        id=f"{field_id}-slider",
        class_="lm-calc__slider",
        min=f"{math.log10(spec['min']):.6g}" if log else spec["min"],
        max=f"{math.log10(spec['max']):.6g}" if log else spec["max"],
        step="any" if log else spec["step"],
        value=slider_position(spec, shown),
        data_scale="log" if log else "linear",
        data_step=spec["step"],
        data_slider_for=spec["name"],
        aria_label=f"{spec['label']} slider",
        aria_describedby=f"{field_id}-help",
    ) + ">"


def select_control(spec: dict, field_id: str, raw_text: str, described_by: str) -> str:
    options = "".join(
        f"<option{attributes(value=option['value'], selected=option['value'] == raw_text)}>{escape(option['label'])}</option>"
        for option in spec["options"]
    )
    return f"<select{attributes(id=field_id, name=spec['name'], class_='lm-calc__select', data_field=spec['name'], aria_describedby=described_by)}>{options}</select>"


def field(spec: dict, instance_id: str, raw_text: str) -> str:
    field_id = f"{instance_id}-{spec['name']}"
    described_by = f"{field_id}-help {field_id}-error"
    unit = f'<span class="lm-calc__unit">{escape(spec["unit"])}</span>' if spec.get("unit") else ""
    if spec["control"] == "select":
        control = select_control(spec, field_id, raw_text, described_by)
    else:
        number_box = "<input" + attributes(
            type="text",
            inputmode="decimal",
            autocomplete="off",
            spellcheck="false",
            id=field_id,
            name=spec["name"],
            class_="lm-calc__number",
            value=raw_text,
            size=8,
            data_field=spec["name"],
            aria_describedby=described_by,
        ) + ">"
        control = (slider(spec, field_id, raw_text) if spec["control"] == "slider" else "") + number_box + unit
        unit = ""
    return (
        f'<div class="lm-calc__field" data-field-box="{escape(spec["name"])}">'
        f'<p class="lm-calc__label"><label for="{field_id}">{escape(spec["label"])}</label></p>'
        f'<p class="lm-calc__control">{control}{unit}</p>'
        f'<p class="lm-calc__help" id="{field_id}-help">{escape(spec.get("help", ""))}</p>'
        f'<p class="lm-calc__error" id="{field_id}-error" data-error-for="{escape(spec["name"])}"></p>'
        "</div>"
    )


def preset_option_values(module: object, option: dict) -> dict[str, str]:
    specs = {spec["name"]: spec for spec in module.INPUTS}
    return {name: format_input(specs[name], value) for name, value in option["values"].items()}


def preset_select(module: object, group: dict, instance_id: str, raw: dict[str, str]) -> str:
    """A select that fills a group of fields; "Custom" when the fields match no preset."""
    select_id = f"{instance_id}-preset-{group['name']}"
    options = ['<option value="">Custom</option>']
    for option in group["options"]:
        values = preset_option_values(module, option)
        chosen = all(raw.get(name) == text for name, text in values.items())
        options.append(
            f"<option{attributes(value=option['id'], selected=chosen, data_values=json.dumps(values), data_source=option.get('source'))}>"
            f"{escape(option['label'])}</option>"
        )
    return (
        f'<div class="lm-calc__field lm-calc__preset">'
        f'<p class="lm-calc__label"><label for="{select_id}">{escape(group["label"])} preset</label></p>'
        f"<p class=\"lm-calc__control\"><select{attributes(id=select_id, class_='lm-calc__select', data_preset=group['name'])}>{''.join(options)}</select></p>"
        "</div>"
    )


def outputs_list(module: object, display: dict[str, str], values: dict | None = None) -> str:
    """Outputs as the reader sees them; ``data-value`` carries the exact number for tests and tools."""
    values = values or {}
    rows = "".join(
        f'<div class="lm-calc__output" data-output-box="{escape(spec["name"])}">'
        f"<dt>{escape(spec['label'])}</dt>"
        f'<dd data-output="{escape(spec["name"])}"{attributes(data_value=json.dumps(values.get(spec["name"])))}>'
        f'{escape(display.get(spec["name"], "—"))}</dd></div>'
        for spec in module.OUTPUTS
    )
    return f'<dl class="lm-calc__outputs">{rows}</dl>'


def glance_bar(module: object, display: dict[str, str]) -> str:
    """The key outputs in one line that stays in view (CSS sticky) while the reader scrolls the
    inputs. Hidden from assistive technology: it repeats the results, which are announced. While
    the values are refused (a shared link's too) it says why instead (calculator.js), where the
    reader looks, rather than show the last valid values' results as if they were these."""
    items = "".join(
        f'<span class="lm-calc__glance-item">{escape(spec["label"])} '
        f'<b data-glance="{escape(spec["name"])}">{escape(display.get(spec["name"], "—"))}</b></span>'
        for spec in key_outputs(module)
    )
    return f'<p class="lm-calc__glance" aria-hidden="true">{items}<span class="lm-calc__glance-error" data-role="glance-error" hidden></span></p>'


def notes_block(notes: list[str]) -> str:
    """Where the model stops holding for the shown inputs: visible notes, not errors (the
    numbers are still the model's). Always present, so the live page can fill it."""
    items = "".join(f"<li>{escape(note)}</li>" for note in notes)
    return (f'<div class="lm-calc__notes" data-role="notes"{attributes(hidden=not notes)}>'
            f'<p class="lm-calc__notes-title">Outside the model\'s range</p><ul data-role="notes-list">{items}</ul></div>')


def assumptions_block(module: object) -> str:
    """What the calculator assumes and leaves out, as the module declares it (ASSUMPTIONS)."""
    items = "".join(f"<li>{escape(text)}</li>" for text in getattr(module, "ASSUMPTIONS", []))
    return (f'<details class="lm-calc__assumptions"><summary>What this calculator assumes, and where it stops</summary>'
            f"<ul>{items}</ul></details>") if items else ""


def figures_block(module: object, figures: dict[str, str]) -> str:
    items = "".join(
        f'<figure class="lm-calc__figure" data-figure="{escape(figure["name"])}">'
        f'<div class="lm-calc__figure-art" data-figure-art="{escape(figure["name"])}">{figures.get(figure["name"], "")}</div>'
        f"<figcaption>{escape(figure.get('title', figure['name']))}</figcaption></figure>"
        for figure in getattr(module, "FIGURES", [])
    )
    return f'<div class="lm-calc__figures">{items}</div>' if items else ""


def calculator_name(module: object) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def render_form(module: object, instance_id: str, values: dict | None = None) -> str:
    """The whole calculator as one raw HTML block, results pre-rendered for ``values``.

    ``values`` overrides the declared defaults (numbers in base units, strings as form text)
    and becomes this block's defaults: what Reset restores and what the URL state is relative to. Raises
    ValueError when that scenario is invalid, so a build fails instead of shipping "—".
    """
    raw = raw_from_values(module, values)
    result = evaluate(module, raw)
    if not result["ok"]:
        raise ValueError(f"calculator {calculator_name(module)} ({instance_id}): invalid scenario: {result['errors']}")
    root = attributes(
        class_="lm-calc",
        id=instance_id,
        data_calculator=calculator_name(module),
        data_defaults=json.dumps(raw),  # this block's starting scenario: what Reset restores
        data_python_files=json.dumps(calculator_python_files(calculator_name(module))),  # what the worker fetches
    )
    presets = "".join(preset_select(module, group, instance_id, raw) for group in getattr(module, "PRESETS", []))
    fields = "".join(field(spec, instance_id, raw[spec["name"]]) for spec in module.INPUTS)
    parts = [
        f"<div{root}>",
        f'<form class="lm-calc__form" aria-label="{escape(module.TITLE)}" autocomplete="off">',
        f'<p class="lm-calc__status" role="status" data-state="static">Results worked out when the page was built; the live calculator starts by itself (it needs JavaScript).</p>',
        f'<fieldset class="lm-calc__presets"><legend>Presets</legend>{presets}</fieldset>' if presets else "",
        f'<fieldset class="lm-calc__inputs"><legend>Inputs</legend>{fields}</fieldset>',
        '<p class="lm-calc__error lm-calc__form-error" data-error-for="_form"></p>',  # about the values together
        '<p class="lm-calc__actions"><button type="button" class="lm-calc__reset" data-action="reset">Reset to defaults</button>'
        f' <a class="lm-calc__link" href="#{escape(instance_id)}" data-role="link">Link to this scenario</a></p>',
        glance_bar(module, result["display"]),
        "</form>",
        '<div class="lm-calc__results"><p class="lm-calc__results-title">Results</p>'
        '<p class="lm-calc__invalid-note" data-role="invalid-note" hidden>These results are for the last valid values: correct the highlighted field to update them.</p>'
        f'{outputs_list(module, result["display"], result["values"])}{notes_block(result["notes"])}</div>',
        figures_block(module, result["figures"]),
        assumptions_block(module),
        f'<p class="lm-calc__announce" aria-live="polite" aria-atomic="true" data-role="announce"></p>',
        "</div>",
    ]
    return "\n".join(part for part in parts if part)
