"""Numbers in prose come from the calculator that would produce them."""

from __future__ import annotations

import pytest

from generator.prose_numbers import ProseNumberError, expand_numbers


def test_expression_is_replaced_by_the_calculators_display() -> None:
    assert expand_numbers("about {{ parallelism.total_state_bytes(params=70e9) }} of state") == "about 1.12 TB of state"
    assert expand_numbers("{{parallelism.bubble(pp=8, micro_batches=1)}}") == "87.5 %"


def test_text_without_expressions_is_untouched() -> None:
    text = "Plain {braces} and {{ not a call }} stay."
    assert expand_numbers(text) == text


@pytest.mark.parametrize(("expression", "message"), [
    ("{{ parallelism.nope(params=70e9) }}", "has no output `nope`"),
    ("{{ parallelism.days(tp=0) }}", "Tensor-parallel ways must be a whole number"),
    ("{{ parallelism.days(zz=1) }}", "unknown input 'zz'"),
    ("{{ parallelism.days(tp 2) }}", "cannot read the argument `tp 2`"),
    ("{{ nosuch.days(tp=2) }}", "nosuch"),
])
def test_mistakes_raise_a_message_for_the_editor(expression: str, message: str) -> None:
    with pytest.raises(ProseNumberError, match=message.replace("(", r"\(")):
        expand_numbers(expression)
