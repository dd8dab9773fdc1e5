"""From raw form text to what a reader sees: numbers, formatted strings, errors and figures."""

from __future__ import annotations

import json
import math

from .figures import draw_figures
from .values import allowed_range, format_input, format_output, parse_input, quoted


def default_raw(module: object) -> dict[str, str]:
    """The form text of every input's default (what Reset puts back)."""
    return {spec["name"]: format_input(spec, spec["default"]) for spec in module.INPUTS}


def raw_from_values(module: object, values: dict | None) -> dict[str, str]:
    """Form text for a scenario: numbers are base units, strings are form text as typed."""
    raw = default_raw(module)
    specs = {spec["name"]: spec for spec in module.INPUTS}
    for name, value in (values or {}).items():
        if name not in specs:
            raise ValueError(f"unknown input {name!r} (inputs: {', '.join(specs)})")
        raw[name] = value if isinstance(value, str) else input_text(specs[name], value)
    return raw


def input_text(spec: dict, value: object) -> str:
    """format_input for a scenario's number, refusing one too large for a float."""
    try:
        return format_input(spec, value)
    except OverflowError:
        raise ValueError(f"{spec['label']} must be {allowed_range(spec)} (got {quoted(value)})") from None


def field_of_message(module: object, message: str) -> str:
    """The input a compute() error is about: its message starts with the field's name."""
    for spec in sorted(module.INPUTS, key=lambda spec: -len(spec["name"])):
        if message.startswith(spec["name"] + " "):
            return spec["name"]
    return FORM


def reader_message(module: object, field: str, message: str) -> str:
    """Swap the field's Python name for its visible label: "tp must…" -> "Tensor-parallel ways must…"."""
    for spec in module.INPUTS:
        if spec["name"] == field:
            return spec["label"] + message[len(field):]
    return message


def key_outputs(module: object) -> list[dict]:
    """The outputs marked ``announce`` (else the first three): read out after each change and
    kept in view at a glance while the reader works on the inputs."""
    return [spec for spec in module.OUTPUTS if spec.get("announce")] or module.OUTPUTS[:3]


def announcement(module: object, display: dict[str, str], notes: list[str] | tuple[str, ...] = ()) -> str:
    """The sentence the live region reads out: the key outputs with their values, then any
    note on where the model stops holding."""
    said = "; ".join(f"{spec['label']}: {display[spec['name']]}" for spec in key_outputs(module)) + "."
    return " ".join([said, *(f"Note: {note}" for note in notes)])


def model_notes(values: dict) -> list[str]:
    """What compute() says about where its model stops holding for these inputs: a list of
    sentences under ``values["notes"]`` (none when the inputs are inside the model's range).
    They are shown beside the results, not as errors: the numbers are still the model's."""
    notes = values.get("notes", [])
    return [str(note) for note in notes] if isinstance(notes, (list, tuple)) else []


LARGEST_RESULT = 1e30  # beyond any quantity the calculators model (≈ a million times today's largest training run in FLOP)
FORM = "_form"  # errors about the inputs together, not one field


def result_problem(module: object, values: dict) -> str | None:
    """Why the outputs cannot be shown: one is not a finite number, or absurdly large (an
    extreme combination of inputs that are each within range). None when all are sane.
    An output declared ``"endless": True`` may be +∞, shown as "∞": a run that never ends."""
    for spec in module.OUTPUTS:
        value = values.get(spec["name"])
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if spec.get("endless") and value == math.inf:
            continue
        if not math.isfinite(value):
            return f"{spec['label']} is not a finite number for these values: bring the values nearer their defaults"
        if abs(value) > LARGEST_RESULT:
            return (f"{spec['label']} comes out above 10³⁰, beyond what this calculator models: "
                    "bring the values nearer their defaults")
    return None


def computed(module: object, parsed: dict, errors: dict[str, str]) -> dict | None:
    """module.compute's values, or None with the reason in ``errors`` (by field, else FORM)."""
    try:
        values = module.compute(**parsed)
    except ValueError as error:
        field = field_of_message(module, str(error))
        errors[field] = reader_message(module, field, str(error))
        return None
    except ArithmeticError:  # overflow or division by zero at an extreme combination
        errors[FORM] = "These values cannot be computed together (a number overflows): bring them nearer their defaults"
        return None
    problem = result_problem(module, values)
    if problem:
        errors[FORM] = problem
        return None
    return values


def evaluate(module: object, raw: dict[str, str]) -> dict:
    """Parse ``raw`` per module.INPUTS, run module.compute, format outputs and draw figures.

    Returns plain data only (safe to hand to JavaScript): ok, values, display, notes, errors,
    figures, announcement. Missing fields take their defaults. Bad input never raises: it
    comes back in ``errors`` keyed by input name, with a message naming the field and range.
    """
    parsed: dict[str, object] = {}
    errors: dict[str, str] = {}
    for spec in module.INPUTS:
        text = raw.get(spec["name"], format_input(spec, spec["default"]))
        try:
            parsed[spec["name"]] = parse_input(spec, text)
        except ValueError as error:
            errors[spec["name"]] = str(error)
    values = None if errors else computed(module, parsed, errors)
    if values is None:
        return {"ok": False, "values": parsed, "display": {}, "notes": [], "errors": errors, "figures": {}, "announcement": "Check the highlighted field: " + next(iter(errors.values()))}
    display = {spec["name"]: format_output(spec, values[spec["name"]]) for spec in module.OUTPUTS}
    notes = model_notes(values)
    return {
        "ok": True,
        "values": values,
        "display": display,
        "notes": notes,
        "errors": {},
        "figures": draw_figures(module, values),
        "announcement": announcement(module, display, notes),
    }


def evaluate_json(module: object, raw_json: str) -> str:
    """evaluate() across the browser worker's boundary: form text in, plain data out, as JSON.

    One string each way costs less than converting nested objects between Python and
    JavaScript and cloning them into the worker's message. JSON has no Infinity or NaN: such
    a number goes out as null (its displayed text already says what it is).
    """
    raw = {str(key): str(value) for key, value in json.loads(raw_json).items()}
    result = evaluate(module, raw)
    try:
        return json.dumps(result, ensure_ascii=False, allow_nan=False)
    except ValueError:  # a non-finite number somewhere: rare, so cleaned only then
        return json.dumps(finite_only(result), ensure_ascii=False, allow_nan=False)


def finite_only(data: object) -> object:
    """``data`` with every infinite or NaN float replaced by None, at any depth."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite_only(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite_only(value) for value in data]
    return data
