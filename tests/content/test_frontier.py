"""Layer 3's D5 shows the frontier: each cites at least three sources from 2025-2026."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.content.citations import cited_keys
from generator.content.yaml_source import text_fields
from generator.pipeline import load_content

ROOT = Path(__file__).resolve().parents[2]
CONTENT = load_content(ROOT / "content", ROOT)
LAYER_3 = [tf.topic for tf in CONTENT.topics if tf.topic.layer == 3]


def test_layer_3_has_its_five_topics() -> None:
    assert len(LAYER_3) == 5


@pytest.mark.parametrize("topic", LAYER_3, ids=lambda t: t.id)
def test_each_layer_3_frontier_cites_three_recent_sources(topic) -> None:  # noqa: ANN001
    assert topic.depths.D5 is not None
    keys = {key for _, text in text_fields(topic.depths.D5.model_dump(exclude_none=True)) for key, _ in cited_keys(text)}
    recent = sorted(key for key in keys if CONTENT.bibliography[key].date[:4] in ("2025", "2026"))
    assert len(recent) >= 3, f"{topic.id} D5 cites only {recent} from 2025-2026"
