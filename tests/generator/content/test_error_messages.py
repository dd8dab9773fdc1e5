"""The table of schema error wordings: complete for the schema's own rules, blind to pydantic's phrasing."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest
from mini_project import BOARDS as GOOD
from pydantic import ValidationError
from test_schema_errors import BROKEN, BROKEN_SOURCES, SOURCE

from generator.content import error_messages, fields, schema, sources
from generator.content.model_paths import Failure
from generator.content.schema import Bibliography, Topic
from generator.content.schema_errors import EXPLANATIONS, diagnostics_from, explain
from generator.content.yaml_source import parse_yaml


def _rule_types() -> set[str]:
    """Every error type the schema's modules raise themselves (rule_error / PydanticCustomError)."""
    trees = [ast.parse(inspect.getsource(module)) for module in (schema, fields, sources)]
    return {node.args[0].value for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("rule_error", "PydanticCustomError")
            and node.args and isinstance(node.args[0], ast.Constant)}


def test_every_rule_of_the_schema_has_its_wording_in_the_table() -> None:
    rules = _rule_types()
    assert {"partial_date", "source_not_findable", "step_kind", "claim_kind"} <= rules
    assert rules <= EXPLANATIONS.keys()


def test_every_checked_form_of_text_but_module_names_has_its_own_wording() -> None:
    patterns = {value for name, value in vars(schema).items() if name.endswith("_PATTERN")}
    assert patterns - error_messages.PATTERNS.keys() == {schema.MODULE_NAME_PATTERN}


class _Reworded:
    """A ValidationError whose messages pydantic phrased differently (as a new version might)."""

    def __init__(self, error: ValidationError) -> None:
        self._errors = error.errors()

    def errors(self) -> list[dict]:
        rules = _rule_types()
        return [error if error["type"] in rules else {**error, "msg": "Reworded by a new pydantic"}
                for error in self._errors]


@pytest.mark.parametrize(("text", "model"), [(t, Topic) for t in BROKEN] + [(t, Bibliography) for t in BROKEN_SOURCES]
                         + [(SOURCE + '    date: "2024-02-30"\n', Bibliography),
                            (GOOD + "examples: {as_of: 2026-13-01, items: [{name: a, kind: b}]}\n", Topic)])
def test_wording_does_not_depend_on_pydantics_messages(text: str, model: type) -> None:
    doc = parse_yaml(textwrap.dedent(text))
    with pytest.raises(ValidationError) as caught:
        model.model_validate(doc.data)
    reworded = diagnostics_from(_Reworded(caught.value), model, doc, "t.yaml")  # type: ignore[arg-type]
    assert reworded == diagnostics_from(caught.value, model, doc, "t.yaml")


def test_a_rule_raised_with_its_fix_is_reported_with_it() -> None:
    doc = parse_yaml(SOURCE.replace("    url: https://example.org/t\n", "") + '    date: "2024"\n')
    with pytest.raises(ValidationError) as caught:
        Bibliography.model_validate(doc.data)
    assert [(d.path, d.message, d.hint) for d in diagnostics_from(caught.value, Bibliography, doc, "t.yaml")] == [
        ("sources.a", "the source cannot be found: it has no `url`, `doi` or `arxiv`",
         "add where readers find it: `url: https://…`, `doi: 10.…` or `arxiv: 2407.21783`")]


@pytest.mark.parametrize(("value", "slip"), [
    ("2026-13-01", "month"), ("2026-00-01", "month"), ("2026-02-29", "day"), ("2024-02-29", ""),
    ("2026-01-00", "day"), ("2026-1-5", ""), ("2026-02-30T10:00", "day"), (20260101, ""), ("last year", ""),
])
def test_calendar_slip_names_the_part_that_is_no_day(value: object, slip: str) -> None:
    assert error_messages._calendar_slip(value) == slip


def test_an_error_type_outside_the_table_keeps_pydantics_message_and_the_fields_description() -> None:
    failure = Failure(Topic, ("layer",), "some_new_type", 3, {}, "Input is odd")
    assert explain(failure) == ("Input is odd", "Number of a layer defined in map.yaml")
