"""The whole map at full depth (issue 30): every topic explains itself at D1-D5, and each D5 shows
the frontier, citing at least three sources from 2025-2026."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.content.citations import cited_keys
from generator.content.yaml_source import text_fields
from tests.conftest import real_content

ROOT = Path(__file__).resolve().parents[2]
CONTENT = real_content()
TOPICS = [tf.topic for tf in CONTENT.topics]


def test_the_map_keeps_its_topics_and_no_layer_falls_below_two() -> None:
    assert len(TOPICS) >= 21
    layers = {layer.number: 0 for layer in CONTENT.map.layers}
    for topic in TOPICS:
        layers[topic.layer] += 1
    assert min(layers.values()) >= 2, layers


@pytest.mark.parametrize("topic", TOPICS, ids=lambda t: t.id)
def test_every_topic_has_every_depth(topic) -> None:  # noqa: ANN001
    assert [key for key, _ in topic.depths.present()] == ["D1", "D2", "D3", "D4", "D5"]


@pytest.mark.parametrize("topic", TOPICS, ids=lambda t: t.id)
def test_each_frontier_cites_three_recent_sources(topic) -> None:  # noqa: ANN001
    assert topic.depths.D5 is not None
    keys = {key for _, text in text_fields(topic.depths.D5.model_dump(exclude_none=True)) for key, _ in cited_keys(text)}
    recent = sorted(key for key in keys if CONTENT.bibliography[key].date[:4] in ("2025", "2026"))
    assert len(recent) >= 3, f"{topic.id} D5 cites only {recent} from 2025-2026"
