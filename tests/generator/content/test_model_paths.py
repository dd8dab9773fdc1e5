"""Key paths: pydantic's locations reduced to editors' keys, and the models they point into."""

from __future__ import annotations

from generator.content.model_paths import data_path, dotted, field_at, model_at
from generator.content.schema import (
    Bibliography,
    CalculatorRef,
    Depth,
    Depths,
    Edge,
    Flow,
    FlowStep,
    SourceRecord,
    Topic,
)


def test_dotted_paths() -> None:
    assert dotted(("depths", "D1", "flow", "steps", 0, "label")) == "depths.D1.flow.steps[0].label"
    assert dotted(("sources", 2)) == "sources[2]"
    assert dotted(()) == ""


def test_model_at_follows_fields_lists_and_optionals() -> None:
    assert model_at(Topic, ()) is Topic
    assert model_at(Topic, ("depths",)) is Depths
    assert model_at(Topic, ("depths", "D4")) is Depth
    assert model_at(Topic, ("depths", "D4", "flow", "steps", 0)) is FlowStep
    assert model_at(Topic, ("depths", "D4", "flow")) is Flow
    assert model_at(Topic, ("edges", 3)) is Edge
    assert model_at(Bibliography, ("sources", "smith2024")) is SourceRecord
    assert model_at(Topic, ("depths", "D4", "calculator")) is CalculatorRef
    assert model_at(Topic, ("title",)) is None
    assert model_at(Topic, ("nonsense", "x")) is None


def test_data_path_drops_union_branch_and_validator_names() -> None:
    data = {"sources": [{"date": [1]}], "values": {"tp": [1]}}
    assert data_path(("sources", 0, "date", "function-after[_check_partial_date(), str]"), data, "string_type") == (
        "sources", 0, "date")
    assert data_path(("values", "tp", "constrained-str"), data, "string_type") == ("values", "tp")
    assert data_path(("values", "tp", "float"), data, "float_type") == ("values", "tp")
    assert data_path(("sources", 0, "title"), data, "missing") == ("sources", 0, "title")


def test_field_at_reads_the_declaration_of_a_field_but_not_of_a_list_item() -> None:
    assert field_at(Topic, ("layer",)).description == "Number of a layer defined in map.yaml."
    assert field_at(Topic, ("edges", 0, "verb")).is_required()
    assert field_at(Topic, ("edges", 0)) is None
    assert field_at(Topic, ()) is None
