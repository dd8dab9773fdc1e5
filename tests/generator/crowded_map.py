"""A generated project the size the map is growing to: 20 topics over six layers, 43 typed edges.

Titles and verb phrases are the length the real ones are (issue 17 adds topics to layers 1, 4, 5
and 6), so the layout and the drawn map are tested at the density readers will meet.
"""

from __future__ import annotations

from pathlib import Path

from tests.generator.mini_project import MiniProject, copy_mini

ROOT = Path(__file__).resolve().parents[2]

TOPICS = {  # id: (layer, title)
    "power-cooling": (1, "Power & cooling for AI data centres"),
    "electricity-supply": (1, "Where the electricity comes from"),
    "gpu-accelerators": (2, "GPUs & AI accelerators"),
    "chip-interconnect": (2, "Chip-to-chip interconnect"),
    "gpu-clusters": (3, "GPU clusters & orchestration"),
    "cluster-networking": (3, "Cluster networking"),
    "gpu-clouds": (3, "GPU clouds & neoclouds"),
    "local-vs-cloud": (3, "Running locally vs in the cloud"),
    "training-vs-inference": (3, "Training vs inference infrastructure"),
    "data-curation": (4, "Data curation and mixing"),
    "tokenisation": (4, "Tokenisation"),
    "synthetic-licensed-data": (4, "Synthetic and licensed data"),
    "transformers": (5, "The transformer"),
    "scaling-laws": (5, "Pre-training and scaling laws"),
    "post-training": (5, "Post-training"),
    "mixture-of-experts": (5, "Mixture-of-experts and efficient architectures"),
    "evaluation": (5, "Evaluation and benchmarks"),
    "chat-assistants": (6, "Chat assistants and the cost of an answer"),
    "retrieval": (6, "Retrieval-augmented generation"),
    "agents": (6, "Agents and tool use"),
}

EDGES = [  # (subject, verb, object, kind)
    ("power-cooling", "powers and cools the data centres of", "gpu-clouds", "powers"),
    ("power-cooling", "powers and cools", "gpu-clusters", "powers"),
    ("electricity-supply", "feeds the substations of", "power-cooling", "powers"),
    ("electricity-supply", "limits where you can build", "gpu-clusters", "powers"),
    ("chip-interconnect", "hands off to", "cluster-networking", "connects"),
    ("chip-interconnect", "joins chips into", "gpu-clusters", "connects"),
    ("gpu-accelerators", "are linked by", "chip-interconnect", "connects"),
    ("gpu-accelerators", "exchange gradients over", "cluster-networking", "connects"),
    ("gpu-accelerators", "are networked into", "gpu-clusters", "builds"),
    ("cluster-networking", "ties together", "gpu-clusters", "connects"),
    ("gpu-clouds", "rent out", "gpu-accelerators", "rents"),
    ("gpu-clouds", "rent out", "gpu-clusters", "rents"),
    ("gpu-clusters", "runs classifiers for", "data-curation", "feeds"),
    ("local-vs-cloud", "is one serving choice within", "training-vs-inference", "builds"),
    ("local-vs-cloud", "weighs renting from", "gpu-clouds", "rents"),
    ("local-vs-cloud", "runs on consumer versions of", "gpu-accelerators", "runs-on"),
    ("training-vs-inference", "both run on", "gpu-clusters", "runs-on"),
    ("training-vs-inference", "is paced by the memory speed of", "gpu-accelerators", "runs-on"),
    ("tokenisation", "splits the text of", "data-curation", "feeds"),
    ("synthetic-licensed-data", "tops up", "data-curation", "feeds"),
    ("synthetic-licensed-data", "is generated with", "transformers", "builds"),
    ("scaling-laws", "budget the compute of", "gpu-clusters", "runs-on"),
    ("scaling-laws", "decide how many tokens come from", "data-curation", "feeds"),
    ("scaling-laws", "predict the loss of", "transformers", "builds"),
    ("transformers", "read the tokens of", "tokenisation", "feeds"),
    ("transformers", "are trained on", "gpu-clusters", "runs-on"),
    ("transformers", "are paced by the memory of", "gpu-accelerators", "runs-on"),
    ("post-training", "fine-tunes", "transformers", "builds"),
    ("post-training", "learns from the preference data of", "synthetic-licensed-data", "feeds"),
    ("post-training", "runs on", "gpu-clusters", "runs-on"),
    ("mixture-of-experts", "is a sparse kind of", "transformers", "builds"),
    ("mixture-of-experts", "sends tokens between experts over", "cluster-networking", "connects"),
    ("evaluation", "measures what comes out of", "post-training", "builds"),
    ("evaluation", "checks for test leaks in", "data-curation", "feeds"),
    ("chat-assistants", "are served from", "training-vs-inference", "runs-on"),
    ("chat-assistants", "answer with models shaped by", "post-training", "builds"),
    ("chat-assistants", "pay per token to", "gpu-clouds", "rents"),
    ("chat-assistants", "can run on a laptop via", "local-vs-cloud", "runs-on"),
    ("retrieval", "adds passages to the prompts of", "chat-assistants", "feeds"),
    ("retrieval", "cuts documents with", "tokenisation", "feeds"),
    ("agents", "call tools through", "chat-assistants", "builds"),
    ("agents", "search with", "retrieval", "builds"),
    ("agents", "are scored by", "evaluation", "builds"),
]


def topic_yaml(topic_id: str) -> str:
    layer, title = TOPICS[topic_id]
    lines = [f"id: {topic_id}", f"title: {title}", f"layer: {layer}",
             f"summary: What {title.lower()} is, in one line.", "depths:", "  D1:", "    body: A short story."]
    edges = [e for e in EDGES if e[0] == topic_id]
    if edges:
        lines.append("edges:")
        for subject, verb, obj, kind in edges:
            lines += [f"  - subject: {subject}", f"    verb: {verb}", f"    object: {obj}", f"    kind: {kind}"]
    return "\n".join(lines) + "\n"


def crowded_project(root: Path) -> MiniProject:
    """The mini project with the real map's layers and edge kinds and the 20 topics above."""
    project = copy_mini(root)
    for old in project.content.rglob("*.yaml"):
        if old.name not in ("map.yaml", "sources.yaml"):
            old.unlink()
    project.write("map.yaml", (ROOT / "content" / "map.yaml").read_text(encoding="utf-8"))
    for topic_id, (layer, _) in TOPICS.items():
        project.write(f"layer-{layer}/{topic_id}.yaml", topic_yaml(topic_id))
    return project
