"""Synthetic layermap projects for the scale benchmarks (``build_scale.py``).

``write_project(root, topics, seed)`` writes a realistic ``content/map.yaml`` with ten layers,
topics with D1, D2 and D4 bodies, flows, trade-offs, cited sources (one map-wide
``content/sources.yaml``), examples and edges, no calculators; plus the project's ``mkdocs.yml``
and a link to the pinned npm packages. The same seed always writes the same map.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
from datetime import date
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]

# --- synthetic content -------------------------------------------------------------------

LAYERS = [
    ("Energy & Facilities", "The electricity, buildings and cooling that every AI computer depends on.", 6),
    ("Chips & Hardware", "The processors, memory and chip-to-chip links that do the arithmetic.", 11),
    ("Networking & Interconnect", "The switches, cables and protocols that tie accelerators into one machine.", 8),
    ("Cloud & Infrastructure", "How chips are wired into clusters, scheduled and rented out.", 12),
    ("Data", "Collecting, cleaning, filtering and mixing what models learn from.", 11),
    ("Models & Training", "How models are designed, trained and tuned.", 15),
    ("Evaluation & Safety", "Measuring what models can do and keeping them within bounds.", 9),
    ("Serving & Inference", "Running trained models fast and cheaply for many users.", 10),
    ("Applications & Products", "The assistants, tools and services people use.", 11),
    ("Society & Policy", "Rules, markets and the people affected by AI systems.", 7),
]
EDGE_KINDS = [("powers", "powers", "#e8590c"), ("connects", "connects", "#3b82f6"),
              ("builds", "is part of / is built into", "#9775fa"), ("rents", "rents", "#e64980"),
              ("feeds", "feeds", "#2f9e44"), ("runs-on", "runs on", "#1098ad")]
VERBS = {"powers": "powers", "connects": "connects to", "builds": "is built into",
         "rents": "rents capacity from", "feeds": "feeds", "runs-on": "runs on"}

ADJECTIVES = """adaptive sparse dense distributed federated quantised elastic streaming cached
sharded hybrid optical liquid modular secure private synthetic multimodal continual
speculative hierarchical low-latency high-bandwidth fault-tolerant open""".split()
SUBJECTS = """attention memory cooling power network storage scheduler compiler kernel tokenizer
dataset checkpoint optimizer router cache retrieval embedding evaluation alignment
inference batching pipeline interconnect transformer""".split()
NOUNS = """clusters systems fabrics pipelines runtimes accelerators benchmarks policies markets
architectures protocols services layers platforms controllers frameworks""".split()
WORDS = """model models training data chip chips memory bandwidth latency throughput cost power
energy cluster node nodes network switch packet tensor matrix layer layers weights gradient
gradients optimiser batch token tokens sequence context cache request requests user users
server servers rack racks cooling water air heat efficiency utilisation failure failures
checkpoint schedule scheduler queue job jobs replica replicas shard shards parameter
parameters precision accuracy benchmark score evaluation dataset corpus filter quality
price market contract capacity demand supply region grid site building transformer
operator vendor standard protocol link links fabric topology bisection collective reduce
gather scatter stream streams kernel compiler runtime driver firmware instance instances""".split()
VERBS_TEXT = """moves splits shares limits doubles halves raises lowers feeds drives stores
schedules balances reduces measures caches streams routes checks trades saves spends
needs keeps joins serves""".split()
LINKERS = ["because", "while", "so that", "although", "when", "until", "and", "but", "since"]
FAMILIES = """Smith Chen Garcia Kumar Nguyen Müller Rossi Tanaka Kowalski Okafor Silva Dubois
Jensen Haddad Novak Ivanova Park Walsh Moreau Lindqvist""".split()
GIVEN = "Ada Ben Chloe Dev Eun Farah Gus Hana Ivo Jun Kai Lena Mia Nils Omar Pia Raj Sara".split()
TOOLS = "Slurm Kubernetes Ray PyTorch JAX Triton vLLM NCCL Spark Kafka Airflow ONNX TensorRT Megatron DeepSpeed".split()
KINDS = ["scheduler", "framework", "library", "service", "chip", "dataset", "benchmark", "standard"]


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


class Prose:
    """Deterministic, plausible-looking technical prose."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def sentence(self, words: tuple[int, int] = (10, 22), cite: str | None = None) -> str:
        r = self.rng
        n = r.randint(*words)
        parts = [r.choice(WORDS) for _ in range(n)]
        parts.insert(min(2, n), r.choice(VERBS_TEXT))
        if n > 12:
            parts.insert(n // 2 + 1, r.choice(LINKERS))
        if r.random() < 0.25:
            i = r.randrange(len(parts))
            parts[i] = f"**{parts[i]}**"
        if r.random() < 0.2:
            parts.insert(r.randrange(len(parts)), f"{r.randint(2, 999)} {r.choice(['GB', 'ms', 'kW', '%', 'TB/s'])}")
        text = " ".join(parts)
        text = text[0].upper() + text[1:]
        return f"{text} [@{cite}]." if cite else f"{text}."

    def paragraph(self, sentences: tuple[int, int], keys: list[str], cite_rate: float) -> str:
        out = []
        for _ in range(self.rng.randint(*sentences)):
            key = self.rng.choice(keys) if keys and self.rng.random() < cite_rate else None
            out.append(self.sentence(cite=key))
        return self.wrap(" ".join(out))

    @staticmethod
    def wrap(text: str, width: int = 88) -> str:
        lines, line = [], ""
        for word in text.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return "\n".join([*lines, line])

    def body(self, paragraphs: int, sentences: tuple[int, int], keys: list[str], cite_rate: float,
             bullets: int = 0) -> str:
        paras = [self.paragraph(sentences, keys, cite_rate) for _ in range(paragraphs)]
        if bullets:
            items = "\n".join(f"- {self.sentence((6, 14), self.rng.choice(keys) if keys else None)}"
                              for _ in range(bullets))
            paras.insert(len(paras) // 2 + 1, items)
        return "\n\n".join(paras) + "\n"

    def flow(self, steps: int) -> dict:
        return {
            "title": self.sentence((3, 6))[:-1],
            "steps": [{"label": self.rng.choice(WORDS).capitalize() + " " + self.rng.choice(WORDS),
                       "detail": self.sentence((6, 12))} for _ in range(steps)],
        }


def topic_titles(count: int, rng: random.Random) -> list[str]:
    combos = list(itertools.product(ADJECTIVES, SUBJECTS, NOUNS))
    rng.shuffle(combos)
    return [f"{a.capitalize()} {s} {n}" for a, s, n in combos[:count]]


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def sources_for(rng: random.Random, topic_number: int) -> list[dict]:
    """A topic's sources; keys are unique in the whole map (``content/sources.yaml`` is one bibliography)."""
    out, used = [], set()
    for _ in range(rng.randint(3, 5)):
        family = rng.choice(FAMILIES)
        year = rng.randint(2015, 2026)
        key = f"{slug(family).replace('-', '')}{year}t{topic_number}"
        while key in used:
            key += "b"
        used.add(key)
        authors = [f"{family}, {rng.choice(GIVEN)}"] + [
            f"{rng.choice(FAMILIES)}, {rng.choice(GIVEN)}" for _ in range(rng.randint(0, 3))]
        title = Prose(rng).sentence((5, 11))[:-1].replace("**", "")
        out.append({"id": key, "kind": "paper", "title": title, "authors": authors,
                    "date": f"{year}-{rng.randint(1, 12):02d}", "url": f"https://example.org/papers/{key}"})
    return out


def synthetic_topic(topic_id: str, title: str, layer: int, others: list[str], rng: random.Random,
                    sources: list[dict]) -> dict:
    """A topic citing ``sources`` (which go to content/sources.yaml, not into the topic)."""
    prose = Prose(rng)
    keys = [s["id"] for s in sources]
    summary = prose.sentence((16, 26)).replace("**", "")[:240].rstrip(".") + "."
    d4_body = prose.body(4, (3, 5), keys, 0.35, bullets=4)
    d4_body += f"\nEvery source is cited at least once: {'; '.join(f'[@{k}]' for k in keys)}.\n"
    depths = {
        "D1": {
            "hook": prose.sentence((7, 12))[:-1] + "?",
            "body": prose.body(2, (3, 4), [], 0.0),
            "flow": prose.flow(4),
            "analogy": prose.sentence((8, 14)),
        },
        "D2": {
            "body": prose.body(3, (3, 5), keys, 0.2),
            "flow": prose.flow(5),
            "analogy": prose.sentence((8, 14)),
            "breaks": prose.sentence((14, 24)),
        },
        "D4": {
            "body": d4_body,
            "formulas": "\n".join(f"{rng.choice(WORDS)}_{i} = {rng.choice(WORDS)} * {rng.randint(2, 64)} / "
                                  f"{rng.choice(WORDS)}   # {prose.sentence((3, 7))}" for i in range(4)),
            "tradeoffs": [prose.paragraph((1, 2), keys, 0.3) for _ in range(4)],
        },
    }
    edges = []
    for other in rng.sample(others, k=min(3, len(others))):
        kind = rng.choice(EDGE_KINDS)[0]
        edges.append({"subject": topic_id, "verb": VERBS[kind], "object": other, "kind": kind})
    return {
        "id": topic_id,
        "title": title,
        "layer": layer,
        "summary": summary,
        "depths": depths,
        "examples": {"as_of": date(2026, rng.randint(1, 11), rng.randint(1, 28)),
                     "items": [{"name": f"{rng.choice(TOOLS)} ({rng.choice(WORDS)} {rng.choice(WORDS)})",
                                "kind": rng.choice(KINDS)} for _ in range(rng.randint(3, 5))]},
        "edges": edges,
    }


def write_project(root: Path, topics: int, seed: int, code: Path = REPO) -> dict[str, str]:
    """Write a synthetic project (with ``code``'s mkdocs.yml); return {topic id: its docs-tree page path}."""
    rng = random.Random(seed * 100_003 + topics)
    content = root / "content"
    content.mkdir(parents=True)
    prose = Prose(rng)
    config = {
        "title": "A synthetic AI stack",
        "introduction": prose.body(3, (3, 5), [], 0.0),
        "depths": [{"key": k, "name": n, "audience": a} for k, n, a in [
            ("D1", "Story", "Young children and total beginners"), ("D2", "Picture", "Curious beginners"),
            ("D3", "Worked example", "Learners ready for numbers"), ("D4", "Mechanism", "Practitioners"),
            ("D5", "Frontier", "Experts")]],
        "layers": [{"number": n, "name": name, "description": desc}
                   for n, (name, desc, _) in enumerate(LAYERS, start=1)],
        "edge_kinds": [{"id": i, "label": label, "colour": colour} for i, label, colour in EDGE_KINDS],
    }
    (content / "map.yaml").write_text(yaml.dump(config, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                                                width=1000), encoding="utf-8")
    titles = topic_titles(topics, rng)
    ids = [slug(t) for t in titles]
    weights = [w for _, _, w in LAYERS]
    layers = rng.choices(range(1, len(LAYERS) + 1), weights=weights, k=topics)
    pages, bibliography = {}, {}
    for index, (topic_id, title, layer) in enumerate(zip(ids, titles, layers, strict=True)):
        others = ids[:index] + ids[index + 1:]
        sources = sources_for(rng, index)
        bibliography |= {record["id"]: {k: v for k, v in record.items() if k != "id"} for record in sources}
        data = synthetic_topic(topic_id, title, layer, others, rng, sources)
        folder = content / f"layer-{layer}"
        folder.mkdir(exist_ok=True)
        (folder / f"{topic_id}.yaml").write_text(
            yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8")
        pages[topic_id] = f"layer-{layer}/{topic_id}.md"
    (content / "sources.yaml").write_text(yaml.dump({"sources": bibliography}, Dumper=_Dumper, sort_keys=False,
                                                    allow_unicode=True, width=1000), encoding="utf-8")
    shutil.copy2(code / "mkdocs.yml", root / "mkdocs.yml")
    (root / "node_modules").symlink_to(REPO / "node_modules")  # the pinned npm packages the build ships
    return pages
